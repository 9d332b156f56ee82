//! Typed results of SPEC §4, §5 and §7, as the extension builds them and clients read them:
//! camelCase on the wire, `Option` fields omitted when `None` (except where noted).

use crate::action::{Modifier, TabId};
use crate::changes::Changes;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One tab of `get_tabs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TabInfo {
    /// The tab.
    pub tab_id: TabId,
    /// Its window.
    pub window_id: i64,
    /// `normal` / `minimized` / `maximized` / `fullscreen` (`chrome.windows.WindowState`).
    pub window_state: String,
    /// The tab's URL.
    pub url: String,
    /// The tab's title.
    pub title: String,
    /// Whether it is the active tab of its window.
    pub active: bool,
    /// Whether the agent opened it.
    pub agent_owned: bool,
    /// For agent tabs: the agent owner that opened it (SPEC §6); only that owner may act on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_owner: Option<String>,
    /// Whether it has an active session.
    pub session: bool,
}

/// `get_tabs` → `{tabs:[…]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GetTabsResult {
    /// Every tab of every normal window.
    pub tabs: Vec<TabInfo>,
}

/// `open_tab` → `{tabId, windowId, domain}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenTabResult {
    /// The new tab.
    pub tab_id: TabId,
    /// Its window (the agent window unless `focus`).
    pub window_id: i64,
    /// The target's host.
    pub domain: String,
    /// The HTTP status of the page's response (`404` for a missing page), when the tab loaded one over
    /// HTTP(S); absent for `about:blank`, `data:` URLs and browser error pages (SPEC §4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Whether the main frame's `load` event came within `loadWaitMs` after `DOMContentLoaded` (SPEC §4):
    /// `false` for a page still loading something (an image that never answers); the page is readable
    /// either way. Absent from older extensions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loaded: Option<bool>,
}

/// `navigate` / `go_back` / `go_forward` / `reload` → `{tabId, url, title, status?, loaded?}` after
/// `DOMContentLoaded` (SPEC §4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NavResult {
    /// The tab.
    pub tab_id: TabId,
    /// The URL after load (redirects followed).
    pub url: String,
    /// The title after load.
    pub title: String,
    /// The HTTP status of the document's response (`404` for a missing page); absent when it was not loaded
    /// over HTTP(S) (`about:blank`, `data:`, a browser error page) (SPEC §4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Whether the main frame's `load` event came within `loadWaitMs` after `DOMContentLoaded` (SPEC §4):
    /// `false` for a page still loading something (an image that never answers); the page is readable
    /// either way. Absent from older extensions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loaded: Option<bool>,
}

/// `activate_tab` → `{tabId, url, title, active:true}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivateTabResult {
    /// The tab.
    pub tab_id: TabId,
    /// Its URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// Always true.
    pub active: bool,
}

/// `close_tab` → `{closed:true, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseTabResult {
    /// Whether the tab was closed.
    pub closed: bool,
    /// The tab.
    pub tab_id: TabId,
}

/// `close_agent_tabs` → `{closed:[tabId…]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CloseAgentTabsResult {
    /// The tabs closed.
    pub closed: Vec<TabId>,
}

/// `close_agent_window` → `{closed:bool, windowId:number|null}` (`windowId` is `null`, not omitted,
/// when there was no window).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseAgentWindowResult {
    /// Whether a window was closed.
    pub closed: bool,
    /// The window, `null` when none existed.
    pub window_id: Option<i64>,
}

/// A short description of the element an action touched: `{tag, role?, name?, id?, text?, type?}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElementInfo {
    /// Lowercase tag name, e.g. `"button"`.
    pub tag: String,
    /// ARIA role (explicit or computed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Accessible name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The `id` attribute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Visible text, trimmed and cut short (≤ 100 chars is plenty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The `type` attribute of inputs and buttons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<String>,
}

/// `click` → `{clicked:{…}, tabId}`; `click_at` adds `x`, `y` (CSS px).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClickResult {
    /// The element clicked.
    pub clicked: ElementInfo,
    /// The tab (for `newTab:true` links: the new tab).
    pub tab_id: TabId,
    /// `click_at` only: the point, CSS px.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// `click_at` only: the point, CSS px.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
}

