//! Interactive elements from the accessibility tree, and the per-tab uid cache (SPEC §5 `elements`).
//!
//! Input: the `nodes` of `Accessibility.getFullAXTree` for the main frame and for each same-origin
//! frame, plus the page's [`Dom`] (layout boxes for the `visible` flag, `<iframe>` → frame ids to put
//! frame content where the frame is, and input attributes the AX tree does not carry). Output:
//! [`ElementList`] — the interactive nodes in document order, at most [`MAX_ELEMENTS`], visible ones
//! preferred, and how many there were in all. Building the list is kept apart from assigning uids
//! ([`UidCache`]), which the wasm side does once per tab.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use super::snapshot::{Dom, Rect};

/// Most elements returned by one `extract` (SPEC §5: ≤ 200).
pub const MAX_ELEMENTS: usize = 200;

/// Longest `name` / `value` kept, in chars; longer ones end with `…`.
pub const MAX_LABEL_CHARS: usize = 120;

/// AX roles that are interactive by themselves (ARIA roles and Chrome's internal names for native
/// controls), compared case-insensitively.
const INTERACTIVE_ROLES: &[&str] = &[
    "button",
    "link",
    "textbox",
    "searchbox",
    "combobox",
    "checkbox",
    "radio",
    "switch",
    "slider",
    "spinbutton",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "listbox",
    "treeitem",
    "togglebutton",
    "popupbutton",
    "disclosuretriangle",
    "colorwell",
    "date",
    "datetime",
    "inputtime",
    "textfieldwithcombobox",
    "scrollbar",
];

/// Roles never listed even when focusable: documents, frames, landmarks and structure that pages make
/// focusable only as skip-link or scroll targets.
const STRUCTURAL_ROLES: &[&str] = &[
    "rootwebarea",
    "webarea",
    "iframe",
    "iframepresentational",
    "document",
    "application",
    "heading",
    "main",
    "article",
    "region",
    "dialog",
    "alertdialog",
    "alert",
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "form",
    "list",
    "listitem",
    "paragraph",
    "table",
    "row",
    "cell",
    "statictext",
    "inlinetextbox",
    "linebreak",
    "image",
    "img",
    "figure",
    "group",
    "section",
    "status",
    "log",
    "tabpanel",
    "menulistpopup",
    "none",
    "presentation",
    "ignored",
];

/// One interactive element (before a uid is given to it).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AxElement {
    /// AX role as Chrome reports it (`button`, `link`, `textbox`, `combobox`, …).
    pub role: String,
    /// Accessible name, whitespace collapsed, ≤ [`MAX_LABEL_CHARS`]; `None` when empty.
    pub name: Option<String>,
    /// Current value (text fields, sliders, comboboxes), ≤ [`MAX_LABEL_CHARS`]; `None` when empty.
    pub value: Option<String>,
    /// The node's layout box intersects the viewport (`Some(false)` when it has no box).
    pub visible: Option<bool>,
    /// CDP `backendNodeId` the uid resolves to.
    pub backend_node_id: i64,
    /// Lowercase `type` attribute of an `<input>` (e.g. `password`), for the obstacle classifier.
    pub input_type: Option<String>,
    /// Lowercase `autocomplete` attribute (e.g. `current-password`, `new-password`).
    pub autocomplete: Option<String>,
    /// `backendNodeId` of the `<form>` the element is in, if any (groups sign-in vs sign-up fields).
    pub form: Option<i64>,
    /// The element has a box on the page that no ancestor clips away (it may be below the fold);
    /// false for collapsed menus and off-canvas panels.
    pub rendered: bool,
}

/// The interactive elements of a page (SPEC §5).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ElementList {
    /// At most [`MAX_ELEMENTS`], in document order.
    pub elements: Vec<AxElement>,
    /// How many interactive nodes qualified before the cap (`totalElements`).
    pub total: usize,
    /// `elements` was capped (`truncated.elements`).
    pub truncated: bool,
}

