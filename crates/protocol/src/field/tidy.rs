//! The JSON Schema of a Rust type as an agent reads it: schemars' output without its root
//! bookkeeping, tidied ([`derived`], [`tidy`]). Only built with the `schema` feature.

use schemars::gen::SchemaSettings;
use serde_json::{json, Value};

#[cfg(feature = "schema")]
fn settings() -> SchemaSettings {
    SchemaSettings::draft07().with(|s| {
        s.option_add_null_type = false;
        s.option_nullable = false;
        s.inline_subschemas = true;
    })
}

/// The schemars schema of `T`, without the root's `$schema`, `title` and `definitions`, tidied.
#[cfg(feature = "schema")]
pub(crate) fn derived<T: schemars::JsonSchema>() -> Value {
    let root = settings().into_generator().into_root_schema_for::<T>();
    let mut v = match serde_json::to_value(root) {
        Ok(Value::Object(mut m)) => {
            m.remove("$schema");
            m.remove("title");
            m.remove("definitions");
            Value::Object(m)
        }
        _ => json!({}),
    };
    tidy(&mut v);
    v
}

/// Makes schemars' output read better for an agent, without changing what it accepts:
/// integral `range` bounds as integers (`30000`, not `30000.0`), no Rust numeric `format`s
/// (`int64`, `uint32`, …), and a string enum whose variants carry doc comments (a `oneOf` of
/// one-value enums) as one `enum`.
#[cfg(feature = "schema")]
pub(crate) fn tidy(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if matches!(m.get("format").and_then(Value::as_str), Some(f) if f.starts_with("int") || f.starts_with("uint") || f == "double" || f == "float")
            {
                m.remove("format");
            }
            for key in ["minimum", "maximum"] {
                if let Some(f) = m
                    .get(key)
                    .and_then(Value::as_f64)
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                {
                    m.insert(key.into(), Value::from(f as i64));
                }
            }
            let one_value_enums = m.get("oneOf").and_then(Value::as_array).and_then(|alts| {
                alts.iter()
                    .map(
                        |alt| match alt.get("enum").and_then(Value::as_array).map(Vec::as_slice) {
                            Some([one]) if alt.get("type") == Some(&json!("string")) => {
                                Some(one.clone())
                            }
                            _ => None,
                        },
                    )
                    .collect::<Option<Vec<Value>>>()
            });
            if let Some(values) = one_value_enums {
                m.remove("oneOf");
                m.insert("type".into(), json!("string"));
                m.insert("enum".into(), Value::Array(values));
            }
            m.values_mut().for_each(tidy);
        }
        Value::Array(a) => a.iter_mut().for_each(tidy),
        _ => {}
    }
}
