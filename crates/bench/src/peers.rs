//! The peer benchmark (`./build.sh bench --peers`): the read loop an agent runs — navigate, then read
//! the page — through three MCP servers, each with its own headless Chromium from the same binary and
//! the same flags (external hosts refused), on every page of the readability corpus served on
//! loopback:
//!
//! * ours: `bua-bridge mcp` serving its bridge in-process (its default), Chromium with the extension
//!   from `bua_bridge::launch` paired to it, `browser {type:"navigate", url}` then `browser {type:"extract"}` (the MCP defaults);
//! * Playwright MCP: `browser_navigate {url}` then `browser_snapshot {}`;
//! * Chrome DevTools MCP: `navigate_page {pageId, type:"url", url}` then `take_snapshot {pageId}`.
//!
//! Tools take turns page by page, in an order that rotates, so a noisy moment hits all alike. Each
//! tool call is timed from the request written to the answer read (what the agent waits), and its
//! result text is what the agent receives (bytes, and recall of `expected.html`'s words in the read,
//! as `tests/corpus.rs` scores the corpus). A call that fails or times out is recorded, not fatal.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bua_bridge::launch::{self, LaunchOptions};
use bua_bridge::site::StaticSite;
use bua_bridge::BridgeClient;
use serde_json::{json, Value};

use crate::mcp::{McpServer, ToolResult};
use crate::run::NO_NETWORK;
use crate::stats::{median, percentile, ratio};
use crate::BenchError;

#[path = "../../../tests/support/corpus_metrics.rs"]
mod corpus_metrics;

/// Chromium flags every browser of the run gets, on top of headless and no sandbox (ours gets them from
/// `bua_bridge::launch`, which adds its own: a profile, the extension, DevTools on a free port).
pub const SHARED_FLAGS: [&str; 3] = [NO_NETWORK, "--disable-gpu", "--disable-dev-shm-usage"];

/// What to run.
#[derive(Debug, Clone)]
pub struct PeerOptions {
    /// The built extension (`dist/`).
    pub extension: PathBuf,
    /// Chromium, for all three.
    pub chrome: PathBuf,
    /// The readability corpus (folders with `source.html` and `expected.html`).
    pub corpus: PathBuf,
    /// Only the first N pages (by name).
    pub limit: Option<usize>,
    /// The `bua-bridge` binary that serves our MCP.
    pub bridge_bin: PathBuf,
    /// Node.js for the peers.
    pub node: String,
    /// The folder whose `node_modules` holds `@playwright/mcp` and `chrome-devtools-mcp` (`bench/`).
    pub bench_dir: PathBuf,
    /// How long one tool call may take.
    pub call_timeout: Duration,
    /// Only these pages (folder names), when not empty.
    pub only: Vec<String>,
}

/// The three tools, in the order of the report's columns.
pub const TOOLS: [Tool; 3] = [Tool::Ours, Tool::Playwright, Tool::DevTools];

/// One of the three MCP servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `bua-bridge mcp`.
    Ours,
    /// `@playwright/mcp`.
    Playwright,
    /// `chrome-devtools-mcp`.
    DevTools,
}

impl Tool {
    /// The column name.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Ours => "BUA",
            Tool::Playwright => "Playwright MCP",
            Tool::DevTools => "DevTools MCP",
        }
    }

    /// The navigate tool and the read tool, as the report names them.
    pub fn calls(self) -> (&'static str, &'static str) {
        match self {
            Tool::Ours => ("navigate", "extract"),
            Tool::Playwright => ("browser_navigate", "browser_snapshot"),
            Tool::DevTools => ("navigate_page", "take_snapshot"),
        }
    }

    fn index(self) -> usize {
        TOOLS.iter().position(|t| *t == self).unwrap_or(0)
    }
}

/// One tool call as the agent experiences it.
#[derive(Debug, Clone, Default)]
pub struct Call {
    /// ms from request to answer.
    pub ms: f64,
    /// UTF-8 bytes of the result's text.
    pub bytes: usize,
    /// Why it failed (a tool error's text, a timeout), when it did.
    pub error: Option<String>,
}

