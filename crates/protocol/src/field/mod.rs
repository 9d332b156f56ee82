//! How one field of an action is read from the wire, written back and described in the JSON
//! Schema: a [`Codec`] per kind of field (an optional tab id, a flag with its default, a
//! locator, …). The action table in `action.rs` names a codec for each field, so a field's
//! validation, canonical form and schema all come from that one line.

use crate::locator::{read_locator, write_locator, Loc, Locator, LOCATOR_KEYS};
use crate::wire::{kind, Fields, Res, TabId, MAX_TAB_ID};
#[cfg(feature = "schema")]
use schemars::gen::SchemaSettings;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::marker::PhantomData;

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

/// How long an action waits, in ms (`.1`: the wait when the field is omitted): an integer whose
/// value sets the bridge's timeout.
pub(crate) struct Wait<C>(pub(crate) C, pub(crate) u64);

impl<C: Codec> Codec for Wait<C>
where
    C::T: WaitValue,
{
    type T = C::T;
    inner_codec!();
    fn wait_ms(&self, v: &C::T) -> Option<u64> {
        Some(v.ms().unwrap_or(self.1))
    }
}

/// A wait in ms, given or defaulted by its codec.
pub(crate) trait WaitValue {
    /// The wait in ms, when known.
    fn ms(&self) -> Option<u64>;
}

impl WaitValue for u64 {
    fn ms(&self) -> Option<u64> {
        Some(*self)
    }
}

impl WaitValue for Option<u64> {
    fn ms(&self) -> Option<u64> {
        *self
    }
}

/// The tab the action runs in (SPEC §6 resolves it when omitted).
pub(crate) struct Tab;

/// A required tab (`activate_tab`).
pub(crate) struct ReqTab;

const TAB_IDS: Int<TabId> = int::<TabId>(0, MAX_TAB_ID);

/// The description of every action's `tabId`, written once: the flattened tool schema merges the actions'
/// `tabId`s into one property, and differing texts would be run together there.
#[cfg(feature = "schema")]
const TAB_DOC: &str = "From open_tab or get_tabs. Omitted: the agent's own tab.";

impl Codec for Tab {
    type T = Option<TabId>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<Option<TabId>> {
        TAB_IDS.read(f, key, cx)
    }
    fn write(&self, v: &Option<TabId>, m: &mut Map<String, Value>, key: &'static str, cx: &Cx) {
        TAB_IDS.write(v, m, key, cx)
    }
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, _doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        vec![(key, described(self.schema(), TAB_DOC))]
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        TAB_IDS.schema()
    }
    fn tab(&self, v: &Option<TabId>) -> Option<Option<TabId>> {
        Some(*v)
    }
    fn set_tab(&self, v: &mut Option<TabId>, tab: TabId) -> bool {
        *v = Some(tab);
        true
    }
}

impl Codec for ReqTab {
    type T = TabId;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<TabId> {
        TAB_IDS
            .read(f, key, cx)?
            .ok_or_else(|| f.err(key, "required"))
    }
    fn write(&self, v: &TabId, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        m.insert(key.into(), Value::from(*v));
    }
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, _doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        vec![(key, described(self.schema(), TAB_DOC))]
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        TAB_IDS.schema()
    }
    fn required(&self) -> bool {
        true
    }
    fn tab(&self, v: &TabId) -> Option<Option<TabId>> {
        Some(Some(*v))
    }
    fn set_tab(&self, v: &mut TabId, tab: TabId) -> bool {
        *v = tab;
        true
    }
}

/// `loadWaitMs` of the navigating actions (SPEC §4): how long they wait for the main frame's `load` event once
/// it reached `DOMContentLoaded`, ms; omitted: [`DEFAULT_LOAD_WAIT_MS`].
pub(crate) struct LoadWait;

/// The `load` wait when `loadWaitMs` is omitted, ms: what a person waits for a page that shows its text but
/// keeps loading images (Playwright MCP waits the same 5 s).
pub const DEFAULT_LOAD_WAIT_MS: u32 = 5_000;
/// The largest `loadWaitMs`, ms: it must fit in the navigating actions' timeouts (15–30 s) with the wait for
/// `DOMContentLoaded`.
pub const MAX_LOAD_WAIT_MS: i64 = 20_000;

const LOAD_WAITS: Int<u32> = int::<u32>(0, MAX_LOAD_WAIT_MS).shown();

