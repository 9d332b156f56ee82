//! Section 3 of the report: each action's round trip through a bridge client against its bare CDP
//! commands.

use std::fmt::Write as _;

use super::format::{p50_p95, x};
use crate::run::Results;
use crate::stats::{ratio, summarize};

/// Writes section 3 into `s`.
pub(super) fn section(s: &mut String, results: &Results) {
    let _ = writeln!(s, "\n## 3. Action round trips\n");
    let _ = writeln!(
        s,
        "From a `BridgeClient` (client → bridge → extension → `chrome.debugger` and back) against the bare CDP \
         commands the action needs, sent straight to DevTools on the same tab; interleaved, {} round trips each \
         after 5 warm-ups, on a small page. Times in ms.\n",
        results.actions.first().map_or(0, |a| a.bridge_ms.len())
    );
    let _ = writeln!(
        s,
        "| action | bridge p50 / p95 | bare CDP | bare p50 / p95 | ratio p50 | ratio p95 |\n| --- | --- | --- | --- | --- | --- |"
    );
    for a in &results.actions {
        let (b, r) = (summarize(&a.bridge_ms), summarize(&a.bare_ms));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            a.name,
            p50_p95(&a.bridge_ms),
            a.bare,
            p50_p95(&a.bare_ms),
            x(b.zip(r).and_then(|(b, r)| ratio(b.p50, r.p50))),
            x(b.zip(r).and_then(|(b, r)| ratio(b.p95, r.p95)))
        );
    }
}
