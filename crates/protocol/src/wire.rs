//! A small reader over a JSON object that validates fields one by one and names the offending
//! field in every error (SPEC §3: "`invalid_action` with a message that names the field").
//!
//! Every typed parser of this crate goes through [`Fields`]: it takes each known field out of the
//! object, and [`Fields::finish`] refuses whatever is left (unknown fields).

use crate::error::ErrorBody;
use serde_json::{Map, Value};

/// Reads fields out of one JSON object; `ctx` prefixes every error message (the action's name, e.g. `click`).
pub(crate) struct Fields<'a> {
    ctx: &'a str,
    map: Map<String, Value>,
    allowed: &'a [&'a str],
}

pub(crate) type Res<T> = Result<T, ErrorBody>;

/// Deserializes through `from_map`, the parser of the wire, so serde and the wire refuse alike; the value must
/// be a JSON object.
pub(crate) fn deserialize_object<'de, D, T>(
    deserializer: D,
    from_map: impl FnOnce(Map<String, Value>) -> Res<T>,
) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::Deserialize;
    match Value::deserialize(deserializer)? {
        Value::Object(map) => from_map(map).map_err(|e| serde::de::Error::custom(e.message)),
        other => Err(serde::de::Error::custom(format!(
            "expected a JSON object, got {}",
            kind(&other)
        ))),
    }
}

/// A Chrome tab id (`chrome.tabs.Tab.id`, a non-negative 32-bit integer on the wire).
pub type TabId = i64;

/// The largest tab or window id accepted on the wire (Chrome's ids are 32-bit integers).
pub const MAX_TAB_ID: TabId = i32::MAX as TabId;

/// The key that tags every message, action and event with its kind (SPEC §3).
pub(crate) const TYPE_KEY: &str = "type";