/// The description of every navigating action's `loadWaitMs`, written once (as [`TAB_DOC`]: the flattened tool
/// schema merges the actions' fields into one property).
#[cfg(feature = "schema")]
const LOAD_WAIT_DOC: &str =
    "ms to wait for load after DOMContentLoaded (default 5000); the result's loaded says if it came.";

impl Codec for LoadWait {
    type T = Option<u32>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<Option<u32>> {
        LOAD_WAITS.read(f, key, cx)
    }
    fn write(&self, v: &Option<u32>, m: &mut Map<String, Value>, key: &'static str, cx: &Cx) {
        LOAD_WAITS.write(v, m, key, cx)
    }
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, _doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        vec![(key, described(self.schema(), LOAD_WAIT_DOC))]
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        LOAD_WAITS.schema()
    }
}

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

/// The agent owner of `close_agent_tabs` / `close_agent_window`: an optional non-empty string.
pub(crate) struct Owner;

impl Codec for Owner {
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
    fn owner<'a>(&self, v: &'a Option<String>) -> Option<&'a str> {
        v.as_deref()
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

/// The absolute URL of `open_tab` / `navigate` (see [`read_url`]).
pub(crate) struct Url;

impl Codec for Url {
    type T = String;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<String> {
        read_url(f, key)
    }
    fn write(&self, v: &String, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        m.insert(key.into(), Value::String(v.clone()));
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "string", "format": "uri"})
    }
    fn required(&self) -> bool {
        true
    }
    fn url<'a>(&self, v: &'a String) -> Option<&'a str> {
        Some(v)
    }
}

/// The largest coordinate or scroll amount accepted, CSS px: a guard against nonsense, not
/// stated in the schema.
const PX_LIMIT: f64 = 1.0e7;

/// A CSS px amount within `min..=PX_LIMIT` (`min` is `-PX_LIMIT` for signed amounts, and then not
/// stated in the schema); `Option<f64>` unless `required`.
pub(crate) struct Px {
    pub(crate) min: Option<f64>,
}

/// A required CSS px amount (see [`Px`]).
pub(crate) struct ReqPx(pub(crate) Px);

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

impl Codec for ReqPx {
    type T = f64;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<f64> {
        self.0
            .read(f, key, cx)?
            .ok_or_else(|| f.err(key, "required"))
    }
    fn write(&self, v: &f64, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        m.insert(key.into(), Value::from(*v));
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        self.0.schema_of()
    }
    fn required(&self) -> bool {
        true
    }
}

/// What a keyword's JSON Schema is derived from: schemars' trait with the `schema` feature (the
/// bridge's), none without it (the extension never describes actions, and leaves schemars out).
#[cfg(feature = "schema")]
pub(crate) use schemars::JsonSchema as KeywordSchema;
/// See above: without the `schema` feature every type qualifies.
#[cfg(not(feature = "schema"))]
pub(crate) trait KeywordSchema {}
#[cfg(not(feature = "schema"))]
impl<T> KeywordSchema for T {}

/// A fixed set of wire words (`visible` / `attached` / `hidden`, …), implemented by [`keyword!`].
pub(crate) trait Keyword: Sized + Copy + PartialEq + KeywordSchema + 'static {
    /// Every value, in schema order.
    const ALL: &'static [Self];
    /// What one value is called in errors: `"state"`.
    const NOUN: &'static str;
    /// How the error names the choices: `"visible, attached or hidden"`.
    const CHOICES: &'static str;
    /// The wire spelling.
    fn word(&self) -> &'static str;
    /// Reads a wire word or one of its aliases.
    fn parse_word(s: &str) -> Option<Self>;
}

