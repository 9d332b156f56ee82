//! End-to-end tests of what `extract` tells an agent to choose from (SPEC §5 `options`, `context`, names,
//! tables of links, result counts) in real headless Chromium, on `tests/fixtures/extract/choose.html`: a page
//! made of what Django admin and Trac put in front of an agent.

use crate::support;

use bua_protocol::ExtractResult;
use serde_json::{json, Value};
use support::{uid_of, Agent, Browser};

/// The extract the MCP server asks for (markdown and elements, links by uid) and its agent text.
async fn read(a: &Agent, tab: i64) -> (Value, String) {
    let r = a.extract_with_refs(tab).await;
    let typed: ExtractResult = serde_json::from_value(r.clone()).expect("an extract result");
    (r, bua_protocol::text::extract_text(&typed))
}

/// The agent text's line of element `uid`, without the uid.
fn line<'a>(text: &'a str, uid: &str) -> &'a str {
    let prefix = format!("{uid} ");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("no line of {uid} in\n{text}"))
}

#[tokio::test]
async fn the_agent_text_shows_options_names_by_accname_and_context_and_keeps_link_tables_and_counts(
) {
    let a = Agent::on(Browser::shared("extract_choice"), "extract").await;
    let tab = a.open_tab("choose.html").await;
    let (r, text) = read(&a, tab).await;

    // A table of links with header parts stays a table, its links named by uid; the count stays.
    let markdown = r["markdown"].as_str().expect("markdown");
    let groups = uid_of(&r, "link", "Groups");
    assert!(
        markdown.contains(&format!(
            "| [Groups]({groups} /admin/auth/group/) | [Add](e"
        )),
        "{markdown}"
    );
    assert!(markdown.contains("| [Users](e"), "{markdown}");
    assert!(markdown.contains("2 results ([7 total](e"), "{markdown}");

    // Options: the first ten of a long list with the count and how to see all; a short list whole.
    let country = uid_of(&r, "combobox", "Country");
    assert_eq!(
        line(&text, &country),
        "combobox \"Country\" = \"France\" options(10 of 33; get_value lists all): \"Austria\", \
         \"France\", \"Germany\", \"Country 1\", \"Country 2\", \"Country 3\", \"Country 4\", \"Country 5\", \
         \"Country 6\", \"Country 7\", …"
    );
    let available = uid_of(&r, "listbox", "Available groups");
    assert_eq!(
        line(&text, &available),
        "listbox \"Available groups\" options(3): \"editors\", \"publishers\", \"reviewers\""
    );
    let city = uid_of(&r, "combobox", "City");
    assert_eq!(
        line(&text, &city),
        // Its popup is closed (aria-expanded="false"), and it still says what it offers.
        "combobox \"City\" collapsed options(2): \"Paris\", \"Lyon\""
    );

    // Names in accname's order: a label's icon by its aria-label, then title before placeholder.
    uid_of(
        &r,
        "textbox",
        "Type into this box to filter down the list of available groups.",
    );
    uid_of(&r, "textbox", "Type to filter the permissions");

    // Unlabelled date and time boxes named by the text before them, told apart by their row's label;
    // Trac's checkboxes by their row's subject, a name that does not repeat without one.
    let lines: Vec<&str> = text.lines().collect();
    for want in [
        "textbox \"Date\" (in \"Last login\")",
        "textbox \"Time\" (in \"Last login\")",
        "textbox \"Date\" (in \"Date joined\") = \"2026-12-03\"",
        "textbox \"Time\" (in \"Date joined\") = \"12:51:59\"",
        "checkbox \"WIKI_CREATE\" (in \"authenticated\")",
        "checkbox \"WIKI_CREATE\" (in \"developer\")",
        "checkbox \"WIKI_MODIFY\"",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.split_once(' ').is_some_and(|(_, rest)| rest == want)),
            "no line {want:?} in\n{text}"
        );
    }

    // `get_value` lists every option; a choice shows in the next read's value.
    let all = a.act(tab, "get_value", json!({ "uid": country })).await;
    let options = all["options"].as_array().expect("options");
    assert_eq!(options.len(), 33, "{all}");
    assert_eq!(
        options[32],
        json!({"value": "Country 30", "label": "Country 30"})
    );
    a.act(
        tab,
        "select_option",
        json!({ "uid": available, "label": ["reviewers"] }),
    )
    .await;
    let (_, after) = read(&a, tab).await;
    assert!(
        after.contains("listbox \"Available groups\" = \"reviewers\" options(3): "),
        "{after}"
    );
    a.close(tab).await;
}

/// SPEC §5 "What a person cannot see": on a page with 35 texts put there in ways no person can read
/// (transparent, same colour as the background, tiny, off the page, clipped, covered by a box or a picture,
/// collapsed, inside a closed section, …) and 14 a person reads (faint small print, `aria-hidden` text on the
/// screen, gradient text, light on dark, half-transparent, text under a white box of opacity 0), the agent text (what the MCP tool returns) has every visible one
/// and none of the hidden ones; a checkbox hidden for its looks behind its label is still listed.
#[tokio::test]
async fn the_agent_text_holds_what_a_person_sees_and_nothing_hidden_from_them() {
    let a = Agent::on(Browser::shared("extract_choice"), "extract").await;
    let tab = a.open_tab("hidden_text.html").await;
    let (r, text) = read(&a, tab).await;
    for n in 1..=14 {
        let token = format!("SEEN-{n:02}");
        assert!(text.contains(&token), "{token} is missing from\n{text}");
    }
    let hidden: Vec<String> = (1..=35)
        .map(|n| format!("HIDDEN-{n:02}"))
        .filter(|t| text.contains(t.as_str()))
        .collect();
    assert!(
        hidden.is_empty(),
        "{hidden:?} reached the agent text:\n{text}"
    );
    // The page itself holds them all (what the test hides is there to be found).
    let on_page = a
        .act(
            tab,
            "evaluate",
            json!({ "expression": "return document.body.textContent.match(/HIDDEN-\\d+/g).length" }),
        )
        .await;
    assert_eq!(on_page["value"], 35);
    let subscribe = uid_of(&r, "checkbox", "SEEN-13 Subscribe to the letter");
    assert!(line(&text, &subscribe).starts_with("checkbox"), "{text}");
    assert_eq!(
        line(&text, &uid_of(&r, "button", "SEEN-11 Buy now")),
        "button \"SEEN-11 Buy now\""
    );
    a.close(tab).await;
}
