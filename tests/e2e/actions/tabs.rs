//! Tab actions (SPEC §4; `src/actions/tabs.rs`): `get_tabs`, `activate_tab`, `close_tab`, `close_agent_tabs`,
//! `close_agent_window`.

use std::time::Duration;

use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use super::{url, Agent};
use crate::support::{eventually, get_tabs};

#[tokio::test]
async fn tab_actions_list_activate_close_and_close_agent_tabs_and_window() {
    let a = Agent::new().await;
    let one = a.open("index.html").await;
    let two = a.open("two.html").await;
    let tabs = get_tabs(&a.client).await.expect("get_tabs");
    let mine: Vec<&Value> = tabs
        .iter()
        .filter(|t| t["tabId"] == one || t["tabId"] == two)
        .collect();
    assert_eq!(mine.len(), 2, "{tabs:?}");
    assert!(
        mine.iter()
            .all(|t| t["agentOwned"] == true && t["session"] == true),
        "{mine:?}"
    );
    assert!(mine.iter().any(|t| t["title"] == "Page Two"));

    let (code, message) = a.err("open_tab", json!({ "url": "not a url" })).await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");

    let active = a.act(one, "activate_tab", json!({})).await;
    assert_eq!(
        active,
        json!({ "tabId": one, "url": url("index.html"), "title": "Actions Home", "active": true })
    );
    let (code, _) = a.act_err(987_654_321, "activate_tab", json!({})).await;
    assert_eq!(code, ErrorCode::TabNotFound);

    let closed = a.act(one, "close_tab", json!({})).await;
    assert_eq!(closed, json!({ "closed": true, "tabId": one }));
    let (code, _) = a.act_err(one, "close_tab", json!({})).await;
    assert!(
        matches!(code, ErrorCode::TabNotFound | ErrorCode::SessionNotFound),
        "{code:?}"
    );

    let closed = a.ok("close_agent_tabs", json!({})).await;
    assert_eq!(closed, json!({ "closed": [two] }));
    // Nothing left: the agent window went with its last tab.
    let none = a.ok("close_agent_window", json!({})).await;
    assert_eq!(none, json!({ "closed": false, "windowId": null }));
    let three = a.open("index.html").await;
    let window = a.ok("close_agent_window", json!({})).await;
    assert_eq!(window["closed"], true, "{window}");
    let gone = eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        (!tabs.iter().any(|t| t["tabId"] == three)).then_some(())
    })
    .await;
    assert!(gone.is_some(), "tab {three} survived close_agent_window");
}
