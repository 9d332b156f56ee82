use super::*;

/// `tests/fixtures/extract/composed.html` as real Chromium served it, dumped by
/// `tests/corpus_dump.py --fixtures` (snapshot, AX trees of the page and its iframe, innerText).
const DUMP: &str = include_str!("../../../tests/fixtures/extract/composed.dump.json");

fn analyzed() -> PageExtract {
    let page: serde_json::Value = serde_json::from_str(DUMP).unwrap();
    analyze(&PageInputs {
        url: page["url"].as_str().unwrap(),
        title: page["title"].as_str().unwrap(),
        inner_text: page["innerText"].as_str().unwrap(),
        viewport: (1280.0, 713.0),
        snapshot: &page["snapshot"],
    })
    .unwrap()
}

#[test]
fn the_page_info_script_is_called_with_the_text_slice() {
    let expression = page_info_expression();
    assert!(expression.starts_with("(// "), "{expression}");
    assert!(
        expression.ends_with(&format!("}}\n)({TEXT_SLICE_UNITS}, true)")),
        "{expression}"
    );
    assert!(page_info_expression_of(false).ends_with(", false)"));
    assert!(PAGE_INFO_JS.contains("(sliceUnits, withText) => {"));
}

#[test]
fn the_snapshot_says_the_pages_url_title_and_viewport_as_the_page_script_did() {
    let page: serde_json::Value = serde_json::from_str(DUMP).unwrap();
    let dom = Dom::from_snapshot(&page["snapshot"]).unwrap();
    let (url, title, viewport) = dom.page();
    assert_eq!(url, page["url"].as_str().unwrap());
    assert_eq!(title, page["title"].as_str().unwrap());
    let inner = (
        page["viewport"]["width"].as_f64().unwrap(),
        page["viewport"]["height"].as_f64().unwrap(),
    );
    assert_eq!(viewport, Some(inner));
}

#[test]
fn with_refs_the_flagged_elements_are_exactly_the_uids_the_markdown_names() {
    let page: serde_json::Value = serde_json::from_str(DUMP).unwrap();
    let dom = Dom::from_snapshot(&page["snapshot"]).unwrap();
    let url = page["url"].as_str().unwrap();
    let r = analyze_parsed(url, "t", "", (1280.0, 713.0), &dom, true);
    assert_eq!(r.in_markdown.len(), r.elements.elements.len());
    assert!(r.in_markdown.iter().any(|f| *f), "{}", r.markdown.text);
    for (i, flagged) in r.in_markdown.iter().enumerate() {
        let uid = ax::uid(i);
        let named = r.markdown.text.contains(&format!("]({uid} "))
            || r.markdown.text.contains(&format!("]({uid})"));
        assert_eq!(*flagged, named, "{uid} in {}", r.markdown.text);
    }
    assert!(
        r.markdown.text.contains("[Frame link](e"),
        "{}",
        r.markdown.text
    );
    // The classifier and a result without refs keep the URLs.
    let plain = analyze_parsed(url, "t", "", (1280.0, 713.0), &dom, false);
    assert!(plain.in_markdown.is_empty());
    assert!(plain.markdown.text.contains("[Frame link](http://"));
}

#[test]
fn real_chromium_page_gives_the_content_markdown() {
    let r = analyzed();
    let want = "# Main title\n\nFirst paragraph with [a relative link](http://127.0.0.1:38083/base/dir/rel/page.html), \
                    `inline_code()` and *emphasis*.\n\nHidden from accessibility\n\n- One\n- Two\n  1. Two point one\n\n| Name | Qty |\n| --- | --- |\n\
                    | Apple | 3 |\n\n```\nfn main() {\n    println!(\"hi\");\n}\n```\n\n> Quoted words\n\n\
                    ![A picture](http://127.0.0.1:38083/img/a.png)\n\n## Open shadow heading\n\n\
                    Slotted light text then Default slot light text\n\nOpen shadow button\n\nClosed shadow paragraph\n\n\
                    Closed shadow button\n\nText inside the iframe\n\nFrame button [Frame link](http://127.0.0.1:38083/base/dir/x.html)\n\n\
                    Email Go";
    assert_eq!(r.markdown.text, want);
    assert!(!r.markdown.truncated);
    for gone in [
        "Zero size",
        "cookies",
        "Aside",
        "Footer",
        "Site logo",
        "svg text",
        "No script",
    ] {
        assert!(!r.markdown.text.contains(gone), "{gone}");
    }
}

