//! The whole of `extract` as one pure step (SPEC §5): CDP responses in, the result's parts out.
//!
//! The wasm side only fetches (`DOMSnapshot.captureSnapshot`, `Accessibility.getFullAXTree` per frame,
//! `innerText`, URL, title, viewport) and stores uids; every decision is made here, so the same code
//! runs natively on dumped responses (`tests/corpus.rs`) and in the extension.

use super::ax::{self, AxTree, ElementList};
use super::markdown::{self, Markdown};
use super::obstacle::{self, ObstacleInput, Verdict};
use super::snapshot::{Dom, SnapshotError};
use super::text;

/// Pages with more DOM nodes than this (all frames) take their elements from the DOM snapshot
/// ([`ax::dom_elements`]) instead of `Accessibility.getFullAXTree`. The AX tree reaches the worker
/// through `chrome.debugger`, which hands it over as a JS object: about 3× its raw CDP time (measured
/// with `bua-bench`, see docs/BENCHMARKS.md: a 10,000-node page with 1,000 controls: 1.6 s against 0.5 s, extract 2.8 s; with the DOM path
/// 1.0 s). Above a few thousand nodes that costs more than the whole DOM path, and at 5,000 interactive
/// rows (40,000 AX nodes, 18 MB of JSON) longer than the 20 s the action has. The corpus scores (markdown
/// recall, obstacle verdicts) are the same with 5,000 as with 20,000.
pub const AX_TREE_MAX_DOM_NODES: usize = 5_000;

/// `innerText` is sliced in the page to this many UTF-16 units before it crosses CDP; more than
/// [`text::TEXT_MAX_BYTES`] bytes whatever the script, so the byte cap still decides.
pub const TEXT_SLICE_UNITS: usize = text::TEXT_MAX_BYTES + 1024;

/// The page script of extract's first `Runtime.evaluate` (`page_info.js`, a function of
/// `(maxNodes, sliceUnits, withText)`): URL, title, viewport (CSS px), `innerText` (when `withText`) sliced to `sliceUnits` UTF-16
/// units with its whole length, and the main document's node count (document, doctype, elements, text,
/// comments) up to `maxNodes + 1`, or `-1` when a page script broke the tree walker. A file of its own so
/// that the benchmark sends the very same script.
pub const PAGE_INFO_JS: &str = include_str!("page_info.js");

/// The expression of extract's first `Runtime.evaluate`: [`PAGE_INFO_JS`] called with
/// [`AX_TREE_MAX_DOM_NODES`] and [`TEXT_SLICE_UNITS`], `innerText` included.
pub fn page_info_expression() -> String {
    page_info_expression_of(true)
}

/// [`page_info_expression`], reading `innerText` only when `with_text` (SPEC §5 `include`):
/// without it the page is not asked for a text layout and the answer has `text: ""`.
pub fn page_info_expression_of(with_text: bool) -> String {
    format!("({PAGE_INFO_JS})({AX_TREE_MAX_DOM_NODES}, {TEXT_SLICE_UNITS}, {with_text})")
}

/// Whether `extract` should fetch the AX trees of a page with `dom_nodes` DOM nodes (see
/// [`AX_TREE_MAX_DOM_NODES`]). The extension counts the main document's nodes in its first
/// `Runtime.evaluate`, so that the AX tree can be asked for while the snapshot is still being built;
/// the native runner counts the snapshot's ([`uses_ax_tree`]). Both count the document, doctype,
/// elements, text and comments; the snapshot also has same-origin frames, shadow trees and
/// pseudo-elements, so near the threshold the two may differ (a page of a few thousand nodes either way).
pub fn uses_ax_tree_count(dom_nodes: usize) -> bool {
    dom_nodes <= AX_TREE_MAX_DOM_NODES
}

/// [`uses_ax_tree_count`] on the snapshot's nodes (all documents).
pub fn uses_ax_tree(dom: &Dom) -> bool {
    uses_ax_tree_count(dom.nodes.len())
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
    /// The `nodes` of `Accessibility.getFullAXTree`: main frame first, then same-origin frames
    /// (ignored when the page is too big for the AX tree: [`uses_ax_tree`]).
    pub ax_trees: &'a [serde_json::Value],
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
}

