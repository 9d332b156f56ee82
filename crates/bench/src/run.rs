//! The measurement phases of `bua-bench`, in one run with one extension browser (plus the Playwright
//! peer's browser):
//!
//! 1. generated pages — extract through the bridge, the CDP floor and `ariaSnapshot()`, interleaved run
//!    by run (the order rotates) so that a noisy moment hits all three alike;
//! 2. the readability corpus — the same three, fewer runs per page, medians across pages;
//! 3. action round trips from a bridge client against the bare CDP commands, interleaved;
//! 4. service-worker cold start to `ack` (stop the worker, wake it with a tab), then the worker's JS
//!    heap after 100 and after 1,000 actions.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bua_bridge::devtools::{self, DevTools};
use bua_bridge::launch::{self, LaunchOptions, Launched};
use bua_bridge::site::{Route, StaticSite};
use bua_bridge::BridgeClient;
use bua_extension::actions::evaluate;
use bua_extension::extract::{page, snapshot};
use serde_json::{json, Value};

use crate::pages::{self, PageSpec};
use crate::peer::Peer;
use crate::rawcdp::RawCdp;
use crate::stats;
use crate::BenchError;

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The built extension (`dist/`).
    pub extension: PathBuf,
    /// Chromium, for both browsers.
    pub chrome: PathBuf,
    /// Runs per generated page and tool (≥ 20, so that p95 is not just the maximum).
    pub runs: usize,
    /// Full warm-up rounds per generated page (every tool once, not recorded), after the light
    /// warm-up every page gets (one floor and one ariaSnapshot(), see [`Options::corpus_full_warmup`]).
    pub warmup: usize,
    /// `ariaSnapshot()` runs per generated page (spread evenly over the `runs` rounds; at most `runs`).
    pub aria_runs: usize,
    /// Runs of the raw CDP commands that break an extract down (profile), per generated page.
    pub profile_runs: usize,
    /// The generated page sizes.
    pub sizes: Vec<PageSpec>,
    /// `corpus/readability`, or `None` to skip the corpus.
    pub corpus: Option<PathBuf>,
    /// Only the first N corpus pages (sorted by name).
    pub corpus_limit: Option<usize>,
    /// Runs per corpus page and tool.
    pub corpus_runs: usize,
    /// Round trips per action.
    pub action_runs: usize,
    /// Service-worker cold starts.
    pub cold_starts: usize,
    /// Actions in the leak check (the heap is read after 10 % of them and after all).
    pub leak_actions: usize,
    /// `node`, and the peer script; `None` skips Playwright.
    pub peer: Option<(String, PathBuf)>,
    /// Extracts per generated page under the worker's CPU profiler (0 = no worker profile).
    pub worker_profile_runs: usize,
    /// Which phases run.
    pub phases: Phases,
    /// Only these corpus pages (folder names; empty = all).
    pub corpus_pages: Vec<String>,
    /// Corpus warm-up per page: `true` adds one unrecorded round of every tool (an extract too) to the
    /// light warm-up every page gets: one unrecorded floor and ariaSnapshot(), which make Chrome build
    /// the page's accessibility tree and layout (for extract and the floor alike) and Playwright inject
    /// its script — what the first measured call would otherwise pay alone.
    pub corpus_full_warmup: bool,
}

/// The phases of a run; all on by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phases {
    /// Generated pages (extract, floor, ariaSnapshot(), profile).
    pub generated: bool,
    /// The readability corpus.
    pub corpus: bool,
    /// Action round trips.
    pub actions: bool,
    /// Service-worker cold starts.
    pub cold_start: bool,
    /// The leak check (heap after 100 and 1,000 actions).
    pub leak: bool,
    /// extract on a page of 20 cross-origin frames against 20 same-origin ones.
    pub frames: bool,
}

impl Default for Phases {
    fn default() -> Self {
        Phases {
            generated: true,
            corpus: true,
            actions: true,
            cold_start: true,
            leak: true,
            frames: true,
        }
    }
}

/// One CDP command of an extract, timed both ways (medians, ms).
#[derive(Debug, Clone, Default)]
pub struct CommandTiming {
    /// The CDP method.
    pub method: String,
    /// Sent straight to DevTools, answer frame received (not parsed), ms.
    pub raw_ms: f64,
    /// `chrome.debugger.sendCommand` from the extension's worker, answer received as a JS object, ms.
    pub debugger_ms: f64,
    /// The extension's `JSON.stringify` of that object (it hands text to Rust), ms.
    pub stringify_ms: f64,
    /// The answer's size, bytes.
    pub bytes: usize,
}

/// The CDP commands one extract sends (`src/extract/mod.rs`), timed raw and through
/// `chrome.debugger` on the same tab.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    /// `Runtime.evaluate` (URL, title, viewport, innerText), `DOMSnapshot.captureSnapshot`, and
    /// `Accessibility.getFullAXTree` when the extension uses it.
    pub commands: Vec<CommandTiming>,
    /// Whether the extension fetches the AX tree on this page (≤ 5,000 DOM nodes).
    pub uses_ax: bool,
    /// DOM nodes of the main document as the extension counts them (document node included).
    pub dom_nodes: u64,
    /// The same commands through `chrome.debugger` as the extension sends them, pipelined (the
    /// evaluate and the snapshot at once, the AX tree when the evaluate has answered), each answer
    /// `JSON.stringify`d as it arrives: wall time to the last, ms (median).
    pub pipelined_ms: Option<f64>,
}

impl Profile {
    /// The raw CDP time of one extract's commands, ms.
    pub fn raw_ms(&self) -> f64 {
        self.commands.iter().map(|c| c.raw_ms).sum()
    }

    /// The same commands through `chrome.debugger`, with `JSON.stringify`, ms.
    pub fn debugger_ms(&self) -> f64 {
        self.commands
            .iter()
            .map(|c| c.debugger_ms + c.stringify_ms)
            .sum()
    }
}

