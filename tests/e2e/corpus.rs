//! The corpus test, end to end: the corpus of saved real pages (`corpus/` at the repository root, its README says where
//! each folder comes from and under which licence) is served on 127.0.0.1, and every page is loaded with
//! `navigate` and read with `extract` through the real bridge and the built extension in headless
//! Chromium. It prints per page markdown recall, size ratio and obstacle, the per-folder confusion
//! tables, and asserts the thresholds:
//!
//! * readability: median recall ≥ 0.95, 10th percentile ≥ 0.80 (pages whose expected text is under
//!   20 KB), median size ratio ≤ 2.5, no high-confidence obstacle, at most 2 % with any;
//! * login/positive (sign-in pages) ≥ 95 % `auth_wall`; login/negative (sign-up, checkout, search,
//!   newsletter) no high `auth_wall`, at most 20 % with any;
//! * challenge: every page `captcha`, ≥ 90 % high.
//!
//! The expected article text is the body's `innerText` of `expected.html` (read with `evaluate`).
//! Pages are served under neutral prefixes (`/s1/…`) so that the folder names, which are the labels,
//! never reach the classifier through the URL. `BUA_CORPUS_ONLY=<substring>` limits the pages.

use crate::support;

#[path = "../support/corpus_metrics.rs"]
mod metrics;

use std::path::{Path, PathBuf};
use std::time::Instant;

use bua_bridge::BridgeClient;
use metrics::{alias, measure, summarise, PageReport, FOLDERS};
use serde_json::{json, Value};
use support::{note, repo_root, Browser, FixtureServer, Route};

