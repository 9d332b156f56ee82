//! The parameters of the actions that act on the page like a person: click, hover, type, keys,
//! scroll, select, check, fill a form, set and read a value, upload, drag.

use super::either::Choice;
#[cfg(feature = "schema")]
use super::either::CHOICE_KEYS;
use super::params::{params, Rules};
use super::values::{Modifier, OptionChoice};
use crate::field::{
    DropAt, DropTarget, Element, FieldList, FillField, Flag, NestedElement, OptElement,
    OptNestedElement, OptText, Paths, Px, Required, Text, TextOrEmpty, Unlisted, Words,
};
#[cfg(feature = "schema")]
use crate::locator::required;
use crate::locator::Locator;
use crate::wire::{Fields, Res};
#[cfg(feature = "schema")]
use serde_json::{json, Value};
use std::marker::PhantomData;

params! {
    /// `click {locator, tabId?, newTab?}` → `{clicked:{…}, tabId}`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Click {
        /// The element.
        pub locator: Locator = "locator" => Element,
        pub tab_id,
        /// Open the clicked link in a new agent tab (the result's tabId).
        pub new_tab: bool = "newTab" => Flag(false),
        pub dialog,
    }

    /// `click_at {x, y, tabId?}` → as `click`, plus `x`, `y`.
    #[derive(Clone, Debug, PartialEq)]
    pub struct ClickAt {
        /// Viewport x, CSS px.
        pub x: f64 = "x" => Required(Px { min: Some(0.0) }),
        /// Viewport y, CSS px.
        pub y: f64 = "y" => Required(Px { min: Some(0.0) }),
        pub tab_id,
        pub dialog,
    }

    /// `hover {locator, tabId?}` → `{hovered:{…}, tabId}`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Hover {
        /// The element.
        pub locator: Locator = "locator" => Element,
        pub tab_id,
        pub dialog,
    }

    /// `type {locator, text, clear?, submit?, tabId?}` → `{element, value, tabId}`.
    ///
    /// Here `text` is the text to type, so a text locator must be written nested:
    /// `"locator": {"text": "Email"}`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct TypeText {
        /// The element to focus.
        pub locator: Locator = "locator" => Element,
        /// The text to type.
        pub text: String = "text" => TextOrEmpty,
        /// Or a secret's name.
        pub secret: Option<String> = "secret" => OptText,
        /// The origins the secret may be typed on, space-separated (set by the bridge, SPEC §4 "Secrets").
        pub secret_origins: Option<String> = "secretOrigins" => Unlisted(OptText),
        /// Select all and delete first. Default true.
        pub clear: bool = "clear" => Flag(true),
        /// Press Enter after typing.
        pub submit: bool = "submit" => Flag(false),
        pub tab_id,
        pub dialog,
    } + rules

    /// `press_key {key, modifiers?, locator?, waitLoad?, tabId?}` → `{key, modifiers, element?, tabId}`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct PressKey {
        /// KeyboardEvent.key: "Enter", "Escape", "ArrowDown", "a", …
        pub key: String = "key" => Text { nonempty: true },
        /// Held modifiers.
        pub modifiers: Vec<Modifier> = "modifiers" => Words::<Modifier>(PhantomData),
        /// Focus this element first; otherwise the key goes to the focused element.
        pub locator: Option<Locator> = "locator" => OptElement,
        /// Wait for a page load after the key (Enter submitting a form).
        pub wait_load: bool = "waitLoad" => Flag(false),
        pub load_wait_ms,
        pub tab_id,
        pub dialog,
    }

    /// `scroll {dx?, dy?, toEnd?, locator?, tabId?}` → `{scrolled:{dx,dy}, atEnd, tabId}`.
    /// Either `dx`/`dy` or `toEnd: true` (not both, not neither).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Scroll {
        /// Horizontal px (negative: left).
        pub dx: Option<f64> = "dx" => Px { min: None },
        /// Vertical px (negative: up).
        pub dy: Option<f64> = "dy" => Px { min: None },
        /// To the end (bottom); not with dx/dy.
        pub to_end: bool = "toEnd" => Flag(false),
        /// The scroll container; the window when omitted.
        pub locator: Option<Locator> = "locator" => OptElement,
        pub tab_id,
    } + rules

    /// `select_option {locator, value | label | index, tabId?}` → `{selected:[{value,label}], tabId}`.
    ///
    /// Here `index` names the option, so a locator index must be written nested:
    /// `"locator": {"selector": "select", "index": 1}`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct SelectOption {
        /// The `<select>` element.
        pub locator: Locator = "locator" => Element,
        /// The option(s) to select.
        pub choice: OptionChoice = "value" => Choice,
        pub tab_id,
        pub dialog,
    } + rules

    /// `check {locator, checked?, tabId?}` → `{checked, tabId}`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Check {
        /// The checkbox, radio or switch.
        pub locator: Locator = "locator" => Element,
        /// The wanted state. Default true.
        pub checked: bool = "checked" => Flag(true),
        pub tab_id,
        pub dialog,
    }

    /// `fill {fields:[{uid|selector|text|xpath, index?, value}], submit?, tabId?}` →
    /// `{filled:[{uid?, locator?, value, label?}], clicked?, tabId}`: each field as `type`, `select_option`
    /// or `check` would, in order, stopping at the first that fails; then `submit` clicked as `click` would.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Fill {
        /// [{uid|selector|text|xpath, value}]: text, option(s) or true/false.
        pub fields: Vec<FillField> = "fields" => FieldList,
        /// fill: the button to click after.
        pub submit: Option<Locator> = "submit" => OptNestedElement,
        pub tab_id,
        pub dialog,
    }

    /// `set_value {locator, value, tabId?}` → `{element, value, tabId}`; fires `input` + `change`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct SetValue {
        /// The control.
        pub locator: Locator = "locator" => Element,
        /// The value.
        pub value: String = "value" => Text { nonempty: false },
        pub tab_id,
        pub dialog,
    }

    /// `get_value {locator, tabId?}` → `{element, value, label?, checked?, tabId}`: the control's
    /// current value, read without changing it (`crate::GetValueResult` gives the shapes).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct GetValue {
        /// The control (a `<label>` reads its control).
        pub locator: Locator = "locator" => Element,
        pub tab_id,
    }
}

