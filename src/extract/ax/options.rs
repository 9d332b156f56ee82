//! What a select, list box or combobox offers (SPEC §5 `options`, `optionCount`): the options an agent
//! would otherwise learn only from a wrong `select_option`'s error. Both peers list them; here the
//! first [`MAX_OPTIONS`] names, each cut short, and how many there are.

use bua_protocol::{EXTRACT_MAX_OPTIONS, EXTRACT_MAX_OPTION_CHARS};

use super::name::subtree_text;
use crate::extract::snapshot::Dom;
use crate::extract::text::cut_chars;

/// Most option names one element carries.
pub const MAX_OPTIONS: usize = EXTRACT_MAX_OPTIONS;

/// Options visited per element at most (a `<select>` of every city of a country is thousands).
const MAX_OPTIONS_READ: usize = 10_000;

/// The options of one element: the first names and the count.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Options {
    /// The first [`MAX_OPTIONS`] names in document order, each at most [`EXTRACT_MAX_OPTION_CHARS`] chars.
    pub names: Vec<String>,
    /// How many options there are in all.
    pub count: usize,
    /// Names of the options the page marks `aria-selected` (ARIA list boxes; a `<select>`'s selection is
    /// read from the live state, [`super::from_dom`]).
    pub aria_selected: Vec<String>,
}

/// The options of element node `i` whose role is `role`:
///
/// * a `<select>`: its `<option>`s (in `<optgroup>`s too), named by `label` or text;
/// * an `<input list>`: its `<datalist>`'s suggestions, named by `label`, text or `value`;
/// * an ARIA `listbox`, or a `combobox` through `aria-controls` / `aria-owns`: the `role=option`s inside
///   that have no box — a closed popup's; a shown one's options are elements of their own, with their uids.
///
/// `ids` maps `id` attributes to nodes. Empty for anything else.
pub(super) fn options_of(
    dom: &Dom,
    i: usize,
    role: &str,
    ids: &dyn Fn(&str) -> Option<usize>,
) -> Options {
    let node = &dom.nodes[i];
    let mut out = Options::default();
    let datalist = node
        .attr("list")
        .filter(|_| node.tag() == Some("input"))
        .and_then(|l| ids(l.trim()))
        .filter(|&l| dom.nodes[l].tag() == Some("datalist"));
    match node.tag() {
        Some("select") => native(dom, i, &mut out),
        _ if datalist.is_some() => native(dom, datalist.unwrap_or(i), &mut out),
        _ if role == "listbox" => aria(dom, i, &mut out),
        _ if role == "combobox" => {
            for r in ["aria-controls", "aria-owns"]
                .into_iter()
                .filter_map(|a| node.attr(a))
                .flat_map(str::split_whitespace)
                .filter_map(ids)
            {
                aria(dom, r, &mut out);
            }
        }
        _ => {}
    }
    out
}

/// Visits the nodes under node `root` in document order, at most [`MAX_OPTIONS_READ`] of them; `visit`
/// says whether to go on into the node's children.
fn walk(dom: &Dom, root: usize, mut visit: impl FnMut(usize) -> bool) {
    let mut stack: Vec<usize> = dom.nodes[root].children.iter().rev().copied().collect();
    for _ in 0..MAX_OPTIONS_READ {
        let Some(n) = stack.pop() else { break };
        if visit(n) {
            stack.extend(dom.nodes[n].children.iter().rev().copied());
        }
    }
}

/// The `<option>`s under node `root` (a `<select>` or `<datalist>`), in document order.
fn native(dom: &Dom, root: usize, out: &mut Options) {
    walk(dom, root, |n| {
        let node = &dom.nodes[n];
        match node.tag() {
            Some("option") => {
                out.count += 1;
                if out.names.len() < MAX_OPTIONS {
                    // An option's text has no layout box of its own: the browser draws a closed
                    // `<select>`'s options itself.
                    let name = node
                        .attr("label")
                        .map(crate::extract::text::collapse)
                        .filter(|l| !l.is_empty())
                        .unwrap_or_else(|| subtree_text(dom, n, false));
                    let name = match name.is_empty() {
                        true => node.attr("value").map(crate::extract::text::collapse),
                        false => Some(name),
                    };
                    out.names.push(cut_chars(
                        name.unwrap_or_default(),
                        EXTRACT_MAX_OPTION_CHARS,
                    ));
                }
                false
            }
            Some(_) => true,
            None => false,
        }
    });
}

/// The `role=option`s under node `root` that have no box (they are no elements of their own).
fn aria(dom: &Dom, root: usize, out: &mut Options) {
    walk(dom, root, |n| {
        let node = &dom.nodes[n];
        let is_option = node
            .attr("role")
            .and_then(|r| r.split_whitespace().next())
            .is_some_and(|r| r.eq_ignore_ascii_case("option"));
        if !is_option {
            return true;
        }
        if node.layout.is_some() {
            return false;
        }
        let name = node
            .attr("aria-label")
            .map(crate::extract::text::collapse)
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| subtree_text(dom, n, false));
        if node
            .attr("aria-selected")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        {
            out.aria_selected.push(name.clone());
        }
        out.count += 1;
        if out.names.len() < MAX_OPTIONS {
            out.names.push(cut_chars(name, EXTRACT_MAX_OPTION_CHARS));
        }
        false
    });
}
