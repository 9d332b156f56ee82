//! The peer section of the report (Markdown): per tool the navigate and read times, bytes, recall and
//! failed calls; the ratios ours / peer against their [`goals`]; and every page.

use super::corpus::corpus_metrics;
use super::options::{Tool, SHARED_FLAGS, TOOLS};
use super::results::{Call, Measured, PageRow, PeerResults};
use super::section::{BEGIN, END};
use crate::stats::{goal_mark, median, percentile, ratio};

/// The goals the report prints next to the numbers (median of per-page ratios, recall quantiles).
pub mod goals {
    /// Our read bytes / Playwright MCP's.
    pub const BYTES_VS_PLAYWRIGHT: f64 = 0.35;
    /// Our read bytes / Chrome DevTools MCP's.
    pub const BYTES_VS_DEVTOOLS: f64 = 0.45;
    /// Recall median.
    pub const RECALL_MEDIAN: f64 = 0.99;
    /// Recall 10th percentile.
    pub const RECALL_P10: f64 = 0.97;
    /// Our read and navigate time / the faster peer's.
    pub const TIME_VS_FASTER: f64 = 1.0;
}

/// Per-page ratios ours / `other` of `value`, over the pages where both worked.
fn ratios(
    pages: &[PageRow],
    other: Option<Tool>,
    value: impl Fn(&Measured) -> Option<f64>,
) -> Vec<f64> {
    pages
        .iter()
        .filter_map(|p| {
            let ours = value(&p.tools[0])?;
            let theirs = match other {
                Some(t) => value(&p.tools[t.index()])?,
                // The faster of the two peers on this page.
                None => value(&p.tools[1])?.min(value(&p.tools[2])?),
            };
            ratio(ours, theirs)
        })
        .collect()
}

fn fmt(v: Option<f64>, digits: usize) -> String {
    v.map_or("–".into(), |v| format!("{v:.digits$}"))
}

fn kb(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{:.1} KB", v / 1000.0))
}