/// One page measured with the three tools.
#[derive(Debug, Clone, Default)]
pub struct PageRun {
    /// `1k`, `10k`, `50k`, or the corpus page's folder name.
    pub name: String,
    /// `document.getElementsByTagName('*').length`.
    pub dom_elements: u64,
    /// DOM nodes: doctype, elements, text and comment nodes (a tree walker over the document).
    pub dom_nodes: u64,
    /// The last extract's `totalElements` (interactive elements before the 200 cap).
    pub extract_total_elements: u64,
    /// extract through the bridge, ms per run.
    pub extract_ms: Vec<f64>,
    /// CDP floor (innerText evaluate + getFullAXTree), ms per run.
    pub floor_ms: Vec<f64>,
    /// Playwright `ariaSnapshot()`, ms per run.
    pub aria_ms: Vec<f64>,
    /// `markdown` bytes + `elements` JSON bytes of the last extract.
    pub out_bytes: usize,
    /// `markdown` bytes of the last extract.
    pub markdown_bytes: usize,
    /// `elements` as JSON, bytes, of the last extract.
    pub elements_bytes: usize,
    /// The whole extract result as JSON, bytes.
    pub response_bytes: usize,
    /// The CDP floor's two answers, bytes.
    pub floor_bytes: usize,
    /// The aria snapshot, bytes.
    pub aria_bytes: usize,
    /// Breakdown of the extract's CDP commands (generated pages only).
    pub profile: Option<Profile>,
    /// Extracts that failed (e.g. the bridge's 20 s timeout), with the error.
    pub extract_failures: Vec<String>,
    /// Loading the page in the extension's tab (`navigate`, until load), ms.
    pub load_ms: f64,
}

/// One action's round trips against its bare CDP commands.
#[derive(Debug, Clone, Default)]
pub struct ActionRun {
    /// `click`, `type`, `evaluate`, `get_tabs`.
    pub name: String,
    /// The bare commands, in words.
    pub bare: String,
    /// Through a bridge client, ms.
    pub bridge_ms: Vec<f64>,
    /// The bare commands straight to DevTools, ms.
    pub bare_ms: Vec<f64>,
}

/// The service worker's JS heap (`Runtime.getHeapUsage` after `HeapProfiler.collectGarbage`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Heap {
    /// Actions done since the worker started when this was read.
    pub after_actions: usize,
    /// `usedSize`, bytes.
    pub used: f64,
    /// `totalSize`, bytes.
    pub total: f64,
    /// `backingStorageSize` (ArrayBuffers, the wasm memory among them), bytes, when reported.
    pub backing: Option<f64>,
}

/// Where the service worker's CPU time went during a few extracts (V8 sampling profiler).
#[derive(Debug, Clone, Default)]
pub struct WorkerProfile {
    /// The generated page.
    pub page: String,
    /// Extracts profiled.
    pub extracts: usize,
    /// Their wall time through the bridge, summed, ms.
    pub wall_ms: f64,
    /// Sampled time per category (WASM, JSON builtins, glue, GC, native/other, idle), ms, largest first.
    pub categories: Vec<(String, f64)>,
    /// The heaviest functions by self time, ms.
    pub top: Vec<(String, f64)>,
}

/// Everything one run measured.
#[derive(Debug, Clone, Default)]
pub struct Results {
    /// The extension browser's version (`Browser.getVersion`).
    pub chromium: String,
    /// The Playwright peer's browser and playwright-core versions.
    pub playwright: Option<(String, String)>,
    /// `launch::start` to the extension's first `ack`, ms.
    pub launch_ms: f64,
    /// The extension tab's viewport, CSS px.
    pub viewport: (u32, u32),
    /// Generated pages.
    pub generated: Vec<PageRun>,
    /// Corpus pages.
    pub corpus: Vec<PageRun>,
    /// Action round trips.
    pub actions: Vec<ActionRun>,
    /// extract of the 20-frame page, ms per run: `(same-origin frames, cross-origin frames)`.
    pub frames_ms: (Vec<f64>, Vec<f64>),
    /// Wake (a tab opens) → `ack`, ms per cold start.
    pub cold_wake_ms: Vec<f64>,
    /// The worker's target appears → `ack`, ms per cold start.
    pub cold_worker_ms: Vec<f64>,
    /// The worker's `performance.timeOrigin` → `ack`, ms per cold start.
    pub cold_origin_ms: Vec<f64>,
    /// Heap after 10 % of the leak actions and after all of them.
    pub heap: Vec<Heap>,
    /// The leak check's action mix, in words.
    pub leak_mix: String,
    /// Worker CPU profiles of extract, per generated page.
    pub worker_profiles: Vec<WorkerProfile>,
    /// Phases that failed (the report shows them; the other numbers stand).
    pub failures: Vec<String>,
    /// Wall time of the whole measurement, s.
    pub wall_s: f64,
    /// Wall time of each phase that ran (name, s), in order.
    pub phase_s: Vec<(String, f64)>,
    /// Whether corpus pages were warmed up with every tool ([`Options::corpus_full_warmup`]).
    pub corpus_full_warmup: bool,
}

/// Chromium flag that fails every host but 127.0.0.1 at once (both browsers get it).
pub const NO_NETWORK: &str =
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost";

/// Frames of the frames pages (SPEC §5 "Frames": at most 20 cross-origin frames are read).
const FRAME_PAGE_FRAMES: usize = 20;

/// The JavaScript the floor evaluates: `document.body.innerText` (what extract's `text` is).
const FLOOR_TEXT: &str = "document.body ? document.body.innerText : ''";

/// Pages with more DOM nodes than this are profiled once (their commands take hundreds of ms each)
/// and without the worker's CPU profiler.
const SMALL_PAGE_MAX_DOM_NODES: u64 = 5_000;

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn progress(line: &str) {
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    let start = START.get_or_init(Instant::now);
    eprintln!("[bench {:>5.1} s] {line}", start.elapsed().as_secs_f64());
}

/// The live pieces of a run.
struct Bench {
    launched: Launched,
    client: BridgeClient,
    raw: RawCdp,
    peer: Option<Peer>,
    server: StaticSite,
    tab_id: i64,
    session: String,
    nav: u64,
    last_load_ms: f64,
}

