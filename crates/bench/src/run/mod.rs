//! The measurement phases of `bua-bench`, in one run with one extension browser (plus the Playwright
//! peer's browser):
//!
//! 1. generated pages — extract through the bridge, the CDP floor and `ariaSnapshot()`, interleaved run
//!    by run (the order rotates) so that a noisy moment hits all three alike;
//! 2. the readability corpus — the same three, fewer runs per page, medians across pages;
//! 3. action round trips from a bridge client against the bare CDP commands, interleaved;
//! 4. service-worker cold start to `ack` (stop the worker, wake it with a tab), then the worker's JS
//!    heap after 100 and after 1,000 actions.
//!
//! Rooms: `options` (what to run), `results` (what was measured), `bench` (the live browser, tab
//! and peer, and the three reads of a page), `extract_phases` (phases 1–2 and the frames page),
//! `profile` (an extract's CDP commands), `actions` (phase 3), `worker` (phase 4),
//! `worker_profile` (the worker's CPU profile); this file starts them in order.

mod actions;
mod bench;
mod extract_phases;
mod options;
mod profile;
mod results;
mod worker;
mod worker_profile;

use std::time::{Duration, Instant};

use bua_bridge::launch::{self, LaunchOptions};
use bua_bridge::site::{Route, StaticSite};
use bua_bridge::BridgeClient;
use serde_json::{json, Value};

pub use options::{Options, Phases};
pub use results::{ActionRun, CommandTiming, Heap, PageRun, Profile, Results, WorkerProfile};
pub use worker_profile::{summarize_profile, Breakdown};

use crate::pages;
use crate::peer::Peer;
use crate::rawcdp::RawCdp;
use crate::BenchError;
use bench::{progress, Bench};

/// Chromium flag that fails every host but 127.0.0.1 at once (both browsers get it).
pub const NO_NETWORK: &str =
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost";

