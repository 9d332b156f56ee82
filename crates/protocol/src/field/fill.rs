//! `fill`'s `fields` (SPEC §4): an ordered list of form fields, each an element (the locator keys
//! of the nested form, flat in the item) and the value to give it.

use super::codec::{Codec, Cx};
use crate::locator::{read_locator, Locator};
use crate::wire::{kind, Fields, Res};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// The most fields one `fill` takes.
pub const MAX_FILL_FIELDS: usize = 100;

/// The keys of one item of `fields`.
const ITEM_KEYS: [&str; 8] = [
    "uid",
    "selector",
    "text",
    "xpath",
    "index",
    "value",
    "secret",
    "secretOrigins",
];

/// What a field of `fill` is given, and what `fill` reports it holds afterwards: text for a text field,
/// an option (label or value) or several for a `<select>`, a state for a checkbox or radio.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FillValue {
    /// Text to type, or one option of a `<select>`; a number on the wire is read as its text.
    Text(String),
    /// The options of a `<select multiple>`.
    Many(Vec<String>),
    /// Checked or not (a checkbox, radio or switch).
    Checked(bool),
}

/// One field of `fill`: `{uid|selector|text|xpath, index?, value}`; for a text field the value may be
/// `{"secret": "name"}`, the person's named secret typed as `type {secret}` types it (SPEC §4 "Secrets").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FillField {
    /// The element.
    pub locator: Locator,
    /// What to give it (for a secret: empty from a client, the secret's value from the bridge).
    pub value: FillValue,
    /// The name of the secret to type, if any.
    pub secret: Option<String>,
    /// Where the secret may be typed, space-separated origins (set by the bridge only).
    pub secret_origins: Option<String>,
}

/// `fill`'s `fields`: a non-empty array (at most [`MAX_FILL_FIELDS`]) of [`FillField`]s; errors name
/// the item (`fields[2]`).
pub(crate) struct FieldList;

impl FieldList {
    fn item(ctx: &str, v: &Value) -> Res<FillField> {
        let mut f = Fields::new(ctx, v, &ITEM_KEYS)?;
        f.check_unknown()?;
        let locator = read_locator(&mut f, &[])?.ok_or_else(|| {
            f.err_msg("give the field's element: exactly one of uid/selector/text/xpath")
        })?;
        let secret = f.opt_nonempty("secret")?;
        let secret_origins = f.opt_nonempty("secretOrigins")?;
        if secret.is_none() && secret_origins.is_some() {
            return Err(f.err("secretOrigins", "set by the bridge only, with secret"));
        }
        if secret.is_some() && secret_origins.is_none() {
            return Err(f.err(
                "secret",
                "set by the bridge only; give value: {\"secret\": \"name\"}",
            ));
        }
        let mut secret = secret;
        let value = match f.take("value") {
            // A client names the person's secret as the value (SPEC §4 "Secrets").
            Some(Value::Object(o)) if secret.is_none() => match (o.get("secret"), o.len()) {
                (Some(Value::String(name)), 1) if !name.trim().is_empty() => {
                    secret = Some(name.clone());
                    FillValue::Text(String::new())
                }
                _ => return Err(f.err("value", "an object names a secret: {\"secret\": \"name\"}")),
            },
            None => return Err(f.err("value", "required: text, an option, true/false")),
            Some(Value::String(s)) => FillValue::Text(s),
            Some(Value::Number(n)) => FillValue::Text(n.to_string()),
            Some(Value::Bool(b)) => FillValue::Checked(b),
            Some(Value::Array(items)) if !items.is_empty() => FillValue::Many(
                items
                    .into_iter()
                    .map(|i| match i {
                        Value::String(s) => Ok(s),
                        other => Err(f.err(
                            "value",
                            format!("an array holds option strings, got {}", kind(&other)),
                        )),
                    })
                    .collect::<Res<_>>()?,
            ),
            Some(Value::Array(_)) => return Err(f.err("value", "must name at least one option")),
            Some(other) => {
                return Err(f.err(
                    "value",
                    format!(
                        "must be a string, a number, true/false or an array of options, got {}",
                        kind(&other)
                    ),
                ))
            }
        };
        f.finish()?;
        Ok(FillField {
            locator,
            value,
            secret,
            secret_origins,
        })
    }
}

