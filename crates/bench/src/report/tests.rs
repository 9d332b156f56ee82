//! The report's targets, notes and tables on hand-made results: what a missed target's note says
//! is computed from the run's own numbers.

use super::{notes, render, targets, Context, WasmSize};
use crate::machine::MachineInfo;
use crate::run::{CommandTiming, PageRun, Profile, Results};

fn corpus_page(name: &str, controls: u64, out: usize, aria: usize, e: f64, a: f64) -> PageRun {
    PageRun {
        name: name.into(),
        dom_nodes: 1000,
        extract_total_elements: controls,
        extract_ms: vec![e],
        floor_ms: vec![e / 3.0],
        aria_ms: vec![a],
        out_bytes: out,
        markdown_bytes: out / 2,
        elements_bytes: out - out / 2,
        aria_bytes: aria,
        ..PageRun::default()
    }
}

fn context() -> Context {
    Context {
        machine: MachineInfo {
            cpu: "cpu".into(),
            cores: 2,
            memory_gib: 8.0,
            os: "os".into(),
            rustc: "rustc".into(),
            node: "v20".into(),
            load: "0.5".into(),
            date: "2026-01-01 00:00 UTC".into(),
        },
        wasm: WasmSize {
            raw: 1_000 * 1_000,
            gzip: Some(400_000),
        },
        wasm_profile: "release".into(),
        command: "bua-bench".into(),
    }
}

/// Asserts that `text` contains every one of `parts`.
#[track_caller]
fn assert_has(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{part:?} is missing from:\n{text}");
    }
}

fn command(method: &str, raw: f64, debugger: f64, bytes: usize) -> CommandTiming {
    CommandTiming {
        method: method.into(),
        raw_ms: raw,
        debugger_ms: debugger,
        stringify_ms: 1.0,
        bytes,
    }
}

#[test]
fn missed_corpus_targets_are_explained_from_the_runs_numbers() {
    let results = Results {
        generated: vec![PageRun {
            name: "1k".into(),
            extract_ms: vec![250.0; 20],
            floor_ms: vec![80.0; 20],
            aria_ms: vec![50.0; 10],
            profile: Some(Profile {
                commands: vec![
                    command("Runtime.evaluate", 2.0, 4.0, 5_000),
                    command("DOMSnapshot.captureSnapshot", 20.0, 50.0, 100_000),
                    command("Accessibility.getFullAXTree", 80.0, 200.0, 530 * 1024),
                ],
                uses_ax: true,
                dom_nodes: 1001,
                pipelined_ms: Some(220.0),
            }),
            ..PageRun::default()
        }],
        // Two text-only pages (no controls) near 0.9×, three with controls near 0.5×.
        corpus: vec![
            corpus_page("text-a", 0, 900, 1000, 30.0, 20.0),
            corpus_page("text-b", 0, 1800, 2000, 30.0, 20.0),
            corpus_page("links-a", 50, 5000, 10_000, 300.0, 60.0),
            corpus_page("links-b", 80, 6000, 12_000, 300.0, 60.0),
            corpus_page("links-c", 90, 7000, 14_000, 300.0, 60.0),
        ],
        ..Results::default()
    };
    let ctx = context();
    let t = targets(&results, &ctx);
    let bytes = t.iter().find(|t| t.what.contains("bytes")).unwrap();
    assert_eq!(bytes.met, Some(true), "median of per-page ratios is 0.5×");
    let time = t
        .iter()
        .find(|t| t.what.contains("ariaSnapshot() time"))
        .unwrap();
    assert_eq!(time.met, Some(false));
    assert_eq!(time.measured, "5.00× (300 vs 60.0 ms)");

    let notes = notes(&results, &ctx);
    let time_note = notes
        .iter()
        .find(|n| n.contains("ariaSnapshot() time"))
        .unwrap();
    // AX tree 200 ms via chrome.debugger against 80 raw and aria's 50 on the 1k page; without it:
    // rest (250 − 220 pipelined) + evaluate 4 + 1 + snapshot 50 + 1 = 86 ms.
    assert_has(
        time_note,
        &[
            "200 ms there against 80.0 ms raw",
            "one is 257 ms, pipelined 220 ms",
            "about 86.0 ms",
            "1.72× ariaSnapshot()",
        ],
    );

    let report = render(&results, &ctx, &notes);
    assert!(
        report.contains("| 1k | 1001 | AX tree | 102 | 257 | 220 | 250 | 30.0 | 80.0 |"),
        "{report}"
    );
}

#[test]
fn the_bytes_note_separates_text_only_pages() {
    let results = Results {
        corpus: vec![
            corpus_page("text-a", 0, 900, 1000, 30.0, 20.0),
            corpus_page("text-b", 0, 1800, 2000, 30.0, 20.0),
            corpus_page("text-c", 0, 850, 1000, 30.0, 20.0),
            corpus_page("links-a", 50, 5000, 10_000, 300.0, 60.0),
            corpus_page("links-b", 80, 7000, 10_000, 300.0, 60.0),
        ],
        ..Results::default()
    };
    let ctx = context();
    let notes = notes(&results, &ctx);
    let note = notes.iter().find(|n| n.contains("bytes")).unwrap();
    assert_has(
        note,
        &[
            "measured 0.85×",
            "4 of 5 pages are above 0.6×",
            "3 pages have no control at all",
            "the ratio there is 0.90× (median)",
            "On the 2 pages with controls it is 0.50×",
            // elements' JSON: 2500 / 50 and 3500 / 80 bytes per control; the lower middle (nearest rank)
            // is 44.
            "about 44 bytes",
        ],
    );
}
