//! End-to-end tests of `extract` (SPEC §5) in real headless Chromium with
//! the built extension and the real bridge, on the fixture pages of `tests/fixtures/extract/`.

use crate::support;

use std::time::Duration;

use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use support::{eventually, uid_of, Agent};

/// The tests share one browser, and fixture pages of one site share a renderer process: a 5,000-row
/// AX tree being built stalls every other tab's commands. They run one at a time.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The agent of this area, once it is this test's turn (the guard holds it).
async fn agent() -> (tokio::sync::MutexGuard<'static, ()>, Agent) {
    Agent::alone(&SERIAL, "extract").await
}

/// `data-clicks` of `uids.html`'s Increment button: how often it was clicked since the page (re)rendered it.
async fn increments(a: &Agent, tab: i64) -> Value {
    a.eval(tab, "return document.querySelector('#inc').dataset.clicks")
        .await
}

/// A click on `uid` in `tab` fails with `element_stale`.
async fn assert_stale(a: &Agent, tab: i64, uid: &str) {
    let (code, message) = a.act_err(tab, "click", json!({ "uid": uid })).await;
    assert_eq!(code, ErrorCode::ElementStale, "{message}");
}

#[tokio::test]
async fn uids_are_stable_between_two_extracts_of_an_unchanged_page() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("uids.html").await;
    let first = a.extract(tab).await;
    let second = a.extract(tab).await;
    assert_eq!(first["elements"], second["elements"]);
    let uid = uid_of(&first, "button", "Increment");
    assert_eq!(uid, uid_of(&second, "button", "Increment"));
    // A click by a uid of the first extract.
    a.act(tab, "click", json!({ "uid": uid })).await;
    assert_eq!(increments(&a, tab).await, "1");
    a.close(tab).await;
}

#[tokio::test]
async fn main_frame_navigation_makes_old_uids_stale() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("uids.html").await;
    let uid = uid_of(&a.extract(tab).await, "button", "Increment");
    // A navigation the page makes itself (not the `navigate` action) also clears the cache.
    a.eval(
        tab,
        "location.assign('/extract/uids.html?again=1'); return 0",
    )
    .await;
    let navigated = eventually(Duration::from_secs(10), || async {
        let href = a.eval(tab, "return location.href").await;
        href.as_str()
            .is_some_and(|h| h.ends_with("again=1"))
            .then_some(())
    })
    .await;
    assert!(navigated.is_some(), "the page did not navigate");
    assert_stale(&a, tab, &uid).await;
    // And after `navigate`.
    let uid = uid_of(&a.extract(tab).await, "button", "Increment");
    a.act(tab, "navigate", json!({ "url": a.url("uids.html") }))
        .await;
    assert_stale(&a, tab, &uid).await;
    a.close(tab).await;
}

#[tokio::test]
async fn push_state_keeps_uids_and_a_rerendered_node_is_stale_not_its_look_alike() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("uids.html").await;
    let uid = uid_of(&a.extract(tab).await, "button", "Increment");
    a.eval(
        tab,
        "history.pushState({}, '', '/extract/uids.html#/route-2'); return 0",
    )
    .await;
    // The uid survives a pushState route change.
    a.act(tab, "click", json!({ "uid": uid })).await;
    assert_eq!(increments(&a, tab).await, "1");
    // The node of this uid is replaced by a look-alike, which must not be clicked.
    a.eval(tab, "rerender(); return 0").await;
    assert_stale(&a, tab, &uid).await;
    assert_eq!(
        increments(&a, tab).await,
        "0",
        "the look-alike must not be clicked"
    );
    a.close(tab).await;
}

#[tokio::test]
async fn five_thousand_rows_give_exactly_200_elements_with_the_visible_top_buttons() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("rows.html").await;
    let r = a.extract(tab).await;
    let els = r["elements"].as_array().expect("elements");
    assert_eq!(els.len(), 200);
    assert_eq!(r["truncated"]["elements"], true);
    assert!(
        r["totalElements"].as_u64().unwrap_or(0) >= 5000,
        "{}",
        r["totalElements"]
    );
    for name in ["Top one", "Top two", "Top three"] {
        let e = els
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(e["visible"], true);
    }
    let uids: Vec<&str> = els.iter().filter_map(|e| e["uid"].as_str()).collect();
    let expected: Vec<String> = (0..200).map(|i| format!("e{i}")).collect();
    assert_eq!(
        uids,
        expected.iter().map(String::as_str).collect::<Vec<_>>()
    );
    a.close(tab).await;
}

