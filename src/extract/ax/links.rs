//! Links that repeat one another (SPEC §5 `sameAs`): where a click on a link goes, its URL and what
//! else decides it (its frame, `target` and inline `on…` handlers).

use std::collections::HashMap;

use super::element::AxElement;
use crate::extract::snapshot::{DomNode, NodeKind};

/// A link's inline event handlers (`onclick`, `onmousedown`, …) in attribute order.
pub(super) fn inline_handlers(node: &DomNode) -> impl Iterator<Item = (&str, &str)> {
    let attrs: &[(String, String)] = match &node.kind {
        NodeKind::Element { attrs, .. } => attrs,
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
pub(super) fn click_context(node: &DomNode) -> String {
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
pub(super) fn reads_its_element(script: &str) -> bool {
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
