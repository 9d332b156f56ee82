//! What a run measured: per page, per action, the worker's heap and CPU profile, and the run as a
//! whole; the report reads nothing else.

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
    /// Whether corpus pages were warmed up with every tool
    /// ([`Options::corpus_full_warmup`](super::Options::corpus_full_warmup)).
    pub corpus_full_warmup: bool,
}
