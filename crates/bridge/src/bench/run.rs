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
use bua_bridge::launch::{self, Launched, LaunchOptions};
use bua_bridge::BridgeClient;
use serde_json::{json, Value};

use super::http::PageServer;
use super::pages::{self, PageSpec};
use super::peer::Peer;
use super::rawcdp::RawCdp;
use super::stats;
use super::BenchError;

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The built extension (`dist/`).
    pub extension: PathBuf,
    /// Chromium, for both browsers.
    pub chrome: PathBuf,
    /// Runs per generated page and tool (issue 8: ≥ 20).
    pub runs: usize,
    /// Warm-up runs per page and tool before measuring (not recorded).
    pub warmup: usize,
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
}

/// Medians of the raw CDP commands an extract is made of (the extension sends them one by one).
#[derive(Debug, Clone, Default)]
pub struct Profile {
    /// `Runtime.evaluate` of URL, title, viewport and `innerText`, ms.
    pub eval_ms: f64,
    /// `DOMSnapshot.captureSnapshot` with the extension's params, ms.
    pub snapshot_ms: f64,
    /// Its answer, bytes.
    pub snapshot_bytes: usize,
    /// `Accessibility.getFullAXTree` of the main frame, ms.
    pub ax_ms: f64,
    /// Its answer, bytes.
    pub ax_bytes: usize,
    /// Whether the extension fetches the AX tree on this page (≤ 20,000 DOM nodes).
    pub uses_ax: bool,
}

impl Profile {
    /// The CDP time of one extract: what the extension itself sends, ms.
    pub fn cdp_ms(&self) -> f64 {
        self.eval_ms + self.snapshot_ms + if self.uses_ax { self.ax_ms } else { 0.0 }
    }
}

/// One page measured with the three tools.
#[derive(Debug, Clone, Default)]
pub struct PageRun {
    /// `1k`, `10k`, `50k`, or the corpus page's folder name.
    pub name: String,
    /// `document.getElementsByTagName('*').length`.
    pub dom_elements: u64,
    /// DOM nodes of the snapshot (what decides AX or DOM elements in the extension), when profiled.
    pub extract_total_elements: u64,
    /// extract through the bridge, ms per run.
    pub extract_ms: Vec<f64>,
    /// CDP floor (innerText evaluate + getFullAXTree), ms per run.
    pub floor_ms: Vec<f64>,
    /// Playwright `ariaSnapshot()`, ms per run.
    pub aria_ms: Vec<f64>,
    /// `markdown` bytes + `elements` JSON bytes of the last extract.
    pub out_bytes: usize,
    /// The whole extract result as JSON, bytes.
    pub response_bytes: usize,
    /// The CDP floor's two answers, bytes.
    pub floor_bytes: usize,
    /// The aria snapshot, bytes.
    pub aria_bytes: usize,
    /// Breakdown of the extract's CDP commands (generated pages only).
    pub profile: Option<Profile>,
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
    /// Wake (a tab opens) → `ack`, ms per cold start.
    pub cold_wake_ms: Vec<f64>,
    /// The worker's target appears → `ack`, ms per cold start.
    pub cold_worker_ms: Vec<f64>,
    /// Heap after 10 % of the leak actions and after all of them.
    pub heap: Vec<Heap>,
    /// The leak check's action mix, in words.
    pub leak_mix: String,
    /// Phases that failed (the report shows them; the other numbers stand).
    pub failures: Vec<String>,
    /// Wall time of the whole measurement, s.
    pub wall_s: f64,
}

/// The JavaScript the floor evaluates: `document.body.innerText` (what extract's `text` is).
const FLOOR_TEXT: &str = "document.body ? document.body.innerText : ''";

/// The extension's own first evaluate (URL, title, viewport, innerText sliced to 50 KB + 1 K).
const EXTRACT_INFO: &str = "(() => { const t = document.body ? document.body.innerText : ''; return { url: location.href, \
     title: document.title, width: innerWidth, height: innerHeight, text: t.slice(0, 52224), textLength: t.length }; })()";

/// The extension's `DOMSnapshot.captureSnapshot` params (src/extract/snapshot.rs `capture_params`).
fn snapshot_params() -> Value {
    json!({
        "computedStyles": ["display", "visibility", "position", "overflow-x", "overflow-y"],
        "includeDOMRects": true
    })
}

/// Pages with more DOM nodes than this take their elements from the DOM snapshot, not the AX tree
/// (src/extract/page.rs `AX_TREE_MAX_DOM_NODES`).
const AX_TREE_MAX_DOM_NODES: u64 = 20_000;

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn progress(line: &str) {
    eprintln!("[bench] {line}");
}