impl Codec for FieldList {
    type T = Vec<FillField>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Vec<FillField>> {
        let items = match f.take(key) {
            Some(Value::Array(items)) if !items.is_empty() => items,
            Some(Value::Array(_)) | None => {
                return Err(f.err(key, "required: [{uid, value}, …], at least one field"))
            }
            Some(other) => {
                return Err(f.err(
                    key,
                    format!("must be an array of {{uid, value}}, got {}", kind(&other)),
                ))
            }
        };
        if items.len() > MAX_FILL_FIELDS {
            return Err(f.err(key, format!("at most {MAX_FILL_FIELDS} fields")));
        }
        let ctx = f.ctx().to_owned();
        items
            .iter()
            .enumerate()
            .map(|(i, v)| FieldList::item(&format!("{ctx}: {key}[{i}]"), v))
            .collect()
    }
    fn write(&self, v: &Vec<FillField>, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        let items = v
            .iter()
            .map(|field| {
                let mut item = Map::new();
                field.locator.write_into(&mut item);
                let value = serde_json::to_value(&field.value).unwrap_or(Value::Null);
                match (&field.secret, &field.secret_origins) {
                    // The bridge's form: the value, the secret's name and where it may be typed.
                    (Some(name), Some(origins)) => {
                        item.insert("value".into(), value);
                        item.insert("secret".into(), Value::String(name.clone()));
                        item.insert("secretOrigins".into(), Value::String(origins.clone()));
                    }
                    (Some(name), None) => {
                        item.insert("value".into(), json!({ "secret": name }));
                    }
                    (None, _) => {
                        item.insert("value".into(), value);
                    }
                }
                Value::Object(item)
            })
            .collect();
        m.insert(key.into(), Value::Array(items));
    }
    /// An item's keys are in the description only: every agent pays for this schema in its context
    /// (SPEC §9), and the parser names a wrong one.
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "array", "minItems": 1, "items": {"type": "object", "required": ["value"]}})
    }
    fn required(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::{Action, FillValue, Locator};
    use serde_json::json;

    fn fields(v: serde_json::Value) -> Result<Vec<(Locator, FillValue)>, String> {
        match Action::from_value(&json!({"type": "fill", "fields": v})) {
            Ok(Action::Fill(p)) => Ok(p.fields.into_iter().map(|f| (f.locator, f.value)).collect()),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e.message),
        }
    }

    #[test]
    fn each_field_is_a_locator_and_a_text_options_or_state() {
        let got = fields(json!([
            {"uid": "e3", "value": "Ada"},
            {"selector": "#c", "index": 1, "value": ["a", "b"]},
            {"text": "I agree", "value": true},
            {"xpath": "//input", "value": 42}
        ]))
        .unwrap();
        assert_eq!(
            got,
            vec![
                (Locator::uid("e3"), FillValue::Text("Ada".into())),
                (
                    Locator::Selector {
                        selector: "#c".into(),
                        index: 1
                    },
                    FillValue::Many(vec!["a".into(), "b".into()])
                ),
                (Locator::text("I agree"), FillValue::Checked(true)),
                (Locator::xpath("//input"), FillValue::Text("42".into())),
            ]
        );
    }

    #[test]
    fn the_wire_form_reads_back_the_same() {
        let v = json!({"type": "fill", "fields": [
            {"uid": "e3", "value": "Ada"}, {"selector": "select", "index": 2, "value": ["x"]},
            {"text": "Yes", "value": false}], "tabId": 4});
        let action = Action::from_value(&v).unwrap();
        assert_eq!(action.to_value(), v);
        assert_eq!(Action::from_value(&action.to_value()).unwrap(), action);
    }

    #[test]
    fn a_bad_field_is_named_by_its_index() {
        let m = fields(json!([{"uid": "e1", "value": "a"}, {"value": "b"}])).unwrap_err();
        assert_eq!(
            m,
            "fill: fields[1]: give the field's element: exactly one of uid/selector/text/xpath"
        );
        let m = fields(json!([{"uid": "e1"}])).unwrap_err();
        assert!(m.starts_with("fill: fields[0]: value: required"), "{m}");
        let m = fields(json!([{"uid": "e1", "value": "a", "checked": true}])).unwrap_err();
        assert!(
            m.starts_with("fill: fields[0]: unknown field `checked`"),
            "{m}"
        );
        let m = fields(json!([{"uid": "e1", "value": [1]}])).unwrap_err();
        assert!(
            m.contains("fields[0]: value: an array holds option strings"),
            "{m}"
        );
        let m = fields(json!([])).unwrap_err();
        assert!(m.starts_with("fill: fields: required"), "{m}");
        let m = fields(json!({"uid": "e1"})).unwrap_err();
        assert!(m.contains("must be an array"), "{m}");
    }
}