#[tokio::test]
async fn five_thousand_elements_are_read_to_the_end_page_by_page_each_once() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("many.html").await;
    let first = a.extract(tab).await;
    let pages = first["pages"].as_u64().expect("a read in pages") as usize;
    assert_eq!(first["page"], 1);
    assert_eq!(first["totalElements"], 5000);
    // The agent text says which call reads the next page.
    let r: bua_protocol::ExtractResult = serde_json::from_value(first.clone()).expect("extract");
    let text = bua_protocol::text::extract_text(&r);
    assert!(
        text.contains(&format!(
            "\npage: 1 of {pages}; more: extract {{\"page\":2}}\n"
        )),
        "{}",
        &text[..600.min(text.len())]
    );
    let mut seen: std::collections::HashMap<String, String> = Default::default();
    let mut markdown = String::new();
    let mut read = first;
    for n in 1..=pages {
        if n > 1 {
            read = a.act(tab, "extract", json!({ "page": n })).await;
            assert_eq!(read["page"], n, "{}", read["page"]);
        }
        let els = read["elements"].as_array().expect("elements");
        assert!(els.len() <= 200, "page {n}: {}", els.len());
        for e in els {
            let (uid, name) = (
                e["uid"].as_str().expect("uid"),
                e["name"].as_str().expect("name"),
            );
            let before = seen.insert(name.to_owned(), uid.to_owned());
            assert!(
                before.is_none(),
                "{name} ({uid}) again on page {n}, was {before:?}"
            );
        }
        let part = read["markdown"].as_str().unwrap_or_default();
        assert!(part.len() <= 30 * 1024, "page {n}: {} bytes", part.len());
        markdown.push_str(part);
        markdown.push('\n');
    }
    let r: bua_protocol::ExtractResult = serde_json::from_value(read).expect("extract");
    assert!(bua_protocol::text::extract_text(&r)
        .contains(&format!("\npage: {pages} of {pages} (the last)\n")));
    assert_eq!(seen.len(), 5000);
    let uids: std::collections::HashSet<&String> = seen.values().collect();
    assert_eq!(uids.len(), 5000, "every element has a uid of its own");
    for i in 0..5000 {
        let name = format!("Item {i:04}");
        assert!(seen.contains_key(&name), "{name} never listed");
        assert_eq!(markdown.matches(&name).count(), 1, "{name} in the markdown");
    }
    // A uid from the last page acts on its element.
    let last = &seen["Item 4999"];
    a.act(tab, "click", json!({ "uid": last })).await;
    // A page past the last.
    let (code, message) = a
        .act_err(tab, "extract", json!({ "page": pages + 1 }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(
        message.contains(&format!("has {pages} pages now")),
        "{message}"
    );
    a.close(tab).await;
}

#[tokio::test]
async fn script_text_stays_out_but_the_same_text_shown_on_the_page_stays_in() {
    // The extension empties `<script>`/`<style>` text before the snapshot reaches Rust (SPEC §5); the
    // snapshot shares strings by value, so a `<pre>` showing a script word for word names the same one.
    let (_serial, a) = agent().await;
    let tab = a.open_tab("scripts.html").await;
    let r = a.extract(tab).await;
    let markdown = r["markdown"].as_str().expect("markdown");
    let shown = "window.shared = 'one'; var step0 = 0; var step1 = 7;";
    assert!(markdown.contains(shown), "{markdown}");
    assert!(markdown.contains("var step39 = 273;"), "{markdown}");
    assert!(markdown.contains("End of the page."), "{markdown}");
    assert!(!markdown.contains("onlyScript"), "{markdown}");
    assert!(!markdown.contains("margin"), "{markdown}");
    assert_eq!(
        a.eval(tab, "return window.onlyScript + window.shared")
            .await,
        json!("1one")
    );
    a.close(tab).await;
}

#[tokio::test]
async fn a_two_megabyte_page_is_capped_at_50_kb_text_and_30_kb_markdown() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("big.html").await;
    let r = a.extract(tab).await;
    let text = r["text"].as_str().expect("text");
    let markdown = r["markdown"].as_str().expect("markdown");
    assert!(
        text.len() <= 50 * 1024 && text.len() > 49 * 1024,
        "{}",
        text.len()
    );
    // The markdown goes on in pages (SPEC §5 "Pages"): page 1 is its first chunk, whole paragraphs.
    assert!(
        markdown.len() <= 30 * 1024 && markdown.len() > 24 * 1024,
        "{}",
        markdown.len()
    );
    assert_eq!(r["truncated"]["text"], true);
    assert_eq!(r["truncated"]["markdown"], true);
    assert_eq!(r["page"], 1);
    assert!(r["pages"].as_u64().unwrap_or(0) > 1, "{}", r["pages"]);
    assert!(markdown.starts_with("0 Lorem ipsum"), "{}", &markdown[..60]);
    a.close(tab).await;
}

