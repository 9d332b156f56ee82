//! The composed tree a user sees, from the decoded documents ([`Dom::from_snapshot`],
//! [`Dom::from_parts`]): shadow roots replace their host's light children (slots filled with the assigned
//! light nodes) and frame documents are stitched in under their `<iframe>`, all in document order.

use serde::Deserialize;

use super::decode::{
    decode, string_at, DocPayload, DocRows, RawSnapshot, SnapshotError, CDATA_NODE, DOCUMENT_NODE,
    ELEMENT_NODE, FRAGMENT_NODE, TEXT_NODE,
};
use super::frames::{part_backend, FramePart};
use super::model::{DocumentInfo, Dom, DomNode, Layout, NodeKind, Rect};

/// Deepest nesting followed when composing the tree; deeper subtrees are cut (pathological pages only),
/// which keeps the recursion well inside a wasm stack.
const MAX_DEPTH: usize = 512;

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
        let (rect, style, paint_order) = self.payloads.get_mut(d)?.layout.get_mut(i)?.take()?;
        let info = &self.dom.documents[d];
        let bounds = Rect {
            x: rect.x + info.offset_x,
            y: rect.y + info.offset_y,
            ..rect
        };
        Some(Layout {
            bounds,
            style,
            paint_order,
        })
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
                    .map(|(r, _, _)| (r.width, r.height));
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
}
