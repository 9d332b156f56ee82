//! The page as one owned DOM tree, built from a CDP `DOMSnapshot.captureSnapshot` response (SPEC §5).
//!
//! The snapshot is a set of flat, column-oriented documents (the main frame and every same-process
//! iframe) sharing one string table. [`Dom::from_snapshot`] turns it into the *composed* tree a user
//! sees: open and closed shadow roots replace their host's light children (with `<slot>`s filled by the
//! assigned light nodes), and a same-origin iframe's document is stitched in as the children of its
//! `<iframe>` element, all in document order. Every node keeps its `backendNodeId`, its computed style
//! ([`COMPUTED_STYLES`]) and its layout box, so the markdown converter and the AX filter need no
//! further CDP round trips.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde::Deserialize;

use crate::cdp::commands::DomSnapshotCaptureSnapshot;

/// The computed style properties requested from `DOMSnapshot.captureSnapshot`, in the order the
/// response's `layout.styles[i]` lists their values. Pass them as `computedStyles`.
pub const COMPUTED_STYLES: [&str; 5] = [
    "display",
    "visibility",
    "position",
    "overflow-x",
    "overflow-y",
];

/// The `DOMSnapshot.captureSnapshot` params this module expects: the computed styles above, and
/// nothing optional. Layout `bounds` and the documents' scroll offsets are always in the answer;
/// `includeDOMRects` (offset, client and scroll rects of every box) is not asked for: nothing here
/// reads them, and they made the capture 30–60 % slower and its answer ~25 % bigger (measured with `bua-bench`).
pub fn capture_params() -> DomSnapshotCaptureSnapshot {
    DomSnapshotCaptureSnapshot {
        computed_styles: COMPUTED_STYLES.to_vec(),
    }
}

/// The smallest width and height (CSS px) of a box [`Dom::is_reachable`] takes for one a pointer can hit.
const MIN_HIT_PX: f64 = 2.0;

/// Descendants [`Dom::is_reachable`] looks at for a box when the node has none of its own.
const REACH_SEARCH_NODES: usize = 64;

/// Deepest nesting followed when composing the tree; deeper subtrees are cut (pathological pages only),
/// which keeps the recursion well inside a wasm stack.
const MAX_DEPTH: usize = 512;

/// Why a snapshot could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    /// The response does not have the `DOMSnapshot.captureSnapshot` shape.
    #[error("DOMSnapshot.captureSnapshot response is malformed: {0}")]
    Json(#[from] serde_json::Error),
    /// The response has no document, or its first document has no nodes.
    #[error("DOMSnapshot.captureSnapshot returned no document")]
    NoDocument,
}

/// An axis-aligned box in CSS px, in the coordinates of the main frame's document (not the viewport:
/// subtract the main document's scroll offset to get viewport coordinates).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    /// Left edge, CSS px.
    pub x: f64,
    /// Top edge, CSS px.
    pub y: f64,
    /// Width, CSS px.
    pub width: f64,
    /// Height, CSS px.
    pub height: f64,
}

impl Rect {
    /// True when the box has no area.
    pub fn is_empty(&self) -> bool {
        self.width <= 0.0 || self.height <= 0.0
    }

    /// The part of the box inside `other` (empty when they do not overlap).
    pub fn intersection(&self, other: &Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        Rect {
            x,
            y,
            width: ((self.x + self.width).min(other.x + other.width) - x).max(0.0),
            height: ((self.y + self.height).min(other.y + other.height) - y).max(0.0),
        }
    }

    /// True when the two boxes overlap with a positive area.
    pub fn intersects(&self, other: &Rect) -> bool {
        !self.is_empty()
            && !other.is_empty()
            && self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }
}

/// The computed style values of [`COMPUTED_STYLES`] for one rendered node (empty when unknown).
///
/// The values are shared (`Rc<str>`): a page has a handful of distinct ones (`block`, `visible`, …) for
/// thousands of boxes, and one allocation per box and property was a tenth of an extract's own work.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Style {
    /// CSS `display`, e.g. `block`, `inline`, `flex`, `list-item`, `table-cell`.
    pub display: Rc<str>,
    /// CSS `visibility`: `visible`, `hidden` or `collapse`.
    pub visibility: Rc<str>,
    /// CSS `position`: `static`, `relative`, `absolute`, `fixed` or `sticky`.
    pub position: Rc<str>,
    /// CSS `overflow-x`.
    pub overflow_x: Rc<str>,
    /// CSS `overflow-y`.
    pub overflow_y: Rc<str>,
}

impl Style {
    /// `visibility: hidden | collapse`.
    pub fn is_invisible(&self) -> bool {
        matches!(&*self.visibility, "hidden" | "collapse")
    }

    /// `position: fixed | sticky` (overlays, cookie banners, sticky bars).
    pub fn is_fixed_or_sticky(&self) -> bool {
        matches!(&*self.position, "fixed" | "sticky")
    }

    /// Overflow is clipped on either axis, so a zero-size box hides its content.
    pub fn clips(&self) -> bool {
        let clip = |v: &str| matches!(v, "hidden" | "clip" | "scroll" | "auto");
        clip(&self.overflow_x) || clip(&self.overflow_y)
    }

    /// The box is laid out inline (text flow continues around it).
    pub fn is_inline(&self) -> bool {
        let display = &*self.display;
        (display.starts_with("inline") && display != "inline-table")
            || display == "ruby"
            || display.is_empty()
    }
}

/// Layout information of a rendered node: its box (main-document coordinates) and computed style.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layout {
    /// The node's layout bounds (`layout.bounds`), shifted into main-document coordinates.
    pub bounds: Rect,
    /// The computed style of the node (for a text node: of its parent).
    pub style: Style,
}

/// What a [`DomNode`] is.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// The root of the composed tree (the main frame's document node).
    Document,
    /// An element; `tag` is lowercase, attributes keep their order, names lowercase.
    Element {
        /// Lowercase tag name (`div`, `a`, `svg`, a custom element name, …).
        tag: String,
        /// `(name, value)` pairs as the page has them.
        attrs: Vec<(String, String)>,
    },
    /// A text node's raw `nodeValue` (whitespace not yet collapsed).
    Text(String),
}

/// One node of the composed tree.
#[derive(Debug, Clone, PartialEq)]
pub struct DomNode {
    /// Element, text or the document root.
    pub kind: NodeKind,
    /// Children in composed document order (indexes into [`Dom::nodes`]).
    pub children: Vec<usize>,
    /// Parent in the composed tree; `None` for the root.
    pub parent: Option<usize>,
    /// CDP `backendNodeId` of the node.
    pub backend_node_id: i64,
    /// Index into [`Dom::documents`] of the document (frame) the node belongs to.
    pub document: usize,
    /// Layout box and style; `None` when the node is not rendered (`display: none`, inside one,
    /// `display: contents`, comments, whitespace that produced no box, …).
    pub layout: Option<Layout>,
}

impl DomNode {
    /// Lowercase tag name for elements, `None` otherwise.
    pub fn tag(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Element { tag, .. } => Some(tag),
            _ => None,
        }
    }

    /// Value of the attribute `name` (case-insensitive name), if present.
    pub fn attr(&self, name: &str) -> Option<&str> {
        match &self.kind {
            NodeKind::Element { attrs, .. } => attrs
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str()),
            _ => None,
        }
    }

    /// The text of a text node.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Text(t) => Some(t),
            _ => None,
        }
    }
}

