//! Form controls (SPEC §4; `src/actions/forms.rs`): `select_option`, `check`, `set_value`, `get_value`.

use bua_bridge::BridgeClient;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use super::{own_result, Agent};
use crate::support::{Browser, FixtureServer, V1Client};

#[tokio::test]
async fn select_option_fires_change_and_refuses_a_disabled_option() {
    let (a, tab) = Agent::with_page("controls.html").await;
    let r = a
        .ok(
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "value": "g" }),
        )
        .await;
    assert_eq!(
        own_result(&r),
        json!({ "selected": [{ "value": "g", "label": "Green" }], "tabId": tab })
    );
    // The select reads "Green" now, and the page printed its change event.
    assert_eq!(r["changes"]["changed"][0]["value"], "Green", "{r}");
    let r = a
        .ok(
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "label": "red" }),
        )
        .await;
    assert_eq!(r["selected"], json!([{ "value": "r", "label": "Red" }]));
    assert_eq!(a.text_of(tab, "log").await, "change:g change:r ");
    // Choosing what is already chosen changes nothing, and fires nothing (as for a person).
    let r = a
        .ok(
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "value": "r" }),
        )
        .await;
    assert_eq!(r["selected"], json!([{ "value": "r", "label": "Red" }]));
    assert_eq!(a.text_of(tab, "log").await, "change:g change:r ");
    let r = a
        .ok(
            "select_option",
            json!({ "tabId": tab, "selector": "#multi", "index": [0, 2] }),
        )
        .await;
    assert_eq!(
        r["selected"],
        json!([{ "value": "1", "label": "One" }, { "value": "3", "label": "Three" }])
    );
    // extract shows what is selected now, as each select's value (SPEC §5 `value`).
    let page = a
        .ok("extract", json!({ "tabId": tab, "include": ["elements"] }))
        .await;
    let values: Vec<&str> = page["elements"]
        .as_array()
        .expect("elements")
        .iter()
        .filter(|e| e["role"] == "combobox" || e["role"] == "listbox")
        .filter_map(|e| e["value"].as_str())
        .collect();
    assert!(values.contains(&"Red"), "{page}");
    assert!(values.contains(&"One, Three"), "{page}");

    let (code, message) = a
        .err(
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "value": "b" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("disabled"), "{message}");
    assert_eq!(
        a.eval(tab, "return document.getElementById('color').value")
            .await,
        "r"
    );
    let (code, message) = a
        .err(
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "value": "purple" }),
        )
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    assert!(message.contains("\"Green\" (\"g\")"), "{message}");
    let (code, _) = a
        .err(
            "select_option",
            json!({ "tabId": tab, "selector": "#name", "value": "x" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    a.close(tab).await;
}

#[tokio::test]
async fn check_toggles_checkboxes_and_radios_with_real_clicks() {
    let (a, tab) = Agent::with_page("controls.html").await;
    let r = a
        .ok("check", json!({ "tabId": tab, "text": "I agree" }))
        .await;
    assert_eq!(r["checked"], true);
    assert_eq!(r["element"]["id"], "agree");
    assert_eq!(
        a.eval(tab, "return document.getElementById('agree').checked")
            .await,
        true
    );
    let r = a
        .ok(
            "check",
            json!({ "tabId": tab, "selector": "#agree", "checked": false }),
        )
        .await;
    assert_eq!(r["checked"], false);
    let r = a
        .ok("check", json!({ "tabId": tab, "selector": "#large" }))
        .await;
    assert_eq!(
        (r["checked"].as_bool(), r["element"]["id"].as_str()),
        (Some(true), Some("large"))
    );
    assert_eq!(
        a.eval(tab, "return document.getElementById('small').checked")
            .await,
        false
    );

    let (code, message) = a
        .err("check", json!({ "tabId": tab, "selector": "#name" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("not a checkbox"), "{message}");
    let (code, _) = a
        .err(
            "check",
            json!({ "tabId": tab, "selector": "#large", "checked": false }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    a.close(tab).await;
}

#[tokio::test]
async fn set_value_reaches_controls_typing_cannot_and_fires_input_and_change() {
    let (a, tab) = Agent::with_page("controls.html").await;
    let r = a
        .ok(
            "set_value",
            json!({ "tabId": tab, "selector": "#when", "value": "2024-05-06" }),
        )
        .await;
    assert_eq!(r["value"], "2024-05-06");
    assert_eq!(r["element"]["type"], "date");
    assert_eq!(a.text_of(tab, "log").await, "date-input date-change ");
    let r = a
        .ok(
            "set_value",
            json!({ "tabId": tab, "selector": "#vol", "value": "7" }),
        )
        .await;
    assert_eq!(r["value"], "7");
    let (code, message) = a
        .err(
            "set_value",
            json!({ "tabId": tab, "selector": "#agree", "value": "on" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("use check"), "{message}");
    a.close(tab).await;
}

// ------------------------------------------------------------------------------------------------
// `get_value` (SPEC §4, §9), as a v1 client sends it, after each kind of change: the value it reads back is the
// one the page holds. The steps run in order on one tab (the v4 step reads what the first and fourth set).

/// A v1 `target` by CSS selector.
fn target(value: &str) -> Value {
    json!({ "by": "css", "value": value })
}

/// `get_value` as a v1 client sends it: `{target, tab_id}` → the result.
async fn read(v1: &mut V1Client, by: &str, value: &str, tab_id: i64) -> Value {
    v1.ok(
        "get_value",
        json!({ "target": { "by": by, "value": value }, "tab_id": tab_id }),
    )
    .await
}

/// The page's own view of `expression` (a v1 `run_script`).
async fn page_value(v1: &mut V1Client, expression: &str, tab_id: i64) -> Value {
    v1.ok(
        "run_script",
        json!({ "code": expression, "tab_id": tab_id }),
    )
    .await["result"]
        .clone()
}

#[tokio::test]
async fn get_value_reads_back_what_the_page_holds_after_each_kind_of_change() {
    let browser = &Browser::shared("actions");
    let page = FixtureServer::shared().url("/clients/values.html");
    let mut v1 = V1Client::connect(browser.port, &browser.token).await;
    let tab = v1.ok("new_tab", json!({ "url": page })).await;
    let tab_id = tab["tab_id"].as_i64().expect("tab_id");

    text_input_after_set_value(&mut v1, tab_id).await;
    textarea_after_type(&mut v1, tab_id).await;
    password_after_type(&mut v1, tab_id).await;
    selects_after_select_option(&mut v1, tab_id).await;
    checkbox_and_radios_after_check(&mut v1, tab_id).await;
    contenteditable_after_type_and_set_value(&mut v1, tab_id).await;
    an_element_without_a_value_is_refused(&mut v1, tab_id).await;
    v4_reads_by_uid_and_by_selector(browser, &v1, tab_id).await;

    v1.ok("close_tab", json!({ "tab_id": tab_id })).await;
}

/// A text input after set_value: by css, and by its <label for>'s text.
async fn text_input_after_set_value(v1: &mut V1Client, tab_id: i64) {
    v1.ok(
        "set_value",
        json!({ "target": target("#name"), "value": "Ada Lovelace", "tab_id": tab_id }),
    )
    .await;
    let held = page_value(v1, "document.querySelector('#name').value", tab_id).await;
    assert_eq!(held, "Ada Lovelace");
    for (by, value) in [("css", "#name"), ("text", "Full name")] {
        let r = read(v1, by, value, tab_id).await;
        assert_eq!(r["value"], held, "{by} {value}: {r}");
        assert_eq!(r["element"]["tag"], "input", "{r}");
        assert_eq!(r["element"]["type"], "text", "{r}");
        assert_eq!(r["tab_id"], tab_id, "{r}");
        assert!(
            r.get("checked").is_none() && r.get("label").is_none(),
            "{r}"
        );
    }
}

/// A textarea after type, by xpath.
async fn textarea_after_type(v1: &mut V1Client, tab_id: i64) {
    v1.ok(
        "type",
        json!({ "target": target("#bio"), "text": "Wrote the first program", "tab_id": tab_id }),
    )
    .await;
    let held = page_value(v1, "document.querySelector('#bio').value", tab_id).await;
    assert_eq!(held, "Wrote the first program");
    let r = read(v1, "xpath", "//textarea[@id='bio']", tab_id).await;
    assert_eq!(r["value"], held, "{r}");
    assert_eq!(r["element"]["tag"], "textarea", "{r}");
}

/// A password field after type: masked as type reads it back, while the page holds the text.
async fn password_after_type(v1: &mut V1Client, tab_id: i64) {
    let typed = v1
        .ok(
            "type",
            json!({ "target": target("#pw"), "text": "s3cret", "tab_id": tab_id }),
        )
        .await;
    // The page holds the text (compared in the page: the value itself never leaves the extension).
    assert_eq!(
        page_value(
            v1,
            "document.querySelector('#pw').value === 's3cret'",
            tab_id
        )
        .await,
        true
    );
    let r = read(v1, "text", "Password", tab_id).await;
    assert_eq!(r["value"], "••••••••", "a fixed mask, not the length: {r}");
    assert_eq!(r["value"], typed["value"], "as type reads back: {r}");
    assert_eq!(r["element"]["type"], "password", "{r}");
}

/// Selects after select_option: value + label, arrays for a multi-select.
async fn selects_after_select_option(v1: &mut V1Client, tab_id: i64) {
    v1.ok(
        "select_option",
        json!({ "target": target("#city"), "label": "上海", "tab_id": tab_id }),
    )
    .await;
    let r = read(v1, "xpath", "//select[@id='city']", tab_id).await;
    assert_eq!(
        page_value(v1, "document.querySelector('#city').value", tab_id).await,
        "sh"
    );
    assert_eq!(
        (&r["value"], &r["label"]),
        (&json!("sh"), &json!("上海")),
        "{r}"
    );
    assert_eq!(r["element"]["tag"], "select", "{r}");
    v1.ok(
        "select_option",
        json!({ "target": target("#langs"), "value": ["rs", "py"], "tab_id": tab_id }),
    )
    .await;
    let held = page_value(
        v1,
        "Array.from(document.querySelector('#langs').selectedOptions, o => o.value)",
        tab_id,
    )
    .await;
    assert_eq!(held, json!(["rs", "py"]));
    let r = read(v1, "css", "#langs", tab_id).await;
    assert_eq!(r["value"], held, "{r}");
    assert_eq!(r["label"], json!(["Rust", "Python"]), "{r}");
}

/// A checkbox after check and uncheck, by its label's text; radios by css.
async fn checkbox_and_radios_after_check(v1: &mut V1Client, tab_id: i64) {
    for wanted in [true, false] {
        v1.ok(
            "check",
            json!({ "target": { "by": "text", "value": "I agree" }, "checked": wanted, "tab_id": tab_id }),
        )
        .await;
        let held = page_value(v1, "document.querySelector('#agree').checked", tab_id).await;
        assert_eq!(held, wanted);
        let r = read(v1, "text", "I agree", tab_id).await;
        assert_eq!(r["checked"], held, "{r}");
        assert_eq!(r["value"], "on", "{r}");
        assert_eq!(r["element"]["type"], "checkbox", "{r}");
    }
    v1.ok(
        "check",
        json!({ "target": target("#large"), "tab_id": tab_id }),
    )
    .await;
    let r = read(v1, "css", "#large", tab_id).await;
    assert_eq!(
        (&r["checked"], &r["value"]),
        (&json!(true), &json!("large")),
        "{r}"
    );
    let r = read(v1, "xpath", "//input[@value='small']", tab_id).await;
    assert_eq!(
        (&r["checked"], &r["value"]),
        (&json!(false), &json!("small")),
        "{r}"
    );
}

/// A contenteditable after type (it replaces the draft), then after set_value.
async fn contenteditable_after_type_and_set_value(v1: &mut V1Client, tab_id: i64) {
    v1.ok(
        "type",
        json!({ "target": target("#editor"), "text": "typed notes", "tab_id": tab_id }),
    )
    .await;
    let held = page_value(v1, "document.querySelector('#editor').innerText", tab_id).await;
    assert_eq!(held, "typed notes");
    let r = read(v1, "text", "typed notes", tab_id).await;
    assert_eq!(r["value"], held, "{r}");
    assert_eq!(r["element"]["tag"], "div", "{r}");
    v1.ok(
        "set_value",
        json!({ "target": target("#editor"), "value": "set notes", "tab_id": tab_id }),
    )
    .await;
    assert_eq!(
        read(v1, "css", "#editor", tab_id).await["value"],
        "set notes"
    );
}

/// An element without a value: invalid_action saying what to do instead.
async fn an_element_without_a_value_is_refused(v1: &mut V1Client, tab_id: i64) {
    let r = v1
        .request(
            "get_value",
            json!({ "target": target("#plain"), "tab_id": tab_id }),
        )
        .await;
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(r["code"], "invalid_action", "{r}");
    let message = r["error"].as_str().unwrap_or_default();
    assert!(
        message.contains("a <div> has no value") && message.contains("extract"),
        "{message}"
    );
}

/// v4: by uid from extract, and by selector; v4 keys only. The same agent (owner) as the v1 client that
/// opened the tab: another agent's tab is refused (SPEC §6).
async fn v4_reads_by_uid_and_by_selector(browser: &Browser, v1: &V1Client, tab_id: i64) {
    let v4 = BridgeClient::connect_as(browser.port, &browser.token, Some(&v1.client_id))
        .await
        .expect("v4 client");
    let page_read = v4
        .call("extract", json!({ "tabId": tab_id }))
        .await
        .expect("extract");
    let uid = page_read["elements"]
        .as_array()
        .and_then(|e| {
            e.iter()
                .find(|e| e["role"] == "textbox" && e["name"] == "Full name")
        })
        .and_then(|e| e["uid"].as_str())
        .unwrap_or_else(|| panic!("no textbox \"Full name\" in {}", page_read["elements"]))
        .to_owned();
    let r = v4
        .call("get_value", json!({ "uid": uid, "tabId": tab_id }))
        .await
        .expect("get_value by uid");
    assert_eq!(
        r,
        json!({ "element": r["element"].clone(), "value": "Ada Lovelace", "tabId": tab_id })
    );
    assert_eq!(r["element"]["tag"], "input", "{r}");
    let r = v4
        .call(
            "get_value",
            json!({ "selector": "#langs", "tabId": tab_id }),
        )
        .await
        .expect("get_value by selector");
    assert_eq!(r["value"], json!(["rs", "py"]), "{r}");
    assert_eq!(r["label"], json!(["Rust", "Python"]), "{r}");
    assert!(r.get("tab_id").is_none(), "v4 keys only: {r}");
}
