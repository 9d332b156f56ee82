//! The [`Codec`] trait: how one kind of action field is read, written and described, and what
//! it learns from the rest of its action ([`Cx`]).

use crate::locator::Loc;
use crate::wire::{Fields, Res};
use serde_json::{Map, Value};

/// What a field's codec learns from the rest of its action.
pub(crate) struct Cx {
    /// The locator keys (`text`, `index`, …) that other fields of the action use for themselves,
    /// so the action's locator must be written nested (SPEC §4).
    pub(crate) taken: Vec<&'static str>,
}

/// One kind of action field: how it is read, written and described.
pub(crate) trait Codec {
    /// The Rust type of the field.
    type T;

    /// Reads the field named `key` (errors name it).
    fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<Self::T>;

    /// Writes the canonical form; a field at its default is omitted.
    fn write(&self, v: &Self::T, m: &mut Map<String, Value>, key: &'static str, cx: &Cx);

    /// The JSON Schema of the value (the field's doc comment becomes its description).
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value;

    /// Whether the wire form must carry the field.
    // Read by the JSON Schema only; the codecs state it beside their `read`, which enforces it.
    #[cfg_attr(not(feature = "schema"), allow(dead_code))]
    fn required(&self) -> bool {
        false
    }

    /// The wire keys the field uses for itself (a locator uses none: its keys are shared).
    fn own_keys(&self, key: &'static str) -> Vec<&'static str> {
        vec![key]
    }

    /// Every wire key the field accepts, in the order of the "expected one of" hint: by default its own
    /// keys; a locator field adds the shared ones.
    fn keys(&self, key: &'static str, _cx: &Cx) -> Vec<&'static str> {
        self.own_keys(key)
    }

    /// The JSON Schema properties the field adds, with `doc` as the description.
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        vec![(key, described(self.schema(), doc))]
    }

    /// How the field takes a locator, for a locator field.
    // Read by the JSON Schema only (as `required`).
    #[cfg_attr(not(feature = "schema"), allow(dead_code))]
    fn loc(&self) -> Loc {
        Loc::None
    }
}

/// A field that must be given, read, written and described by `C`, a codec of an optional value
/// (a required `x` is `Required(Px {..})`); missing → `required`.
pub(crate) struct Required<C>(pub(crate) C);

impl<V: Copy, C: Codec<T = Option<V>>> Codec for Required<C> {
    type T = V;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<V> {
        self.0
            .read(f, key, cx)?
            .ok_or_else(|| f.err(key, "required"))
    }
    fn write(&self, v: &V, m: &mut Map<String, Value>, key: &'static str, cx: &Cx) {
        self.0.write(&Some(*v), m, key, cx);
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        self.0.schema()
    }
    fn required(&self) -> bool {
        true
    }
}

/// `schema` with `doc` as its description (when there is one).
#[cfg(feature = "schema")]
pub(crate) fn described(mut schema: Value, doc: &str) -> Value {
    if let (Value::Object(m), false) = (&mut schema, doc.is_empty()) {
        m.insert("description".into(), Value::String(doc.into()));
    }
    schema
}

/// Doc-comment lines as one description: trimmed and joined with spaces, as schemars does.
#[cfg(feature = "schema")]
pub(crate) fn doc_text(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `read`, `write` and `schema` of a wrapper codec: its inner codec's (`.0`).
macro_rules! inner_codec {
    () => {
        fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<Self::T> {
            self.0.read(f, key, cx)
        }
        fn write(&self, v: &Self::T, m: &mut Map<String, Value>, key: &'static str, cx: &Cx) {
            self.0.write(v, m, key, cx)
        }
        #[cfg(feature = "schema")]
        fn schema(&self) -> Value {
            self.0.schema()
        }
    };
}
pub(crate) use inner_codec;
