//! `extract`'s result (SPEC §5): the obstacle, the interactive elements, the caps.

use super::outcomes::{DialogReport, OpenDialog};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What kind of obstacle `extract` saw (SPEC §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObstacleType {
    /// A sign-in wall.
    AuthWall,
    /// A CAPTCHA or bot challenge.
    Captcha,
    /// An access-denied / blocked page.
    AccessDenied,
}

impl ObstacleType {
    /// The wire spelling.
    pub fn as_str(&self) -> &'static str {
        match self {
            ObstacleType::AuthWall => "auth_wall",
            ObstacleType::Captcha => "captcha",
            ObstacleType::AccessDenied => "access_denied",
        }
    }
}

/// How sure the obstacle classifier is: `high` is terminal for the agent, `low` a hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// A hint: try one alternative, then stop.
    Low,
    /// Terminal: stop the plan and report.
    High,
}

/// `{type, confidence, message}` (SPEC §5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Obstacle {
    /// auth_wall / captcha / access_denied.
    pub r#type: ObstacleType,
    /// low / high.
    pub confidence: Confidence,
    /// A short human-readable reason.
    pub message: String,
}

/// The roles an `extract` element can have (ARIA's interactive roles and Chrome's names for native
/// controls), besides `generic` for an element the page made focusable with `tabindex`.
pub const INTERACTIVE_ROLES: &[&str] = &[
    "button",
    "link",
    "textbox",
    "searchbox",
    "combobox",
    "checkbox",
    "radio",
    "switch",
    "slider",
    "spinbutton",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "listbox",
    "treeitem",
    "togglebutton",
    "popupbutton",
    "disclosuretriangle",
    "colorwell",
    "date",
    "datetime",
    "inputtime",
    "textfieldwithcombobox",
    "scrollbar",
];

/// One interactive AX node of `extract` (SPEC §5): `{uid, role, name?, value?, visible?, checked?}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtractElement {
    /// `e0`, `e1`, … in document order; valid until the next main-frame navigation.
    pub uid: String,
    /// The AX role, e.g. `"button"`, `"link"`, `"textbox"`.
    pub role: String,
    /// Accessible name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Current value (text fields, sliders, comboboxes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `true` when the element's layout box intersects the viewport. Omitted otherwise (below or
    /// above the fold, or no box): absence means "not in the viewport", which keeps the list short.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visible: Option<bool>,
    /// The checked state of a `checkbox`, `radio`, `switch`, `menuitemcheckbox` or `menuitemradio`
    /// (`true`, `false` or `"mixed"`); omitted for every other role.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<Checked>,
    /// `true` when the markdown names this element by its uid (`extract {refs: true}`, SPEC §5);
    /// omitted otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_markdown: bool,
    /// `true` for a form control the page disabled (it takes no click or typing now); omitted otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
    /// `true` when no click can reach the element now: it has no box (zero size) or a container clips it
    /// away (a closed menu, a carousel's off-screen slide, an off-canvas panel). The agent text leaves it
    /// out. Omitted otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// With `refs` (SPEC §5): the uid of an element the markdown names, or an earlier one of the list,
    /// whose link goes to the same URL. Clicking either goes to the same page, so the agent text leaves
    /// this one out. Omitted otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<String>,
    /// `true` for an ARIA `option`, `tab` or `treeitem` the page marks
    /// `aria-selected="true"`; omitted otherwise (a `<select>`'s choice is its `value`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub selected: bool,
    /// Whether what the element controls is shown: `aria-expanded` (a menu button, a disclosure, a
    /// combobox, a tree item) or, for a `<details>`' summary, whether it is open. Omitted for elements that
    /// expand nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expanded: Option<bool>,
    /// `true` for a toggle button the page marks `aria-pressed="true"` (or `"mixed"`); omitted otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pressed: bool,
    /// What a `<select>`, a list box or a combobox offers (SPEC §5): the names of its first
    /// [`EXTRACT_MAX_OPTIONS`] options in document order, each cut to [`EXTRACT_MAX_OPTION_CHARS`] chars
    /// (the selected ones are its `value`). Omitted when it has none, or when its options are elements of
    /// their own (an open ARIA list box's). `get_value` lists every option of a `<select>`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// How many options it has in all, with `options`; more than `options` holds when the list was cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option_count: Option<u32>,
    /// Only when other listed elements have the same role and name (four "Filter" boxes, a "Change" link
    /// per table row, a checkbox per row): where this one is, in a few words — its table row's first cell,
    /// the label or legend of the smallest group that holds it and none of the others, or the heading
    /// above it (SPEC §5). Omitted otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// Most option names an element of `extract` carries ([`ExtractElement::options`]).
pub const EXTRACT_MAX_OPTIONS: usize = 20;
/// Longest option name an element of `extract` carries, in chars; a longer one ends with `…`.
pub const EXTRACT_MAX_OPTION_CHARS: usize = 60;

