//! `extract` (SPEC §5): the page as markdown, text, interactive elements with uids, and an obstacle verdict.
//!
//! Everything that decides is pure and runs natively: [`snapshot`] (CDP `DOMSnapshot.captureSnapshot` →
//! composed DOM tree), [`markdown`] (DOM → block IR → Markdown), [`ax`] (DOM → interactive elements,
//! uid cache), [`obstacle`] (the five-layer classifier), [`text`] (size caps) and
//! [`page`] (all of it in one step). This file is the thin I/O around them: it fetches the CDP responses
//! for a tab (the dispatcher has already attached the debugger), keeps one [`uids::UidCache`] per tab (a
//! node keeps its uid while it is in the document, SPEC §5), and resolves uids for the element-taking
//! actions.

pub mod ax;
pub mod diff;
pub mod markdown;
pub mod obstacle;
pub mod page;
pub mod pager;
pub mod pages;
mod remote;
pub mod snapshot;
pub mod text;
pub mod uids;
pub mod view;

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use bua_protocol::{
    Checked, Confidence, Extract, ExtractElement, ExtractPart, ExtractResult, Obstacle,
    ObstacleType, Truncated,
};

use crate::cdp::commands::{AccessibilityGetPartialAxTree, RuntimeEvaluate};
use crate::cdp::{self, Target};
use crate::error::{Error, Result};
// A node, for its stable uid and for the pager: where its id is valid, and the id.
use pager::Node as NodeKey;
use remote::{frame_keys, remote_frames, send_text, FrameKey};

thread_local! {
    /// Per tab, the uid of every node an extract listed since the main frame's last navigation.
    static UIDS: RefCell<std::collections::HashMap<i64, uids::UidCache<NodeKey>>> = RefCell::new(Default::default());
    static LISTENING: Cell<bool> = const { Cell::new(false) };
    /// Per tab, the target of each part of its latest extract (0: the tab; `k`: frame `f<k>`), with the
    /// part's [`FrameKey`].
    static FRAMES: RefCell<std::collections::HashMap<i64, Vec<(FrameKey, Target)>>> = RefCell::new(Default::default());
}

/// Runs `extract` on `tab_id` (SPEC §5): fetches the DOM snapshot (main frame and same-origin frames;
/// it also says the URL, title and viewport) and the cross-origin frames' snapshots, converts them with
/// [`page::analyze_parsed`], and replaces the tab's uid cache with the new elements (`e0`, `e1`, … in
/// document order).
///
/// `params.include` selects the parts sent: `innerText` is read from the page only when `text` is
/// wanted, by a `Runtime.evaluate` sent together with the snapshot (Chrome builds the snapshot while it
/// evaluates). Markdown and elements are computed either way (the obstacle classifier reads both), but a
/// result without `elements` leaves the tab's uid cache as the last extract that listed them.
///
/// Errors: whatever a CDP command gives ([`Error::Timeout`], [`Error::SessionNotFound`], …), and
/// [`Error::Internal`] when a CDP response does not have the documented shape.
///
/// `params.page` n ≥ 2 reads page n of a page too long for one read (SPEC §5 "Pages", [`pages`]): the elements
/// page 1 did not list ([`pager`] keeps which it listed), and the markdown's n-th chunk. Only page 1 is the
/// agent's view of the tab. A page past the last is [`Error::InvalidAction`].
pub async fn extract(tab_id: i64, params: &Extract) -> Result<ExtractResult> {
    let out = read(tab_id, params, false).await?;
    if out.page.unwrap_or(1) == 1 {
        view::remember(tab_id, params, &out);
    }
    Ok(out)
}

/// The whole page as the agent text shows it (`find`, SPEC §4): markdown with link uids and every element,
/// uncapped; every element gets its uid as `extract` gives them. It is not the agent's view of the tab (an
/// action's `changes` are read against the last `extract`).
///
/// Errors: as [`extract`]'s.
pub async fn read_whole(tab_id: i64) -> Result<ExtractResult> {
    read(tab_id, &agent_params(tab_id), true).await
}

/// The `extract` parameters of what the agent text shows (SPEC §9): markdown with link uids, and the
/// elements.
pub fn agent_params(tab_id: i64) -> Extract {
    Extract {
        tab_id: Some(tab_id),
        include: vec![ExtractPart::Markdown, ExtractPart::Elements],
        refs: true,
        page: None,
    }
}

