//! The whole of `extract` as one pure step (SPEC §5): CDP responses in, the result's parts out.
//!
//! The wasm side only fetches (`DOMSnapshot.captureSnapshot`, which also gives URL, title and viewport
//! ([`super::snapshot::Dom::page`]), and `innerText` when asked) and
//! stores uids; every decision is made here, so the same code runs natively on dumped responses
//! (`tests/e2e/corpus.rs`) and in the extension.

use super::ax::{self, AxElement, ElementList};
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

/// The parts of an `extract` result (uids are given by the caller: [`analyze_numbered`]).
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
    let number = |elements: &[AxElement]| (0..elements.len()).map(ax::uid).collect();
    let (page, _) = analyze_numbered(
        url,
        title,
        inner_text,
        viewport,
        dom,
        refs,
        number,
        Slice::First,
    );
    page
}

/// Which share of the page one read returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slice {
    /// What `extract` returns: the elements capped at [`ax::MAX_ELEMENTS`], the markdown at
    /// [`markdown::MARKDOWN_MAX_BYTES`] (SPEC §5).
    First,
    /// The whole page, uncapped: every element, all the markdown (`find`, SPEC §4).
    Whole,
}

/// [`analyze_parsed`] with the uids of the listed elements given by `number` (the tab's stable uids,
/// SPEC §5: it gets the capped list in order and answers one uid each); returns them with the page.
/// `slice` says which share of the page is listed.
#[allow(clippy::too_many_arguments)] // the page's inputs, as analyze_parsed's, plus how to number and slice
pub fn analyze_numbered(
    url: &str,
    title: &str,
    inner_text: &str,
    viewport: (f64, f64),
    dom: &Dom,
    refs: bool,
    number: impl FnOnce(&[AxElement]) -> Vec<String>,
    slice: Slice,
) -> (PageExtract, Vec<String>) {
    let viewport = dom.viewport_rect(viewport.0, viewport.1);
    let all = ax::dom_elements(dom, viewport);
    let elements = match slice {
        Slice::First => ax::select(&all, ax::MAX_ELEMENTS),
        Slice::Whole => ax::select(&all, all.len()),
    };
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
    let uids = number(&elements.elements);
    let (markdown, in_markdown) = if refs {
        // A hidden link keeps its URL: its uid would offer a click that cannot land.
        let by_node: HashMap<i64, String> = elements
            .elements
            .iter()
            .zip(&uids)
            .filter(|(e, _)| !e.hidden)
            .map(|(e, uid)| (e.backend_node_id, uid.clone()))
            .collect();
        let (agent, named) = match slice {
            Slice::First => markdown::with_refs(&blocks, &by_node, url),
            Slice::Whole => {
                let (blocks, named) = markdown::name_refs(&blocks, &by_node, url);
                let text = markdown::render(&blocks);
                (
                    Markdown {
                        text,
                        truncated: false,
                    },
                    named,
                )
            }
        };
        let named: std::collections::HashSet<&String> = named.iter().collect();
        let flags = uids.iter().map(|u| named.contains(u)).collect();
        (agent, flags)
    } else if slice == Slice::Whole {
        let text = markdown::render(&blocks);
        (
            Markdown {
                text,
                truncated: false,
            },
            Vec::new(),
        )
    } else {
        (markdown, Vec::new())
    };
    let same_as = if refs {
        ax::repeats(&elements.elements, &in_markdown, url)
    } else {
        Vec::new()
    };
    let page = PageExtract {
        text,
        text_truncated,
        markdown,
        elements,
        obstacle,
        in_markdown,
        same_as,
    };
    (page, uids)
}

#[cfg(test)]
mod tests;