/// `hover` → `{hovered:{…}, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HoverResult {
    /// The element hovered.
    pub hovered: ElementInfo,
    /// The tab.
    pub tab_id: TabId,
}

/// `type` → `{element:{…}, value, tabId}`; `value` is read back after typing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TypeResult {
    /// The element typed into.
    pub element: ElementInfo,
    /// Its value (or text, for contenteditable) after typing.
    pub value: String,
    /// The tab.
    pub tab_id: TabId,
}

/// `press_key` → `{key, modifiers, element?, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PressKeyResult {
    /// The key pressed.
    pub key: String,
    /// The modifiers held.
    pub modifiers: Vec<Modifier>,
    /// The focused element that received the key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<ElementInfo>,
    /// The tab.
    pub tab_id: TabId,
    /// With `waitLoad`, when the key started a main-frame navigation: whether its `load` event came (as
    /// `navigate`'s `loaded`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loaded: Option<bool>,
}

/// How far `scroll` actually moved, CSS px.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScrollDelta {
    /// Horizontal px moved.
    pub dx: f64,
    /// Vertical px moved.
    pub dy: f64,
}

/// `scroll` → `{scrolled:{dx,dy}, atEnd, element?, tabId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrollResult {
    /// The distance actually scrolled.
    pub scrolled: ScrollDelta,
    /// Whether the container (or page) is now scrolled to its end.
    pub at_end: bool,
    /// The located element, when a locator was given (the v1 bridge's result has it too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<ElementInfo>,
    /// The tab.
    pub tab_id: TabId,
}

/// One selected option of `select_option`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectedOption {
    /// The option's value.
    pub value: String,
    /// The option's label.
    pub label: String,
}

/// `select_option` → `{selected:[{value,label}], tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectOptionResult {
    /// Every option selected after the change.
    pub selected: Vec<SelectedOption>,
    /// The tab.
    pub tab_id: TabId,
}

/// `check` → `{checked, tabId}` (plus the element, as the v1 bridge did).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckResult {
    /// The state after the action.
    pub checked: bool,
    /// The tab.
    pub tab_id: TabId,
    /// The control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<ElementInfo>,
}

/// `set_value` → `{element, value, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetValueResult {
    /// The control.
    pub element: ElementInfo,
    /// Its value after the change.
    pub value: String,
    /// The tab.
    pub tab_id: TabId,
}

/// A form value: one string, or one per selected option of a multi-select.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FormValue {
    /// A single value (text fields, single selects, checkboxes).
    One(String),
    /// The values of every selected option of a `<select multiple>`, in option order (may be empty).
    Many(Vec<String>),
}

/// `get_value` → `{element, value, label?, checked?, tabId}`, read from the page without changing it:
///
/// * text input, textarea, other `value`-bearing elements: `value` (a password field's masked as
///   `type` and `extract` show it, one `•` per character);
/// * contenteditable: `value` is its text (`innerText`);
/// * `<select>`: `value` and `label` of the selected option (`""` when none), arrays for a
///   `<select multiple>`;
/// * checkbox / radio: `checked`, and `value` the input's `value` attribute (what a form submits
///   when checked; `""` for ARIA checkboxes and switches).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetValueResult {
    /// The control read (a located `<label>`'s control): `tag`, and `type` for inputs.
    pub element: ElementInfo,
    /// Its current value.
    pub value: FormValue,
    /// `<select>` only: the selected option's label (visible text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<FormValue>,
    /// Checkbox, radio and switch only: whether it is checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<bool>,
    /// The tab.
    pub tab_id: TabId,
}

/// `wait_for` → `{found, elapsedMs, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitForResult {
    /// Whether the state was reached (false only with a non-failing policy; not found in time → `timeout`).
    pub found: bool,
    /// ms waited.
    pub elapsed_ms: u64,
    /// The tab.
    pub tab_id: TabId,
}

/// `scrape` → `{count, items:[{…}], tabId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrapeResult {
    /// `items.len()`.
    pub count: u32,
    /// One object per item: field name → string (or `null` when the field's selector matched nothing).
    pub items: Vec<Map<String, Value>>,
    /// The tab.
    pub tab_id: TabId,
}