/// [`extract`]'s read of the page `params.page` asks for, or the `whole` page.
async fn read(tab_id: i64, params: &Extract, whole: bool) -> Result<ExtractResult> {
    listen_for_navigations();
    let want_text = params.wants(ExtractPart::Text);
    let want_elements = params.wants(ExtractPart::Elements);
    // The snapshot is megabytes on big pages: fetched as JSON text and parsed straight into the
    // pure modules' types.
    // The page is asked only for its `innerText`: URL, title and viewport are in the snapshot, and one
    // command fewer is one wait fewer behind the browser's own work after a navigation.
    let (text_info, snapshot, frames) = futures::future::try_join3(
        async {
            match want_text {
                true => page_info(tab_id, true).await.map(Some),
                false => Ok(None),
            }
        },
        send_text(tab_id, &snapshot::capture_params()),
        async { Ok(remote_frames(tab_id).await) },
    )
    .await?;
    let parts: Vec<snapshot::FramePart<'_>> = frames
        .iter()
        .map(|f| snapshot::FramePart {
            snapshot: &f.snapshot,
            parent: f.parent,
            owner: f.owner,
        })
        .collect();
    let dom = snapshot::Dom::from_parts(&snapshot, &parts)
        .map_err(|e| Error::Internal(format!("extract on tab {tab_id}: {e}")))?;
    // Part k's target: the tab's own for 0, frame k's session after it.
    let targets: Vec<Target> = std::iter::once(Target::tab(tab_id))
        .chain(frames.iter().map(|f| f.target.clone()))
        .collect();
    let keys = frame_keys(&frames);
    FRAMES.with(|t| {
        let parts = keys.iter().cloned().zip(targets.iter().cloned()).collect();
        t.borrow_mut().insert(tab_id, parts)
    });
    let info = match text_info {
        Some(info) => info,
        None => match dom.page() {
            (url, title, Some(viewport)) => PageInfo {
                url: url.to_owned(),
                title: title.to_owned(),
                text: String::new(),
                text_length: 0,
                viewport,
                indeterminate: None,
            },
            // A document without a box of its own (no layout yet): the page says it.
            (_, _, None) => page_info(tab_id, false).await?,
        },
    };

    let refs = params.refs && want_elements && params.wants(ExtractPart::Markdown);
    // Listed elements keep the uid they had; without the list the cache is left as it was.
    let number = |elements: &[ax::AxElement]| match want_elements {
        true => UIDS.with(|u| {
            let mut u = u.borrow_mut();
            u.entry(tab_id)
                .or_default()
                .assign(elements.iter().map(|e| node_key(&keys, e.backend_node_id)))
        }),
        false => (0..elements.len()).map(uids::uid).collect(),
    };
    let n = params.page.map_or(1, |n| n as usize);
    let layout = (n > 1).then(|| pager::get(tab_id)).flatten();
    // Page 1's elements as this read's ids: where their frame is still read, its part.
    let first: Option<HashSet<i64>> = layout.as_ref().map(|l| {
        l.first
            .iter()
            .filter_map(|(frame, backend)| {
                let part = keys.iter().position(|k| k == frame)?;
                Some(snapshot::part_backend(part, *backend))
            })
            .collect()
    });
    let slice = match (whole, n) {
        (true, _) => page::Slice::Whole,
        (false, 1) => page::Slice::First,
        (false, n) => page::Slice::Page {
            n,
            first: first.as_ref(),
            markdown_paged: layout.as_ref().map(|l| l.markdown_paged),
        },
    };
    let parsed = page::ParsedPage {
        url: &info.url,
        title: &info.title,
        inner_text: &info.text,
        viewport: info.viewport,
        dom: &dom,
        refs,
    };
    let (mut result, uids) = page::analyze_numbered(&parsed, number, slice);
    if n > result.pages {
        return Err(past_the_last(n, result.pages, &info.url));
    }
    if slice == page::Slice::First {
        remember_layout(tab_id, &result, &keys);
    }
    mark_mixed_checkboxes(
        tab_id,
        info.indeterminate,
        &targets,
        &mut result.elements.elements,
    )
    .await;
    let mut out = to_protocol(
        info.url,
        info.title,
        result,
        uids,
        info.text_length > page::TEXT_SLICE_UNITS as u64,
    );
    if !want_text {
        out.text = None;
    }
    // A later page past the markdown's last chunk has only elements.
    if !params.wants(ExtractPart::Markdown) || (n > 1 && out.markdown.as_deref() == Some("")) {
        out.markdown = None;
    }
    if !want_elements {
        out.elements = None;
    }
    Ok(out)
}

