//! Conformance of the bridge's client side with the v1 bridge's API document (SPEC §9 keeps the bridge
//! compatible with it; its examples are written out below as JSON literals), in real headless
//! Chromium with the built extension: every JSON example of the document's command sections is sent
//! as written, and each result field the document shows must be present with the type it shows
//! (string, number, boolean, array, object, or null where the document allows it), recursively.
//!
//! "As written" means the JSON literals below are the document's, except for what only made sense
//! on its author's machine: tab ids (7, 8, 9 → the tabs this test opened) and the URL
//! `https://example.com` (→ the fixture page `clients/v1.html`, whose title is "Example" and whose
//! elements are the ones the examples name), plus the pairing token SPEC §2 adds to the v1 hello.
//! The document's text ends inside `select_option`; `select_option`, `clear` and `get_value` take
//! the `target` its other sections use, with the results SPEC §4 gives (`get_value`'s modelled on
//! `set_value`'s).
//!
//! `get_value` read back after each kind of change is tested with the other form controls
//! (`actions::forms`).

use crate::support;

use std::time::Instant;

use bua_bridge::BridgeClient;
use serde_json::{json, Value};
use support::{note, Browser, FixtureServer, V1Client};

/// The agent owner the document's `close_auto_tabs` / `close_agent_window` examples name.
const DOC_OWNER: &str = "mcp-1234-abcd";