/// Waits until `get_tabs` has answered three times in a row (at most 15 s): the extension is connected
/// for good.
pub async fn settle(client: &BridgeClient) -> Result<(), BenchError> {
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut in_a_row = 0;
    while in_a_row < 3 {
        match client.call("get_tabs", json!({})).await {
            Ok(_) => in_a_row += 1,
            Err(e) if Instant::now() < deadline => {
                tracing::debug!(error = %e, "extension not steady yet");
                in_a_row = 0;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => return Err(e.into()),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Runs every phase. A phase that fails is recorded in `failures`; the run goes on where it can.
pub async fn run(opts: &Options) -> Result<Results, BenchError> {
    let wall = Instant::now();
    let mut results = Results {
        corpus_full_warmup: opts.corpus_full_warmup,
        ..Results::default()
    };

    // Page server: generated pages, the actions page, the corpus.
    let server = StaticSite::start_empty()
        .await
        .map_err(|e| BenchError::io("starting the page server on 127.0.0.1", e))?;
    for spec in &opts.sizes {
        server.route(
            &format!("/gen/{}.html", spec.name),
            Route::Html(pages::generate(spec)),
        );
    }
    server.route("/actions.html", Route::Html(pages::actions_page()));
    server.route("/frames/child.html", Route::Html(pages::frame_child()));
    server.route(
        "/wake.html",
        Route::Html("<!doctype html><title>wake</title><p>wake".to_string()),
    );
    if let Some(dir) = &opts.corpus {
        server.mount("/corpus/", dir);
    }

    progress("launching Chromium with the extension");
    let mut launch_opts = LaunchOptions::new(&opts.extension);
    launch_opts.chrome = Some(opts.chrome.clone());
    // Loopback only: corpus pages name external hosts, whose lookups would otherwise hang the load.
    launch_opts.extra_args = vec![NO_NETWORK.to_string()];
    let launched = launch::start(launch_opts).await?;
    results.launch_ms = launched.startup.as_secs_f64() * 1000.0;
    let client = BridgeClient::connect(launched.server().port(), launched.server().token()).await?;
    let mut raw = RawCdp::connect(&launched.devtools_url).await?;
    results.chromium = raw
        .result("Browser.getVersion", json!({}), None)
        .await?
        .get("product")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_string();

    // Right after pairing the extension may reconnect once more (the storage change and its own
    // reconnect race); wait until it answers steadily.
    settle(&client).await?;
    // The extension's tab, opened through the bridge (in the agent window, as an agent would).
    let first = server.url("/actions.html?n=0");
    let opened = client
        .call_timeout("open_tab", json!({"url": first}), Duration::from_secs(30))
        .await?;
    let tab_id = opened
        .get("tabId")
        .and_then(Value::as_i64)
        .ok_or_else(|| BenchError::Unexpected(format!("open_tab answered {opened}")))?;
    let targets = raw.result("Target.getTargets", json!({}), None).await?;
    let target_id = targets
        .get("targetInfos")
        .and_then(Value::as_array)
        .and_then(|list| {
            list.iter().find(|t| {
                t.get("type").and_then(Value::as_str) == Some("page")
                    && t.get("url").and_then(Value::as_str) == Some(first.as_str())
            })
        })
        .and_then(|t| t.get("targetId").and_then(Value::as_str))
        .map(str::to_string)
        .ok_or_else(|| BenchError::Unexpected(format!("no page target at {first}")))?;
    let session = raw.attach(&target_id).await?;
    let size = raw
        .eval(&session, "[innerWidth, innerHeight]")
        .await?
        .as_array()
        .map(|a| {
            (
                a.first().and_then(Value::as_u64).unwrap_or(0) as u32,
                a.get(1).and_then(Value::as_u64).unwrap_or(0) as u32,
            )
        })
        .unwrap_or((0, 0));
    results.viewport = size;

    let peer = match &opts.peer {
        Some((node, script)) => {
            progress("starting the Playwright peer");
            let peer = Peer::start(node, script, &opts.chrome, size).await?;
            results.playwright = Some((peer.browser.clone(), peer.playwright.clone()));
            Some(peer)
        }
        None => None,
    };

    let mut bench = Bench {
        launched,
        client,
        raw,
        peer,
        server,
        tab_id,
        session,
        nav: 0,
        last_load_ms: 0.0,
    };

    let phases = opts.phases;
    let mut phase = Instant::now();
    let mut lap = |results: &mut Results, name: &str| {
        results
            .phase_s
            .push((name.to_string(), phase.elapsed().as_secs_f64()));
        phase = Instant::now();
    };
    lap(&mut results, "launch");
    if phases.generated {
        if let Err(e) = extract_phases::generated_pages(&mut bench, opts, &mut results).await {
            results.failures.push(format!("generated pages: {e}"));
        }
        lap(&mut results, "generated pages");
    }
    if let (true, Some(dir)) = (phases.corpus, &opts.corpus) {
        if let Err(e) = extract_phases::corpus(&mut bench, opts, dir, &mut results).await {
            results.failures.push(format!("corpus: {e}"));
        }
        lap(&mut results, "corpus");
    }
    // Playwright's part is done: its browser goes before the worker measurements.
    if let Some(peer) = bench.peer.take() {
        peer.quit().await;
    }
    let mut actions_ok = true;
    if phases.actions {
        if let Err(e) = actions::actions(&mut bench, opts, &mut results).await {
            results.failures.push(format!("actions: {e}"));
            actions_ok = false;
        }
        lap(&mut results, "actions");
    }
    if phases.frames {
        if let Err(e) = extract_phases::frames(&mut bench, opts, &mut results).await {
            results.failures.push(format!("frames: {e}"));
        }
        lap(&mut results, "frames");
    }
    if phases.cold_start {
        if let Err(e) = worker::cold_start(&mut bench, opts, &mut results).await {
            results.failures.push(format!("cold start: {e}"));
        }
        lap(&mut results, "cold starts");
    }
    if phases.leak && actions_ok {
        if let Err(e) = worker::leak_check(&mut bench, opts, &mut results).await {
            results.failures.push(format!("leak check: {e}"));
        }
        lap(&mut results, "leak check");
    }

    let Bench {
        launched, server, ..
    } = bench;
    drop(server);
    launched.shutdown().await;
    results.wall_s = wall.elapsed().as_secs_f64();
    Ok(results)
}
