//! `screenshot` (SPEC §4; `src/actions/screenshot.rs`), of a tab in the minimized agent window.

use std::time::{Duration, Instant};

use bua_protocol::ErrorCode;
use serde_json::json;

use super::{image_bytes, url, Agent};
use crate::support::{self, get_tabs, note, Browser};

#[tokio::test]
async fn screenshot_captures_a_tab_in_the_minimized_agent_window() {
    let (a, tab) = Agent::with_page("long.html").await;
    let state = get_tabs(&a.client)
        .await
        .expect("get_tabs")
        .into_iter()
        .find(|t| t["tabId"] == tab)
        .map(|t| t["windowState"].clone());
    note(&format!("screenshot tab window state: {state:?}"));
    // The viewport may change size while the screenshot runs (the window is restored from minimized
    // for the capture; the browser's "is being debugged" bar comes and goes as other tests attach and
    // detach): the page records every size it has from just before the capture to just after it, and
    // the image must be the viewport at one of those moments.
    a.eval(
        tab,
        "window.__sizes = [[innerWidth, innerHeight]]; \
         addEventListener('resize', () => __sizes.push([innerWidth, innerHeight])); return 0",
    )
    .await;
    let r = a.act(tab, "screenshot", json!({})).await;
    let sizes = a.eval(tab, "return __sizes").await;
    assert_eq!(r["mime"], "image/png");
    let png = image_bytes(&r);
    assert!(png.starts_with(b"\x89PNG"));
    let shot = json!([r["width"], r["height"]]);
    assert!(
        sizes.as_array().is_some_and(|s| s.contains(&shot)),
        "the {shot} screenshot is not the viewport at any moment of the capture: {sizes}"
    );

    let r = a
        .act(
            tab,
            "screenshot",
            json!({ "fullPage": true, "format": "jpeg", "quality": 50 }),
        )
        .await;
    assert_eq!(r["mime"], "image/jpeg");
    assert!(image_bytes(&r).starts_with(&[0xFF, 0xD8]));
    assert_eq!(
        r["height"].as_u64(),
        Some(2004),
        "four 500px blocks + borders"
    );
    let r = a.act(tab, "screenshot", json!({ "maxWidth": 200 })).await;
    assert_eq!(r["width"].as_u64(), Some(200));

    let (code, _) = a.act_err(987_654_321, "screenshot", json!({})).await;
    assert_eq!(code, ErrorCode::TabNotFound);
    a.close(tab).await;
}

#[tokio::test]
async fn screenshot_of_a_background_tab_right_after_open_tab_is_quick_and_focuses_nothing() {
    let a = Agent::new().await;
    // The agent's first tab opens its (minimized) agent window; every later open_tab is a background tab.
    let first = a.open("index.html").await;
    let browser = &Browser::shared("actions");
    let dt = browser.devtools().await;
    let window_of = |tab: i64| {
        format!(
            "chrome.tabs.get({tab}).then(t => chrome.windows.get(t.windowId)).then(w => \
             ({{ focused: w.focused, state: w.state }}))"
        )
    };
    for i in 0..10 {
        let page = format!("{}?n={i}", url("long.html"));
        let opened = a.ok("open_tab", json!({ "url": page })).await;
        let tab = opened["tabId"].as_i64().expect("tabId");
        let listed = support::tab_info(&a.client, tab).await.expect("listed");
        assert_eq!(
            listed["active"], false,
            "open_tab opened a background tab: {listed}"
        );
        let started = Instant::now();
        let r = a.act(tab, "screenshot", json!({})).await;
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(2),
            "screenshot {i} of a background tab took {} ms",
            took.as_millis()
        );
        assert!(image_bytes(&r).starts_with(b"\x89PNG"));
        // It is that page: its full height is long.html's (four 500 px blocks + borders), not index.html's.
        let started = Instant::now();
        let full = a.act(tab, "screenshot", json!({ "fullPage": true })).await;
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(
            full["height"].as_u64(),
            Some(2004),
            "{i}: {}",
            full["height"]
        );
        if i == 0 {
            note(&format!(
                "screenshot of a background tab right after open_tab: {} ms",
                took.as_millis()
            ));
        }
        let window = browser.eval_in_worker(&dt, &window_of(tab)).await;
        assert_eq!(
            window,
            json!({ "focused": false, "state": "minimized" }),
            "{i}: the agent window stays unfocused and minimized"
        );
        a.close(tab).await;
    }
    a.close(first).await;
}