/// The live pieces of a run.
struct Bench {
    launched: Launched,
    client: BridgeClient,
    raw: RawCdp,
    peer: Option<Peer>,
    server: PageServer,
    tab_id: i64,
    session: String,
    nav: u64,
}

impl Bench {
    /// Loads `path` in the extension's tab (through the bridge, waits for load) and in the peer.
    async fn load(&mut self, path: &str) -> Result<String, BenchError> {
        self.nav += 1;
        let url = self.server.url(&format!("{path}?n={}", self.nav));
        self.client
            .call_timeout(
                "navigate",
                json!({"tabId": self.tab_id, "url": url}),
                Duration::from_secs(60),
            )
            .await?;
        let href = self.raw.eval(&self.session, "location.href").await?;
        if href.as_str() != Some(url.as_str()) {
            return Err(BenchError::Unexpected(format!(
                "the floor's session is on {href}, not on the extension's tab ({url})"
            )));
        }
        if let Some(peer) = self.peer.as_mut() {
            peer.goto(&url).await?;
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

    /// Measures the loaded page with all three tools, `runs` times after `warmup`.
    async fn measure_page(
        &mut self,
        name: &str,
        warmup: usize,
        runs: usize,
    ) -> Result<PageRun, BenchError> {
        let mut page = PageRun {
            name: name.to_string(),
            ..PageRun::default()
        };
        page.dom_elements = self
            .raw
            .eval(&self.session, "document.getElementsByTagName('*').length")
            .await?
            .as_u64()
            .unwrap_or(0);
        for i in 0..warmup + runs {
            let record = i >= warmup;
            // Rotate the order so that no tool always runs first (or right after another's GC).
            for k in 0..3 {
                match (i + k) % 3 {
                    0 => {
                        let (ms, result) = self.extract().await?;
                        if record {
                            page.extract_ms.push(ms);
                        }
                        let markdown = result.get("markdown").and_then(Value::as_str).unwrap_or("");
                        let elements = result.get("elements").cloned().unwrap_or(Value::Null);
                        page.out_bytes = markdown.len() + elements.to_string().len();
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
                    _ => {
                        if let Some(peer) = self.peer.as_mut() {
                            let aria = peer.aria().await?;
                            if record {
                                page.aria_ms.push(aria.ms);
                            }
                            page.aria_bytes = aria.bytes;
                        }
                    }
                }
            }
        }
        Ok(page)
    }

    /// The raw CDP commands of one extract, `runs` times: their medians.
    async fn profile(&mut self, runs: usize, dom_nodes: u64) -> Result<Profile, BenchError> {
        let (mut eval, mut snap, mut ax) = (Vec::new(), Vec::new(), Vec::new());
        let mut profile = Profile {
            uses_ax: dom_nodes <= AX_TREE_MAX_DOM_NODES,
            ..Profile::default()
        };
        for _ in 0..runs {
            let s = Some(self.session.as_str());
            let r = self
                .raw
                .call(
                    "Runtime.evaluate",
                    json!({"expression": EXTRACT_INFO, "returnByValue": true}),
                    s,
                    false,
                )
                .await?;
            eval.push(r.ms);
            let r = self
                .raw
                .call("DOMSnapshot.captureSnapshot", snapshot_params(), s, false)
                .await?;
            snap.push(r.ms);
            profile.snapshot_bytes = r.bytes;
            let r = self
                .raw
                .call("Accessibility.getFullAXTree", json!({}), s, false)
                .await?;
            ax.push(r.ms);
            profile.ax_bytes = r.bytes;
        }
        profile.eval_ms = stats::median(&eval).unwrap_or(0.0);
        profile.snapshot_ms = stats::median(&snap).unwrap_or(0.0);
        profile.ax_ms = stats::median(&ax).unwrap_or(0.0);
        Ok(profile)
    }
}

/// Counts DOM nodes the way the extension's snapshot does (all nodes of all documents).
async fn snapshot_node_count(raw: &mut RawCdp, session: &str) -> Result<u64, BenchError> {
    let reply = raw
        .call(
            "DOMSnapshot.captureSnapshot",
            json!({"computedStyles": []}),
            Some(session),
            true,
        )
        .await?;
    let value = reply.json();
    let docs = value
        .pointer("/result/documents")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    Ok(docs
        .iter()
        .map(|d| {
            d.pointer("/nodes/nodeType")
                .and_then(Value::as_array)
                .map_or(0, |a| a.len() as u64)
        })
        .sum())
}

/// Runs every phase. A phase that fails is recorded in `failures`; the run goes on where it can.
pub async fn run(opts: &Options) -> Result<Results, BenchError> {
    let wall = Instant::now();
    let mut results = Results::default();

    // Page server: generated pages, the actions page, the corpus.
    let mut routes = HashMap::new();
    for spec in &opts.sizes {
        routes.insert(format!("/gen/{}.html", spec.name), pages::generate(spec));
    }
    routes.insert("/actions.html".to_string(), pages::actions_page());
    routes.insert(
        "/wake.html".to_string(),
        "<!doctype html><title>wake</title><p>wake".to_string(),
    );
    let server = PageServer::start(
        routes,
        opts.corpus
            .as_ref()
            .map(|dir| ("/corpus/".to_string(), dir.clone())),
    )
    .await?;

    progress("launching Chromium with the extension");
    let mut launch_opts = LaunchOptions::new(&opts.extension);
    launch_opts.chrome = Some(opts.chrome.clone());
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

    // The extension's tab, opened through the bridge (in the agent window, as an agent would).
    let first = server.url("/actions.html?n=0");
    let opened = client
        .call_timeout(
            "open_tab",
            json!({"url": first}),
            Duration::from_secs(30),
        )
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
    };

    if let Err(e) = generated_pages(&mut bench, opts, &mut results).await {
        results.failures.push(format!("generated pages: {e}"));
    }
    if let Some(dir) = &opts.corpus {
        if let Err(e) = corpus(&mut bench, opts, dir, &mut results).await {
            results.failures.push(format!("corpus: {e}"));
        }
    }
    // Playwright's part is done: its browser goes before the worker measurements.
    if let Some(peer) = bench.peer.take() {
        peer.quit().await;
    }
    let uid = match actions(&mut bench, opts, &mut results).await {
        Ok(uid) => Some(uid),
        Err(e) => {
            results.failures.push(format!("actions: {e}"));
            None
        }
    };
    if let Err(e) = cold_start(&mut bench, opts, &mut results).await {
        results.failures.push(format!("cold start: {e}"));
    }
    if uid.is_some() {
        if let Err(e) = leak_check(&mut bench, opts, &mut results).await {
            results.failures.push(format!("leak check: {e}"));
        }
    }

    let Bench {
        launched, server, ..
    } = bench;
    server.stop();
    launched.shutdown().await;
    results.wall_s = wall.elapsed().as_secs_f64();
    Ok(results)
}

async fn generated_pages(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<(), BenchError> {
    for spec in &opts.sizes {
        progress(&format!(
            "generated page {} ({} elements, {} controls): {} runs",
            spec.name, spec.elements, spec.interactive, opts.runs
        ));
        bench.load(&format!("/gen/{}.html", spec.name)).await?;
        let mut page = bench.measure_page(spec.name, opts.warmup, opts.runs).await?;
        let nodes = snapshot_node_count(&mut bench.raw, &bench.session).await?;
        page.profile = Some(bench.profile(opts.profile_runs, nodes).await?);
        results.generated.push(page);
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
            bench.measure_page(name, 1, opts.corpus_runs).await
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
                    for (kind, buttons) in [("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 1)] {
                        let mut p = json!({"type": kind, "x": x, "y": y, "button": if buttons == 0 { "none" } else { "left" }});
                        if kind != "mouseMoved" {
                            p["clickCount"] = json!(1);
                        }
                        bench.raw.call("Input.dispatchMouseEvent", p, Some(&s), false).await?;
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
                        .call("DOM.focus", json!({"objectId": input_object}), Some(&s), false)
                        .await?;
                    bench
                        .raw
                        .call("Input.insertText", json!({"text": "hello"}), Some(&s), false)
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
                            json!({"expression": "(() => { return 1 })()", "returnByValue": true, "awaitPromise": true}),
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
/// go, wakes it with a new tab, and times wake → `ack` and worker target → `ack`.
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
    for _ in 0..opts.cold_starts {
        let worker = dt
            .wait_for_target("service_worker", |u| u == sw_url, Duration::from_secs(10))
            .await?;
        let mut ext = bench.launched.server().extension();
        dt.close_target(&worker.id).await?;
        // The bridge sees the extension go …
        tokio::time::timeout(Duration::from_secs(10), async {
            while ext.borrow_and_update().is_some() {
                if ext.changed().await.is_err() {
                    break;
                }
            }
        })
        .await
        .map_err(|_| BenchError::Timeout("the bridge never saw the worker stop".into()))?;
        // … and the worker's target is gone.
        let deadline = Instant::now() + Duration::from_secs(10);
        while dt
            .targets()
            .await?
            .iter()
            .any(|t| t.kind == "service_worker" && t.url == sw_url)
        {
            if Instant::now() >= deadline {
                return Err(BenchError::Timeout("the worker did not stop".into()));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
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
    results.leak_mix = "extract, click (uid), type (uid), evaluate, get_tabs in turn, on the actions page".into();
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
