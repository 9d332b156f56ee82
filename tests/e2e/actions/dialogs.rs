//! JavaScript dialogs (SPEC §7; `src/actions/dialogs.rs`): answered, reported, left to the user on their tab.

use std::time::{Duration, Instant};

use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use super::{url, Agent};
use crate::support::{self, eventually, get_tabs};

/// Clicks `selector` in `tab` with the dialog options `options` (`dialog`, `promptText`: SPEC §7); returns
/// the dialogs the click reported.
async fn click_answering(a: &Agent, tab: i64, selector: &str, mut options: Value) -> Value {
    options["selector"] = json!(selector);
    a.act(tab, "click", options).await["dialogs"].clone()
}

/// Waits until the alert of `dialogs.html`'s timer button is open: the page retitles itself "Alerting"
/// just before it, so once the tab says so, the alert is up.
async fn wait_for_timer_alert(a: &Agent, tab: i64) {
    eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        tabs.into_iter()
            .find(|t| t["tabId"] == tab && t["title"] == "Alerting")
    })
    .await
    .expect("the timer's alert opened");
}

/// Types into `guard.html`'s draft, which gives the page the user activation a beforeunload prompt needs.
async fn type_a_draft(a: &Agent, tab: i64) {
    a.act(
        tab,
        "type",
        json!({ "selector": "#draft", "text": "unsaved" }),
    )
    .await;
}