/// One page with one tool.
#[derive(Debug, Clone, Default)]
pub struct Measured {
    /// The navigate call.
    pub nav: Call,
    /// The read call (absent when the navigation failed).
    pub read: Option<Call>,
    /// Recall of the expected article's words in the read's text (pages whose expected text is
    /// under `RECALL_MAX_EXPECTED_BYTES`).
    pub recall: Option<f64>,
}

impl Measured {
    /// The read, when navigate and read both worked.
    pub fn ok_read(&self) -> Option<&Call> {
        self.read
            .as_ref()
            .filter(|r| r.error.is_none() && self.nav.error.is_none())
    }
}

/// One corpus page.
#[derive(Debug, Clone, Default)]
pub struct PageRow {
    /// The corpus folder name.
    pub name: String,
    /// Per tool, in [`TOOLS`] order.
    pub tools: [Measured; 3],
}

/// The whole run.
#[derive(Debug, Clone, Default)]
pub struct PeerResults {
    /// Per page.
    pub pages: Vec<PageRow>,
    /// `serverInfo` per tool, in [`TOOLS`] order.
    pub servers: [String; 3],
    /// The 1-minute load average before and after.
    pub load: (String, String),
    /// Wall time, s.
    pub seconds: f64,
    /// Pages whose expected text counts for recall.
    pub recall_pages: usize,
}

/// The 1-minute load average now.
pub fn load_now() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

fn progress(message: &str) {
    eprintln!("[bench --peers] {message}");
}

/// The corpus pages (folders with a `source.html`), by name.
fn corpus_pages(dir: &Path, limit: Option<usize>) -> Result<Vec<String>, BenchError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| BenchError::io(format!("reading {}", dir.display()), e))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("source.html").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    if let Some(n) = limit {
        names.truncate(n);
    }
    Ok(names)
}

/// The expected article text of each page: `document.body.innerText` of its `expected.html`, as the
/// corpus test reads it, in slices (evaluate truncates values over 8 KB); `None` when it is too long to
/// count for recall or could not be read.
async fn expected_texts(
    client: &BridgeClient,
    site: &StaticSite,
    names: &[String],
) -> Result<Vec<Option<String>>, BenchError> {
    const SLICE: usize = 1_500;
    let opened = client
        .call_timeout(
            "open_tab",
            json!({"url": "about:blank"}),
            Duration::from_secs(30),
        )
        .await?;
    let tab = opened["tabId"]
        .as_i64()
        .ok_or_else(|| BenchError::Unexpected(format!("open_tab answered {opened}")))?;
    let mut out = Vec::new();
    for name in names {
        let url = site.url(&format!("/corpus/{name}/expected.html"));
        let nav = client
            .call_timeout(
                "navigate",
                json!({"tabId": tab, "url": url}),
                Duration::from_secs(30),
            )
            .await;
        if let Err(e) = nav {
            progress(&format!("{name}: expected.html did not load: {e}"));
            out.push(None);
            continue;
        }
        let eval = |expression: String| async move {
            client
                .call_timeout(
                    "evaluate",
                    json!({"tabId": tab, "expression": expression}),
                    Duration::from_secs(15),
                )
                .await
                .map(|v| v["value"].clone())
        };
        let size = eval(
            "const t = document.body ? document.body.innerText : ''; \
             return [t.length, new TextEncoder().encode(t).length]"
                .into(),
        )
        .await?;
        let (chars, bytes) = (
            size[0].as_u64().unwrap_or(0) as usize,
            size[1].as_u64().unwrap_or(0) as usize,
        );
        if bytes >= corpus_metrics::RECALL_MAX_EXPECTED_BYTES {
            out.push(None);
            continue;
        }
        let mut text = String::new();
        for start in (0..chars).step_by(SLICE) {
            let part = eval(format!(
                "return document.body.innerText.slice({start}, {})",
                start + SLICE
            ))
            .await?;
            text.push_str(part.as_str().unwrap_or_default());
        }
        out.push(Some(text));
    }
    let _ = client.call("close_tab", json!({"tabId": tab})).await;
    Ok(out)
}

/// The three servers, started and warmed up (browser launched, first page loaded and read); also
/// the task benchmark's (`crate::tasks`).
pub struct Servers {
    /// In [`TOOLS`] order.
    pub servers: Vec<McpServer>,
    /// Chrome DevTools MCP's page id (its page tools require one).
    pub devtools_page: i64,
    /// A server that failed for good (it exited): its later calls are recorded as failed at once.
    dead: [Option<String>; 3],
}

