//! A minimal MCP client over stdio (newline-delimited JSON-RPC 2.0, MCP 2025-06-18): enough to start a
//! server, list nothing, and call tools with a deadline, as an agent's host does. Used by the peer
//! benchmark ([`crate::peers`]) to drive `bua-bridge mcp`, Playwright MCP and Chrome DevTools MCP alike.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::BenchError;

/// A running MCP server; killed on drop.
pub struct McpServer {
    /// Who it is, for messages (`ours`, `playwright`, `devtools`).
    pub name: String,
    /// `serverInfo.name` and `version` from `initialize`.
    pub info: String,
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    next_id: u64,
}

/// What one tool call gave the agent: the text of its result, and how long it took.
#[derive(Debug, Clone)]
pub struct ToolResult {
    /// The `text` items of the result's `content`, joined by newlines: what the agent reads.
    pub text: String,
    /// `isError` of the result.
    pub is_error: bool,
    /// From writing the request to reading its answer, ms.
    pub ms: f64,
}

impl McpServer {
    /// Starts `program args…` in `cwd` and completes the MCP handshake (`initialize`, then
    /// `notifications/initialized`) within `timeout`.
    ///
    /// Errors: [`BenchError::Peer`] when it cannot start or does not answer in time.
    pub async fn start(
        name: &str,
        program: &Path,
        args: &[String],
        cwd: &Path,
        timeout: Duration,
    ) -> Result<McpServer, BenchError> {
        let mut child = Command::new(program)
            .args(args)
            .current_dir(cwd)
            .env("CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                BenchError::Peer(format!("{name}: starting {}: {e}", program.display()))
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(BenchError::Peer(format!(
                "{name}: the server's pipes are missing"
            )));
        };
        let mut server = McpServer {
            name: name.to_string(),
            info: String::new(),
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            next_id: 0,
        };
        let init = server
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "bua-bench", "version": env!("CARGO_PKG_VERSION")},
                }),
                timeout,
            )
            .await?;
        let info = &init["serverInfo"];
        server.info = format!(
            "{} {}",
            info["name"].as_str().unwrap_or("?"),
            info["version"].as_str().unwrap_or("?")
        );
        server
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await?;
        Ok(server)
    }

    /// Calls `tool` with `arguments`; a server that does not answer within `timeout` is an error
    /// (its late answer is skipped by the next call, which matches answers by id).
    ///
    /// Errors: [`BenchError::Timeout`], [`BenchError::Peer`] for a JSON-RPC error or a dead server.
    pub async fn call(
        &mut self,
        tool: &str,
        arguments: Value,
        timeout: Duration,
    ) -> Result<ToolResult, BenchError> {
        let started = Instant::now();
        let result = self
            .request(
                "tools/call",
                json!({"name": tool, "arguments": arguments}),
                timeout,
            )
            .await?;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let text = result["content"]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(|c| c["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        Ok(ToolResult {
            text,
            is_error: result["isError"].as_bool().unwrap_or(false),
            ms,
        })
    }

    /// Closes stdin (servers exit at EOF) and waits up to 5 s before killing it.
    pub async fn quit(mut self) {
        let _ = self.stdin.shutdown().await;
        if tokio::time::timeout(Duration::from_secs(5), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }

    async fn send(&mut self, message: &Value) -> Result<(), BenchError> {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .await
            .map_err(|e| BenchError::Peer(format!("{}: writing to the server: {e}", self.name)))
    }

    /// Sends a request and reads lines until its answer; requests from the server are refused
    /// (this client offers no capabilities), notifications skipped.
    async fn request(
        &mut self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, BenchError> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let line = tokio::time::timeout_at(deadline, self.lines.next_line())
                .await
                .map_err(|_| {
                    BenchError::Timeout(format!(
                        "{}: {method} did not answer within {} s",
                        self.name,
                        timeout.as_secs()
                    ))
                })?
                .map_err(|e| BenchError::Peer(format!("{}: reading: {e}", self.name)))?
                .ok_or_else(|| {
                    BenchError::Closed(format!("{}: the server exited during {method}", self.name))
                })?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("method").is_some() {
                if let Some(request_id) = message.get("id") {
                    let refusal = json!({"jsonrpc": "2.0", "id": request_id,
                        "error": {"code": -32601, "message": "not supported by bua-bench"}});
                    self.send(&refusal).await?;
                }
                continue;
            }
            if message.get("id").and_then(Value::as_u64) != Some(id) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(BenchError::Peer(format!(
                    "{}: {method}: {error}",
                    self.name
                )));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }
}
