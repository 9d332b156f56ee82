//! The whole of `extract` as one pure step (SPEC §5): CDP responses in, the result's parts out.
//!
//! The wasm side only fetches (`DOMSnapshot.captureSnapshot`, which also gives URL, title and viewport
//! ([`super::snapshot::Dom::page`]), and `innerText` when asked) and
//! stores uids; every decision is made here, so the same code runs natively on dumped responses
//! (`tests/e2e/corpus.rs`) and in the extension.

use super::ax::{self, AxElement, ElementList};
use super::markdown::{self, Block, Markdown};
use super::obstacle::{self, ObstacleInput, Verdict};
use super::pages;
use super::snapshot::{Dom, SnapshotError};
use super::text;
use std::collections::{HashMap, HashSet};

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
    /// Which page of the page this read is (SPEC §5 "Pages"), 1 for the default read.
    pub page: usize,
    /// How many pages the page is read in: 1 when one read holds it.
    pub pages: usize,
    /// Whether the markdown is read in chunks, one a page (what page 1 decided; pages after it follow it).
    pub markdown_paged: bool,
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
    let page = ParsedPage {
        url,
        title,
        inner_text,
        viewport,
        dom,
        refs,
    };
    analyze_numbered(&page, number, Slice::First).0
}

/// A page as [`analyze_numbered`] reads it: [`PageInputs`] with the snapshot parsed.
pub struct ParsedPage<'a> {
    /// `location.href`.
    pub url: &'a str,
    /// `document.title`.
    pub title: &'a str,
    /// `document.body.innerText` (uncapped).
    pub inner_text: &'a str,
    /// `innerWidth` × `innerHeight`, CSS px.
    pub viewport: (f64, f64),
    /// The parsed `DOMSnapshot.captureSnapshot` answer.
    pub dom: &'a Dom,
    /// The markdown names listed links by uid ([`markdown::with_refs`]).
    pub refs: bool,
}

/// Which share of the page one read returns (SPEC §5 "Pages").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slice<'a> {
    /// What `extract` returns by default, page 1: the elements capped at [`ax::MAX_ELEMENTS`] (the
    /// in-viewport ones first), the markdown at [`markdown::MARKDOWN_MAX_BYTES`] — or, when it is longer,
    /// its first chunk ([`pages::chunks`]).
    First,
    /// Page `n` ≥ 2 of a page read in pages, as the page-1 read laid it out: `first` the `backendNodeId`s
    /// page 1 listed and `markdown_paged` whether its markdown went on in chunks (when known; else they
    /// are worked out from the page as it is now).
    Page {
        /// The page, 2 or more.
        n: usize,
        /// The elements page 1 listed.
        first: Option<&'a HashSet<i64>>,
        /// Whether page 1's markdown was cut into chunks.
        markdown_paged: Option<bool>,
    },
    /// The whole page, uncapped: every element, all the markdown (`find`, SPEC §4).
    Whole,
}

