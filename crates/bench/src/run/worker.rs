//! The service worker's own costs: its cold start to the bridge's `ack`, and its JS heap across many
//! actions (the leak check).

use std::time::{Duration, Instant};

use bua_bridge::devtools::{self, DevTools};
use serde_json::{json, Value};

use super::bench::{progress, uid_of, Bench};
use super::options::Options;
use super::results::{Heap, Results};
use crate::BenchError;

/// Stops the extension's service worker (closes its DevTools target), waits until the bridge saw it
/// go, wakes it with a new tab, and times three spans ending at the bridge's `ack`: from the wake,
/// from Chrome's `Target.targetCreated` for the worker, and from the worker's own
/// `performance.timeOrigin` (its global scope's creation, read once it is up).
pub(super) async fn cold_start(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<(), BenchError> {
    progress(&format!("service-worker cold starts: {}", opts.cold_starts));
    let dt = DevTools::connect(&bench.launched.devtools_url).await?;
    let sw_url = devtools::service_worker_url(&bench.launched.extension_id);
    dt.send("Target.setDiscoverTargets", json!({"discover": true}), None)
        .await?;
    let wake_url = bench.server.url("/wake.html");
    let mut attempts = 0;
    while results.cold_wake_ms.len() < opts.cold_starts {
        attempts += 1;
        if attempts > opts.cold_starts + 3 {
            return Err(BenchError::Timeout(format!(
                "only {} of {} cold starts could be measured (the worker kept restarting by itself)",
                results.cold_wake_ms.len(),
                opts.cold_starts
            )));
        }
        let worker = dt
            .wait_for_target("service_worker", |u| u == sw_url, Duration::from_secs(10))
            .await?;
        let mut ext = bench.launched.server().extension();
        dt.close_target(&worker.id).await?;
        // The bridge sees the extension go, and that worker's target is gone.
        tokio::time::timeout(Duration::from_secs(10), async {
            while ext.borrow_and_update().is_some() {
                if ext.changed().await.is_err() {
                    break;
                }
            }
        })
        .await
        .map_err(|_| BenchError::Timeout("the bridge never saw the worker stop".into()))?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while dt.targets().await?.iter().any(|t| t.id == worker.id) {
            if Instant::now() >= deadline {
                return Err(BenchError::Timeout("the worker did not stop".into()));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        if ext.borrow_and_update().is_some()
            || dt
                .targets()
                .await?
                .iter()
                .any(|t| t.kind == "service_worker" && t.url == sw_url)
        {
            // Something else woke it already (an alarm, a tab event): not a measurement of ours.
            tracing::info!("the worker restarted by itself; measuring again");
            continue;
        }
        let mut events = dt.events();
        let woke = Instant::now();
        let page = dt.open_page(&wake_url).await?;
        let mut worker_seen: Option<Instant> = None;
        let acked = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                tokio::select! {
                    changed = ext.changed() => {
                        if changed.is_err() { return false; }
                        if ext.borrow_and_update().is_some() { return true; }
                    }
                    event = events.recv() => {
                        if let Ok(e) = event {
                            if worker_seen.is_none()
                                && e.created_target_url() == Some(sw_url.as_str())
                            {
                                worker_seen = Some(Instant::now());
                            }
                        }
                    }
                }
            }
        })
        .await;
        let acked_at = Instant::now();
        let acked_epoch_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0);
        let _ = dt.close_target(&page).await;
        if acked != Ok(true) {
            return Err(BenchError::Timeout(
                "the woken worker did not connect within 10 s".into(),
            ));
        }
        results
            .cold_wake_ms
            .push((acked_at - woke).as_secs_f64() * 1000.0);
        if let Some(seen) = worker_seen {
            results
                .cold_worker_ms
                .push((acked_at - seen).as_secs_f64() * 1000.0);
        }
        let worker = dt
            .wait_for_target("service_worker", |u| u == sw_url, Duration::from_secs(5))
            .await?;
        if let Some(origin) = dt
            .evaluate_in_target(&worker.id, "performance.timeOrigin")
            .await?
            .as_f64()
        {
            results.cold_origin_ms.push(acked_epoch_ms - origin);
        }
    }
    Ok(())
}

/// The worker's heap after GC, read through a DevTools session on the worker.
async fn heap(dt: &DevTools, session: &str, after_actions: usize) -> Result<Heap, BenchError> {
    for _ in 0..2 {
        dt.send("HeapProfiler.collectGarbage", json!({}), Some(session))
            .await?;
    }
    let usage = dt
        .send("Runtime.getHeapUsage", json!({}), Some(session))
        .await?;
    let num = |k: &str| usage.get(k).and_then(Value::as_f64);
    Ok(Heap {
        after_actions,
        used: num("usedSize").unwrap_or(0.0),
        total: num("totalSize").unwrap_or(0.0),
        backing: num("backingStorageSize"),
    })
}

/// `leak_actions` actions (extract, click, type, evaluate, get_tabs in turn) on a freshly started
/// worker; its heap is read after 10 % of them and after all of them.
pub(super) async fn leak_check(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<(), BenchError> {
    progress(&format!("leak check: {} actions", opts.leak_actions));
    results.leak_mix =
        "extract, click (uid), type (uid), evaluate, get_tabs in turn, on the actions page".into();
    let (dt, session) = bench.attach_worker().await?;
    bench.load("/actions.html").await?;
    let mut done = 0usize;
    let checkpoint = opts.leak_actions / 10;
    let (mut click_uid, mut input_uid) = (String::new(), String::new());
    while done < opts.leak_actions {
        let tab = bench.tab_id;
        match done % 5 {
            0 => {
                let (_, extract) = bench.extract().await?;
                click_uid = uid_of(&extract, "Bench click").unwrap_or_default();
                input_uid = uid_of(&extract, "Bench input").unwrap_or_default();
            }
            1 => {
                bench
                    .client
                    .call("click", json!({"uid": click_uid, "tabId": tab}))
                    .await?;
            }
            2 => {
                bench
                    .client
                    .call(
                        "type",
                        json!({"uid": input_uid, "text": format!("text {done}"), "tabId": tab}),
                    )
                    .await?;
            }
            3 => {
                bench
                    .client
                    .call("evaluate", json!({"expression": "return 1", "tabId": tab}))
                    .await?;
            }
            _ => {
                bench.client.call("get_tabs", json!({})).await?;
            }
        }
        done += 1;
        if done == checkpoint || done == opts.leak_actions {
            results.heap.push(heap(&dt, &session, done).await?);
        }
    }
    dt.detach(&session).await;
    Ok(())
}