/// Why an AX tree could not be read.
#[derive(Debug, thiserror::Error)]
pub enum AxError {
    /// The value is not a list of CDP `Accessibility.AXNode`s.
    #[error("Accessibility.getFullAXTree nodes are malformed: {0}")]
    Json(#[from] serde_json::Error),
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawAxNode {
    node_id: String,
    ignored: bool,
    role: Option<RawAxValue>,
    name: Option<RawAxValue>,
    value: Option<RawAxValue>,
    properties: Vec<RawAxProperty>,
    child_ids: Vec<String>,
    parent_id: Option<String>,
    #[serde(rename = "backendDOMNodeId")]
    backend_dom_node_id: Option<i64>,
    frame_id: Option<String>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
struct RawAxValue {
    value: Option<serde_json::Value>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
struct RawAxProperty {
    name: String,
    value: RawAxValue,
}

impl RawAxValue {
    fn text(&self) -> Option<String> {
        match self.value.as_ref()? {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Number(n) => Some(n.to_string()),
            serde_json::Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }
}

impl RawAxNode {
    fn role(&self) -> String {
        self.role
            .as_ref()
            .and_then(RawAxValue::text)
            .unwrap_or_default()
    }

    fn prop(&self, name: &str) -> Option<&RawAxValue> {
        self.properties
            .iter()
            .find(|p| p.name == name)
            .map(|p| &p.value)
    }

    fn flag(&self, name: &str) -> bool {
        self.prop(name)
            .and_then(|v| v.value.as_ref())
            .is_some_and(|v| {
                v.as_bool().unwrap_or(false)
                    || v.as_str().is_some_and(|s| !s.is_empty() && s != "false")
            })
    }
}

/// One frame's `Accessibility.getFullAXTree` result: its `nodes` array.
#[derive(Debug, Clone)]
pub struct AxTree {
    nodes: Vec<RawAxNode>,
}

impl AxTree {
    /// Parses the `nodes` array (a JSON array of CDP `AXNode`s).
    pub fn from_nodes(nodes: &serde_json::Value) -> Result<AxTree, AxError> {
        Ok(AxTree {
            nodes: Vec::<RawAxNode>::deserialize(nodes)?,
        })
    }

    fn root_frame(&self) -> Option<&str> {
        self.nodes
            .iter()
            .find(|n| n.parent_id.is_none())
            .and_then(|n| n.frame_id.as_deref())
    }
}

/// Every interactive AX node of a page, in document order (SPEC §5 rules, before the cap).
/// `trees[0]` is the main frame; the others are same-origin frames, spliced in at their `<iframe>`
/// (via `dom.frame_of_iframe`) or, when their iframe is unknown, appended. `viewport` is in
/// main-document coordinates ([`Dom::viewport_rect`]).
pub fn interactive_elements(trees: &[AxTree], dom: &Dom, viewport: Rect) -> Vec<AxElement> {
    let by_frame: HashMap<&str, usize> = trees
        .iter()
        .enumerate()
        .filter_map(|(i, t)| Some((t.root_frame()?, i)))
        .collect();
    let iframe_frame: HashMap<i64, usize> = dom
        .frame_of_iframe
        .iter()
        .filter_map(|(b, f)| Some((*b, *by_frame.get(f.as_str())?)))
        .collect();

    let mut walk = Walk {
        trees,
        iframe_frame,
        tree_done: vec![false; trees.len()],
        seen_backend: HashSet::new(),
        out: Vec::new(),
    };
    for t in 0..trees.len() {
        walk.tree(t);
    }

    walk.out
        .into_iter()
        .map(|(node, _)| {
            let backend = node.backend_dom_node_id.unwrap_or(0);
            let dom_node = dom.by_backend.get(&backend).copied();
            let visible = Some(
                dom.rects
                    .get(&backend)
                    .is_some_and(|r| r.intersects(&viewport)),
            );
            let attr = |name: &str| {
                dom_node
                    .and_then(|i| dom.nodes[i].attr(name))
                    .map(|v| v.trim().to_ascii_lowercase())
                    .filter(|v| !v.is_empty())
            };
            let is_input = dom_node.is_some_and(|i| dom.nodes[i].tag() == Some("input"));
            AxElement {
                role: node.role(),
                name: node
                    .name
                    .as_ref()
                    .and_then(RawAxValue::text)
                    .and_then(|s| label(&s)),
                value: node
                    .value
                    .as_ref()
                    .and_then(RawAxValue::text)
                    .and_then(|s| label(&s)),
                visible,
                backend_node_id: backend,
                input_type: attr("type").filter(|_| is_input),
                autocomplete: attr("autocomplete"),
                form: dom_node
                    .and_then(|i| dom.enclosing(i, "form"))
                    .map(|f| dom.nodes[f].backend_node_id),
                rendered: dom_node.is_some_and(|i| dom.is_rendered(i)),
            }
        })
        .collect()
}

/// Caps `all` at `cap` elements (SPEC §5): when more qualify, the visible ones first, then the
/// earliest others, the result kept in document order.
pub fn select(all: &[AxElement], cap: usize) -> ElementList {
    let total = all.len();
    if total <= cap {
        return ElementList {
            elements: all.to_vec(),
            total,
            truncated: false,
        };
    }
    let mut keep = vec![false; total];
    let mut left = cap;
    for pass_visible in [true, false] {
        for (k, e) in all.iter().enumerate() {
            if left == 0 {
                break;
            }
            if !keep[k] && (e.visible == Some(true)) == pass_visible {
                keep[k] = true;
                left -= 1;
            }
        }
    }
    let elements = all
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(e, _)| e.clone())
        .collect();
    ElementList {
        elements,
        total,
        truncated: true,
    }
}

struct Walk<'a> {
    trees: &'a [AxTree],
    iframe_frame: HashMap<i64, usize>,
    tree_done: Vec<bool>,
    seen_backend: HashSet<i64>,
    out: Vec<(RawAxNode, usize)>,
}

impl Walk<'_> {
    fn tree(&mut self, t: usize) {
        if self.tree_done[t] {
            return;
        }
        self.tree_done[t] = true;
        let tree = &self.trees[t];
        let index: HashMap<&str, usize> = tree
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.node_id.as_str(), i))
            .collect();
        let roots: Vec<usize> = tree
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                n.parent_id
                    .as_deref()
                    .is_none_or(|p| !index.contains_key(p))
            })
            .map(|(i, _)| i)
            .collect();
        // Iterative pre-order DFS: AX trees can be deeper than a wasm stack likes.
        let mut visited = vec![false; tree.nodes.len()];
        let mut stack: Vec<usize> = roots.into_iter().rev().collect();
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut visited[i], true) {
                continue;
            }
            let node = &tree.nodes[i];
            self.consider(node, t);
            if let Some(&child_tree) = node
                .backend_dom_node_id
                .and_then(|b| self.iframe_frame.get(&b))
            {
                self.tree(child_tree);
            }
            for c in node.child_ids.iter().rev() {
                if let Some(&ci) = index.get(c.as_str()) {
                    stack.push(ci);
                }
            }
        }
    }

    fn consider(&mut self, node: &RawAxNode, t: usize) {
        if node.ignored {
            return;
        }
        let Some(backend) = node.backend_dom_node_id else {
            return;
        };
        let role = node.role().to_ascii_lowercase();
        if STRUCTURAL_ROLES.contains(&role.as_str()) {
            return;
        }
        let interactive = INTERACTIVE_ROLES.contains(&role.as_str());
        let focusable = node.flag("focusable") || node.flag("editable");
        if !interactive && !focusable {
            return;
        }
        // Options of a native <select> are reached through the select (`select_option`).
        if role == "option"
            && node.parent_id.is_some()
            && self.parent_role(node, t).as_deref() == Some("menulistpopup")
        {
            return;
        }
        if self.seen_backend.insert(backend) {
            self.out.push((node.clone(), t));
        }
    }

    fn parent_role(&self, node: &RawAxNode, t: usize) -> Option<String> {
        let p = node.parent_id.as_deref()?;
        self.trees[t]
            .nodes
            .iter()
            .find(|n| n.node_id == p)
            .map(|n| n.role().to_ascii_lowercase())
    }
}