/// `screenshot` → `{mime, data, width, height}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScreenshotResult {
    /// `image/png` or `image/jpeg`.
    pub mime: String,
    /// Base64 (standard alphabet, padded) image bytes.
    pub data: String,
    /// Image width, px.
    pub width: u32,
    /// Image height, px.
    pub height: u32,
}

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

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

#[cfg(test)]
mod extract_element_tests {
    use super::*;

    #[test]
    fn checked_is_a_bool_or_mixed_and_omitted_when_none() {
        let e = |checked, visible| ExtractElement {
            uid: "e3".into(),
            role: "checkbox".into(),
            name: Some("Remember me".into()),
            value: None,
            visible,
            checked,
            in_markdown: false,
            disabled: false,
            hidden: false,
            same_as: None,
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

/// The largest serialised `evaluate` value returned whole, bytes (SPEC §7).
pub const EVALUATE_MAX_BYTES: usize = 8 * 1024;

/// `evaluate`'s result (SPEC §7), untagged:
/// `{type, value}` (JSON-serialisable), `{type, description}` (DOM node, function, Map, …),
/// `{type, truncated:true, preview}` (serialised value over 8 KB; `preview` ends with `…[truncated N chars]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EvaluateResult {
    /// A JSON-serialisable value.
    Value {
        /// CDP `RemoteObject.type`: `string`, `number`, `boolean`, `object`, `undefined`, …
        r#type: String,
        /// The value.
        value: Value,
    },
    /// A value that is not JSON-serialisable.
    Described {
        /// CDP `RemoteObject.type`.
        r#type: String,
        /// CDP `RemoteObject.description`, e.g. `"HTMLDivElement"`.
        description: String,
    },
    /// A value whose JSON is over 8 KB.
    Truncated {
        /// CDP `RemoteObject.type`.
        r#type: String,
        /// Always true.
        truncated: bool,
        /// The first 8 KB of the JSON, then `…[truncated N chars]`.
        preview: String,
    },
}

impl EvaluateResult {
    /// Builds the result for a by-value CDP result: `{type, value}`, or `{type, truncated, preview}`
    /// when the value's JSON is over [`EVALUATE_MAX_BYTES`] (N = chars cut).
    pub fn from_json(r#type: impl Into<String>, value: Value) -> Self {
        let r#type = r#type.into();
        let json = value.to_string();
        if json.len() <= EVALUATE_MAX_BYTES {
            return EvaluateResult::Value { r#type, value };
        }
        let mut preview = json.clone();
        truncate_at_char_boundary(&mut preview, EVALUATE_MAX_BYTES);
        let cut = json[preview.len()..].chars().count();
        preview.push_str(&format!("…[truncated {cut} chars]"));
        EvaluateResult::Truncated {
            r#type,
            truncated: true,
            preview,
        }
    }
}

/// How a `handoff` ended (SPEC §4): the result's `by` (`page`, `user`, `cancelled`), and in the
/// `handoff_ended` event and the audit log also `timeout` and `session_ended`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandoffOutcome {
    /// The obstacle seen when the handoff began no longer fires (the page navigated on, the challenge cleared).
    Page,
    /// The person pressed Done.
    User,
    /// The person pressed Cancel.
    Cancelled,
    /// `waitMs` ran out (the action fails with `timeout`).
    Timeout,
    /// The tab's session ended (Stop, Stop all, tab closed): the action fails with the session's error.
    SessionEnded,
}

const HANDOFF_OUTCOMES: [HandoffOutcome; 5] = [
    HandoffOutcome::Page,
    HandoffOutcome::User,
    HandoffOutcome::Cancelled,
    HandoffOutcome::Timeout,
    HandoffOutcome::SessionEnded,
];

impl HandoffOutcome {
    /// The wire spelling, e.g. `"page"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            HandoffOutcome::Page => "page",
            HandoffOutcome::User => "user",
            HandoffOutcome::Cancelled => "cancelled",
            HandoffOutcome::Timeout => "timeout",
            HandoffOutcome::SessionEnded => "session_ended",
        }
    }

    /// Parses the wire spelling.
    pub fn from_wire(s: &str) -> Option<HandoffOutcome> {
        HANDOFF_OUTCOMES.iter().copied().find(|o| o.as_str() == s)
    }
}

