//! Where an element is, for elements whose role and name repeat (SPEC §5 `context`): four "Filter" boxes,
//! a "Change" link per table row, a checkbox per row. Each is told apart by the caption of the nearest
//! container that holds it and none of the others and whose caption no other one has — a table row's
//! first cell, a fieldset's legend, a disclosure's summary, the first words of a block (a label that names
//! no control, a heading) — else by the heading above it.

use std::collections::{HashMap, HashSet};

use super::element::AxElement;
use super::name::{subtree_text, Namer};
use crate::extract::snapshot::{is_heading_tag, Dom, NodeKind};

/// Longest context kept, in chars; a longer one ends with `…`.
pub const MAX_CONTEXT_CHARS: usize = 60;
/// Nodes read per container for its caption.
const CAPTION_NODES: usize = 200;
/// Nodes looked at before an element for a heading above it.
const HEADING_STEPS: usize = 2_000;
/// Container captions looked at per element.
const MAX_CANDIDATES: usize = 4;

/// What the context of the elements of one page reads.
pub(super) struct Page<'a, 'n> {
    pub dom: &'a Dom,
    pub namer: &'a Namer<'n>,
    /// Text nodes that name a field beside them ([`super::nearby`]): they are that field's, no caption.
    pub field_texts: &'a HashSet<usize>,
    /// The role of node `n` when the list offers it.
    pub role: &'a dyn Fn(usize) -> Option<&'static str>,
}

/// Gives [`AxElement::context`] to each element of `elements` (whose nodes are `nodes`, same order) that
/// shares its role and name with another one that is not hidden, when a caption tells it apart from them:
/// the nearest one no other member of the group has among its own.
pub(super) fn add_contexts(page: &Page<'_, '_>, nodes: &[usize], elements: &mut [AxElement]) {
    let mut groups: HashMap<(&str, Option<&str>), Vec<usize>> = HashMap::new();
    for (k, e) in elements.iter().enumerate() {
        if !e.hidden {
            groups
                .entry((e.role.as_str(), e.name.as_deref()))
                .or_default()
                .push(k);
        }
    }
    let mut found: Vec<(usize, String)> = Vec::new();
    for members in groups.values().filter(|m| m.len() > 1) {
        // How many members each container holds: one that holds two tells neither apart.
        let mut held: HashMap<usize, usize> = HashMap::new();
        for &k in members {
            for a in page.dom.ancestors(nodes[k]) {
                *held.entry(a).or_default() += 1;
            }
        }
        let own_name = elements[members[0]].name.as_deref().unwrap_or("");
        let candidates: Vec<Vec<String>> = members
            .iter()
            .map(|&k| candidates_of(page, nodes[k], &held, own_name))
            .collect();
        // Each member's nearest caption that no other member has among its own: "All" heads every
        // filter's list, the filter's title tells them apart.
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for list in &candidates {
            let mut own: Vec<&str> = list.iter().map(String::as_str).collect();
            own.sort_unstable();
            own.dedup();
            for c in own {
                *seen.entry(c).or_default() += 1;
            }
        }
        for (&k, list) in members.iter().zip(&candidates) {
            if let Some(c) = list.iter().find(|c| seen.get(c.as_str()) == Some(&1)) {
                found.push((k, c.clone()));
            }
        }
    }
    for (k, c) in found {
        elements[k].context = Some(c);
    }
}

/// Keeps the contexts that still tell elements apart among those `listed` (the agent text lists an element
/// the markdown does not name and that repeats no other link): a context stays when another listed
/// element has the role and name of its own and no such one has the same context.
pub fn prune_contexts(elements: &mut [AxElement], listed: &[bool]) {
    let mut groups: HashMap<(String, Option<String>), Vec<usize>> = HashMap::new();
    for (k, e) in elements.iter().enumerate() {
        if listed.get(k).copied().unwrap_or(false) && !e.hidden {
            groups
                .entry((e.role.clone(), e.name.clone()))
                .or_default()
                .push(k);
        }
    }
    let mut keep = vec![false; elements.len()];
    for members in groups.values().filter(|m| m.len() > 1) {
        let contexts: Vec<Option<String>> = members
            .iter()
            .map(|&k| elements[k].context.clone())
            .collect();
        for (&k, single) in members.iter().zip(singled_out(&contexts)) {
            keep[k] = single;
        }
    }
    for (e, keep) in elements.iter_mut().zip(keep) {
        if !keep {
            e.context = None;
        }
    }
}

/// For each context of a group's members, whether it is there and no other member has it: a context
/// shared by two (the same product listed twice) tells neither apart.
fn singled_out(contexts: &[Option<String>]) -> Vec<bool> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for c in contexts.iter().flatten() {
        *count.entry(c.as_str()).or_default() += 1;
    }
    contexts
        .iter()
        .map(|c| c.as_deref().is_some_and(|c| count.get(c) == Some(&1)))
        .collect()
}

