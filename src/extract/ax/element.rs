//! One interactive element ([`AxElement`]) and the list `extract` returns ([`ElementList`]): at most
//! [`MAX_ELEMENTS`], visible ones first, names and values cut to [`MAX_LABEL_CHARS`] (SPEC §5).

use bua_protocol::Checked;

/// Most elements returned by one `extract` (SPEC §5: ≤ 200).
pub const MAX_ELEMENTS: usize = 200;

/// Longest `name` / `value` kept, in chars; longer ones end with `…`.
pub const MAX_LABEL_CHARS: usize = 120;

/// Roles that carry a checked state (`checked` of SPEC §5's elements), compared lowercase.
pub(super) const CHECKABLE_ROLES: &[&str] = &[
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
    /// An ARIA `option`, `tab` or `treeitem` marked `aria-selected="true"`.
    pub selected: bool,
    /// Whether what it controls is shown (`aria-expanded`, a `<details>`' summary); `None` when it
    /// expands nothing.
    pub expanded: Option<bool>,
    /// A toggle button marked `aria-pressed` `true` or `mixed`.
    pub pressed: bool,
    /// The first option names of a select, list box or combobox ([`super::options`]); empty otherwise.
    pub options: Vec<String>,
    /// How many options it has in all (0 without options).
    pub option_count: usize,
    /// Where the element is, when another element has its role and name ([`super::context`]).
    pub context: Option<String>,
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
pub(super) fn label(s: &str) -> Option<String> {
    let c = crate::extract::text::collapse(s);
    if c.is_empty() {
        return None;
    }
    Some(crate::extract::text::cut_chars(c, MAX_LABEL_CHARS))
}

/// `aria-checked` / AX tristate text → [`Checked`] (anything but `true` / `mixed` is not checked).
pub(super) fn tristate(s: &str) -> Checked {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" => Checked::True,
        "mixed" => Checked::Mixed,
        _ => Checked::False,
    }
}