/// Why the CDP responses could not be used.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// `DOMSnapshot.captureSnapshot` gave something unusable.
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    /// `Accessibility.getFullAXTree` gave something unusable.
    #[error(transparent)]
    Ax(#[from] ax::AxError),
}

/// Runs markdown conversion, element selection and the obstacle classifier on one page.
///
/// Errors: [`PageError`] when the snapshot or the main frame's AX tree is malformed (a malformed
/// child-frame tree is skipped).
pub fn analyze(input: &PageInputs<'_>) -> Result<PageExtract, PageError> {
    let dom = Dom::from_snapshot(input.snapshot)?;
    let mut trees = Vec::with_capacity(input.ax_trees.len());
    let ax_trees = if uses_ax_tree(&dom) {
        input.ax_trees
    } else {
        &[]
    };
    for (i, nodes) in ax_trees.iter().enumerate() {
        match AxTree::from_nodes(nodes) {
            Ok(t) => trees.push(t),
            Err(e) if i == 0 => return Err(e.into()),
            Err(_) => {}
        }
    }
    Ok(analyze_parsed(
        input.url,
        input.title,
        input.inner_text,
        input.viewport,
        &dom,
        uses_ax_tree(&dom).then_some(&trees[..]),
    ))
}

/// [`analyze`] on an already parsed snapshot and AX trees (main frame first; `None` when the page
/// is too big for them, [`uses_ax_tree`]); see [`PageInputs`] for the other arguments.
pub fn analyze_parsed(
    url: &str,
    title: &str,
    inner_text: &str,
    viewport: (f64, f64),
    dom: &Dom,
    trees: Option<&[AxTree]>,
) -> PageExtract {
    let viewport = dom.viewport_rect(viewport.0, viewport.1);
    let all = match trees {
        Some(trees) => ax::interactive_elements(trees, dom, viewport),
        None => ax::dom_elements(dom, viewport),
    };
    let elements = ax::select(&all, ax::MAX_ELEMENTS);
    let markdown = markdown::to_markdown(dom);
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
    PageExtract {
        text,
        text_truncated,
        markdown,
        elements,
        obstacle,
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
        let mut trees = vec![page["ax"]["main"].clone()];
        for f in page["ax"]["frames"].as_array().unwrap() {
            trees.push(f["nodes"].clone());
        }
        analyze(&PageInputs {
            url: page["url"].as_str().unwrap(),
            title: page["title"].as_str().unwrap(),
            inner_text: page["innerText"].as_str().unwrap(),
            viewport: (1280.0, 713.0),
            snapshot: &page["snapshot"],
            ax_trees: &trees,
        })
        .unwrap()
    }

    #[test]
    fn the_page_info_script_is_called_with_the_node_limit_and_the_text_slice() {
        let expression = page_info_expression();
        assert!(expression.starts_with("(// "), "{expression}");
        assert!(
            expression.ends_with(&format!(
                "}}\n)({AX_TREE_MAX_DOM_NODES}, {TEXT_SLICE_UNITS}, true)"
            )),
            "{expression}"
        );
        assert!(page_info_expression_of(false).ends_with(", false)"));
        assert!(PAGE_INFO_JS.contains("(maxNodes, sliceUnits, withText) => {"));
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

    #[test]
    fn malformed_cdp_responses_are_errors() {
        let bad = serde_json::json!({"documents": "nope"});
        let trees = [serde_json::json!([])];
        let input = PageInputs {
            url: "https://a.test/",
            title: "",
            inner_text: "",
            viewport: (800.0, 600.0),
            snapshot: &bad,
            ax_trees: &trees,
        };
        assert!(matches!(analyze(&input), Err(PageError::Snapshot(_))));
        let page: serde_json::Value = serde_json::from_str(DUMP).unwrap();
        let trees = [serde_json::json!({"not": "a list"})];
        let input = PageInputs {
            snapshot: &page["snapshot"],
            ax_trees: &trees,
            ..input
        };
        assert!(matches!(analyze(&input), Err(PageError::Ax(_))));
    }
}
