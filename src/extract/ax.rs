//! Interactive elements and the per-tab uid cache (SPEC §5 `elements`).
//!
//! `extract` reads them from the page's [`Dom`] ([`dom_elements`]: roles by HTML-AAM and ARIA, names
//! by a simplified accname, live values and checked states, layout boxes for the `visible` flag).
//! Output: [`ElementList`] — the interactive nodes in document order, at most [`MAX_ELEMENTS`],
//! visible ones preferred, and how many there were in all. Building the list is kept apart from
//! assigning uids ([`UidCache`]), which the wasm side does once per tab. The one AX read left,
//! [`AxTree::first_checked`], is an `indeterminate` checkbox's `mixed` state, which the snapshot lacks.

use std::collections::HashMap;

use bua_protocol::Checked;
use serde::Deserialize;

use super::snapshot::{Dom, Rect};

/// Most elements returned by one `extract` (SPEC §5: ≤ 200).
pub const MAX_ELEMENTS: usize = 200;

/// Longest `name` / `value` kept, in chars; longer ones end with `…`.
pub const MAX_LABEL_CHARS: usize = 120;

/// AX roles that are interactive by themselves (ARIA roles and Chrome's internal names for native
/// controls), compared case-insensitively: the protocol's list, which the agent text also reads.
const INTERACTIVE_ROLES: &[&str] = bua_protocol::INTERACTIVE_ROLES;

/// Roles that carry a checked state (`checked` of SPEC §5's elements), compared lowercase.
const CHECKABLE_ROLES: &[&str] = &[
    "checkbox",
    "radio",
    "switch",
    "menuitemcheckbox",
    "menuitemradio",
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
    /// Checked state of a checkbox-like role ([`CHECKABLE_ROLES`]); `None` for other roles.
    pub checked: Option<Checked>,
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
    /// A form control the page disabled (its own `disabled`, a disabled `<fieldset>`'s, or
    /// `aria-disabled="true"`): it takes no click or typing now.
    pub disabled: bool,
    /// A link's `href`, resolved against its document's base URL; `None` for a link with a `download`
    /// attribute, or an inline handler that reads the link or the click, which does something its URL
    /// does not say ([`repeats`]).
    pub href: Option<String>,
    /// What else the page says about where a click on a link goes: its document (frame), its `target`
    /// and its inline `on…` handlers. Two links repeat each other only when this is the same too
    /// ([`repeats`]); empty for other elements.
    pub click_context: String,
    /// No click can reach it ([`Dom::is_reachable`]) and it is not a native form field: an `<input>`,
    /// `<select>` or `<textarea>` hidden for its looks (a styled checkbox behind its `<label>`, a file input
    /// behind a button) still takes typing, `select_option` and `upload`, so it is not called hidden.
    pub hidden: bool,
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
    role: Option<RawAxValue>,
    properties: Vec<RawAxProperty>,
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
}

/// The `nodes` of an `Accessibility.getPartialAXTree` answer (`getFullAXTree` has the same shape).
#[derive(Debug, Clone)]
pub struct AxTree {
    nodes: Vec<RawAxNode>,
}

impl AxTree {
    /// Parses a whole `Accessibility.getPartialAXTree` response (`{"nodes": [...]}`) given as JSON text.
    pub fn from_response_json(text: &str) -> Result<AxTree, AxError> {
        #[derive(Deserialize)]
        struct Response {
            nodes: Vec<RawAxNode>,
        }
        let r: Response = serde_json::from_str(text)?;
        Ok(AxTree { nodes: r.nodes })
    }

    /// The checked state of the first node of the tree when it has a checkbox-like role (the one
    /// node of an `Accessibility.getPartialAXTree` without relatives), else `None`.
    pub fn first_checked(&self) -> Option<Checked> {
        self.nodes.first().and_then(ax_checked)
    }
}

