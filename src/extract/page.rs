//! The whole of `extract` as one pure step (SPEC §5): CDP responses in, the result's parts out.
//!
//! The wasm side only fetches (`DOMSnapshot.captureSnapshot`, which also gives URL, title and viewport
//! ([`super::snapshot::Dom::page`]), and `innerText` when asked) and
//! stores uids; every decision is made here, so the same code runs natively on dumped responses
//! (`tests/e2e/corpus.rs`) and in the extension.

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
    let mut elements = ax::select(&all, ax::MAX_ELEMENTS);
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
    // A context tells apart elements the agent reads side by side: those the text lists (SPEC §9).
    let listed: Vec<bool> = (0..elements.elements.len())
        .map(|i| {
            !in_markdown.get(i).copied().unwrap_or(false)
                && same_as.get(i).copied().flatten().is_none()
        })
        .collect();
    ax::prune_contexts(&mut elements.elements, &listed);
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
mod tests;
