//! The corpus side of a peer run: the pages to read, the expected article text of each (read once
//! through our bridge), and the recall metric the corpus test scores with.

use std::path::Path;
use std::time::Duration;

use bua_bridge::site::StaticSite;
use bua_bridge::BridgeClient;
use serde_json::json;

use super::options::progress;
use crate::BenchError;

/// The corpus test's metrics (`tests/support/corpus_metrics.rs`), so that recall here is scored the
/// same way.
#[path = "../../../../tests/support/corpus_metrics.rs"]
pub(super) mod corpus_metrics;

/// The corpus pages (folders with a `source.html`), by name.
pub(super) fn corpus_pages(dir: &Path, limit: Option<usize>) -> Result<Vec<String>, BenchError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| BenchError::io(format!("reading {}", dir.display()), e))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("source.html").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    if let Some(n) = limit {
        names.truncate(n);
    }
    Ok(names)
}

/// The expected article text of each page: `document.body.innerText` of its `expected.html`, as the
/// corpus test reads it, in slices (evaluate truncates values over 8 KB); `None` when it is too long to
/// count for recall or could not be read.
pub(super) async fn expected_texts(
    client: &BridgeClient,
    site: &StaticSite,
    names: &[String],
) -> Result<Vec<Option<String>>, BenchError> {
    const SLICE: usize = 1_500;
    let opened = client
        .call_timeout(
            "open_tab",
            json!({"url": "about:blank"}),
            Duration::from_secs(30),
        )
        .await?;
    let tab = opened["tabId"]
        .as_i64()
        .ok_or_else(|| BenchError::Unexpected(format!("open_tab answered {opened}")))?;
    let mut out = Vec::new();
    for name in names {
        let url = site.url(&format!("/corpus/{name}/expected.html"));
        let nav = client
            .call_timeout(
                "navigate",
                json!({"tabId": tab, "url": url}),
                Duration::from_secs(30),
            )
            .await;
        if let Err(e) = nav {
            progress(&format!("{name}: expected.html did not load: {e}"));
            out.push(None);
            continue;
        }
        let eval = |expression: String| async move {
            client
                .call_timeout(
                    "evaluate",
                    json!({"tabId": tab, "expression": expression}),
                    Duration::from_secs(15),
                )
                .await
                .map(|v| v["value"].clone())
        };
        let size = eval(
            "const t = document.body ? document.body.innerText : ''; \
             return [t.length, new TextEncoder().encode(t).length]"
                .into(),
        )
        .await?;
        let (chars, bytes) = (
            size[0].as_u64().unwrap_or(0) as usize,
            size[1].as_u64().unwrap_or(0) as usize,
        );
        if bytes >= corpus_metrics::RECALL_MAX_EXPECTED_BYTES {
            out.push(None);
            continue;
        }
        let mut text = String::new();
        for start in (0..chars).step_by(SLICE) {
            let part = eval(format!(
                "return document.body.innerText.slice({start}, {})",
                start + SLICE
            ))
            .await?;
            text.push_str(part.as_str().unwrap_or_default());
        }
        out.push(Some(text));
    }
    let _ = client.call("close_tab", json!({"tabId": tab})).await;
    Ok(out)
}