/// The checked state of a checkbox-like element: `true` / `false` on the wire, or the string
/// `"mixed"` for a tri-state checkbox that is partly checked (`indeterminate`, `aria-checked="mixed"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Checked {
    /// Checked (`true`).
    True,
    /// Not checked (`false`).
    False,
    /// Partly checked (`"mixed"`).
    Mixed,
}

impl Checked {
    /// `true` → [`Checked::True`], `false` → [`Checked::False`].
    pub fn from_bool(checked: bool) -> Checked {
        if checked {
            Checked::True
        } else {
            Checked::False
        }
    }
}

impl Serialize for Checked {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Checked::True => serializer.serialize_bool(true),
            Checked::False => serializer.serialize_bool(false),
            Checked::Mixed => serializer.serialize_str("mixed"),
        }
    }
}

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Bool(b) => Ok(Checked::from_bool(b)),
            Value::String(s) if s == "mixed" => Ok(Checked::Mixed),
            other => Err(serde::de::Error::custom(format!(
                "checked must be true, false or \"mixed\", not {other}"
            ))),
        }
    }
}

/// Which parts of `extract` were cut at their cap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Truncated {
    /// `text` hit 50 KB.
    pub text: bool,
    /// `markdown` hit 30 KB.
    pub markdown: bool,
    /// More than 200 elements qualified.
    pub elements: bool,
}

/// `extract`'s cap on `text`, bytes (cut at a char boundary).
pub const EXTRACT_MAX_TEXT_BYTES: usize = 50 * 1024;
/// `extract`'s cap on `markdown`, bytes.
pub const EXTRACT_MAX_MARKDOWN_BYTES: usize = 30 * 1024;
/// `extract`'s cap on `elements`.
pub const EXTRACT_MAX_ELEMENTS: usize = 200;

/// `extract` → SPEC §5.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtractResult {
    /// `location.href`.
    pub url: String,
    /// `document.title`.
    pub title: String,
    /// `document.body.innerText`, ≤ 50 KB; absent when `include` left it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Main content as Markdown, ≤ 30 KB; absent when `include` left it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// Interactive AX nodes in document order, ≤ 200; absent when `include` left them out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elements: Option<Vec<ExtractElement>>,
    /// A page-level obstacle, when the classifier fired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obstacle: Option<Obstacle>,
    /// What was cut.
    pub truncated: Truncated,
    /// Interactive nodes before the cap.
    pub total_elements: u32,
    /// Which page of a page too long for one read this is (SPEC §5 "Pages"), 1 for the default read;
    /// omitted when one read holds the whole page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    /// How many pages the page has: `extract {page: n}` reads page n; omitted with `page`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<u32>,
    /// A JavaScript dialog open on the tab (a tab the user is using: left for the user, SPEC §7); the
    /// page is blocked until it is answered, so nothing else was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<OpenDialog>,
    /// The dialogs answered while it ran (an [`Outcomes`] key, typed here for the agent text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dialogs: Vec<DialogReport>,
}

/// Cuts `s` to at most `max` bytes at a char boundary; returns whether it was cut.
pub fn truncate_at_char_boundary(s: &mut String, max: usize) -> bool {
    if s.len() <= max {
        return false;
    }
    let mut cut = max;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    true
}

#[cfg(test)]
mod extract_element_tests {
    use super::*;

    #[test]
    fn checked_is_a_bool_or_mixed_and_omitted_when_none() {
        let e = |checked, visible| ExtractElement {
            uid: "e3".into(),
            role: "checkbox".into(),
            name: Some("Remember me".into()),
            visible,
            checked,
            ..Default::default()
        };
        for (checked, wire) in [
            (Checked::True, serde_json::json!(true)),
            (Checked::False, serde_json::json!(false)),
            (Checked::Mixed, serde_json::json!("mixed")),
        ] {
            let v = serde_json::to_value(e(Some(checked), Some(true))).unwrap();
            assert_eq!(
                v,
                serde_json::json!({"uid": "e3", "role": "checkbox", "name": "Remember me",
                                   "visible": true, "checked": wire})
            );
            assert_eq!(
                serde_json::from_value::<ExtractElement>(v).unwrap(),
                e(Some(checked), Some(true))
            );
        }
        let v = serde_json::to_value(e(None, None)).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"uid": "e3", "role": "checkbox", "name": "Remember me"})
        );
        assert_eq!(
            serde_json::from_value::<ExtractElement>(v).unwrap(),
            e(None, None)
        );
        for bad in [
            serde_json::json!("true"),
            serde_json::json!(1),
            serde_json::json!("Mixed"),
        ] {
            let v = serde_json::json!({"uid": "e3", "role": "checkbox", "checked": bad});
            let err = serde_json::from_value::<ExtractElement>(v).unwrap_err();
            assert!(err.to_string().contains("checked must be"), "{err}");
        }
    }
}