/// One document (frame) of the snapshot.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocumentInfo {
    /// `documentURL`.
    pub url: String,
    /// `document.title`.
    pub title: String,
    /// The size of the document's own box (its layout view), CSS px: the viewport (`innerWidth` ×
    /// `innerHeight`) of the frame; `None` when the snapshot has no box for it.
    pub viewport: Option<(f64, f64)>,
    /// `baseURL`: what relative links of this document resolve against.
    pub base_url: String,
    /// CDP frame id.
    pub frame_id: String,
    /// Scroll offset of the document, CSS px.
    pub scroll_x: f64,
    /// Scroll offset of the document, CSS px.
    pub scroll_y: f64,
    /// Where this document's origin lies in main-document coordinates (0,0 for the main frame).
    pub offset_x: f64,
    /// See `offset_x`.
    pub offset_y: f64,
    /// Whether the document is part of the composed tree (same-origin iframes reachable from the
    /// main frame); detached or unreachable documents are still listed.
    pub attached: bool,
    /// Which target's snapshot the document came from ([`FramePart`]): 0 for the tab's own, `k` for the
    /// `k`-th cross-origin frame target.
    pub part: usize,
}

/// The snapshot of a cross-origin frame target (SPEC §5 "Frames"), to be stitched in at its `<iframe>`.
#[derive(Debug, Clone, Copy)]
pub struct FramePart<'a> {
    /// The frame target's `DOMSnapshot.captureSnapshot` answer, as JSON text.
    pub snapshot: &'a str,
    /// The part whose document holds the `<iframe>` (0: the tab's own snapshot); an earlier part.
    pub parent: usize,
    /// The `<iframe>` element's `backendNodeId` in the parent part's target (as CDP gave it).
    pub owner: i64,
}

/// The frame id of part `part` that `extract` shows and `evaluate {frame}` takes: `f1`, `f2`, …
pub fn frame_label(part: usize) -> String {
    format!("f{part}")
}

