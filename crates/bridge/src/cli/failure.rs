//! A client subcommand's failure as it is printed: `{"code","error"}`, with SPEC §8's codes plus
//! the client-side [`BRIDGE_UNREACHABLE`].

use serde_json::{json, Value};

use crate::error::Error;
pub use crate::error::BRIDGE_UNREACHABLE;

/// A failure as the CLI prints it: `{"code":"…","error":"…"}`, exit status 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The SPEC §8 error code (`no_extension`, `invalid_action`, …), or the client-side
    /// [`BRIDGE_UNREACHABLE`].
    pub code: String,
    /// What went wrong and what to do.
    pub message: String,
}

impl Failure {
    /// An `invalid_action` failure (bad arguments).
    pub fn invalid(message: impl Into<String>) -> Self {
        Failure {
            code: "invalid_action".into(),
            message: message.into(),
        }
    }

    /// The JSON printed for it.
    pub fn to_json(&self) -> Value {
        json!({"code": self.code, "error": self.message})
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure {
            code: e.client_code().into(),
            message: e.to_string(),
        }
    }
}
