//! Plain fields: flags, strings, a frame reference, file paths and scrape's
//! field map, plus [`Unlisted`] for a field the agents' schema leaves out.

use super::codec::{inner_codec, Codec, Cx};
use crate::wire::{kind, Fields, Res};
#[cfg(feature = "schema")]
use serde_json::json;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// A flag with its default; written only when it differs from the default.
pub(crate) struct Flag(pub(crate) bool);

impl Codec for Flag {
    type T = bool;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<bool> {
        f.bool_or(key, self.0)
    }
    fn write(&self, v: &bool, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if *v != self.0 {
            m.insert(key.into(), Value::Bool(*v));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "boolean"})
    }
}

/// A required string; `Text { nonempty: true }` also refuses an empty or blank one.
pub(crate) struct Text {
    pub(crate) nonempty: bool,
}

impl Codec for Text {
    type T = String;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<String> {
        if self.nonempty {
            f.req_nonempty(key)
        } else {
            f.req_str(key)
        }
    }
    fn write(&self, v: &String, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        m.insert(key.into(), Value::String(v.clone()));
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        if self.nonempty {
            json!({"type": "string", "minLength": 1})
        } else {
            json!({"type": "string"})
        }
    }
    fn required(&self) -> bool {
        true
    }
}

/// The frame `evaluate` runs in (SPEC §5 "Frames"): an optional uid (`e3`: the frame that element is in) or
/// frame id (`f1`: as extract's markdown names a cross-origin frame).
pub(crate) struct FrameRef;

impl Codec for FrameRef {
    type T = Option<String>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Option<String>> {
        let v = f.opt_nonempty(key)?;
        let valid = |s: &str| {
            let digits = &s[1..];
            (s.starts_with('e') || s.starts_with('f'))
                && !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (digits == "0" || !digits.starts_with('0'))
        };
        match v {
            Some(s) if !valid(&s) => Err(f.err(
                key,
                "must be a uid (e0, e1, …) or a frame id (f1, f2, …) from extract",
            )),
            other => Ok(other),
        }
    }
    fn write(&self, v: &Option<String>, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if let Some(v) = v {
            m.insert(key.into(), Value::String(v.clone()));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "string", "pattern": "^[ef](0|[1-9][0-9]*)$"})
    }
}

/// The most files one `upload` takes.
pub const MAX_UPLOAD_FILES: usize = 100;

/// `upload`'s `files`: a non-empty array of non-empty path strings (at most
/// [`MAX_UPLOAD_FILES`]), resolved by the bridge on its own machine (SPEC §4).
pub(crate) struct Paths;

impl Codec for Paths {
    type T = Vec<String>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Vec<String>> {
        let items = match f.take(key) {
            None => return Err(f.err(key, "required: an array of file paths")),
            Some(Value::Array(items)) => items,
            Some(other) => {
                return Err(f.err(
                    key,
                    format!("must be an array of file paths, got {}", kind(&other)),
                ))
            }
        };
        if items.is_empty() {
            return Err(f.err(key, "must name at least one file"));
        }
        if items.len() > MAX_UPLOAD_FILES {
            return Err(f.err(key, format!("at most {MAX_UPLOAD_FILES} files")));
        }
        items
            .into_iter()
            .map(|item| match item {
                Value::String(s) if !s.trim().is_empty() => Ok(s),
                Value::String(_) => Err(f.err(key, "paths must not be empty")),
                other => Err(f.err(key, format!("items must be strings, got {}", kind(&other)))),
            })
            .collect()
    }
    fn write(&self, v: &Vec<String>, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        let paths = v.iter().map(|p| Value::String(p.clone())).collect();
        m.insert(key.into(), Value::Array(paths));
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1,
               "maxItems": MAX_UPLOAD_FILES})
    }
    fn required(&self) -> bool {
        true
    }
}

/// A field read and written as its codec `C` but left out of the JSON Schema agents see, because a front
/// end sets it itself: the bridge `upload`'s `staged` (the bytes it sent ahead), the MCP server `extract`'s
/// `refs`.
pub(crate) struct Unlisted<C>(pub(crate) C);

impl<C: Codec> Codec for Unlisted<C> {
    type T = C::T;
    inner_codec!();
    #[cfg(feature = "schema")]
    fn properties(&self, _key: &'static str, _doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        Vec::new()
    }
}

/// `type`'s `text`: required unless `secret` stands in for it (SPEC §4 "Secrets").
pub(crate) struct TextOrEmpty;

impl Codec for TextOrEmpty {
    type T = String;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<String> {
        if !f.has(key) && !f.has("secret") {
            return Err(f.err(key, "required (or secret: the name of the person's secret)"));
        }
        Ok(f.opt_str(key)?.unwrap_or_default())
    }
    fn write(&self, v: &String, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        m.insert(key.into(), Value::String(v.clone()));
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "string"})
    }
}

/// An optional non-empty string (`network`'s `filter`, the `owner` of `close_agent_*`).
pub(crate) struct OptText;

impl Codec for OptText {
    type T = Option<String>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Option<String>> {
        f.opt_nonempty(key)
    }
    fn write(&self, v: &Option<String>, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if let Some(v) = v {
            m.insert(key.into(), Value::String(v.clone()));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "string", "minLength": 1})
    }
}

/// `scrape`'s `fields`: output name → `"selector"` or `"selector@attr"`, at least one.
pub(crate) struct FieldMap;

impl Codec for FieldMap {
    type T = Option<BTreeMap<String, String>>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Self::T> {
        let Some(v) = f.take(key) else {
            return Ok(None);
        };
        let Value::Object(map) = v else {
            return Err(f.err(
                key,
                format!(
                    "must be an object {{name: \"selector[@attr]\"}}, got {}",
                    kind(&v)
                ),
            ));
        };
        if map.is_empty() {
            return Err(f.err(key, "must name at least one field (or be omitted)"));
        }
        let mut out = BTreeMap::new();
        for (name, spec) in map {
            if name.trim().is_empty() {
                return Err(f.err(key, "field names must not be empty"));
            }
            match spec {
                Value::String(s) if !s.trim().is_empty() => {
                    out.insert(name, s);
                }
                Value::String(_) => {
                    return Err(f.err(&format!("{key}.{name}"), "must not be empty"))
                }
                other => {
                    return Err(f.err(
                        &format!("{key}.{name}"),
                        format!("must be a string \"selector[@attr]\", got {}", kind(&other)),
                    ))
                }
            }
        }
        Ok(Some(out))
    }
    fn write(&self, v: &Self::T, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if let Some(fields) = v {
            let obj = fields
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            m.insert(key.into(), Value::Object(obj));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "object", "additionalProperties": {"type": "string"}, "minProperties": 1})
    }
}
