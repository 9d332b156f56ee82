//! What an input or navigation action changed in the agent's view (SPEC §4 "What an action changed";
//! `src/actions/changes.rs`), and uids that stay with their node (SPEC §5).

use serde_json::{json, Value};

use super::Agent;

/// The uid of the element named `name` in a list of elements (a view's, or `changes.added`).
fn uid_in(elements: &Value, name: &str) -> String {
    elements
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["name"] == name)
        .and_then(|e| e["uid"].as_str())
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no element {name:?} in {elements}"))
}

fn lines(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l.as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn a_click_reports_the_message_menu_and_row_it_made_and_older_uids_keep_working() {
    let a = Agent::new().await;
    // A navigation answers with the new page's view: its uids are the ones to act with.
    let (tab, nav) = a.open_navigated("changes.html").await;
    let view = &nav["view"];
    assert!(
        view["markdown"]
            .as_str()
            .unwrap_or_default()
            .contains("2 results (7 total)"),
        "{nav}"
    );
    let elements = &view["elements"];
    let email = uid_in(elements, "Email");
    let send = uid_in(elements, "Send");
    let keep = uid_in(elements, "Keep me");

    // Typing changes the field's value: that is the change.
    let typed = a
        .ok(
            "type",
            json!({ "tabId": tab, "uid": email, "text": "not-an-address" }),
        )
        .await;
    let changed = &typed["changes"]["changed"];
    assert_eq!(uid_in(changed, "Email"), email, "{typed}");
    assert!(typed.get("view").is_none(), "{typed}");

    // A validation message is new text.
    let sent = a.ok("click", json!({ "tabId": tab, "uid": send })).await;
    assert_eq!(
        lines(&sent["changes"]["textAdded"]),
        ["Please enter a valid email address."],
        "{sent}"
    );

    // A menu that opens offers its items, with uids that work.
    let actions = uid_in(elements, "Actions");
    let menu = a.ok("click", json!({ "tabId": tab, "uid": actions })).await;
    let added = &menu["changes"]["added"];
    let archive = uid_in(added, "Archive");
    uid_in(added, "Rename");
    assert_eq!(added[0]["role"], "menuitem", "{menu}");
    // The button says it is expanded now (its aria-expanded, which the page set).
    let opener = &menu["changes"]["changed"];
    assert_eq!(opener[0]["uid"], actions, "{menu}");
    assert_eq!(opener[0]["expanded"], true, "{menu}");
    a.ok("hover", json!({ "tabId": tab, "uid": archive })).await;

    // A row added at the top: its button is new, the count line changed, and nodes after it keep their uids.
    let add = uid_in(elements, "Add row");
    let row = a.ok("click", json!({ "tabId": tab, "uid": add })).await;
    let changes = &row["changes"];
    let remove_new = uid_in(&changes["added"], "Remove new person 1");
    assert!(
        lines(&changes["textAdded"])
            .iter()
            .any(|l| l.contains("3 results (8 total)")),
        "{row}"
    );
    assert!(
        lines(&changes["textRemoved"])
            .iter()
            .any(|l| l.contains("2 results (7 total)")),
        "{row}"
    );
    let kept = a.ok("click", json!({ "tabId": tab, "uid": keep })).await;
    assert_eq!(a.text_of(tab, "kept").await, "kept", "{kept}");
    assert_eq!(
        lines(&kept["changes"]["textAdded"]),
        ["kept"],
        "the old uid clicked the old button: {kept}"
    );
    // A later extract names every node as before, and the new one as the change did.
    let page = a.ok("extract", json!({ "tabId": tab })).await;
    assert_eq!(uid_in(&page["elements"], "Keep me"), keep);
    assert_eq!(uid_in(&page["elements"], "Remove new person 1"), remove_new);
    assert_eq!(uid_in(&page["elements"], "Email"), email);
    // A click with no visible effect says so.
    let none = a.ok("hover", json!({ "tabId": tab, "uid": keep })).await;
    assert_eq!(none["changes"], json!({}), "{none}");
    a.close(tab).await;
}

#[tokio::test]
async fn go_back_over_a_same_document_route_keeps_the_uids() {
    let a = Agent::new().await;
    let (tab, nav) = a.open_navigated("changes.html").await;
    let keep = uid_in(&nav["view"]["elements"], "Keep me");
    a.eval(
        tab,
        "window.marker = 7; history.pushState({}, '', '?route=2'); return 1",
    )
    .await;
    // Back to the first entry of the same document: no new page, so changes (the URL), not a view.
    let back = a.ok("go_back", json!({ "tabId": tab })).await;
    assert!(back.get("view").is_none(), "{back}");
    assert_eq!(a.eval(tab, "return window.marker").await, 7);
    a.ok("click", json!({ "tabId": tab, "uid": keep })).await;
    assert_eq!(a.text_of(tab, "kept").await, "kept");
    a.close(tab).await;
}

/// A click whose handler changes the page only when its request is answered, later than the settle's first
/// look: the click's result still names what changed (SPEC §4: the requests it sent are waited for).
#[tokio::test]
async fn a_click_that_fetches_reports_what_the_answer_changed() {
    crate::support::FixtureServer::shared().route(
        "/actions/slow-item.html",
        crate::support::Route::Slow {
            delay: std::time::Duration::from_millis(400),
            body: "<li>Item four</li>".into(),
        },
    );
    let (a, tab) = Agent::with_page("slow.html").await;
    let more = a.uid(tab, "button", "Load more").await;
    let r = a.act(tab, "click", json!({ "uid": more })).await;
    let added = lines(&r["changes"]["textAdded"]);
    assert!(
        added.iter().any(|l| l.contains("Item four"))
            && added.iter().any(|l| l.contains("4 items")),
        "{r}"
    );
    assert!(
        lines(&r["changes"]["textRemoved"])
            .iter()
            .any(|l| l.contains("3 items")),
        "{r}"
    );
    a.close(tab).await;
}
