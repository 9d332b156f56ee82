//! `fill` (SPEC §4; `src/actions/fill.rs`): several fields of every kind in one action, and a failure in the
//! middle that leaves the fields after it untouched.

use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use super::{own_result, Agent};

/// The uids of a page's fields by accessible name, from one extract.
async fn uids(a: &Agent, tab: i64) -> impl Fn(&str) -> String {
    let page = a
        .ok("extract", json!({ "tabId": tab, "include": ["elements"] }))
        .await;
    let elements = page["elements"].as_array().cloned().unwrap_or_default();
    move |name: &str| {
        elements
            .iter()
            .find(|e| e["name"] == name)
            .and_then(|e| e["uid"].as_str())
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("no element {name:?} among {elements:?}"))
    }
}

/// The page's values of every field, read in the page.
const VALUES: &str = "const $ = id => document.getElementById(id); return {
  name: $('name').value, bio: $('bio').value, notes: $('notes').innerText.trim(), locked: $('locked').value,
  country: $('country').value, langs: Array.from($('langs').selectedOptions).map(o => o.value),
  news: $('news').checked, pro: $('pro').checked, basic: $('basic').checked }";

#[tokio::test]
async fn fill_writes_text_textarea_contenteditable_selects_checkbox_and_radio() {
    let (a, tab) = Agent::with_page("fill.html").await;
    let uid = uids(&a, tab).await;
    let r = a
        .ok(
            "fill",
            json!({ "tabId": tab, "fields": [
                { "uid": uid("Name"), "value": "Ada Lovelace" },
                { "uid": uid("Bio"), "value": "Wrote the first program" },
                { "selector": "#notes", "value": "Analytical engine" },
                { "text": "Country", "value": "France" },
                { "uid": uid("Languages"), "value": ["en", "de"] },
                { "uid": uid("Newsletter"), "value": true },
                { "text": "Pro", "value": "true" },
            ]}),
        )
        .await;
    assert_eq!(
        own_result(&r),
        json!({ "filled": [
            { "uid": uid("Name"), "value": "Ada Lovelace" },
            { "uid": uid("Bio"), "value": "Wrote the first program" },
            { "locator": "selector \"#notes\"", "value": "Analytical engine" },
            { "locator": "text \"Country\"", "value": "fr", "label": "France" },
            { "uid": uid("Languages"), "value": ["en", "de"], "label": ["English", "German"] },
            { "uid": uid("Newsletter"), "value": true },
            { "locator": "text \"Pro\"", "value": true },
        ], "tabId": tab })
    );
    assert_eq!(
        a.eval(tab, VALUES).await,
        json!({ "name": "Ada Lovelace", "bio": "Wrote the first program", "notes": "Analytical engine",
                "locked": "", "country": "fr", "langs": ["en", "de"], "news": true, "pro": true,
                "basic": false })
    );
    // Each field was written by its action's real events: the page saw a change on each.
    let log = a.text_of(tab, "log").await;
    for id in ["name", "bio", "country", "langs", "news", "pro"] {
        assert!(log.contains(id), "{id} not in {log:?}");
    }
    a.close(tab).await;
}

#[tokio::test]
async fn fill_stops_at_a_disabled_field_and_names_it_and_what_it_filled() {
    let (a, tab) = Agent::with_page("fill.html").await;
    let uid = uids(&a, tab).await;
    let (name, bio, locked) = (uid("Name"), uid("Bio"), uid("Locked"));
    let (code, message) = a
        .err(
            "fill",
            json!({ "tabId": tab, "fields": [
                { "uid": name, "value": "Ada" },
                { "uid": bio, "value": "Mathematician" },
                { "uid": locked, "value": "x" },
                { "uid": uid("Country"), "value": "Germany" },
                { "uid": uid("Newsletter"), "value": true },
            ]}),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(
        message.contains(&format!("fill stopped at fields[2] (uid {locked})")),
        "{message}"
    );
    assert!(message.contains("it is disabled"), "{message}");
    assert!(
        message.contains(&format!(
            "already filled: fields[0] (uid {name}), fields[1] (uid {bio})"
        )),
        "{message}"
    );
    assert!(
        message.contains("fields[3] to [4] were not touched"),
        "{message}"
    );
    let values: Value = a.eval(tab, VALUES).await;
    assert_eq!(
        (&values["name"], &values["bio"]),
        (&json!("Ada"), &json!("Mathematician"))
    );
    assert_eq!(
        (&values["country"], &values["news"]),
        (&json!(""), &json!(false))
    );
    a.close(tab).await;
}

#[tokio::test]
async fn fill_sets_a_date_input_to_the_value_asked_for() {
    let (a, tab) = Agent::with_page("fill.html").await;
    // A date input takes keys per segment in the browser's order: typed as text, "2024-05-01" would land
    // as another date. Filled twice, so the second value replaces the first.
    for date in ["2024-05-01", "2025-06-02"] {
        let r = a
            .ok(
                "fill",
                json!({ "tabId": tab, "fields": [{ "selector": "#born", "value": date }] }),
            )
            .await;
        assert_eq!(r["filled"][0]["value"], date, "{r}");
        assert_eq!(
            a.eval(tab, "return document.getElementById('born').value")
                .await,
            date
        );
    }
    a.close(tab).await;
}

#[tokio::test]
async fn fill_with_submit_fills_then_clicks_the_button_and_answers_with_the_new_page() {
    let (a, tab) = Agent::with_page("search.html").await;
    let uid = uids(&a, tab).await;
    let fields = [
        ("Query", json!("tide tables")),
        ("Kind", json!("films")),
        ("New only", json!(true)),
    ]
    .map(|(name, value)| json!({ "uid": uid(name), "value": value }));
    let submit = json!({ "uid": uid("Search") });
    let r = a
        .act(tab, "fill", json!({ "fields": fields, "submit": submit }))
        .await;
    // The click is reported as click reports it, after the fields, and the form's navigation with it.
    assert_eq!(
        (&r["clicked"]["id"], &r["clicked"]["text"]),
        (&json!("go"), &json!("Search")),
        "{r}"
    );
    assert_eq!(r["filled"][1]["label"], "films", "{r}");
    let url = r["navigated"]["url"].as_str().unwrap_or_default();
    assert!(
        url.contains("two.html?q=tide+tables&kind=films&new=1"),
        "{r}"
    );
    // The page the form led to got the values, and the result carries its view (a new page).
    assert_eq!(
        a.text_of(tab, "query").await,
        "query=?q=tide+tables&kind=films&new=1"
    );
    assert_eq!(r["view"]["title"], "Page Two", "{r}");
    a.close(tab).await;
}

#[tokio::test]
async fn fill_whose_submit_fails_keeps_the_fields_and_says_so() {
    let (a, tab) = Agent::with_page("search.html").await;
    let uid = uids(&a, tab).await;
    let (code, message) = a
        .err(
            "fill",
            json!({ "tabId": tab, "fields": [{ "uid": uid("Query"), "value": "maps" }],
                    "submit": { "uid": uid("Advanced") } }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(
        message.contains("fill filled its 1 field(s), then the click on submit failed"),
        "{message}"
    );
    assert!(message.contains("disabled"), "{message}");
    // Nothing was submitted, and the field holds what was typed.
    assert_eq!(
        a.eval(
            tab,
            "return location.pathname + '|' + document.getElementById('q').value"
        )
        .await,
        "/actions/search.html|maps"
    );
    a.close(tab).await;
}