/// The JSON type name of `v`, as the document's examples show types.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Where `got` departs from the documented example `doc`: every key of a documented object must be
/// in `got` with the documented type (recursively); every element of a `got` array must match the
/// documented array's first element. Keys the document does not show are allowed.
fn departures(doc: &Value, got: &Value, path: &str, out: &mut Vec<String>) {
    if json_type(doc) != json_type(got) {
        out.push(format!(
            "{path}: documented as {} ({doc}), got {} ({got})",
            json_type(doc),
            json_type(got)
        ));
        return;
    }
    match (doc, got) {
        (Value::Object(d), Value::Object(g)) => {
            for (key, d) in d {
                match g.get(key) {
                    Some(g) => departures(d, g, &format!("{path}.{key}"), out),
                    None => out.push(format!("{path}.{key}: documented, missing from {got}")),
                }
            }
        }
        (Value::Array(d), Value::Array(g)) => {
            if let Some(first) = d.first() {
                for (i, g) in g.iter().enumerate() {
                    departures(first, g, &format!("{path}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

/// Asserts that `got` conforms to the documented result `doc` of `section`.
fn conforms(section: &str, doc: &Value, got: &Value) {
    let mut out = Vec::new();
    departures(doc, got, section, &mut out);
    assert!(
        out.is_empty(),
        "{section} departs from the v1 document:\n{}",
        out.join("\n")
    );
}

/// The document's example with its machine-specific values replaced: `tab_id` 7/8/9 → `tabs`'s
/// entries, `https://example.com` → `page`.
fn local(example: Value, tabs: &[(i64, i64)], page: &str) -> Value {
    match example {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| {
                    let v = match (k.as_str(), v.as_i64()) {
                        ("tab_id", Some(doc_id)) => tabs
                            .iter()
                            .find(|(d, _)| *d == doc_id)
                            .map(|(_, real)| json!(real))
                            .unwrap_or(v),
                        _ => local(v, tabs, page),
                    };
                    (k, v)
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(|v| local(v, tabs, page)).collect()),
        Value::String(s) if s == "https://example.com" => Value::String(page.to_owned()),
        other => other,
    }
}

#[tokio::test]
async fn every_example_of_the_v1_document_gets_the_documented_result_fields() {
    let browser = &Browser::shared("clients::v1_conformance");
    let fixtures = FixtureServer::shared();
    let page = fixtures.url("/clients/v1.html");
    let started = Instant::now();
    let mut sent = 0;
    let mut v1 = V1Client::connect(browser.port, &browser.token).await;

    // ## 连接握手 / ping: the frame as written, answered by the server itself.
    let pong = v1
        .send_frame(json!({ "id": "p1", "method": "ping", "params": {} }))
        .await;
    sent += 1;
    assert_eq!(pong["id"], "p1", "{pong}");
    assert_eq!(pong["success"], true, "{pong}");

    // ### new_tab: the tab every later example's `tab_id: 7` becomes.
    let result = v1
        .ok(
            "new_tab",
            local(json!({ "url": "https://example.com" }), &[], &page),
        )
        .await;
    sent += 1;
    conforms(
        "new_tab",
        &json!({ "tab_id": 8, "url": "https://example.com", "title": "Example", "active": true }),
        &result,
    );
    let tab_id = result["tab_id"].as_i64().expect("tab_id");
    assert_eq!(result["url"], page.as_str(), "{result}");
    assert_eq!(
        result["title"], "Example",
        "loaded before the answer: {result}"
    );
    let tabs = [(7, tab_id)];
    let here = |example: Value| local(example, &tabs, &page);

    // The document's examples, in its order: (section, params, documented result).
    let examples = [
        (
            "list_tabs",
            json!({}),
            json!({ "tabs": [ { "tab_id": 7, "url": "https://example.com", "title": "Example", "active": true, "window_id": 1 } ] }),
        ),
        (
            "activate_tab",
            json!({ "tab_id": 7 }),
            json!({ "tab_id": 7, "url": "https://example.com", "title": "Example", "active": true }),
        ),
        (
            "navigate",
            json!({ "url": "https://example.com", "tab_id": 7 }),
            json!({ "tab_id": 7, "url": "https://example.com", "title": "Example" }),
        ),
        (
            "click",
            json!({ "target": { "by": "css", "value": "#submit" }, "tab_id": 7, "timeout": 5000, "new_tab": false }),
            json!({ "clicked": { "tag": "button", "id": "submit", "text": "提交" }, "tab_id": 7 }),
        ),
        (
            "click",
            json!({ "selector": "#submit" }),
            json!({ "clicked": { "tag": "button", "id": "submit", "text": "提交" }, "tab_id": 7 }),
        ),
        (
            "click",
            json!({ "target": { "by": "text", "value": "登录" }, "tab_id": 7 }),
            json!({ "clicked": { "tag": "button", "id": "submit", "text": "提交" }, "tab_id": 7 }),
        ),
        (
            "click",
            json!({ "target": { "by": "xpath", "value": "//button[@id='submit']" }, "tab_id": 7 }),
            json!({ "clicked": { "tag": "button", "id": "submit", "text": "提交" }, "tab_id": 7 }),
        ),
        (
            "click_at",
            json!({ "x": 120, "y": 340, "tab_id": 7 }),
            json!({ "clicked": { "tag": "button", "text": "提交" }, "x": 120, "y": 340, "tab_id": 7 }),
        ),
        (
            "press_key",
            json!({ "key": "Enter", "modifiers": ["ctrl", "shift"], "target": { "by": "css", "value": "#search" }, "tab_id": 7 }),
            json!({ "key": "Enter", "modifiers": [], "element": { "tag": "input" }, "tab_id": 7 }),
        ),
        (
            "run_script",
            json!({ "code": "Array.from(document.querySelectorAll('a')).slice(0, 3).map(a => ({ text: a.textContent.trim(), href: a.href }))", "tab_id": 7 }),
            json!({ "result": [ { "text": "Example", "href": "https://example.com/" } ], "tab_id": 7 }),
        ),
        (
            "scrape",
            json!({ "item": "div.g", "fields": { "title": "h3", "url": "a@href", "description": ".VwiC3b" }, "timeout": 5000, "tab_id": 7 }),
            json!({ "count": 10, "items": [ { "title": "Example", "url": "https://example.com/", "description": "..." } ], "tab_id": 7 }),
        ),
        (
            "scroll",
            json!({ "dx": 0, "dy": 800, "target": { "by": "css", "value": "#list" }, "smooth": true, "tab_id": 7 }),
            json!({ "scrolled": { "dx": 0, "dy": 800 }, "element": { "tag": "div", "id": "list" }, "tab_id": 7 }),
        ),
        (
            "set_value",
            json!({ "target": { "by": "css", "value": "#username" }, "value": "alice", "tab_id": 7 }),
            json!({ "element": { "tag": "input", "type": "text" }, "value": "alice", "tab_id": 7 }),
        ),
        (
            "check",
            json!({ "target": { "by": "css", "value": "#agree" }, "checked": true, "tab_id": 7 }),
            json!({ "element": { "tag": "input", "type": "checkbox" }, "checked": true, "tab_id": 7 }),
        ),
        (
            "select_option",
            json!({ "target": { "by": "css", "value": "#city" }, "value": "sh", "tab_id": 7 }),
            json!({ "selected": [ { "value": "sh", "label": "上海" } ], "tab_id": 7 }),
        ),
        (
            "get_value",
            json!({ "target": { "by": "css", "value": "#username" }, "tab_id": 7 }),
            json!({ "element": { "tag": "input", "type": "text" }, "value": "alice", "tab_id": 7 }),
        ),
        (
            "clear",
            json!({ "target": { "by": "css", "value": "#username" }, "tab_id": 7 }),
            json!({ "element": { "tag": "input", "type": "text" }, "value": "", "tab_id": 7 }),
        ),
    ];
    let mut results = Vec::new();
    for (section, params, documented) in examples {
        let result = v1.ok(section, here(params)).await;
        sent += 1;
        conforms(section, &documented, &result);
        if result.get("tab_id").is_some() && section != "list_tabs" {
            assert_eq!(result["tab_id"], tab_id, "{section}: {result}");
        }
        results.push((section, result));
    }
    let result = |section: &str| -> &Value {
        &results
            .iter()
            .find(|(s, _)| *s == section)
            .unwrap_or_else(|| panic!("{section} was sent"))
            .1
    };
    // The values the examples name really came from the page.
    assert_eq!(result("navigate")["title"], "Example");
    assert_eq!(result("scroll")["element"]["id"], "list");
    assert_eq!(result("scroll")["scrolled"]["dy"].as_f64(), Some(800.0));
    assert_eq!(result("scrape")["count"], 3);
    assert_eq!(result("get_value")["value"], "alice");
    assert_eq!(result("clear")["value"], "");
    let log = v1.run_script(tab_id, "[document.getElementById('log').textContent, document.querySelector('#username').value, document.querySelector('#agree').checked, document.querySelector('#city').value]").await;
    assert_eq!(
        log["result"],
        json!([
            "click:submit;click:submit;click:login;click:submit;click:at;key:Enter+ctrl+shift;change:alice;agree:true;city:sh;",
            "",
            true,
            "sh"
        ])
    );

    // The request section's envelope and the response section's, as written (no tab_id: the
    // client's own agent tab).
    let response = v1
        .send_frame(here(json!({ "id": "abc-123", "method": "navigate", "params": { "url": "https://example.com" } })))
        .await;
    sent += 1;
    conforms(
        "response",
        &json!({ "id": "abc-123", "success": true, "result": { "tab_id": 7, "url": "https://example.com", "title": "Example" } }),
        &response,
    );
    assert_eq!(response["result"]["tab_id"], tab_id, "{response}");

    // close_auto_tabs / close_agent_window name another agent's owner: that agent opens the tabs
    // (the document's 8 and 9) and its window.
    let agent = BridgeClient::connect_as(browser.port, &browser.token, Some(DOC_OWNER))
        .await
        .expect("the mcp-1234-abcd agent connects");
    let (agent, page) = (&agent, page.as_str());
    let agent_tab = move || async move {
        let r = agent
            .call("new_tab", json!({ "url": page }))
            .await
            .expect("the agent's new_tab");
        (
            r["tab_id"].as_i64().expect("tab_id"),
            r["window_id"].clone(),
        )
    };
    let (_, window) = agent_tab().await;
    // The same example twice: the first closes the agent's window, the second finds none
    // ("窗口不存在 … 时返回 { "closed": false, "window_id": null }").
    let mut closes = Vec::new();
    for (section, documented) in [
        (
            "close_agent_window",
            json!({ "closed": true, "window_id": 5 }),
        ),
        (
            "close_agent_window (no window)",
            json!({ "closed": false, "window_id": null }),
        ),
    ] {
        let result = v1
            .ok(
                "close_agent_window",
                here(json!({ "owner": "mcp-1234-abcd" })),
            )
            .await;
        sent += 1;
        conforms(section, &documented, &result);
        closes.push(result);
    }
    assert_eq!(closes[0]["closed"], true, "{}", closes[0]);
    assert_eq!(closes[0]["window_id"], window, "{}", closes[0]);
    let (eight, _) = agent_tab().await;
    let (nine, _) = agent_tab().await;
    let result = v1
        .ok("close_auto_tabs", here(json!({ "owner": "mcp-1234-abcd" })))
        .await;
    sent += 1;
    conforms("close_auto_tabs", &json!({ "closed": [7, 9] }), &result);
    let mut closed: Vec<i64> = result["closed"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_i64)
        .collect();
    closed.sort_unstable();
    assert_eq!(closed, vec![eight.min(nine), eight.max(nine)], "{result}");

    // ### close_tab, then the failure envelope for the tab it closed.
    let result = v1.ok("close_tab", here(json!({ "tab_id": 7 }))).await;
    sent += 1;
    conforms(
        "close_tab",
        &here(json!({ "closed": true, "tab_id": 7 })),
        &result,
    );
    assert_eq!(result["tab_id"], tab_id);
    let failure = v1.request("close_tab", here(json!({ "tab_id": 7 }))).await;
    sent += 1;
    conforms(
        "failure",
        &json!({ "id": "abc-123", "success": false, "error": "no extension connected" }),
        &failure,
    );
    assert_eq!(failure["success"], false, "{failure}");
    note(&format!(
        "v1 document conformance ({sent} examples): {:.1} s",
        started.elapsed().as_secs_f64()
    ));
}
