//! `scroll` (SPEC §4; `src/actions/scroll.rs`).

use super::{own_result, Agent};
use bua_protocol::ErrorCode;
use serde_json::json;

#[tokio::test]
async fn scroll_moves_the_window_or_a_container_and_reports_the_end() {
    let (a, tab) = Agent::with_page("controls.html").await;
    let r = a.act(tab, "scroll", json!({ "dy": 300 })).await;
    assert_eq!(
        own_result(&r),
        json!({ "scrolled": { "dx": 0.0, "dy": 300.0 }, "atEnd": false, "tabId": tab })
    );
    assert_eq!(a.eval(tab, "return scrollY").await, 300);
    let r = a.act(tab, "scroll", json!({ "toEnd": true })).await;
    assert_eq!(r["atEnd"], true);
    let r = a
        .act(tab, "scroll", json!({ "selector": "#list", "dy": 100 }))
        .await;
    assert_eq!(r["scrolled"]["dy"], 100.0);
    assert_eq!(r["atEnd"], false);
    let r = a
        .act(tab, "scroll", json!({ "selector": "#list", "toEnd": true }))
        .await;
    assert_eq!(r["atEnd"], true);
    assert_eq!(a.eval(tab, "const l = document.getElementById('list'); return l.scrollTop + l.clientHeight >= l.scrollHeight - 1").await, true);
    let (code, _) = a
        .act_err(tab, "scroll", json!({ "selector": "#nope", "dy": 10 }))
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    a.close(tab).await;
}
