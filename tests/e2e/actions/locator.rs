//! Locators (SPEC §4; `src/actions/locator.rs`): the uids of `extract` drive actions, and go stale.

use super::{url, Agent};
use bua_protocol::ErrorCode;
use serde_json::json;

#[tokio::test]
async fn extract_uids_drive_actions_and_go_stale_after_navigation() {
    let (a, tab) = Agent::with_page("index.html").await;
    let uid = a.uid(tab, "button", "Click me").await;
    let r = a.act(tab, "click", json!({ "uid": uid })).await;
    assert_eq!(r["clicked"]["id"], "counter");
    assert_eq!(a.text_of(tab, "counter").await, "Clicked 1");
    a.act(tab, "navigate", json!({ "url": url("two.html") }))
        .await;
    let (code, message) = a.act_err(tab, "click", json!({ "uid": uid })).await;
    assert_eq!(code, ErrorCode::ElementStale);
    assert!(message.contains("extract"), "{message}");
    // A uid beyond the last extract's was never given out: said plainly, with the range it listed.
    let page = a.act(tab, "extract", json!({})).await;
    let numbers: Vec<u64> = page["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["uid"].as_str()?.strip_prefix('e')?.parse().ok())
        .collect();
    assert!(!numbers.is_empty(), "{page}");
    // The new page's uids follow the old page's: none of them names a node of the new page.
    let (first, last) = (numbers[0], numbers[numbers.len() - 1]);
    assert!(first > 0, "{page}");
    let (code, message) = a.act_err(tab, "click", json!({ "uid": "e999" })).await;
    assert_eq!(code, ErrorCode::ElementStale);
    assert!(
        message.contains(&format!(
            "uid e999 was never given on tab {tab}'s current page (its uids so far are e{first}…e{last})"
        )),
        "{message}"
    );
    assert!(!message.contains("navigated"), "{message}");
    a.close(tab).await;
}