/// `<repo>/corpus`, or `$BUA_CORPUS_DIR` (another copy of the same layout).
fn corpus_dir() -> PathBuf {
    std::env::var_os("BUA_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("corpus"))
}

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(dir) {
                out.push(rel.to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// Serves every HTML file of each corpus folder under its alias (`/s2/14.html`, and the pages'
/// own resources next to them), as UTF-8 whatever their `<meta charset>` says (the saved files are
/// UTF-8).
fn serve_corpus(corpus: &Path) -> FixtureServer {
    let server = FixtureServer::start(corpus);
    for folder in FOLDERS {
        let dir = corpus.join(folder);
        for rel in files_under(&dir) {
            if rel.extension().is_some_and(|e| e == "html") {
                let body = std::fs::read(dir.join(&rel)).expect("corpus file readable");
                let path = format!("/{}/{}", alias(folder), rel.display());
                server.route(
                    &path,
                    Route::Html(String::from_utf8_lossy(&body).into_owned()),
                );
            }
        }
    }
    server
}

/// The corpus pages: `(folder, name, path served)`; `name` is the page's folder for readability.
fn pages(corpus: &Path) -> Vec<(&'static str, String, String)> {
    let only = std::env::var("BUA_CORPUS_ONLY").ok();
    let mut out = Vec::new();
    for folder in FOLDERS {
        let dir = corpus.join(folder);
        for rel in files_under(&dir) {
            let rel_s = rel.display().to_string();
            let page = if folder == "readability" {
                rel_s
                    .strip_suffix("/source.html")
                    .map(|n| (n.to_string(), rel_s.clone()))
            } else if rel.components().count() == 1 && rel_s.ends_with(".html") {
                Some((rel_s.trim_end_matches(".html").to_string(), rel_s.clone()))
            } else {
                None
            };
            if let Some((name, file)) = page {
                if only
                    .as_deref()
                    .is_some_and(|o| !format!("{folder}/{name}").contains(o))
                {
                    continue;
                }
                out.push((folder, name, format!("/{}/{}", alias(folder), file)));
            }
        }
    }
    out
}

/// `navigate` to `url` on `tab`. A page that is still loading when `navigate` gives up (a resource
/// the saved page references never answers) is used as it is, as an agent would.
async fn load(client: &BridgeClient, tab: i64, url: &str) -> Result<(), String> {
    match client
        .call("navigate", json!({"url": url, "tabId": tab}))
        .await
    {
        Ok(_) => Ok(()),
        Err(e) if e.code().as_str() == "timeout" => {
            note(&format!(
                "corpus: {url} still loading, extracting anyway ({e})"
            ));
            Ok(())
        }
        Err(e) => Err(format!("navigate {url}: {e}")),
    }
}

/// `navigate` then `extract` on `tab`; the extract result.
async fn load_and_extract(client: &BridgeClient, tab: i64, url: &str) -> Result<Value, String> {
    load(client, tab, url).await?;
    client
        .call("extract", json!({"tabId": tab}))
        .await
        .map_err(|e| format!("extract {url}: {e}"))
}

/// The body's `innerText` of `url` (the expected article), read with `evaluate` in slices that stay
/// under its 8 KB result cap.
async fn inner_text(client: &BridgeClient, tab: i64, url: &str) -> Result<String, String> {
    load(client, tab, url).await?;
    let mut text = String::new();
    let mut offset = 0usize;
    loop {
        let expression = format!(
            "const t = document.body ? document.body.innerText : ''; return t.slice({offset}, {})",
            offset + 2000
        );
        let r = client
            .call("evaluate", json!({"tabId": tab, "expression": expression}))
            .await
            .map_err(|e| format!("evaluate on {url}: {e}"))?;
        let part = r["value"].as_str().unwrap_or("");
        if part.is_empty() {
            return Ok(text);
        }
        text.push_str(part);
        offset += 2000;
    }
}

fn obstacle_of(result: &Value) -> Option<(String, String)> {
    let o = result.get("obstacle")?;
    Some((
        format!(
            "{}/{}",
            o["type"].as_str().unwrap_or("?"),
            o["confidence"].as_str().unwrap_or("?")
        ),
        o["message"].as_str().unwrap_or("").to_string(),
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corpus_meets_the_extract_thresholds_through_the_extension() {
    let corpus = corpus_dir();
    assert!(
        corpus.join("readability").is_dir(),
        "the corpus is missing at {}: it ships in the repository as corpus/ (restore it with \
         `git checkout -- corpus`), or point BUA_CORPUS_DIR at a copy",
        corpus.display()
    );
    let server = serve_corpus(&corpus);
    let browser = &Browser::shared("corpus");
    let client = browser.client().await;
    let opened = client
        .call(
            "open_tab",
            json!({"url": server.url("/s1/001/source.html")}),
        )
        .await
        .expect("open_tab");
    let tab = opened["tabId"].as_i64().expect("tabId");

    let started = Instant::now();
    let mut reports: Vec<PageReport> = Vec::new();
    let pages = pages(&corpus);
    let total = pages.len();
    for (folder, name, path) in pages {
        let report = match load_and_extract(&client, tab, &server.url(&path)).await {
            Ok(result) => {
                let markdown = result["markdown"].as_str().unwrap_or("").to_string();
                let expected = if folder == "readability" {
                    let expected_path = path.replace("/source.html", "/expected.html");
                    match inner_text(&client, tab, &server.url(&expected_path)).await {
                        Ok(text) => Some(text),
                        Err(e) => {
                            note(&format!("corpus: {e}"));
                            Some(String::new())
                        }
                    }
                } else {
                    None
                };
                measure(
                    folder,
                    &name,
                    &markdown,
                    expected.as_deref(),
                    obstacle_of(&result),
                )
            }
            Err(e) => {
                // A page that cannot be extracted counts against every threshold it is in.
                let mut r = measure(
                    folder,
                    &name,
                    "",
                    (folder == "readability").then_some("unreadable"),
                    Some(("error".into(), e.clone())),
                );
                r.message = e;
                r
            }
        };
        eprintln!(
            "corpus {:>3}/{total} {folder}/{name}: {} ({:.0} s)",
            reports.len() + 1,
            report.obstacle,
            started.elapsed().as_secs_f64()
        );
        reports.push(report);
    }
    println!(
        "corpus: {} pages through the extension in {:.0} s",
        reports.len(),
        started.elapsed().as_secs_f64()
    );
    let failures = summarise(&reports);
    let _ = client.call("close_tab", json!({"tabId": tab})).await;
    assert!(failures.is_empty(), "thresholds missed: {failures:#?}");
}
