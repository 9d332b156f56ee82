//! `scrape` (SPEC §4; `src/actions/scrape.rs`).

use bua_protocol::ErrorCode;
use serde_json::json;

use super::{url, Agent};
use crate::support::FixtureServer;

#[tokio::test]
async fn scrape_returns_items_with_absolute_links_and_waits_for_them() {
    let (a, tab) = Agent::with_page("scrape.html").await;
    let r = a
        .act(tab, "scrape", json!({ "item": ".result", "fields": { "title": "h3", "url": "a@href", "desc": ".desc", "img": "img@src" } }),
        )
        .await;
    assert_eq!(r["count"], 3);
    let items = r["items"].as_array().expect("items");
    assert_eq!(
        items[0],
        json!({ "title": "First result", "url": FixtureServer::shared().url("/actions/two.html?r=1"), "desc": "One description", "img": null })
    );
    assert_eq!(items[1]["url"], url("two.html?r=2"));
    assert_eq!(items[1]["img"], url("img/pic.png"));
    assert_eq!(items[2]["url"], "https://example.com/x");
    let r = a
        .act(tab, "scrape", json!({ "item": ".result h3", "limit": 2 }))
        .await;
    assert_eq!(
        r["items"],
        json!([{ "text": "First result" }, { "text": "Second result" }])
    );
    let r = a
        .act(
            tab,
            "scrape",
            json!({ "item": ".late-item", "timeoutMs": 3000 }),
        )
        .await;
    assert_eq!(r["items"], json!([{ "text": "arrived" }]));
    let r = a
        .act(tab, "scrape", json!({ "item": ".none", "timeoutMs": 300 }))
        .await;
    assert_eq!(r["count"], 0);

    let (code, message) = a.act_err(tab, "scrape", json!({ "item": "div[" })).await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("not a valid CSS selector"), "{message}");
    a.close(tab).await;
}