#[tokio::test]
async fn dialogs_are_answered_during_evaluate_and_reported() {
    let (a, tab) = Agent::with_page("dialogs.html").await;
    let r = a
        .act(
            tab,
            "evaluate",
            json!({ "expression": "return [alert('hi'), confirm('sure?'), prompt('name?', 'x')]" }),
        )
        .await;
    assert_eq!(
        r,
        json!({ "type": "object", "value": [null, false, null], "dialogs": [
            { "type": "alert", "message": "hi", "answer": "accepted" },
            { "type": "confirm", "message": "sure?", "answer": "dismissed" },
            { "type": "prompt", "message": "name?", "answer": "dismissed" },
        ] })
    );
    // An alert raised by a click is answered at once: the click returns, and the page ran on.
    let started = Instant::now();
    let r = a.click(tab, "#alert-btn").await;
    assert_eq!(r["clicked"]["id"], "alert-btn");
    assert_eq!(
        r["dialogs"],
        json!([{ "type": "alert", "message": "Saved!", "answer": "accepted" }])
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(a.text_of(tab, "after").await, "after alert");
    a.close(tab).await;
}

#[tokio::test]
async fn a_confirm_from_a_click_is_dismissed_by_default_and_accepted_when_asked() {
    let (a, tab) = Agent::with_page("dialogs.html").await;
    let r = a.click(tab, "#delete-btn").await;
    assert_eq!(
        r["dialogs"],
        json!([{ "type": "confirm", "message": "Delete?", "answer": "dismissed" }])
    );
    assert_eq!(a.text_of(tab, "confirmed").await, "false");
    let accepted = click_answering(&a, tab, "#delete-btn", json!({ "dialog": "accept" })).await;
    assert_eq!(accepted[0]["answer"], "accepted");
    assert_eq!(a.text_of(tab, "confirmed").await, "true");
    // An action that raises no dialog reports none.
    let r = a.click(tab, "#confirmed").await;
    assert!(r.get("dialogs").is_none(), "{r}");
    a.close(tab).await;
}

#[tokio::test]
async fn a_prompt_gets_the_prompt_text() {
    let (a, tab) = Agent::with_page("dialogs.html").await;
    let typed = json!({ "promptText": "Ada Lovelace" });
    assert_eq!(
        click_answering(&a, tab, "#name-btn", typed).await,
        json!([{ "type": "prompt", "message": "Your name?", "answer": "accepted", "promptText": "Ada Lovelace" }])
    );
    assert_eq!(a.text_of(tab, "named").await, "Ada Lovelace");
    // Accepted without a text: the prompt's default, as OK would give.
    let accepted = click_answering(&a, tab, "#name-btn", json!({ "dialog": "accept" })).await;
    assert_eq!(accepted[0]["promptText"], "anonymous");
    assert_eq!(a.text_of(tab, "named").await, "anonymous");
    a.close(tab).await;
}

#[tokio::test]
async fn an_alert_opened_between_actions_is_answered_and_reported_by_the_next_one() {
    let (a, tab) = Agent::with_page("dialogs.html").await;
    let r = a.click(tab, "#timer-btn").await;
    assert!(r.get("dialogs").is_none(), "{r}");
    wait_for_timer_alert(&a, tab).await;
    let started = Instant::now();
    let r = a.act(tab, "extract", json!({})).await;
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(
        r["dialogs"],
        json!([{ "type": "alert", "message": "Timer!", "answer": "accepted" }])
    );
    assert_eq!(r["title"], "Dialogs");
    assert!(r.get("dialog").is_none(), "{r}");
    a.close(tab).await;
}

#[tokio::test]
async fn beforeunload_guard_does_not_wedge_navigate_or_close_tab() {
    let (a, tab) = Agent::with_page("guard.html").await;
    type_a_draft(&a, tab).await;
    let started = Instant::now();
    let r = a
        .act(tab, "navigate", json!({ "url": url("two.html") }))
        .await;
    assert_eq!(r["title"], "Page Two");
    assert_eq!(r["dialogs"][0]["type"], "beforeunload");
    assert_eq!(r["dialogs"][0]["answer"], "accepted");
    assert!(started.elapsed() < Duration::from_secs(5));

    a.act(tab, "navigate", json!({ "url": url("guard.html") }))
        .await;
    type_a_draft(&a, tab).await;
    let started = Instant::now();
    let r = a.act(tab, "close_tab", json!({})).await;
    assert_eq!(r["closed"], true);
    assert_eq!(r["tabId"], tab);
    assert_eq!(r["dialogs"][0]["type"], "beforeunload");
    assert!(started.elapsed() < Duration::from_secs(5));
    let tabs = get_tabs(&a.client).await.expect("get_tabs");
    assert!(!tabs.iter().any(|t| t["tabId"] == tab), "{tabs:?}");
}

#[tokio::test]
async fn a_dialog_on_a_tab_the_user_is_using_is_left_to_the_user_and_extract_says_so() {
    let a = Agent::new().await;
    let dt = a.browser.devtools().await;
    let page = url("dialogs.html?user");
    let (target, tab) = support::open_user_tab(&dt, &a.client, &page).await;
    let listed = support::tab_info(&a.client, tab).await.expect("listed");
    assert_eq!(listed["agentOwned"], false);
    a.click(tab, "#timer-btn").await;
    wait_for_timer_alert(&a, tab).await;
    let r = a.act(tab, "extract", json!({})).await;
    assert_eq!(r["dialog"], json!({ "type": "alert", "message": "Timer!" }));
    assert_eq!(r["url"], page.as_str());
    assert!(
        r.get("dialogs").is_none() && r.get("markdown").is_none(),
        "{r}"
    );
    let (code, message) = a
        .act_err(tab, "click", json!({ "selector": "#delete-btn" }))
        .await;
    assert_eq!(code, ErrorCode::ElementObstructed);
    assert!(message.contains("alert(\"Timer!\")"), "{message}");
    // evaluate answers it (the default: accepted) and reports it; the page runs on.
    let r = a
        .act(
            tab,
            "evaluate",
            json!({ "expression": "return document.title" }),
        )
        .await;
    assert_eq!(r["value"], "Dialogs");
    assert_eq!(r["dialogs"][0]["message"], "Timer!");
    let _ = dt.close_target(&target).await;
}

/// SPEC §7: a page that raises `alert()` in a loop can always be left. Its next alert may open after our
/// navigation began, on the page being left, where CDP can no longer answer it and it holds the commit; the
/// navigation is then sent again, which closes it. Each round trip used to end, one time in three, in an
/// `internal_error` ("Not attached to an active page") on every later action, or in a 27 s timeout.
#[tokio::test]
async fn a_page_that_raises_alerts_in_a_loop_can_always_be_left_and_read() {
    let (a, tab) = Agent::with_page("two.html").await;
    let (looping, plain) = (url("alert_loop.html"), url("two.html"));
    for round in 0..6 {
        let started = Instant::now();
        let there = a.act(tab, "navigate", json!({ "url": looping })).await;
        assert_eq!(there["url"], looping.as_str(), "round {round}: {there}");
        let read = a.act(tab, "extract", json!({})).await;
        assert!(
            read["markdown"]
                .as_str()
                .is_some_and(|m| m.contains("for ever")),
            "round {round}: {read}"
        );
        let back = a.act(tab, "navigate", json!({ "url": plain })).await;
        assert_eq!(back["url"], plain.as_str(), "round {round}: {back}");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "round {round} took {:?}",
            started.elapsed()
        );
    }
    let read = a.act(tab, "extract", json!({})).await;
    assert_eq!(read["url"], plain.as_str());
    a.close(tab).await;
}