/// Gives a keyword enum its wire spelling (`as_str`) and its [`Keyword`] impl from one list, so each
/// word, the schema order, the error text and the extra spellings accepted are written once:
///
/// ```text
/// keyword! {
///     /// More of `as_str`'s doc (optional).
///     Enum: "noun", "a, b or c" [, any case];
///     A = "a", B = "b", C = "c"
///     [; aliases "alt" => A, …]
/// }
/// ```
///
/// `any case` reads a word case-insensitively; an alias is read as its variant and written as that
/// variant's word.
macro_rules! keyword {
    (
        $(#[$doc:meta])*
        $ty:ident: $noun:literal, $choices:literal $(, any $case:ident)?;
        $($variant:ident = $word:literal),+
        $(; aliases $($alias:literal => $target:ident),+)?
    ) => {
        impl $ty {
            /// The wire spelling.
            $(#[$doc])*
            pub fn as_str(&self) -> &'static str {
                match self {
                    $( $ty::$variant => $word, )+
                }
            }
        }

        impl $crate::field::Keyword for $ty {
            const ALL: &'static [Self] = &[$( $ty::$variant ),+];
            const NOUN: &'static str = $noun;
            const CHOICES: &'static str = $choices;
            fn word(&self) -> &'static str {
                self.as_str()
            }
            fn parse_word(s: &str) -> Option<Self> {
                match &*keyword!(@fold s $($case)?) {
                    $( $word => Some($ty::$variant), )+
                    $($( $alias => Some($ty::$target), )+)?
                    _ => None,
                }
            }
        }
    };
    (@fold $s:ident case) => { $s.to_ascii_lowercase() };
    (@fold $s:ident) => { $s };
}
pub(crate) use keyword;

/// A keyword field: `Word(default)` holds a keyword and reads an omitted field as `default`
/// (`state`, `format`); `Word(None::<K>)` holds an `Option<K>` without a default (`console`'s
/// `level`). Either way a field at its default is not written, and a word that is not one is
/// `unknown <noun> `…` (use …)`.
pub(crate) struct Word<V>(pub(crate) V);

/// What a [`Word`] field holds: a keyword (with a default) or an optional one.
pub(crate) trait WordValue: Copy + PartialEq {
    /// The keyword.
    type K: Keyword;
    /// The value of a field given as `word` (`None`: omitted), where `default` is the codec's.
    fn from_word(word: Option<Self::K>, default: Self) -> Self;
    /// The keyword the value names, if any.
    fn keyword(self) -> Option<Self::K>;
}

impl<K: Keyword> WordValue for K {
    type K = K;
    fn from_word(word: Option<K>, default: K) -> K {
        word.unwrap_or(default)
    }
    fn keyword(self) -> Option<K> {
        Some(self)
    }
}

impl<K: Keyword> WordValue for Option<K> {
    type K = K;
    fn from_word(word: Option<K>, default: Option<K>) -> Option<K> {
        word.or(default)
    }
    fn keyword(self) -> Option<K> {
        self
    }
}

impl<V: WordValue> Codec for Word<V> {
    type T = V;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<V> {
        let word = match f.opt_str(key)? {
            None => None,
            Some(s) => Some(V::K::parse_word(&s).ok_or_else(|| {
                f.err(
                    key,
                    format!("unknown {} `{s}` (use {})", V::K::NOUN, V::K::CHOICES),
                )
            })?),
        };
        Ok(V::from_word(word, self.0))
    }
    fn write(&self, v: &V, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if let (Some(word), false) = (v.keyword(), *v == self.0) {
            m.insert(key.into(), Value::String(word.word().into()));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        derived::<V::K>()
    }
}

/// `press_key`'s held modifiers: an array of distinct keywords, any alias of [`Keyword::parse_word`].
pub(crate) struct Words<K>(pub(crate) PhantomData<K>);

impl<K: Keyword> Codec for Words<K> {
    type T = Vec<K>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Vec<K>> {
        let Some(v) = f.take(key) else {
            return Ok(Vec::new());
        };
        let Value::Array(items) = v else {
            let words: Vec<&str> = K::ALL.iter().map(Keyword::word).collect();
            return Err(f.err(
                key,
                format!("must be an array of {}, got {}", words.join("/"), kind(&v)),
            ));
        };
        let mut out = Vec::with_capacity(items.len());
        for item in &items {
            let word = match item {
                Value::String(s) => K::parse_word(s).ok_or_else(|| {
                    f.err(
                        key,
                        format!("unknown {} `{s}` (use {})", K::NOUN, K::CHOICES),
                    )
                })?,
                other => {
                    return Err(f.err(key, format!("items must be strings, got {}", kind(other))))
                }
            };
            if out.contains(&word) {
                return Err(f.err(key, format!("`{}` given twice", word.word())));
            }
            out.push(word);
        }
        Ok(out)
    }
    fn write(&self, v: &Vec<K>, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if !v.is_empty() {
            let words = v.iter().map(|k| Value::String(k.word().into())).collect();
            m.insert(key.into(), Value::Array(words));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "array", "items": derived::<K>(), "uniqueItems": true})
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
    fn locator<'a>(&self, v: &'a Locator) -> Option<&'a Locator> {
        Some(v)
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
        json!({})
    }
    fn own_keys(&self, _key: &'static str) -> Vec<&'static str> {
        Vec::new()
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
    fn locator<'a>(&self, v: &'a Option<Locator>) -> Option<&'a Locator> {
        v.as_ref()
    }
}

