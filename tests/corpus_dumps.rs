//! Dev loop for `extract` on the corpus without the extension: runs the pure pipeline
//! ([`bua_extension::extract::page::analyze`]) on the CDP responses that `tests/corpus_dump.py` saved
//! from real Chromium (default `/tmp/corpus-dumps`, or `$BUA_CORPUS_DUMPS`), prints per page markdown
//! recall, size ratio and obstacle, the per-folder confusion tables, and asserts the corpus thresholds
//! (the same as `tests/e2e/corpus.rs`, from [`metrics::summarise`]).
//! `$BUA_CORPUS_ONLY=<substring>` limits the pages; `$BUA_CORPUS_OUT=<dir>` writes each page's
//! markdown, expected text, elements and agent text there. It also prints the bytes of the agent text
//! (SPEC §9: what the MCP server hands a model, `refs` on) over all pages, the number the per-page byte
//! budget is about.
//!
//! ```text
//! python3 tests/corpus_dump.py
//! cargo test -p bua-extension --release --test corpus_dumps -- --ignored --nocapture
//! ```

#[path = "support/corpus_dump.rs"]
mod dump;
#[path = "support/corpus_metrics.rs"]
mod metrics;

use std::path::{Path, PathBuf};

use bua_extension::extract::page::{analyze, analyze_parsed, PageInputs};
use bua_extension::extract::snapshot::Dom;
use metrics::{measure, summarise, FOLDERS};

fn dumps_dir() -> PathBuf {
    std::env::var_os("BUA_CORPUS_DUMPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp/corpus-dumps"))
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "json"));
    v.sort();
    v
}

#[test]
#[ignore = "needs dumps from tests/corpus_dump.py"]
fn corpus_dumps_native() {
    let root = dumps_dir();
    let only = std::env::var("BUA_CORPUS_ONLY").ok();
    let out_dir = std::env::var("BUA_CORPUS_OUT").ok();
    let mut reports = Vec::new();
    let mut agent_bytes = 0usize;
    for folder in FOLDERS {
        for path in json_files(&root.join(folder)) {
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("")
                .to_string();
            if only
                .as_deref()
                .is_some_and(|o| !format!("{folder}/{name}").contains(o))
            {
                continue;
            }
            let page = dump::read(&path);
            let input = dump::inputs(&page, page["url"].as_str().unwrap_or(""));
            let result = analyze(&input).expect("dump analyses");
            let agent = agent_text(&input);
            agent_bytes += agent.len();
            let expected = page["expectedText"].as_str();
            reports.push(measure(
                folder,
                &name,
                &result.markdown.text,
                expected,
                result.obstacle.as_ref().map(dump::obstacle_label),
            ));
            if let Some(dir) = &out_dir {
                let dir = Path::new(dir).join(folder);
                let _ = std::fs::create_dir_all(&dir);
                let _ = std::fs::write(dir.join(format!("{name}.md")), &result.markdown.text);
                let _ = std::fs::write(dir.join(format!("{name}.agent.txt")), &agent);
                if let Some(e) = expected {
                    let _ = std::fs::write(dir.join(format!("{name}.expected.txt")), e);
                }
                let els: Vec<String> = result
                    .elements
                    .elements
                    .iter()
                    .map(|e| {
                        format!(
                            "{} {:?} {:?} vis={:?} type={:?} form={:?} rendered={}",
                            e.role, e.name, e.value, e.visible, e.input_type, e.form, e.rendered
                        )
                    })
                    .collect();
                let _ = std::fs::write(dir.join(format!("{name}.elements.txt")), els.join("\n"));
            }
        }
    }
    println!(
        "agent text: {agent_bytes} bytes over {} pages",
        reports.len()
    );
    let failures = summarise(&reports);
    assert!(failures.is_empty(), "thresholds missed: {failures:#?}");
}

/// The agent text of a page (SPEC §9), as the MCP server renders it: markdown and elements, links named
/// by uid (`refs`), uids in list order as the tab's uid cache gives them.
fn agent_text(input: &PageInputs<'_>) -> String {
    let dom = Dom::from_snapshot(input.snapshot).expect("dump parses");
    let mut result = analyze_parsed(input.url, input.title, "", input.viewport, &dom, true);
    let uids = (0..result.elements.elements.len())
        .map(bua_extension::extract::ax::uid)
        .collect();
    result.text = String::new();
    let mut out = bua_extension::extract::to_protocol(
        input.url.to_string(),
        input.title.to_string(),
        result,
        uids,
        false,
    );
    out.text = None;
    bua_protocol::text::extract_text(&out)
}