/// `handoff` → `{resolved, by, url, title, obstacle?}`: `resolved` is false only for `by: "cancelled"`;
/// `obstacle` is what the classifier sees on the page now, if anything (SPEC §5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HandoffResult {
    /// The person finished (the page cleared or they pressed Done).
    pub resolved: bool,
    /// `page`, `user` or `cancelled`.
    pub by: HandoffOutcome,
    /// The tab's URL now.
    pub url: String,
    /// The tab's title now.
    pub title: String,
    /// The obstacle on the page now, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obstacle: Option<Obstacle>,
    /// The tab.
    pub tab_id: TabId,
}

/// One file `upload` put into the input, as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadedFile {
    /// `File.name` (the path's last component).
    pub name: String,
    /// `File.size`, bytes.
    pub size: u64,
    /// `File.type` (from the file name's extension; empty when unknown).
    pub mime: String,
}

/// `upload` → `{element, files, chooser, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadResult {
    /// The file input that took the files.
    pub element: ElementInfo,
    /// The input's files afterwards, in order.
    pub files: Vec<UploadedFile>,
    /// Whether the located control opened a file chooser (intercepted) rather than being the input.
    pub chooser: bool,
    /// The tab.
    pub tab_id: TabId,
}

/// `drag` → `{from, to?, x, y, html5, tabId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DragResult {
    /// The dragged element.
    pub from: ElementInfo,
    /// The element dropped on, when `to` was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<ElementInfo>,
    /// The drop point, viewport CSS px.
    pub x: f64,
    /// The drop point, viewport CSS px.
    pub y: f64,
    /// Whether the page started an HTML5 drag (`draggable`), finished with drag events.
    pub html5: bool,
    /// The tab.
    pub tab_id: TabId,
}

/// One console message or uncaught error of `console`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsoleEntry {
    /// Its cursor: increasing per tab, shared with `network` (pass the result's `next` as `since`).
    pub n: u64,
    /// `debug` / `log` / `warning` / `error`.
    pub level: crate::action::ConsoleLevel,
    /// The message (arguments joined by spaces; an exception's first line), at most 2,000 chars.
    pub text: String,
    /// `url:line` (1-based) of the code that logged it, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Wall-clock time, ms since the Unix epoch.
    pub at: f64,
}

/// `console` → `{entries, dropped, next, tabId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsoleResult {
    /// The kept entries that match, oldest first.
    pub entries: Vec<ConsoleEntry>,
    /// Entries dropped since the session attached because the buffer was full (all levels).
    pub dropped: u64,
    /// The cursor to pass as `since` next time for only newer entries.
    pub next: u64,
    /// The tab.
    pub tab_id: TabId,
}

/// One request of `network` (bodies are not kept).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkEntry {
    /// Its cursor (see [`ConsoleEntry::n`]).
    pub n: u64,
    /// `GET`, `POST`, …
    pub method: String,
    /// The URL (cut at 500 chars).
    pub url: String,
    /// The HTTP status, once a response arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// CDP's resource type: `Document`, `Script`, `Fetch`, `XHR`, `Image`, …
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub kind: Option<String>,
    /// Bytes received over the network (encoded), once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// From the request to its end, ms, once finished or failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
    /// Why it failed (`net::ERR_CONNECTION_REFUSED`, `net::ERR_ABORTED`), when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// `network` → `{requests, dropped, next, tabId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkResult {
    /// The kept requests that match, oldest first.
    pub requests: Vec<NetworkEntry>,
    /// Requests dropped since the session attached because the buffer was full.
    pub dropped: u64,
    /// The cursor to pass as `since` next time for only newer requests.
    pub next: u64,
    /// The tab.
    pub tab_id: TabId,
}

/// `pdf` → `{mime, data, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PdfResult {
    /// `application/pdf`.
    pub mime: String,
    /// Base64 (standard alphabet, padded) PDF bytes.
    pub data: String,
    /// The tab.
    pub tab_id: TabId,
}
/// How a reported dialog was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DialogAnswered {
    /// OK was pressed.
    Accepted,
    /// Cancel was pressed.
    Dismissed,
}

/// A JavaScript dialog that opened while an action ran, and how it was answered (SPEC §7):
/// `{type, message, answer, promptText?}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DialogReport {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    pub r#type: String,
    /// The dialog's message.
    pub message: String,
    /// How it was answered.
    pub answer: DialogAnswered,
    /// The text an accepted `prompt` returned to the page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_text: Option<String>,
}

