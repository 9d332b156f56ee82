//! Element locators (SPEC §4): exactly one of `uid` / `selector` / `text` / `xpath`, plus an
//! optional 0-based `index` among the matches (not with `uid`).
//!
//! On the wire the locator is written as flat fields of the action (a click on the second
//! `a.next` carries `"selector":"a.next","index":1` beside its `type`). Two actions use a
//! locator key for a parameter of their own — `type` (`text` is the text to type) and `select_option` (`index` is the option
//! index) — so every element-taking action also accepts the nested form
//! `"locator": {"text": "Email", "index": 1}`, and that form is what [`Action`](crate::Action)
//! serializes to when the flat form would be ambiguous.

use crate::error::ErrorBody;
use crate::wire::{int_in, kind, Fields, Res};
#[cfg(feature = "schema")]
use serde_json::json;
use serde_json::{Map, Value};
use std::fmt;

/// The keys that make up a locator on the wire.
pub const LOCATOR_KEYS: [&str; 4] = ["uid", "selector", "text", "xpath"];

/// Where an element is, as the agent gave it (SPEC §4).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Locator {
    /// A uid from the latest `extract` of the tab (`e0`, `e1`, …), resolved through the uid cache to
    /// a CDP `backendNodeId`. Stale after a main-frame navigation → `element_stale`.
    Uid(String),
    /// A CSS selector; `index` is 0-based among `querySelectorAll` matches.
    Selector {
        /// The CSS selector.
        selector: String,
        /// 0-based index among the matches.
        index: u32,
    },
    /// Visible text: exact match first, then substring, deepest element first; `index` among matches.
    Text {
        /// The visible text to look for.
        text: String,
        /// 0-based index among the matches.
        index: u32,
    },
    /// An XPath expression evaluated with `document.evaluate`; `index` among the snapshot's nodes.
    Xpath {
        /// The XPath expression.
        xpath: String,
        /// 0-based index among the matches.
        index: u32,
    },
}

impl Locator {
    /// A uid locator.
    pub fn uid(uid: impl Into<String>) -> Self {
        Locator::Uid(uid.into())
    }

    /// A CSS selector locator, first match.
    pub fn selector(selector: impl Into<String>) -> Self {
        Locator::Selector {
            selector: selector.into(),
            index: 0,
        }
    }

    /// A visible-text locator, first match.
    pub fn text(text: impl Into<String>) -> Self {
        Locator::Text {
            text: text.into(),
            index: 0,
        }
    }

    /// An XPath locator, first match.
    pub fn xpath(xpath: impl Into<String>) -> Self {
        Locator::Xpath {
            xpath: xpath.into(),
            index: 0,
        }
    }

    /// The wire key of this locator: `"uid"`, `"selector"`, `"text"` or `"xpath"`.
    pub fn key(&self) -> &'static str {
        match self {
            Locator::Uid(_) => "uid",
            Locator::Selector { .. } => "selector",
            Locator::Text { .. } => "text",
            Locator::Xpath { .. } => "xpath",
        }
    }

    /// The uid, selector, text or xpath string.
    pub fn value(&self) -> &str {
        match self {
            Locator::Uid(s) => s,
            Locator::Selector { selector: s, .. }
            | Locator::Text { text: s, .. }
            | Locator::Xpath { xpath: s, .. } => s,
        }
    }

    /// The 0-based index among matches (always 0 for a uid).
    pub fn index(&self) -> u32 {
        match self {
            Locator::Uid(_) => 0,
            Locator::Selector { index, .. }
            | Locator::Text { index, .. }
            | Locator::Xpath { index, .. } => *index,
        }
    }

    /// Whether the locator can be written as flat fields of an action whose own parameters use
    /// the keys in `taken` (e.g. `["text"]` for `type`).
    pub(crate) fn fits_flat(&self, taken: &[&str]) -> bool {
        !taken.contains(&self.key()) && (self.index() == 0 || !taken.contains(&"index"))
    }

    /// Writes the locator's fields (`uid` or `selector`/`text`/`xpath` + `index` when not 0) into `map`.
    pub(crate) fn write_into(&self, map: &mut Map<String, Value>) {
        map.insert(
            self.key().to_owned(),
            Value::String(self.value().to_owned()),
        );
        if self.index() != 0 {
            map.insert("index".to_owned(), Value::from(self.index()));
        }
    }

    /// The nested wire form: `{"selector":"a","index":1}`.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        self.write_into(&mut map);
        Value::Object(map)
    }

    /// Parses the nested wire form `{"uid"|"selector"|"text"|"xpath": "…", "index"?: n}`;
    /// `ctx` prefixes error messages.
    pub fn from_value(ctx: &str, v: &Value) -> Result<Locator, ErrorBody> {
        let ctx = format!("{ctx}: locator");
        let mut f = Fields::new(&ctx, v, &["uid", "selector", "text", "xpath", "index"])?;
        let loc = read_flat(&mut f, &[])?;
        f.finish()?;
        loc.ok_or_else(|| {
            ErrorBody::invalid(format!(
                "{ctx}: exactly one of uid/selector/text/xpath is required"
            ))
        })
    }

    /// Checks the locator's own rules (non-empty strings, uid shape); `ctx` prefixes messages.
    pub fn validate(&self, ctx: &str) -> Result<(), ErrorBody> {
        check_value(ctx, self.key(), self.value())
    }
}

