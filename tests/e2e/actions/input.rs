//! Real input (SPEC §4; `src/actions/input.rs`, `pointer.rs`, `keys.rs`): `click`, `click_at`, `hover`, `type`,
//! `press_key`, then the kinds of page agents fail on in the field (controlled inputs, editors, focus thieves,
//! shadow roots, iframes, banners, inner scrollers, `target=_blank`).

use std::time::Duration;

use bua_protocol::ErrorCode;
use serde_json::json;

use super::{own_result, url, Agent};
use crate::support::{eventually, get_tabs};

#[tokio::test]
async fn click_uses_real_mouse_events_and_reports_the_element() {
    let (a, tab) = Agent::with_page("index.html").await;
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#counter" }))
        .await;
    assert_eq!(
        own_result(&r),
        json!({ "clicked": { "tag": "button", "role": "button", "id": "counter", "text": "Click me" }, "tabId": tab })
    );
    assert_eq!(r["changes"]["changed"][0]["name"], "Clicked 1", "{r}");
    a.ok("click", json!({ "tabId": tab, "text": "Clicked 1" }))
        .await;
    a.ok(
        "click",
        json!({ "tabId": tab, "xpath": "//button[@id='counter']" }),
    )
    .await;
    assert_eq!(a.text_of(tab, "counter").await, "Clicked 3");
    assert_eq!(a.text_of(tab, "trust").await, "true true true ");

    // A link navigates in the same tab and the click waits for the new page.
    let r = a
        .ok("click", json!({ "tabId": tab, "text": "Go to page two" }))
        .await;
    assert_eq!(r["tabId"], tab);
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    a.ok("go_back", json!({ "tabId": tab })).await;

    let (code, message) = a
        .err("click", json!({ "tabId": tab, "selector": "#missing" }))
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    assert!(message.contains("extract"), "{message}");
    let (code, message) = a
        .err(
            "click",
            json!({ "tabId": tab, "selector": "button", "index": 5 }),
        )
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    assert!(message.contains("index 5 is out of range"), "{message}");
    let (code, message) = a
        .err("click", json!({ "tabId": tab, "selector": "#hidden-p" }))
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    assert!(message.contains("no visible box"), "{message}");
    let (code, message) = a
        .err("click", json!({ "tabId": tab, "selector": "button[" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("not a valid selector"), "{message}");
    a.close(tab).await;
}

#[tokio::test]
async fn click_scrolls_the_page_to_an_element_below_the_fold_and_hit_tests_there() {
    let (a, tab) = Agent::with_page("long.html").await;
    assert_eq!(a.eval(tab, "return scrollY").await, 0);
    let r = a
        .ok("click", json!({ "tabId": tab, "text": "Deep button" }))
        .await;
    assert_eq!(r["clicked"]["id"], "deep");
    assert_eq!(a.text_of(tab, "deep").await, "Deep clicked 1");
    assert!(a.eval(tab, "return scrollY").await.as_f64() > Some(1000.0));
    // click_at on the scrolled page: viewport coordinates, the element found under them.
    let centre = a
        .eval(tab, "const r = document.getElementById('deep').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]")
        .await;
    let r = a
        .ok(
            "click_at",
            json!({ "tabId": tab, "x": centre[0], "y": centre[1] }),
        )
        .await;
    assert_eq!(r["clicked"]["id"], "deep");
    assert_eq!(a.text_of(tab, "deep").await, "Deep clicked 2");
    a.close(tab).await;
}

#[tokio::test]
async fn click_at_clicks_the_viewport_point() {
    let (a, tab) = Agent::with_page("controls.html").await;
    let r = a
        .ok("click_at", json!({ "tabId": tab, "x": 650, "y": 395 }))
        .await;
    assert_eq!(r["clicked"]["id"], "box");
    assert_eq!(
        (r["x"].as_f64(), r["y"].as_f64()),
        (Some(650.0), Some(395.0))
    );
    assert_eq!(a.text_of(tab, "box").await, "box clicked at 650,395");
    let (code, message) = a
        .err("click_at", json!({ "tabId": tab, "x": 50_000, "y": 10 }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("outside"), "{message}");
    a.close(tab).await;
}

#[tokio::test]
async fn hover_moves_the_mouse_over_the_element() {
    let (a, tab) = Agent::with_page("index.html").await;
    let r = a
        .ok(
            "hover",
            json!({ "tabId": tab, "selector": "#hover-target" }),
        )
        .await;
    assert_eq!(r["hovered"]["id"], "hover-target");
    assert_eq!(r["tabId"], tab);
    assert_eq!(a.text_of(tab, "hover-target").await, "Hovered!");
    let (code, _) = a
        .err(
            "hover",
            json!({ "tabId": tab, "text": "No such text anywhere" }),
        )
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    a.close(tab).await;
}

#[tokio::test]
async fn type_replaces_or_appends_reads_back_and_submits() {
    let (a, tab) = Agent::with_page("controls.html").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#name", "text": "Alice" }),
        )
        .await;
    assert_eq!(r["value"], "Alice");
    assert_eq!(r["element"]["id"], "name");
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#name", "text": " B.", "clear": false }),
        )
        .await;
    assert_eq!(r["value"], "Alice B.");
    // The keys were real: select-all + Backspace for the clear.
    assert!(a
        .text_of(tab, "keys")
        .await
        .contains("ctrl+a(t) Backspace(t)"));
    // Typing into a label types into its control.
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "locator": { "text": "Name" }, "text": "Zed" }),
        )
        .await;
    assert_eq!(r["value"], "Zed");
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#notes", "text": "line one\nline two" }),
        )
        .await;
    assert_eq!(r["value"], "line one\nline two");

    // A field that swallows ctrl+a is still cleared.
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#stubborn", "text": "new" }),
        )
        .await;
    assert_eq!(r["value"], "new");

    let (code, message) = a
        .err(
            "type",
            json!({ "tabId": tab, "selector": "#agree", "text": "x" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("not a text field"), "{message}");

    // submit presses Enter: the GET form goes to two.html?q=…
    a.ok(
        "type",
        json!({ "tabId": tab, "selector": "#name", "text": "find me", "submit": true }),
    )
    .await;
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    assert_eq!(a.text_of(tab, "query").await, "query=?q=find+me&size=s");
    a.close(tab).await;
}

#[tokio::test]
async fn press_key_sends_trusted_keys_with_modifiers_and_waits_for_load() {
    let (a, tab) = Agent::with_page("controls.html").await;
    let r = a
        .ok("press_key", json!({ "tabId": tab, "key": "k", "modifiers": ["ctrl", "shift"], "selector": "#notes" }))
        .await;
    assert_eq!(r["key"], "k");
    assert_eq!(r["modifiers"], json!(["ctrl", "shift"]));
    assert_eq!(r["element"]["id"], "notes");
    a.ok("press_key", json!({ "tabId": tab, "key": "Escape" }))
        .await;
    let keys = a.text_of(tab, "keys").await;
    assert!(
        keys.contains("ctrl+shift+K(t)") || keys.contains("ctrl+shift+k(t)"),
        "{keys}"
    );
    assert!(keys.contains("Escape(t)"), "{keys}");

    let (code, message) = a
        .err("press_key", json!({ "tabId": tab, "key": "Hyper" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("KeyboardEvent.key"), "{message}");

    let r = a
        .ok(
            "press_key",
            json!({ "tabId": tab, "key": "Enter", "selector": "#name", "waitLoad": true }),
        )
        .await;
    assert_eq!(r["element"]["id"], "name");
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    assert_eq!(a.text_of(tab, "query").await, "query=?q=prefilled&size=s");
    a.close(tab).await;
}

#[tokio::test]
async fn a_disabled_button_is_flagged_in_extract_and_its_click_refused() {
    let (a, tab) = Agent::with_page("disabled.html").await;
    let page = a
        .ok("extract", json!({ "tabId": tab, "include": ["elements"] }))
        .await;
    let elements = page["elements"].as_array().expect("elements");
    let send = elements
        .iter()
        .find(|e| e["name"] == "Send")
        .unwrap_or_else(|| panic!("{page}"));
    assert_eq!(send["disabled"], true, "{page}");
    let count = elements
        .iter()
        .find(|e| e["name"] == "Count")
        .unwrap_or_else(|| panic!("{page}"));
    assert!(count.get("disabled").is_none(), "{page}");
    let (code, message) = a
        .err("click", json!({ "tabId": tab, "uid": send["uid"] }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("disabled"), "{message}");
    a.ok("click", json!({ "tabId": tab, "uid": count["uid"] }))
        .await;
    assert_eq!(
        a.text_of(tab, "count").await,
        "1",
        "only the enabled button counted"
    );
}

#[tokio::test]
async fn controlled_input_keeps_typed_text_and_enables_save() {
    let (a, tab) = Agent::with_page("controlled.html").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#username", "text": "neo" }),
        )
        .await;
    assert_eq!(r["value"], "neo");
    // Several renders later the state still has it, so the value survives and Save is enabled.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(a.text_of(tab, "state").await, "state=\"neo\"");
    assert_eq!(
        a.eval(tab, "return document.getElementById('username').value")
            .await,
        "neo"
    );
    assert_eq!(
        a.eval(tab, "return document.getElementById('save').disabled")
            .await,
        false
    );
    a.ok("click", json!({ "tabId": tab, "text": "Save" })).await;
    a.wait_text(tab, "saved", "saved:neo").await;
    a.close(tab).await;
}

#[tokio::test]
async fn model_driven_contenteditable_editor_gets_the_text() {
    let (a, tab) = Agent::with_page("editor.html").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#editor", "text": "Hello world" }),
        )
        .await;
    assert_eq!(r["value"], "Hello world");
    assert_eq!(a.text_of(tab, "model").await, "model=\"Hello world\"");
    let r = a
        .ok("type", json!({ "tabId": tab, "uid": a.uid(tab, "textbox", "Message body").await, "text": "!", "clear": false }))
        .await;
    assert_eq!(r["value"], "Hello world!");
    assert_eq!(a.text_of(tab, "model").await, "model=\"Hello world!\"");
    a.close(tab).await;
}

#[tokio::test]
async fn typing_the_password_leaves_the_focus_stealing_email_intact() {
    let (a, tab) = Agent::with_page("login.html").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#password", "text": "s3cret!" }),
        )
        .await;
    // The read-back value of a password field is a fixed mask, as extract shows it (SPEC §5 "Secrets").
    assert_eq!(r["value"], "••••••••");
    let page = a.ok("extract", json!({ "tabId": tab })).await;
    let field = page["elements"]
        .as_array()
        .and_then(|all| all.iter().find(|e| e["name"] == "Password").cloned())
        .expect("the password field is listed");
    assert_eq!(
        field["value"], r["value"],
        "type and extract agree: {field}"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        a.eval(tab, "return [document.getElementById('email').value, document.getElementById('password').value === 's3cret!']").await,
        json!(["user@example.com", true])
    );
    // And the page got its focus back afterwards (the lock is lifted).
    assert_eq!(
        a.eval(tab, "return document.activeElement.id").await,
        "email"
    );
    // set_value reads back masked too; the e-mail field is not masked.
    let r = a
        .ok(
            "set_value",
            json!({ "tabId": tab, "selector": "#password", "value": "x7q!zz" }),
        )
        .await;
    assert_eq!(r["value"], "••••••••");
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#email", "text": "me@example.com" }),
        )
        .await;
    assert_eq!(r["value"], "me@example.com");
    a.close(tab).await;
}

