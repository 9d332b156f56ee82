//! `wait_for` (SPEC §4; `src/actions/wait.rs`).

use std::time::{Duration, Instant};

use super::Agent;
use bua_protocol::ErrorCode;
use serde_json::json;

#[tokio::test]
async fn wait_for_sees_late_elements_text_and_hiding_and_times_out() {
    let (a, tab) = Agent::with_page("index.html").await;
    let r = a
        .act(
            tab,
            "wait_for",
            json!({ "selector": "#late", "timeoutMs": 5000 }),
        )
        .await;
    assert_eq!(r["found"], true);
    assert!(r["elapsedMs"].as_u64().is_some());
    for params in [
        json!({ "textContains": "Late button" }),
        json!({ "selector": "#hidden-p", "state": "hidden" }),
        json!({ "selector": "#hidden-p", "state": "attached" }),
    ] {
        let r = a.act(tab, "wait_for", params.clone()).await;
        assert_eq!(r["found"], true, "{params}");
    }

    let started = Instant::now();
    let (code, message) = a
        .act_err(
            tab,
            "wait_for",
            json!({ "selector": "#never", "timeoutMs": 400 }),
        )
        .await;
    assert_eq!(code, ErrorCode::Timeout);
    assert!(message.contains("400 ms"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(2));
    a.close(tab).await;
}
