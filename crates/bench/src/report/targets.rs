//! The performance targets ([`goals`]) and their evaluation on a run: one [`Target`] row each, from
//! the generated pages, the corpus medians, the actions and the service worker.

use super::context::Context;
use super::format::{ms, p50, x};
use crate::run::{PageRun, Results};
use crate::stats::{median, ratio};

/// The performance targets the report checks, one row each in its Targets table: what the
/// extension's design promises against the CDP floor, Playwright's `ariaSnapshot()` and the budgets of
/// an MV3 service worker.
pub mod goals {
    /// extract ≤ 1.5 × the CDP floor at 1,000 interactive elements (p50).
    pub const FLOOR_1K: f64 = 1.5;
    /// extract ≤ 2 × the CDP floor at 5,000 interactive elements (p50).
    pub const FLOOR_5K: f64 = 2.0;
    /// extract time / ariaSnapshot time on the corpus median: < 1.
    pub const ARIA_TIME: f64 = 1.0;
    /// (markdown + elements) bytes / aria snapshot bytes on the corpus median.
    pub const ARIA_BYTES: f64 = 0.6;
    /// click by uid p50 / its bare CDP commands p50.
    pub const CLICK: f64 = 3.0;
    /// Service-worker cold start to ack, ms (median).
    pub const COLD_MS: f64 = 300.0;
    /// wasm raw size, bytes (1.5 MB).
    pub const WASM_BYTES: f64 = 1_500_000.0;
    /// Heap after 1,000 actions / heap after 100.
    pub const LEAK: f64 = 1.2;
    /// extract on 20 cross-origin frames / on 20 same-origin frames (p50).
    pub const FRAMES: f64 = 1.5;
}

/// One row of the targets table.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// What is measured.
    pub what: String,
    /// The measured value as shown.
    pub measured: String,
    /// The goal as shown.
    pub goal: String,
    /// `Some(true)` met, `Some(false)` missed, `None` not measured.
    pub met: Option<bool>,
}

/// Per-page medians over the corpus: (extract ms, aria ms, time ratio, bytes ratio), each the
/// median across pages of the per-page value.
pub fn corpus_medians(pages: &[PageRun]) -> CorpusMedians {
    let per = |f: &dyn Fn(&PageRun) -> Option<f64>| {
        let v: Vec<f64> = pages.iter().filter_map(f).collect();
        median(&v)
    };
    CorpusMedians {
        pages: pages.len(),
        extract_ms: per(&|p| p50(&p.extract_ms)),
        floor_ms: per(&|p| p50(&p.floor_ms)),
        aria_ms: per(&|p| p50(&p.aria_ms)),
        time_ratio: per(&|p| ratio(p50(&p.extract_ms)?, p50(&p.aria_ms)?)),
        floor_ratio: per(&|p| ratio(p50(&p.extract_ms)?, p50(&p.floor_ms)?)),
        out_bytes: per(&|p| Some(p.out_bytes as f64)),
        aria_bytes: per(&|p| (p.aria_bytes > 0).then_some(p.aria_bytes as f64)),
        bytes_ratio: per(&|p| ratio(p.out_bytes as f64, p.aria_bytes as f64)),
        faster_pages: pages
            .iter()
            .filter(
                |p| matches!((p50(&p.extract_ms), p50(&p.aria_ms)), (Some(e), Some(a)) if e < a),
            )
            .count(),
    }
}

/// Medians across the corpus pages.
#[derive(Debug, Clone, Copy, Default)]
pub struct CorpusMedians {
    /// Pages measured.
    pub pages: usize,
    /// Median of per-page extract p50, ms.
    pub extract_ms: Option<f64>,
    /// Median of per-page CDP floor p50, ms.
    pub floor_ms: Option<f64>,
    /// Median of per-page ariaSnapshot p50, ms.
    pub aria_ms: Option<f64>,
    /// Median of per-page extract / aria time.
    pub time_ratio: Option<f64>,
    /// Median of per-page extract / floor time.
    pub floor_ratio: Option<f64>,
    /// Median of per-page (markdown + elements) bytes.
    pub out_bytes: Option<f64>,
    /// Median of per-page aria snapshot bytes.
    pub aria_bytes: Option<f64>,
    /// Median of per-page bytes ratio.
    pub bytes_ratio: Option<f64>,
    /// Pages where extract was faster than ariaSnapshot.
    pub faster_pages: usize,
}