/// The captions that may tell member node `m` of a group apart, nearest first: those of the containers
/// that hold it and no other member (`held` counts the group's members in each container), then the
/// heading before it.
fn candidates_of(
    page: &Page<'_, '_>,
    m: usize,
    held: &HashMap<usize, usize>,
    own_name: &str,
) -> Vec<String> {
    let dom = page.dom;
    let m_ancestors: Vec<usize> = dom.ancestors(m).collect();
    let mut out = Vec::new();
    for &a in &m_ancestors {
        if held.get(&a).copied().unwrap_or(0) > 1 || out.len() >= MAX_CANDIDATES {
            break;
        }
        if let Some(c) = caption(page, a, m, &m_ancestors).and_then(|c| clean(&c, own_name)) {
            out.push(c);
        }
    }
    let heading = dom
        .preceding(m)
        .take(HEADING_STEPS)
        .find(|&n| is_heading(dom, n));
    out.extend(heading.and_then(|h| clean(&subtree_text(dom, h, true), own_name)));
    out
}

/// The caption of container `a` for its descendant `m`: a row's first cell (not `m`'s own), a fieldset's
/// legend, a `<details>`'s summary, or the first words in `a` before `m` that belong to no other control.
fn caption(page: &Page<'_, '_>, a: usize, m: usize, m_ancestors: &[usize]) -> Option<String> {
    let dom = page.dom;
    let node = &dom.nodes[a];
    let role = node
        .attr("role")
        .and_then(|r| r.split_whitespace().next())
        .map(str::to_ascii_lowercase);
    if node.tag() == Some("tr") || role.as_deref() == Some("row") {
        return node
            .children
            .iter()
            .filter(|&&c| is_cell(dom, c) && !m_ancestors.contains(&c))
            .map(|&c| subtree_text(dom, c, true))
            .find(|t| !t.is_empty());
    }
    // A fieldset's legend, a disclosure's summary ("By staff status" over a filter's links).
    let title = match node.tag() {
        Some("fieldset") => Some("legend"),
        Some("details") => Some("summary"),
        _ => None,
    };
    if let Some(title) = title {
        let first = node
            .children
            .iter()
            .find(|&&c| dom.nodes[c].tag() == Some(title))?;
        return Some(subtree_text(dom, *first, true)).filter(|t| !t.is_empty());
    }
    first_words(page, a, m, m_ancestors)
}

/// The first text of container `a`, before its descendant `m` and before any other control (a link's
/// text counts: a story's title before its "Save" button), that is no control's own: not inside a
/// `<label>` that names a control, an `aria-hidden` part, or the text that names a field beside it.
fn first_words(page: &Page<'_, '_>, a: usize, m: usize, m_ancestors: &[usize]) -> Option<String> {
    let dom = page.dom;
    let mut stack: Vec<usize> = dom.nodes[a].children.iter().rev().copied().collect();
    let mut read = 0;
    while let Some(n) = stack.pop() {
        read += 1;
        if n == m || read > CAPTION_NODES {
            return None;
        }
        let node = &dom.nodes[n];
        match &node.kind {
            NodeKind::Text(t) => {
                if node.layout.is_some() && !t.trim().is_empty() && !page.field_texts.contains(&n) {
                    return Some(t.clone());
                }
            }
            NodeKind::Element { tag, .. } => {
                let holds_m = m_ancestors.contains(&n);
                // Words after another control are that control's neighbours, not this container's.
                if (page.role)(n).is_some_and(|r| r != "link") && !holds_m {
                    return None;
                }
                let skipped = (tag == "label" && page.namer.labels_something(n))
                    || node.attr("aria-hidden").is_some_and(|v| v.trim() == "true")
                    || matches!(tag.as_str(), "script" | "style" | "select" | "option");
                if !skipped || holds_m {
                    stack.extend(node.children.iter().rev().copied());
                }
            }
            NodeKind::Document => {}
        }
    }
    None
}

fn is_cell(dom: &Dom, n: usize) -> bool {
    let node = &dom.nodes[n];
    matches!(node.tag(), Some("td" | "th"))
        || node
            .attr("role")
            .and_then(|r| r.split_whitespace().next())
            .is_some_and(|r| {
                ["cell", "gridcell", "rowheader", "columnheader"]
                    .iter()
                    .any(|c| c.eq_ignore_ascii_case(r))
            })
}

fn is_heading(dom: &Dom, n: usize) -> bool {
    let node = &dom.nodes[n];
    node.layout.is_some()
        && (node
            .tag()
            .is_some_and(|t| is_heading_tag(t) || t == "legend")
            || node
                .attr("role")
                .is_some_and(|r| r.trim().eq_ignore_ascii_case("heading")))
}

/// `text` as a context: whitespace collapsed, a trailing `:` or `*` removed, cut to
/// [`MAX_CONTEXT_CHARS`]; `None` when empty or the element's own name.
fn clean(text: &str, own_name: &str) -> Option<String> {
    let c = crate::extract::text::collapse(text);
    let c = c
        .trim_end_matches(|ch: char| ch == ':' || ch == '*' || ch.is_whitespace())
        .to_string();
    if !c.chars().any(char::is_alphanumeric) || c == own_name {
        return None;
    }
    Some(crate::extract::text::cut_chars(c, MAX_CONTEXT_CHARS))
}
