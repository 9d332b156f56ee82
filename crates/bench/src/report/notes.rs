//! Notes on missed targets: for each target this run missed, what the run's own numbers (the profile
//! tables, the action overhead, the corpus bytes) say about why, and what it would take.

use super::context::Context;
use super::format::{kb, ms, p50, x};
use super::targets::{corpus_medians, goals, page, targets};
use crate::run::{ActionRun, PageRun, Results};
use crate::stats::{median, ratio};

/// The action run named `name` (prefix match).
fn action<'a>(results: &'a Results, name: &str) -> Option<&'a ActionRun> {
    results.actions.iter().find(|a| a.name.starts_with(name))
}

/// Fixed cost of one action through the bridge: `evaluate return 1` p50 minus its bare
/// `Runtime.evaluate` p50, ms.
fn action_overhead(results: &Results) -> Option<f64> {
    let a = action(results, "evaluate")?;
    Some(p50(&a.bridge_ms)? - p50(&a.bare_ms)?)
}

/// Explanations of missed targets, from what this run measured (the profile tables above).
pub fn notes(results: &Results, ctx: &Context) -> Vec<String> {
    let mut notes = Vec::new();
    let overhead = action_overhead(results);
    for t in targets(results, ctx) {
        if t.met != Some(false) {
            continue;
        }
        let note = if t.what.starts_with("extract / CDP floor") {
            let name = if t.what.contains("1,000") {
                "10k"
            } else {
                "50k"
            };
            match page(results, name).and_then(|p| Some((p, p.profile.as_ref()?))) {
                Some((p, prof)) => {
                    let e = p50(&p.extract_ms).unwrap_or(0.0);
                    let floor = p50(&p.floor_ms).unwrap_or(0.0);
                    let ax = prof
                        .commands
                        .iter()
                        .find(|c| c.method.starts_with("Accessibility"));
                    let without_ax = ax.map(|c| e - c.debugger_ms - c.stringify_ms);
                    format!(
                        "**{}** ({name} page, {} DOM nodes): extract p50 {} ms against a floor of {} ms. The extension's \
                         own CDP commands take {} ms raw but {} ms through `chrome.debugger`: Chrome hands each answer \
                         to the worker as a JS object, and an object-heavy answer costs far more that way{}. WASM, \
                         JSON and the bridge take the remaining {} ms. {}",
                        t.what,
                        prof.dom_nodes,
                        ms(e),
                        ms(floor),
                        ms(prof.raw_ms()),
                        ms(prof.debugger_ms()),
                        ax.map_or(String::new(), |c| format!(
                            " (the AX tree: {} raw, {} through chrome.debugger)",
                            ms(c.raw_ms),
                            ms(c.debugger_ms)
                        )),
                        ms((e - prof.debugger_ms()).max(0.0)),
                        match without_ax {
                            Some(w) if prof.uses_ax => format!(
                                "What it would take: elements from the DOM snapshot on this page too, as the extension \
                                 already does above 5,000 nodes (`AX_TREE_MAX_DOM_NODES` in `src/extract/page.rs`) — \
                                 without the AX tree's trip through chrome.debugger this extract would take about {} ms \
                                 ({} the floor), once the DOM path's roles and names are checked on the corpus; or the AX \
                                 nodes of the candidate elements only (`Accessibility.getPartialAXTree`).",
                                ms(w),
                                x(ratio(w, floor))
                            ),
                            _ => "What it would take: a smaller snapshot (its text boxes, which CDP always sends) \
                                  or one in-page walk returning only what the converter reads."
                                .to_string(),
                        }
                    )
                }
                None => format!("**{}**: no profile was taken.", t.what),
            }
        } else if t.what.contains("ariaSnapshot() time") {
            let small = page(results, "1k");
            let prof = small.and_then(|p| p.profile.as_ref());
            let cmd =
                |m: &str| prof.and_then(|p| p.commands.iter().find(|c| c.method.starts_with(m)));
            let ax = cmd("Accessibility");
            let extract_1k = small.and_then(|p| p50(&p.extract_ms));
            let aria_1k = small.and_then(|p| p50(&p.aria_ms));
            // What stays without the AX tree: the evaluate and the snapshot through chrome.debugger
            // and everything after the last answer (the profile table's "rest").
            let without_ax = match (extract_1k, prof, cmd("Runtime"), cmd("DOMSnapshot")) {
                (Some(e), Some(p), Some(a), Some(b)) => {
                    let rest = (e - p.pipelined_ms.unwrap_or_else(|| p.debugger_ms())).max(0.0);
                    Some(rest + a.debugger_ms + a.stringify_ms + b.debugger_ms + b.stringify_ms)
                }
                _ => None,
            };
            format!(
                "**{}**: measured {}. Corpus pages are small (median {} DOM nodes), so fixed costs decide, and the \
                 biggest is the one SPEC §5 fixes: elements from `Accessibility.getFullAXTree`. Chrome answers it \
                 with every AX node of the page and all their properties ({} on the 1k page, for 100 controls), and \
                 `chrome.debugger` hands that to the worker as a JS object: {} ms there against {} ms raw — more \
                 than the whole ariaSnapshot() of the same page ({} ms), which is one script in the page returning \
                 one string. The extension already pipelines its three commands (the chrome.debugger total one by \
                 one is {} ms, pipelined {} ms on the 1k page) and skips DOM rects in the snapshot; the bridge hop \
                 and the action's bookkeeping add {} ms (section 3). Without the AX tree the 1k extract would take \
                 about {} ms (the evaluate and the snapshot through chrome.debugger plus the rest after the last \
                 answer; {} ariaSnapshot()). What it would take: elements from the DOM snapshot on every \
                 page (as pages above 5,000 nodes already get them, `src/extract/page.rs`), or only the candidate \
                 nodes' AX data (`Accessibility.queryAXTree` / `getPartialAXTree`) — both a change to SPEC §5 — and \
                 then one in-page `Runtime.evaluate` returning the DOM the converter needs as one compact string \
                 instead of the snapshot's object graph.",
                t.what,
                t.measured,
                median(&results.corpus.iter().map(|p| p.dom_nodes as f64).collect::<Vec<_>>())
                    .map_or("–".into(), |v| format!("{v:.0}")),
                ax.map_or("–".into(), |c| kb(c.bytes)),
                ax.map_or("–".into(), |c| ms(c.debugger_ms)),
                ax.map_or("–".into(), |c| ms(c.raw_ms)),
                aria_1k.map_or("–".into(), ms),
                prof.map_or("–".into(), |p| ms(p.debugger_ms())),
                prof.and_then(|p| p.pipelined_ms).map_or("–".into(), ms),
                overhead.map_or("–".into(), ms),
                without_ax.map_or("–".into(), ms),
                x(without_ax.zip(aria_1k).and_then(|(w, a)| ratio(w, a))),
            )
        } else if t.what.contains("bytes") {
            let corpus = &results.corpus;
            let md = median(
                &corpus
                    .iter()
                    .map(|p| p.markdown_bytes as f64)
                    .collect::<Vec<_>>(),
            );
            let el = median(
                &corpus
                    .iter()
                    .map(|p| p.elements_bytes as f64)
                    .collect::<Vec<_>>(),
            );
            let bytes_ratio = |p: &&PageRun| ratio(p.out_bytes as f64, p.aria_bytes as f64);
            let (text_only, with_controls): (Vec<&PageRun>, Vec<&PageRun>) =
                corpus.iter().partition(|p| p.extract_total_elements == 0);
            let r_text = median(&text_only.iter().filter_map(bytes_ratio).collect::<Vec<_>>());
            let r_ctrl = median(
                &with_controls
                    .iter()
                    .filter_map(bytes_ratio)
                    .collect::<Vec<_>>(),
            );
            let per_control = median(
                &with_controls
                    .iter()
                    .map(|p| p.elements_bytes as f64 / p.extract_total_elements.min(200) as f64)
                    .collect::<Vec<_>>(),
            );
            let over = corpus
                .iter()
                .filter(|p| bytes_ratio(p).is_some_and(|r| r > goals::ARIA_BYTES))
                .count();
            let c = corpus_medians(corpus);
            format!(
                "**{}**: measured {} (the ratio of the medians, {} against {}, is {}). Per page (medians) the \
                 markdown is {} and the elements' JSON {}; {} of {} pages are above 0.6×. {} pages have no control \
                 at all: their output is the article's markdown alone, and their aria snapshot is the same text with \
                 its YAML prefixes (`- paragraph: `, `- heading \"…\" [level=1]`), so the ratio there is {} \
                 (median) and can only reach 0.6× by leaving a third of the article out, which the readability \
                 corpus forbids (`tests/e2e/corpus.rs`, recall ≥ 0.95 on the same pages). On the {} pages with controls \
                 it is {}: the markdown keeps every link's absolute URL (SPEC §5) and each element is a JSON object \
                 of about {} bytes (`{{\"uid\":\"e7\",\"role\":\"link\",\"name\":\"Home\"}}`; `visible` \
                 only when true) against an aria line such as `- link \"Home\"`. What it would take: a terser \
                 element encoding in the protocol (one line per element, `e7 link \"Home\"`) — a change to SPEC §5 \
                 — and, for text-only pages, a goal measured on pages with controls or against the text itself.",
                t.what,
                t.measured,
                c.out_bytes.map_or("–".into(), |b| kb(b as usize)),
                c.aria_bytes.map_or("–".into(), |b| kb(b as usize)),
                x(c.out_bytes.zip(c.aria_bytes).and_then(|(e, a)| ratio(e, a))),
                md.map_or("–".into(), |b| kb(b as usize)),
                el.map_or("–".into(), |b| kb(b as usize)),
                over,
                corpus.len(),
                text_only.len(),
                x(r_text),
                with_controls.len(),
                x(r_ctrl),
                per_control.map_or("–".into(), |b| format!("{b:.0}")),
            )
        } else if t.what.starts_with("click") {
            format!(
                "**{}**: measured {}. The bare command set is three `Input.dispatchMouseEvent`; a click by uid also has \
                 to find and check its target: resolve the uid (`DOM.resolveNode`), describe the element, read the \
                 viewport and the element's quads, hit-test the point (`DOM.getNodeForLocation` + resolve + check), \
                 make links open in the same tab, read the main frame's id for the navigation watch — ten CDP round \
                 trips through `chrome.debugger` before the mouse events — plus {} ms of fixed cost per action (the \
                 bridge hop and the extension's storage reads and writes for sessions and the blocklist, measured as \
                 `evaluate` through the bridge minus its bare command). What it would take: fold the describe, \
                 same-tab and hit checks into one `Runtime.callFunctionOn`, cache the main frame id per tab, and keep \
                 session bookkeeping in memory with storage written after the response.",
                t.what,
                t.measured,
                overhead.map_or("–".into(), ms),
            )
        } else if t.what.contains("cold start") {
            format!(
                "**{}**: measured {}. The span covers the wasm module's fetch, compile and instantiate ({:.2} MB), \
                 `start()` with its storage reads, the WebSocket connect and the handshake.",
                t.what,
                t.measured,
                ctx.wasm.raw as f64 / 1e6
            )
        } else if t.what.starts_with("wasm") {
            format!(
                "**{}**: measured {}. Build with `./build.sh` (release): it drops the `name` section (about a fifth \
                 of the module) that a dev build keeps.",
                t.what, t.measured
            )
        } else {
            format!("**{}**: measured {}, goal {}.", t.what, t.measured, t.goal)
        };
        notes.push(note);
    }
    notes
}