#[tokio::test]
async fn buttons_in_open_and_closed_shadow_roots_are_clicked() {
    let (a, tab) = Agent::with_page("shadow.html").await;
    a.ok(
        "click",
        json!({ "tabId": tab, "text": "Open shadow button" }),
    )
    .await;
    let closed = a.uid(tab, "button", "Closed shadow button").await;
    let r = a.ok("click", json!({ "tabId": tab, "uid": closed })).await;
    assert_eq!(r["clicked"]["id"], "closed-btn");
    assert_eq!(a.text_of(tab, "result").await, "open(true) closed(true) ");
    a.close(tab).await;
}

#[tokio::test]
async fn same_origin_iframe_input_and_button_work_by_uid() {
    let (a, tab) = Agent::with_page("frame_outer.html").await;
    let city = a.uid(tab, "textbox", "City").await;
    let go = a.uid(tab, "button", "Go").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "uid": city, "text": "Paris" }),
        )
        .await;
    assert_eq!(r["value"], "Paris");
    a.ok("click", json!({ "tabId": tab, "uid": go })).await;
    assert_eq!(
        a.eval(tab, "return document.getElementById('inner').contentDocument.getElementById('out').textContent").await,
        "went to Paris"
    );
    a.close(tab).await;
}

#[tokio::test]
async fn cookie_banner_obstructs_the_click_until_accepted() {
    let (a, tab) = Agent::with_page("banner.html").await;
    let (code, message) = a
        .err("click", json!({ "tabId": tab, "selector": "#buy" }))
        .await;
    assert_eq!(code, ErrorCode::ElementObstructed);
    assert!(message.contains("cookie-banner"), "{message}");
    assert!(message.contains("fixed"), "{message}");
    assert_eq!(a.text_of(tab, "bought").await, "");
    a.ok("click", json!({ "tabId": tab, "text": "Accept all" }))
        .await;
    a.ok("click", json!({ "tabId": tab, "selector": "#buy" }))
        .await;
    assert_eq!(a.text_of(tab, "bought").await, "bought");
    a.close(tab).await;
}