/// The node an element's id names in this read (its part's [`FrameKey`] and its `backendNodeId` there),
/// as the uid cache and the pager know it across reads.
fn node_key(keys: &[FrameKey], packed: i64) -> NodeKey {
    let (part, backend) = snapshot::split_backend(packed);
    (keys.get(part).cloned().unwrap_or_default(), backend)
}

/// Keeps page 1's layout for the reads of the pages after it, or forgets it when one read holds the page.
fn remember_layout(tab_id: i64, result: &page::PageExtract, keys: &[FrameKey]) {
    if result.pages <= 1 {
        pager::forget(tab_id);
        return;
    }
    let first = result
        .elements
        .elements
        .iter()
        .map(|e| node_key(keys, e.backend_node_id))
        .collect();
    pager::remember(
        tab_id,
        pager::Layout {
            first,
            markdown_paged: result.markdown_paged,
        },
    );
}

/// The error of `extract {page: n}` on a page that has `pages` pages now.
fn past_the_last(n: usize, pages: usize, url: &str) -> Error {
    let what = match pages {
        1 => "fits one read now: extract without page".to_owned(),
        _ => format!("has {pages} pages now: extract {{page: {pages}}} is the last"),
    };
    Error::InvalidAction(format!(
        "page: {n} is past the end; {url} {what} (or extract without page to start again from page 1)"
    ))
}

/// What the first `Runtime.evaluate` of an extract reads from the page.
struct PageInfo {
    url: String,
    title: String,
    /// `innerText`, sliced to [`page::TEXT_SLICE_UNITS`] UTF-16 units.
    text: String,
    /// Length of the whole `innerText`, UTF-16 units.
    text_length: u64,
    /// `innerWidth` × `innerHeight`, CSS px.
    viewport: (f64, f64),
    /// Checkboxes of the main document in the `indeterminate` state; `None` when the page was not asked.
    indeterminate: Option<u64>,
}

/// URL, title, viewport, `innerText` (when `with_text`; it walks the whole rendered page and is the biggest
/// string of the answer), in one `Runtime.evaluate`.
async fn page_info(tab_id: i64, with_text: bool) -> Result<PageInfo> {
    let command = RuntimeEvaluate {
        expression: page::page_info_expression_of(with_text),
        return_by_value: Some(true),
        ..Default::default()
    };
    let info = cdp::send(tab_id, &command).await?;
    let value = info.result.value.unwrap_or_default();
    let str_of = |k: &str| {
        value
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let num = |k: &str| value.get(k).and_then(|v| v.as_f64()).unwrap_or(0.0);
    Ok(PageInfo {
        url: str_of("url"),
        title: str_of("title"),
        text: str_of("text"),
        text_length: value
            .get("textLength")
            .and_then(|v| v.as_u64())
            .unwrap_or(0),
        viewport: (num("width"), num("height")),
        indeterminate: Some(
            value
                .get("indeterminate")
                .and_then(|v| v.as_u64())
                .unwrap_or(0),
        ),
    })
}

/// Gives the native checkboxes among `elements` that the snapshot calls unchecked their AX state,
/// which is `mixed` for an `indeterminate` one (SPEC §5 `checked`): the DOM snapshot does not carry
/// that state, and one `Accessibility.getPartialAXTree` per such box costs far less than the full
/// AX tree. Only when the page has an indeterminate box: `indeterminate` is the count the page script
/// gave, or `None` when it did not run, and then the page is asked for it (once, and only when there
/// is an unchecked box to ask about). A box whose AX node cannot be read keeps `false`.
/// `targets` are the parts' targets of this extract (an element's `backendNodeId` names its part,
/// [`snapshot::split_backend`]).
async fn mark_mixed_checkboxes(
    tab_id: i64,
    indeterminate: Option<u64>,
    targets: &[Target],
    elements: &mut [ax::AxElement],
) {
    let candidates: Vec<usize> = elements
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            e.input_type.as_deref() == Some("checkbox") && e.checked == Some(Checked::False)
        })
        .map(|(i, _)| i)
        .collect();
    if candidates.is_empty() {
        return;
    }
    let indeterminate = match indeterminate {
        Some(n) => n,
        None => page_info(tab_id, false)
            .await
            .ok()
            .and_then(|i| i.indeterminate)
            .unwrap_or(0),
    };
    if indeterminate == 0 {
        return;
    }
    let states = futures::future::join_all(candidates.iter().map(|&i| {
        let (part, backend_node_id) = snapshot::split_backend(elements[i].backend_node_id);
        let command = AccessibilityGetPartialAxTree {
            backend_node_id,
            fetch_relatives: false,
        };
        let target = targets.get(part).cloned();
        async move {
            let text = send_text(target?, &command).await.ok()?;
            ax::AxTree::from_response_json(&text).ok()?.first_checked()
        }
    }))
    .await;
    for (i, state) in candidates.into_iter().zip(states) {
        if state == Some(Checked::Mixed) {
            elements[i].checked = Some(Checked::Mixed);
        }
    }
}

