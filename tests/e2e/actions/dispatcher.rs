//! The pipeline every action runs through (SPEC §6; `src/actions/dispatcher.rs`): attaching the debugger,
//! volume and concurrency.

use std::time::{Duration, Instant};

use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use super::{url, Agent};
use crate::support::{self, eventually, get_tabs, note, Browser};

#[tokio::test]
async fn attach_fails_on_chrome_pages_but_an_open_devtools_client_is_fine() {
    let a = Agent::new().await;
    let browser = &Browser::shared("actions");
    let dt = browser.devtools().await;
    // A tab whose page another DevTools client (this harness) is attached to still works.
    let tab = a.open("index.html?devtools").await;
    let target = dt
        .find_target("page", |u| u == url("index.html?devtools"))
        .await
        .expect("targets")
        .expect("the tab's target");
    let session = dt.attach(&target.id).await.expect("attach DevTools");
    a.act(tab, "navigate", json!({ "url": url("two.html") }))
        .await;
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    dt.detach(&session).await;
    a.close(tab).await;

    // chrome:// pages cannot be automated: debugger_attach_failed with Chrome's reason.
    // In a window of its own: in the browser's last-focused window it could land in another test's agent window.
    let page = support::open_page_in_own_window(&dt, "chrome://version/").await;
    let chrome_tab = eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        tabs.into_iter()
            .find(|t| {
                t["url"]
                    .as_str()
                    .is_some_and(|u| u.starts_with("chrome://version"))
            })
            .and_then(|t| t["tabId"].as_i64())
    })
    .await
    .expect("the chrome://version tab");
    let (code, message) = a
        .act_err(chrome_tab, "evaluate", json!({ "expression": "return 1" }))
        .await;
    assert_eq!(code, ErrorCode::DebuggerAttachFailed, "{message}");
    assert!(message.contains("chrome://"), "{message}");
    let _ = dt.close_target(&page).await;
}

/// One mixed action of the soak tests: `(method, params)` for step `i` on `tab`.
fn mixed_action(i: usize, tab: i64) -> (&'static str, Value) {
    match i % 10 {
        0 => ("click", json!({ "tabId": tab, "selector": "#name" })),
        1 => (
            "type",
            json!({ "tabId": tab, "selector": "#name", "text": format!("v{i}") }),
        ),
        2 => (
            "evaluate",
            json!({ "tabId": tab, "expression": "return document.getElementById('name').value" }),
        ),
        3 => (
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "index": [i % 2] }),
        ),
        4 => (
            "check",
            json!({ "tabId": tab, "selector": "#agree", "checked": i.is_multiple_of(4) }),
        ),
        5 => (
            "scroll",
            json!({ "tabId": tab, "selector": "#list", "dy": if i % 20 == 5 { 50 } else { -50 } }),
        ),
        6 => ("hover", json!({ "tabId": tab, "text": "Name" })),
        7 => (
            "press_key",
            json!({ "tabId": tab, "key": "ArrowLeft", "selector": "#name" }),
        ),
        8 => (
            "wait_for",
            json!({ "tabId": tab, "selector": "#list", "timeoutMs": 1000 }),
        ),
        _ => ("scrape", json!({ "tabId": tab, "item": "#color option" })),
    }
}

#[tokio::test]
async fn five_hundred_sequential_mixed_actions_on_one_tab_all_succeed() {
    let (a, tab) = Agent::with_page("controls.html").await;
    let started = Instant::now();
    let mut per_method: std::collections::BTreeMap<&str, (u32, Duration, Duration)> =
        Default::default();
    for i in 0..500 {
        let (method, params) = mixed_action(i, tab);
        let t = Instant::now();
        let r = a.ok(method, params).await;
        if method == "type" {
            assert_eq!(r["value"], format!("v{i}"));
        }
        let took = t.elapsed();
        let entry = per_method.entry(method).or_default();
        entry.0 += 1;
        entry.1 += took;
        entry.2 = entry.2.max(took);
    }
    let total = started.elapsed();
    let breakdown: Vec<String> = per_method
        .iter()
        .map(|(m, (n, sum, max))| {
            format!(
                "{m} {:.0}/{:.0}",
                sum.as_secs_f64() * 1000.0 / f64::from(*n),
                max.as_secs_f64() * 1000.0
            )
        })
        .collect();
    note(&format!(
        "500 sequential mixed actions: {:.1} s total, {:.1} ms mean; per action mean/max ms: {}",
        total.as_secs_f64(),
        total.as_secs_f64() * 1000.0 / 500.0,
        breakdown.join(", ")
    ));
    a.close(tab).await;
}

#[tokio::test]
async fn four_clients_on_four_agent_tabs_work_concurrently() {
    let started = Instant::now();
    let mut workers = Vec::new();
    for w in 0..4 {
        workers.push(tokio::spawn(async move {
            let (a, tab) = Agent::with_page("controls.html").await;
            for i in 0..40 {
                let (method, params) = mixed_action(i + w, tab);
                let r = a.ok(method, params).await;
                if method == "type" {
                    assert_eq!(r["value"], format!("v{}", i + w));
                }
            }
            let closed = a.ok("close_agent_tabs", json!({})).await;
            assert_eq!(
                closed["closed"],
                json!([tab]),
                "each client closes only its own tab"
            );
            tab
        }));
    }
    let mut tabs = Vec::new();
    for w in workers {
        tabs.push(w.await.expect("worker"));
    }
    tabs.sort();
    tabs.dedup();
    assert_eq!(tabs.len(), 4);
    note(&format!(
        "4 clients × 40 mixed actions on 4 agent tabs: {:.1} s",
        started.elapsed().as_secs_f64()
    ));
}
