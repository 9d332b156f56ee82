//! Section 1 of the report: extract against the CDP floor on the generated pages, where extract's
//! time goes (its CDP commands raw, through `chrome.debugger`, pipelined), and where the service
//! worker's CPU time goes.

use std::fmt::Write as _;

use super::format::{kb, ms, p50, p50_p95, x};
use super::targets::{corpus_medians, floor_ratio};
use crate::run::Results;
use crate::stats::{self, ratio, summarize};

/// Writes section 1 into `s`.
pub(super) fn section(s: &mut String, results: &Results) {
    let _ = writeln!(s, "\n## 1. extract vs the CDP floor (generated pages)\n");
    let _ = writeln!(
        s,
        "The floor is what any CDP tool must pay for the same page: one `Runtime.evaluate` of \
         `document.body.innerText` plus `Accessibility.getFullAXTree`, sent straight to the browser's DevTools \
         WebSocket (one connection, flat session on the same tab), timed from the write to the arrival of the \
         whole answer frame (not parsed). extract is a `BridgeClient` call: client → bridge → extension → \
         `chrome.debugger` → … → parsed result. Times in ms, p50 / p95 over {} runs per tool, runs interleaved \
         (each round runs the tools in a rotating order), after one unrecorded floor (Chrome builds the page's \
         accessibility tree and layout once, for both).\n",
        results.generated.first().map_or(0, |p| p.extract_ms.len())
    );
    let _ = writeln!(
        s,
        "| page | DOM nodes (elements) | controls (`totalElements`) | extract | CDP floor | extract / floor (p50) | (p95) |\n\
         | --- | --- | --- | --- | --- | --- | --- |"
    );
    for p in &results.generated {
        let p95 = match (summarize(&p.extract_ms), summarize(&p.floor_ms)) {
            (Some(e), Some(f)) => ratio(e.p95, f.p95),
            _ => None,
        };
        let _ = writeln!(
            s,
            "| {} | {} ({}) | {} | {} | {} | {} | {} |",
            p.name,
            p.dom_nodes,
            p.dom_elements,
            p.extract_total_elements,
            p50_p95(&p.extract_ms),
            p50_p95(&p.floor_ms),
            x(floor_ratio(p)),
            x(p95)
        );
    }
    let c = corpus_medians(&results.corpus);
    if c.pages > 0 {
        let _ = writeln!(
            s,
            "| corpus ({} pages, median of per-page p50) | | | {} | {} | {} | |",
            c.pages,
            c.extract_ms.map_or("–".into(), ms),
            c.floor_ms.map_or("–".into(), ms),
            x(c.floor_ratio)
        );
    }

    let _ = writeln!(s, "\n### Where extract's time goes\n");
    let _ = writeln!(
        s,
        "The CDP commands one extract sends (`src/extract/mod.rs`: a `Runtime.evaluate` of URL, title, viewport, \
         `innerText` and the DOM node count; `DOMSnapshot.captureSnapshot` with 5 computed styles; and, on pages \
         of ≤ 5,000 DOM nodes, `Accessibility.getFullAXTree` — bigger pages take their elements from the snapshot), \
         each timed alone on the same tab two ways, medians: *raw*, straight to DevTools; and *chrome.debugger*, \
         `chrome.debugger.sendCommand` from the extension's service worker until the answer is a JS object, plus \
         the `JSON.stringify` the extension does to hand it to Rust. The extension pipelines them: the evaluate \
         and the snapshot go at once, the AX tree as soon as the evaluate's node count says it is wanted, so \
         Chrome builds the next answer while the worker converts the last; *pipelined* is that, through \
         chrome.debugger from the worker, to the last answer. *Rest* = extract p50 − pipelined: serde parsing \
         and the pure extract in WASM after the last answer, the result's JSON, the bridge hop and the action's \
         bookkeeping."
    );
    let _ = writeln!(
        s,
        "\n| page | command | answer | raw | chrome.debugger | + JSON.stringify |\n| --- | --- | --- | --- | --- | --- |"
    );
    for p in &results.generated {
        if let Some(prof) = &p.profile {
            for c in &prof.commands {
                let _ = writeln!(
                    s,
                    "| {} | `{}` | {} | {} | {} ({}) | {} |",
                    p.name,
                    c.method,
                    kb(c.bytes),
                    ms(c.raw_ms),
                    ms(c.debugger_ms),
                    x(ratio(c.debugger_ms, c.raw_ms)),
                    ms(c.stringify_ms)
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "\n| page | DOM nodes (main document) | elements from | raw CDP, one by one | chrome.debugger, one by one | chrome.debugger, pipelined | extract p50 | rest (WASM, JSON, bridge) | CDP floor p50 |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    for p in &results.generated {
        if let Some(prof) = &p.profile {
            let e = p50(&p.extract_ms).unwrap_or(0.0);
            let cdp = prof.pipelined_ms.unwrap_or_else(|| prof.debugger_ms());
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                p.name,
                prof.dom_nodes,
                if prof.uses_ax {
                    "AX tree"
                } else {
                    "DOM snapshot"
                },
                ms(prof.raw_ms()),
                ms(prof.debugger_ms()),
                prof.pipelined_ms.map_or("–".into(), ms),
                ms(e),
                // The profile's runs are separate from the measured ones; on a busy machine they can
                // come out slower than the whole extract did.
                if e >= cdp {
                    ms(e - cdp)
                } else {
                    "≈ 0 (within noise)".to_string()
                },
                p50(&p.floor_ms).map_or("–".into(), ms)
            );
        }
    }

    if !results.worker_profiles.is_empty() {
        let _ = writeln!(
            s,
            "\nInside the service worker (V8 sampling profiler on the worker, 200 µs, during extra extracts of the \
             same page; profiling slows it, so read shares, not absolute times). *idle* is the worker waiting: for \
             Chrome to answer `chrome.debugger`, and for the bridge. *native* is Chrome's own work on the worker's \
             thread outside JS, such as turning each CDP answer into a JS object.\n"
        );
        let _ = writeln!(s, "| page | extracts (wall ms) | where the worker's time went | heaviest functions (self ms) |\n| --- | --- | --- | --- |");
        for w in &results.worker_profiles {
            let total: f64 = w.categories.iter().map(|c| c.1).sum();
            let cats = w
                .categories
                .iter()
                .map(|(c, v)| {
                    format!(
                        "{c} {} ms ({:.0} %)",
                        ms(*v),
                        stats::ratio(*v, total).unwrap_or(0.0) * 100.0
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
            let top = w
                .top
                .iter()
                .take(6)
                .map(|(f, v)| format!("`{}` {}", f.replace('|', "\\|"), ms(*v)))
                .collect::<Vec<_>>()
                .join("; ");
            let _ = writeln!(
                s,
                "| {} | {} ({} ms) | {} | {} |",
                w.page,
                w.extracts,
                ms(w.wall_ms),
                cats,
                top
            );
        }
    }
}
