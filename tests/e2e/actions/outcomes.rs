//! What an action caused besides its own result (SPEC §4 "Outcomes"; `src/actions/outcomes.rs`).

use std::time::Duration;

use serde_json::json;

use super::{url, Agent};
use crate::support::{eventually, get_tabs};

#[tokio::test]
async fn a_click_reports_the_page_it_navigated_to_and_the_tab_it_opened() {
    let (a, tab) = Agent::with_page("dialogs.html").await;
    let r = a.click(tab, "#two").await;
    assert_eq!(
        r["navigated"],
        json!({ "url": url("two.html?from=dialogs"), "title": "Page Two" })
    );
    assert_eq!(a.eval(tab, "return location.search").await, "?from=dialogs");
    a.act(tab, "go_back", json!({})).await;
    let r = a
        .act(
            tab,
            "click",
            json!({ "selector": "#blank", "newTab": true }),
        )
        .await;
    let opened = r["openedTab"]["tabId"].as_i64().expect("openedTab");
    assert_eq!(r["openedTab"]["url"], url("two.html?from=blank"));
    assert_eq!(r["tabId"], opened);
    assert!(r.get("navigated").is_none(), "the clicked tab stayed: {r}");
    // A page script's window.open is reported too, and the new tab is the agent's.
    let r = a.click(tab, "#popup-btn").await;
    let popup = r["openedTab"]["tabId"].as_i64().expect("openedTab");
    assert_eq!(r["openedTab"]["url"], url("two.html?from=popup"));
    assert_eq!(r["tabId"], tab);
    let listed = eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        tabs.into_iter()
            .find(|t| t["tabId"] == popup && t["session"] == true)
    })
    .await
    .expect("the popup's session");
    assert_eq!(listed["agentOwned"], true);
    assert_eq!(a.eval(popup, "return location.search").await, "?from=popup");
    for t in [popup, opened, tab] {
        a.close(t).await;
    }
}
