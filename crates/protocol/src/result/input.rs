//! The results of the actions that act on an element: the element's short description
//! ([`ElementInfo`]), click, hover, type, keys, scroll, select, check, fill, set and read a value.

use crate::action::{FillValue, Modifier, TabId};
use serde::{Deserialize, Serialize};

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

/// One field `fill` filled: how it was named, and its value read back afterwards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FilledField {
    /// The field's uid, when it was given by one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    /// The field's other locator, as messages write it (`selector "#bio"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
    /// What it holds now: the text (a password masked as `type` reads it back), the selected option's
    /// value (an array for a multi-select), or the checked state.
    pub value: FillValue,
    /// A `<select>`'s selected option label(s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<FillValue>,
}

/// `fill` → `{filled:[{uid?, locator?, value, label?}], clicked?, tabId}`, one entry per field in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FillResult {
    /// The fields, in the order given.
    pub filled: Vec<FilledField>,
    /// The element `submit` named, clicked after the fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clicked: Option<ElementInfo>,
    /// The tab.
    pub tab_id: TabId,
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
///   `<select multiple>`, and `options`: every option (up to [`GET_VALUE_MAX_OPTIONS`]) as `{value, label}`
///   — what `extract` shows only the first of (SPEC §5 `options`); an `<input list>` lists its
///   `<datalist>`'s, an ARIA `listbox` (its `value` the labels of the `aria-selected` options) or a
///   `combobox` its `role=option`s (their label as value);
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
    /// A select's, list box's or combobox's options in document order, at most
    /// [`GET_VALUE_MAX_OPTIONS`]; omitted for other controls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<SelectedOption>,
    /// The tab.
    pub tab_id: TabId,
}

/// Most options `get_value` lists.
pub const GET_VALUE_MAX_OPTIONS: usize = 1000;
