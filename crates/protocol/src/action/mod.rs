//! The `browser` action union of SPEC §4: one action per request, tagged by `type`, camelCase
//! fields, validated by [`Action::from_value`] with messages that name the offending field.
//!
//! Each action is defined once, in the table of `catalogue.rs`: its variant, parameter struct,
//! wire name, description and timeout. A parameter struct is defined once by `params!`
//! (`params.rs`): each field names its wire key and a [`Codec`](crate::field::Codec) that reads,
//! writes and describes it, so the parser, the canonical serialiser, the "expected one of"
//! list and the JSON Schema (`schema.rs`) all follow from that one line. Rules that tie fields
//! together (scroll's `dx`/`dy` or `toEnd`, screenshot's `quality` only with jpeg) live in the
//! struct's `Rules` impl, once for the validator and once as JSON Schema, side by side.
//!
//! Rooms: `catalogue.rs` (the table), `spec.rs` (what a row says, lookups by name), `params.rs`
//! (how a parameter struct is defined), `tabs.rs` / `input.rs` / `page.rs` (the parameter
//! structs by family), `values.rs` (their public value types), `either.rs` (the either-or
//! fields); this file: parsing, writing and reading an [`Action`].

mod catalogue;
mod either;
mod input;
mod page;
mod params;
mod spec;
mod tabs;
mod values;

use crate::error::ErrorBody;
use crate::locator::Locator;
use crate::wire::{kind, Fields, TYPE_KEY};
use catalogue::{ACTION_NAMES, SPECS};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
pub(crate) use spec::Spec;
use spec::Timeout;
use std::time::Duration;

pub use crate::field::{DialogAnswer, DialogPolicy, DropTarget, MAX_UPLOAD_FILES, URL_SCHEMES};
pub use crate::field::{FillField, FillValue, MAX_FILL_FIELDS};
pub use crate::field::{DEFAULT_LOAD_WAIT_MS, MAX_LOAD_WAIT_MS};
pub use crate::wire::{TabId, MAX_TAB_ID};
pub use catalogue::Action;
pub(crate) use catalogue::ActionKind;
pub use input::*;
pub use page::*;
pub use spec::TIMEOUT_GRACE;
pub use tabs::*;
pub use values::*;

impl ActionKind {
    pub(crate) fn spec(self) -> &'static Spec {
        &SPECS[self as usize]
    }

    /// The wire `type`.
    pub(crate) fn name(self) -> &'static str {
        self.spec().name
    }
}

/// The wire keys of the fields the helpers of [`Action`] read: whichever action has a field of
/// that key (and of the type the helper expects) answers through it.
const TAB_ID: &str = "tabId";
const LOCATOR: &str = "locator";
const TEXT_CONTAINS: &str = "textContains";
const URL: &str = "url";
const OWNER: &str = "owner";
const DIALOG: &str = "dialog";

/// Every action type, in the order of the SPEC §4 table.
pub fn action_names() -> &'static [&'static str] {
    ACTION_NAMES
}

/// Whether the action named `name` (its wire `type`) only reads (`get_tabs`, `extract`, `screenshot`,
/// `get_value`, `wait_for`, `scrape`): a client may send it again when the bridge went away before
/// answering (SPEC §9). False for every other action and for names that are not actions.
pub fn is_read_action(name: &str) -> bool {
    spec_named(name).is_some_and(|s| s.traits.reads)
}

/// The table entry of the action named `name`.
pub(crate) fn spec_named(name: &str) -> Option<&'static Spec> {
    ActionKind::named(name).map(ActionKind::spec)
}

/// Every action's table entry, in table order.
#[cfg(feature = "schema")]
pub(crate) fn specs() -> &'static [Spec] {
    SPECS
}

/// The bridge's timeout of the action `name` in words (SPEC §4 timeout column), for `help`:
/// "10 s", or "timeoutMs (default 5000 ms) + 2 s".
#[cfg(feature = "schema")]
pub(crate) fn timeout_words(name: &str) -> Option<String> {
    let grace = TIMEOUT_GRACE.as_secs();
    spec_named(name).map(|s| match s.traits.timeout {
        Timeout::Secs(secs) => format!("{secs} s"),
        Timeout::OwnWait { key, default_ms } => {
            format!("{key} (default {default_ms} ms) + {grace} s")
        }
    })
}

/// The wire fields (besides `type`) the action `name` accepts, in schema order.
pub(crate) fn action_fields(name: &str) -> Vec<&'static str> {
    spec_named(name).map(|s| (s.keys)()).unwrap_or_default()
}

