//! The change between two views of a tab (SPEC §4 "Outcomes": `changes`), pure so it is tested natively.
//!
//! A view is what the agent text shows of an `extract` result: the markdown, line by line, and the elements
//! listed apart from it (not hidden, not a repeat of another link, not named in the markdown). Elements are
//! compared by uid — stable while the node is in the document (SPEC §5) — on what the agent reads of them
//! (role, name, value, checked, disabled, selected, expanded, pressed, options, context); lines as a multiset, so a line that moved is no change and a
//! line that appeared twice where it was once is one line added.

use bua_protocol::{Changes, ExtractElement, ExtractResult};
use std::collections::HashMap;

/// A diff whose text is bigger than this share of the new view's is not worth it: the view goes instead.
const WORTH_SHARE: f64 = 0.6;
/// Below this many bytes of diff, a diff is always kept (a small page's view is small too).
const ALWAYS_WORTH_BYTES: usize = 600;
/// Bytes an element line takes in the agent text, about (uid, role, quoted name).
const ELEMENT_LINE_BYTES: usize = 32;

/// The change from `old` to `new`, or `None` when a diff would say about as much as the new view itself
/// (the caller sends the view then).
pub fn diff(old: &ExtractResult, new: &ExtractResult) -> Option<Changes> {
    let before: HashMap<&str, &ExtractElement> = listed(old).map(|e| (e.uid.as_str(), e)).collect();
    let after: HashMap<&str, &ExtractElement> = listed(new).map(|e| (e.uid.as_str(), e)).collect();
    let mut changes = Changes::default();
    for e in listed(new) {
        match before.get(e.uid.as_str()) {
            None => changes.added.push(e.clone()),
            Some(was) if reads_differently(was, e) => changes.changed.push(e.clone()),
            Some(_) => {}
        }
    }
    // A list cut at its cap keeps the in-viewport elements first, so after a scroll an element missing from
    // it may still be on the page: only a whole list says what went away.
    let whole = !new.truncated.elements
        && new.elements.as_ref().map_or(0, Vec::len) >= new.total_elements as usize;
    if whole {
        changes.removed = listed(old)
            .filter(|e| !after.contains_key(e.uid.as_str()))
            .map(|e| e.uid.clone())
            .collect();
    }
    let (added, removed) = line_diff(
        old.markdown.as_deref().unwrap_or_default(),
        new.markdown.as_deref().unwrap_or_default(),
    );
    changes.text_added = added;
    changes.text_removed = removed;
    if old.url != new.url {
        changes.url = Some(new.url.clone());
    }
    if old.title != new.title {
        changes.title = Some(new.title.clone());
    }
    worth_it(&changes, new).then_some(changes)
}

/// The elements the agent text lists on their own lines (SPEC §9): what an action can newly offer.
fn listed(r: &ExtractResult) -> impl Iterator<Item = &ExtractElement> {
    r.elements
        .iter()
        .flatten()
        .filter(|e| !e.hidden && e.same_as.is_none() && !e.in_markdown)
}

/// Whether the agent would read `a` and `b` differently (being in the viewport or not is no change: a
/// scroll would otherwise change every line). A list box a filter box narrowed reads differently.
fn reads_differently(a: &ExtractElement, b: &ExtractElement) -> bool {
    a.role != b.role
        || a.name != b.name
        || a.value != b.value
        || a.checked != b.checked
        || a.disabled != b.disabled
        || a.selected != b.selected
        || a.expanded != b.expanded
        || a.pressed != b.pressed
        || a.options != b.options
        || a.option_count != b.option_count
        || a.context != b.context
}

/// Lines of `new` not in `old` (in `new`'s order) and of `old` not in `new` (in `old`'s order), counted as
/// multisets; blank lines are no content.
fn line_diff(old: &str, new: &str) -> (Vec<String>, Vec<String>) {
    let lines = |s: &str| -> Vec<String> {
        s.lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect()
    };
    let (old, new) = (lines(old), lines(new));
    (missing(&new, &old), missing(&old, &new))
}

/// The lines of `lines` that `other` does not hold, in order: a line `other` holds n times accounts for its
/// first n copies here.
fn missing(lines: &[String], other: &[String]) -> Vec<String> {
    let mut count: HashMap<&str, i64> = HashMap::new();
    for l in other {
        *count.entry(l).or_default() += 1;
    }
    let mut out = Vec::new();
    for l in lines {
        match count.get_mut(l.as_str()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => out.push(l.clone()),
        }
    }
    out
}

/// Whether `changes` is small next to the view of `new` it stands for.
fn worth_it(changes: &Changes, new: &ExtractResult) -> bool {
    let text = |lines: &[String]| lines.iter().map(|l| l.len() + 3).sum::<usize>();
    let size = text(&changes.text_added)
        + text(&changes.text_removed)
        + (changes.added.len() + changes.changed.len()) * ELEMENT_LINE_BYTES
        + changes.removed.len() * 8;
    if size <= ALWAYS_WORTH_BYTES {
        return true;
    }
    let view =
        new.markdown.as_deref().map_or(0, str::len) + listed(new).count() * ELEMENT_LINE_BYTES;
    (size as f64) <= view as f64 * WORTH_SHARE
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
