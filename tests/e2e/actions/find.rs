//! `find` (SPEC §4; `src/actions/find.rs`): lines of the whole page's agent text with their uids, beyond what one
//! extract lists, and a uid from a found line clicks its element.

use serde_json::json;

use super::Agent;

#[tokio::test]
async fn find_reaches_a_button_past_the_extract_cap_and_its_uid_clicks_it() {
    let (a, tab) = Agent::with_page("find.html").await;
    let r = a
        .ok("find", json!({ "tabId": tab, "text": "ORDER #377" }))
        .await;
    // The list item's line of the markdown, and the button's line of the elements.
    assert_eq!(r["count"], 2, "{r}");
    assert_eq!(
        r["lines"][0],
        json!({ "line": "- Order #377 Archive order #377", "uids": [] })
    );
    let line = &r["lines"][1];
    let uid = line["uids"][0].as_str().expect("a uid").to_owned();
    assert_eq!(line["line"], format!("{uid} button \"Archive order #377\""));
    a.ok("click", json!({ "tabId": tab, "uid": uid })).await;
    a.wait_text(tab, "status", "archived 377").await;
    a.close(tab).await;
}

#[tokio::test]
async fn find_by_regex_counts_every_match_shows_the_limit_and_reads_the_markdown() {
    let (a, tab) = Agent::with_page("find.html").await;
    let r = a
        .ok(
            "find",
            json!({ "tabId": tab, "regex": "archive order #3\\d\\d\"$", "limit": 3 }),
        )
        .await;
    assert_eq!(r["count"], 100, "{r}");
    let lines: Vec<&str> = r["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| l["line"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].ends_with("button \"Archive order #300\""),
        "{lines:?}"
    );
    // A markdown line, with the uid of the link in it (an in-page link is written with its uid alone).
    let r = a
        .ok("find", json!({ "tabId": tab, "text": "warehouse" }))
        .await;
    assert_eq!(r["count"], 1, "{r}");
    let line = r["lines"][0]["line"].as_str().unwrap_or_default();
    let uid = r["lines"][0]["uids"][0].as_str().expect("the link's uid");
    assert_eq!(
        line,
        format!("The warehouse closes at 6 pm; see the [opening hours]({uid}).")
    );
    // A regex that does not compile says why.
    let (code, message) = a
        .err("find", json!({ "tabId": tab, "regex": "(order" }))
        .await;
    assert_eq!(code, bua_protocol::ErrorCode::InvalidAction);
    assert!(message.contains("does not compile"), "{message}");
    a.close(tab).await;
}
