//! Numeric fields: integers within bounds ([`Int`], [`IntOr`]), CSS px amounts ([`Px`],
//! [`ReqPx`]).

use super::codec::{Codec, Cx};
use crate::wire::{Fields, Res};
#[cfg(feature = "schema")]
use serde_json::json;
use serde_json::{Map, Value};
use std::marker::PhantomData;

/// An integer field within `min..=max`: `Option<T>` when optional, `T` with [`Int::or`].
///
/// The schema states `minimum` always and `maximum` only with [`Int::shown`]: the larger bounds
/// of some fields (`limit`, `maxWidth`) only guard against nonsense and are not worth an
/// agent's attention.
pub(crate) struct Int<T> {
    min: i64,
    max: i64,
    // Only the JSON Schema states the maximum.
    #[cfg_attr(not(feature = "schema"), allow(dead_code))]
    show_max: bool,
    _t: PhantomData<T>,
}

/// An optional integer in `min..=max`; the schema gives only the minimum.
pub(crate) const fn int<T>(min: i64, max: i64) -> Int<T> {
    Int {
        min,
        max,
        show_max: false,
        _t: PhantomData,
    }
}

impl<T> Int<T> {
    /// The same, with the maximum in the schema too.
    pub(crate) const fn shown(self) -> Self {
        Int {
            show_max: true,
            ..self
        }
    }

    /// The same field with a default: a plain `T`, omitted on the wire when at the default.
    pub(crate) const fn or(self, default: T) -> IntOr<T> {
        IntOr { int: self, default }
    }

    fn read_opt(&self, f: &mut Fields<'_>, key: &str) -> Res<Option<T>>
    where
        T: TryFrom<i64>,
    {
        Ok(f.opt_int(key, self.min, self.max)?
            .and_then(|n| T::try_from(n).ok()))
    }

    #[cfg(feature = "schema")]
    fn int_schema(&self) -> Value {
        let mut s = json!({"type": "integer", "minimum": self.min});
        if self.show_max {
            s["maximum"] = json!(self.max);
        }
        s
    }
}

impl<T: TryFrom<i64> + Copy + Into<Value>> Codec for Int<T> {
    type T = Option<T>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Option<T>> {
        self.read_opt(f, key)
    }
    fn write(&self, v: &Option<T>, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if let Some(v) = v {
            m.insert(key.into(), (*v).into());
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        self.int_schema()
    }
}

/// An integer with a default (see [`Int::or`]).
pub(crate) struct IntOr<T> {
    int: Int<T>,
    default: T,
}

impl<T: TryFrom<i64> + Copy + PartialEq + Into<Value>> Codec for IntOr<T> {
    type T = T;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<T> {
        Ok(self.int.read_opt(f, key)?.unwrap_or(self.default))
    }
    fn write(&self, v: &T, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if *v != self.default {
            m.insert(key.into(), (*v).into());
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        self.int.int_schema()
    }
}

/// The largest coordinate or scroll amount accepted, CSS px: a guard against nonsense, not
/// stated in the schema.
pub(crate) const PX_LIMIT: f64 = 1.0e7;

/// A CSS px amount within `min..=PX_LIMIT` (`min` is `-PX_LIMIT` for signed amounts, and then not
/// stated in the schema); `Option<f64>` (a required amount is `Required(Px {..})`).
pub(crate) struct Px {
    pub(crate) min: Option<f64>,
}

impl Px {
    #[cfg(feature = "schema")]
    fn schema_of(&self) -> Value {
        match self.min {
            Some(min) => json!({"type": "number", "minimum": min}),
            None => json!({"type": "number"}),
        }
    }
}

impl Codec for Px {
    type T = Option<f64>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Option<f64>> {
        f.opt_f64(key, self.min.unwrap_or(-PX_LIMIT), PX_LIMIT)
    }
    fn write(&self, v: &Option<f64>, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if let Some(v) = v {
            m.insert(key.into(), Value::from(*v));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        self.schema_of()
    }
}