/// Starts ours (paired with `launched`), Playwright MCP and Chrome DevTools MCP in `work`.
///
/// Errors: when a server does not start or complete its handshake.
pub async fn start_servers(
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
    async fn clear_dialog(&mut self, tool: Tool, timeout: Duration) {
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
    async fn navigate(&mut self, tool: Tool, url: &str, timeout: Duration) -> Call {
        let args = match tool {
            Tool::Ours => json!({"type": "navigate", "url": url}),
            Tool::Playwright => json!({"url": url}),
            Tool::DevTools => json!({"pageId": self.devtools_page, "type": "url", "url": url}),
        };
        self.call(tool, tool.calls().0, args, timeout).await.0
    }

    /// The read call of `tool`, and its text.
    async fn read(&mut self, tool: Tool, timeout: Duration) -> (Call, String) {
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

/// Runs the peer benchmark.
///
/// Errors: when the corpus, our launch or a server's start fails; a failing call is recorded instead.
pub async fn run(opts: &PeerOptions) -> Result<PeerResults, BenchError> {
    let wall = Instant::now();
    let mut results = PeerResults {
        load: (load_now(), String::new()),
        ..PeerResults::default()
    };
    let mut names = corpus_pages(&opts.corpus, opts.limit)?;
    if !opts.only.is_empty() {
        names.retain(|n| opts.only.contains(n));
    }
    let site = StaticSite::start_empty()
        .await
        .map_err(|e| BenchError::io("starting the page server", e))?;
    site.mount("/corpus/", &opts.corpus);
    let work = tempfile::Builder::new()
        .prefix("bua-bench-peers-")
        .tempdir()
        .map_err(|e| BenchError::io("creating a temporary folder", e))?;

    progress("launching Chromium with the extension");
    let mut launch_opts = LaunchOptions::new(&opts.extension);
    launch_opts.chrome = Some(opts.chrome.clone());
    launch_opts.extra_args = SHARED_FLAGS.iter().map(|f| f.to_string()).collect();
    let launched = launch::start(launch_opts).await?;
    let client = BridgeClient::connect(launched.server().port(), launched.server().token()).await?;
    crate::run::settle(&client).await?;
    progress(&format!(
        "reading the expected text of {} pages",
        names.len()
    ));
    let expected = expected_texts(&client, &site, &names).await?;
    results.recall_pages = expected.iter().flatten().count();

    progress("starting the three MCP servers");
    let mut servers = start_servers(opts, &launched, work.path()).await?;
    for (i, s) in servers.servers.iter().enumerate() {
        results.servers[i] = s.info.clone();
    }
    // Warm-up, not recorded: each browser's first page load and first read.
    if let Some(first) = names.first() {
        let url = site.url(&format!("/corpus/{first}/source.html"));
        for tool in TOOLS {
            servers.navigate(tool, &url, opts.call_timeout).await;
            servers.read(tool, opts.call_timeout).await;
        }
    }

    for (n, name) in names.iter().enumerate() {
        let url = site.url(&format!("/corpus/{name}/source.html"));
        let mut row = PageRow {
            name: name.clone(),
            ..PageRow::default()
        };
        for k in 0..TOOLS.len() {
            let tool = TOOLS[(n + k) % TOOLS.len()];
            let nav = servers.navigate(tool, &url, opts.call_timeout).await;
            let measured = &mut row.tools[tool.index()];
            if let Some(error) = &nav.error {
                let dialog = error.contains("dialog") || error.contains("modal state");
                measured.nav = nav;
                if dialog {
                    servers.clear_dialog(tool, opts.call_timeout).await;
                }
                continue;
            }
            let (read, text) = servers.read(tool, opts.call_timeout).await;
            if read
                .error
                .as_deref()
                .is_some_and(|e| e.contains("dialog") || e.contains("modal state"))
            {
                servers.clear_dialog(tool, opts.call_timeout).await;
            }
            let measured = &mut row.tools[tool.index()];
            measured.nav = nav;
            if read.error.is_none() {
                measured.recall = expected[n]
                    .as_deref()
                    .map(|e| corpus_metrics::recall(e, &text));
            }
            measured.read = Some(read);
        }
        if (n + 1) % 10 == 0 {
            progress(&format!("{} of {} pages", n + 1, names.len()));
        }
        results.pages.push(row);
    }
    for server in servers.servers {
        server.quit().await;
    }
    drop(client);
    drop(launched);
    results.load.1 = load_now();
    results.seconds = wall.elapsed().as_secs_f64();
    Ok(results)
}

/// The goals the report prints next to the numbers (median of per-page ratios, recall quantiles).
pub mod goals {
    /// Our read bytes / Playwright MCP's.
    pub const BYTES_VS_PLAYWRIGHT: f64 = 0.35;
    /// Our read bytes / Chrome DevTools MCP's.
    pub const BYTES_VS_DEVTOOLS: f64 = 0.45;
    /// Recall median.
    pub const RECALL_MEDIAN: f64 = 0.99;
    /// Recall 10th percentile.
    pub const RECALL_P10: f64 = 0.97;
    /// Our read and navigate time / the faster peer's.
    pub const TIME_VS_FASTER: f64 = 1.0;
}

/// Per-page ratios ours / `other` of `value`, over the pages where both worked.
fn ratios(
    pages: &[PageRow],
    other: Option<Tool>,
    value: impl Fn(&Measured) -> Option<f64>,
) -> Vec<f64> {
    pages
        .iter()
        .filter_map(|p| {
            let ours = value(&p.tools[0])?;
            let theirs = match other {
                Some(t) => value(&p.tools[t.index()])?,
                // The faster of the two peers on this page.
                None => value(&p.tools[1])?.min(value(&p.tools[2])?),
            };
            ratio(ours, theirs)
        })
        .collect()
}

fn fmt(v: Option<f64>, digits: usize) -> String {
    v.map_or("–".into(), |v| format!("{v:.digits$}"))
}

fn kb(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{:.1} KB", v / 1000.0))
}

/// The report section (Markdown), between [`BEGIN`] and [`END`] so a later run replaces it in place.
pub fn render(r: &PeerResults, chromium: &str, machine: &crate::machine::MachineInfo) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "{BEGIN}");
    let _ = writeln!(
        s,
        "## Peers: the read loop through MCP (`./build.sh bench --peers`)\n"
    );
    let _ = writeln!(
        s,
        "{} pages of `corpus/readability` served on 127.0.0.1, {} ({} cores), {}; 1-minute load {} at the \
         start, {} at the end; {:.0} s. Servers: ours `bua-bridge mcp` ({}), {} ({}), {} ({}); each with its \
         own headless `{chromium}` from `/usr/bin/chromium` and the same flags (`--no-sandbox {}`), on top of each \
         tool's own launch flags (ours: `bua-bridge launch --headless`'s, README). Ours serves its bridge \
         in-process, as `bua-bridge mcp` does by default, and the extension connects to it. \
         Tools take turns page by page in a rotating order, after one unrecorded warm-up page each.\n",
        r.pages.len(),
        machine.cpu,
        machine.cores,
        machine.date,
        r.load.0,
        r.load.1,
        r.seconds,
        r.servers[0],
        Tool::Playwright.label(),
        r.servers[1],
        Tool::DevTools.label(),
        r.servers[2],
        SHARED_FLAGS.join(" "),
    );
    let _ = writeln!(
        s,
        "What is measured: each tool call from the JSON-RPC request written to its answer read, over the \
         server's stdio, as the agent's host waits for it; bytes are the UTF-8 text of the result's content \
         (what the agent reads; for us what our MCP server returns by default: `navigate {{url}}`, then \
         `extract {{}}`). Navigate: ours and Chrome DevTools MCP answer with the page's URL and title, \
         Playwright MCP's `browser_navigate` also takes a snapshot (it saves it to a file and links it). \
         Read: `extract` / `browser_snapshot` / `take_snapshot`. Recall: share of the words of \
         `expected.html`'s `innerText` found in the read's text (`tests/support/corpus_metrics.rs`, \
         {} pages whose expected text is under 20 KB).\n",
        r.recall_pages
    );
    let _ = writeln!(
        s,
        "| tool | navigate p50 / p95 | navigate bytes p50 | read p50 / p95 | read bytes p50 | recall median / p10 | failed calls |"
    );
    let _ = writeln!(s, "| --- | --- | --- | --- | --- | --- | --- |");
    for tool in TOOLS {
        let i = tool.index();
        let m: Vec<&Measured> = r.pages.iter().map(|p| &p.tools[i]).collect();
        let nav: Vec<f64> = m
            .iter()
            .filter(|m| m.nav.error.is_none())
            .map(|m| m.nav.ms)
            .collect();
        let nav_bytes: Vec<f64> = m
            .iter()
            .filter(|m| m.nav.error.is_none())
            .map(|m| m.nav.bytes as f64)
            .collect();
        let reads: Vec<&Call> = m.iter().filter_map(|m| m.ok_read()).collect();
        let read_ms: Vec<f64> = reads.iter().map(|c| c.ms).collect();
        let read_bytes: Vec<f64> = reads.iter().map(|c| c.bytes as f64).collect();
        let recall: Vec<f64> = m.iter().filter_map(|m| m.recall).collect();
        let failed = m
            .iter()
            .filter(|m| m.nav.error.is_some() || m.read.as_ref().is_some_and(|r| r.error.is_some()))
            .count();
        let (nav_name, read_name) = tool.calls();
        let _ = writeln!(
            s,
            "| {} (`{nav_name}`, `{read_name}`) | {} / {} ms | {} | {} / {} ms | {} | {} / {} | {failed} |",
            tool.label(),
            fmt(median(&nav), 0),
            fmt(percentile(&nav, 95.0), 0),
            kb(median(&nav_bytes)),
            fmt(median(&read_ms), 0),
            fmt(percentile(&read_ms, 95.0), 0),
            kb(median(&read_bytes)),
            fmt(median(&recall), 3),
            fmt(percentile_low(&recall, 10.0), 3),
        );
    }
    let read_bytes = |m: &Measured| m.ok_read().map(|c| c.bytes as f64);
    let read_ms = |m: &Measured| m.ok_read().map(|c| c.ms);
    let nav_ms = |m: &Measured| m.nav.error.is_none().then_some(m.nav.ms);
    let verdict = |v: Option<f64>, goal: f64| match v {
        Some(v) if v <= goal => "met",
        Some(_) => "**missed**",
        None => "–",
    };
    let pw = Some(Tool::Playwright);
    let dt = Some(Tool::DevTools);
    let _ = writeln!(
        s,
        "\nMedians over pages of the per-page ratio ours / peer (pages where both worked), with the goals:\n"
    );
    let _ = writeln!(
        s,
        "| ratio | / Playwright MCP | / DevTools MCP | / the faster peer | goal |"
    );
    let _ = writeln!(s, "| --- | --- | --- | --- | --- |");
    let b_pw = median(&ratios(&r.pages, pw, read_bytes));
    let b_dt = median(&ratios(&r.pages, dt, read_bytes));
    let _ = writeln!(
        s,
        "| read bytes | {}× ({}) | {}× ({}) | {}× | ≤ {} × PW, ≤ {} × DevTools |",
        fmt(b_pw, 2),
        verdict(b_pw, goals::BYTES_VS_PLAYWRIGHT),
        fmt(b_dt, 2),
        verdict(b_dt, goals::BYTES_VS_DEVTOOLS),
        fmt(median(&ratios(&r.pages, None, read_bytes)), 2),
        goals::BYTES_VS_PLAYWRIGHT,
        goals::BYTES_VS_DEVTOOLS,
    );
    for (what, value) in [
        ("read time", &read_ms as &dyn Fn(&Measured) -> Option<f64>),
        ("navigate time", &nav_ms),
    ] {
        let faster = median(&ratios(&r.pages, None, value));
        let _ = writeln!(
            s,
            "| {what} | {}× | {}× | {}× ({}) | ≤ {} × the faster peer |",
            fmt(median(&ratios(&r.pages, pw, value)), 2),
            fmt(median(&ratios(&r.pages, dt, value)), 2),
            fmt(faster, 2),
            verdict(faster, goals::TIME_VS_FASTER),
            goals::TIME_VS_FASTER,
        );
    }
    let ours_recall: Vec<f64> = r.pages.iter().filter_map(|p| p.tools[0].recall).collect();
    let (med, p10) = (median(&ours_recall), percentile_low(&ours_recall, 10.0));
    let _ = writeln!(
        s,
        "\nOur recall: median {} ({}, goal ≥ {}), 10th percentile {} ({}, goal ≥ {}).\n",
        fmt(med, 3),
        if med.is_some_and(|v| v >= goals::RECALL_MEDIAN) {
            "met"
        } else {
            "**missed**"
        },
        goals::RECALL_MEDIAN,
        fmt(p10, 3),
        if p10.is_some_and(|v| v >= goals::RECALL_P10) {
            "met"
        } else {
            "**missed**"
        },
        goals::RECALL_P10,
    );
    let _ = writeln!(
        s,
        "<details><summary>Per page (ms navigate / ms read / read KB / recall)</summary>\n"
    );
    let _ = writeln!(s, "| page | BUA | Playwright MCP | DevTools MCP |");
    let _ = writeln!(s, "| --- | --- | --- | --- |");
    for p in &r.pages {
        let cells: Vec<String> = p
            .tools
            .iter()
            .map(|m| {
                if let Some(e) = &m.nav.error {
                    return format!("navigate failed: {}", cell_text(e));
                }
                match &m.read {
                    Some(Call { error: Some(e), .. }) => {
                        format!("{:.0} / read failed: {}", m.nav.ms, cell_text(e))
                    }
                    Some(read) => format!(
                        "{:.0} / {:.0} / {:.1} / {}",
                        m.nav.ms,
                        read.ms,
                        read.bytes as f64 / 1000.0,
                        fmt(m.recall, 3)
                    ),
                    None => format!("{:.0} / –", m.nav.ms),
                }
            })
            .collect();
        let _ = writeln!(s, "| {} | {} |", p.name, cells.join(" | "));
    }
    let _ = writeln!(s, "\n</details>\n");
    let _ = writeln!(s, "{END}");
    s
}

/// The `p`-th percentile from below (nearest rank), for "the 10th percentile of recall".
fn percentile_low(v: &[f64], p: f64) -> Option<f64> {
    (!v.is_empty()).then(|| corpus_metrics::quantile(v, p / 100.0))
}

/// A message fit for one table cell.
fn cell_text(e: &str) -> String {
    e.replace(['|', '\n'], " ").chars().take(80).collect()
}

/// The markers around the peer section in `docs/BENCHMARKS.md`.
pub const BEGIN: &str = "<!-- bench --peers: begin -->";
/// See [`BEGIN`].
pub const END: &str = "<!-- bench --peers: end -->";

/// `report` with its peer section replaced by `section` (appended when it has none).
pub fn splice(report: &str, section: &str) -> String {
    match (report.find(BEGIN), report.find(END)) {
        (Some(b), Some(e)) if e > b => {
            format!(
                "{}{}{}",
                &report[..b],
                section,
                &report[e + END.len()..].trim_start_matches('\n')
            )
        }
        _ => format!("{}\n\n{section}", report.trim_end()),
    }
}

/// The peer section of `report`, if it has one (so the main benchmark keeps it when it rewrites the file).
pub fn section_of(report: &str) -> Option<&str> {
    let b = report.find(BEGIN)?;
    let e = report.find(END)?;
    (e > b).then(|| &report[b..e + END.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_is_replaced_in_place_or_appended() {
        let section = format!("{BEGIN}\nnew\n{END}\n");
        let with = format!("# B\n\n{BEGIN}\nold\n{END}\n\n## After\n");
        assert_eq!(
            splice(&with, &section),
            format!("# B\n\n{section}## After\n")
        );
        assert_eq!(splice("# B\n", &section), format!("# B\n\n{section}"));
        assert_eq!(
            section_of(&with),
            Some(format!("{BEGIN}\nold\n{END}").as_str())
        );
        assert_eq!(section_of("# B"), None);
    }

    #[test]
    fn ratios_against_the_faster_peer_take_the_smaller_time_per_page() {
        let m = |ms: f64| Measured {
            nav: Call {
                ms,
                ..Call::default()
            },
            ..Measured::default()
        };
        let pages = vec![PageRow {
            name: "p".into(),
            tools: [m(50.0), m(100.0), m(25.0)],
        }];
        let nav = |m: &Measured| Some(m.nav.ms);
        assert_eq!(ratios(&pages, Some(Tool::Playwright), nav), vec![0.5]);
        assert_eq!(ratios(&pages, None, nav), vec![2.0]);
    }
}
