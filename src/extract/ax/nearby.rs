//! A name for a form field the page left without one, from the text a person reads beside it (SPEC §5
//! `name`), when no other control or link stands between them: the nearest text before the field on its
//! line ([`line_label`]: Django admin's split date and time boxes, `<p>Date: <input> Time: <input></p>`
//! under a `<label>` that names no control; a search box after "Find:"), else a text right after it that
//! is drawn over it or beside it (a "floating" label, [`trailing_label`]), else the text just above it.

use std::collections::HashSet;

use super::name::Namer;
use crate::extract::snapshot::{Dom, NodeKind, Rect};

/// Roles of the fields that get a name from the text beside them: those a person fills in, whose label
/// stands before them. (A checkbox's or radio's label usually follows it.)
pub(super) const FIELD_ROLES: &[&str] = &[
    "textbox",
    "searchbox",
    "combobox",
    "listbox",
    "spinbutton",
    "slider",
];

/// Nodes looked at before a field for its text.
const MAX_STEPS: usize = 64;
/// Nodes looked at after a field for a label drawn over or beside it.
const TRAILING_STEPS: usize = 16;

/// Where [`line_label`] looks for text before a field.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Reach {
    /// On the field's own line, to its left.
    SameLine,
    /// Also on the line just above it.
    LineAbove,
}
/// Longest text taken as a field's name, in chars: longer is prose, not a label.
const MAX_CHARS: usize = 80;

/// The name of field node `i` from the text that comes right after it in the page when it is drawn over
/// the field or just right of it on its line (a "floating" label, `<input><label>City</label>`, which the
/// page's style puts on the field), with that text node; `interactive` as for [`line_label`].
pub(super) fn trailing_label(
    dom: &Dom,
    namer: &Namer<'_>,
    i: usize,
    interactive: &dyn Fn(usize) -> bool,
) -> Option<(String, Vec<usize>)> {
    let field = dom.nodes[i].layout.as_ref()?.bounds;
    let end = i
        + 1
        + (i + 1..dom.nodes.len())
            .take_while(|&n| dom.ancestors(n).any(|a| a == i))
            .count();
    for n in (end..dom.nodes.len()).take(TRAILING_STEPS) {
        let node = &dom.nodes[n];
        let Some(layout) = node.layout.as_ref() else {
            continue;
        };
        if interactive(n) {
            return None;
        }
        let Some(t) = node.text().filter(|t| !t.trim().is_empty()) else {
            continue;
        };
        // The text of the next field's `<label>` is that field's.
        if owned_by_other(dom, namer, n, &[], interactive) {
            return None;
        }
        let b = layout.bounds;
        let (cx, cy) = (b.x + b.width / 2.0, b.y + b.height / 2.0);
        let over = cx >= field.x && cx <= field.x + field.width;
        let right_beside =
            b.x >= field.x + field.width && b.x - (field.x + field.width) <= field.height.max(20.0);
        let on_line = cy >= field.y && cy <= field.y + field.height;
        return (on_line && (over || right_beside))
            .then(|| clean(t))
            .flatten()
            .map(|name| (name, vec![n]));
    }
    None
}

