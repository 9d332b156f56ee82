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
    /// The `nodes` of `Accessibility.getFullAXTree`: main frame first, then same-origin frames.
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
    for (i, nodes) in input.ax_trees.iter().enumerate() {
        match AxTree::from_nodes(nodes) {
            Ok(t) => trees.push(t),
            Err(e) if i == 0 => return Err(e.into()),
            Err(_) => {}
        }
    }
    let viewport = dom.viewport_rect(input.viewport.0, input.viewport.1);
    let all = ax::interactive_elements(&trees, &dom, viewport);
    let elements = ax::select(&all, ax::MAX_ELEMENTS);
    let markdown = markdown::to_markdown(&dom);
    // The classifier reads every interactive element, not only the capped list: a sign-in form below
    // 300 links is still a sign-in form.
    let obstacle = obstacle::classify(&ObstacleInput {
        url: input.url,
        title: input.title,
        markdown: &markdown.text,
        elements: &all,
        captcha_frame: dom.has_captcha_frame(),
        challenge_form: dom
            .form_actions
            .iter()
            .any(|a| obstacle::is_interstitial_url(a)),
    });
    let (text, text_truncated) = text::cap_text(input.inner_text);
    Ok(PageExtract {
        text,
        text_truncated,
        markdown,
        elements,
        obstacle,
    })
}