/// URL schemes `open_tab` / `navigate` accept.
pub const URL_SCHEMES: [&str; 5] = ["http", "https", "file", "about", "data"];

/// The absolute URL a user probably meant by `raw` when it lacks the scheme (`example.com/a`,
/// `localhost:8080`): `https://…` for a host with a dot, `http://…` for `localhost`; `None` for
/// anything that is not a plain host (spaces, no dot: `not a url`).
pub(crate) fn suggest_absolute(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty() || raw.contains(char::is_whitespace) || raw.contains("://") {
        return None;
    }
    let guess = |scheme: &str| {
        let candidate = format!("{scheme}://{raw}");
        let parsed = url::Url::parse(&candidate).ok()?;
        let host = parsed.host_str()?.to_ascii_lowercase();
        let plain_host = host.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
        let named =
            (host.contains('.') && plain_host && !host.ends_with(|c: char| c.is_ascii_digit()))
                || matches!(parsed.host(), Some(url::Host::Ipv4(_)));
        (named || host == "localhost").then_some((candidate, host))
    };
    match guess("https")? {
        (_, host) if host == "localhost" || host.starts_with("127.") => {
            guess("http").map(|(c, _)| c)
        }
        (candidate, _) => Some(candidate),
    }
}

/// Reads the absolute URL `key` of `open_tab` / `navigate`, with a did-you-mean for a URL without
/// its scheme.
pub(crate) fn read_url(f: &mut Fields<'_>, key: &str) -> Res<String> {
    let raw = f.req_nonempty(key)?;
    match url::Url::parse(raw.trim()) {
        Ok(parsed) => {
            if !URL_SCHEMES.contains(&parsed.scheme()) {
                // `localhost:8080`, `example.com:8080/x` parse with the host as the scheme.
                let after = raw.trim().split_once(':').map_or("", |(_, rest)| rest);
                let hint = if after.starts_with(|c: char| c.is_ascii_digit()) {
                    suggest_absolute(&raw).map(|s| format!(" (did you mean `{s}`?)"))
                } else {
                    None
                };
                return Err(f.err(
                    key,
                    hint.unwrap_or_else(|| {
                        format!(
                            "scheme `{}` is not supported: use an http or https URL (about:blank and data: URLs open too; file:// URLs are always refused)",
                            parsed.scheme()
                        )
                    }),
                ));
            }
            if matches!(parsed.scheme(), "http" | "https")
                && parsed.host_str().is_none_or(str::is_empty)
            {
                return Err(f.err(key, "has no host"));
            }
            Ok(raw)
        }
        Err(url::ParseError::RelativeUrlWithoutBase) => Err(f.err(
            key,
            match suggest_absolute(&raw) {
                Some(s) => format!("`{raw}` is not an absolute URL (did you mean `{s}`?)"),
                None => format!(
                    "`{raw}` is not an absolute URL: give the whole URL with its scheme, e.g. https://example.com/"
                ),
            },
        )),
        Err(e) => Err(f.err(key, format!("`{raw}` is not a valid URL ({e})"))),
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

/// An optional non-empty string (`network`'s `filter`).
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

/// A required element given in the nested form only (`drag`'s `from`: `{"selector": "…"}`).
pub(crate) struct NestedElement;

impl Codec for NestedElement {
    type T = Locator;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Locator> {
        let v = f.take(key).ok_or_else(|| {
            f.err(
                key,
                "required: an element {uid|selector|text|xpath, index?}",
            )
        })?;
        Locator::from_value(&format!("{}: {key}", f.ctx()), &v)
    }
    fn write(&self, v: &Locator, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        m.insert(key.into(), v.to_value());
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        let mut s = crate::locator::nested_locator();
        if let Value::Object(m) = &mut s {
            m.remove("description");
        }
        s
    }
    fn required(&self) -> bool {
        true
    }
}

/// Where `drag` drops: an element, or a viewport point.
#[derive(Clone, Debug, PartialEq)]
pub enum DropTarget {
    /// The centre of this element (scrolled into view).
    Element(Locator),
    /// A viewport point, CSS px.
    Point {
        /// From the left edge.
        x: f64,
        /// From the top edge.
        y: f64,
    },
}

/// `drag`'s `to`: an element in the nested form, or `{x, y}`.
pub(crate) struct DropAt;

impl Codec for DropAt {
    type T = DropTarget;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<DropTarget> {
        let v = f.take(key).ok_or_else(|| {
            f.err(
                key,
                "required: an element {uid|selector|text|xpath, index?} or a point {x, y}",
            )
        })?;
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
/// How an action answers the JavaScript dialogs it triggers (SPEC §7): `dialog: "accept" | "dismiss"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum DialogAnswer {
    /// OK: `confirm` returns true, `prompt` the text.
    Accept,
    /// Cancel: `confirm` returns false, `prompt` null.
    Dismiss,
}

keyword! {
    DialogAnswer: "dialog answer", "accept or dismiss";
    Accept = "accept", Dismiss = "dismiss"
}

/// The `dialog` and `promptText` fields of an action that may trigger dialogs. Both omitted: the
/// default of SPEC §7 (alert and beforeunload accepted, confirm and prompt dismissed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DialogPolicy {
    /// How to answer every dialog the action triggers; `None`: the default per dialog type.
    pub answer: Option<DialogAnswer>,
    /// The text a `prompt` is accepted with. Given without `answer`, prompts are accepted with it.
    pub prompt_text: Option<String>,
}

impl DialogPolicy {
    /// Whether a dialog of `dialog_type` (`alert`, `confirm`, `prompt`, `beforeunload`) is accepted.
    pub fn accepts(&self, dialog_type: &str) -> bool {
        match self.answer {
            Some(answer) => answer == DialogAnswer::Accept,
            None if dialog_type == "prompt" => self.prompt_text.is_some(),
            None => matches!(dialog_type, "alert" | "beforeunload"),
        }
    }
}

/// The description of `dialog` and `promptText`, written once: the flattened tool schema merges the
/// actions' fields into one property each.
#[cfg(feature = "schema")]
const DIALOG_DOC: &str =
    "Answer to JS dialogs it triggers. Default: alert accepted, confirm/prompt dismissed.";
#[cfg(feature = "schema")]
const PROMPT_DOC: &str = "Text for a prompt() (accepts it).";

/// `dialog` + `promptText` (see [`DialogPolicy`]).
pub(crate) struct Dialog;

impl Codec for Dialog {
    type T = DialogPolicy;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<DialogPolicy> {
        let answer = match f.opt_str(key)? {
            None => None,
            Some(s) => Some(DialogAnswer::parse_word(&s).ok_or_else(|| {
                f.err(
                    key,
                    format!("unknown dialog answer `{s}` (use accept or dismiss)"),
                )
            })?),
        };
        let prompt_text = f.opt_str(PROMPT_TEXT)?;
        if answer == Some(DialogAnswer::Dismiss) && prompt_text.is_some() {
            return Err(f.err(PROMPT_TEXT, "not allowed with dialog: \"dismiss\""));
        }
        Ok(DialogPolicy {
            answer,
            prompt_text,
        })
    }
    fn write(&self, v: &DialogPolicy, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if let Some(answer) = v.answer {
            m.insert(key.into(), Value::String(answer.as_str().into()));
        }
        if let Some(text) = &v.prompt_text {
            m.insert(PROMPT_TEXT.into(), Value::String(text.clone()));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        derived::<DialogAnswer>()
    }
    fn own_keys(&self, key: &'static str) -> Vec<&'static str> {
        vec![key, PROMPT_TEXT]
    }
    fn keys(&self, key: &'static str, _cx: &Cx) -> Vec<&'static str> {
        vec![key, PROMPT_TEXT]
    }
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, _doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        vec![
            (key, described(self.schema(), DIALOG_DOC)),
            (
                PROMPT_TEXT,
                described(json!({"type": "string"}), PROMPT_DOC),
            ),
        ]
    }
    fn dialog<'a>(&self, v: &'a DialogPolicy) -> Option<&'a DialogPolicy> {
        Some(v)
    }
}

/// The wire key of [`DialogPolicy::prompt_text`].
const PROMPT_TEXT: &str = "promptText";
