//! The raw `DOMSnapshot.captureSnapshot` response (only the fields used) decoded into per-node rows,
//! one document at a time: flat, column-oriented arrays and a shared string table in, [`DocRows`] and
//! [`DocPayload`] out.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde::Deserialize;

use super::model::{Rect, Style};

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

// ---- raw snapshot shape (only the fields used) ----

#[derive(Deserialize, Default)]
pub(super) struct RawSnapshot {
    #[serde(default)]
    pub(super) documents: Vec<RawDocument>,
    #[serde(default)]
    pub(super) strings: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(super) struct RawDocument {
    #[serde(rename = "documentURL")]
    pub(super) document_url: i64,
    /// `document.title` (string index; absent or -1 without a title).
    #[serde(default = "no_string")]
    pub(super) title: i64,
    #[serde(rename = "baseURL")]
    pub(super) base_url: i64,
    pub(super) frame_id: i64,
    pub(super) nodes: RawNodes,
    layout: RawLayout,
    pub(super) scroll_offset_x: Option<f64>,
    pub(super) scroll_offset_y: Option<f64>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(super) struct RawNodes {
    parent_index: Vec<i64>,
    pub(super) node_type: Vec<i64>,
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
    paint_orders: Vec<i64>,
}

pub(super) const ELEMENT_NODE: i64 = 1;
pub(super) const TEXT_NODE: i64 = 3;
pub(super) const CDATA_NODE: i64 = 4;
pub(super) const DOCUMENT_NODE: i64 = 9;
pub(super) const FRAGMENT_NODE: i64 = 11;

/// One document, decoded into per-node rows: the tree's shape, read while composing.
pub(super) struct DocRows {
    pub(super) parent: Vec<Option<usize>>,
    pub(super) children: Vec<Vec<usize>>,
    pub(super) node_type: Vec<i64>,
    pub(super) backend: Vec<i64>,
    pub(super) shadow_type: HashMap<usize, String>,
    pub(super) content_doc: HashMap<usize, usize>,
    pub(super) pseudo: Vec<bool>,
    pub(super) values: HashMap<usize, String>,
    pub(super) checked: HashSet<usize>,
    pub(super) selected: HashSet<usize>,
}

/// What each node of a [`DocRows`] document carries into the composed tree. The composer moves it out
/// ([`std::mem::take`]) instead of copying it, so a node is composed once: one met again (a light child
/// that two slots of one name would take, a malformed snapshot) is skipped, as the browser assigns a light
/// child to the first of those slots only.
#[derive(Default)]
pub(super) struct DocPayload {
    /// The nodes already composed.
    pub(super) composed: Vec<bool>,
    /// Node names (tag names as CDP gives them, uppercase for HTML).
    pub(super) name: Vec<String>,
    /// Text nodes' `nodeValue`; empty for other nodes.
    pub(super) value: Vec<String>,
    /// Attributes, names lowercase.
    pub(super) attrs: Vec<Vec<(String, String)>>,
    /// Box, style and paint order of the rendered nodes.
    pub(super) layout: Vec<Option<(Rect, Style, i64)>>,
}

fn no_string() -> i64 {
    -1
}

pub(super) fn string_at(strings: &[String], i: i64) -> String {
    usize::try_from(i)
        .ok()
        .and_then(|i| strings.get(i))
        .cloned()
        .unwrap_or_default()
}

pub(super) fn decode(doc: &RawDocument, strings: &[String]) -> (DocRows, DocPayload) {
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
    let mut layout: Vec<Option<(Rect, Style, i64)>> = vec![None; n];
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
        if let Some((r, _, _)) = slot {
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
            opacity: v(5),
            color: v(6),
            background_color: v(7),
            font_size: v(8),
            clip: v(9),
            clip_path: v(10),
            filter: v(11),
            text_fill: v(12),
            background_clip: v(13),
            background_image: v(14),
        };
        let paint_order = doc.layout.paint_orders.get(li).copied().unwrap_or(0);
        *slot = Some((rect, style, paint_order));
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
