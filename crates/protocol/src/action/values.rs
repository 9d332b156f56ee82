//! The public value types of action fields: key modifiers, `select_option`'s choice, what
//! `wait_for` waits for, what `find` looks for, the screenshot format, `extract`'s parts and console levels.

use crate::field::{keyword, Keyword};
use crate::locator::Locator;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A key modifier of `press_key` (`alt` / `ctrl` / `shift` / `meta`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Modifier {
    /// Alt (Option on macOS).
    Alt,
    /// Control.
    Ctrl,
    /// Shift.
    Shift,
    /// Meta (Command on macOS, Windows key elsewhere).
    Meta,
}

keyword! {
    Modifier: "modifier", any case, listed "alt, ctrl, shift, meta";
    Alt = "alt", Ctrl = "ctrl", Shift = "shift", Meta = "meta";
    aliases "option" => Alt, "control" => Ctrl, "cmd" => Meta, "command" => Meta
}

impl Modifier {
    /// The CDP `Input.dispatchKeyEvent` `modifiers` bit (Alt=1, Ctrl=2, Meta=4, Shift=8).
    pub fn cdp_bit(&self) -> u32 {
        match self {
            Modifier::Alt => 1,
            Modifier::Ctrl => 2,
            Modifier::Meta => 4,
            Modifier::Shift => 8,
        }
    }

    /// Parses a modifier name, case-insensitively, with the usual aliases
    /// (`control`, `option`, `cmd`, `command`).
    pub fn parse(s: &str) -> Option<Modifier> {
        Modifier::parse_word(s)
    }
}

/// Which option(s) `select_option` selects: exactly one of `value` / `label` / `index` on the wire,
/// each a single value or a non-empty array (multi-select).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChoice {
    /// By `<option value>`.
    Value(Vec<String>),
    /// By the option's visible label.
    Label(Vec<String>),
    /// By 0-based option index.
    Index(Vec<u32>),
}

impl OptionChoice {
    /// The wire key: `"value"`, `"label"` or `"index"`.
    pub fn key(&self) -> &'static str {
        match self {
            OptionChoice::Value(_) => "value",
            OptionChoice::Label(_) => "label",
            OptionChoice::Index(_) => "index",
        }
    }

    /// The number of options to select.
    pub fn len(&self) -> usize {
        match self {
            OptionChoice::Value(v) | OptionChoice::Label(v) => v.len(),
            OptionChoice::Index(v) => v.len(),
        }
    }

    /// Whether no option is named (never true for a validated action).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn to_value(&self) -> Value {
        fn one_or_many<T: Clone + Into<Value>>(v: &[T]) -> Value {
            match v {
                [one] => one.clone().into(),
                many => Value::Array(many.iter().cloned().map(Into::into).collect()),
            }
        }
        match self {
            OptionChoice::Value(v) | OptionChoice::Label(v) => one_or_many(v),
            OptionChoice::Index(v) => one_or_many(v),
        }
    }
}

/// What `find` looks for (SPEC §4): exactly one of `text` / `regex` on the wire, both matched in any case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FindPattern {
    /// A substring of the line.
    Text(String),
    /// A regex (Rust `regex` syntax) the line matches.
    Regex(String),
}

/// What `wait_for` waits for: a locator, or `textContains` (text anywhere in the page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitTarget {
    /// An element.
    Locator(Locator),
    /// Visible text containing this string.
    TextContains(String),
}

impl WaitTarget {
    /// The element, when the target is one.
    pub(crate) fn locator(&self) -> Option<&Locator> {
        match self {
            WaitTarget::Locator(l) => Some(l),
            WaitTarget::TextContains(_) => None,
        }
    }
}

/// The state `wait_for` waits for (default `visible`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WaitState {
    /// In the document and rendered with a non-empty box.
    #[default]
    Visible,
    /// In the document.
    Attached,
    /// Not in the document, or not rendered.
    Hidden,
}

keyword! {
    WaitState: "state";
    Visible = "visible", Attached = "attached", Hidden = "hidden"
}

/// Splits a scrape field spec `"selector[@attr]"` into the selector and the attribute:
/// `"a@href"` → `("a", Some("href"))`, `"h3"` → `("h3", None)`, `"@href"` → `("", Some("href"))`
/// (the item itself). The split is at the last `@` followed by an attribute name.
pub fn split_field_spec(spec: &str) -> (&str, Option<&str>) {
    if let Some(at) = spec.rfind('@') {
        let attr = &spec[at + 1..];
        let is_name = attr
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
            && attr
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'));
        if is_name {
            return (spec[..at].trim(), Some(attr));
        }
    }
    (spec.trim(), None)
}

/// `screenshot`'s image format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    /// PNG (default), `image/png`.
    #[default]
    Png,
    /// JPEG, `image/jpeg`; takes `quality`.
    Jpeg,
}

keyword! {
    /// Also the CDP `Page.captureScreenshot` `format`.
    ImageFormat: "format";
    Png = "png", Jpeg = "jpeg";
    aliases "jpg" => Jpeg
}

impl ImageFormat {
    /// The MIME type of the result.
    pub fn mime(&self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
        }
    }
}

/// An `extract` result part (SPEC §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ExtractPart {
    /// `markdown`, the main content.
    Markdown,
    /// `elements`, the interactive elements with uids.
    Elements,
    /// `text`, the body's `innerText` (for verbatim quotes).
    Text,
}

keyword! {
    /// Also the result's key.
    ExtractPart: "part";
    Markdown = "markdown", Elements = "elements", Text = "text"
}

/// A console message's level (`console`'s `level`: that level and the more severe ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ConsoleLevel {
    /// `console.debug`, verbose browser messages.
    Debug,
    /// `console.log`, `console.info` and the like.
    Log,
    /// `console.warn`, browser warnings.
    Warning,
    /// `console.error`, uncaught exceptions, failed loads.
    Error,
}

keyword! {
    ConsoleLevel: "level";
    Debug = "debug", Log = "log", Warning = "warning", Error = "error";
    aliases "warn" => Warning, "info" => Log
}

impl ConsoleLevel {
    /// The level of a `Runtime.consoleAPICalled` `type` or a `Log.entryAdded` `level`
    /// (`warn` and `warning`, `assert` as error, `verbose` as debug, anything else as log).
    pub fn from_cdp(kind: &str) -> ConsoleLevel {
        match kind {
            "error" | "assert" => ConsoleLevel::Error,
            "warning" | "warn" => ConsoleLevel::Warning,
            "debug" | "verbose" => ConsoleLevel::Debug,
            _ => ConsoleLevel::Log,
        }
    }
}
