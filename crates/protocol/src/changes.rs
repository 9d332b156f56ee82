//! What an action changed in what the agent sees (SPEC §4 "Outcomes": `changes` and `view`), so that an
//! agent can go from one action to the next without an `extract` between them.
//!
//! The extension compares the tab's view after the action with the last view it gave the agent (an
//! `extract`, or an earlier action's `changes` / `view`): elements by uid (uids are stable while the node
//! is in the document, SPEC §5), the markdown by line. A navigation, a tab without an earlier view, or a
//! change too big to be worth a diff gives the new page's view itself instead (`view`, an `extract`
//! result).

use crate::ExtractElement;
use serde::{Deserialize, Serialize};

/// The change an action made to the agent's view of its tab; every list is empty when nothing changed
/// (`"changes": {}` says so: the action had no visible effect).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Changes {
    /// Elements the agent can now act on that it could not before (new, or no longer hidden), in
    /// document order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<ExtractElement>,
    /// Elements that are still there but read differently (role, name, value, checked, disabled):
    /// their new state.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<ExtractElement>,
    /// uids of elements that went away (removed from the document, or hidden now).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// Markdown lines that appeared (a validation message, a toast, a result count, a new row), in
    /// page order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub text_added: Vec<String>,
    /// Markdown lines that went away.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub text_removed: Vec<String>,
    /// The page's URL and title when they changed without a new document (a single-page app's route).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The new title, when it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl Changes {
    /// Whether the action changed nothing the agent sees.
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }
}
