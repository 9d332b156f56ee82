//! The live pieces of a run (the extension's browser and tab, the CDP floor's session, the Playwright
//! peer, the page server) and the three ways to read the loaded page: extract, the floor,
//! `ariaSnapshot()`.

use std::time::{Duration, Instant};

use bua_bridge::devtools::{self, DevTools};
use bua_bridge::launch::Launched;
use bua_bridge::site::StaticSite;
use bua_bridge::BridgeClient;
use serde_json::{json, Value};

use super::results::PageRun;
use crate::peer::Peer;
use crate::rawcdp::RawCdp;
use crate::BenchError;

/// The JavaScript the floor evaluates: `document.body.innerText` (what extract's `text` is).
const FLOOR_TEXT: &str = "document.body ? document.body.innerText : ''";

pub(super) fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

pub(super) fn progress(line: &str) {
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    let start = START.get_or_init(Instant::now);
    eprintln!("[bench {:>5.1} s] {line}", start.elapsed().as_secs_f64());
}

/// The live pieces of a run.
pub(super) struct Bench {
    pub(super) launched: Launched,
    pub(super) client: BridgeClient,
    pub(super) raw: RawCdp,
    pub(super) peer: Option<Peer>,
    pub(super) server: StaticSite,
    pub(super) tab_id: i64,
    pub(super) session: String,
    pub(super) nav: u64,
    pub(super) last_load_ms: f64,
}

impl Bench {
    /// Loads `path` in the extension's tab (through the bridge, waits for load) and in the peer.
    pub(super) async fn load(&mut self, path: &str) -> Result<String, BenchError> {
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

    /// A DevTools connection of its own with a flat session on the extension's service worker (found
    /// within 10 s), for reading the worker from the inside: `chrome.debugger` timings, its heap, its
    /// CPU profile. The caller detaches the session.
    pub(super) async fn attach_worker(&self) -> Result<(DevTools, String), BenchError> {
        let dt = DevTools::connect(&self.launched.devtools_url).await?;
        let sw_url = devtools::service_worker_url(&self.launched.extension_id);
        let worker = dt
            .wait_for_target("service_worker", |u| u == sw_url, Duration::from_secs(10))
            .await?;
        let session = dt.attach(&worker.id).await?;
        Ok((dt, session))
    }

    /// One extract through the bridge: (ms, result).
    pub(super) async fn extract(&self) -> Result<(f64, Value), BenchError> {
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
    pub(super) async fn floor(&mut self) -> Result<(f64, usize), BenchError> {
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
    pub(super) async fn measure_page(
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
}

/// The uid of the element named `name` in an extract result.
pub(super) fn uid_of(extract: &Value, name: &str) -> Option<String> {
    extract
        .get("elements")?
        .as_array()?
        .iter()
        .find(|e| e.get("name").and_then(Value::as_str) == Some(name))?
        .get("uid")?
        .as_str()
        .map(str::to_string)
}