impl fmt::Display for Locator {
    /// `uid e7`, `selector "a.next" [1]`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Locator::Uid(uid) => write!(f, "uid {uid}"),
            other => {
                write!(f, "{} {:?}", other.key(), other.value())?;
                if other.index() != 0 {
                    write!(f, " [{}]", other.index())?;
                }
                Ok(())
            }
        }
    }
}

/// Whether a string looks like an extract uid: `e` followed by decimal digits.
pub fn is_uid(s: &str) -> bool {
    s.len() > 1 && s.starts_with('e') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

fn check_value(ctx: &str, key: &str, value: &str) -> Res<()> {
    if value.trim().is_empty() {
        return Err(ErrorBody::invalid(format!(
            "{ctx}: {key}: must not be empty"
        )));
    }
    if key == "uid" && !is_uid(value) {
        return Err(ErrorBody::invalid(format!(
            "{ctx}: uid: `{value}` is not a uid; uids look like `e7` and come from the latest extract (use selector or text otherwise)"
        )));
    }
    Ok(())
}

/// Reads the flat locator fields, skipping the keys in `taken` (they are action parameters).
/// `Ok(None)` when no locator field is present (and no stray `index`).
fn read_flat(f: &mut Fields<'_>, taken: &[&str]) -> Res<Option<Locator>> {
    let keys: Vec<&str> = LOCATOR_KEYS
        .iter()
        .copied()
        .filter(|k| !taken.contains(k))
        .collect();
    let present: Vec<&str> = keys.iter().copied().filter(|k| f.has(k)).collect();
    let index_here = !taken.contains(&"index") && f.has("index");
    if present.len() > 1 {
        return Err(f.err_msg(format!(
            "exactly one of {} is allowed, got {}",
            keys.join("/"),
            present.join(" and ")
        )));
    }
    let Some(key) = present.first().copied() else {
        if index_here {
            return Err(f.err("index", "requires selector, text or xpath"));
        }
        return Ok(None);
    };
    let value = match f.take(key) {
        Some(Value::String(s)) => s,
        Some(other) => return Err(f.err(key, format!("must be a string, got {}", kind(&other)))),
        None => return Ok(None),
    };
    let index = if index_here {
        if key == "uid" {
            return Err(f.err("index", "not allowed with uid (a uid names one element)"));
        }
        match f.take("index") {
            Some(v) => {
                let n = int_in(&v, 0, i64::from(u32::MAX)).map_err(|what| f.err("index", what))?;
                u32::try_from(n).unwrap_or(0)
            }
            None => 0,
        }
    } else {
        0
    };
    let loc = match key {
        "uid" => Locator::Uid(value),
        "selector" => Locator::Selector {
            selector: value,
            index,
        },
        "text" => Locator::Text { text: value, index },
        _ => Locator::Xpath {
            xpath: value,
            index,
        },
    };
    Ok(Some(loc))
}

/// Reads a locator given either flat (`uid`/`selector`/`text`/`xpath` + `index`, minus the keys in
/// `taken`) or nested (`locator: {…}`). Exactly one form, exactly one locator; `Ok(None)` when
/// there is none at all (the caller decides whether that is an error).
pub(crate) fn read_locator(f: &mut Fields<'_>, taken: &[&str]) -> Res<Option<Locator>> {
    let flat = read_flat(f, taken)?;
    let nested = match f.take("locator") {
        None => None,
        Some(v) => {
            if let Some(flat) = &flat {
                return Err(f.err(
                    "locator",
                    format!("not allowed together with `{}`", flat.key()),
                ));
            }
            Some(Locator::from_value(f.ctx(), &v)?)
        }
    };
    let loc = flat.or(nested);
    if let Some(loc) = &loc {
        loc.validate(f.ctx())?;
    }
    Ok(loc)
}

/// Writes `loc` flat when it fits (see [`Locator::fits_flat`]), else as `"locator": {…}`.
pub(crate) fn write_locator(map: &mut Map<String, Value>, loc: &Locator, taken: &[&str]) {
    if loc.fits_flat(taken) {
        loc.write_into(map);
    } else {
        map.insert("locator".to_owned(), loc.to_value());
    }
}

/// How a locator can be written for an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    /// No locator.
    None,
    /// Exactly one locator.
    Required,
    /// At most one locator.
    Optional,
    /// Exactly one locator or `textContains` (wait_for).
    OrTextContains,
}

