//! Accessible names from the DOM snapshot (SPEC §5 `name`): accname's order, simplified —
//! `aria-labelledby`, `aria-label`, the `<label>`s of a form field, the text content (with the `alt` of
//! images and the `aria-label` of the parts inside), `title`, then `placeholder`.

use std::collections::HashMap;

use super::element::MAX_LABEL_CHARS;
use crate::extract::snapshot::{Dom, NodeKind, Sight};

/// Elements HTML lets a `<label>` name ("labelable"); a hidden `<input>` is not one.
const LABELABLE: &[&str] = &[
    "button", "input", "meter", "output", "progress", "select", "textarea",
];

/// What the names of one page need: the elements by `id` and the `<label for>`s by the id they name.
pub(super) struct Namer<'a> {
    dom: &'a Dom,
    ids: HashMap<&'a str, usize>,
    labels_for: HashMap<&'a str, Vec<usize>>,
}

/// Which text a name reads (SPEC §5 "What a person cannot see").
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Text {
    /// What a person can see: an element on the screen.
    Seen,
    /// All of it: an element no click can reach (listed `hidden`, not offered in the agent text) — a closed
    /// menu's items keep their names — or a control whose only text no person can see.
    All,
}

impl<'a> Namer<'a> {
    /// Indexes `dom`'s ids and labels (once per extract).
    pub(super) fn new(dom: &'a Dom) -> Namer<'a> {
        let mut ids = HashMap::new();
        let mut labels_for: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, n) in dom.nodes.iter().enumerate() {
            if let Some(id) = n.attr("id") {
                ids.entry(id).or_insert(i);
            }
            if n.tag() == Some("label") {
                if let Some(f) = n.attr("for") {
                    labels_for.entry(f).or_default().push(i);
                }
            }
        }
        Namer {
            dom,
            ids,
            labels_for,
        }
    }

