//! The whole of `extract` as one pure step (SPEC §5): CDP responses in, the result's parts out.
//!
//! The wasm side only fetches (`DOMSnapshot.captureSnapshot`, which also gives URL, title and viewport
//! ([`super::snapshot::Dom::page`]), and `innerText` when asked) and
//! stores uids; every decision is made here, so the same code runs natively on dumped responses
//! (`tests/corpus.rs`) and in the extension.

use super::ax::{self, ElementList};
use super::markdown::{self, Markdown};
use super::obstacle::{self, ObstacleInput, Verdict};
use super::snapshot::{Dom, SnapshotError};
use super::text;
use std::collections::HashMap;

/// `innerText` is sliced in the page to this many UTF-16 units before it crosses CDP; more than
/// [`text::TEXT_MAX_BYTES`] bytes whatever the script, so the byte cap still decides.
pub const TEXT_SLICE_UNITS: usize = text::TEXT_MAX_BYTES + 1024;

/// The page script of extract's first `Runtime.evaluate` (`page_info.js`, a function of
/// `(sliceUnits, withText)`): URL, title, viewport (CSS px) and `innerText` (when `withText`) sliced to
/// `sliceUnits` UTF-16 units with its whole length. A file of its own so that the benchmark sends the
/// very same script.
pub const PAGE_INFO_JS: &str = include_str!("page_info.js");

/// The expression of extract's first `Runtime.evaluate`: [`PAGE_INFO_JS`] called with
/// [`TEXT_SLICE_UNITS`], `innerText` included.
pub fn page_info_expression() -> String {
    page_info_expression_of(true)
}

/// [`page_info_expression`], reading `innerText` only when `with_text` (SPEC §5 `include`):
/// without it the page is not asked for a text layout and the answer has `text: ""`.
pub fn page_info_expression_of(with_text: bool) -> String {
    format!("({PAGE_INFO_JS})({TEXT_SLICE_UNITS}, {with_text})")
}

/// What the page gave us over CDP.
#[derive(Debug, Clone, Copy)]
pub struct PageInputs<'a> {
    /// `location.href`.
    pub url: &'a str,
    /// `document.title`.
    pub title: &'a str,
    /// `document.body.innerText` (uncapped).
    pub inner_text: &'a str,
    /// `innerWidth` × `innerHeight`, CSS px.
    pub viewport: (f64, f64),
    /// The result of `DOMSnapshot.captureSnapshot` with [`super::snapshot::capture_params`].
    pub snapshot: &'a serde_json::Value,
}

/// The parts of an `extract` result (uids are given by the caller's [`ax::UidCache`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PageExtract {
    /// `innerText` capped at [`text::TEXT_MAX_BYTES`].
    pub text: String,
    /// `truncated.text`.
    pub text_truncated: bool,
    /// Markdown capped at [`markdown::MARKDOWN_MAX_BYTES`] (with `truncated.markdown`).
    pub markdown: Markdown,
    /// Interactive elements (with `truncated.elements` and `totalElements`).
    pub elements: ElementList,
    /// The classifier's verdict, if any.
    pub obstacle: Option<Verdict>,
    /// With `refs` (SPEC §5): which of `elements` the markdown names by uid (same order).
    pub in_markdown: Vec<bool>,
    /// With `refs`: for each of `elements`, the one shown before it that goes to the same URL
    /// ([`ax::repeats`]).
    pub same_as: Vec<Option<usize>>,
}

/// Runs markdown conversion, element selection and the obstacle classifier on one page.
///
/// Errors: [`SnapshotError`] when the snapshot is malformed.
pub fn analyze(input: &PageInputs<'_>) -> Result<PageExtract, SnapshotError> {
    let dom = Dom::from_snapshot(input.snapshot)?;
    Ok(analyze_parsed(
        input.url,
        input.title,
        input.inner_text,
        input.viewport,
        &dom,
        false,
    ))
}