impl<'a> Fields<'a> {
    /// Wraps `v`, which must be an object. `allowed` lists every field the message may carry (for
    /// the "expected one of" hint of unknown fields).
    pub(crate) fn new(ctx: &'a str, v: &Value, allowed: &'a [&'a str]) -> Res<Self> {
        match v {
            Value::Object(map) => Ok(Fields {
                ctx,
                map: map.clone(),
                allowed,
            }),
            other => Err(ErrorBody::invalid(format!(
                "{ctx}: expected a JSON object, got {}",
                kind(other)
            ))),
        }
    }

    /// Like [`Fields::new`] but owning the map.
    pub(crate) fn from_map(ctx: &'a str, map: Map<String, Value>, allowed: &'a [&'a str]) -> Self {
        Fields { ctx, map, allowed }
    }

    /// The message prefix (the action's name, e.g. `click`).
    pub(crate) fn ctx(&self) -> &str {
        self.ctx
    }

    /// An `invalid_action` error about `field`.
    pub(crate) fn err(&self, field: &str, what: impl std::fmt::Display) -> ErrorBody {
        ErrorBody::invalid(format!("{}: {field}: {what}", self.ctx))
    }

    /// An `invalid_action` error about the whole message.
    pub(crate) fn err_msg(&self, what: impl std::fmt::Display) -> ErrorBody {
        ErrorBody::invalid(format!("{}: {what}", self.ctx))
    }

    /// Takes a field out; JSON `null` reads as absent (agents often send `null` for "not given").
    pub(crate) fn take(&mut self, field: &str) -> Option<Value> {
        match self.map.remove(field) {
            Some(Value::Null) | None => None,
            Some(v) => Some(v),
        }
    }

    /// Takes a required field out; missing or `null` → `required`.
    pub(crate) fn req_value(&mut self, field: &str) -> Res<Value> {
        self.take(field).ok_or_else(|| self.err(field, "required"))
    }

    /// [`Fields::req_value`] whose error says what the field must hold: `required: {wanted}`.
    pub(crate) fn req_value_as(&mut self, field: &str, wanted: &str) -> Res<Value> {
        self.take(field)
            .ok_or_else(|| self.err(field, format!("required: {wanted}")))
    }

    /// Takes a field out, keeping an explicit `null` as `Some(Value::Null)`.
    pub(crate) fn take_raw(&mut self, field: &str) -> Option<Value> {
        self.map.remove(field)
    }

    /// Whether the field is present and not `null` (without taking it).
    pub(crate) fn has(&self, field: &str) -> bool {
        !matches!(self.map.get(field), None | Some(Value::Null))
    }

    pub(crate) fn opt_str(&mut self, field: &str) -> Res<Option<String>> {
        match self.take(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.err(field, format!("must be a string, got {}", kind(&other)))),
        }
    }

    pub(crate) fn req_str(&mut self, field: &str) -> Res<String> {
        self.opt_str(field)?
            .ok_or_else(|| self.err(field, "required"))
    }

    /// A required string that must not be empty or whitespace only.
    pub(crate) fn req_nonempty(&mut self, field: &str) -> Res<String> {
        let s = self.req_str(field)?;
        if s.trim().is_empty() {
            return Err(self.err(field, "must not be empty"));
        }
        Ok(s)
    }

    /// An optional string that, when given, must not be empty or whitespace only.
    pub(crate) fn opt_nonempty(&mut self, field: &str) -> Res<Option<String>> {
        match self.opt_str(field)? {
            Some(s) if s.trim().is_empty() => Err(self.err(field, "must not be empty")),
            other => Ok(other),
        }
    }

    pub(crate) fn opt_bool(&mut self, field: &str) -> Res<Option<bool>> {
        match self.take(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(other) => Err(self.err(
                field,
                format!("must be true or false, got {}", kind(&other)),
            )),
        }
    }

    pub(crate) fn bool_or(&mut self, field: &str, default: bool) -> Res<bool> {
        Ok(self.opt_bool(field)?.unwrap_or(default))
    }

    /// An optional integer in `min..=max`.
    pub(crate) fn opt_int(&mut self, field: &str, min: i64, max: i64) -> Res<Option<i64>> {
        match self.take(field) {
            None => Ok(None),
            Some(v) => int_in(&v, min, max)
                .map(Some)
                .map_err(|what| self.err(field, what)),
        }
    }

    pub(crate) fn opt_u32(&mut self, field: &str, min: u32, max: u32) -> Res<Option<u32>> {
        Ok(self
            .opt_int(field, i64::from(min), i64::from(max))?
            .and_then(|n| u32::try_from(n).ok()))
    }

    /// An optional finite number (CSS px and the like), within `min..=max`.
    pub(crate) fn opt_f64(&mut self, field: &str, min: f64, max: f64) -> Res<Option<f64>> {
        match self.take(field) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() && x >= min && x <= max => Ok(Some(x)),
                Some(_) | None => {
                    Err(self.err(field, format!("must be a number in {min}..={max}")))
                }
            },
            Some(other) => Err(self.err(field, format!("must be a number, got {}", kind(&other)))),
        }
    }

    pub(crate) fn req_f64(&mut self, field: &str, min: f64, max: f64) -> Res<f64> {
        self.opt_f64(field, min, max)?
            .ok_or_else(|| self.err(field, "required"))
    }

    /// Refuses any field not in `allowed`, before anything is parsed, so that a misspelt field is
    /// reported as such rather than as a missing one.
    pub(crate) fn check_unknown(&self) -> Res<()> {
        match self
            .map
            .keys()
            .find(|k| !self.allowed.contains(&k.as_str()))
        {
            Some(field) => Err(self.unknown(field)),
            None => Ok(()),
        }
    }

    fn unknown(&self, field: &str) -> ErrorBody {
        let mut msg = format!("{}: unknown field `{field}`", self.ctx);
        let camel = snake_to_camel(field);
        if camel != *field && self.allowed.contains(&camel.as_str()) {
            msg.push_str(&format!(" (did you mean `{camel}`?)"));
        } else if field == "target" && self.allowed.contains(&"selector") {
            msg.push_str(" (v1 `target` is not v4: give uid, selector, text or xpath, plus index)");
        }
        if self.allowed.is_empty() {
            msg.push_str("; this message takes no fields");
        } else {
            msg.push_str("; expected one of ");
            msg.push_str(&self.allowed.join(", "));
        }
        ErrorBody::invalid(msg)
    }

    /// Refuses every field that was not taken: `"<ctx>: unknown field `foo`; expected one of …"`.
    pub(crate) fn finish(self) -> Res<()> {
        // A `null` left for an allowed field is "omitted" (e.g. `"selector": null` beside a uid).
        let left = self
            .map
            .iter()
            .find(|(k, v)| !(v.is_null() && self.allowed.contains(&k.as_str())));
        match left {
            Some((field, _)) => Err(self.unknown(field)),
            None => Ok(()),
        }
    }
}

/// Checks that `v` is an integer in `min..=max`; the error text has no field name.
pub(crate) fn int_in(v: &Value, min: i64, max: i64) -> Result<i64, String> {
    let range = || {
        if max == i64::MAX {
            format!("must be an integer ≥ {min}")
        } else {
            format!("must be an integer in {min}..={max}")
        }
    };
    match v {
        Value::Number(n) => {
            let as_int = n.as_i64().or_else(|| {
                // 12.0 is an integer too; anything with a fraction is not.
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                    .map(|f| f as i64)
            });
            match as_int {
                Some(i) if i < min => Err(if min == 0 || max == i64::MAX {
                    range()
                } else {
                    format!("must be ≥ {min}")
                }),
                Some(i) if i > max => Err(format!("must be ≤ {max}")),
                Some(i) => Ok(i),
                None => Err(range()),
            }
        }
        other => Err(format!("{}, got {}", range(), kind(other))),
    }
}

/// A short name of a JSON value's kind, for error messages.
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `tab_id` → `tabId` (for the "did you mean" hint; v1 clients use snake_case).
pub(crate) fn snake_to_camel(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut upper = false;
    for ch in s.chars() {
        if ch == '_' {
            upper = true;
        } else if upper {
            out.extend(ch.to_uppercase());
            upper = false;
        } else {
            out.push(ch);
        }
    }
    out
}