/// Builds the protocol result from the pure step's output and the uids given to its elements.
pub fn to_protocol(
    url: String,
    title: String,
    result: page::PageExtract,
    uids: Vec<String>,
    text_sliced: bool,
) -> ExtractResult {
    let in_markdown = |i: usize| result.in_markdown.get(i).copied().unwrap_or(false);
    let same_as: Vec<Option<String>> = (0..result.elements.elements.len())
        .map(|i| {
            let j = result.same_as.get(i).copied().flatten()?;
            uids.get(j).cloned()
        })
        .collect();
    let elements = result
        .elements
        .elements
        .into_iter()
        .zip(uids)
        .enumerate()
        .map(|(i, (e, uid))| ExtractElement {
            uid,
            role: e.role,
            name: e.name,
            value: e.value,
            // Only `true` goes on the wire: absence means "not in the viewport" (most elements of
            // a long page), which keeps the list ~20 % shorter.
            visible: e.visible.filter(|v| *v && !e.hidden),
            checked: e.checked,
            in_markdown: in_markdown(i),
            disabled: e.disabled,
            hidden: e.hidden,
            same_as: same_as.get(i).cloned().flatten(),
            selected: e.selected,
            expanded: e.expanded,
            pressed: e.pressed,
            options: e.options,
            option_count: (e.option_count > 0)
                .then(|| u32::try_from(e.option_count).unwrap_or(u32::MAX)),
            context: e.context,
        })
        .collect();
    ExtractResult {
        url,
        title,
        text: Some(result.text),
        markdown: Some(result.markdown.text),
        elements: Some(elements),
        obstacle: result.obstacle.map(|v| Obstacle {
            r#type: match v.kind {
                obstacle::ObstacleKind::AuthWall => ObstacleType::AuthWall,
                obstacle::ObstacleKind::Captcha => ObstacleType::Captcha,
                obstacle::ObstacleKind::AccessDenied => ObstacleType::AccessDenied,
            },
            confidence: match v.confidence {
                obstacle::Confidence::Low => Confidence::Low,
                obstacle::Confidence::High => Confidence::High,
            },
            message: v.message,
        }),
        truncated: Truncated {
            text: result.text_truncated || text_sliced,
            markdown: result.markdown.truncated,
            elements: result.elements.truncated,
        },
        total_elements: u32::try_from(result.elements.total).unwrap_or(u32::MAX),
        page: (result.pages > 1).then(|| u32::try_from(result.page).unwrap_or(u32::MAX)),
        pages: (result.pages > 1).then(|| u32::try_from(result.pages).unwrap_or(u32::MAX)),
        dialog: None,
        dialogs: Vec::new(),
    }
}

/// The target (the tab, or the frame session the element is in) and the `backendNodeId` there that `uid`
/// named in the latest `extract` of `tab_id` (SPEC §5).
///
/// Errors: [`Error::ElementStale`] when the uid is not in the tab's cache (never extracted, or the
/// main frame navigated since), or its frame is no longer attached.
pub fn resolve_uid(tab_id: i64, uid: &str) -> Result<(Target, i64)> {
    let (frame, backend) = resolve_node(tab_id, uid)?;
    let part = FRAMES.with(|t| {
        t.borrow()
            .get(&tab_id)?
            .iter()
            .position(|(k, _)| *k == frame)
    });
    let target = part.and_then(|part| frame_target(tab_id, part)).ok_or_else(|| {
        Error::ElementStale(format!(
            "uid {uid} is inside a frame of tab {tab_id} that went away (it navigated or was removed); call \
             extract again and use a fresh uid"
        ))
    })?;
    Ok((target, backend))
}

