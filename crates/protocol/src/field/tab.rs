//! The tab an action runs in (`tabId`) and the navigating actions' `load` wait (`loadWaitMs`):
//! each described once, as the flattened tool schema merges every action's field into one property.

#[cfg(feature = "schema")]
use super::codec::described;
use super::codec::{Codec, Cx};
use super::number::{int, Int};
use crate::wire::{Fields, Res, TabId, MAX_TAB_ID};
use serde_json::{Map, Value};

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
