//! The typed form of a CDP command, as `chromiumoxide_types::Command` has it: the params are the struct
//! itself (serialised camelCase), the method name and the answer's type come with it, so a call site reads
//! `cdp::send(tab_id, &DomFocus { object_id }).await?` and gets a typed answer.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// One CDP method: `Self` is its params.
pub trait Command: Serialize {
    /// The CDP method, e.g. `"Page.navigate"`.
    const METHOD: &'static str;
    /// What the command answers (only the fields the extension reads).
    type Response: DeserializeOwned;
    /// What of a text answer ([`super::send_text`]) crosses into Rust.
    const ANSWER: Answer = Answer::Whole;
}

pub use crate::chrome::debugger::Answer;

/// The answer of a command whose result the extension does not read.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
pub struct Empty {}