// JSON Schema of the locator (SPEC §9): the flat properties, the nested form and the rules that
// tie them together, for the action schemas of `schema.rs`.

#[cfg(feature = "schema")]
pub(crate) fn required(keys: &[&str]) -> Value {
    json!({ "required": keys })
}

/// The locator properties (flat form) for an action, minus the `taken` keys it uses for its own params
/// (as [`read_locator`] reads them).
#[cfg(feature = "schema")]
pub(crate) fn locator_props(taken: &[&str]) -> Vec<(&'static str, Value)> {
    let flat = [
        (
            "uid",
            json!({"type": "string", "pattern": "^e[0-9]+$",
                   "description": "From the latest extract (e.g. \"e7\"); preferred."}),
        ),
        (
            "selector",
            json!({"type": "string", "minLength": 1, "description": "CSS selector."}),
        ),
        (
            "text",
            json!({"type": "string", "minLength": 1,
                   "description": "Visible text (exact match first, then substring)."}),
        ),
        (
            "xpath",
            json!({"type": "string", "minLength": 1, "description": "XPath expression."}),
        ),
        (
            "index",
            json!({"type": "integer", "minimum": 0,
                   "description": "Which match of selector/text/xpath (0-based)."}),
        ),
    ];
    let mut props: Vec<(&'static str, Value)> = flat
        .into_iter()
        .filter(|(key, _)| !taken.contains(key))
        .collect();
    // The nested form is accepted everywhere, but shown only where a flat key is taken by a
    // parameter (type: text, select_option: index), to keep the schema short for agents.
    if !taken.is_empty() {
        props.push(("locator", nested_locator()));
    }
    props
}

#[cfg(feature = "schema")]
pub(crate) fn nested_locator() -> Value {
    json!({
        "type": "object",
        "description": "The locator nested, {uid|selector|text|xpath, index?}: for a text locator in type, an element index in select_option.",
        "properties": {
            "uid": {"type": "string", "pattern": "^e[0-9]+$"},
            "selector": {"type": "string", "minLength": 1},
            "text": {"type": "string", "minLength": 1},
            "xpath": {"type": "string", "minLength": 1},
            "index": {"type": "integer", "minimum": 0}
        },
        "additionalProperties": false,
        "oneOf": [required(&["uid"]), required(&["selector"]), required(&["text"]), required(&["xpath"])],
        "dependencies": {"uid": {"not": required(&["index"])}}
    })
}

/// The rules that tie the locator fields together.
#[cfg(feature = "schema")]
pub(crate) fn locator_rules(loc: Loc, taken: &[&str]) -> Vec<Value> {
    let keys: Vec<&str> = ["uid", "selector", "text", "xpath", "locator"]
        .into_iter()
        .filter(|k| !taken.contains(k) && (*k != "locator" || !taken.is_empty()))
        .collect();
    let mut alternatives: Vec<Value> = keys.iter().map(|k| required(&[k])).collect();
    let mut rules = Vec::new();
    match loc {
        Loc::None => return rules,
        Loc::Required => rules.push(json!({ "oneOf": alternatives })),
        Loc::OrTextContains => {
            alternatives.push(required(&["textContains"]));
            rules.push(json!({ "oneOf": alternatives }));
        }
        Loc::Optional => {
            let none = json!({"not": {"anyOf": alternatives.clone()}});
            alternatives.push(none);
            rules.push(json!({ "oneOf": alternatives }));
        }
    }
    if !taken.contains(&"index") {
        let with_index: Vec<Value> = ["selector", "text", "xpath"]
            .into_iter()
            .filter(|k| !taken.contains(k))
            .map(|k| required(&[k]))
            .collect();
        rules.push(json!({"dependencies": {
            "uid": {"not": required(&["index"])},
            "index": {"anyOf": with_index}
        }}));
    }
    rules
}
