//! The interactive elements of a page read from its DOM snapshot (SPEC §5): roles by HTML-AAM and
//! ARIA, names by a simplified accname, live values and checked states, disabled controls, and the
//! layout boxes behind `visible`, `rendered` and `hidden`.

use std::collections::HashMap;

use bua_protocol::Checked;

use super::element::{label, tristate, AxElement, CHECKABLE_ROLES, MAX_LABEL_CHARS};
use super::links::{click_context, inline_handlers, reads_its_element};
use crate::extract::snapshot::{resolve_url, Dom, DomNode, NodeKind, Rect};

/// AX roles that are interactive by themselves (ARIA roles and Chrome's internal names for native
/// controls), compared case-insensitively: the protocol's list, which the agent text also reads.
const INTERACTIVE_ROLES: &[&str] = bua_protocol::INTERACTIVE_ROLES;

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
                .map(|h| resolve_url(dom.base_url_of(i), h.trim())),
            click_context: if role == "link" {
                click_context(node)
            } else {
                String::new()
            },
        });
    }
    out
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

/// The checked state of a DOM element whose role is `role`, for checkbox-like roles: a native
/// checkbox or radio `<input>` by its live state (the snapshot's `inputChecked`; the AX tree's
/// `mixed` for an `indeterminate` checkbox is not in the snapshot), an ARIA widget by `aria-checked`.
fn dom_checked(dom: &Dom, node: &DomNode, role: &str) -> Option<Checked> {
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
fn dom_role(node: &DomNode) -> Option<&'static str> {
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
            NodeKind::Text(t) if !laid_out || n.layout.is_some() => {
                out.push_str(t);
                out.push(' ');
            }
            NodeKind::Element { tag, .. } if tag == "img" => {
                out.push_str(n.attr("alt").unwrap_or(""));
                out.push(' ');
            }
            NodeKind::Element { tag, .. } if matches!(tag.as_str(), "script" | "style") => {}
            _ => stack.extend(n.children.iter().rev()),
        }
    }
    crate::extract::text::collapse(&out)
}