/// The target of part `part` of `tab_id`'s latest extract, while its frame session is attached.
fn frame_target(tab_id: i64, part: usize) -> Option<Target> {
    let target = FRAMES.with(|t| Some(t.borrow().get(&tab_id)?.get(part)?.1.clone()))?;
    match target.session() {
        Some(session) => cdp::target::session(tab_id, session).map(|_| target),
        None => Some(target),
    }
}

/// The target of frame `frame` (`f1`, … as the markdown of the latest extract of `tab_id` names them).
///
/// Errors: [`Error::InvalidAction`] for a name that is not a frame id, [`Error::ElementStale`] for one the
/// latest extract did not list or whose frame went away.
pub fn resolve_frame(tab_id: i64, frame: &str) -> Result<Target> {
    let part = snapshot::parse_frame_label(frame).ok_or_else(|| {
        Error::InvalidAction(format!(
            "frame: {frame:?} is neither a uid (e0, e1, …) nor a frame id (f1, f2, … as extract's markdown \
             names them)"
        ))
    })?;
    frame_target(tab_id, part).ok_or_else(|| {
        Error::ElementStale(format!(
            "frame {frame} is not on tab {tab_id}'s current page (the last extract did not list it, or it \
             navigated since); call extract again"
        ))
    })
}

fn resolve_node(tab_id: i64, uid: &str) -> Result<NodeKey> {
    UIDS.with(|u| {
        let u = u.borrow();
        let cache = u.get(&tab_id);
        cache
            .and_then(|c| c.resolve(uid).cloned())
            .ok_or_else(|| match cache {
                Some(cache) => stale(tab_id, uid, cache.given(uid), cache.range()),
                None => stale(tab_id, uid, uids::Given::Never, 0..0),
            })
    })
}

/// Forgets `tab_id`'s uids: main-frame navigation (`Page.frameNavigated` without `parentId`) and
/// `navigate` (SPEC §5). SPA route changes (`Page.navigatedWithinDocument`) keep them.
pub fn invalidate(tab_id: i64) {
    UIDS.with(|u| u.borrow_mut().get_mut(&tab_id).map(uids::UidCache::clear));
    FRAMES.with(|t| t.borrow_mut().remove(&tab_id));
    view::forget(tab_id);
    pager::forget(tab_id);
}

/// Forgets all of `tab_id` (the tab closed).
pub fn forget_tab(tab_id: i64) {
    invalidate(tab_id);
    UIDS.with(|u| u.borrow_mut().remove(&tab_id));
}

/// The `element_stale` error of `uid` on `tab_id`, whose number stands as `given` (uids.rs), the current
/// page's uids being `e<page.start>`…`e<page.end-1>`: a uid of the page the tab left, or one never given,
/// is said plainly.
pub(crate) fn stale(
    tab_id: i64,
    uid: &str,
    given: uids::Given,
    page: std::ops::Range<usize>,
) -> Error {
    let listed = match page.is_empty() {
        true => "no uid yet".to_owned(),
        false => format!("its uids so far are e{}…e{}", page.start, page.end - 1),
    };
    Error::ElementStale(match given {
        uids::Given::EarlierPage => format!(
            "uid {uid} was on the page tab {tab_id} showed before it navigated; call extract and use a uid \
             of the current page ({listed})"
        ),
        uids::Given::Never if ax::parse_uid(uid).is_some() && !page.is_empty() => format!(
            "uid {uid} was never given on tab {tab_id}'s current page ({listed}); call extract and use a \
             uid it lists"
        ),
        _ => format!(
            "uid {uid} is not on tab {tab_id}'s current page (the element is gone, or the page navigated); \
             call extract and use a uid it lists"
        ),
    })
}

/// Clears a tab's uids when its main frame navigates; registered once, at the first extract.
fn listen_for_navigations() {
    if LISTENING.with(|l| l.replace(true)) {
        return;
    }
    cdp::events::listen(|tab_id, event| {
        if event.main_frame_navigated().is_some() {
            invalidate(tab_id);
        }
    });
}
