//! The tab an action runs in (`tabId`) and the navigating actions' `load` wait (`loadWaitMs`):
//! each described once, as the flattened tool schema merges every action's field into one property.

#[cfg(feature = "schema")]
use super::codec::described;
use super::codec::{inner_codec, Codec, Cx, Required};
use super::number::{int, Int};
use crate::wire::{Fields, Res, TabId, MAX_TAB_ID};
use serde_json::{Map, Value};

/// A field described the same in every action that has it (`.1`), whatever its doc comment says:
/// the flattened tool schema merges the actions' fields into one property, and differing texts
/// would be run together there.
pub(crate) struct SameDoc<C>(
    C,
    // Only the JSON Schema reads the description.
    #[cfg_attr(not(feature = "schema"), allow(dead_code))] &'static str,
);

impl<C: Codec> Codec for SameDoc<C> {
    type T = C::T;
    inner_codec!();
    fn required(&self) -> bool {
        self.0.required()
    }
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, _doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        vec![(key, described(self.schema(), self.1))]
    }
}

const TAB_IDS: Int<TabId> = int::<TabId>(0, MAX_TAB_ID);

const TAB_DOC: &str = "From open_tab or get_tabs. Omitted: the agent's own tab.";

/// The tab the action runs in (SPEC §6 resolves it when omitted).
pub(crate) const TAB: SameDoc<Int<TabId>> = SameDoc(TAB_IDS, TAB_DOC);

/// A required tab (`activate_tab`, `handoff`).
pub(crate) const REQUIRED_TAB: SameDoc<Required<Int<TabId>>> = SameDoc(Required(TAB_IDS), TAB_DOC);

/// The `load` wait when `loadWaitMs` is omitted, ms: what a person waits for a page that shows its text but
/// keeps loading images (Playwright MCP waits the same 5 s).
pub const DEFAULT_LOAD_WAIT_MS: u32 = 5_000;
/// The largest `loadWaitMs`, ms: it must fit in the navigating actions' timeouts (15–30 s) with the wait for
/// `DOMContentLoaded`.
pub const MAX_LOAD_WAIT_MS: i64 = 20_000;

const LOAD_WAIT_DOC: &str =
    "ms to wait for load after DOMContentLoaded (default 5000); the result's loaded says if it came.";

/// `loadWaitMs` of the navigating actions (SPEC §4): how long they wait for the main frame's `load` event once
/// it reached `DOMContentLoaded`, ms; omitted: [`DEFAULT_LOAD_WAIT_MS`].
pub(crate) const LOAD_WAIT: SameDoc<Int<u32>> =
    SameDoc(int::<u32>(0, MAX_LOAD_WAIT_MS).shown(), LOAD_WAIT_DOC);