/// The interactive elements of a page read from the DOM snapshot alone (SPEC §5): what `extract`
/// lists on every page. Roles follow the HTML-AAM mapping
/// (explicit ARIA `role` first), names the usual order (`aria-label`, `aria-labelledby`, `<label>`,
/// text content, `alt` of an image inside, `title`, `placeholder`); hidden, `aria-hidden` and
/// `inert` subtrees are skipped. Document order; `viewport` is in main-document coordinates
/// ([`Dom::viewport_rect`]).
pub fn dom_elements(dom: &Dom, viewport: Rect) -> Vec<AxElement> {
    let ids: HashMap<&str, usize> = dom
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| Some((n.attr("id")?, i)))
        .collect();
    let mut labels_for: HashMap<&str, usize> = HashMap::new();
    for (i, n) in dom.nodes.iter().enumerate() {
        if n.tag() == Some("label") {
            if let Some(f) = n.attr("for") {
                labels_for.entry(f).or_insert(i);
            }
        }
    }
    let mut out = Vec::new();
    let mut hidden = vec![false; dom.nodes.len()];
    for (i, node) in dom.nodes.iter().enumerate() {
        let parent_hidden = node.parent.is_some_and(|p| hidden[p]);
        let own = node.attr("aria-hidden").is_some_and(|v| v.trim() == "true")
            || node.attr("inert").is_some()
            || node
                .tag()
                .is_some_and(|t| matches!(t, "script" | "style" | "template" | "head"));
        hidden[i] = parent_hidden || own;
        if hidden[i] {
            continue;
        }
        let Some(role) = dom_role(node) else { continue };
        let Some(layout) = node.layout.as_ref() else {
            continue;
        };
        if layout.style.is_invisible() {
            continue;
        }
        let name = dom_name(dom, i, &ids, &labels_for).and_then(|n| label(&n));
        let value = selected_labels(dom, i)
            .or_else(|| dom.input_values.get(&node.backend_node_id).cloned())
            .filter(|_| {
                matches!(
                    role,
                    "textbox" | "searchbox" | "combobox" | "listbox" | "spinbutton" | "slider"
                )
            })
            // A password field's value is masked, one `•` per character, as the AX tree shows it.
            .map(|v| {
                if node
                    .attr("type")
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("password"))
                {
                    "•".repeat(v.chars().count())
                } else {
                    v
                }
            })
            .and_then(|v| label(&v));
        let attr = |n: &str| {
            node.attr(n)
                .map(|v| v.trim().to_ascii_lowercase())
                .filter(|v| !v.is_empty())
        };
        let reachable = dom.is_reachable(i);
        out.push(AxElement {
            role: role.to_string(),
            checked: dom_checked(dom, node, role),
            name,
            value,
            // On screen: what its clipping containers leave of its box is in the viewport.
            visible: Some(
                dom.clipped_bounds(i)
                    .unwrap_or(layout.bounds)
                    .intersects(&viewport),
            ),
            backend_node_id: node.backend_node_id,
            input_type: attr("type").filter(|_| node.tag() == Some("input")),
            autocomplete: attr("autocomplete"),
            form: dom
                .enclosing(i, "form")
                .map(|f| dom.nodes[f].backend_node_id),
            rendered: dom.is_rendered(i),
            hidden: !reachable
                && !node
                    .tag()
                    .is_some_and(|t| matches!(t, "input" | "select" | "textarea")),
            disabled: is_disabled(dom, i),
            // A `download`, or a handler that reads which link or which click it was, does something
            // the URL does not say.
            href: node
                .attr("href")
                .filter(|_| {
                    role == "link"
                        && node.attr("download").is_none()
                        && !inline_handlers(node).any(|(_, script)| reads_its_element(script))
                })
                .map(|h| super::snapshot::resolve_url(dom.base_url_of(i), h.trim())),
            click_context: if role == "link" {
                click_context(node)
            } else {
                String::new()
            },
        });
    }
    out
}

/// A link's inline event handlers (`onclick`, `onmousedown`, …) in attribute order.
fn inline_handlers(node: &super::snapshot::DomNode) -> impl Iterator<Item = (&str, &str)> {
    let attrs: &[(String, String)] = match &node.kind {
        super::snapshot::NodeKind::Element { attrs, .. } => attrs,
        _ => &[],
    };
    attrs
        .iter()
        .filter(|(n, _)| n.len() > 2 && n.starts_with("on"))
        .map(|(n, v)| (n.as_str(), v.as_str()))
}

/// [`AxElement::click_context`] of a link: its document, `target` and inline handlers, one string. No
/// target, `_self` and `_blank` are one: `click` opens links in the same tab unless told otherwise
/// (SPEC §4 `newTab`); a frame's name or `_top` / `_parent` sends the page elsewhere.
fn click_context(node: &super::snapshot::DomNode) -> String {
    let target = node.attr("target").unwrap_or("").trim();
    let target = if target.is_empty()
        || target.eq_ignore_ascii_case("_self")
        || target.eq_ignore_ascii_case("_blank")
    {
        ""
    } else {
        target
    };
    let mut key = format!("{}\u{0}{target}", node.document);
    for (name, script) in inline_handlers(node) {
        key.push('\u{0}');
        key.push_str(name);
        key.push('=');
        key.push_str(script.trim());
    }
    key
}

/// Whether an inline handler's script may read the element it is on or the click: two links with that
/// script can do different things even with one URL. It does when it names `this`, `event`,
/// `arguments` or `activeElement` outside its string literals, and — as this is a word scan, not a
/// parser — whenever it has what the scan cannot follow: a backslash, a `/` (comments, regular
/// expressions), a template literal or an HTML comment. A string that says "event" does not count
/// (`ga('send', 'event', …)` is the commonest analytics call); a wrong "yes" only costs a repeated line.
fn reads_its_element(script: &str) -> bool {
    const READS: &[&str] = &["this", "event", "arguments", "activeElement"];
    if script.contains("<!--") || script.contains("-->") {
        return true;
    }
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in script.chars() {
        if let Some(q) = quote {
            if c == '\\' {
                return true;
            }
            if c == q {
                quote = None;
            }
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
            word.push(c);
            continue;
        }
        if READS.contains(&word.as_str()) || matches!(c, '\\' | '/' | '`') {
            return true;
        }
        word.clear();
        if matches!(c, '\'' | '"') {
            quote = Some(c);
        }
    }
    READS.contains(&word.as_str())
}