pub(super) fn page<'a>(results: &'a Results, name: &str) -> Option<&'a PageRun> {
    results.generated.iter().find(|p| p.name == name)
}

pub(super) fn floor_ratio(p: &PageRun) -> Option<f64> {
    ratio(p50(&p.extract_ms)?, p50(&p.floor_ms)?)
}

/// A target: `shown` as measured when there is a `value`, met when `ok` holds for it.
fn target(
    what: &str,
    value: Option<f64>,
    shown: String,
    goal: String,
    ok: impl Fn(f64) -> bool,
) -> Target {
    Target {
        what: what.to_string(),
        measured: if value.is_some() {
            shown
        } else {
            "not measured".into()
        },
        goal,
        met: value.map(ok),
    }
}

/// A ratio target, met at `goal`× or below; the goal shown with `decimals` places.
fn ratio_at_most(what: &str, value: Option<f64>, goal: f64, decimals: usize) -> Target {
    target(
        what,
        value,
        x(value),
        format!("≤ {goal:.decimals$}×"),
        |v| v <= goal,
    )
}

/// The performance targets ([`goals`]), evaluated on `results`.
pub fn targets(results: &Results, ctx: &Context) -> Vec<Target> {
    let floor = |name: &str| page(results, name).and_then(floor_ratio);
    let (same, cross) = (median(&results.frames_ms.0), median(&results.frames_ms.1));
    let rf = same.zip(cross).and_then(|(s, c)| ratio(c, s));
    let c = corpus_medians(&results.corpus);
    let click = results
        .actions
        .first()
        .and_then(|a| ratio(p50(&a.bridge_ms)?, p50(&a.bare_ms)?));
    let cold = median(&results.cold_origin_ms);
    let wasm = (ctx.wasm.raw > 0).then_some(ctx.wasm.raw as f64);
    let leak = match (results.heap.first(), results.heap.last()) {
        (Some(a), Some(b)) if results.heap.len() >= 2 => ratio(b.used, a.used),
        _ => None,
    };
    vec![
        ratio_at_most(
            "extract / CDP floor, 1,000 controls (10k page), p50",
            floor("10k"),
            goals::FLOOR_1K,
            1,
        ),
        ratio_at_most(
            "extract / CDP floor, 5,000 controls (50k page), p50",
            floor("50k"),
            goals::FLOOR_5K,
            1,
        ),
        target(
            "extract, 20 cross-origin frames / 20 same-origin frames, p50",
            rf,
            format!(
                "{} ({} vs {} ms)",
                x(rf),
                cross.map_or("–".into(), ms),
                same.map_or("–".into(), ms)
            ),
            format!("≤ {:.1}×", goals::FRAMES),
            |v| v <= goals::FRAMES,
        ),
        target(
            "extract / ariaSnapshot() time, corpus median",
            c.time_ratio,
            format!(
                "{} ({} vs {} ms)",
                x(c.time_ratio),
                c.extract_ms.map_or("–".into(), ms),
                c.aria_ms.map_or("–".into(), ms)
            ),
            "< 1× (faster)".into(),
            |v| v < goals::ARIA_TIME,
        ),
        ratio_at_most(
            "(markdown + elements) / aria snapshot bytes, corpus median",
            c.bytes_ratio,
            goals::ARIA_BYTES,
            1,
        ),
        ratio_at_most(
            "click by uid / its bare CDP commands, p50",
            click,
            goals::CLICK,
            0,
        ),
        target(
            "service-worker cold start (worker start) → ack, median",
            cold,
            format!(
                "{} ms (from the worker's target: {} ms; from the waking tab: {} ms)",
                cold.map_or("–".into(), ms),
                median(&results.cold_worker_ms).map_or("–".into(), ms),
                median(&results.cold_wake_ms).map_or("–".into(), ms)
            ),
            format!("≤ {:.0} ms", goals::COLD_MS),
            |v| v <= goals::COLD_MS,
        ),
        target(
            "wasm size, raw",
            wasm,
            format!(
                "{:.2} MB ({} bytes)",
                ctx.wasm.raw as f64 / 1e6,
                ctx.wasm.raw
            ),
            "≤ 1.5 MB".into(),
            |v| v <= goals::WASM_BYTES,
        ),
        ratio_at_most(
            "worker JS heap after 1,000 actions / after 100",
            leak,
            goals::LEAK,
            1,
        ),
    ]
}
