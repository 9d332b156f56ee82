//! The whole report in order: the machine and the run, the targets table, sections 1–4, then the
//! notes on missed targets, the extracts that failed and the phases that failed.

use std::fmt::Write as _;

use super::context::Context;
use super::format::ms;
use super::targets::targets;
use super::{actions, aria, floor, worker};
use crate::run::Results;
use crate::stats::goal_mark;

/// Renders the whole report. `notes` are the explanations of missed targets (Markdown paragraphs).
pub fn render(results: &Results, ctx: &Context, notes: &[String]) -> String {
    let mut s = String::new();
    let m = &ctx.machine;
    let _ = writeln!(s, "# Benchmarks\n");
    let _ = writeln!(
        s,
        "Made by `./build.sh bench` (`crates/bench`, the Playwright peer in `bench/`) on \
         **{}**, one run, every tool side by side on the same pages from the same local server. \
         Regenerate with `./build.sh bench`; this file is overwritten.\n",
        m.date
    );
    let _ = writeln!(s, "| machine | |\n| --- | --- |");
    let _ = writeln!(s, "| CPU | {} ({} cores) |", m.cpu, m.cores);
    let _ = writeln!(s, "| memory | {:.1} GiB |", m.memory_gib);
    let _ = writeln!(s, "| OS | {} |", m.os);
    let _ = writeln!(s, "| load average at start | {} |", m.load);
    let _ = writeln!(s, "| Chromium | {} (`--headless=new`) |", results.chromium);
    match &results.playwright {
        Some((browser, version)) => {
            let _ = writeln!(
                s,
                "| Playwright | playwright-core {version}, Node {}, its own Chromium {browser} |",
                m.node
            );
        }
        None => {
            let _ = writeln!(s, "| Playwright | not run |");
        }
    }
    let _ = writeln!(
        s,
        "| extension | wasm `{}` profile; {} |",
        ctx.wasm_profile, m.rustc
    );
    let _ = writeln!(
        s,
        "| run | `{}`; {:.0} s of measurement ({}); launch to first ack {} ms; viewport {}×{} |",
        ctx.command,
        results.wall_s,
        results
            .phase_s
            .iter()
            .map(|(name, secs)| format!("{name} {secs:.0} s"))
            .collect::<Vec<_>>()
            .join(", "),
        ms(results.launch_ms),
        results.viewport.0,
        results.viewport.1
    );

    let _ = writeln!(s, "\n## Targets\n");
    let _ = writeln!(
        s,
        "| target | measured | goal | |\n| --- | --- | --- | --- |"
    );
    for t in targets(results, ctx) {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            t.what,
            t.measured,
            t.goal,
            goal_mark(t.met)
        );
    }

    floor::section(&mut s, results);
    aria::section(&mut s, results);
    actions::section(&mut s, results);
    worker::section(&mut s, results, ctx);

    if !notes.is_empty() {
        let _ = writeln!(s, "\n## Notes on missed targets\n");
        for n in notes {
            let _ = writeln!(s, "{n}\n");
        }
    }
    let timeouts: Vec<String> = results
        .generated
        .iter()
        .chain(&results.corpus)
        .filter(|p| !p.extract_failures.is_empty())
        .map(|p| {
            format!(
                "- extract on {} failed {} time(s): {}",
                p.name,
                p.extract_failures.len(),
                p.extract_failures[0]
            )
        })
        .collect();
    if !timeouts.is_empty() {
        let _ = writeln!(s, "\n## Extracts that failed\n");
        for t in &timeouts {
            let _ = writeln!(s, "{t}");
        }
    }
    if !results.failures.is_empty() {
        let _ = writeln!(s, "\n## Failures in this run\n");
        for f in &results.failures {
            let _ = writeln!(s, "- {f}");
        }
    }
    s
}
