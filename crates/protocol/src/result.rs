//! Typed results of SPEC §4, §5 and §7, as the extension builds them and clients read them:
//! camelCase on the wire, `Option` fields omitted when `None` (except where noted).

use crate::action::{Modifier, TabId};
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