/// Whitespace collapsed, capped at [`MAX_LABEL_CHARS`] chars; `None` when empty.
fn label(s: &str) -> Option<String> {
    let c = super::markdown::collapse(s);
    if c.is_empty() {
        return None;
    }
    if c.chars().count() <= MAX_LABEL_CHARS {
        return Some(c);
    }
    let mut cut: String = c.chars().take(MAX_LABEL_CHARS - 1).collect();
    cut.push('…');
    Some(cut)
}

/// The uid of the `i`-th element of an extract: `e0`, `e1`, … (SPEC §5).
pub fn uid(i: usize) -> String {
    format!("e{i}")
}

/// Parses `e<N>` (no sign, no leading zeros) into `N`.
pub fn parse_uid(uid: &str) -> Option<usize> {
    let digits = uid.strip_prefix('e')?;
    if digits.is_empty()
        || (digits.len() > 1 && digits.starts_with('0'))
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    digits.parse().ok()
}

/// uid → `backendNodeId` for one tab, as of its latest `extract` (SPEC §5). Replaced by every
/// extract, cleared on main-frame navigation and `navigate`; kept across SPA route changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UidCache {
    backend_ids: Vec<i64>,
}

impl UidCache {
    /// Replaces the cache with the elements of a fresh extract; returns their uids (`e0`, `e1`, …).
    pub fn replace(&mut self, elements: &[AxElement]) -> Vec<String> {
        self.backend_ids = elements.iter().map(|e| e.backend_node_id).collect();
        (0..self.backend_ids.len()).map(uid).collect()
    }

    /// The `backendNodeId` of `uid`, or `None` when the uid is not (or no longer) in the cache.
    pub fn resolve(&self, uid: &str) -> Option<i64> {
        parse_uid(uid).and_then(|i| self.backend_ids.get(i).copied())
    }

    /// Forgets every uid (main-frame navigation).
    pub fn clear(&mut self) {
        self.backend_ids.clear();
    }

    /// Number of uids held.
    pub fn len(&self) -> usize {
        self.backend_ids.len()
    }

    /// True when no uid is held.
    pub fn is_empty(&self) -> bool {
        self.backend_ids.is_empty()
    }
}

/// One [`UidCache`] per tab id.
#[derive(Debug, Clone, Default)]
pub struct TabUidCaches {
    tabs: HashMap<i64, UidCache>,
}

impl TabUidCaches {
    /// Stores a fresh extract's elements for `tab_id`; returns their uids.
    pub fn replace(&mut self, tab_id: i64, elements: &[AxElement]) -> Vec<String> {
        self.tabs.entry(tab_id).or_default().replace(elements)
    }

    /// `backendNodeId` of `uid` on `tab_id`, if cached.
    pub fn resolve(&self, tab_id: i64, uid: &str) -> Option<i64> {
        self.tabs.get(&tab_id).and_then(|c| c.resolve(uid))
    }

    /// Clears `tab_id`'s uids (main-frame navigation, `navigate`).
    pub fn invalidate(&mut self, tab_id: i64) {
        self.tabs.remove(&tab_id);
    }
}
