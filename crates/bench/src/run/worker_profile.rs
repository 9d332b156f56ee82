//! Where the service worker's CPU time goes during extracts: V8's sampling profiler on the worker,
//! its samples summed by category and by function.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{json, Value};

use super::bench::Bench;
use super::results::WorkerProfile;
use crate::BenchError;

/// Runs `runs` extracts with V8's sampling profiler on the extension's service worker and sums the
/// Runs `runs` extracts with V8's sampling profiler on the extension's service worker and sums the
/// samples' self time by category and by function.
pub(super) async fn worker_profile(
    bench: &mut Bench,
    page: &str,
    runs: usize,
) -> Result<WorkerProfile, BenchError> {
    let (dt, session) = bench.attach_worker().await?;
    let s = Some(session.as_str());
    dt.send("Profiler.enable", json!({}), s).await?;
    dt.send("Profiler.setSamplingInterval", json!({"interval": 200}), s)
        .await?;
    dt.send("Profiler.start", json!({}), s).await?;
    let mut wall_ms = 0.0;
    let mut outcome = Ok(());
    for _ in 0..runs {
        match bench.extract().await {
            Ok((ms, _)) => wall_ms += ms,
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    let stopped = dt
        .send_timeout("Profiler.stop", json!({}), s, Duration::from_secs(60))
        .await;
    let _ = dt.send("Profiler.disable", json!({}), s).await;
    dt.detach(&session).await;
    outcome?;
    let profile = stopped?.get("profile").cloned().unwrap_or(Value::Null);
    let (categories, top) = summarize_profile(&profile);
    Ok(WorkerProfile {
        page: page.to_string(),
        extracts: runs,
        wall_ms,
        categories,
        top,
    })
}

/// The category of a profile node's call frame.
fn category(function: &str, url: &str) -> &'static str {
    match function {
        "(idle)" => "idle (waiting for Chrome: CDP, the bridge)",
        "(garbage collector)" => "garbage collector",
        "(program)" => "native (Chrome, outside JS)",
        _ if url.starts_with("wasm://") || url.ends_with(".wasm") => "WASM (Rust)",
        "stringify" | "parse" if url.is_empty() => "JSON builtins (JSON.stringify / parse)",
        _ if url.ends_with("bua_extension.js") => "wasm-bindgen glue (JS)",
        _ if url.ends_with("background.js") => "bootstrap (background.js)",
        _ => "other JS / native builtins",
    }
}

/// Drops a Rust symbol's `::h0123456789abcdef` hash suffix.
fn short_name(function: &str) -> String {
    match function.rfind("::h") {
        Some(i)
            if function.len() - i == 19
                && function[i + 3..].chars().all(|c| c.is_ascii_hexdigit()) =>
        {
            function[..i].to_string()
        }
        _ => function.to_string(),
    }
}

/// Labelled times, ms, largest first.
pub type Breakdown = Vec<(String, f64)>;

/// Self time by category and by function (top 12), ms, from a `Profiler.Profile`.
pub fn summarize_profile(profile: &Value) -> (Breakdown, Breakdown) {
    let mut frames: HashMap<u64, (String, String)> = HashMap::new();
    for node in profile
        .get("nodes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(id) = node.get("id").and_then(Value::as_u64) else {
            continue;
        };
        let frame = node.get("callFrame");
        let text = |k: &str| {
            frame
                .and_then(|f| f.get(k))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        frames.insert(id, (text("functionName"), text("url")));
    }
    let samples: Vec<u64> = profile
        .get("samples")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let deltas: Vec<f64> = profile
        .get("timeDeltas")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    let mut by_category: HashMap<&'static str, f64> = HashMap::new();
    let mut by_function: HashMap<String, f64> = HashMap::new();
    // timeDeltas[i + 1] is the time from sample i to the next one: sample i's duration.
    for (i, node) in samples.iter().enumerate() {
        let us = deltas.get(i + 1).copied().unwrap_or(0.0).max(0.0);
        let (function, url) = frames.get(node).cloned().unwrap_or_default();
        let cat = category(&function, &url);
        *by_category.entry(cat).or_default() += us / 1000.0;
        if !function.starts_with('(') {
            let name = if function.is_empty() {
                "(anonymous)".to_string()
            } else {
                short_name(&function)
            };
            let label = if cat == "WASM (Rust)" {
                format!("{name} [wasm]")
            } else {
                name
            };
            *by_function.entry(label).or_default() += us / 1000.0;
        }
    }
    let mut categories: Vec<(String, f64)> = by_category
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    categories.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut top: Vec<(String, f64)> = by_function.into_iter().collect();
    top.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    top.truncate(12);
    (categories, top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_self_time_is_summed_by_category_and_function() {
        let profile = json!({
            "nodes": [
                {"id": 1, "callFrame": {"functionName": "(root)", "url": ""}},
                {"id": 2, "callFrame": {"functionName": "bua_extension::extract::page::analyze_parsed::h0123456789abcdef", "url": "wasm://wasm/abc"}},
                {"id": 3, "callFrame": {"functionName": "stringify", "url": ""}},
                {"id": 4, "callFrame": {"functionName": "(idle)", "url": ""}}
            ],
            "samples": [2, 2, 3, 4],
            "timeDeltas": [0, 1500, 1000, 2000, 3000]
        });
        let (cats, top) = summarize_profile(&profile);
        assert_eq!(
            cats[0],
            (
                "idle (waiting for Chrome: CDP, the bridge)".to_string(),
                3.0
            )
        );
        assert!(cats.contains(&("WASM (Rust)".to_string(), 2.5)));
        assert!(cats.contains(&("JSON builtins (JSON.stringify / parse)".to_string(), 2.0)));
        assert_eq!(
            top[0],
            (
                "bua_extension::extract::page::analyze_parsed [wasm]".to_string(),
                2.5
            )
        );
    }
}