/// For each of `elements`, the index of the element that goes to the same URL with the same
/// [`AxElement::click_context`] (frame, `target`, inline handlers) and is shown before it: one the markdown
/// names (`in_markdown`, same order as `elements`) or, failing that, the first of the list. `None` for the
/// one shown, for elements that are not links, and for links whose target is not a plain URL:
/// `javascript:`, and `page_url` itself or a fragment of it (`href="#"` links are told apart by their
/// scripts, not their URL). A hidden or disabled link stands for none.
pub fn repeats<'a>(
    elements: &'a [AxElement],
    in_markdown: &[bool],
    page_url: &str,
) -> Vec<Option<usize>> {
    fn document(url: &str) -> &str {
        url.split('#').next().unwrap_or("")
    }
    let page = document(page_url);
    let target = |e: &'a AxElement| -> Option<&'a str> {
        e.href.as_deref().filter(|h| {
            let scheme = h.split(':').next().unwrap_or("").to_ascii_lowercase();
            scheme != "javascript" && document(h) != page
        })
    };
    let named = |i: usize| in_markdown.get(i).copied().unwrap_or(false);
    // A hidden or disabled element cannot stand for another: a click on it would fail or be ignored.
    let target = |e: &'a AxElement| target(e).filter(|_| !e.hidden && !e.disabled);
    // Same URL in the same frame, same `target`, same inline handlers (or none): the same click.
    let target = |e: &'a AxElement| target(e).map(|t| (t, e.click_context.as_str()));
    let mut shown: HashMap<(&str, &str), usize> = HashMap::new();
    for (i, e) in elements.iter().enumerate().filter(|(i, _)| named(*i)) {
        if let Some(t) = target(e) {
            shown.entry(t).or_insert(i);
        }
    }
    elements
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let t = target(e).filter(|_| !named(i))?;
            match shown.get(&t) {
                Some(&j) => Some(j),
                None => {
                    shown.insert(t, i);
                    None
                }
            }
        })
        .collect()
}

/// Elements a `disabled` attribute disables (HTML's "actually disabled"), also through a disabled
/// `<fieldset>` that holds them.
const DISABLEABLE: &[&str] = &[
    "button", "input", "select", "textarea", "option", "optgroup", "fieldset",
];

/// Whether node `id` is disabled ([`AxElement::disabled`]).
fn is_disabled(dom: &Dom, id: usize) -> bool {
    let node = &dom.nodes[id];
    if node
        .attr("aria-disabled")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    {
        return true;
    }
    if !node.tag().is_some_and(|t| DISABLEABLE.contains(&t)) {
        return false;
    }
    node.attr("disabled").is_some()
        || dom
            .enclosing(id, "fieldset")
            .is_some_and(|f| dom.nodes[f].attr("disabled").is_some())
}

/// The checked state the AX node reports (its `checked` property: `"true"`, `"false"`, `"mixed"`, or
/// a boolean), for checkbox-like roles only; a missing property there means not checked.
fn ax_checked(node: &RawAxNode) -> Option<Checked> {
    let role = node.role().to_ascii_lowercase();
    if !CHECKABLE_ROLES.contains(&role.as_str()) {
        return None;
    }
    let value = node.prop("checked").and_then(|v| v.value.as_ref());
    Some(match value {
        Some(serde_json::Value::Bool(b)) => Checked::from_bool(*b),
        Some(serde_json::Value::String(s)) => tristate(s),
        _ => Checked::False,
    })
}

/// `aria-checked` / AX tristate text → [`Checked`] (anything but `true` / `mixed` is not checked).
fn tristate(s: &str) -> Checked {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" => Checked::True,
        "mixed" => Checked::Mixed,
        _ => Checked::False,
    }
}

/// The checked state of a DOM element whose role is `role`, for checkbox-like roles: a native
/// checkbox or radio `<input>` by its live state (the snapshot's `inputChecked`; the AX tree's
/// `mixed` for an `indeterminate` checkbox is not in the snapshot), an ARIA widget by `aria-checked`.
fn dom_checked(dom: &Dom, node: &super::snapshot::DomNode, role: &str) -> Option<Checked> {
    if !CHECKABLE_ROLES.contains(&role) {
        return None;
    }
    let native = node.tag() == Some("input")
        && node.attr("type").is_some_and(|t| {
            t.trim().eq_ignore_ascii_case("checkbox") || t.trim().eq_ignore_ascii_case("radio")
        });
    if native {
        return Some(Checked::from_bool(
            dom.checked_inputs.contains(&node.backend_node_id),
        ));
    }
    Some(node.attr("aria-checked").map_or(Checked::False, tristate))
}

/// The role of an element by its ARIA `role` or its HTML semantics, when it is interactive.
fn dom_role(node: &super::snapshot::DomNode) -> Option<&'static str> {
    let tag = node.tag()?;
    if let Some(role) = node.attr("role").and_then(|r| r.split_whitespace().next()) {
        let role = role.to_ascii_lowercase();
        if let Some(r) = INTERACTIVE_ROLES.iter().find(|r| **r == role) {
            return Some(r);
        }
        if matches!(role.as_str(), "none" | "presentation") && node.attr("tabindex").is_none() {
            return None;
        }
    }
    let input_type = node
        .attr("type")
        .map(|t| t.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let role = match tag {
        "a" | "area" if node.attr("href").is_some() => "link",
        "button" | "summary" => "button",
        "select" if node.attr("multiple").is_some() => "listbox",
        "select" => "combobox",
        "textarea" => "textbox",
        "input" => match input_type.as_str() {
            "hidden" => return None,
            "button" | "submit" | "reset" | "image" | "file" => "button",
            "checkbox" => "checkbox",
            "radio" => "radio",
            "range" => "slider",
            "number" => "spinbutton",
            "search" => "searchbox",
            _ if node.attr("list").is_some() => "combobox",
            _ => "textbox",
        },
        _ if node.attr("contenteditable").is_some_and(|v| {
            v.is_empty()
                || v.eq_ignore_ascii_case("true")
                || v.eq_ignore_ascii_case("plaintext-only")
        }) =>
        {
            "textbox"
        }
        _ if node
            .attr("tabindex")
            .is_some_and(|t| t.trim().parse::<i32>().is_ok_and(|t| t >= 0)) =>
        {
            "generic"
        }
        _ => return None,
    };
    Some(role)
}

