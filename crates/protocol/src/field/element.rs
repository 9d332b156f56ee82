//! Fields that name an element: the action's locator, flat or nested ([`Element`],
//! [`OptElement`], SPEC §4), and `drag`'s nested `from` and `to`.

use super::codec::{Codec, Cx};
use super::number::PX_LIMIT;
use super::types::DropTarget;
use crate::locator::{read_locator, write_locator, Loc, Locator, LOCATOR_KEYS};
use crate::wire::{Fields, Res};
use serde_json::{json, Map, Value};

/// The element an action acts on, flat (`uid`, `selector`, `text`, `xpath`, `index`) or nested
/// (`locator: {…}`), minus the keys the action takes for itself (SPEC §4).
pub(crate) struct Element;

/// An optional element (`press_key`, `scroll`).
pub(crate) struct OptElement;

/// The flat keys and `locator`, as accepted and listed in the "expected one of" hint.
fn locator_keys(cx: &Cx) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = LOCATOR_KEYS
        .iter()
        .copied()
        .filter(|k| !cx.taken.contains(k))
        .collect();
    if !cx.taken.contains(&"index") {
        keys.push("index");
    }
    keys.push("locator");
    keys
}

/// "uid/selector/text/xpath", plus how to give a locator key the action takes for itself.
pub(crate) fn locator_choices(taken: &[&str]) -> String {
    let free: Vec<&str> = LOCATOR_KEYS
        .iter()
        .copied()
        .filter(|k| !taken.contains(k))
        .collect();
    let nested: Vec<String> = LOCATOR_KEYS
        .iter()
        .filter(|k| taken.contains(k))
        .map(|k| format!(" (or locator: {{{k}}})"))
        .collect();
    format!("{}{}", free.join("/"), nested.concat())
}

impl Codec for Element {
    type T = Locator;
    fn read(&self, f: &mut Fields<'_>, _key: &'static str, cx: &Cx) -> Res<Locator> {
        read_locator(f, &cx.taken)?.ok_or_else(|| {
            f.err_msg(format!(
                "exactly one of {} is required",
                locator_choices(&cx.taken)
            ))
        })
    }
    fn write(&self, v: &Locator, m: &mut Map<String, Value>, _key: &'static str, cx: &Cx) {
        write_locator(m, v, &cx.taken);
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({})
    }
    fn own_keys(&self, _key: &'static str) -> Vec<&'static str> {
        Vec::new()
    }
    fn keys(&self, _key: &'static str, cx: &Cx) -> Vec<&'static str> {
        locator_keys(cx)
    }
    #[cfg(feature = "schema")]
    fn properties(&self, _key: &'static str, _doc: &str, cx: &Cx) -> Vec<(&'static str, Value)> {
        crate::locator::locator_props(&cx.taken)
    }
    fn loc(&self) -> Loc {
        Loc::Required
    }
}

impl Codec for OptElement {
    type T = Option<Locator>;
    fn read(&self, f: &mut Fields<'_>, _key: &'static str, cx: &Cx) -> Res<Option<Locator>> {
        read_locator(f, &cx.taken)
    }
    fn write(&self, v: &Option<Locator>, m: &mut Map<String, Value>, key: &'static str, cx: &Cx) {
        if let Some(v) = v {
            Element.write(v, m, key, cx);
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        Element.schema()
    }
    fn own_keys(&self, key: &'static str) -> Vec<&'static str> {
        Element.own_keys(key)
    }
    fn keys(&self, key: &'static str, cx: &Cx) -> Vec<&'static str> {
        Element.keys(key, cx)
    }
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, doc: &str, cx: &Cx) -> Vec<(&'static str, Value)> {
        Element.properties(key, doc, cx)
    }
    fn loc(&self) -> Loc {
        Loc::Optional
    }
}

/// A required element given in the nested form only (`drag`'s `from`: `{"selector": "…"}`).
pub(crate) struct NestedElement;

impl Codec for NestedElement {
    type T = Locator;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<Locator> {
        OptNestedElement.read(f, key, cx)?.ok_or_else(|| {
            f.err(
                key,
                "required: an element {uid|selector|text|xpath, index?}",
            )
        })
    }
    fn write(&self, v: &Locator, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        m.insert(key.into(), v.to_value());
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        OptNestedElement.schema()
    }
    fn required(&self) -> bool {
        true
    }
}

/// An optional element in the nested form (`fill`'s `submit`: `{"uid": "e9"}`).
pub(crate) struct OptNestedElement;

impl Codec for OptNestedElement {
    type T = Option<Locator>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Option<Locator>> {
        f.take(key)
            .map(|v| Locator::from_value(&format!("{}: {key}", f.ctx()), &v))
            .transpose()
    }
    fn write(&self, v: &Option<Locator>, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if let Some(v) = v {
            m.insert(key.into(), v.to_value());
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        let mut s = crate::locator::nested_locator();
        if let Value::Object(m) = &mut s {
            m.remove("description");
        }
        s
    }
}

/// `drag`'s `to`: an element in the nested form, or `{x, y}`.
pub(crate) struct DropAt;

impl Codec for DropAt {
    type T = DropTarget;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<DropTarget> {
        let v = f.req_value_as(
            key,
            "an element {uid|selector|text|xpath, index?} or a point {x, y}",
        )?;
        let ctx = format!("{}: {key}", f.ctx());
        if v.get("x").is_some() || v.get("y").is_some() {
            let mut p = Fields::new(&ctx, &v, &["x", "y"])?;
            let x = p.req_f64("x", 0.0, PX_LIMIT)?;
            let y = p.req_f64("y", 0.0, PX_LIMIT)?;
            p.finish()?;
            return Ok(DropTarget::Point { x, y });
        }
        Ok(DropTarget::Element(Locator::from_value(&ctx, &v)?))
    }
    fn write(&self, v: &DropTarget, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        let value = match v {
            DropTarget::Element(l) => l.to_value(),
            DropTarget::Point { x, y } => json!({"x": x, "y": y}),
        };
        m.insert(key.into(), value);
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        let point = json!({"type": "object", "properties": {
            "x": {"type": "number", "minimum": 0}, "y": {"type": "number", "minimum": 0}},
            "required": ["x", "y"], "additionalProperties": false});
        json!({"anyOf": [NestedElement.schema(), point]})
    }
    fn required(&self) -> bool {
        true
    }
}
