//! Section 2 of the report: extract against Playwright's `ariaSnapshot()`, time and bytes, on the
//! generated pages and every corpus page.

use std::fmt::Write as _;

use super::format::{kb, ms, p50, p50_p95, x};
use super::targets::corpus_medians;
use crate::run::{PageRun, Results};
use crate::stats::ratio;

/// Writes section 2 into `s`.
pub(super) fn section(s: &mut String, results: &Results) {
    let c = corpus_medians(&results.corpus);
    let _ = writeln!(s, "\n## 2. extract vs Playwright `ariaSnapshot()`\n");
    let _ = writeln!(
        s,
        "Playwright (`page.locator('body').ariaSnapshot()`, timed inside Node) runs in its own headless Chromium \
         on the same URL, in the same run, interleaved with ours: on the generated pages in {} rounds \
         (spread evenly) after one unrecorded call (Playwright injects its script). Bytes: extract's `markdown` \
         plus its `elements` as JSON (capped at 200 elements, as an agent receives them) against the snapshot's \
         YAML.\n",
        results
            .generated
            .first()
            .map_or("–".to_string(), |p| format!("{} of {}", p.aria_ms.len(), p.extract_ms.len()))
    );
    let _ = writeln!(
        s,
        "| page | extract p50 / p95 | ariaSnapshot p50 / p95 | time ratio (p50) | extract bytes | aria bytes | bytes ratio |\n\
         | --- | --- | --- | --- | --- | --- | --- |"
    );
    for p in &results.generated {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            p.name,
            p50_p95(&p.extract_ms),
            p50_p95(&p.aria_ms),
            x(p50(&p.extract_ms)
                .zip(p50(&p.aria_ms))
                .and_then(|(a, b)| ratio(a, b))),
            kb(p.out_bytes),
            kb(p.aria_bytes),
            x(ratio(p.out_bytes as f64, p.aria_bytes as f64))
        );
    }
    if c.pages > 0 {
        let _ = writeln!(
            s,
            "| **corpus**, median of {} pages | {} | {} | {} | {} | {} | {} |",
            c.pages,
            c.extract_ms.map_or("–".into(), ms),
            c.aria_ms.map_or("–".into(), ms),
            x(c.time_ratio),
            c.out_bytes.map_or("–".into(), |b| kb(b as usize)),
            c.aria_bytes.map_or("–".into(), |b| kb(b as usize)),
            x(c.bytes_ratio)
        );
        let _ = writeln!(
            s,
            "\nCorpus: `corpus/readability/*/source.html`, {} run(s) per page and tool after a warm-up ({}); per \
             page the p50, then the median across pages (ratios are per page, then the median; the ratio of the \
             medians is {} for time and {} for bytes). extract was faster than ariaSnapshot() on {} of {} pages.",
            results.corpus.first().map_or(0, |p| p.extract_ms.len()),
            if results.corpus_full_warmup {
                "one unrecorded floor and ariaSnapshot(), then one unrecorded run of each tool"
            } else {
                "one unrecorded floor, which builds Chrome's accessibility tree and layout of the page for \
                 extract and the floor alike, and one unrecorded ariaSnapshot(), which injects Playwright's script"
            },
            x(c.extract_ms.zip(c.aria_ms).and_then(|(e, a)| ratio(e, a))),
            x(c.out_bytes.zip(c.aria_bytes).and_then(|(e, a)| ratio(e, a))),
            c.faster_pages,
            c.pages
        );
        let mut slow: Vec<&PageRun> = results.corpus.iter().collect();
        slow.sort_by(|a, b| {
            let r = |p: &PageRun| {
                ratio(
                    p50(&p.extract_ms).unwrap_or(0.0),
                    p50(&p.aria_ms).unwrap_or(0.0),
                )
                .unwrap_or(0.0)
            };
            r(b).total_cmp(&r(a))
        });
        let _ = writeln!(
            s,
            "\n<details><summary>Every corpus page</summary>\n\n| page | DOM nodes | controls | load ms | extract p50 | floor p50 | aria p50 | extract / aria | extract bytes | aria bytes |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
        );
        for p in slow {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                p.name,
                p.dom_nodes,
                p.extract_total_elements,
                ms(p.load_ms),
                p50(&p.extract_ms).map_or("–".into(), ms),
                p50(&p.floor_ms).map_or("–".into(), ms),
                p50(&p.aria_ms).map_or("–".into(), ms),
                x(p50(&p.extract_ms)
                    .zip(p50(&p.aria_ms))
                    .and_then(|(a, b)| ratio(a, b))),
                kb(p.out_bytes),
                kb(p.aria_bytes)
            );
        }
        let _ = writeln!(s, "\n</details>");
    }
}
