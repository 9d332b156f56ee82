//! The three MCP servers of a peer run, started and warmed up, and one call of each: its navigate,
//! its read, the dialog a page left open. A call that fails is recorded, and a server that exited
//! answers every later call as failed at once.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bua_bridge::launch;
use serde_json::{json, Value};

use super::options::{PeerOptions, Tool, SHARED_FLAGS};
use super::results::Call;
use crate::mcp::{McpServer, ToolResult};
use crate::BenchError;

/// The three servers, started and warmed up (browser launched, first page loaded and read); also the
/// task benchmark's (`crate::tasks`).
pub(crate) struct Servers {
    /// Ours, Playwright MCP, Chrome DevTools MCP, in [`TOOLS`](super::TOOLS) order.
    pub(crate) servers: Vec<McpServer>,
    /// Chrome DevTools MCP's page id (its page tools require one).
    pub(crate) devtools_page: i64,
    /// A server that failed for good (it exited): its later calls are recorded as failed at once.
    dead: [Option<String>; 3],
}

/// Starts ours (`bua-bridge mcp`, paired with `launched`'s extension), Playwright MCP and Chrome
/// DevTools MCP in `work`, and asks DevTools MCP for its page id.
///
/// Errors: when a server does not start or complete its handshake.
pub(crate) async fn start_servers(
    opts: &PeerOptions,
    launched: &launch::Launched,
    work: &Path,
) -> Result<Servers, BenchError> {
    let node = PathBuf::from(&opts.node);
    let bin = opts.bench_dir.join("node_modules").join(".bin");
    let start = Duration::from_secs(60);
    // Ours as it runs by default: `bua-bridge mcp` serves the bridge in-process and the extension connects
    // to it, as each peer's server drives its own browser. The launch's own bridge (which read the
    // expected texts) is left without the extension.
    let port = std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map_err(|e| BenchError::io("finding a free port", e))?
        .port();
    let token = launched.server().token().to_string();
    let ours = McpServer::start(
        "ours",
        &opts.bridge_bin,
        &[
            "mcp".into(),
            "--port".into(),
            port.to_string(),
            "--token".into(),
            token.clone(),
            "--owner".into(),
            "bench-peers".into(),
        ],
        work,
        start,
    )
    .await?;
    launched.pair_with(port, &token).await?;
    let chrome = opts.chrome.display().to_string();
    let config = work.join("playwright-mcp.json");
    std::fs::write(
        &config,
        json!({"browser": {"launchOptions": {"args": SHARED_FLAGS}}}).to_string(),
    )
    .map_err(|e| BenchError::io(format!("writing {}", config.display()), e))?;
    let playwright_args = vec![
        bin.join("playwright-mcp").display().to_string(),
        "--executable-path".into(),
        chrome.clone(),
        "--headless".into(),
        "--no-sandbox".into(),
        "--isolated".into(),
        "--config".into(),
        config.display().to_string(),
        "--output-dir".into(),
        work.join("playwright-output").display().to_string(),
    ];
    let playwright = McpServer::start("playwright", &node, &playwright_args, work, start).await;
    let playwright = playwright.map_err(|e| {
        BenchError::Peer(format!(
            "{e} (are the peers installed? npm ci in {})",
            opts.bench_dir.display()
        ))
    })?;
    let mut devtools_args = vec![
        bin.join("chrome-devtools-mcp").display().to_string(),
        "--executablePath".into(),
        chrome,
        "--headless".into(),
        "--isolated".into(),
        "--usageStatistics=false".into(),
        "--performanceCrux=false".into(),
        "--chromeArg=--no-sandbox".into(),
    ];
    devtools_args.extend(SHARED_FLAGS.iter().map(|f| format!("--chromeArg={f}")));
    let devtools = McpServer::start("devtools", &node, &devtools_args, work, start).await?;
    let mut servers = Servers {
        servers: vec![ours, playwright, devtools],
        devtools_page: 1,
        dead: [None, None, None],
    };
    // Chrome DevTools MCP launches its browser at the first call and needs the page's id.
    let pages = servers.servers[2]
        .call("list_pages", json!({}), Duration::from_secs(60))
        .await?;
    servers.devtools_page = pages
        .text
        .lines()
        .find(|l| l.contains("[selected]"))
        .and_then(|l| l.split(':').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(1);
    Ok(servers)
}

impl Servers {
    /// Accepts a JavaScript dialog the page left open (a corpus page calls `alert()`): the peers refuse
    /// every later snapshot until it is handled (ours answers dialogs itself during navigations, SPEC §7).
    /// Not recorded: it is the benchmark's cleanup, not the read loop.
    pub(crate) async fn clear_dialog(&mut self, tool: Tool, timeout: Duration) {
        let (name, args) = match tool {
            Tool::Ours => return,
            Tool::Playwright => ("browser_handle_dialog", json!({"accept": true})),
            Tool::DevTools => (
                "handle_dialog",
                json!({"action": "accept", "pageId": self.devtools_page}),
            ),
        };
        self.call(tool, name, args, timeout).await;
    }

    /// The navigate call of `tool`.
    pub(crate) async fn navigate(&mut self, tool: Tool, url: &str, timeout: Duration) -> Call {
        let args = match tool {
            Tool::Ours => json!({"type": "navigate", "url": url}),
            Tool::Playwright => json!({"url": url}),
            Tool::DevTools => json!({"pageId": self.devtools_page, "type": "url", "url": url}),
        };
        self.call(tool, tool.calls().0, args, timeout).await.0
    }

    /// The read call of `tool`, and its text.
    pub(crate) async fn read(&mut self, tool: Tool, timeout: Duration) -> (Call, String) {
        let args = match tool {
            Tool::Ours => json!({"type": "extract"}),
            Tool::Playwright => json!({}),
            Tool::DevTools => json!({"pageId": self.devtools_page}),
        };
        self.call(tool, tool.calls().1, args, timeout).await
    }

    async fn call(
        &mut self,
        tool: Tool,
        name: &str,
        args: Value,
        timeout: Duration,
    ) -> (Call, String) {
        let i = tool.index();
        if let Some(why) = &self.dead[i] {
            return (
                Call {
                    error: Some(why.clone()),
                    ..Call::default()
                },
                String::new(),
            );
        }
        // Ours is one `browser` tool; the action is its `type`.
        let name = if tool == Tool::Ours { "browser" } else { name };
        let started = Instant::now();
        match self.servers[i].call(name, args, timeout).await {
            Ok(ToolResult { text, is_error, ms }) => {
                let call = Call {
                    ms,
                    bytes: text.len(),
                    error: is_error.then(|| text.chars().take(160).collect()),
                };
                (call, text)
            }
            Err(e) => {
                if matches!(e, BenchError::Closed(_)) {
                    self.dead[i] = Some(e.to_string());
                }
                let call = Call {
                    ms: started.elapsed().as_secs_f64() * 1000.0,
                    bytes: 0,
                    error: Some(e.to_string()),
                };
                (call, String::new())
            }
        }
    }
}