impl Bench {
    /// Loads `path` in the extension's tab (through the bridge, waits for load) and in the peer.
    async fn load(&mut self, path: &str) -> Result<String, BenchError> {
        self.nav += 1;
        let url = self.server.url(&format!("{path}?n={}", self.nav));
        let started = Instant::now();
        // Both browsers load at once (nothing is measured while they do).
        let navigate = async {
            let r = self
                .client
                .call_timeout(
                    "navigate",
                    json!({"tabId": self.tab_id, "url": url}),
                    Duration::from_secs(60),
                )
                .await;
            (r, ms_since(started))
        };
        let goto = async {
            match self.peer.as_mut() {
                Some(peer) => peer.goto(&url).await.map(|_| ()),
                None => Ok(()),
            }
        };
        let ((navigated, load_ms), peer_loaded) = tokio::join!(navigate, goto);
        navigated?;
        peer_loaded?;
        self.last_load_ms = load_ms;
        let href = self.raw.eval(&self.session, "location.href").await?;
        if href.as_str() != Some(url.as_str()) {
            return Err(BenchError::Unexpected(format!(
                "the floor's session is on {href}, not on the extension's tab ({url})"
            )));
        }
        Ok(url)
    }

    /// One extract through the bridge: (ms, result).
    async fn extract(&self) -> Result<(f64, Value), BenchError> {
        let t = Instant::now();
        let result = self
            .client
            .call_timeout(
                "extract",
                json!({"tabId": self.tab_id}),
                Duration::from_secs(60),
            )
            .await?;
        Ok((ms_since(t), result))
    }

    /// One CDP floor: innerText evaluate + getFullAXTree, straight to DevTools: (ms, bytes).
    async fn floor(&mut self) -> Result<(f64, usize), BenchError> {
        let t = Instant::now();
        let text = self
            .raw
            .call(
                "Runtime.evaluate",
                json!({"expression": FLOOR_TEXT, "returnByValue": true}),
                Some(&self.session),
                false,
            )
            .await?;
        let ax = self
            .raw
            .call(
                "Accessibility.getFullAXTree",
                json!({}),
                Some(&self.session),
                false,
            )
            .await?;
        Ok((ms_since(t), text.bytes + ax.bytes))
    }

