//! `evaluate` exactly as SPEC §7 (`src/actions/evaluate.rs`).

use std::time::{Duration, Instant};

use super::{url, Agent};
use bua_protocol::ErrorCode;
use serde_json::json;

#[tokio::test]
async fn evaluate_returns_values_descriptions_truncation_and_errors_per_spec() {
    let (a, tab) = Agent::with_page("index.html").await;
    let eval = |expression: &str| a.act(tab, "evaluate", json!({ "expression": expression }));
    assert_eq!(
        eval("return document.title").await,
        json!({ "type": "string", "value": "Actions Home" })
    );
    assert_eq!(
        eval("document.title").await,
        json!({ "type": "undefined", "value": null })
    );
    assert_eq!(
        eval("return document.getElementById('counter')").await,
        json!({ "type": "object", "description": "button#counter" })
    );
    assert_eq!(
        eval("return new Map([[1, 2]])").await,
        json!({ "type": "object", "description": "Map(1)" })
    );
    assert_eq!(
        eval("return { a: [1, 'x', null], b: true }").await,
        json!({ "type": "object", "value": { "a": [1, "x", null], "b": true } })
    );
    assert_eq!(
        eval("return Promise.resolve(7)").await,
        json!({ "type": "number", "value": 7 })
    );
    let big = eval("return 'x'.repeat(100 * 1024)").await;
    assert_eq!(big["type"], "string");
    assert_eq!(big["truncated"], true);
    let preview = big["preview"].as_str().expect("preview");
    // The JSON string is 102 402 chars with its quotes; the first 8 192 are kept.
    assert!(
        preview.ends_with("…[truncated 94210 chars]"),
        "{}",
        &preview[preview.len() - 40..]
    );
    assert_eq!(preview.len(), 8192 + "…[truncated 94210 chars]".len());

    let (code, message) = a
        .act_err(
            tab,
            "evaluate",
            json!({ "expression": "throw new Error('boom here')" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("Error: boom here"), "{message}");
    let (code, message) = a
        .act_err(tab, "evaluate", json!({ "expression": "return nope.x" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("nope is not defined"), "{message}");
    // Something CDP cannot serialise (`return window`) is the caller's mistake, with what to return.
    for expression in ["return window", "const o = {}; o.self = o; return o"] {
        let (code, message) = a
            .act_err(tab, "evaluate", json!({ "expression": expression }))
            .await;
        assert_eq!(code, ErrorCode::InvalidAction, "{expression}: {message}");
        assert!(message.contains("return plain JSON data"), "{message}");
        assert!(!message.contains("CDP"), "{message}");
    }

    assert_eq!(
        eval("return navigator.webdriver").await,
        json!({ "type": "boolean", "value": false })
    );
    // And on a freshly loaded document too (the script is installed for new documents).
    a.act(tab, "navigate", json!({ "url": url("two.html") }))
        .await;
    assert_eq!(
        eval("return navigator.webdriver").await,
        json!({ "type": "boolean", "value": false })
    );
    a.close(tab).await;
}

#[tokio::test]
async fn evaluate_stops_an_endless_loop_and_the_tab_stays_usable() {
    let (a, tab) = Agent::with_page("two.html").await;
    let started = Instant::now();
    let (code, message) = a
        .act_err(tab, "evaluate", json!({ "expression": "while (true) {}" }))
        .await;
    assert_eq!(code, ErrorCode::Timeout, "{message}");
    assert!(
        started.elapsed() < Duration::from_secs(12),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    a.act(tab, "click", json!({ "text": "Back home" })).await;
    assert_eq!(a.eval(tab, "return document.title").await, "Actions Home");
    a.close(tab).await;
}