impl Action {
    /// Parses and validates one action from its wire JSON (SPEC §4).
    ///
    /// Every refusal is `invalid_action` with a message that names the field, e.g.
    /// `"click: unknown field `foo`; expected one of …"`,
    /// `"click: exactly one of uid/selector/text/xpath is required"`,
    /// `"click: index: not allowed with uid …"`, `"wait_for: timeoutMs: must be ≤ 30000"`,
    /// `"type: unknown action `fly`; expected one of …"`. JSON `null` for an optional field reads
    /// as omitted.
    pub fn from_value(v: &Value) -> Result<Action, ErrorBody> {
        let Value::Object(map) = v else {
            return Err(ErrorBody::invalid(format!(
                "action: expected a JSON object with a `{TYPE_KEY}`, got {}",
                kind(v)
            )));
        };
        let kind = match map.get(TYPE_KEY) {
            Some(Value::String(s)) => match ActionKind::named(s) {
                Some(kind) => kind,
                None => {
                    return Err(ErrorBody::invalid(format!(
                        "{TYPE_KEY}: unknown action `{s}`; expected one of {}",
                        ACTION_NAMES.join(", ")
                    )))
                }
            },
            None | Some(Value::Null) => {
                return Err(ErrorBody::invalid(format!(
                    "{TYPE_KEY}: required; one of {}",
                    ACTION_NAMES.join(", ")
                )))
            }
            Some(other) => {
                return Err(ErrorBody::invalid(format!(
                    "{TYPE_KEY}: must be a string, got {}",
                    kind(other)
                )))
            }
        };
        let spec = kind.spec();
        let mut map = map.clone();
        map.remove(TYPE_KEY);
        let keys = (spec.keys)();
        let mut f = Fields::from_map(spec.name, map, &keys);
        f.check_unknown()?;
        let action = Action::parse(kind, &mut f)?;
        f.finish()?;
        Ok(action)
    }

    /// The canonical wire JSON, e.g. a click on uid `e7` of tab 12 as
    /// `{"type": …, "uid": "e7", "tabId": 12}`; fields at their default are omitted.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert(TYPE_KEY.to_owned(), Value::String(self.name().to_owned()));
        if let Some(values) = self.values() {
            values.write(&mut m);
        }
        Value::Object(m)
    }

    /// The wire `type`, e.g. `click` for [`Action::Click`].
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The action's field with wire key `key`, when it has one of type `T`.
    fn field<T: 'static>(&self, key: &str) -> Option<&T> {
        self.values()?.field(key)?.downcast_ref()
    }

    /// The tab the action names, if any (`activate_tab`'s required `tabId` included).
    pub fn tab_id(&self) -> Option<TabId> {
        match self.field::<Option<TabId>>(TAB_ID) {
            Some(tab) => *tab,
            None => self.field::<TabId>(TAB_ID).copied(),
        }
    }

    /// Whether the action takes a `tabId` at all (false for `open_tab`, `get_tabs`,
    /// `close_agent_tabs`, `close_agent_window`).
    pub fn takes_tab_id(&self) -> bool {
        self.values().is_some_and(|v| v.field(TAB_ID).is_some())
    }

    /// Sets the tab after the dispatcher resolved an omitted `tabId` (SPEC §6); a no-op for
    /// actions without one.
    pub fn set_tab_id(&mut self, tab_id: TabId) {
        let Some(tab) = self.values_mut().and_then(|v| v.field_mut(TAB_ID)) else {
            return;
        };
        if let Some(tab) = tab.downcast_mut::<Option<TabId>>() {
            *tab = Some(tab_id);
        } else if let Some(tab) = tab.downcast_mut::<TabId>() {
            *tab = tab_id;
        }
    }

    /// The element locator, for element-taking actions (and `press_key` / `scroll` / `wait_for`
    /// when given one).
    pub fn locator(&self) -> Option<&Locator> {
        if let Some(target) = self.field::<WaitTarget>(TEXT_CONTAINS) {
            return target.locator();
        }
        self.field::<Locator>(LOCATOR)
            .or_else(|| self.field::<Option<Locator>>(LOCATOR)?.as_ref())
    }

    /// The URL `open_tab` / `navigate` go to (the blocklist checks it, SPEC §6).
    pub fn target_url(&self) -> Option<&str> {
        self.field::<String>(URL).map(String::as_str)
    }

    /// The explicit `owner` of `close_agent_tabs` / `close_agent_window`.
    pub fn owner(&self) -> Option<&str> {
        self.field::<Option<String>>(OWNER)?.as_deref()
    }

    /// How the action answers the JavaScript dialogs it triggers (SPEC §7): its `dialog` and
    /// `promptText`, or the default for actions that take none.
    pub fn dialog(&self) -> DialogPolicy {
        self.field::<DialogPolicy>(DIALOG)
            .cloned()
            .unwrap_or_default()
    }

    /// The bridge's pending-pool timeout for this action (SPEC §4 timeout column): e.g. 30 s for
    /// navigation, 10 s for `click`, `timeoutMs` + 2 s for `wait_for` and `scrape`
    /// (scrape's `timeoutMs` defaults to 5000).
    pub fn timeout(&self) -> Duration {
        match self.kind().spec().traits.timeout {
            Timeout::Secs(s) => Duration::from_secs(s),
            Timeout::OwnWait { key, default_ms } => {
                let given = match self.field::<Option<u64>>(key) {
                    Some(ms) => *ms,
                    None => self.field::<u64>(key).copied(),
                };
                Duration::from_millis(given.unwrap_or(default_ms)) + TIMEOUT_GRACE
            }
        }
    }

    /// The canonical wire JSON as a string.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(deserializer)?;
        Action::from_value(&v).map_err(|e| serde::de::Error::custom(e.message))
    }
}

impl std::str::FromStr for Action {
    type Err = ErrorBody;

    /// Parses an action from JSON text.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let v: Value = serde_json::from_str(s)
            .map_err(|e| ErrorBody::invalid(format!("action: not valid JSON ({e})")))?;
        Action::from_value(&v)
    }
}

#[cfg(test)]
mod tests;