    /// The accessible name of node `i` (whitespace not yet collapsed; `None` when empty), in accname's
    /// order: `aria-labelledby` (the referenced nodes' text, hidden ones too), `aria-label`, for a form
    /// field its `<label>`s (or a button `<input>`'s value), else the text content; then `title`, and for
    /// a form field `placeholder` (HTML-AAM puts `title` before `placeholder`). `reading`: whether text a person
    /// cannot see (SPEC §5) is part of it.
    pub(super) fn name(&self, i: usize, reading: Text) -> Option<String> {
        let node = &self.dom.nodes[i];
        let nonempty = |s: String| Some(s).filter(|s| !s.trim().is_empty());
        if let Some(refs) = node.attr("aria-labelledby") {
            let text: Vec<String> = refs
                .split_whitespace()
                .filter_map(|r| self.ids.get(r))
                // A shown node is read as shown (its hidden parts left out); a hidden one whole.
                .map(|&r| match self.dom.nodes[r].layout {
                    Some(_) => self.content(r, Traversal::Rendered, reading),
                    None => self.content(r, Traversal::Labelledby, reading),
                })
                .collect();
            if let Some(t) = nonempty(text.join(" ")) {
                return Some(t);
            }
        }
        if let Some(l) = node
            .attr("aria-label")
            .map(str::to_string)
            .and_then(nonempty)
        {
            return Some(l);
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
            let mut labels: Vec<String> = Vec::new();
            for l in self.labels_of(i) {
                // A page that repeats a form repeats its labels: one "Username" is enough.
                let label = self.content(l, Traversal::Rendered, reading);
                if !labels.contains(&label) {
                    labels.push(label);
                }
            }
            if let Some(l) = nonempty(labels.join(" ")) {
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
        // The element's own `title` before its parts' names: a share link's "Share to Facebook" over its
        // icon's "Facebook icon".
        nonempty(self.read_content(i, Traversal::Rendered, reading, false))
            .or_else(|| node.attr("title").map(str::to_string).and_then(nonempty))
            .or_else(|| nonempty(self.read_content(i, Traversal::Rendered, reading, true)))
    }

    /// The element whose `id` is `id` (the first one, as `getElementById` finds it).
    pub(super) fn element_by_id(&self, id: &str) -> Option<usize> {
        self.ids.get(id).copied()
    }

    /// The `<label>` elements of form field `i`: those whose `for` is its id, else the one around it.
    pub(super) fn labels_of(&self, i: usize) -> Vec<usize> {
        let by_for = self.dom.nodes[i]
            .attr("id")
            .and_then(|id| self.labels_for.get(id))
            .cloned()
            .unwrap_or_default();
        if !by_for.is_empty() {
            return by_for;
        }
        self.dom.enclosing(i, "label").into_iter().collect()
    }

    /// Whether `<label>` node `l` names a control: its `for` is a labelable element's id, or (without
    /// `for`) it holds one. A label that names nothing is only text on the page, which the names of the
    /// fields beside it may use ([`super::nearby`]).
    pub(super) fn labels_something(&self, l: usize) -> bool {
        let dom = self.dom;
        if let Some(f) = dom.nodes[l].attr("for") {
            return self.ids.get(f).is_some_and(|&t| is_labelable(dom, t));
        }
        let mut stack: Vec<usize> = dom.nodes[l].children.clone();
        let mut seen = 0;
        while let Some(c) = stack.pop() {
            seen += 1;
            if seen > 256 {
                return false;
            }
            if is_labelable(dom, c) {
                return true;
            }
            stack.extend(dom.nodes[c].children.iter().copied());
        }
        false
    }

    /// The text of node `id`'s subtree as a name: text nodes and the `alt` of images, `aria-hidden` parts
    /// left out. When that is empty, the parts' own names are read too: a part with an `aria-label` counts as
    /// that label (an icon inside a `<label>`), a part without text as its `title` (an icon link's
    /// `<span class="date-icon" title="Choose a Date">`) — accname takes them always, but beside text they
    /// mostly repeat it ("Log in with Google" and its logo's label). Read as far as ~4 × [`MAX_LABEL_CHARS`].
    fn content(&self, id: usize, traversal: Traversal, reading: Text) -> String {
        let read = self.read_content(id, traversal, reading, false);
        if read.is_empty() {
            self.read_content(id, traversal, reading, true)
        } else {
            read
        }
    }

    /// [`Namer::content`]'s reading; `parts_named`: a part's `aria-label` or `title` stands for it.
    fn read_content(
        &self,
        id: usize,
        traversal: Traversal,
        reading: Text,
        parts_named: bool,
    ) -> String {
        let dom = self.dom;
        read_subtree(dom, id, |i, out| {
            let n = &dom.nodes[i];
            // Text a person cannot see (transparent, clipped, off the page: SPEC §5) is no part of a name.
            let rendered = traversal == Traversal::Labelledby
                || (n.layout.is_some()
                    && (reading == Text::All || dom.text_sight()[i] != Sight::Unseen));
            match &n.kind {
                NodeKind::Text(t) if rendered => push_readable(out, t),
                NodeKind::Text(_) | NodeKind::Document => {}
                NodeKind::Element { tag, .. } => {
                    // Scripts are no text, and a control inside (a `<select>` in its `<label>`) is no
                    // part of the name: its options would be read as words of it.
                    let skipped = matches!(tag.as_str(), "script" | "style")
                        || (i != id && matches!(tag.as_str(), "select" | "datalist" | "textarea"))
                        || (traversal == Traversal::Rendered
                            && i != id
                            && n.attr("aria-hidden").is_some_and(|v| v.trim() == "true"));
                    if skipped {
                        return false;
                    }
                    let part_name = || {
                        let own = |a: &str| n.attr(a).filter(|l| !l.trim().is_empty());
                        own("aria-label").or_else(|| {
                            own("title").filter(|_| subtree_text(dom, i, true).is_empty())
                        })
                    };
                    let named_part = (parts_named && i != id && rendered && tag != "img")
                        .then(part_name)
                        .flatten();
                    if let Some(l) = named_part {
                        out.push_str(l);
                        out.push(' ');
                    } else if tag == "img" {
                        out.push_str(n.attr("alt").unwrap_or(""));
                        out.push(' ');
                    } else {
                        return true;
                    }
                }
            }
            false
        })
    }
}

/// How a name reads a subtree: as rendered (text with a box, `aria-hidden` parts left out), or for
/// `aria-labelledby`, whose referenced nodes count even when hidden (accname).
#[derive(Clone, Copy, PartialEq)]
enum Traversal {
    Rendered,
    Labelledby,
}

/// Node `i` is an element a `<label>` can name.
fn is_labelable(dom: &Dom, i: usize) -> bool {
    let n = &dom.nodes[i];
    n.tag().is_some_and(|t| LABELABLE.contains(&t))
        && !n
            .attr("type")
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden"))
}

/// The text of node `id`'s subtree (with the `alt` of its images, without scripts and styles),
/// whitespace collapsed, read as far as ~4 × [`MAX_LABEL_CHARS`]; `laid_out`: only text that has a layout
/// box and that a person can see (an `<option>`'s text has none: the browser draws a closed `<select>`
/// itself).
pub(super) fn subtree_text(dom: &Dom, id: usize, laid_out: bool) -> String {
    read_subtree(dom, id, |i, out| {
        let n = &dom.nodes[i];
        match &n.kind {
            NodeKind::Text(t)
                if !laid_out || (n.layout.is_some() && dom.text_sight()[i] != Sight::Unseen) =>
            {
                push_readable(out, t)
            }
            NodeKind::Element { tag, .. } if tag == "img" => {
                out.push_str(n.attr("alt").unwrap_or(""));
                out.push(' ');
            }
            NodeKind::Element { tag, .. } if matches!(tag.as_str(), "script" | "style") => {}
            _ => return true,
        }
        false
    })
}

/// Reads node `id`'s subtree in document order as far as ~4 × [`MAX_LABEL_CHARS`], whitespace collapsed:
/// `read` appends node `i`'s own words to the text and says whether to go on into its children.
fn read_subtree(dom: &Dom, id: usize, mut read: impl FnMut(usize, &mut String) -> bool) -> String {
    let mut out = String::new();
    let mut stack = vec![id];
    while let Some(i) = stack.pop() {
        if out.len() > 4 * MAX_LABEL_CHARS {
            break;
        }
        if read(i, &mut out) {
            stack.extend(dom.nodes[i].children.iter().rev());
        }
    }
    crate::extract::text::collapse(&out)
}

/// Appends `text` and a space to `out`, without the characters of Unicode's private use areas: an icon
/// font's glyphs (`\u{e001}` for a share icon), which read as nothing.
pub(super) fn push_readable(out: &mut String, text: &str) {
    out.extend(text.chars().filter(|&c| !is_private_use(c)));
    out.push(' ');
}

fn is_private_use(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}