#[tokio::test]
async fn buttons_in_open_and_closed_shadow_roots_and_a_frame_are_listed_and_clickable() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("controls.html").await;
    // The frame loads after the page's own load event on slow machines: wait for its button.
    let r = eventually(Duration::from_secs(10), || async {
        let r = a.extract(tab).await;
        let has = r["elements"]
            .as_array()
            .is_some_and(|els| els.iter().any(|e| e["name"] == "Frame button"));
        has.then_some(r)
    })
    .await
    .expect("the frame's button is listed");
    let names: Vec<&str> = r["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["name"].as_str())
        .collect();
    assert_eq!(
        names,
        vec![
            "Light button",
            "Open shadow button",
            "Closed shadow button",
            "Frame button"
        ]
    );
    for name in ["Open shadow button", "Closed shadow button", "Frame button"] {
        a.act(tab, "click", json!({ "uid": uid_of(&r, "button", name) }))
            .await;
    }
    assert_eq!(
        a.eval(tab, "return clicks.join(',')").await,
        "open,closed,frame"
    );
    assert!(r["markdown"]
        .as_str()
        .unwrap()
        .contains("# Controls in shadow roots and a frame"));
    a.close(tab).await;
}

#[tokio::test]
async fn a_design_system_password_input_on_a_sign_in_page_is_an_auth_wall() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("signin.html").await;
    let r = a.extract(tab).await;
    assert_eq!(r["obstacle"]["type"], "auth_wall", "{:#}", r);
    assert_eq!(r["obstacle"]["confidence"], "high");
    a.close(tab).await;
}

#[tokio::test]
async fn a_news_page_with_a_log_in_link_in_its_nav_has_no_obstacle() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("news.html").await;
    let r = a.extract(tab).await;
    assert!(r.get("obstacle").is_none(), "{:#}", r["obstacle"]);
    let markdown = r["markdown"].as_str().unwrap();
    assert!(
        markdown.starts_with("# Council approves new park\n\nThe council voted"),
        "{markdown}"
    );
    assert!(
        !markdown.contains("Log in"),
        "nav is not content: {markdown}"
    );
    assert!(r["elements"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["role"] == "link" && e["name"] == "Log in"));
    a.close(tab).await;
}

/// The `checked` of the first element named `name` (`None`: it has none); panics when no element
/// has that name.
fn checked_of(result: &Value, name: &str) -> Option<Value> {
    result["elements"]
        .as_array()
        .and_then(|els| els.iter().find(|e| e["name"] == name))
        .unwrap_or_else(|| panic!("no element {name:?} in {:#}", result["elements"]))
        .get("checked")
        .cloned()
}