#[test]
fn real_chromium_page_lists_shadow_and_iframe_controls_in_document_order() {
    let r = analyzed();
    let got: Vec<(String, Option<String>)> = r
        .elements
        .elements
        .iter()
        .map(|e| (e.role.clone(), e.name.clone()))
        .collect();
    let s = |role: &str, name: Option<&str>| (role.to_string(), name.map(str::to_string));
    assert_eq!(
        got,
        vec![
            s("link", Some("Site logo")),
            s("link", Some("Home")),
            s("link", Some("Log in")),
            s("button", Some("Accept")),
            s("link", Some("a relative link")),
            s("button", Some("Open shadow button")),
            s("button", Some("Closed shadow button")),
            s("button", Some("Frame button")),
            s("link", Some("Frame link")),
            s("textbox", Some("Password")),
            s("textbox", None),
            s("textbox", Some("Email")),
            s("button", Some("Go")),
        ]
    );
    assert_eq!(r.elements.total, 13);
    assert_eq!(r.elements.elements[11].value.as_deref(), Some("a@b.c"));
    assert_eq!(
        r.elements.elements[10].input_type.as_deref(),
        Some("password")
    );
    // The top of the page is in the 1280×713 viewport, the iframe's content is not.
    assert_eq!(r.elements.elements[3].visible, Some(true));
    assert!(!r.text_truncated);
    assert!(r.text.contains("Main title"));
}

/// The snapshot's elements agree with Chrome's own accessibility tree of the same page (the AX nodes
/// dumped with it, main frame and iframe): the same nodes — every AX node of an interactive role that
/// the snapshot has — with the same roles, names, values and checked states (read as `extract` reads
/// a checked state from `Accessibility.getPartialAXTree`, [`ax::AxTree::first_checked`]), and each
/// visible when its box is in the viewport.
#[test]
fn real_chromium_page_has_the_same_elements_as_its_ax_tree() {
    let page: serde_json::Value = serde_json::from_str(DUMP).unwrap();
    let dom = Dom::from_snapshot(&page["snapshot"]).unwrap();
    let viewport = dom.viewport_rect(1280.0, 713.0);
    let text = |v: &serde_json::Value| {
        let t = match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => return None,
        };
        Some(text::collapse(&t)).filter(|t| !t.is_empty())
    };
    let frames = page["ax"]["frames"].as_array().unwrap().iter();
    let nodes = page["ax"]["main"]
        .as_array()
        .unwrap()
        .iter()
        .chain(frames.flat_map(|f| f["nodes"].as_array().unwrap()));
    let mut from_ax: Vec<_> = nodes
        .filter(|n| !n["ignored"].as_bool().unwrap_or(false))
        .filter_map(|n| {
            let role = n["role"]["value"].as_str()?;
            let backend = n["backendDOMNodeId"].as_i64()?;
            let listed = bua_protocol::INTERACTIVE_ROLES
                .contains(&role.to_ascii_lowercase().as_str())
                && dom.by_backend.contains_key(&backend);
            let checked =
                ax::AxTree::from_response_json(&serde_json::json!({ "nodes": [n] }).to_string())
                    .unwrap()
                    .first_checked();
            listed.then(|| {
                (
                    backend,
                    role.to_string(),
                    text(&n["name"]["value"]),
                    text(&n["value"]["value"]),
                    checked,
                    Some(
                        dom.rects
                            .get(&backend)
                            .is_some_and(|r| r.intersects(&viewport)),
                    ),
                )
            })
        })
        .collect();
    from_ax.sort_by_key(|e| e.0);
    let mut from_dom: Vec<_> = ax::dom_elements(&dom, viewport)
        .into_iter()
        .map(|e| {
            (
                e.backend_node_id,
                e.role,
                e.name,
                e.value,
                e.checked,
                e.visible,
            )
        })
        .collect();
    from_dom.sort_by_key(|e| e.0);
    assert_eq!(from_dom.len(), 13);
    assert_eq!(from_dom, from_ax);
}

#[test]
fn a_malformed_snapshot_is_an_error() {
    let bad = serde_json::json!({"documents": "nope"});
    let input = PageInputs {
        url: "https://a.test/",
        title: "",
        inner_text: "",
        viewport: (800.0, 600.0),
        snapshot: &bad,
    };
    assert!(matches!(analyze(&input), Err(SnapshotError::Json(_))));
}