params! {
    /// `upload {locator, files, tabId?}` → `{element, files:[{name, size, mime}], chooser, tabId}`.
    /// The bridge reads the files and sets `staged` (the id of the bytes it sent ahead, SPEC §3)
    /// on the request it forwards; clients never send it.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Upload {
        /// A file input, its label, or a control that opens a file chooser.
        pub locator: Locator = "locator" => Element,
        /// Paths of the files on the bridge's machine.
        pub files: Vec<String> = "files" => Paths,
        /// The id of the bytes the bridge sent ahead (set by the bridge).
        pub staged: Option<String> = "staged" => Unlisted(OptText),
        pub tab_id,
    }

    /// `drag {from, to, tabId?}` → `{from:{…}, to:{…}?, x, y, html5, tabId}`.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Drag {
        /// The element to drag: a nested locator, as `locator`.
        pub from: Locator = "from" => NestedElement,
        /// A nested locator (as `locator`) or a viewport point {x, y}.
        pub to: DropTarget = "to" => DropAt,
        pub tab_id,
    }
}

impl Rules for Scroll {
    fn validate(&self, f: &Fields<'_>) -> Res<()> {
        let amount = self.dx.is_some() || self.dy.is_some();
        if self.to_end && amount {
            return Err(f.err("toEnd", "not allowed together with dx/dy"));
        }
        if !self.to_end && !amount {
            return Err(f.err_msg("give dx and/or dy (px), or toEnd: true"));
        }
        Ok(())
    }
    #[cfg(feature = "schema")]
    fn schema_rules() -> Vec<Value> {
        let to_end = json!({"properties": {"toEnd": {"const": true}}, "required": ["toEnd"]});
        let amount = json!({"anyOf": [required(&["dx"]), required(&["dy"])]});
        vec![json!({"oneOf": [
            {"allOf": [amount.clone(), {"not": to_end.clone()}]},
            {"allOf": [to_end, {"not": amount}]}
        ]})]
    }
}

impl Rules for TypeText {
    fn validate(&self, f: &Fields<'_>) -> Res<()> {
        // The bridge's form carries the secret's value as `text` beside `secretOrigins` (SPEC §4 "Secrets").
        if self.secret.is_some() && !self.text.is_empty() && self.secret_origins.is_none() {
            return Err(f.err("secret", "not together with text: give one of them"));
        }
        if self.secret.is_none() && self.secret_origins.is_some() {
            return Err(f.err("secretOrigins", "set by the bridge only, with secret"));
        }
        Ok(())
    }
    #[cfg(feature = "schema")]
    fn schema_rules() -> Vec<Value> {
        vec![json!({"anyOf": [required(&["text"]), required(&["secret"])]})]
    }
}

impl Rules for SelectOption {
    #[cfg(feature = "schema")]
    fn schema_rules() -> Vec<Value> {
        vec![json!({"oneOf": CHOICE_KEYS.map(|k| required(&[k]))})]
    }
}