#[tokio::test]
async fn checkboxes_radios_and_switches_carry_checked_on_small_and_big_pages() {
    let (_serial, a) = agent().await;
    // 3,000 padding spans make 6,000+ DOM nodes: the same states on a big page.
    for path in ["checked.html", "checked.html?pad=3000"] {
        let tab = a.open_tab(path).await;
        let r = a.extract(tab).await;
        let expected = [
            ("Newsletter", Some(json!(true))),
            ("Terms", Some(json!(false))),
            // `indeterminate` is not in the DOM snapshot: the extension asks the AX node of that box.
            ("Some", Some(json!("mixed"))),
            ("Small", Some(json!(false))),
            ("Large", Some(json!(true))),
            ("Wifi", Some(json!(true))),
            ("Save", None),
            ("Far button", None),
        ];
        for (name, want) in expected {
            assert_eq!(
                checked_of(&r, name),
                want,
                "{path}: {name} in {:#}",
                r["elements"]
            );
        }
        let roles: Vec<(&str, &str)> = r["elements"]
            .as_array()
            .expect("elements")
            .iter()
            .filter(|e| e.get("checked").is_some())
            .map(|e| {
                (
                    e["role"].as_str().unwrap_or(""),
                    e["name"].as_str().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(
            roles,
            vec![
                ("checkbox", "Newsletter"),
                ("checkbox", "Terms"),
                ("checkbox", "Some"),
                ("radio", "Small"),
                ("radio", "Large"),
                ("switch", "Wifi"),
            ],
            "{path}"
        );
        // `visible` is sent only when true: the button 3,000 px down has none.
        let far = r["elements"]
            .as_array()
            .and_then(|els| els.iter().find(|e| e["name"] == "Far button"))
            .cloned()
            .unwrap_or(Value::Null);
        assert!(far.get("visible").is_none(), "{path}: {far}");
        let save = r["elements"]
            .as_array()
            .and_then(|els| els.iter().find(|e| e["name"] == "Save"))
            .cloned()
            .unwrap_or(Value::Null);
        assert_eq!(save["visible"], true, "{path}: {save}");

        // The live state, not the markup: click two of them and extract again.
        for name in ["Terms", "Small"] {
            let role = if name == "Small" { "radio" } else { "checkbox" };
            a.act(tab, "click", json!({ "uid": uid_of(&r, role, name) }))
                .await;
        }
        let after = a.extract(tab).await;
        assert_eq!(checked_of(&after, "Terms"), Some(json!(true)), "{path}");
        assert_eq!(checked_of(&after, "Small"), Some(json!(true)), "{path}");
        assert_eq!(checked_of(&after, "Large"), Some(json!(false)), "{path}");
        assert_eq!(
            a.eval(tab, "return document.getElementById('terms').checked")
                .await,
            json!(true)
        );
        a.close(tab).await;
    }
}

#[tokio::test]
async fn mathml_formulas_are_in_the_markdown_as_tex_or_their_text() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("math.html").await;
    let r = a.extract(tab).await;
    a.close(tab).await;
    let md = r["markdown"].as_str().expect("markdown");
    assert!(
        md.contains("Hermitian when $A=\\overline {A^{\\mathsf {T}}}$ holds"),
        "the TeX of the hidden MathML is missing: {md}"
    );
    assert!(
        md.contains("eigenvalue λ∈ℝ the eigenvector"),
        "the text of a MathML formula without TeX is missing: {md}"
    );
    assert!(
        md.contains("\n\n$$e^{i\\pi} + 1 = 0$$"),
        "the display formula is missing: {md}"
    );
}

#[tokio::test]
async fn include_sends_only_the_parts_asked_for_and_without_it_everything() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("news.html").await;
    let full = a.extract(tab).await;
    for key in ["text", "markdown", "elements"] {
        assert!(full.get(key).is_some(), "no {key} without include: {full}");
    }
    let body_text = a.eval(tab, "return document.body.innerText").await;
    assert_eq!(full["text"], body_text);

    let agent = a
        .act(
            tab,
            "extract",
            json!({ "include": ["markdown", "elements"] }),
        )
        .await;
    assert!(
        agent.get("text").is_none(),
        "text was not asked for: {agent}"
    );
    assert_eq!(agent["markdown"], full["markdown"]);
    assert_eq!(agent["elements"], full["elements"]);
    assert_eq!(agent["truncated"]["text"], false);

    let text_only = a.act(tab, "extract", json!({ "include": ["text"] })).await;
    a.close(tab).await;
    assert_eq!(text_only["text"], body_text);
    assert!(text_only.get("markdown").is_none(), "{text_only}");
    assert!(text_only.get("elements").is_none(), "{text_only}");
    assert_eq!(text_only["title"], full["title"]);
    assert_eq!(text_only["totalElements"], full["totalElements"]);
}

#[tokio::test]
async fn what_no_click_can_reach_is_hidden_and_a_link_to_a_url_shown_before_is_the_same_as_it() {
    let (_serial, a) = agent().await;
    let tab = a.open_tab("reach.html").await;
    let r = a.extract_with_refs(tab).await;
    let els = r["elements"].as_array().expect("elements").clone();
    let named = |name: &str| -> Vec<&Value> { els.iter().filter(|e| e["name"] == name).collect() };
    let one = |name: &str| -> &Value {
        let found = named(name);
        assert_eq!(found.len(), 1, "{name}: {els:#?}");
        found[0]
    };
    // Hidden: a closed menu's items, a zero-size icon link, screen-reader-only text.
    for name in [
        "Closed menu item",
        "Pricing",
        "Empty icon",
        "Screen reader only",
    ] {
        assert_eq!(one(name)["hidden"], true, "{name}: {:#}", one(name));
        assert!(
            one(name).get("visible").is_none(),
            "{name}: {:#}",
            one(name)
        );
    }
    // Reachable: both slides (scrolling the carousel brings the second), a button a scroller scrolled out
    // of view, a link positioned out of a clipping box that does not contain it, an inline link around a
    // block, a button; and a checkbox hidden for its looks behind its label is still offered.
    for name in [
        "Slide one",
        "Slide two",
        "Scrolled button",
        "Escapes the clip",
        "Block card",
        "Menu",
        "Remember me",
    ] {
        assert!(one(name).get("hidden").is_none(), "{name}: {:#}", one(name));
    }
    // The scrolled-away button's box is in the viewport but its scroller clips it: not on screen.
    assert!(
        one("Scrolled button").get("visible").is_none(),
        "{:#}",
        one("Scrolled button")
    );
    assert_eq!(
        one("Block card")["visible"],
        true,
        "{:#}",
        one("Block card")
    );
    // A link to the URL of a hidden one is not the same as it (it would vanish from the text), and links
    // with different scripts of their own are not the same as each other.
    assert!(
        one("Pricing plans").get("sameAs").is_none(),
        "{:#}",
        one("Pricing plans")
    );
    assert!(one("Add B").get("sameAs").is_none(), "{:#}", one("Add B"));
    // The footer's World goes where the nav's does; both Politics links of the nav and the footer go
    // where the markdown's `politics` goes.
    let worlds = named("World");
    assert_eq!(worlds.len(), 2, "{els:#?}");
    assert!(worlds[0].get("sameAs").is_none());
    assert_eq!(worlds[1]["sameAs"], worlds[0]["uid"]);
    let in_text = one("politics");
    assert_eq!(in_text["inMarkdown"], true);
    assert_eq!(one("Politics")["sameAs"], in_text["uid"]);
    assert_eq!(one("Politics again")["sameAs"], in_text["uid"]);
    // One URL and one analytics script (its words in strings): the same click; a script that reads
    // its link makes another.
    assert_eq!(one("Deal, again")["sameAs"], one("Deal of the day")["uid"]);
    assert!(one("Deal of the day").get("sameAs").is_none());
    assert!(
        one("Deal seen").get("sameAs").is_none(),
        "{:#}",
        one("Deal seen")
    );
    // Script links are told apart by their scripts, never by their URL.
    for e in named("Script link") {
        assert!(e.get("sameAs").is_none(), "{e}");
    }
    // What the flags say holds for a click: the hidden items cannot be clicked; the scrolled-away
    // button, the second slide and the second script link can, and the block card navigates.
    let uid = |name: &str| one(name)["uid"].as_str().unwrap().to_owned();
    for name in ["Closed menu item", "Screen reader only"] {
        // Refused: a click must not reach it.
        a.act_err(tab, "click", json!({ "uid": uid(name) })).await;
    }
    for (name, check, want) in [
        ("Scrolled button", "return window.scrolled", json!(1)),
        ("Slide two", "return window.slid", json!(2)),
        ("Add B", "return window.added", json!("B")),
    ] {
        a.act(tab, "click", json!({ "uid": uid(name) })).await;
        assert_eq!(a.eval(tab, check).await, want, "{name}");
    }
    let card = uid("Block card");
    a.act(tab, "click", json!({ "uid": card })).await;
    let path = eventually(Duration::from_secs(5), || async {
        let p = a.eval(tab, "return location.pathname").await;
        (p == "/extract/card.html").then_some(p)
    })
    .await;
    a.close(tab).await;
    assert_eq!(path, Some(json!("/extract/card.html")));
}
