//! The fields that are exactly one of several keys: `select_option`'s `value` / `label` /
//! `index`, `wait_for`'s locator or `textContains`, and `find`'s `text` or `regex`.

use super::values::{FindPattern, OptionChoice, WaitTarget};
use crate::field::{Codec, Cx, Element};
use crate::locator::{read_locator, write_locator, Loc};
use crate::wire::{int_in, kind, Fields, Res};
#[cfg(feature = "schema")]
use serde_json::json;
use serde_json::{Map, Value};

/// The keys of `select_option`'s [`OptionChoice`], in schema order.
pub(crate) const CHOICE_KEYS: [&str; 3] = ["value", "label", "index"];

/// `select_option`'s choice: exactly one of `value` / `label` / `index`, each one value or a
/// non-empty array.
pub(crate) struct Choice;

impl Codec for Choice {
    type T = OptionChoice;
    fn read(&self, f: &mut Fields<'_>, _key: &'static str, _cx: &Cx) -> Res<OptionChoice> {
        let present: Vec<&str> = CHOICE_KEYS.into_iter().filter(|k| f.has(k)).collect();
        let key = match present.as_slice() {
            [one] => *one,
            [] => return Err(f.err_msg("exactly one of value/label/index is required")),
            many => {
                return Err(f.err_msg(format!(
                    "exactly one of value/label/index is allowed, got {}",
                    many.join(" and ")
                )))
            }
        };
        let v = f.take(key).unwrap_or(Value::Null);
        let items: Vec<Value> = match v {
            Value::Array(items) if items.is_empty() => {
                return Err(f.err(key, "must not be an empty array"))
            }
            Value::Array(items) => items,
            single => vec![single],
        };
        if key == "index" {
            let mut out = Vec::with_capacity(items.len());
            for item in &items {
                let n =
                    int_in(item, 0, i64::from(u32::MAX)).map_err(|what| f.err("index", what))?;
                out.push(u32::try_from(n).unwrap_or(0));
            }
            return Ok(OptionChoice::Index(out));
        }
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Value::String(s) => out.push(s),
                other => {
                    return Err(f.err(
                        key,
                        format!(
                            "must be a string or an array of strings, got {}",
                            kind(&other)
                        ),
                    ))
                }
            }
        }
        Ok(if key == "value" {
            OptionChoice::Value(out)
        } else {
            OptionChoice::Label(out)
        })
    }
    fn write(&self, v: &OptionChoice, m: &mut Map<String, Value>, _key: &'static str, _cx: &Cx) {
        m.insert(v.key().into(), v.to_value());
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({})
    }
    fn own_keys(&self, _key: &'static str) -> Vec<&'static str> {
        CHOICE_KEYS.to_vec()
    }
    #[cfg(feature = "schema")]
    fn properties(&self, _key: &'static str, _doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        let one_or_many =
            |item: Value| json!([item.clone(), {"type": "array", "items": item, "minItems": 1}]);
        let string = json!({"type": "string"});
        vec![
            (
                "value",
                json!({"description": "Option value(s).", "anyOf": one_or_many(string.clone())}),
            ),
            (
                "label",
                json!({"description": "Option label(s) (visible text).", "anyOf": one_or_many(string)}),
            ),
            (
                "index",
                json!({"description": "The option index(es), 0-based.",
                       "anyOf": one_or_many(json!({"type": "integer", "minimum": 0}))}),
            ),
        ]
    }
}

/// `wait_for`'s target: exactly one of a locator or `textContains`.
pub(crate) struct Target;

impl Codec for Target {
    type T = WaitTarget;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<WaitTarget> {
        let loc = read_locator(f, &cx.taken)?;
        let text = f.opt_nonempty(key)?;
        match (loc, text) {
            (Some(l), None) => Ok(WaitTarget::Locator(l)),
            (None, Some(t)) => Ok(WaitTarget::TextContains(t)),
            (Some(l), Some(_)) => {
                Err(f.err(key, format!("not allowed together with `{}`", l.key())))
            }
            (None, None) => Err(f.err_msg(format!(
                "exactly one of uid/selector/text/xpath/{key} is required"
            ))),
        }
    }
    fn write(&self, v: &WaitTarget, m: &mut Map<String, Value>, key: &'static str, cx: &Cx) {
        match v {
            WaitTarget::Locator(l) => write_locator(m, l, &cx.taken),
            WaitTarget::TextContains(t) => {
                m.insert(key.into(), Value::String(t.clone()));
            }
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "string", "minLength": 1})
    }
    fn own_keys(&self, _key: &'static str) -> Vec<&'static str> {
        Vec::new()
    }
    fn keys(&self, key: &'static str, cx: &Cx) -> Vec<&'static str> {
        let mut keys = Element.keys(key, cx);
        keys.push(key);
        keys
    }
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, _doc: &str, cx: &Cx) -> Vec<(&'static str, Value)> {
        let mut props = Element.properties(key, "", cx);
        let doc = "Visible text to wait for (not with a locator).";
        props.push((key, crate::field::described(self.schema(), doc)));
        props
    }
    fn loc(&self) -> Loc {
        Loc::OrTextContains
    }
}

/// `find`'s pattern: exactly one of `text` (the field's key) or `regex`, a non-empty string.
pub(crate) struct Pattern;

/// `find`'s key for a regex.
const REGEX_KEY: &str = "regex";

impl Codec for Pattern {
    type T = FindPattern;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<FindPattern> {
        let text = f.opt_nonempty(key)?;
        let regex = f.opt_nonempty(REGEX_KEY)?;
        match (text, regex) {
            (Some(t), None) => Ok(FindPattern::Text(t)),
            (None, Some(r)) => Ok(FindPattern::Regex(r)),
            (Some(_), Some(_)) => {
                Err(f.err(key, format!("not allowed together with `{REGEX_KEY}`")))
            }
            (None, None) => Err(f.err_msg(format!(
                "exactly one of {key}/{REGEX_KEY} is required: the text to find, or a regex"
            ))),
        }
    }
    fn write(&self, v: &FindPattern, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        let (k, s) = match v {
            FindPattern::Text(t) => (key, t),
            FindPattern::Regex(r) => (REGEX_KEY, r),
        };
        m.insert(k.into(), Value::String(s.clone()));
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "string", "minLength": 1})
    }
    fn own_keys(&self, key: &'static str) -> Vec<&'static str> {
        vec![key, REGEX_KEY]
    }
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        vec![
            (key, crate::field::described(self.schema(), doc)),
            (
                REGEX_KEY,
                crate::field::described(self.schema(), "Regex to find."),
            ),
        ]
    }
}