/// The accessible name of DOM node `i`, by the usual precedence (a simplification of accname).
fn dom_name(
    dom: &Dom,
    i: usize,
    ids: &HashMap<&str, usize>,
    labels_for: &HashMap<&str, usize>,
) -> Option<String> {
    let node = &dom.nodes[i];
    let nonempty = |s: String| Some(s).filter(|s| !s.trim().is_empty());
    if let Some(l) = node
        .attr("aria-label")
        .map(str::to_string)
        .and_then(nonempty)
    {
        return Some(l);
    }
    if let Some(refs) = node.attr("aria-labelledby") {
        let text: Vec<String> = refs
            .split_whitespace()
            .filter_map(|r| ids.get(r))
            .map(|&r| text_of(dom, r))
            .collect();
        if let Some(t) = nonempty(text.join(" ")) {
            return Some(t);
        }
    }
    let tag = node.tag().unwrap_or("");
    if matches!(tag, "input" | "select" | "textarea") {
        let input_type = node.attr("type").unwrap_or("").to_ascii_lowercase();
        if matches!(input_type.as_str(), "submit" | "button" | "reset") {
            return node
                .attr("value")
                .map(str::to_string)
                .and_then(nonempty)
                .or_else(|| {
                    Some(
                        if input_type == "reset" {
                            "Reset"
                        } else {
                            "Submit"
                        }
                        .to_string(),
                    )
                    .filter(|_| input_type != "button")
                });
        }
        let label = node
            .attr("id")
            .and_then(|id| labels_for.get(id))
            .map(|&l| text_of(dom, l))
            .or_else(|| dom.enclosing(i, "label").map(|l| text_of(dom, l)));
        if let Some(l) = label.and_then(nonempty) {
            return Some(l);
        }
        return [
            node.attr("title"),
            node.attr("placeholder"),
            node.attr("alt"),
        ]
        .into_iter()
        .flatten()
        .map(str::to_string)
        .find_map(nonempty);
    }
    nonempty(text_of(dom, i)).or_else(|| node.attr("title").map(str::to_string).and_then(nonempty))
}

/// Rendered text of a subtree, `alt` of images included, whitespace collapsed (at most ~200 chars read).
/// A `<select>`'s value (SPEC §5 `value`): the text of its selected options, joined by `, ` (a
/// `multiple` one may have several); `None` for another element or when none is selected.
fn selected_labels(dom: &Dom, id: usize) -> Option<String> {
    if dom.nodes[id].tag() != Some("select") {
        return None;
    }
    let mut labels = Vec::new();
    let mut stack: Vec<usize> = dom.nodes[id].children.iter().rev().copied().collect();
    while let Some(n) = stack.pop() {
        let node = &dom.nodes[n];
        if node.tag() == Some("option") {
            if dom.selected_options.contains(&node.backend_node_id) {
                // An option's text has no layout box of its own: the browser draws a closed
                // `<select>`'s options itself.
                labels.push(subtree_text(dom, n, false));
            }
        } else {
            stack.extend(node.children.iter().rev().copied());
        }
    }
    (!labels.is_empty()).then(|| labels.join(", "))
}

/// The rendered text of node `id`'s subtree ([`subtree_text`] of what has a layout box).
fn text_of(dom: &Dom, id: usize) -> String {
    subtree_text(dom, id, true)
}

