//! The public value types of the shared fields: where `drag` drops ([`DropTarget`]) and how an
//! action answers JavaScript dialogs ([`DialogPolicy`], SPEC §7).

use super::keyword::keyword;
use crate::locator::Locator;

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
    DialogAnswer: "dialog answer";
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