    /// Measures the loaded page with all three tools: a light warm-up (one unrecorded floor and
    /// ariaSnapshot()), `warmup` unrecorded rounds of all three, then `runs` rounds, ariaSnapshot()
    /// in every `aria_stride`-th of them.
    async fn measure_page(
        &mut self,
        name: &str,
        warmup: usize,
        runs: usize,
        aria_stride: usize,
    ) -> Result<PageRun, BenchError> {
        let mut page = PageRun {
            name: name.to_string(),
            load_ms: self.last_load_ms,
            ..PageRun::default()
        };
        let counts = self
            .raw
            .eval(
                &self.session,
                "(() => { const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL); let n = 0; \
                 while (w.nextNode()) n++; return [document.getElementsByTagName('*').length, n]; })()",
            )
            .await?;
        page.dom_elements = counts.get(0).and_then(Value::as_u64).unwrap_or(0);
        page.dom_nodes = counts.get(1).and_then(Value::as_u64).unwrap_or(0);
        self.floor().await?;
        if let Some(peer) = self.peer.as_mut() {
            peer.aria().await?;
        }
        for i in 0..warmup + runs {
            let record = i >= warmup;
            let aria_round = !record || (i - warmup).is_multiple_of(aria_stride.max(1));
            // Rotate the order so that no tool always runs first (or right after another's GC). The
            // first round starts with the floor: whoever asks first on a page pays for Chrome building
            // its accessibility tree, and that is the warm-up's job.
            for k in 0..3 {
                match (i + k + 1) % 3 {
                    0 => {
                        let (ms, result) = match self.extract().await {
                            Ok(r) => r,
                            // A timeout is a result too: counted, shown, and the run goes on.
                            Err(BenchError::Bridge(e))
                                if page.extract_failures.len() < runs / 2 =>
                            {
                                page.extract_failures.push(e.to_string());
                                continue;
                            }
                            Err(e) => return Err(e),
                        };
                        if record {
                            page.extract_ms.push(ms);
                        }
                        let markdown = result.get("markdown").and_then(Value::as_str).unwrap_or("");
                        let elements = result.get("elements").cloned().unwrap_or(Value::Null);
                        page.markdown_bytes = markdown.len();
                        page.elements_bytes = elements.to_string().len();
                        page.out_bytes = page.markdown_bytes + page.elements_bytes;
                        page.response_bytes = result.to_string().len();
                        page.extract_total_elements = result
                            .get("totalElements")
                            .and_then(Value::as_u64)
                            .unwrap_or(0);
                    }
                    1 => {
                        let (ms, bytes) = self.floor().await?;
                        if record {
                            page.floor_ms.push(ms);
                        }
                        page.floor_bytes = bytes;
                    }
                    _ if aria_round => {
                        if let Some(peer) = self.peer.as_mut() {
                            let aria = peer.aria().await?;
                            if record {
                                page.aria_ms.push(aria.ms);
                            }
                            page.aria_bytes = aria.bytes;
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(page)
    }

    /// The CDP commands of one extract, `runs` times raw and `runs` times through the extension's
    /// `chrome.debugger` (evaluated in its service worker on the same tab): their medians.
    async fn profile(&mut self, runs: usize, dom_nodes: u64) -> Result<Profile, BenchError> {
        // The extension takes its elements from the DOM snapshot on every page (SPEC §5): no AX tree.
        let uses_ax = false;
        let commands = [
            (
                "Runtime.evaluate",
                json!({"expression": page::page_info_expression(), "returnByValue": true}),
            ),
            ("DOMSnapshot.captureSnapshot", snapshot_params()),
        ];
        let dt = DevTools::connect(&self.launched.devtools_url).await?;
        let sw_url = devtools::service_worker_url(&self.launched.extension_id);
        let worker = dt
            .wait_for_target("service_worker", |u| u == sw_url, Duration::from_secs(10))
            .await?;
        let worker_session = dt.attach(&worker.id).await?;
        let list = Value::Array(commands.iter().map(|(m, p)| json!([m, p])).collect());
        // One run of every command through chrome.debugger, as the extension sends them.
        let script = format!(
            "(async () => {{ const t = {{tabId: {tab}}}; const out = []; \
             for (const [m, p] of {list}) {{ const t0 = performance.now(); \
             const r = await chrome.debugger.sendCommand(t, m, p); const t1 = performance.now(); \
             const s = JSON.stringify(r); out.push([t1 - t0, performance.now() - t1, s.length]); }} \
             return out; }})()",
            tab = self.tab_id
        );
        let n = commands.len();
        let (mut raw, mut dbg, mut json_ms) = (
            vec![Vec::new(); n],
            vec![Vec::new(); n],
            vec![Vec::new(); n],
        );
        let mut bytes = vec![0usize; n];
        // The same commands as the extension pipelines them (src/extract/mod.rs `extract`).
        let pipelined_script = format!(
            "(async () => {{ const t = {{tabId: {tab}}}; const t0 = performance.now(); \
             const send = (m, p) => chrome.debugger.sendCommand(t, m, p).then(r => JSON.stringify(r).length); \
             const info = send('Runtime.evaluate', {info}); \
             const snap = send('DOMSnapshot.captureSnapshot', {snap}); \
             await Promise.all([info, snap]); return performance.now() - t0; }})()",
            tab = self.tab_id,
            info = json!({"expression": page::page_info_expression(), "returnByValue": true}),
            snap = snapshot_params(),
        );
        let mut pipelined = Vec::new();
        let mut outcome = Ok(());
        for _ in 0..runs {
            for (k, (method, params)) in commands.iter().enumerate() {
                match self
                    .raw
                    .call(method, params.clone(), Some(&self.session), false)
                    .await
                {
                    Ok(r) => {
                        raw[k].push(r.ms);
                        bytes[k] = r.bytes;
                    }
                    Err(e) => outcome = Err(e),
                }
            }
            match worker_value(&dt, &worker_session, &script).await {
                Ok(v) => {
                    let rows = v.as_array().cloned().unwrap_or_default();
                    for (k, row) in rows.iter().enumerate().take(n) {
                        let at = |i: usize| row.get(i).and_then(Value::as_f64).unwrap_or(0.0);
                        dbg[k].push(at(0));
                        json_ms[k].push(at(1));
                    }
                }
                Err(e) => outcome = Err(e),
            }
            match worker_value(&dt, &worker_session, &pipelined_script).await {
                Ok(v) => pipelined.extend(v.as_f64()),
                Err(e) => outcome = Err(e),
            }
            if outcome.is_err() {
                break;
            }
        }
        dt.detach(&worker_session).await;
        outcome?;
        Ok(Profile {
            commands: commands
                .iter()
                .enumerate()
                .map(|(k, (method, _))| CommandTiming {
                    method: method.to_string(),
                    raw_ms: stats::median(&raw[k]).unwrap_or(0.0),
                    debugger_ms: stats::median(&dbg[k]).unwrap_or(0.0),
                    stringify_ms: stats::median(&json_ms[k]).unwrap_or(0.0),
                    bytes: bytes[k],
                })
                .collect(),
            uses_ax,
            dom_nodes,
            pipelined_ms: stats::median(&pipelined),
        })
    }
}

/// Waits until `get_tabs` has answered three times in a row (at most 15 s): the extension is connected
/// for good.
pub async fn settle(client: &BridgeClient) -> Result<(), BenchError> {
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut in_a_row = 0;
    while in_a_row < 3 {
        match client.call("get_tabs", json!({})).await {
            Ok(_) => in_a_row += 1,
            Err(e) if Instant::now() < deadline => {
                tracing::debug!(error = %e, "extension not steady yet");
                in_a_row = 0;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => return Err(e.into()),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Runs every phase. A phase that fails is recorded in `failures`; the run goes on where it can.
pub async fn run(opts: &Options) -> Result<Results, BenchError> {
    let wall = Instant::now();
    let mut results = Results {
        corpus_full_warmup: opts.corpus_full_warmup,
        ..Results::default()
    };

    // Page server: generated pages, the actions page, the corpus.
    let server = StaticSite::start_empty()
        .await
        .map_err(|e| BenchError::io("starting the page server on 127.0.0.1", e))?;
    for spec in &opts.sizes {
        server.route(
            &format!("/gen/{}.html", spec.name),
            Route::Html(pages::generate(spec)),
        );
    }
    server.route("/actions.html", Route::Html(pages::actions_page()));
    server.route("/frames/child.html", Route::Html(pages::frame_child()));
    server.route(
        "/wake.html",
        Route::Html("<!doctype html><title>wake</title><p>wake".to_string()),
    );
    if let Some(dir) = &opts.corpus {
        server.mount("/corpus/", dir);
    }

    progress("launching Chromium with the extension");
    let mut launch_opts = LaunchOptions::new(&opts.extension);
    launch_opts.chrome = Some(opts.chrome.clone());
    // Loopback only: corpus pages name external hosts, whose lookups would otherwise hang the load.
    launch_opts.extra_args = vec![NO_NETWORK.to_string()];
    let launched = launch::start(launch_opts).await?;
    results.launch_ms = launched.startup.as_secs_f64() * 1000.0;
    let client = BridgeClient::connect(launched.server().port(), launched.server().token()).await?;
    let mut raw = RawCdp::connect(&launched.devtools_url).await?;
    results.chromium = raw
        .result("Browser.getVersion", json!({}), None)
        .await?
        .get("product")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_string();

    // Right after pairing the extension may reconnect once more (the storage change and its own
    // reconnect race); wait until it answers steadily.
    settle(&client).await?;
    // The extension's tab, opened through the bridge (in the agent window, as an agent would).
    let first = server.url("/actions.html?n=0");
    let opened = client
        .call_timeout("open_tab", json!({"url": first}), Duration::from_secs(30))
        .await?;
    let tab_id = opened
        .get("tabId")
        .and_then(Value::as_i64)
        .ok_or_else(|| BenchError::Unexpected(format!("open_tab answered {opened}")))?;
    let targets = raw.result("Target.getTargets", json!({}), None).await?;
    let target_id = targets
        .get("targetInfos")
        .and_then(Value::as_array)
        .and_then(|list| {
            list.iter().find(|t| {
                t.get("type").and_then(Value::as_str) == Some("page")
                    && t.get("url").and_then(Value::as_str) == Some(first.as_str())
            })
        })
        .and_then(|t| t.get("targetId").and_then(Value::as_str))
        .map(str::to_string)
        .ok_or_else(|| BenchError::Unexpected(format!("no page target at {first}")))?;
    let session = raw.attach(&target_id).await?;
    let size = raw
        .eval(&session, "[innerWidth, innerHeight]")
        .await?
        .as_array()
        .map(|a| {
            (
                a.first().and_then(Value::as_u64).unwrap_or(0) as u32,
                a.get(1).and_then(Value::as_u64).unwrap_or(0) as u32,
            )
        })
        .unwrap_or((0, 0));
    results.viewport = size;

    let peer = match &opts.peer {
        Some((node, script)) => {
            progress("starting the Playwright peer");
            let peer = Peer::start(node, script, &opts.chrome, size).await?;
            results.playwright = Some((peer.browser.clone(), peer.playwright.clone()));
            Some(peer)
        }
        None => None,
    };

    let mut bench = Bench {
        launched,
        client,
        raw,
        peer,
        server,
        tab_id,
        session,
        nav: 0,
        last_load_ms: 0.0,
    };

    let phases = opts.phases;
    let mut phase = Instant::now();
    let mut lap = |results: &mut Results, name: &str| {
        results
            .phase_s
            .push((name.to_string(), phase.elapsed().as_secs_f64()));
        phase = Instant::now();
    };
    lap(&mut results, "launch");
    if phases.generated {
        if let Err(e) = generated_pages(&mut bench, opts, &mut results).await {
            results.failures.push(format!("generated pages: {e}"));
        }
        lap(&mut results, "generated pages");
    }
    if let (true, Some(dir)) = (phases.corpus, &opts.corpus) {
        if let Err(e) = corpus(&mut bench, opts, dir, &mut results).await {
            results.failures.push(format!("corpus: {e}"));
        }
        lap(&mut results, "corpus");
    }
    // Playwright's part is done: its browser goes before the worker measurements.
    if let Some(peer) = bench.peer.take() {
        peer.quit().await;
    }
    let mut actions_ok = true;
    if phases.actions {
        if let Err(e) = actions(&mut bench, opts, &mut results).await {
            results.failures.push(format!("actions: {e}"));
            actions_ok = false;
        }
        lap(&mut results, "actions");
    }
    if phases.frames {
        if let Err(e) = frames(&mut bench, opts, &mut results).await {
            results.failures.push(format!("frames: {e}"));
        }
        lap(&mut results, "frames");
    }
    if phases.cold_start {
        if let Err(e) = cold_start(&mut bench, opts, &mut results).await {
            results.failures.push(format!("cold start: {e}"));
        }
        lap(&mut results, "cold starts");
    }
    if phases.leak && actions_ok {
        if let Err(e) = leak_check(&mut bench, opts, &mut results).await {
            results.failures.push(format!("leak check: {e}"));
        }
        lap(&mut results, "leak check");
    }

    let Bench {
        launched, server, ..
    } = bench;
    drop(server);
    launched.shutdown().await;
    results.wall_s = wall.elapsed().as_secs_f64();
    Ok(results)
}

/// extract on a page of [`FRAME_PAGE_FRAMES`] same-origin frames, then on the same page whose frames come from
/// `localhost` (another site: out-of-process frames, each a target of its own), `opts.runs` times each after
/// one unrecorded run; both must list every frame's controls.
async fn frames(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<(), BenchError> {
    let port = bench.server.port();
    for (name, host) in [("same", "127.0.0.1"), ("cross", "localhost")] {
        progress(&format!(
            "{FRAME_PAGE_FRAMES} {name}-origin frames: {} runs",
            opts.runs
        ));
        let src = format!("http://{host}:{port}/frames/child.html");
        bench.server.route(
            &format!("/frames/{name}.html"),
            Route::Html(pages::frame_parent(&src, FRAME_PAGE_FRAMES)),
        );
        bench.load(&format!("/frames/{name}.html")).await?;
        // Frames load after the parent's load event: wait until extract lists every frame's button.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (_, r) = bench.extract().await?;
            let buttons = r["elements"]
                .as_array()
                .map_or(0, |e| e.iter().filter(|e| e["role"] == "button").count());
            if buttons >= FRAME_PAGE_FRAMES {
                break;
            }
            if Instant::now() > deadline {
                return Err(BenchError::Unexpected(format!(
                    "{name}-origin frames page: extract lists {buttons} of {FRAME_PAGE_FRAMES} frame buttons"
                )));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut times = Vec::with_capacity(opts.runs);
        for _ in 0..opts.runs {
            times.push(bench.extract().await?.0);
        }
        match name {
            "same" => results.frames_ms.0 = times,
            _ => results.frames_ms.1 = times,
        }
    }
    Ok(())
}

async fn generated_pages(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<(), BenchError> {
    for spec in &opts.sizes {
        progress(&format!(
            "generated page {} ({} DOM nodes, {} controls): {} runs",
            spec.name, spec.nodes, spec.interactive, opts.runs
        ));
        bench.load(&format!("/gen/{}.html", spec.name)).await?;
        let mut page = bench
            .measure_page(
                spec.name,
                opts.warmup,
                opts.runs,
                opts.runs / opts.aria_runs.clamp(1, opts.runs.max(1)),
            )
            .await?;
        // As the extension counts them: the tree walker's nodes and the document itself.
        let nodes = page.dom_nodes + 1;
        // The 50k page is not broken down: its commands take seconds each (a run of the profile costs
        // as much as three measured rounds) and it takes the same path (DOM snapshot) as the 10k page.
        // On the 10k page one run is enough: its commands take hundreds of ms each.
        if spec.nodes <= 10_000 && opts.profile_runs > 0 {
            let runs = if nodes > SMALL_PAGE_MAX_DOM_NODES {
                1
            } else {
                opts.profile_runs
            };
            page.profile = Some(bench.profile(runs, nodes).await?);
        }
        results.generated.push(page);
        // The worker's CPU profile on the 1k page, whose fixed costs decide the corpus (small pages);
        // the bigger pages' breakdown is in the profile table.
        if opts.worker_profile_runs > 0 && nodes <= SMALL_PAGE_MAX_DOM_NODES {
            match worker_profile(bench, spec.name, opts.worker_profile_runs).await {
                Ok(p) => results.worker_profiles.push(p),
                Err(e) => results
                    .failures
                    .push(format!("worker profile of {}: {e}", spec.name)),
            }
        }
    }
    Ok(())
}

async fn corpus(
    bench: &mut Bench,
    opts: &Options,
    dir: &Path,
    results: &mut Results,
) -> Result<(), BenchError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| BenchError::io(format!("reading {}", dir.display()), e))?
        .flatten()
        .filter(|e| e.path().join("source.html").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort();
    if !opts.corpus_pages.is_empty() {
        names.retain(|n| opts.corpus_pages.contains(n));
    }
    if let Some(limit) = opts.corpus_limit {
        names.truncate(limit);
    }
    progress(&format!(
        "corpus: {} pages × {} runs",
        names.len(),
        opts.corpus_runs
    ));
    for (i, name) in names.iter().enumerate() {
        let outcome = async {
            bench.load(&format!("/corpus/{name}/source.html")).await?;
            let warmup = usize::from(opts.corpus_full_warmup);
            bench.measure_page(name, warmup, opts.corpus_runs, 1).await
        }
        .await;
        match outcome {
            Ok(page) => results.corpus.push(page),
            Err(e) => results.failures.push(format!("corpus page {name}: {e}")),
        }
        if (i + 1) % 20 == 0 {
            progress(&format!("corpus: {}/{} pages", i + 1, names.len()));
        }
    }
    Ok(())
}

/// The uid of the element named `name` in an extract result.
fn uid_of(extract: &Value, name: &str) -> Option<String> {
    extract
        .get("elements")?
        .as_array()?
        .iter()
        .find(|e| e.get("name").and_then(Value::as_str) == Some(name))?
        .get("uid")?
        .as_str()
        .map(str::to_string)
}

/// Action round trips on the actions page; returns the click uid.
async fn actions(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<String, BenchError> {
    progress(&format!("actions: {} round trips each", opts.action_runs));
    bench.load("/actions.html").await?;
    let (_, extract) = bench.extract().await?;
    let click_uid = uid_of(&extract, "Bench click")
        .ok_or_else(|| BenchError::Unexpected("no 'Bench click' element in extract".into()))?;
    let input_uid = uid_of(&extract, "Bench input")
        .ok_or_else(|| BenchError::Unexpected("no 'Bench input' element in extract".into()))?;
    let s = bench.session.clone();
    let centre = bench
        .raw
        .eval(
            &s,
            "(() => { const r = document.getElementById('bench-click').getBoundingClientRect(); \
             return [Math.floor(r.left + r.width / 2), Math.floor(r.top + r.height / 2)]; })()",
        )
        .await?;
    let x = centre.get(0).and_then(Value::as_f64).unwrap_or(0.0);
    let y = centre.get(1).and_then(Value::as_f64).unwrap_or(0.0);
    let input_object = bench
        .raw
        .result(
            "Runtime.evaluate",
            json!({"expression": "document.getElementById('bench-input')"}),
            Some(&s),
        )
        .await?
        .pointer("/result/objectId")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| BenchError::Unexpected("no objectId for #bench-input".into()))?;

    let mut runs = vec![
        ActionRun {
            name: "click (uid)".into(),
            bare: "3 × Input.dispatchMouseEvent".into(),
            ..ActionRun::default()
        },
        ActionRun {
            name: "type (uid)".into(),
            bare: "DOM.focus + Input.insertText".into(),
            ..ActionRun::default()
        },
        ActionRun {
            name: "evaluate `return 1`".into(),
            bare: "Runtime.evaluate".into(),
            ..ActionRun::default()
        },
        ActionRun {
            name: "get_tabs".into(),
            bare: "Target.getTargets".into(),
            ..ActionRun::default()
        },
    ];
    let warmup = 5;
    for i in 0..warmup + opts.action_runs {
        let record = i >= warmup;
        for (k, run) in runs.iter_mut().enumerate() {
            let (bridge_ms, bare_ms) = match k {
                0 => {
                    let t = Instant::now();
                    bench
                        .client
                        .call("click", json!({"uid": click_uid, "tabId": bench.tab_id}))
                        .await?;
                    let bridge = ms_since(t);
                    let t = Instant::now();
                    for (kind, buttons) in
                        [("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 1)]
                    {
                        let mut p = json!({"type": kind, "x": x, "y": y, "button": if buttons == 0 { "none" } else { "left" }});
                        if kind != "mouseMoved" {
                            p["clickCount"] = json!(1);
                        }
                        bench
                            .raw
                            .call("Input.dispatchMouseEvent", p, Some(&s), false)
                            .await?;
                    }
                    (bridge, ms_since(t))
                }
                1 => {
                    let t = Instant::now();
                    bench
                        .client
                        .call(
                            "type",
                            json!({"uid": input_uid, "text": "hello", "tabId": bench.tab_id}),
                        )
                        .await?;
                    let bridge = ms_since(t);
                    let t = Instant::now();
                    bench
                        .raw
                        .call(
                            "DOM.focus",
                            json!({"objectId": input_object}),
                            Some(&s),
                            false,
                        )
                        .await?;
                    bench
                        .raw
                        .call(
                            "Input.insertText",
                            json!({"text": "hello"}),
                            Some(&s),
                            false,
                        )
                        .await?;
                    (bridge, ms_since(t))
                }
                2 => {
                    let t = Instant::now();
                    bench
                        .client
                        .call(
                            "evaluate",
                            json!({"expression": "return 1", "tabId": bench.tab_id}),
                        )
                        .await?;
                    let bridge = ms_since(t);
                    let t = Instant::now();
                    bench
                        .raw
                        .call(
                            "Runtime.evaluate",
                            json!({"expression": evaluate::wrap("return 1"), "returnByValue": true, "awaitPromise": true}),
                            Some(&s),
                            false,
                        )
                        .await?;
                    (bridge, ms_since(t))
                }
                _ => {
                    let t = Instant::now();
                    bench.client.call("get_tabs", json!({})).await?;
                    let bridge = ms_since(t);
                    let t = Instant::now();
                    bench
                        .raw
                        .call("Target.getTargets", json!({}), None, false)
                        .await?;
                    (bridge, ms_since(t))
                }
            };
            if record {
                run.bridge_ms.push(bridge_ms);
                run.bare_ms.push(bare_ms);
            }
        }
    }
    let clicks = bench
        .raw
        .eval(&s, "+document.getElementById('count').value")
        .await?
        .as_u64()
        .unwrap_or(0);
    let expected = 2 * (warmup + opts.action_runs) as u64;
    if clicks != expected {
        results.failures.push(format!(
            "actions: the page counted {clicks} clicks, expected {expected} (bridge + bare)"
        ));
    }
    results.actions = runs;
    Ok(click_uid)
}

/// Stops the extension's service worker (closes its DevTools target), waits until the bridge saw it
/// go, wakes it with a new tab, and times three spans ending at the bridge's `ack`: from the wake,
/// from Chrome's `Target.targetCreated` for the worker, and from the worker's own
/// `performance.timeOrigin` (its global scope's creation, read once it is up).
async fn cold_start(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<(), BenchError> {
    progress(&format!("service-worker cold starts: {}", opts.cold_starts));
    let dt = DevTools::connect(&bench.launched.devtools_url).await?;
    let sw_url = devtools::service_worker_url(&bench.launched.extension_id);
    dt.send("Target.setDiscoverTargets", json!({"discover": true}), None)
        .await?;
    let wake_url = bench.server.url("/wake.html");
    let mut attempts = 0;
    while results.cold_wake_ms.len() < opts.cold_starts {
        attempts += 1;
        if attempts > opts.cold_starts + 3 {
            return Err(BenchError::Timeout(format!(
                "only {} of {} cold starts could be measured (the worker kept restarting by itself)",
                results.cold_wake_ms.len(),
                opts.cold_starts
            )));
        }
        let worker = dt
            .wait_for_target("service_worker", |u| u == sw_url, Duration::from_secs(10))
            .await?;
        let mut ext = bench.launched.server().extension();
        dt.close_target(&worker.id).await?;
        // The bridge sees the extension go, and that worker's target is gone.
        tokio::time::timeout(Duration::from_secs(10), async {
            while ext.borrow_and_update().is_some() {
                if ext.changed().await.is_err() {
                    break;
                }
            }
        })
        .await
        .map_err(|_| BenchError::Timeout("the bridge never saw the worker stop".into()))?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while dt.targets().await?.iter().any(|t| t.id == worker.id) {
            if Instant::now() >= deadline {
                return Err(BenchError::Timeout("the worker did not stop".into()));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        if ext.borrow_and_update().is_some()
            || dt
                .targets()
                .await?
                .iter()
                .any(|t| t.kind == "service_worker" && t.url == sw_url)
        {
            // Something else woke it already (an alarm, a tab event): not a measurement of ours.
            tracing::info!("the worker restarted by itself; measuring again");
            continue;
        }
        let mut events = dt.events();
        let woke = Instant::now();
        let page = dt.open_page(&wake_url).await?;
        let mut worker_seen: Option<Instant> = None;
        let acked = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                tokio::select! {
                    changed = ext.changed() => {
                        if changed.is_err() { return false; }
                        if ext.borrow_and_update().is_some() { return true; }
                    }
                    event = events.recv() => {
                        if let Ok(e) = event {
                            if worker_seen.is_none()
                                && e.method == "Target.targetCreated"
                                && e.params.pointer("/targetInfo/url").and_then(Value::as_str) == Some(sw_url.as_str())
                            {
                                worker_seen = Some(Instant::now());
                            }
                        }
                    }
                }
            }
        })
        .await;
        let acked_at = Instant::now();
        let acked_epoch_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0);
        let _ = dt.close_target(&page).await;
        if acked != Ok(true) {
            return Err(BenchError::Timeout(
                "the woken worker did not connect within 10 s".into(),
            ));
        }
        results
            .cold_wake_ms
            .push((acked_at - woke).as_secs_f64() * 1000.0);
        if let Some(seen) = worker_seen {
            results
                .cold_worker_ms
                .push((acked_at - seen).as_secs_f64() * 1000.0);
        }
        let worker = dt
            .wait_for_target("service_worker", |u| u == sw_url, Duration::from_secs(5))
            .await?;
        if let Some(origin) = dt
            .evaluate_in_target(&worker.id, "performance.timeOrigin")
            .await?
            .as_f64()
        {
            results.cold_origin_ms.push(acked_epoch_ms - origin);
        }
    }
    Ok(())
}

/// The worker's heap after GC, read through a DevTools session on the worker.
async fn heap(dt: &DevTools, session: &str, after_actions: usize) -> Result<Heap, BenchError> {
    for _ in 0..2 {
        dt.send("HeapProfiler.collectGarbage", json!({}), Some(session))
            .await?;
    }
    let usage = dt
        .send("Runtime.getHeapUsage", json!({}), Some(session))
        .await?;
    let num = |k: &str| usage.get(k).and_then(Value::as_f64);
    Ok(Heap {
        after_actions,
        used: num("usedSize").unwrap_or(0.0),
        total: num("totalSize").unwrap_or(0.0),
        backing: num("backingStorageSize"),
    })
}

/// `leak_actions` actions (extract, click, type, evaluate, get_tabs in turn) on a freshly started
/// worker; its heap is read after 10 % of them and after all of them.
async fn leak_check(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<(), BenchError> {
    progress(&format!("leak check: {} actions", opts.leak_actions));
    results.leak_mix =
        "extract, click (uid), type (uid), evaluate, get_tabs in turn, on the actions page".into();
    let dt = DevTools::connect(&bench.launched.devtools_url).await?;
    let sw_url = devtools::service_worker_url(&bench.launched.extension_id);
    let worker = dt
        .wait_for_target("service_worker", |u| u == sw_url, Duration::from_secs(10))
        .await?;
    let session = dt.attach(&worker.id).await?;
    bench.load("/actions.html").await?;
    let mut done = 0usize;
    let checkpoint = opts.leak_actions / 10;
    let (mut click_uid, mut input_uid) = (String::new(), String::new());
    while done < opts.leak_actions {
        let tab = bench.tab_id;
        match done % 5 {
            0 => {
                let (_, extract) = bench.extract().await?;
                click_uid = uid_of(&extract, "Bench click").unwrap_or_default();
                input_uid = uid_of(&extract, "Bench input").unwrap_or_default();
            }
            1 => {
                bench
                    .client
                    .call("click", json!({"uid": click_uid, "tabId": tab}))
                    .await?;
            }
            2 => {
                bench
                    .client
                    .call(
                        "type",
                        json!({"uid": input_uid, "text": format!("text {done}"), "tabId": tab}),
                    )
                    .await?;
            }
            3 => {
                bench
                    .client
                    .call("evaluate", json!({"expression": "return 1", "tabId": tab}))
                    .await?;
            }
            _ => {
                bench.client.call("get_tabs", json!({})).await?;
            }
        }
        done += 1;
        if done == checkpoint || done == opts.leak_actions {
            results.heap.push(heap(&dt, &session, done).await?);
        }
    }
    dt.detach(&session).await;
    Ok(())
}

/// Runs `runs` extracts with V8's sampling profiler on the extension's service worker and sums the
/// samples' self time by category and by function.
async fn worker_profile(
    bench: &mut Bench,
    page: &str,
    runs: usize,
) -> Result<WorkerProfile, BenchError> {
    let dt = DevTools::connect(&bench.launched.devtools_url).await?;
    let sw_url = devtools::service_worker_url(&bench.launched.extension_id);
    let worker = dt
        .wait_for_target("service_worker", |u| u == sw_url, Duration::from_secs(10))
        .await?;
    let session = dt.attach(&worker.id).await?;
    let s = Some(session.as_str());
    dt.send("Profiler.enable", json!({}), s).await?;
    dt.send("Profiler.setSamplingInterval", json!({"interval": 200}), s)
        .await?;
    dt.send("Profiler.start", json!({}), s).await?;
    let mut wall_ms = 0.0;
    let mut outcome = Ok(());
    for _ in 0..runs {
        match bench.extract().await {
            Ok((ms, _)) => wall_ms += ms,
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    let stopped = dt
        .send_timeout("Profiler.stop", json!({}), s, Duration::from_secs(60))
        .await;
    let _ = dt.send("Profiler.disable", json!({}), s).await;
    dt.detach(&session).await;
    outcome?;
    let profile = stopped?.get("profile").cloned().unwrap_or(Value::Null);
    let (categories, top) = summarize_profile(&profile);
    Ok(WorkerProfile {
        page: page.to_string(),
        extracts: runs,
        wall_ms,
        categories,
        top,
    })
}

/// The category of a profile node's call frame.
fn category(function: &str, url: &str) -> &'static str {
    match function {
        "(idle)" => "idle (waiting for Chrome: CDP, the bridge)",
        "(garbage collector)" => "garbage collector",
        "(program)" => "native (Chrome, outside JS)",
        _ if url.starts_with("wasm://") || url.ends_with(".wasm") => "WASM (Rust)",
        "stringify" | "parse" if url.is_empty() => "JSON builtins (JSON.stringify / parse)",
        _ if url.ends_with("bua_extension.js") => "wasm-bindgen glue (JS)",
        _ if url.ends_with("background.js") => "bootstrap (background.js)",
        _ => "other JS / native builtins",
    }
}

/// Drops a Rust symbol's `::h0123456789abcdef` hash suffix.
fn short_name(function: &str) -> String {
    match function.rfind("::h") {
        Some(i)
            if function.len() - i == 19
                && function[i + 3..].chars().all(|c| c.is_ascii_hexdigit()) =>
        {
            function[..i].to_string()
        }
        _ => function.to_string(),
    }
}

/// Labelled times, ms, largest first.
pub type Breakdown = Vec<(String, f64)>;

/// Self time by category and by function (top 12), ms, from a `Profiler.Profile`.
pub fn summarize_profile(profile: &Value) -> (Breakdown, Breakdown) {
    let mut frames: HashMap<u64, (String, String)> = HashMap::new();
    for node in profile
        .get("nodes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(id) = node.get("id").and_then(Value::as_u64) else {
            continue;
        };
        let frame = node.get("callFrame");
        let text = |k: &str| {
            frame
                .and_then(|f| f.get(k))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        frames.insert(id, (text("functionName"), text("url")));
    }
    let samples: Vec<u64> = profile
        .get("samples")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let deltas: Vec<f64> = profile
        .get("timeDeltas")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    let mut by_category: HashMap<&'static str, f64> = HashMap::new();
    let mut by_function: HashMap<String, f64> = HashMap::new();
    // timeDeltas[i + 1] is the time from sample i to the next one: sample i's duration.
    for (i, node) in samples.iter().enumerate() {
        let us = deltas.get(i + 1).copied().unwrap_or(0.0).max(0.0);
        let (function, url) = frames.get(node).cloned().unwrap_or_default();
        let cat = category(&function, &url);
        *by_category.entry(cat).or_default() += us / 1000.0;
        if !function.starts_with('(') {
            let name = if function.is_empty() {
                "(anonymous)".to_string()
            } else {
                short_name(&function)
            };
            let label = if cat == "WASM (Rust)" {
                format!("{name} [wasm]")
            } else {
                name
            };
            *by_function.entry(label).or_default() += us / 1000.0;
        }
    }
    let mut categories: Vec<(String, f64)> = by_category
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    categories.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut top: Vec<(String, f64)> = by_function.into_iter().collect();
    top.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    top.truncate(12);
    (categories, top)
}

/// Evaluates `script` in the service worker's flat CDP session (awaiting a promise) and returns its
/// JSON value (`null` when it has none); the profile's timing scripts run this way.
async fn worker_value(dt: &DevTools, session: &str, script: &str) -> Result<Value, BenchError> {
    let answer = dt
        .send_timeout(
            "Runtime.evaluate",
            json!({"expression": script, "awaitPromise": true, "returnByValue": true}),
            Some(session),
            Duration::from_secs(120),
        )
        .await?;
    Ok(answer
        .pointer("/result/value")
        .cloned()
        .unwrap_or(Value::Null))
}

/// The extension's own `DOMSnapshot.captureSnapshot` params as JSON (what it sends through `chrome.debugger`).
fn snapshot_params() -> Value {
    serde_json::to_value(snapshot::capture_params()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_self_time_is_summed_by_category_and_function() {
        let profile = json!({
            "nodes": [
                {"id": 1, "callFrame": {"functionName": "(root)", "url": ""}},
                {"id": 2, "callFrame": {"functionName": "bua_extension::extract::page::analyze_parsed::h0123456789abcdef", "url": "wasm://wasm/abc"}},
                {"id": 3, "callFrame": {"functionName": "stringify", "url": ""}},
                {"id": 4, "callFrame": {"functionName": "(idle)", "url": ""}}
            ],
            "samples": [2, 2, 3, 4],
            "timeDeltas": [0, 1500, 1000, 2000, 3000]
        });
        let (cats, top) = summarize_profile(&profile);
        assert_eq!(
            cats[0],
            (
                "idle (waiting for Chrome: CDP, the bridge)".to_string(),
                3.0
            )
        );
        assert!(cats.contains(&("WASM (Rust)".to_string(), 2.5)));
        assert!(cats.contains(&("JSON builtins (JSON.stringify / parse)".to_string(), 2.0)));
        assert_eq!(
            top[0],
            (
                "bua_extension::extract::page::analyze_parsed [wasm]".to_string(),
                2.5
            )
        );
    }
}