/// [`analyze_parsed`] with the uids of the listed elements given by `number` (the tab's stable uids,
/// SPEC §5: it gets the capped list in order and answers one uid each); returns them with the page.
/// `slice` says which share of the page is listed.
pub fn analyze_numbered(
    input: &ParsedPage<'_>,
    number: impl FnOnce(&[AxElement]) -> Vec<String>,
    slice: Slice<'_>,
) -> (PageExtract, Vec<String>) {
    let viewport = input.dom.viewport_rect(input.viewport.0, input.viewport.1);
    let all = ax::dom_elements(input.dom, viewport);
    let first_pick = ax::select(&all, ax::MAX_ELEMENTS);
    let blocks = markdown::build(input.dom);
    let markdown = markdown::capped(&blocks);
    // The classifier reads every interactive element, not only the capped list: a sign-in form below
    // 300 links is still a sign-in form.
    let obstacle = obstacle::classify(&ObstacleInput {
        url: input.url,
        title: input.title,
        markdown: &markdown.text,
        elements: &all,
        captcha_frame: input.dom.has_captcha_frame(),
        challenge_form: input
            .dom
            .form_actions
            .iter()
            .any(|a| obstacle::is_interstitial_url(a)),
    });
    let (text, text_truncated) = text::cap_text(input.inner_text);
    // Page 1's elements: the ones it listed, else the ones it would list now.
    let first: Vec<bool> = match slice {
        Slice::Page {
            first: Some(listed),
            ..
        } => all
            .iter()
            .map(|e| listed.contains(&e.backend_node_id))
            .collect(),
        _ => {
            let picked: HashSet<i64> = first_pick
                .elements
                .iter()
                .map(|e| e.backend_node_id)
                .collect();
            all.iter()
                .map(|e| picked.contains(&e.backend_node_id))
                .collect()
        }
    };
    let element_pages = pages::element_pages(all.len(), first.iter().filter(|f| **f).count());
    let (n, mut elements) = match slice {
        Slice::First => (1, first_pick),
        Slice::Page { n, .. } => {
            let listed = pages::element_page(&first, n);
            let elements = listed.iter().map(|&i| all[i].clone()).collect();
            (
                n,
                ElementList {
                    elements,
                    total: all.len(),
                    truncated: element_pages > 1,
                },
            )
        }
        Slice::Whole => (1, ax::select(&all, all.len())),
    };
    let uids = number(&elements.elements);
    // A hidden link keeps its URL: its uid would offer a click that cannot land.
    let by_node: HashMap<i64, String> = match input.refs {
        true => elements
            .elements
            .iter()
            .zip(&uids)
            .filter(|(e, _)| !e.hidden)
            .map(|(e, uid)| (e.backend_node_id, uid.clone()))
            .collect(),
        false => HashMap::new(),
    };
    let refs_to = input.refs.then_some((&by_node, input.url));
    let read = match slice {
        Slice::Whole => whole_markdown(&blocks, refs_to),
        Slice::First => first_markdown(&blocks, markdown, refs_to),
        Slice::Page {
            n, markdown_paged, ..
        } => {
            let paged = markdown_paged.unwrap_or(markdown.truncated);
            page_markdown(&blocks, paged, n, refs_to)
        }
    };
    let in_markdown = match input.refs {
        true => {
            let named: HashSet<&String> = read.named.iter().collect();
            uids.iter().map(|u| named.contains(u)).collect()
        }
        false => Vec::new(),
    };
    let same_as = if input.refs {
        ax::repeats(&elements.elements, &in_markdown, input.url)
    } else {
        Vec::new()
    };
    let pages = match slice {
        Slice::Whole => 1,
        _ => element_pages.max(read.chunks),
    };
    // A context tells apart elements the agent reads side by side: those the text lists (SPEC §9).
    let listed: Vec<bool> = (0..elements.elements.len())
        .map(|i| {
            !in_markdown.get(i).copied().unwrap_or(false)
                && same_as.get(i).copied().flatten().is_none()
        })
        .collect();
    ax::prune_contexts(&mut elements.elements, &listed);
    let page = PageExtract {
        text,
        text_truncated,
        markdown: read.markdown,
        elements,
        obstacle,
        in_markdown,
        same_as,
        page: n,
        pages,
        markdown_paged: read.chunks > 1,
    };
    (page, uids)
}

/// One read's markdown: the text, the uids it names, and how many chunks the page's markdown is read in.
struct MarkdownRead {
    markdown: Markdown,
    named: Vec<String>,
    chunks: usize,
}

/// Where the links of a read's listed elements are named by uid (`refs`, SPEC §5): uid by `backendNodeId`,
/// and the page's URL.
type RefsTo<'a> = Option<(&'a HashMap<i64, String>, &'a str)>;

/// `blocks` rendered whole, links named by uid with `refs`.
fn rendered(blocks: &[Block], refs: RefsTo<'_>, truncated: bool) -> (Markdown, Vec<String>) {
    let (blocks, named) = match refs {
        Some((uids, url)) => markdown::name_refs(blocks, uids, url),
        None => (blocks.to_vec(), Vec::new()),
    };
    let text = markdown::render(&blocks);
    (Markdown { text, truncated }, named)
}

/// All of the markdown (`find`).
fn whole_markdown(blocks: &[Block], refs: RefsTo<'_>) -> MarkdownRead {
    let (markdown, named) = rendered(blocks, refs, false);
    MarkdownRead {
        markdown,
        named,
        chunks: 1,
    }
}

/// Page 1's markdown: as `extract` always gave it when it fits the cap (`plain`, the capped plain text, or
/// the text with refs); else the first of its chunks.
fn first_markdown(blocks: &[Block], plain: Markdown, refs: RefsTo<'_>) -> MarkdownRead {
    let (markdown, named) = match refs {
        Some((uids, url)) => markdown::with_refs(blocks, uids, url),
        None => (plain, Vec::new()),
    };
    if !markdown.truncated {
        return MarkdownRead {
            markdown,
            named,
            chunks: 1,
        };
    }
    page_markdown(blocks, true, 1, refs)
}

/// Chunk `n` (1-based) of the markdown when it is read in chunks (`paged`); nothing on a page past the last
/// chunk, or past page 1 of a markdown that fit.
fn page_markdown(blocks: &[Block], paged: bool, n: usize, refs: RefsTo<'_>) -> MarkdownRead {
    let chunks = match paged {
        true => pages::chunks(blocks, pages::CHUNK_MAX_BYTES),
        false => Vec::new(),
    };
    let count = chunks.len().max(1);
    let (markdown, named) = match chunks.get(n.wrapping_sub(1)) {
        Some(chunk) => rendered(chunk, refs, n < count),
        None => (Markdown::default(), Vec::new()),
    };
    MarkdownRead {
        markdown,
        named,
        chunks: count,
    }
}

#[cfg(test)]
mod tests;