#[tokio::test]
async fn row_below_the_fold_of_an_inner_scroller_is_clicked_by_uid() {
    let (a, tab) = Agent::with_page("scroller.html").await;
    let uid = a.uid(tab, "button", "Open order 77").await;
    assert_eq!(
        a.eval(tab, "return document.getElementById('rows').scrollTop")
            .await,
        0
    );
    a.ok("click", json!({ "tabId": tab, "uid": uid })).await;
    assert_eq!(a.text_of(tab, "picked").await, "opened 77");
    a.close(tab).await;
}

#[tokio::test]
async fn target_blank_link_opens_in_the_same_tab_unless_new_tab() {
    let (a, tab) = Agent::with_page("index.html").await;
    // A `_blank` link opens its tab in the window of the page that has it, here this client's own agent
    // window (one per owner, SPEC §6): the test counts that window's tabs, never the whole browser's, which
    // the tests running beside it open and close at any moment.
    let window_tabs = || async {
        let tabs = get_tabs(&a.client).await.expect("get_tabs");
        let window = tabs
            .iter()
            .find(|t| t["tabId"] == tab)
            .map(|t| t["windowId"].clone())
            .expect("the tab is listed");
        tabs.into_iter()
            .filter(|t| t["windowId"] == window)
            .filter_map(|t| t["tabId"].as_i64())
            .collect::<Vec<i64>>()
    };
    assert_eq!(
        window_tabs().await,
        vec![tab],
        "the agent window holds one tab"
    );
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#blank" }))
        .await;
    assert_eq!(r["tabId"], tab);
    assert_eq!(a.eval(tab, "return location.search").await, "?from=blank");
    assert_eq!(
        window_tabs().await,
        vec![tab],
        "no tab opened for the click"
    );
    a.ok("go_back", json!({ "tabId": tab })).await;
    // The page's own target survives the click.
    assert_eq!(
        a.eval(tab, "return document.getElementById('blank').target")
            .await,
        "_blank"
    );

    let r = a
        .ok(
            "click",
            json!({ "tabId": tab, "selector": "#blank", "newTab": true }),
        )
        .await;
    let new_tab = r["tabId"].as_i64().expect("tabId");
    assert_ne!(new_tab, tab);
    assert_eq!(a.eval(tab, "return document.title").await, "Actions Home");
    let opened = eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        tabs.into_iter()
            .find(|t| t["tabId"] == new_tab && t["url"] == url("two.html?from=blank"))
    })
    .await
    .expect("the new tab");
    assert_eq!(opened["agentOwned"], true);
    a.close(new_tab).await;
    a.close(tab).await;
}