/// A JavaScript dialog open on a tab the user is using, left for the user (SPEC §7): `{type, message}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenDialog {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    pub r#type: String,
    /// The dialog's message.
    pub message: String,
}

/// The page an action left the tab on when it changed the main frame's document: `{url, title}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Navigated {
    /// The new document's URL.
    pub url: String,
    /// Its title.
    pub title: String,
}

/// A tab or popup an action opened (it joins the agent's tabs): `{tabId, url}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenedTab {
    /// The new tab.
    pub tab_id: TabId,
    /// The URL it opened (or is loading).
    pub url: String,
}

/// A download an action started: `{id, filename, state}` (`downloads` gives the details).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DownloadRef {
    /// The `chrome.downloads` id.
    pub id: i64,
    /// The file's name (without its folder).
    pub filename: String,
    /// `in_progress`, `complete` or `interrupted`.
    pub state: String,
}

/// What an action caused besides its own result (SPEC §4 "Outcomes"), merged into every result
/// object; each key is absent when there is nothing to say.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcomes {
    /// The dialogs that opened while the action ran, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dialogs: Vec<DialogReport>,
    /// The main frame's new document, when the action changed it (not for the navigations, whose
    /// result is that page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub navigated: Option<Navigated>,
    /// The first tab or popup the action opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened_tab: Option<OpenedTab>,
    /// The downloads the action started.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub downloads: Vec<DownloadRef>,
    /// What the action changed in the agent's view of the tab ([`Changes`]); `{}` when nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
    /// The tab's new view instead of `changes`: after a navigation, when the agent had no view of the
    /// tab yet, or when the change is too big to be worth a diff.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<Box<ExtractResult>>,
}

impl Outcomes {
    /// Whether there is nothing to report.
    pub fn is_empty(&self) -> bool {
        *self == Outcomes::default()
    }

    /// Adds the outcomes' keys to a result object (a result that is not an object is left as is).
    pub fn merge_into(&self, result: &mut Value) {
        let (Value::Object(target), Ok(Value::Object(extra))) =
            (result, serde_json::to_value(self))
        else {
            return;
        };
        for (key, value) in extra {
            target.insert(key, value);
        }
    }
}

/// One download of `downloads` (`chrome.downloads.DownloadItem`, SPEC §4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadInfo {
    /// The `chrome.downloads` id.
    pub id: i64,
    /// The tab it started from.
    pub tab_id: TabId,
    /// The URL downloaded (after redirects).
    pub url: String,
    /// The file's name (without its folder), once the browser chose it.
    pub filename: String,
    /// The MIME type of the response.
    pub mime: String,
    /// Bytes received so far.
    pub bytes: u64,
    /// The expected size in bytes, when the server sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_bytes: Option<u64>,
    /// `in_progress`, `complete` or `interrupted`.
    pub state: String,
    /// Why it was interrupted (`chrome.downloads.InterruptReason`, e.g. `NETWORK_FAILED`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `downloads` → `{downloads:[…]}`, oldest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DownloadsResult {
    /// The agent's downloads.
    pub downloads: Vec<DownloadInfo>,
}

#[cfg(test)]
mod outcome_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn outcomes_add_only_the_keys_they_have() {
        let mut result = json!({"clicked": {"tag": "button"}, "tabId": 3});
        Outcomes::default().merge_into(&mut result);
        assert_eq!(result, json!({"clicked": {"tag": "button"}, "tabId": 3}));
        let outcomes = Outcomes {
            dialogs: vec![DialogReport {
                r#type: "confirm".into(),
                message: "Delete?".into(),
                answer: DialogAnswered::Dismissed,
                prompt_text: None,
            }],
            opened_tab: Some(OpenedTab {
                tab_id: 9,
                url: "http://a.test/".into(),
            }),
            ..Outcomes::default()
        };
        outcomes.merge_into(&mut result);
        assert_eq!(
            result,
            json!({"clicked": {"tag": "button"}, "tabId": 3,
                   "dialogs": [{"type": "confirm", "message": "Delete?", "answer": "dismissed"}],
                   "openedTab": {"tabId": 9, "url": "http://a.test/"}})
        );
    }
}