/// The part of a frame id ([`frame_label`]), `None` when it is not one.
pub fn parse_frame_label(label: &str) -> Option<usize> {
    let digits = label.strip_prefix('f')?;
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Bits of a page-wide `backendNodeId` below the part number: ids are unique within one target (renderer
/// process) only, so the `k`-th frame target's ids are moved into a range of their own.
const PART_SHIFT: u32 = 32;

/// The page-wide id of `backend` of part `part` (see [`FramePart`]); part 0 keeps CDP's ids.
pub fn part_backend(part: usize, backend: i64) -> i64 {
    ((part as i64) << PART_SHIFT) | (backend & ((1i64 << PART_SHIFT) - 1))
}

/// The part and the target's own `backendNodeId` of a page-wide id ([`part_backend`]).
pub fn split_backend(id: i64) -> (usize, i64) {
    (
        usize::try_from(id >> PART_SHIFT).unwrap_or(0),
        id & ((1i64 << PART_SHIFT) - 1),
    )
}

/// The composed DOM of a page. Node 0 is the root ([`NodeKind::Document`]) when the tree is not empty.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dom {
    /// All nodes; parents come before their children.
    pub nodes: Vec<DomNode>,
    /// Every document of the snapshot; index 0 is the main frame.
    pub documents: Vec<DocumentInfo>,
    /// URLs of every `<iframe>`/`<frame>` (its `src` resolved, or its loaded document's URL),
    /// including cross-origin ones whose content is not in the snapshot.
    pub iframe_urls: Vec<String>,
    /// `backendNodeId` → layout box (main-document coordinates), for every rendered node.
    pub rects: HashMap<i64, Rect>,
    /// `<iframe>` element `backendNodeId` → CDP frame id of its content document.
    pub frame_of_iframe: HashMap<i64, String>,
    /// `backendNodeId` → index into [`Dom::nodes`].
    pub by_backend: HashMap<i64, usize>,
    /// The resolved `action` URL of every `<form>` that has one.
    pub form_actions: Vec<String>,
    /// `backendNodeId` → current value of `<input>` / `<textarea>` elements (`inputValue`, `textValue`).
    pub input_values: HashMap<i64, String>,
    /// `backendNodeId`s of the checkbox and radio `<input>`s that are checked now (`inputChecked`).
    pub checked_inputs: HashSet<i64>,
    /// `backendNodeId`s of the `<option>`s that are selected now (`optionSelected`).
    pub selected_options: HashSet<i64>,
    /// Node index of each `<iframe>` that holds a cross-origin frame target → that frame's part.
    pub remote_frames: HashMap<usize, usize>,
}

// ---- raw snapshot shape (only the fields used) ----

#[derive(Deserialize, Default)]
struct RawSnapshot {
    #[serde(default)]
    documents: Vec<RawDocument>,
    #[serde(default)]
    strings: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawDocument {
    #[serde(rename = "documentURL")]
    document_url: i64,
    /// `document.title` (string index; absent or -1 without a title).
    #[serde(default = "no_string")]
    title: i64,
    #[serde(rename = "baseURL")]
    base_url: i64,
    frame_id: i64,
    nodes: RawNodes,
    layout: RawLayout,
    scroll_offset_x: Option<f64>,
    scroll_offset_y: Option<f64>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawNodes {
    parent_index: Vec<i64>,
    node_type: Vec<i64>,
    shadow_root_type: RareStrings,
    node_name: Vec<i64>,
    node_value: Vec<i64>,
    backend_node_id: Vec<i64>,
    attributes: Vec<Vec<i64>>,
    content_document_index: RareIntegers,
    pseudo_type: RareStrings,
    input_value: RareStrings,
    text_value: RareStrings,
    input_checked: RareBooleans,
    option_selected: RareBooleans,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RareBooleans {
    index: Vec<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RareStrings {
    index: Vec<i64>,
    value: Vec<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RareIntegers {
    index: Vec<i64>,
    value: Vec<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawLayout {
    node_index: Vec<i64>,
    styles: Vec<Vec<i64>>,
    bounds: Vec<Vec<f64>>,
}

const ELEMENT_NODE: i64 = 1;
const TEXT_NODE: i64 = 3;
const CDATA_NODE: i64 = 4;
const DOCUMENT_NODE: i64 = 9;
const FRAGMENT_NODE: i64 = 11;

/// One document, decoded into per-node rows: the tree's shape, read while composing.
struct DocRows {
    parent: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
    node_type: Vec<i64>,
    backend: Vec<i64>,
    shadow_type: HashMap<usize, String>,
    content_doc: HashMap<usize, usize>,
    pseudo: Vec<bool>,
    values: HashMap<usize, String>,
    checked: HashSet<usize>,
    selected: HashSet<usize>,
}

/// What each node of a [`DocRows`] document carries into the composed tree. The composer moves it out
/// ([`std::mem::take`]) instead of copying it, so a node is composed once: one met again (a light child
/// that two slots of one name would take, a malformed snapshot) is skipped, as the browser assigns a light
/// child to the first of those slots only.
#[derive(Default)]
struct DocPayload {
    /// The nodes already composed.
    composed: Vec<bool>,
    /// Node names (tag names as CDP gives them, uppercase for HTML).
    name: Vec<String>,
    /// Text nodes' `nodeValue`; empty for other nodes.
    value: Vec<String>,
    /// Attributes, names lowercase.
    attrs: Vec<Vec<(String, String)>>,
    /// Box and style of the rendered nodes.
    layout: Vec<Option<(Rect, Style)>>,
}

fn no_string() -> i64 {
    -1
}

fn string_at(strings: &[String], i: i64) -> String {
    usize::try_from(i)
        .ok()
        .and_then(|i| strings.get(i))
        .cloned()
        .unwrap_or_default()
}

fn decode(doc: &RawDocument, strings: &[String]) -> (DocRows, DocPayload) {
    let n = doc.nodes.node_type.len();
    let s = |i: i64| string_at(strings, i);
    let parent: Vec<Option<usize>> = (0..n)
        .map(|i| {
            doc.nodes
                .parent_index
                .get(i)
                .and_then(|&p| usize::try_from(p).ok())
                .filter(|&p| p < n && p != i)
        })
        .collect();
    let mut children = vec![Vec::new(); n];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = p {
            children[*p].push(i);
        }
    }
    let attrs = (0..n)
        .map(|i| {
            doc.nodes
                .attributes
                .get(i)
                .map(|pairs| {
                    pairs
                        .chunks(2)
                        .filter(|c| c.len() == 2)
                        .map(|c| {
                            let mut name = s(c[0]);
                            name.make_ascii_lowercase();
                            (name, s(c[1]))
                        })
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect();
    let rare_strings = |r: &RareStrings| -> HashMap<usize, String> {
        r.index
            .iter()
            .zip(&r.value)
            .filter_map(|(&i, &v)| Some((usize::try_from(i).ok()?, s(v))))
            .collect()
    };
    let mut pseudo = vec![false; n];
    for i in doc.nodes.pseudo_type.index.iter() {
        if let Some(p) = usize::try_from(*i).ok().and_then(|i| pseudo.get_mut(i)) {
            *p = true;
        }
    }
    let content_doc = doc
        .nodes
        .content_document_index
        .index
        .iter()
        .zip(&doc.nodes.content_document_index.value)
        .filter_map(|(&i, &v)| Some((usize::try_from(i).ok()?, usize::try_from(v).ok()?)))
        .collect();
    // Indexed by node: `layout.nodeIndex` points at most once per box, and several boxes (a text split
    // by a continuation) at one node.
    let mut layout: Vec<Option<(Rect, Style)>> = vec![None; n];
    // One shared value per distinct string of the table (see [`Style`]).
    let mut shared: Vec<Option<Rc<str>>> = vec![None; strings.len()];
    let empty: Rc<str> = Rc::from("");
    for (li, &ni) in doc.layout.node_index.iter().enumerate() {
        let Some(slot) = usize::try_from(ni).ok().and_then(|ni| layout.get_mut(ni)) else {
            continue;
        };
        let rect = match doc.layout.bounds.get(li) {
            Some(b) if b.len() >= 4 => Rect {
                x: b[0],
                y: b[1],
                width: b[2],
                height: b[3],
            },
            _ => Rect::default(),
        };
        // A node may have several layout objects; keep the first box's style and grow the box to cover
        // the others.
        if let Some((r, _)) = slot {
            *r = union(*r, rect);
            continue;
        }
        let st = doc.layout.styles.get(li);
        let mut v = |k: usize| -> Rc<str> {
            let i = st
                .and_then(|st| st.get(k))
                .and_then(|&i| usize::try_from(i).ok());
            match i.and_then(|i| Some((i, shared.get_mut(i)?))) {
                Some((i, cell)) => cell
                    .get_or_insert_with(|| Rc::from(strings[i].as_str()))
                    .clone(),
                None => empty.clone(),
            }
        };
        let style = Style {
            display: v(0),
            visibility: v(1),
            position: v(2),
            overflow_x: v(3),
            overflow_y: v(4),
        };
        *slot = Some((rect, style));
    }
    let is_text = |i: usize| {
        matches!(
            doc.nodes.node_type.get(i),
            Some(&TEXT_NODE) | Some(&CDATA_NODE)
        )
    };
    let payload = DocPayload {
        composed: vec![false; n],
        name: (0..n)
            .map(|i| s(*doc.nodes.node_name.get(i).unwrap_or(&-1)))
            .collect(),
        value: (0..n)
            .map(|i| match is_text(i) {
                true => s(*doc.nodes.node_value.get(i).unwrap_or(&-1)),
                false => String::new(),
            })
            .collect(),
        attrs,
        layout,
    };
    let rows = DocRows {
        parent,
        children,
        node_type: doc.nodes.node_type.clone(),
        backend: (0..n)
            .map(|i| *doc.nodes.backend_node_id.get(i).unwrap_or(&0))
            .collect(),
        shadow_type: rare_strings(&doc.nodes.shadow_root_type),
        content_doc,
        pseudo,
        values: {
            let mut v = rare_strings(&doc.nodes.input_value);
            v.extend(rare_strings(&doc.nodes.text_value));
            v
        },
        checked: indices(&doc.nodes.input_checked),
        selected: indices(&doc.nodes.option_selected),
    };
    (rows, payload)
}

/// The node indices a rare boolean holds true.
fn indices(b: &RareBooleans) -> HashSet<usize> {
    b.index
        .iter()
        .filter_map(|&i| usize::try_from(i).ok())
        .collect()
}

fn union(a: Rect, b: Rect) -> Rect {
    if a.is_empty() {
        return b;
    }
    if b.is_empty() {
        return a;
    }
    let x = a.x.min(b.x);
    let y = a.y.min(b.y);
    Rect {
        x,
        y,
        width: (a.x + a.width).max(b.x + b.width) - x,
        height: (a.y + a.height).max(b.y + b.height) - y,
    }
}

struct Composer<'a> {
    docs: &'a [DocRows],
    /// Per document of `docs`, what its nodes carry (moved into `dom` as they are composed).
    payloads: Vec<DocPayload>,
    dom: Dom,
    /// Documents already stitched in (guards against a frame cycle in a malformed snapshot).
    visiting: Vec<bool>,
}

impl Composer<'_> {
    fn push(
        &mut self,
        kind: NodeKind,
        backend: i64,
        document: usize,
        layout: Option<Layout>,
    ) -> usize {
        self.dom.nodes.push(DomNode {
            kind,
            children: Vec::new(),
            parent: None,
            backend_node_id: backend,
            document,
            layout,
        });
        self.dom.nodes.len() - 1
    }

    fn attach(&mut self, parent: usize, child: usize) {
        self.dom.nodes[parent].children.push(child);
        self.dom.nodes[child].parent = Some(parent);
    }

    fn layout_of(&mut self, d: usize, i: usize) -> Option<Layout> {
        let (rect, style) = self.payloads.get_mut(d)?.layout.get_mut(i)?.take()?;
        let info = &self.dom.documents[d];
        let bounds = Rect {
            x: rect.x + info.offset_x,
            y: rect.y + info.offset_y,
            ..rect
        };
        Some(Layout { bounds, style })
    }

    /// Appends the composed subtree of raw node `i` of document `d` under `parent`.
    fn node(
        &mut self,
        d: usize,
        i: usize,
        parent: usize,
        depth: usize,
        host_light: Option<&[usize]>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let rows = &self.docs[d];
        if rows.pseudo[i] {
            return;
        }
        match self.payloads[d].composed.get_mut(i) {
            Some(done) if !*done => *done = true,
            _ => return,
        }
        match rows.node_type[i] {
            TEXT_NODE | CDATA_NODE => {
                let layout = self.layout_of(d, i);
                let text = std::mem::take(&mut self.payloads[d].value[i]);
                let backend = self.docs[d].backend[i];
                let id = self.push(NodeKind::Text(text), backend, d, layout);
                self.attach(parent, id);
            }
            ELEMENT_NODE => self.element(d, i, parent, depth, host_light),
            _ => {}
        }
    }

    fn element(
        &mut self,
        d: usize,
        i: usize,
        parent: usize,
        depth: usize,
        host_light: Option<&[usize]>,
    ) {
        let rows = self.docs;
        let row = &rows[d];
        let mut tag = std::mem::take(&mut self.payloads[d].name[i]);
        tag.make_ascii_lowercase();
        let layout = self.layout_of(d, i);
        let backend = row.backend[i];
        let bounds = layout.as_ref().map(|l| l.bounds);
        if let Some(rect) = bounds {
            self.dom.rects.insert(backend, rect);
        }
        let (is_frame, is_form, is_slot) = (
            tag == "iframe" || tag == "frame",
            tag == "form",
            tag == "slot",
        );
        let kind = NodeKind::Element {
            tag,
            attrs: std::mem::take(&mut self.payloads[d].attrs[i]),
        };
        if let Some(v) = row.values.get(&i) {
            self.dom.input_values.insert(backend, v.clone());
        }
        if row.checked.contains(&i) {
            self.dom.checked_inputs.insert(backend);
        }
        if row.selected.contains(&i) {
            self.dom.selected_options.insert(backend);
        }
        let id = self.push(kind, backend, d, layout);
        self.attach(parent, id);

        if is_frame {
            let base = &self.dom.documents[d].base_url;
            let src = self.dom.nodes[id].attr("src").map(|s| resolve_url(base, s));
            if let Some(&cd) = row.content_doc.get(&i) {
                self.stitch_frame(cd, id, bounds, depth);
                if let Some(doc) = self.dom.documents.get(cd) {
                    if !doc.url.is_empty() {
                        self.dom.iframe_urls.push(doc.url.clone());
                    }
                }
            }
            if let Some(src) = src.filter(|s| !s.is_empty()) {
                if !self.dom.iframe_urls.contains(&src) {
                    self.dom.iframe_urls.push(src);
                }
            }
            return;
        }

        if is_form {
            if let Some(action) = self.dom.nodes[id]
                .attr("action")
                .filter(|a| !a.trim().is_empty())
            {
                let resolved = resolve_url(&self.dom.documents[d].base_url, action);
                self.dom.form_actions.push(resolved);
            }
        }

        if is_slot {
            if let Some(light) = host_light {
                let name = self.dom.nodes[id].attr("name").unwrap_or("").to_string();
                let assigned: Vec<usize> = light
                    .iter()
                    .copied()
                    .filter(|&c| {
                        let slot_attr = if row.node_type[c] == ELEMENT_NODE {
                            self.payloads[d].attrs[c]
                                .iter()
                                .find(|(n, _)| n == "slot")
                                .map(|(_, v)| v.as_str())
                        } else {
                            None
                        };
                        match slot_attr {
                            Some(s) => s == name,
                            None => name.is_empty() && row.node_type[c] != FRAGMENT_NODE,
                        }
                    })
                    .collect();
                if !assigned.is_empty() {
                    for c in assigned {
                        // Slotted nodes belong to the host's tree: their own slots are not ours.
                        self.node(d, c, id, depth + 1, None);
                    }
                    return;
                }
            }
        }

        let kids = &row.children[i];
        let shadow = kids.iter().copied().find(|&c| {
            row.node_type[c] == FRAGMENT_NODE
                && row.shadow_type.get(&c).is_some_and(|t| t != "user-agent")
        });
        match shadow {
            Some(root) => {
                let light: Vec<usize> = kids.iter().copied().filter(|&c| c != root).collect();
                for &c in &row.children[root] {
                    self.node(d, c, id, depth + 1, Some(&light));
                }
            }
            None => {
                for &c in kids {
                    if row.node_type[c] != FRAGMENT_NODE {
                        self.node(d, c, id, depth + 1, None);
                    }
                }
            }
        }
    }

    /// Composes document `cd` under its `<iframe>` node `iframe`, whose box is `bounds`.
    fn stitch_frame(&mut self, cd: usize, iframe: usize, bounds: Option<Rect>, depth: usize) {
        let Some(rows) = self.docs.get(cd) else {
            return;
        };
        if self.visiting.get(cd).copied().unwrap_or(true) {
            return;
        }
        self.visiting[cd] = true;
        if let Some(b) = bounds {
            let doc = &mut self.dom.documents[cd];
            doc.offset_x = b.x - doc.scroll_x;
            doc.offset_y = b.y - doc.scroll_y;
        }
        self.dom.documents[cd].attached = true;
        let part = self.dom.documents[cd].part;
        if part != self.dom.documents[self.dom.nodes[iframe].document].part {
            self.dom.remote_frames.insert(iframe, part);
        }
        let backend = self.dom.nodes[iframe].backend_node_id;
        let frame_id = self.dom.documents[cd].frame_id.clone();
        self.dom.frame_of_iframe.insert(backend, frame_id);
        let roots: Vec<usize> = (0..rows.node_type.len())
            .filter(|&i| rows.parent[i].is_none() && rows.node_type[i] == DOCUMENT_NODE)
            .collect();
        for r in roots {
            for &c in &rows.children[r] {
                self.node(cd, c, iframe, depth + 1, None);
            }
        }
    }
}

/// Resolves `href` against `base` (an absolute URL); returns `href` unchanged when either does not parse.
pub fn resolve_url(base: &str, href: &str) -> String {
    let href = href.trim();
    // A page resolves hundreds of links against one or two bases: the last base parsed is kept.
    thread_local! {
        static LAST_BASE: std::cell::RefCell<Option<(String, Result<url::Url, url::ParseError>)>> =
            const { std::cell::RefCell::new(None) };
    }
    LAST_BASE.with(|last| {
        let mut last = last.borrow_mut();
        if last.as_ref().is_none_or(|(b, _)| b != base) {
            *last = Some((base.to_owned(), url::Url::parse(base)));
        }
        let parsed = last.as_ref().map(|(_, u)| u.as_ref());
        match parsed.and_then(|u| u.ok()).map(|b| b.join(href)) {
            Some(Ok(u)) => u.to_string(),
            _ => href.to_string(),
        }
    })
}

impl Dom {
    /// Builds the composed tree from the JSON result of `DOMSnapshot.captureSnapshot` called with
    /// [`capture_params`]. Document 0 is the main frame.
    ///
    /// Errors: [`SnapshotError::Json`] when the value is not a snapshot, [`SnapshotError::NoDocument`]
    /// when it holds no document.
    pub fn from_snapshot(value: &serde_json::Value) -> Result<Dom, SnapshotError> {
        Dom::from_raw(RawSnapshot::deserialize(value)?)
    }

    /// [`Dom::from_snapshot`] from the response as JSON text (the fast path for big pages: no
    /// intermediate `serde_json::Value`).
    pub fn from_snapshot_json(text: &str) -> Result<Dom, SnapshotError> {
        Dom::from_raw(serde_json::from_str(text)?)
    }

    fn from_raw(raw: RawSnapshot) -> Result<Dom, SnapshotError> {
        Dom::compose(vec![(raw, None)])
    }

    /// Builds one composed tree from the tab's snapshot and those of its cross-origin frame targets
    /// (SPEC §5 "Frames"): each frame's documents are stitched in at its `<iframe>` as a same-origin
    /// frame's are, with its `backendNodeId`s moved to its part's range ([`part_backend`]). A frame whose
    /// snapshot does not parse, or whose `<iframe>` is not in its parent, is left out.
    ///
    /// Errors: as [`Dom::from_snapshot_json`] for the tab's own snapshot.
    pub fn from_parts(main: &str, frames: &[FramePart<'_>]) -> Result<Dom, SnapshotError> {
        let mut raws = vec![(serde_json::from_str::<RawSnapshot>(main)?, None)];
        // Part numbers stay the callers' indices (uids name them), so a frame left out keeps its slot.
        for f in frames {
            let raw = serde_json::from_str::<RawSnapshot>(f.snapshot).unwrap_or_default();
            raws.push((raw, Some((f.parent, f.owner))));
        }
        Dom::compose(raws)
    }

    fn compose(raws: Vec<(RawSnapshot, Option<(usize, i64)>)>) -> Result<Dom, SnapshotError> {
        if raws[0]
            .0
            .documents
            .first()
            .is_none_or(|d| d.nodes.node_type.is_empty())
        {
            return Err(SnapshotError::NoDocument);
        }
        let mut docs: Vec<DocRows> = Vec::new();
        let mut payloads: Vec<DocPayload> = Vec::new();
        let mut documents = Vec::new();
        // Index of each part's first document (its frame's own) in `docs`.
        let mut first_doc = Vec::with_capacity(raws.len());
        for (part, (raw, _)) in raws.iter().enumerate() {
            let base = docs.len();
            first_doc.push((!raw.documents.is_empty()).then_some(base));
            for d in &raw.documents {
                let (mut rows, payload) = decode(d, &raw.strings);
                if part > 0 {
                    for b in rows.backend.iter_mut() {
                        *b = part_backend(part, *b);
                    }
                    for v in rows.content_doc.values_mut() {
                        *v += base;
                    }
                }
                let viewport = payload
                    .layout
                    .first()
                    .and_then(Option::as_ref)
                    .map(|(r, _)| (r.width, r.height));
                docs.push(rows);
                payloads.push(payload);
                documents.push(DocumentInfo {
                    url: string_at(&raw.strings, d.document_url),
                    title: string_at(&raw.strings, d.title),
                    viewport,
                    base_url: string_at(&raw.strings, d.base_url),
                    frame_id: string_at(&raw.strings, d.frame_id),
                    scroll_x: d.scroll_offset_x.unwrap_or(0.0),
                    scroll_y: d.scroll_offset_y.unwrap_or(0.0),
                    offset_x: 0.0,
                    offset_y: 0.0,
                    attached: false,
                    part,
                });
            }
        }
        // Each frame's first document becomes the content document of its <iframe> in the parent part.
        for (part, (_, link)) in raws.iter().enumerate() {
            let (Some((parent, owner)), Some(Some(child))) = (link, first_doc.get(part)) else {
                continue;
            };
            let Some(&Some(from)) = first_doc.get(*parent) else {
                continue;
            };
            let owner = part_backend(*parent, *owner);
            let to = raws[*parent].0.documents.len() + from;
            let to = to.min(docs.len());
            'docs: for rows in docs[from..to].iter_mut() {
                if let Some(i) = rows.backend.iter().position(|&b| b == owner) {
                    rows.content_doc.insert(i, *child);
                    break 'docs;
                }
            }
        }
        let mut c = Composer {
            docs: &docs,
            payloads,
            dom: Dom {
                documents,
                ..Dom::default()
            },
            visiting: vec![false; docs.len()],
        };
        let backend = docs[0].backend.first().copied().unwrap_or(0);
        c.push(NodeKind::Document, backend, 0, None);
        c.visiting[0] = true;
        c.dom.documents[0].attached = true;
        let roots: Vec<usize> = (0..docs[0].node_type.len())
            .filter(|&i| docs[0].parent[i].is_none())
            .collect();
        for r in roots {
            if docs[0].node_type[r] == DOCUMENT_NODE {
                for &ch in &docs[0].children[r] {
                    c.node(0, ch, 0, 1, None);
                }
            } else {
                c.node(0, r, 0, 1, None);
            }
        }
        let mut dom = c.dom;
        dom.by_backend = dom
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.backend_node_id, i))
            .collect();
        Ok(dom)
    }

    /// The nearest ancestor of node `id` (not `id` itself) with tag `tag`.
    pub fn enclosing(&self, id: usize, tag: &str) -> Option<usize> {
        let mut cur = self.nodes.get(id)?.parent;
        while let Some(p) = cur {
            if self.nodes[p].tag() == Some(tag) {
                return Some(p);
            }
            cur = self.nodes[p].parent;
        }
        None
    }

    /// Node `id`, or failing its own box one of its descendants (an inline `<a>` around a block, an icon
    /// link whose only box is its `<svg>`), has a box a pointer can hit once the page is scrolled to it: at
    /// least [`MIN_HIT_PX`] on each side, not pushed off to the left or top, and not inside a clipping
    /// container (`overflow` other than visible) that is itself thinner than that — a closed menu
    /// (`height: 0; overflow: hidden`), screen-reader-only text (a 1 px box that clips). A container that
    /// merely scrolls its content out of view does not count: scrolling brings it back. At most
    /// [`REACH_SEARCH_NODES`] descendants are looked at.
    pub fn is_reachable(&self, id: usize) -> bool {
        if id >= self.nodes.len() {
            return false;
        }
        if self.hittable(id) {
            return true;
        }
        let mut stack: Vec<usize> = self.nodes[id].children.clone();
        let mut seen = 0;
        while let Some(c) = stack.pop() {
            seen += 1;
            if seen > REACH_SEARCH_NODES {
                return false;
            }
            if self.hittable(c) {
                return true;
            }
            stack.extend(self.nodes[c].children.iter().copied());
        }
        false
    }

    /// Node `id`'s own box qualifies for [`Dom::is_reachable`].
    fn hittable(&self, id: usize) -> bool {
        let Some(layout) = self.nodes[id].layout.as_ref() else {
            return false;
        };
        let r = layout.bounds;
        r.width >= MIN_HIT_PX
            && r.height >= MIN_HIT_PX
            && r.x + r.width > 0.0
            && r.y + r.height > 0.0
            && !self.clipped_to_nothing(id)
    }

    /// A clipping container thinner than [`MIN_HIT_PX`] holds node `id`.
    fn clipped_to_nothing(&self, id: usize) -> bool {
        self.clipping_boxes(id)
            .any(|b| b.width < MIN_HIT_PX || b.height < MIN_HIT_PX)
    }

    /// The part of node `id`'s box that the containers clipping it leave on the page (what a person
    /// sees of it once the page itself is scrolled there); `None` without a box. A scroller that scrolled
    /// it away leaves nothing: it is not on screen, though a scroll brings it back.
    pub fn clipped_bounds(&self, id: usize) -> Option<Rect> {
        let own = self.nodes.get(id)?.layout.as_ref()?.bounds;
        Some(
            self.clipping_boxes(id)
                .fold(own, |r, clip| r.intersection(&clip)),
        )
    }

    /// The boxes of the containers (`overflow` other than visible) that clip node `id`, innermost first.
    /// Only the containers that clip it count: an absolutely positioned box escapes those between it and
    /// its positioned containing block, a fixed one escapes all. `html` and `body` clip to the viewport,
    /// which scrolls.
    fn clipping_boxes(&self, id: usize) -> impl Iterator<Item = Rect> + '_ {
        #[derive(PartialEq, Clone, Copy)]
        enum Escape {
            None,
            ToPositioned,
            All,
        }
        let escape_of =
            move |i: usize| match self.nodes[i].layout.as_ref().map(|l| &*l.style.position) {
                Some("fixed") => Escape::All,
                Some("absolute") => Escape::ToPositioned,
                _ => Escape::None,
            };
        let mut escape = escape_of(id);
        let mut cur = self.nodes[id].parent;
        std::iter::from_fn(move || {
            while let Some(p) = cur {
                cur = self.nodes[p].parent;
                let layout = self.nodes[p].layout.as_ref();
                let positioned = layout.is_some_and(|l| &*l.style.position != "static");
                if escape == Escape::ToPositioned && positioned {
                    // `p` is the containing block: its clip applies again.
                    escape = Escape::None;
                }
                let root = matches!(self.nodes[p].tag(), Some("html" | "body"));
                let clip = layout
                    .filter(|l| escape == Escape::None && !root && l.style.clips())
                    .map(|l| l.bounds);
                if escape == Escape::None {
                    escape = escape_of(p);
                }
                if clip.is_some() {
                    return clip;
                }
            }
            None
        })
    }

    /// Node `id` has a non-empty box on the page (not pushed off to the left or top) that every
    /// clipping ancestor (`overflow` other than visible) overlaps: a user could scroll to it.
    pub fn is_rendered(&self, id: usize) -> bool {
        let Some(rect) = self
            .nodes
            .get(id)
            .and_then(|n| n.layout.as_ref())
            .map(|l| l.bounds)
        else {
            return false;
        };
        if rect.is_empty() || rect.x + rect.width <= 0.0 || rect.y + rect.height <= 0.0 {
            return false;
        }
        let mut cur = self.nodes[id].parent;
        while let Some(p) = cur {
            // `html`/`body` clip to the viewport (scroll locks under a modal), not to a container.
            let root = matches!(self.nodes[p].tag(), Some("html" | "body"));
            if let Some(l) = self.nodes[p].layout.as_ref().filter(|_| !root) {
                if l.style.clips() && !l.bounds.intersects(&rect) {
                    return false;
                }
            }
            cur = self.nodes[p].parent;
        }
        true
    }

    /// The root node index (always 0 for a tree built by [`Dom::from_snapshot`]).
    pub fn root(&self) -> usize {
        0
    }

    /// The main frame's base URL (what relative links resolve against).
    pub fn base_url(&self) -> &str {
        self.documents
            .first()
            .map(|d| d.base_url.as_str())
            .unwrap_or("")
    }

    /// The base URL of the document that node `id` belongs to.
    pub fn base_url_of(&self, id: usize) -> &str {
        self.nodes
            .get(id)
            .and_then(|n| self.documents.get(n.document))
            .map(|d| d.base_url.as_str())
            .unwrap_or("")
    }

    /// The main document's URL, title and viewport size (CSS px), as the snapshot gives them: what
    /// `location.href`, `document.title` and `innerWidth` × `innerHeight` say. The viewport is `None`
    /// when the snapshot has no box for the document.
    pub fn page(&self) -> (&str, &str, Option<(f64, f64)>) {
        self.documents.first().map_or(("", "", None), |d| {
            (d.url.as_str(), d.title.as_str(), d.viewport)
        })
    }

    /// The viewport in main-document coordinates, for a viewport of `width` × `height` CSS px.
    pub fn viewport_rect(&self, width: f64, height: f64) -> Rect {
        let (x, y) = self
            .documents
            .first()
            .map(|d| (d.scroll_x, d.scroll_y))
            .unwrap_or((0.0, 0.0));
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    /// The one-line marker the markdown puts where the cross-origin frame held by `<iframe>` node `id` starts
    /// (SPEC §5 "Frames"): `frame f<k>: <origin>`, `f<k>` being the frame id `evaluate` takes; `None` for
    /// other nodes.
    pub fn frame_marker(&self, id: usize) -> Option<String> {
        let part = *self.remote_frames.get(&id)?;
        let url = self
            .documents
            .iter()
            .find(|d| d.part == part)
            .map(|d| d.url.as_str())
            .unwrap_or("");
        let origin = url::Url::parse(url)
            .map(|u| u.origin().ascii_serialization())
            .ok()
            .filter(|o| o != "null")
            .unwrap_or_else(|| url.to_owned());
        Some(format!("frame {}: {origin}", frame_label(part)))
    }

    /// True when a known CAPTCHA provider's iframe is on the page (SPEC §5 `captchaFrame`).
    pub fn has_captcha_frame(&self) -> bool {
        self.iframe_urls.iter().any(|u| is_captcha_frame_url(u))
    }
}

/// True when `url` is the iframe of a known CAPTCHA provider: Cloudflare challenges / Turnstile,
/// hCaptcha, Google reCAPTCHA (google.com/recaptcha, recaptcha.net), also Arkose and GeeTest.
pub fn is_captcha_frame_url(url: &str) -> bool {
    let Ok(u) = url::Url::parse(url) else {
        return false;
    };
    let host = u.host_str().unwrap_or("").to_ascii_lowercase();
    let path = u.path().to_ascii_lowercase();
    let on = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    on("challenges.cloudflare.com")
        || on("hcaptcha.com")
        || on("recaptcha.net")
        || ((on("google.com") || on("recaptcha.google.com")) && path.starts_with("/recaptcha"))
        || on("arkoselabs.com")
        || on("funcaptcha.com")
        || on("geetest.com")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-written snapshot: html > body > [div#host (shadow: p > slot), iframe → doc 1].
    fn sample() -> serde_json::Value {
        let strings = [
            "#document",
            "HTML",
            "BODY",
            "DIV",
            "#text",
            "light",
            "P",
            "SLOT",
            "shadowed ",
            "IFRAME",
            "src",
            "f.html",
            "http://h.test/a/",
            "http://h.test/a/f.html",
            "framed",
            "block",
            "visible",
            "static",
            "open",
            "#document-fragment",
            "inline",
            "main-frame",
            "child-frame",
            "id",
            "host",
        ];
        serde_json::json!({
            "strings": strings,
            "documents": [
                {
                    "documentURL": 12, "baseURL": 12, "frameId": 21,
                    "scrollOffsetX": 0.0, "scrollOffsetY": 100.0,
                    "nodes": {
                        "parentIndex": [-1, 0, 1, 2, 3, 3, 5, 6, 7, 6, 2],
                        "nodeType":    [ 9, 1, 1, 1, 3, 11, 1, 1, 3, 3, 1],
                        "nodeName":    [ 0, 1, 2, 3, 4, 19, 6, 7, 4, 4, 9],
                        "nodeValue":   [-1,-1,-1,-1, 5, -1,-1,-1, 5, 8, -1],
                        "backendNodeId": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
                        "attributes": [[], [], [], [23, 24], [], [], [], [], [], [], [10, 11]],
                        "shadowRootType": {"index": [5], "value": [18]},
                        "contentDocumentIndex": {"index": [10], "value": [1]}
                    },
                    "layout": {
                        "nodeIndex": [1, 2, 3, 4, 6, 9, 10],
                        "styles": [[15,16,17,15,15],[15,16,17,15,15],[15,16,17,15,15],[20,16,17,15,15],
                                   [15,16,17,15,15],[20,16,17,15,15],[20,16,17,15,15]],
                        "bounds": [[0,0,800,600],[8,8,784,500],[8,8,784,20],[8,8,40,20],[8,8,784,20],
                                   [50,8,60,20],[8,300,400,200]]
                    }
                },
                {
                    "documentURL": 13, "baseURL": 13, "frameId": 22,
                    "nodes": {
                        "parentIndex": [-1, 0, 1, 2],
                        "nodeType": [9, 1, 1, 3],
                        "nodeName": [0, 1, 2, 4],
                        "nodeValue": [-1, -1, -1, 14],
                        "backendNodeId": [20, 21, 22, 23]
                    },
                    "layout": {
                        "nodeIndex": [3],
                        "styles": [[20,16,17,15,15]],
                        "bounds": [[10, 10, 50, 20]]
                    }
                }
            ]
        })
    }

    fn texts(dom: &Dom) -> Vec<String> {
        dom.nodes
            .iter()
            .filter_map(|n| n.text().map(str::to_string))
            .collect()
    }

    #[test]
    fn shadow_root_replaces_light_children_and_slot_takes_them_in_order() {
        let dom = Dom::from_snapshot(&sample()).unwrap();
        // The light text is rendered where the slot is: first in the shadow <p>, before "shadowed".
        assert_eq!(texts(&dom), vec!["light", "shadowed ", "framed"]);
        let host = dom
            .nodes
            .iter()
            .position(|n| n.attr("id") == Some("host"))
            .unwrap();
        let p = dom.nodes[host].children[0];
        assert_eq!(dom.nodes[p].tag(), Some("p"));
        let slot = dom.nodes[p].children[0];
        assert_eq!(dom.nodes[slot].tag(), Some("slot"));
        assert_eq!(dom.nodes[dom.nodes[slot].children[0]].text(), Some("light"));
    }

    #[test]
    fn a_light_child_goes_into_the_first_of_two_slots_of_one_name_only() {
        let mut snap = sample();
        // A second default <slot> in the shadow <p>, after its text.
        let nodes = &mut snap["documents"][0]["nodes"];
        for (key, v) in [
            ("parentIndex", serde_json::json!(6)),
            ("nodeType", serde_json::json!(1)),
            ("nodeName", serde_json::json!(7)),
            ("nodeValue", serde_json::json!(-1)),
            ("backendNodeId", serde_json::json!(12)),
            ("attributes", serde_json::json!([])),
        ] {
            nodes[key].as_array_mut().unwrap().push(v);
        }
        let dom = Dom::from_snapshot(&snap).unwrap();
        assert_eq!(texts(&dom), vec!["light", "shadowed ", "framed"]);
        let slots: Vec<usize> = (0..dom.nodes.len())
            .filter(|&i| dom.nodes[i].tag() == Some("slot"))
            .collect();
        assert_eq!(slots.len(), 2, "both slots are in the tree");
        assert!(dom.nodes[slots[1]].children.is_empty());
    }

    #[test]
    fn checked_inputs_of_every_document_are_keyed_by_backend_id() {
        let mut snap = sample();
        snap["documents"][0]["nodes"]["inputChecked"] = serde_json::json!({"index": [3]});
        snap["documents"][1]["nodes"]["inputChecked"] = serde_json::json!({"index": [2, 99]});
        let dom = Dom::from_snapshot(&snap).unwrap();
        let mut got: Vec<i64> = dom.checked_inputs.iter().copied().collect();
        got.sort();
        assert_eq!(got, vec![4, 22]);
        assert!(Dom::from_snapshot(&sample())
            .unwrap()
            .checked_inputs
            .is_empty());
    }

    #[test]
    fn capture_params_ask_for_the_styles_and_no_dom_rects() {
        let p = serde_json::to_value(capture_params()).expect("params");
        assert_eq!(p["computedStyles"], serde_json::json!(COMPUTED_STYLES));
        assert!(p.get("includeDOMRects").is_none(), "{p}");
    }

    #[test]
    fn iframe_document_is_stitched_under_its_element_with_offset_rects() {
        let dom = Dom::from_snapshot(&sample()).unwrap();
        let iframe = dom
            .nodes
            .iter()
            .position(|n| n.tag() == Some("iframe"))
            .unwrap();
        let html = dom.nodes[iframe].children[0];
        assert_eq!(dom.nodes[html].tag(), Some("html"));
        assert_eq!(dom.nodes[html].document, 1);
        let framed = dom
            .nodes
            .iter()
            .find(|n| n.text() == Some("framed"))
            .unwrap();
        let b = framed.layout.as_ref().unwrap().bounds;
        assert_eq!((b.x, b.y), (18.0, 310.0));
        assert_eq!(
            dom.frame_of_iframe.get(&11).map(String::as_str),
            Some("child-frame")
        );
        assert_eq!(dom.iframe_urls, vec!["http://h.test/a/f.html".to_string()]);
        assert_eq!(dom.base_url_of(html), "http://h.test/a/f.html");
    }

    #[test]
    fn viewport_rect_uses_main_document_scroll() {
        let dom = Dom::from_snapshot(&sample()).unwrap();
        assert_eq!(
            dom.viewport_rect(800.0, 600.0),
            Rect {
                x: 0.0,
                y: 100.0,
                width: 800.0,
                height: 600.0
            }
        );
        assert_eq!(
            dom.rects.get(&4),
            Some(&Rect {
                x: 8.0,
                y: 8.0,
                width: 784.0,
                height: 20.0
            })
        );
    }

    #[test]
    fn malformed_and_empty_snapshots_are_errors_not_panics() {
        assert!(matches!(
            Dom::from_snapshot(&serde_json::json!({"documents": 3})),
            Err(SnapshotError::Json(_))
        ));
        assert!(matches!(
            Dom::from_snapshot(&serde_json::json!({"documents": [], "strings": []})),
            Err(SnapshotError::NoDocument)
        ));
        // Out-of-range string and parent indexes are tolerated.
        let v = serde_json::json!({"strings": ["#document"], "documents": [{"nodes": {
            "parentIndex": [-1, 99], "nodeType": [9, 3], "nodeName": [0, 42], "nodeValue": [-1, 7],
            "backendNodeId": [1]}}]});
        let dom = Dom::from_snapshot(&v).unwrap();
        assert_eq!(dom.nodes.len(), 2);
    }

    #[test]
    fn captcha_frame_urls_are_recognised_by_host_not_substring() {
        for u in [
            "https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0",
            "https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html",
            "https://www.google.com/recaptcha/api2/anchor?k=x",
            "https://www.recaptcha.net/recaptcha/api2/bframe",
        ] {
            assert!(is_captcha_frame_url(u), "{u}");
        }
        for u in [
            "https://www.google.com/maps/embed",
            "https://hcaptcha.com.evil.test/",
            "https://example.com/?u=challenges.cloudflare.com",
            "about:blank",
            "not a url",
        ] {
            assert!(!is_captcha_frame_url(u), "{u}");
        }
    }

    /// One document `<html><body><p>{text}</p>[<iframe>]</body></html>` as a whole snapshot answer; the
    /// backend ids are 1…6 in every target (so parts collide unless moved apart).
    fn frame_snapshot(url: &str, text: &str, with_iframe: bool) -> String {
        let n = if with_iframe { 6 } else { 5 };
        let parent = &[-1, 0, 1, 2, 3, 2][..n];
        let kind = &[9, 1, 1, 1, 3, 1][..n];
        let name = &[0, 1, 2, 3, 6, 4][..n];
        let value = &[-1, -1, -1, -1, 6, -1][..n];
        let backend = &[1, 2, 3, 4, 5, 6][..n];
        serde_json::json!({
            "strings": ["#document", "HTML", "BODY", "P", "IFRAME", url, text, "fid"],
            "documents": [{
                "documentURL": 5, "baseURL": 5, "frameId": 7,
                "nodes": {
                    "parentIndex": parent,
                    "nodeType": kind,
                    "nodeName": name,
                    "nodeValue": value,
                    "backendNodeId": backend
                },
                "layout": {"nodeIndex": [4], "styles": [[]], "bounds": [[10, 10, 50, 20]]}
            }]
        })
        .to_string()
    }

    #[test]
    fn cross_origin_frame_parts_are_stitched_in_at_their_iframe_with_ids_of_their_own() {
        let main = frame_snapshot("http://a.test/", "top text", true);
        let mid = frame_snapshot("http://b.test/mid.html", "middle text", true);
        let leaf = frame_snapshot("http://c.test:8080/leaf.html", "leaf text", false);
        let parts = [
            FramePart {
                snapshot: &mid,
                parent: 0,
                owner: 6,
            },
            FramePart {
                snapshot: &leaf,
                parent: 1,
                owner: 6,
            },
        ];
        let dom = Dom::from_parts(&main, &parts).unwrap();
        assert_eq!(texts(&dom), ["top text", "middle text", "leaf text"]);
        // The leaf's text node: backend 5 of part 2, distinct from the top's and the middle's 5.
        let leaf_text = part_backend(2, 5);
        assert_eq!(split_backend(leaf_text), (2, 5));
        assert!(dom.by_backend.contains_key(&leaf_text) && dom.by_backend.contains_key(&5));
        let markers: Vec<String> = (0..dom.nodes.len())
            .filter_map(|i| dom.frame_marker(i))
            .collect();
        assert_eq!(
            markers,
            ["frame f1: http://b.test", "frame f2: http://c.test:8080"]
        );
        assert_eq!(parse_frame_label("f2"), Some(2));
        assert_eq!(parse_frame_label("f02"), None);
        // A frame whose snapshot is unusable is left out; the others keep their part numbers.
        let parts = [
            FramePart {
                snapshot: "{}",
                parent: 0,
                owner: 6,
            },
            FramePart {
                snapshot: &leaf,
                parent: 1,
                owner: 6,
            },
        ];
        assert_eq!(
            texts(&Dom::from_parts(&main, &parts).unwrap()),
            ["top text"]
        );
    }
}

/// A tiny DOM builder for the native tests of the modules that read a [`Dom`].
#[cfg(test)]
pub(crate) mod build {
    use super::*;

    /// A node to build: element (tag, attributes, children) or text.
    pub(crate) enum T {
        E(&'static str, Vec<(&'static str, &'static str)>, Vec<T>),
        X(&'static str),
    }

    /// An element.
    pub(crate) fn e(tag: &'static str, attrs: &[(&'static str, &'static str)], kids: Vec<T>) -> T {
        T::E(tag, attrs.to_vec(), kids)
    }

    /// A text node.
    pub(crate) fn t(text: &'static str) -> T {
        T::X(text)
    }

    fn default_display(tag: &str) -> &'static str {
        match tag {
            "li" => "list-item",
            "table" => "table",
            "tr" => "table-row",
            "td" | "th" => "table-cell",
            "thead" | "tbody" => "table-row-group",
            "button" | "input" | "img" => "inline-block",
            t if BLOCK_TAGS_FOR_TESTS.contains(&t) => "block",
            _ => "inline",
        }
    }

    const BLOCK_TAGS_FOR_TESTS: &[&str] = &[
        "html",
        "body",
        "div",
        "p",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "ul",
        "ol",
        "pre",
        "blockquote",
        "nav",
        "footer",
        "aside",
        "header",
        "main",
        "article",
        "section",
        "form",
        "figure",
        "hr",
    ];

    /// `html > body > kids` at `url`. Every rendered node gets a 800×20 px box, one below the other;
    /// `style` understands `display:none`, `visibility:hidden`, `position:*`, `overflow:hidden`,
    /// `width:N`, `height:N` (px), `top:N` (px).
    pub(crate) fn dom(url: &str, kids: Vec<T>) -> Dom {
        let mut b = Builder {
            dom: Dom::default(),
            y: 0.0,
            backend: 100,
        };
        b.dom.documents.push(DocumentInfo {
            url: url.into(),
            base_url: url.into(),
            attached: true,
            ..DocumentInfo::default()
        });
        b.dom.nodes.push(DomNode {
            kind: NodeKind::Document,
            children: vec![],
            parent: None,
            backend_node_id: 1,
            document: 0,
            layout: None,
        });
        let body = e("html", &[], vec![e("body", &[], kids)]);
        b.add(
            body,
            0,
            Some(Style {
                visibility: "visible".into(),
                ..Style::default()
            }),
        );
        b.dom.by_backend = b
            .dom
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.backend_node_id, i))
            .collect();
        b.dom
    }

    struct Builder {
        dom: Dom,
        y: f64,
        backend: i64,
    }

    impl Builder {
        fn add(&mut self, node: T, parent: usize, inherited: Option<Style>) {
            self.backend += 1;
            let id = self.dom.nodes.len();
            match node {
                T::X(text) => {
                    let layout = inherited.map(|style| Layout {
                        bounds: Rect {
                            x: 0.0,
                            y: self.y,
                            width: 100.0,
                            height: 20.0,
                        },
                        style,
                    });
                    self.dom.nodes.push(DomNode {
                        kind: NodeKind::Text(text.into()),
                        children: vec![],
                        parent: Some(parent),
                        backend_node_id: self.backend,
                        document: 0,
                        layout,
                    });
                }
                T::E(tag, attrs, kids) => {
                    let mut style = inherited.clone().map(|s| Style {
                        display: default_display(tag).into(),
                        visibility: s.visibility,
                        position: "static".into(),
                        overflow_x: "visible".into(),
                        overflow_y: "visible".into(),
                    });
                    let mut bounds = Rect {
                        x: 0.0,
                        y: self.y,
                        width: 800.0,
                        height: 20.0,
                    };
                    if let Some(css) = attrs.iter().find(|(n, _)| *n == "style").map(|(_, v)| *v) {
                        for decl in css.split(';') {
                            let Some((k, v)) = decl.split_once(':') else {
                                continue;
                            };
                            let (k, v) = (k.trim(), v.trim());
                            let px = v.trim_end_matches("px").parse::<f64>().ok();
                            match (k, style.as_mut()) {
                                ("display", _) if v == "none" => style = None,
                                ("visibility", Some(s)) => s.visibility = v.into(),
                                ("position", Some(s)) => s.position = v.into(),
                                ("overflow", Some(s)) => {
                                    s.overflow_x = v.into();
                                    s.overflow_y = v.into();
                                }
                                ("width", _) => bounds.width = px.unwrap_or(bounds.width),
                                ("height", _) => bounds.height = px.unwrap_or(bounds.height),
                                ("top", _) => bounds.y = px.unwrap_or(bounds.y),
                                _ => {}
                            }
                        }
                    }
                    self.y += 20.0;
                    let layout = style.clone().map(|style| Layout { bounds, style });
                    if let Some(l) = &layout {
                        self.dom.rects.insert(self.backend, l.bounds);
                    }
                    self.dom.nodes.push(DomNode {
                        kind: NodeKind::Element {
                            tag: tag.into(),
                            attrs: attrs
                                .iter()
                                .map(|(n, v)| (n.to_string(), v.to_string()))
                                .collect(),
                        },
                        children: vec![],
                        parent: Some(parent),
                        backend_node_id: self.backend,
                        document: 0,
                        layout,
                    });
                    for k in kids {
                        self.add(k, id, style.clone());
                    }
                }
            }
            self.dom.nodes[parent].children.push(id);
        }
    }
}