/// The name of field node `i` from the visible text before it (see the module doc), with the text nodes
/// it was read from; `None` when there is none on its line. `interactive(n)`: node `n` is a control or a
/// link — its text is its own, and text before it belongs to it. `taken`: text nodes that already name
/// another field (a floating label of the field before).
pub(super) fn line_label(
    dom: &Dom,
    namer: &Namer<'_>,
    i: usize,
    interactive: &dyn Fn(usize) -> bool,
    taken: &HashSet<usize>,
    reach: Reach,
) -> Option<(String, Vec<usize>)> {
    let field = dom.nodes[i].layout.as_ref()?.bounds;
    let ancestors: Vec<usize> = dom.ancestors(i).collect();
    let mut parts: Vec<usize> = Vec::new();
    let mut block: Option<usize> = None;
    for n in dom.preceding(i).take(MAX_STEPS) {
        if ancestors.contains(&n) {
            // Climbing out of the field's own containers: the block the text was found in is left.
            if block == Some(n) {
                break;
            }
            continue;
        }
        let node = &dom.nodes[n];
        let NodeKind::Text(t) = &node.kind else {
            if node.layout.is_some() && interactive(n) {
                break;
            }
            continue;
        };
        let Some(layout) = node.layout.as_ref() else {
            continue;
        };
        if t.trim().is_empty() {
            continue;
        }
        if taken.contains(&n) || owned_by_other(dom, namer, n, &ancestors, interactive) {
            break;
        }
        match block {
            None => {
                if !beside(&layout.bounds, &field, reach) {
                    return None;
                }
                block = Some(block_of(dom, n));
            }
            Some(b) if !dom.ancestors(n).any(|a| a == b) => break,
            Some(_) => {}
        }
        parts.push(n);
    }
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    let text: Vec<&str> = parts.iter().filter_map(|&p| dom.nodes[p].text()).collect();
    let mut name = crate::extract::text::collapse(&text.join(" "));
    if name.chars().count() > MAX_CHARS {
        // A run too long to be a label: its last piece may still be one ("…the form. Email:").
        let last = parts.last().copied()?;
        name = crate::extract::text::collapse(dom.nodes[last].text()?);
        parts = vec![last];
        if name.chars().count() > MAX_CHARS {
            return None;
        }
    }
    clean(&name).map(|name| (name, parts))
}

/// `text` as a name: whitespace collapsed, a `*` (a required mark) at either end and a trailing `:`
/// removed; `None` when no letter or digit is left (a `/` between a month and a year box).
fn clean(text: &str) -> Option<String> {
    let name = crate::extract::text::collapse(text);
    let name = name
        .trim_start_matches(|c: char| c == '*' || c.is_whitespace())
        .trim_end_matches(|c: char| c == ':' || c == '*' || c.is_whitespace());
    name.chars()
        .any(char::is_alphanumeric)
        .then(|| name.to_string())
}

/// Text node `n` belongs to something else: it is inside an element the list offers (a button's or
/// link's text), or inside a `<label>` that names another control. Only its ancestors below
/// `field_ancestors` (the field's own containers) are looked at.
fn owned_by_other(
    dom: &Dom,
    namer: &Namer<'_>,
    n: usize,
    field_ancestors: &[usize],
    interactive: &dyn Fn(usize) -> bool,
) -> bool {
    dom.ancestors(n)
        .take_while(|a| !field_ancestors.contains(a))
        .any(|a| {
            interactive(a) || (dom.nodes[a].tag() == Some("label") && namer.labels_something(a))
        })
}

/// The nearest ancestor of node `n` that holds lines of its own: any box but a plain inline one (a block,
/// a flex item, a table cell, an `inline-block`). A line's text does not run across its edge: Django's
/// `<p class="datetime">Date: <input></p>` beside its row's `<label>` is a line of its own.
fn block_of(dom: &Dom, n: usize) -> usize {
    dom.ancestors(n)
        .find(|&a| {
            dom.nodes[a]
                .layout
                .as_ref()
                .is_some_and(|l| !matches!(&*l.style.display, "" | "inline" | "contents"))
        })
        .unwrap_or(0)
}

/// A text box `text` reads as the label of a field box `field`: it starts before the field's bottom and
/// is not wholly to the field's right, and it ends below the field's top (its own line) or, with
/// [`Reach::LineAbove`], no more than a line above it.
fn beside(text: &Rect, field: &Rect, reach: Reach) -> bool {
    let above = match reach {
        Reach::SameLine => 0.0,
        Reach::LineAbove => field.height.max(20.0),
    };
    text.y + text.height > field.y - above
        && text.y < field.y + field.height
        && text.x < field.x + field.width
}
