//! Section 4 of the report: the service worker — the wasm module's size, its cold start to `ack`
//! and its JS heap after the leak check's actions.

use std::fmt::Write as _;

use super::context::Context;
use super::format::{kb, ms};
use crate::run::Results;
use crate::stats::summarize;

/// Writes section 4 into `s`.
pub(super) fn section(s: &mut String, results: &Results, ctx: &Context) {
    let _ = writeln!(s, "\n## 4. The service worker\n");
    let _ = writeln!(s, "| measure | value |\n| --- | --- |");
    let _ = writeln!(
        s,
        "| wasm (`dist/pkg/bua_extension_bg.wasm`) | {} bytes raw ({:.2} MB), {} gzip -9 |",
        ctx.wasm.raw,
        ctx.wasm.raw as f64 / 1e6,
        ctx.wasm.gzip.map_or("–".to_string(), |g| format!(
            "{g} bytes ({:.2} MB)",
            g as f64 / 1e6
        ))
    );
    let cold = |v: &[f64]| {
        summarize(v).map_or("–".to_string(), |s| {
            format!(
                "median {} ms, max {} ms ({} starts: {})",
                ms(s.p50),
                ms(s.max),
                s.n,
                v.iter()
                    .map(|t| format!("{t:.0}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    };
    let _ = writeln!(
        s,
        "| cold start: worker global scope created (`performance.timeOrigin`) → bridge `ack` | {} |",
        cold(&results.cold_origin_ms)
    );
    let _ = writeln!(
        s,
        "| cold start: worker target created (`Target.targetCreated`) → bridge `ack` | {} |",
        cold(&results.cold_worker_ms)
    );
    let _ = writeln!(
        s,
        "| cold start: wake (a tab opens, worker stopped) → `ack` | {} |",
        cold(&results.cold_wake_ms)
    );
    for h in &results.heap {
        let _ = writeln!(
            s,
            "| JS heap after {} actions (after GC) | used {}, total {}{} |",
            h.after_actions,
            kb(h.used as usize),
            kb(h.total as usize),
            h.backing.map_or(String::new(), |b| format!(
                ", ArrayBuffers (wasm memory) {}",
                kb(b as usize)
            ))
        );
    }
    if !results.leak_mix.is_empty() {
        let _ = writeln!(s, "| leak-check actions | {} |", results.leak_mix);
    }
    let _ = writeln!(
        s,
        "\nCold start: the worker is stopped by closing its DevTools target; once the bridge has seen the \
         extension go, a new tab wakes it (`tabs.onUpdated`). From the worker's `performance.timeOrigin` (its \
         global scope is created; the target is judged on this span) the time is the extension's own: script \
         evaluation, wasm fetch, compile and instantiate, `start()`, the storage reads, the WebSocket connect and \
         `hello` → `ack`. The spans from `Target.targetCreated` and from the waking tab add Chrome's own start of \
         the worker."
    );
}
