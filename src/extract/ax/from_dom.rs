//! The interactive elements of a page read from its DOM snapshot (SPEC §5): roles by HTML-AAM and
//! ARIA, names by a simplified accname ([`super::name`], and for a field without one the text beside
//! it, [`super::nearby`]), live values and checked states, options ([`super::options`]), disabled
//! controls, the layout boxes behind `visible`, `rendered` and `hidden`, and the context of elements
//! whose role and name repeat ([`super::context`]).

use std::collections::HashSet;

use bua_protocol::Checked;

use super::context::{add_contexts, Page};
use super::element::{label, tristate, AxElement, CHECKABLE_ROLES};
use super::links::{click_context, inline_handlers, reads_its_element};
use super::name::{subtree_text, Namer, Text};
use super::nearby::{line_label, trailing_label, Reach, FIELD_ROLES};
use super::options::options_of;
use crate::extract::snapshot::{resolve_url, Dom, DomNode, Rect};

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
    let namer = Namer::new(dom);
    let mut out = Vec::new();
    // The node of each element of `out`, and the role of each node the list offers.
    let mut nodes: Vec<usize> = Vec::new();
    let mut roles: Vec<Option<&'static str>> = vec![None; dom.nodes.len()];
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
        let reachable = dom.is_reachable(i);
        // A control whose only text no person can see (an icon button whose label is pushed off with
        // `text-indent`, a background image showing instead) is still named by it, as accname does.
        let name = match reachable {
            true => namer
                .name(i, Text::Seen)
                .or_else(|| namer.name(i, Text::All)),
            false => namer.name(i, Text::All),
        }
        .and_then(|n| label(&n));
        let options = options_of(dom, i, role, &|id| namer.element_by_id(id));
        let value = selected_labels(dom, i)
            .or_else(|| {
                (!options.aria_selected.is_empty()).then(|| options.aria_selected.join(", "))
            })
            .or_else(|| dom.input_values.get(&node.backend_node_id).cloned())
            .filter(|_| {
                matches!(
                    role,
                    "textbox" | "searchbox" | "combobox" | "listbox" | "spinbutton" | "slider"
                )
            })
            // A secret field's value (a password, a card number, …) is the fixed mask (SPEC §5 "Secrets").
            .map(|v| {
                let secret = crate::secret::is_secret_field(
                    node.tag().unwrap_or_default(),
                    node.attr("type"),
                    node.attr("autocomplete"),
                );
                // A value the page or the person put there (autofill, a value attribute) is kept out of every
                // later message as a typed one is (a GET form's URL, network and console text).
                if secret {
                    crate::secret::remember(&v);
                }
                crate::secret::shown(&v, secret)
            })
            .and_then(|v| label(&v));
        let attr = |n: &str| {
            node.attr(n)
                .map(|v| v.trim().to_ascii_lowercase())
                .filter(|v| !v.is_empty())
        };
        roles[i] = Some(role);
        nodes.push(i);
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
            expanded: match attr("aria-expanded").as_deref() {
                Some("true") => Some(true),
                Some("false") => Some(false),
                _ => summary_open(dom, i),
            },
            pressed: attr("aria-pressed").is_some_and(|v| tristate(&v) != Checked::False),
            selected: matches!(role, "option" | "tab" | "treeitem")
                && node
                    .attr("aria-selected")
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("true")),
            options: options.names,
            option_count: options.count,
            context: None,
        });
    }
    // A field the page left without a name is named by the text beside it; that text is then the
    // field's, not a caption of the elements around it.
    // Any control's text is its own, shown or not (a button inside an `aria-hidden` part).
    let control = |n: usize| dom_role(&dom.nodes[n]).is_some();
    let mut field_texts = HashSet::new();
    let unnamed = |e: &AxElement| e.name.is_none() && FIELD_ROLES.contains(&e.role.as_str());
    // The text on a field's own line first, then a label right after it (drawn over it or beside it),
    // then the line above: each text names one field.
    for pass in 0..3 {
        for (e, &i) in out.iter_mut().zip(&nodes) {
            if !unnamed(e) {
                continue;
            }
            let found = match pass {
                0 => line_label(dom, &namer, i, &control, &field_texts, Reach::SameLine),
                1 => trailing_label(dom, &namer, i, &control)
                    .filter(|(_, t)| !field_texts.contains(&t[0])),
                _ => line_label(dom, &namer, i, &control, &field_texts, Reach::LineAbove),
            };
            if let Some((name, texts)) = found {
                e.name = label(&name);
                field_texts.extend(texts);
            }
        }
    }
    let page = Page {
        dom,
        namer: &namer,
        field_texts: &field_texts,
        role: &|n| roles[n],
    };
    add_contexts(&page, &nodes, &mut out);
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

/// For a `<details>`' own `<summary>` (SPEC §5 `expanded`, when it has no `aria-expanded`): whether the
/// details are open; `None` for any other node.
fn summary_open(dom: &Dom, i: usize) -> Option<bool> {
    let node = &dom.nodes[i];
    let details = node
        .parent
        .filter(|&p| node.tag() == Some("summary") && dom.nodes[p].tag() == Some("details"))?;
    Some(dom.nodes[details].attr("open").is_some())
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