/// The text of node `id`'s subtree (with the `alt` of its images, without scripts and styles),
/// whitespace collapsed; `laid_out`: only text that has a layout box.
fn subtree_text(dom: &Dom, id: usize, laid_out: bool) -> String {
    let mut out = String::new();
    let mut stack = vec![id];
    while let Some(i) = stack.pop() {
        if out.len() > 4 * MAX_LABEL_CHARS {
            break;
        }
        let n = &dom.nodes[i];
        match &n.kind {
            super::snapshot::NodeKind::Text(t) if !laid_out || n.layout.is_some() => {
                out.push_str(t);
                out.push(' ');
            }
            super::snapshot::NodeKind::Element { tag, .. } if tag == "img" => {
                out.push_str(n.attr("alt").unwrap_or(""));
                out.push(' ');
            }
            super::snapshot::NodeKind::Element { tag, .. }
                if matches!(tag.as_str(), "script" | "style") => {}
            _ => stack.extend(n.children.iter().rev()),
        }
    }
    super::text::collapse(&out)
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

/// Whitespace collapsed, capped at [`MAX_LABEL_CHARS`] chars; `None` when empty.
fn label(s: &str) -> Option<String> {
    let c = super::text::collapse(s);
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

#[cfg(test)]
mod tests {
    use super::super::snapshot::build::{dom, e, t};
    use super::*;
    use serde_json::json;

    fn node(id: &str, role: &str, name: &str, backend: i64, kids: &[&str]) -> serde_json::Value {
        json!({
            "nodeId": id, "ignored": false, "role": {"type": "role", "value": role},
            "name": {"type": "computedString", "value": name}, "childIds": kids, "backendDOMNodeId": backend,
        })
    }

    fn with(mut n: serde_json::Value, key: &str, v: serde_json::Value) -> serde_json::Value {
        n[key] = v;
        n
    }

    fn names(list: &[AxElement]) -> Vec<String> {
        list.iter()
            .map(|e| e.name.clone().unwrap_or_default())
            .collect()
    }

    #[test]
    fn interactive_nodes_in_document_order_without_structure_or_native_options() {
        let mut d = dom(
            "https://a.test/",
            vec![
                e("a", &[("href", "/")], vec![t("Home")]),
                e("button", &[("aria-hidden", "true")], vec![t("Hidden")]),
                e("h2", &[("tabindex", "-1")], vec![t("Skip target")]),
                e("div", &[("tabindex", "0")], vec![]),
                e(
                    "select",
                    &[("aria-label", "Country")],
                    vec![e("option", &[], vec![t("France")])],
                ),
                e("input", &[("aria-label", "  Email\n address ")], vec![]),
                t("text"),
                e(
                    "div",
                    &[("role", "option")],
                    vec![t("Custom listbox option")],
                ),
            ],
        );
        let email = dom_backend(&d, "input");
        d.input_values.insert(email, "a@b.c".into());
        let all = dom_elements(&d, d.viewport_rect(800.0, 600.0));
        assert_eq!(
            names(&all),
            vec![
                "Home",
                "",
                "Country",
                "Email address",
                "Custom listbox option"
            ]
        );
        assert_eq!(
            all.iter().map(|e| e.role.as_str()).collect::<Vec<_>>(),
            vec!["link", "generic", "combobox", "textbox", "option"]
        );
        assert_eq!(all[3].value.as_deref(), Some("a@b.c"));
        assert_eq!(all[3].backend_node_id, email);
    }

    /// `body > [button "Before", iframe → (body > button "Inside"), button "After"]`: a same-origin
    /// frame's document in the snapshot, as Chrome gives it.
    fn snapshot_with_a_frame() -> serde_json::Value {
        let strings = [
            "#document",
            "HTML",
            "BODY",
            "BUTTON",
            "IFRAME",
            "#text",
            "Before",
            "After",
            "Inside",
            "https://a.test/",
            "https://a.test/frame.html",
        ];
        let layout = |nodes: &[i64]| {
            json!({
                "nodeIndex": nodes,
                "styles": nodes.iter().map(|_| json!([])).collect::<Vec<_>>(),
                "bounds": nodes.iter().map(|&i| json!([10, 20 * i, 100, 18])).collect::<Vec<_>>(),
            })
        };
        json!({
            "strings": strings,
            "documents": [
                {
                    "documentURL": 9, "baseURL": 9,
                    "nodes": {
                        "parentIndex": [-1, 0, 1, 2, 3, 2, 2, 6],
                        "nodeType": [9, 1, 1, 1, 3, 1, 1, 3],
                        "nodeName": [0, 1, 2, 3, 5, 4, 3, 5],
                        "nodeValue": [-1, -1, -1, -1, 6, -1, -1, 7],
                        "backendNodeId": [1, 2, 3, 10, 11, 20, 30, 31],
                        "contentDocumentIndex": {"index": [5], "value": [1]},
                    },
                    "layout": layout(&[2, 3, 4, 5, 6, 7]),
                },
                {
                    "documentURL": 10, "baseURL": 10,
                    "nodes": {
                        "parentIndex": [-1, 0, 1, 2, 3],
                        "nodeType": [9, 1, 1, 1, 3],
                        "nodeName": [0, 1, 2, 3, 5],
                        "nodeValue": [-1, -1, -1, -1, 8],
                        "backendNodeId": [50, 51, 52, 53, 54],
                    },
                    "layout": layout(&[2, 3, 4]),
                },
            ],
        })
    }

    #[test]
    fn frame_trees_are_spliced_at_their_iframe() {
        let d = Dom::from_snapshot(&snapshot_with_a_frame()).unwrap();
        let all = dom_elements(&d, d.viewport_rect(800.0, 600.0));
        assert_eq!(names(&all), vec!["Before", "Inside", "After"]);
        assert_eq!(
            all.iter().map(|e| e.backend_node_id).collect::<Vec<_>>(),
            vec![10, 53, 30]
        );
    }

    #[test]
    fn visible_means_in_the_viewport_and_inputs_carry_their_type_and_form() {
        let d = dom(
            "https://a.test/",
            vec![e(
                "form",
                &[],
                vec![
                    e(
                        "input",
                        &[("type", "PASSWORD"), ("autocomplete", "current-password")],
                        vec![],
                    ),
                    e("button", &[("style", "top:5000")], vec![t("Far")]),
                ],
            )],
        );
        let all = dom_elements(&d, d.viewport_rect(800.0, 600.0));
        assert_eq!(all[0].role, "textbox");
        assert_eq!(all[0].visible, Some(true));
        assert_eq!(all[0].input_type.as_deref(), Some("password"));
        assert_eq!(all[0].autocomplete.as_deref(), Some("current-password"));
        assert_eq!(all[0].form, Some(dom_backend(&d, "form")));
        assert!(all[0].rendered);
        assert_eq!(all[1].name.as_deref(), Some("Far"));
        assert_eq!(all[1].visible, Some(false));
        assert!(all[1].rendered);
    }

    #[test]
    fn what_a_scroller_clips_away_is_not_in_the_viewport_though_its_box_is() {
        fn button(name: &'static str) -> super::super::snapshot::build::T {
            e("button", &[], vec![t(name)])
        }
        let d = dom(
            "https://a.test/",
            vec![e(
                "div",
                &[("style", "height:50;overflow:hidden")],
                vec![
                    button("One"),
                    button("Two"),
                    button("Three"),
                    button("Four"),
                ],
            )],
        );
        let all = dom_elements(&d, d.viewport_rect(800.0, 600.0));
        let clip = d
            .nodes
            .iter()
            .find_map(|n| n.layout.as_ref().filter(|_| n.tag() == Some("div")))
            .map(|l| l.bounds)
            .unwrap();
        let boxes: Vec<Rect> = d
            .nodes
            .iter()
            .filter(|n| n.tag() == Some("button"))
            .filter_map(|n| n.layout.as_ref().map(|l| l.bounds))
            .collect();
        // The test DOM stacks boxes 20 px apart: the first two buttons start inside the 50 px box.
        let want: Vec<Option<bool>> = boxes.iter().map(|b| Some(b.intersects(&clip))).collect();
        assert_eq!(
            want.iter().filter(|v| **v == Some(true)).count(),
            2,
            "{boxes:?} {clip:?}"
        );
        assert_eq!(all.iter().map(|e| e.visible).collect::<Vec<_>>(), want);
        // Every box is inside the 800×600 viewport, and the clipped ones are still reachable (a scroll).
        assert!(all.iter().all(|e| !e.hidden));
    }

    fn dom_backend(d: &Dom, tag: &str) -> i64 {
        d.nodes
            .iter()
            .find(|n| n.tag() == Some(tag))
            .map(|n| n.backend_node_id)
            .unwrap()
    }

    #[test]
    fn over_the_cap_visible_elements_come_first_and_order_is_kept() {
        let all: Vec<AxElement> = (0..5000)
            .map(|i| AxElement {
                role: "button".into(),
                name: Some(format!("b{i}")),
                visible: Some(i < 3 || (4000..4010).contains(&i)),
                backend_node_id: i,
                ..AxElement::default()
            })
            .collect();
        let list = select(&all, MAX_ELEMENTS);
        assert_eq!(list.total, 5000);
        assert!(list.truncated);
        assert_eq!(list.elements.len(), 200);
        let ids: Vec<i64> = list.elements.iter().map(|e| e.backend_node_id).collect();
        assert_eq!(&ids[..3], &[0, 1, 2]);
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "document order");
        assert!(
            (4000..4010).all(|i| ids.contains(&i)),
            "every visible one is kept"
        );
        assert_eq!(ids[3], 3, "then the earliest others");
        let few = select(&all[..10], MAX_ELEMENTS);
        assert_eq!(
            (few.total, few.truncated, few.elements.len()),
            (10, false, 10)
        );
    }

    #[test]
    fn big_pages_read_their_elements_from_the_dom() {
        let d = dom(
            "https://a.test/",
            vec![
                e(
                    "a",
                    &[("href", "/x")],
                    vec![t("Home "), e("img", &[("alt", "icon")], vec![])],
                ),
                e("a", &[], vec![t("No href")]),
                e("label", &[("for", "q")], vec![t("Query")]),
                e("input", &[("id", "q"), ("type", "search")], vec![]),
                e(
                    "label",
                    &[],
                    vec![t("Email"), e("input", &[("type", "email")], vec![])],
                ),
                e(
                    "input",
                    &[("type", "password"), ("placeholder", "Password")],
                    vec![],
                ),
                e("input", &[("type", "submit")], vec![]),
                e("input", &[("type", "hidden")], vec![]),
                e(
                    "div",
                    &[("role", "button"), ("aria-label", "Close dialog")],
                    vec![t("x")],
                ),
                e("span", &[("id", "lbl")], vec![t("Named by id")]),
                e(
                    "div",
                    &[("tabindex", "0"), ("aria-labelledby", "lbl")],
                    vec![],
                ),
                e(
                    "div",
                    &[("contenteditable", "true"), ("aria-label", "Editor")],
                    vec![],
                ),
                e(
                    "div",
                    &[("aria-hidden", "true")],
                    vec![e("button", &[], vec![t("Hidden")])],
                ),
                e("button", &[("style", "display:none")], vec![t("Gone")]),
                e("select", &[], vec![e("option", &[], vec![t("One")])]),
                e("button", &[("style", "top:5000")], vec![t("Far")]),
            ],
        );
        let got = dom_elements(&d, d.viewport_rect(800.0, 600.0));
        let pairs: Vec<(&str, Option<&str>)> = got
            .iter()
            .map(|e| (e.role.as_str(), e.name.as_deref()))
            .collect();
        assert_eq!(
            pairs,
            vec![
                ("link", Some("Home icon")),
                ("searchbox", Some("Query")),
                ("textbox", Some("Email")),
                ("textbox", Some("Password")),
                ("button", Some("Submit")),
                ("button", Some("Close dialog")),
                ("generic", Some("Named by id")),
                ("textbox", Some("Editor")),
                ("combobox", None),
                ("button", Some("Far")),
            ]
        );
        assert_eq!(got[3].input_type.as_deref(), Some("password"));
        assert_eq!(got[0].visible, Some(true));
        assert_eq!(got[9].visible, Some(false));
        assert_eq!(got[8].value, None, "no option is selected");
    }

    #[test]
    fn disabled_controls_and_those_of_a_disabled_fieldset_are_flagged() {
        let d = dom(
            "https://x.test/",
            vec![
                e("button", &[("disabled", "")], vec![t("Off")]),
                e("button", &[], vec![t("On")]),
                e(
                    "fieldset",
                    &[("disabled", "")],
                    vec![e("input", &[("aria-label", "Inside")], vec![])],
                ),
                e(
                    "div",
                    &[("role", "button"), ("aria-disabled", "true")],
                    vec![t("Aria off")],
                ),
                e("a", &[("href", "/x"), ("disabled", "")], vec![t("A link")]),
            ],
        );
        let got = dom_elements(&d, d.viewport_rect(800.0, 600.0));
        let flags: Vec<(&str, bool)> = got
            .iter()
            .map(|e| (e.name.as_deref().unwrap_or(""), e.disabled))
            .collect();
        assert_eq!(
            flags,
            [
                ("Off", true),
                ("On", false),
                ("Inside", true),
                ("Aria off", true),
                // `disabled` means nothing on a link.
                ("A link", false),
            ]
        );
    }

    #[test]
    fn a_select_has_the_text_of_its_selected_options_as_value() {
        let option = |text: &'static str| e("option", &[], vec![t(text)]);
        let mut d = dom(
            "https://x.test/",
            vec![
                e("select", &[], vec![option("France"), option("  Germany ")]),
                e(
                    "select",
                    &[("multiple", "")],
                    vec![e(
                        "optgroup",
                        &[],
                        vec![option("S"), option("M"), option("L")],
                    )],
                ),
            ],
        );
        let options: Vec<i64> = d
            .nodes
            .iter()
            .filter(|n| n.tag() == Some("option"))
            .map(|n| n.backend_node_id)
            .collect();
        // As `DOMSnapshot` reports the live selection (`optionSelected`).
        d.selected_options
            .extend([options[1], options[2], options[4]]);
        let got = dom_elements(&d, d.viewport_rect(800.0, 600.0));
        let values: Vec<(&str, Option<&str>)> = got
            .iter()
            .map(|e| (e.role.as_str(), e.value.as_deref()))
            .collect();
        assert_eq!(
            values,
            [("combobox", Some("Germany")), ("listbox", Some("S, L"))]
        );
    }

    #[test]
    fn checkbox_like_roles_carry_their_checked_state_from_the_ax_tree() {
        let checked = |v: serde_json::Value| json!([{"name": "checked", "value": v}]);
        let nodes = json!([
            node(
                "1",
                "RootWebArea",
                "",
                1,
                &["2", "3", "4", "5", "6", "7", "8", "9"]
            ),
            with(
                node("2", "checkbox", "On", 2, &[]),
                "properties",
                checked(json!({"type": "tristate", "value": "true"}))
            ),
            with(
                node("3", "checkbox", "Off", 3, &[]),
                "properties",
                checked(json!({"type": "tristate", "value": "false"}))
            ),
            with(
                node("4", "checkbox", "Some", 4, &[]),
                "properties",
                checked(json!({"type": "tristate", "value": "mixed"}))
            ),
            with(
                node("5", "switch", "Wifi", 5, &[]),
                "properties",
                checked(json!({"type": "booleanOrUndefined", "value": true}))
            ),
            node("6", "radio", "No property", 6, &[]),
            with(
                node("7", "menuitemradio", "Small", 7, &[]),
                "properties",
                checked(json!({"type": "tristate", "value": "true"}))
            ),
            with(
                node("8", "button", "Pressed", 8, &[]),
                "properties",
                checked(json!({"type": "tristate", "value": "true"}))
            ),
            node("9", "link", "Home", 9, &[]),
        ]);
        // Each node as the one node of an `Accessibility.getPartialAXTree` answer, as `extract` reads it.
        let got: Vec<Option<Checked>> = nodes.as_array().unwrap()[1..]
            .iter()
            .map(|n| {
                AxTree::from_response_json(&json!({ "nodes": [n] }).to_string())
                    .unwrap()
                    .first_checked()
            })
            .collect();
        assert_eq!(
            got,
            vec![
                Some(Checked::True),
                Some(Checked::False),
                Some(Checked::Mixed),
                Some(Checked::True),
                Some(Checked::False),
                Some(Checked::True),
                None,
                None,
            ]
        );
    }

    #[test]
    fn big_pages_read_checked_from_the_live_input_state_and_aria_checked() {
        let mut d = dom(
            "https://a.test/",
            vec![
                e("input", &[("type", "checkbox"), ("id", "on")], vec![]),
                e("input", &[("type", "checkbox"), ("checked", "")], vec![]),
                e("input", &[("type", "RADIO"), ("id", "r")], vec![]),
                e(
                    "input",
                    &[("type", "checkbox"), ("role", "switch"), ("id", "sw")],
                    vec![],
                ),
                e(
                    "div",
                    &[("role", "checkbox"), ("aria-checked", "mixed")],
                    vec![t("Tri")],
                ),
                e("div", &[("role", "menuitemcheckbox")], vec![t("Bare")]),
                e(
                    "div",
                    &[("role", "switch"), ("aria-checked", "TRUE")],
                    vec![t("Aria on")],
                ),
                e("input", &[("type", "text"), ("checked", "")], vec![]),
                e("button", &[("aria-checked", "true")], vec![t("Go")]),
            ],
        );
        let backend_of_id = |d: &Dom, id: &str| {
            d.nodes
                .iter()
                .find(|n| n.attr("id") == Some(id))
                .map(|n| n.backend_node_id)
                .unwrap()
        };
        // The live state decides, not the `checked` attribute (the page may have toggled it since).
        for id in ["on", "r", "sw"] {
            let b = backend_of_id(&d, id);
            d.checked_inputs.insert(b);
        }
        let all = dom_elements(&d, d.viewport_rect(800.0, 600.0));
        let got: Vec<(&str, Option<Checked>)> =
            all.iter().map(|e| (e.role.as_str(), e.checked)).collect();
        assert_eq!(
            got,
            vec![
                ("checkbox", Some(Checked::True)),
                ("checkbox", Some(Checked::False)),
                ("radio", Some(Checked::True)),
                ("switch", Some(Checked::True)),
                ("checkbox", Some(Checked::Mixed)),
                ("menuitemcheckbox", Some(Checked::False)),
                ("switch", Some(Checked::True)),
                ("textbox", None),
                ("button", None),
            ]
        );
    }

    #[test]
    fn long_names_are_cut_with_an_ellipsis() {
        let long = "word ".repeat(100);
        let got = label(&long).unwrap();
        assert_eq!(got.chars().count(), MAX_LABEL_CHARS);
        assert!(got.ends_with('…'));
        assert_eq!(label("  \n "), None);
    }

    #[test]
    fn uid_cache_maps_uids_to_backend_ids_until_cleared() {
        let els: Vec<AxElement> = [41, 42, 43]
            .iter()
            .map(|&b| AxElement {
                backend_node_id: b,
                ..AxElement::default()
            })
            .collect();
        let mut tabs = TabUidCaches::default();
        assert_eq!(tabs.replace(7, &els), vec!["e0", "e1", "e2"]);
        assert_eq!(tabs.resolve(7, "e1"), Some(42));
        assert_eq!(tabs.resolve(7, "e3"), None);
        assert_eq!(tabs.resolve(8, "e1"), None, "per tab");
        for bad in ["e01", "e", "x1", "e-1", "e1 ", "E1"] {
            assert_eq!(tabs.resolve(7, bad), None, "{bad}");
        }
        // A fresh extract replaces the whole mapping.
        tabs.replace(7, &els[2..]);
        assert_eq!(tabs.resolve(7, "e0"), Some(43));
        assert_eq!(tabs.resolve(7, "e1"), None);
        tabs.invalidate(7);
        assert_eq!(tabs.resolve(7, "e0"), None);
        let mut one = UidCache::default();
        one.replace(&els);
        assert_eq!(one.len(), 3);
        one.clear();
        assert!(one.is_empty());
    }

    #[test]
    fn links_with_one_url_frame_target_and_inline_handlers_repeat_and_a_handler_reading_its_click_never_does(
    ) {
        let link = |context: &str| AxElement {
            role: "link".into(),
            href: Some("https://news.test/world".into()),
            click_context: context.into(),
            ..AxElement::default()
        };
        let track = "0\u{0}\u{0}onclick=_hmt.push(['_trackEvent', 'pic', 'click'])";
        let mut disabled = link("0\u{0}");
        disabled.disabled = true;
        let elements = [
            link(track),        // 0: listed
            link(track),        // 1: repeats 0
            link("0\u{0}"),     // 2: no handler: another click
            link("1\u{0}"),     // 3: the same in another frame: another click
            link("0\u{0}_top"), // 4: another target
            disabled,           // 5: disabled: stands for none…
            link("0\u{0}"),     // 6: …so this repeats 2
        ];
        assert_eq!(
            repeats(&elements, &[false; 7], "https://news.test/"),
            [None, Some(0), None, None, None, None, Some(2)]
        );
        for reads in [
            "toggle(this); return false",
            "event.preventDefault()",
            "go(`${x}`)",
            "go(arguments[0].target.id)",
            "go(document.activeElement.id)",
            "go(\\u0065vent.target.id)",
            "var r=/'/; go(event.target.id)",
            "/* ' */ go(event.target.id)",
            "// don't\ngo(event.target.id)",
            "<!-- it's\ngo(event.target.id)",
            "say('it\\'s'); this.x = 1",
        ] {
            assert!(reads_its_element(reads), "{reads}");
        }
        for not in [
            "_hmt.push(['_trackEvent', 'pic', 'click'])",
            "ga('send', 'event', 'Permalink page click')",
            "window.thisPage = 1",
            "say(\"it's this\")",
        ] {
            assert!(!reads_its_element(not), "{not}");
        }
    }

    #[test]
    fn a_link_to_a_url_already_shown_repeats_the_first_one_and_script_links_never_do() {
        let link = |href: Option<&str>| AxElement {
            role: "link".into(),
            href: href.map(Into::into),
            ..AxElement::default()
        };
        let page = "https://news.test/story";
        let elements = [
            link(Some("https://news.test/world")),    // 0: listed
            link(Some("https://news.test/politics")), // 1: the markdown names it
            link(Some("https://news.test/world")),    // 2: repeats 0
            link(Some("https://news.test/politics")), // 3: repeats 1, named further down
            link(Some("javascript:void(0)")),         // 4, 5: scripts tell them apart
            link(Some("javascript:void(0)")),
            link(Some("https://news.test/story#")), // 6, 7: the page itself
            link(Some("https://news.test/story#top")),
            link(None), // 8: no href
        ];
        let in_markdown = [false, true, false, false, false, false, false, false, false];
        let got = repeats(&elements, &in_markdown, page);
        assert_eq!(
            got,
            [None, None, Some(0), Some(1), None, None, None, None, None]
        );
    }
}