/// [`analyze`] on an already parsed snapshot; see [`PageInputs`] for the other arguments.
///
/// The elements come from the snapshot ([`ax::dom_elements`], SPEC §5), not from
/// `Accessibility.getFullAXTree`: `chrome.debugger` hands the AX tree to the worker as a JS object,
/// which cost more than the rest of an extract together (docs/BENCHMARKS.md: on a 1,000-node page
/// 149 ms of a 195 ms extract, against 38.8 ms for Playwright's whole `ariaSnapshot()`), and the
/// snapshot already has what the elements need: roles from the HTML and ARIA attributes, names,
/// live values and checked states, boxes, and the `backendNodeId` the uid cache stores.
///
/// `refs`: the markdown returned names listed links by uid ([`markdown::with_refs`]); the classifier
/// still reads the plain markdown, whose links keep their URLs.
pub fn analyze_parsed(
    url: &str,
    title: &str,
    inner_text: &str,
    viewport: (f64, f64),
    dom: &Dom,
    refs: bool,
) -> PageExtract {
    let viewport = dom.viewport_rect(viewport.0, viewport.1);
    let all = ax::dom_elements(dom, viewport);
    let elements = ax::select(&all, ax::MAX_ELEMENTS);
    let blocks = markdown::build(dom);
    let markdown = markdown::capped(&blocks);
    // The classifier reads every interactive element, not only the capped list: a sign-in form below
    // 300 links is still a sign-in form.
    let obstacle = obstacle::classify(&ObstacleInput {
        url,
        title,
        markdown: &markdown.text,
        elements: &all,
        captcha_frame: dom.has_captcha_frame(),
        challenge_form: dom
            .form_actions
            .iter()
            .any(|a| obstacle::is_interstitial_url(a)),
    });
    let (text, text_truncated) = text::cap_text(inner_text);
    let (markdown, in_markdown) = if refs {
        // uids are the list's indices (`ax::uid`), as the tab's uid cache gives them.
        // A hidden link keeps its URL: its uid would offer a click that cannot land.
        let uids: HashMap<i64, String> = elements
            .elements
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.hidden)
            .map(|(i, e)| (e.backend_node_id, ax::uid(i)))
            .collect();
        let (agent, named) = markdown::with_refs(&blocks, &uids, url);
        let mut flags = vec![false; elements.elements.len()];
        for i in named.iter().filter_map(|u| ax::parse_uid(u)) {
            flags[i] = true;
        }
        (agent, flags)
    } else {
        (markdown, Vec::new())
    };
    let same_as = if refs {
        ax::repeats(&elements.elements, &in_markdown, url)
    } else {
        Vec::new()
    };
    PageExtract {
        text,
        text_truncated,
        markdown,
        elements,
        obstacle,
        in_markdown,
        same_as,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tests/fixtures/extract/composed.html` as real Chromium served it, dumped by
    /// `tests/corpus_dump.py --fixtures` (snapshot, AX trees of the page and its iframe, innerText).
    const DUMP: &str = include_str!("../../tests/fixtures/extract/composed.dump.json");

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
                    `inline_code()` and *emphasis*.\n\n- One\n- Two\n  1. Two point one\n\n| Name | Qty |\n| --- | --- |\n\
                    | Apple | 3 |\n\n```\nfn main() {\n    println!(\"hi\");\n}\n```\n\n> Quoted words\n\n\
                    ![A picture](http://127.0.0.1:38083/img/a.png)\n\n## Open shadow heading\n\n\
                    Slotted light text then Default slot light text\n\nOpen shadow button\n\nClosed shadow paragraph\n\n\
                    Closed shadow button\n\nText inside the iframe\n\nFrame button [Frame link](http://127.0.0.1:38083/base/dir/x.html)\n\n\
                    Email Go";
        assert_eq!(r.markdown.text, want);
        assert!(!r.markdown.truncated);
        for gone in [
            "Hidden",
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
                let checked = ax::AxTree::from_response_json(
                    &serde_json::json!({ "nodes": [n] }).to_string(),
                )
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
}
