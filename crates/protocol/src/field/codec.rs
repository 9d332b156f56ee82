//! The [`Codec`] trait: how one kind of action field is read, written and described, and what
//! it learns from the rest of its action ([`Cx`]).

use super::types::DialogPolicy;
use crate::locator::{Loc, Locator};
use crate::wire::{Fields, Res, TabId};
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

    /// Every wire key the field accepts, in the order of the "expected one of" hint.
    fn keys(&self, key: &'static str, _cx: &Cx) -> Vec<&'static str> {
        vec![key]
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

    /// The tab the field names, for a tab field (`Some(None)`: an omitted optional tab).
    fn tab(&self, _v: &Self::T) -> Option<Option<TabId>> {
        None
    }

    /// Fills in the tab; false when the field is not a tab field.
    fn set_tab(&self, _v: &mut Self::T, _tab: TabId) -> bool {
        false
    }

    /// The element the field names, for a locator field.
    fn locator<'a>(&self, _v: &'a Self::T) -> Option<&'a Locator> {
        None
    }

    /// The URL the field names, for a URL field (the blocklist checks it, SPEC §6).
    fn url<'a>(&self, _v: &'a Self::T) -> Option<&'a str> {
        None
    }

    /// The agent owner the field names, for an owner field.
    fn owner<'a>(&self, _v: &'a Self::T) -> Option<&'a str> {
        None
    }

    /// How long the action itself waits, in ms, for a wait field (its bridge timeout is this plus
    /// the action's grace, SPEC §4).
    fn wait_ms(&self, _v: &Self::T) -> Option<u64> {
        None
    }

    /// How the action answers the dialogs it triggers, for a dialog field.
    fn dialog<'a>(&self, _v: &'a Self::T) -> Option<&'a DialogPolicy> {
        None
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
