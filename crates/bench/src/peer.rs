//! The Playwright peer (`bench/aria.mjs`) as a subprocess speaking JSON lines: it runs its own
//! headless Chromium (the same `/usr/bin/chromium`) and times `ariaSnapshot()` itself, so the
//! numbers carry no cost of this pipe.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::BenchError;

/// How long one peer command may take (a 50k-element page's snapshot takes seconds).
const PEER_TIMEOUT: Duration = Duration::from_secs(120);

/// A running peer; killed on drop if [`Peer::quit`] was not called.
pub struct Peer {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    /// Browser version the peer reported.
    pub browser: String,
    /// playwright-core version.
    pub playwright: String,
}

/// One `ariaSnapshot()`: time in ms (measured in Node) and the snapshot's UTF-8 length in bytes.
#[derive(Debug, Clone, Copy)]
pub struct Aria {
    /// ms.
    pub ms: f64,
    /// bytes.
    pub bytes: usize,
}

impl Peer {
    /// Starts `node <script>` and its browser with a `width`×`height` viewport (CSS px).
    ///
    /// Errors: [`BenchError::Peer`] when node cannot start or the browser does not launch.
    pub async fn start(
        node: &str,
        script: &Path,
        chrome: &Path,
        viewport: (u32, u32),
    ) -> Result<Peer, BenchError> {
        let mut child = Command::new(node)
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| BenchError::Peer(format!("starting {node} {}: {e}", script.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(BenchError::Peer("the peer's pipes are missing".into()));
        };
        let mut peer = Peer {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            browser: String::new(),
            playwright: String::new(),
        };
        let started = peer
            .command(json!({
                "cmd": "start",
                "executablePath": chrome.display().to_string(),
                "width": viewport.0,
                "height": viewport.1,
            }))
            .await?;
        let s = |k: &str| {
            started
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or("unknown")
                .to_string()
        };
        peer.browser = s("browser");
        peer.playwright = s("playwright");
        Ok(peer)
    }

    async fn command(&mut self, cmd: Value) -> Result<Value, BenchError> {
        let what = cmd
            .get("cmd")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let mut line = cmd.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .await
            .map_err(|e| BenchError::Peer(format!("writing `{what}` to the peer: {e}")))?;
        let answer = match tokio::time::timeout(PEER_TIMEOUT, self.lines.next_line()).await {
            Ok(Ok(Some(l))) => l,
            Ok(Ok(None)) => {
                return Err(BenchError::Peer(format!("the peer exited during `{what}`")))
            }
            Ok(Err(e)) => return Err(BenchError::Peer(format!("reading the peer: {e}"))),
            Err(_) => {
                return Err(BenchError::Peer(format!(
                    "the peer did not answer `{what}` within {} s",
                    PEER_TIMEOUT.as_secs()
                )))
            }
        };
        let value: Value = serde_json::from_str(&answer).map_err(|e| {
            BenchError::Peer(format!("the peer's answer is not JSON ({e}): {answer}"))
        })?;
        if value.get("ok").and_then(Value::as_bool) != Some(true) {
            return Err(BenchError::Peer(format!(
                "`{what}` failed: {}",
                value
                    .get("error")
                    .and_then(Value::as_str)
                    .unwrap_or("no message")
            )));
        }
        Ok(value)
    }

    /// Loads `url` and waits for its `load` event; returns the time it took, ms.
    pub async fn goto(&mut self, url: &str) -> Result<f64, BenchError> {
        let v = self.command(json!({"cmd": "goto", "url": url})).await?;
        Ok(v.get("ms").and_then(Value::as_f64).unwrap_or(0.0))
    }

    /// One `page.locator('body').ariaSnapshot()` on the loaded page.
    pub async fn aria(&mut self) -> Result<Aria, BenchError> {
        let v = self.command(json!({"cmd": "aria"})).await?;
        Ok(Aria {
            ms: v.get("ms").and_then(Value::as_f64).unwrap_or(0.0),
            bytes: v.get("bytes").and_then(Value::as_u64).unwrap_or(0) as usize,
        })
    }

    /// Closes the peer's browser and waits (up to 10 s) for the process to exit.
    pub async fn quit(mut self) {
        let _ = self.command(json!({"cmd": "quit"})).await;
        if tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}