/// The report section (Markdown), between [`BEGIN`] and [`END`] so a later run replaces it in place.
pub fn render(r: &PeerResults, chromium: &str, machine: &crate::machine::MachineInfo) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "{BEGIN}");
    let _ = writeln!(
        s,
        "## Peers: the read loop through MCP (`./build.sh bench --peers`)\n"
    );
    let _ = writeln!(
        s,
        "{} pages of `corpus/readability` served on 127.0.0.1, {} ({} cores), {}; 1-minute load {} at the \
         start, {} at the end; {:.0} s. Servers: ours `bua-bridge mcp` ({}), {} ({}), {} ({}); each with its \
         own headless `{chromium}` from `/usr/bin/chromium` and the same flags (`--no-sandbox {}`), on top of each \
         tool's own launch flags (ours: `bua-bridge launch --headless`'s, README). Ours serves its bridge \
         in-process, as `bua-bridge mcp` does by default, and the extension connects to it. \
         Tools take turns page by page in a rotating order, after one unrecorded warm-up page each.\n",
        r.pages.len(),
        machine.cpu,
        machine.cores,
        machine.date,
        r.load.0,
        r.load.1,
        r.seconds,
        r.servers[0],
        Tool::Playwright.label(),
        r.servers[1],
        Tool::DevTools.label(),
        r.servers[2],
        SHARED_FLAGS.join(" "),
    );
    let _ = writeln!(
        s,
        "What is measured: each tool call from the JSON-RPC request written to its answer read, over the \
         server's stdio, as the agent's host waits for it; bytes are the UTF-8 text of the result's content \
         (what the agent reads; for us what our MCP server returns by default: `navigate {{url}}`, then \
         `extract {{}}`). Navigate: Chrome DevTools MCP answers with the page's URL and title, ours also \
         with the new page's view (SPEC §4: what an action changed; the read after it is then one an agent \
         would not need), Playwright MCP's `browser_navigate` also takes a snapshot (it saves it to a file and links it). \
         Read: `extract` / `browser_snapshot` / `take_snapshot`. Recall: share of the words of \
         `expected.html`'s `innerText` found in the read's text (`tests/support/corpus_metrics.rs`, \
         {} pages whose expected text is under 20 KB).\n",
        r.recall_pages
    );
    let _ = writeln!(
        s,
        "| tool | navigate p50 / p95 | navigate bytes p50 | read p50 / p95 | read bytes p50 | recall median / p10 | failed calls |"
    );
    let _ = writeln!(s, "| --- | --- | --- | --- | --- | --- | --- |");
    for tool in TOOLS {
        let i = tool.index();
        let m: Vec<&Measured> = r.pages.iter().map(|p| &p.tools[i]).collect();
        let nav: Vec<f64> = m
            .iter()
            .filter(|m| m.nav.error.is_none())
            .map(|m| m.nav.ms)
            .collect();
        let nav_bytes: Vec<f64> = m
            .iter()
            .filter(|m| m.nav.error.is_none())
            .map(|m| m.nav.bytes as f64)
            .collect();
        let reads: Vec<&Call> = m.iter().filter_map(|m| m.ok_read()).collect();
        let read_ms: Vec<f64> = reads.iter().map(|c| c.ms).collect();
        let read_bytes: Vec<f64> = reads.iter().map(|c| c.bytes as f64).collect();
        let recall: Vec<f64> = m.iter().filter_map(|m| m.recall).collect();
        let failed = m
            .iter()
            .filter(|m| m.nav.error.is_some() || m.read.as_ref().is_some_and(|r| r.error.is_some()))
            .count();
        let (nav_name, read_name) = tool.calls();
        let _ = writeln!(
            s,
            "| {} (`{nav_name}`, `{read_name}`) | {} / {} ms | {} | {} / {} ms | {} | {} / {} | {failed} |",
            tool.label(),
            fmt(median(&nav), 0),
            fmt(percentile(&nav, 95.0), 0),
            kb(median(&nav_bytes)),
            fmt(median(&read_ms), 0),
            fmt(percentile(&read_ms, 95.0), 0),
            kb(median(&read_bytes)),
            fmt(median(&recall), 3),
            fmt(percentile_low(&recall, 10.0), 3),
        );
    }
    let read_bytes = |m: &Measured| m.ok_read().map(|c| c.bytes as f64);
    let read_ms = |m: &Measured| m.ok_read().map(|c| c.ms);
    let nav_ms = |m: &Measured| m.nav.error.is_none().then_some(m.nav.ms);
    let verdict = |v: Option<f64>, goal: f64| goal_mark(v.map(|v| v <= goal));
    let pw = Some(Tool::Playwright);
    let dt = Some(Tool::DevTools);
    let _ = writeln!(
        s,
        "\nMedians over pages of the per-page ratio ours / peer (pages where both worked), with the goals:\n"
    );
    let _ = writeln!(
        s,
        "| ratio | / Playwright MCP | / DevTools MCP | / the faster peer | goal |"
    );
    let _ = writeln!(s, "| --- | --- | --- | --- | --- |");
    let b_pw = median(&ratios(&r.pages, pw, read_bytes));
    let b_dt = median(&ratios(&r.pages, dt, read_bytes));
    let _ = writeln!(
        s,
        "| read bytes | {}× ({}) | {}× ({}) | {}× | ≤ {} × PW, ≤ {} × DevTools |",
        fmt(b_pw, 2),
        verdict(b_pw, goals::BYTES_VS_PLAYWRIGHT),
        fmt(b_dt, 2),
        verdict(b_dt, goals::BYTES_VS_DEVTOOLS),
        fmt(median(&ratios(&r.pages, None, read_bytes)), 2),
        goals::BYTES_VS_PLAYWRIGHT,
        goals::BYTES_VS_DEVTOOLS,
    );
    for (what, value) in [
        ("read time", &read_ms as &dyn Fn(&Measured) -> Option<f64>),
        ("navigate time", &nav_ms),
    ] {
        let faster = median(&ratios(&r.pages, None, value));
        let _ = writeln!(
            s,
            "| {what} | {}× | {}× | {}× ({}) | ≤ {} × the faster peer |",
            fmt(median(&ratios(&r.pages, pw, value)), 2),
            fmt(median(&ratios(&r.pages, dt, value)), 2),
            fmt(faster, 2),
            verdict(faster, goals::TIME_VS_FASTER),
            goals::TIME_VS_FASTER,
        );
    }
    let ours_recall: Vec<f64> = r.pages.iter().filter_map(|p| p.tools[0].recall).collect();
    let (med, p10) = (median(&ours_recall), percentile_low(&ours_recall, 10.0));
    let _ = writeln!(
        s,
        "\nOur recall: median {} ({}, goal ≥ {}), 10th percentile {} ({}, goal ≥ {}).\n",
        fmt(med, 3),
        goal_mark(Some(med.is_some_and(|v| v >= goals::RECALL_MEDIAN))),
        goals::RECALL_MEDIAN,
        fmt(p10, 3),
        goal_mark(Some(p10.is_some_and(|v| v >= goals::RECALL_P10))),
        goals::RECALL_P10,
    );
    let _ = writeln!(
        s,
        "<details><summary>Per page (ms navigate / ms read / read KB / recall)</summary>\n"
    );
    let _ = writeln!(s, "| page | BUA | Playwright MCP | DevTools MCP |");
    let _ = writeln!(s, "| --- | --- | --- | --- |");
    for p in &r.pages {
        let cells: Vec<String> = p
            .tools
            .iter()
            .map(|m| {
                if let Some(e) = &m.nav.error {
                    return format!("navigate failed: {}", cell_text(e));
                }
                match &m.read {
                    Some(Call { error: Some(e), .. }) => {
                        format!("{:.0} / read failed: {}", m.nav.ms, cell_text(e))
                    }
                    Some(read) => format!(
                        "{:.0} / {:.0} / {:.1} / {}",
                        m.nav.ms,
                        read.ms,
                        read.bytes as f64 / 1000.0,
                        fmt(m.recall, 3)
                    ),
                    None => format!("{:.0} / –", m.nav.ms),
                }
            })
            .collect();
        let _ = writeln!(s, "| {} | {} |", p.name, cells.join(" | "));
    }
    let _ = writeln!(s, "\n</details>\n");
    let _ = writeln!(s, "{END}");
    s
}

/// The `p`-th percentile from below (nearest rank), for "the 10th percentile of recall".
fn percentile_low(v: &[f64], p: f64) -> Option<f64> {
    (!v.is_empty()).then(|| corpus_metrics::quantile(v, p / 100.0))
}

/// A message fit for one table cell.
fn cell_text(e: &str) -> String {
    e.replace(['|', '\n'], " ").chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_against_the_faster_peer_take_the_smaller_time_per_page() {
        let m = |ms: f64| Measured {
            nav: Call {
                ms,
                ..Call::default()
            },
            ..Measured::default()
        };
        let pages = vec![PageRow {
            name: "p".into(),
            tools: [m(50.0), m(100.0), m(25.0)],
        }];
        let nav = |m: &Measured| Some(m.nav.ms);
        assert_eq!(ratios(&pages, Some(Tool::Playwright), nav), vec![0.5]);
        assert_eq!(ratios(&pages, None, nav), vec![2.0]);
    }
}
