//! The task benchmark's section of `docs/BENCHMARKS.md`, between [`BEGIN`] and [`END`] so a later run
//! replaces it in place (as `crate::peers::splice` does for the peer section).

use std::fmt::Write;

use super::{Outcome, Row, TaskResults};
use crate::peers::{Tool, TOOLS};

/// The markers around the task section.
pub const BEGIN: &str = "<!-- bench --tasks: begin -->";
/// See [`BEGIN`].
pub const END: &str = "<!-- bench --tasks: end -->";

/// One tool's totals over the tasks.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Totals {
    /// Tasks passed.
    pub passed: usize,
    /// Tool calls.
    pub calls: usize,
    /// Bytes read.
    pub bytes: usize,
    /// Seconds in tool calls.
    pub seconds: f64,
}

/// The totals of tool `i` over `rows`.
pub fn totals(rows: &[Row], i: usize) -> Totals {
    rows.iter()
        .map(|r| &r.tools[i])
        .fold(Totals::default(), |t, o| Totals {
            passed: t.passed + usize::from(o.passed),
            calls: t.calls + o.calls,
            bytes: t.bytes + o.bytes,
            seconds: t.seconds + o.seconds,
        })
}

/// Ours / the best peer's value (smallest), with the peer's name.
fn against_best(values: [f64; 3]) -> String {
    let (best, name) = if values[1] <= values[2] {
        (values[1], Tool::Playwright.label())
    } else {
        (values[2], Tool::DevTools.label())
    };
    if best <= 0.0 {
        return "–".into();
    }
    format!("{:.2}× ({name})", values[0] / best)
}

fn cell(o: &Outcome) -> String {
    format!(
        "{} {} / {:.1} KB / {:.1} s",
        if o.passed { "✓" } else { "✗" },
        o.calls,
        o.bytes as f64 / 1000.0,
        o.seconds
    )
}

/// The ratios line and the per-tool table, as printed to the terminal too.
pub fn summary(r: &TaskResults) -> String {
    let mut s = String::new();
    let n = r.rows.len();
    let _ = writeln!(
        s,
        "| tool | tasks passed | calls | bytes read | seconds in tools |"
    );
    let _ = writeln!(s, "| --- | --- | --- | --- | --- |");
    let t: Vec<Totals> = (0..3).map(|i| totals(&r.rows, i)).collect();
    for (i, tool) in TOOLS.iter().enumerate() {
        let _ = writeln!(
            s,
            "| {} | {} of {n} | {} | {:.1} KB | {:.1} s |",
            tool.label(),
            t[i].passed,
            t[i].calls,
            t[i].bytes as f64 / 1000.0,
            t[i].seconds
        );
    }
    let _ = writeln!(
        s,
        "\nOurs / the best peer, totals over all {n} tasks: calls {}, bytes {}, seconds {}.",
        against_best([0, 1, 2].map(|i| t[i].calls as f64)),
        against_best([0, 1, 2].map(|i| t[i].bytes as f64)),
        against_best([0, 1, 2].map(|i| t[i].seconds)),
    );
    let both: Vec<Row> = r
        .rows
        .iter()
        .filter(|row| row.tools.iter().all(|o| o.passed))
        .cloned()
        .collect();
    if !both.is_empty() && both.len() < n {
        let t: Vec<Totals> = (0..3).map(|i| totals(&both, i)).collect();
        let _ = writeln!(
            s,
            "Over the {} tasks all three passed: calls {}, bytes {}, seconds {}.",
            both.len(),
            against_best([0, 1, 2].map(|i| t[i].calls as f64)),
            against_best([0, 1, 2].map(|i| t[i].bytes as f64)),
            against_best([0, 1, 2].map(|i| t[i].seconds)),
        );
    }
    s
}

/// The whole section (Markdown).
pub fn render(r: &TaskResults, chromium: &str, machine: &crate::machine::MachineInfo) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{BEGIN}");
    let _ = writeln!(
        s,
        "## Tasks: what an agent pays per task (`./build.sh bench --tasks`)\n"
    );
    let _ = writeln!(
        s,
        "{} tasks in two real web applications from PyPI ({}; a `django-admin startproject` project's \
         admin, and one Trac environment served by `tracd`), each tool with its own copy of each \
         application's seeded data on 127.0.0.1; {} ({} cores), {}; {:.0} s. `uptime` at the start: \
         `{}`; at the end: `{}`. Servers: ours `bua-bridge mcp` ({}), {} ({}), {} ({}), each with its own \
         headless `{chromium}`, launched as `--peers` launches them.\n",
        r.rows.len(),
        r.versions,
        machine.cpu,
        machine.cores,
        machine.date,
        r.seconds,
        r.load.0,
        r.load.1,
        r.servers[0],
        Tool::Playwright.label(),
        r.servers[1],
        Tool::DevTools.label(),
        r.servers[2],
    );
    let _ = writeln!(
        s,
        "One scripted agent for all three (`crates/bench/src/tasks/agent.rs`): each task is written once \
         as intents on targets named by role, accessible name and place (`list.rs`); per tool it finds \
         each target only in the text that tool returned, reuses the latest text it has, takes a page \
         view when an action's result carries one (DevTools MCP with `includeSnapshot: true`, ours after a \
         navigation), applies ours' `changes` to the text it has (`patch.rs`), and reads \
         (`extract` / `browser_snapshot` / `take_snapshot`) when the target is not in its text, after the \
         page was left, or to see a result it expects. Best options of each (`agent.rs` `plan`): consecutive \
         form fields in one form fill (both peers' and ours' `fill`), ours' `fill` also clicking the \
         form's button that follows (`submit`), typing then Enter in one call (ours' and Playwright's \
         `submit`), Playwright's `slowly` typing and DevTools' click + `type_text` in filter boxes that \
         react to keys. Passed = the application's \
         own state (its database through its own Python) shows the task done. Calls count every tool \
         call, reads included; bytes are the UTF-8 text of every result (what the model reads); seconds \
         are the wall time inside tool calls.\n"
    );
    s.push_str(&summary(r));
    let _ = writeln!(
        s,
        "\nPer task: passed, calls / KB read / s in tools.\n\n| task | {} | {} | {} |\n| --- | --- | --- | --- |",
        TOOLS[0].label(),
        TOOLS[1].label(),
        TOOLS[2].label()
    );
    for row in &r.rows {
        let _ = writeln!(
            s,
            "| `{}` ({}: {}) | {} | {} | {} |",
            row.id,
            row.app.label(),
            row.what,
            cell(&row.tools[0]),
            cell(&row.tools[1]),
            cell(&row.tools[2])
        );
    }
    let failures: Vec<String> = r
        .rows
        .iter()
        .flat_map(|row| {
            TOOLS
                .iter()
                .zip(&row.tools)
                .filter(|(_, o)| !o.passed || !o.notes.is_empty())
                .map(move |(tool, o)| {
                    format!(
                        "* `{}`, {}: {}",
                        row.id,
                        tool.label(),
                        o.notes.join("; ").replace('|', "/")
                    )
                })
        })
        .collect();
    if !failures.is_empty() {
        let _ = writeln!(
            s,
            "\nFailures and what the agent did not find in the text:\n"
        );
        for f in failures {
            let _ = writeln!(s, "{f}");
        }
    }
    let _ = writeln!(s, "\n{END}");
    s
}

/// `report` with its task section replaced by `section` (appended when it has none).
pub fn splice(report: &str, section: &str) -> String {
    match (report.find(BEGIN), report.find(END)) {
        (Some(b), Some(e)) if e > b => format!(
            "{}{}{}",
            &report[..b],
            section,
            report[e + END.len()..].trim_start_matches('\n')
        ),
        _ => format!("{}\n\n{section}", report.trim_end()),
    }
}

/// The task section of `report`, if it has one (so the main benchmark keeps it when it rewrites the file).
pub fn section_of(report: &str) -> Option<&str> {
    let b = report.find(BEGIN)?;
    let e = report.find(END)?;
    (e > b).then(|| &report[b..e + END.len()])
}
