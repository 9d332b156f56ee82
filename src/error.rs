//! The extension's one error type. Every variant maps 1:1 onto a protocol error code (SPEC §8), so an error
//! raised anywhere in a handler reaches the bridge with the right `code` and a message that says what to do next.

use bua_protocol::{ErrorBody, ErrorCode};
use wasm_bindgen::JsValue;

/// `Result` with the extension's [`Error`] as the default error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A failure of one action (or of the machinery under it), with its protocol code.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    DomainBlocked(String),
    #[error("{0}")]
    SessionNotFound(String),
    #[error("{0}")]
    TabNotFound(String),
    #[error("{0}")]
    ElementNotFound(String),
    #[error("{0}")]
    ElementStale(String),
    #[error("{0}")]
    ElementObstructed(String),
    #[error("{0}")]
    Timeout(String),
    /// The URL's host name does not resolve (DNS), SPEC §8 `host_not_found`.
    #[error("{0}")]
    HostNotFound(String),
    #[error("{0}")]
    DebuggerAttachFailed(String),
    #[error("{0}")]
    InvalidAction(String),
    /// The person's settings refuse it (SPEC §8 `not_allowed`).
    #[error("{0}")]
    NotAllowed(String),
    /// A Chrome API or CDP call failed in a way the caller cannot act on.
    #[error("{0}")]
    Internal(String),
}

impl Error {
    /// The protocol error code of SPEC §8.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::DomainBlocked(_) => ErrorCode::DomainBlocked,
            Error::SessionNotFound(_) => ErrorCode::SessionNotFound,
            Error::TabNotFound(_) => ErrorCode::TabNotFound,
            Error::ElementNotFound(_) => ErrorCode::ElementNotFound,
            Error::ElementStale(_) => ErrorCode::ElementStale,
            Error::ElementObstructed(_) => ErrorCode::ElementObstructed,
            Error::Timeout(_) => ErrorCode::Timeout,
            Error::HostNotFound(_) => ErrorCode::HostNotFound,
            Error::DebuggerAttachFailed(_) => ErrorCode::DebuggerAttachFailed,
            Error::InvalidAction(_) => ErrorCode::InvalidAction,
            Error::NotAllowed(_) => ErrorCode::NotAllowed,
            Error::Internal(_) => ErrorCode::InternalError,
        }
    }

    /// The wire shape `{code, message}`.
    pub fn to_body(&self) -> ErrorBody {
        ErrorBody::new(self.code(), self.to_string())
    }

    /// The same error with `note` appended to its message (`"…; note"`).
    pub fn with_note(mut self, note: &str) -> Self {
        let message = match &mut self {
            Error::DomainBlocked(m)
            | Error::SessionNotFound(m)
            | Error::TabNotFound(m)
            | Error::ElementNotFound(m)
            | Error::ElementStale(m)
            | Error::ElementObstructed(m)
            | Error::Timeout(m)
            | Error::HostNotFound(m)
            | Error::DebuggerAttachFailed(m)
            | Error::InvalidAction(m)
            | Error::NotAllowed(m)
            | Error::Internal(m) => m,
        };
        let trimmed = message.trim_end().trim_end_matches('.').to_owned();
        *message = format!("{trimmed}; {note}");
        self
    }

    /// Turns a rejected Chrome API promise or thrown JS value into an [`Error::Internal`] with its message.
    pub fn from_js(context: &str, value: &JsValue) -> Self {
        Error::Internal(format!("{context}: {}", js_message(value)))
    }
}

impl From<ErrorBody> for Error {
    fn from(body: ErrorBody) -> Self {
        let m = body.message;
        match body.code {
            ErrorCode::DomainBlocked => Error::DomainBlocked(m),
            ErrorCode::SessionNotFound => Error::SessionNotFound(m),
            ErrorCode::TabNotFound => Error::TabNotFound(m),
            ErrorCode::ElementNotFound => Error::ElementNotFound(m),
            ErrorCode::ElementStale => Error::ElementStale(m),
            ErrorCode::ElementObstructed => Error::ElementObstructed(m),
            ErrorCode::Timeout => Error::Timeout(m),
            ErrorCode::HostNotFound => Error::HostNotFound(m),
            ErrorCode::DebuggerAttachFailed => Error::DebuggerAttachFailed(m),
            ErrorCode::InvalidAction => Error::InvalidAction(m),
            ErrorCode::NotAllowed => Error::NotAllowed(m),
            _ => Error::Internal(m),
        }
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Internal(format!("JSON: {e}"))
    }
}

impl From<serde_wasm_bindgen::Error> for Error {
    fn from(e: serde_wasm_bindgen::Error) -> Self {
        Error::Internal(format!("JS value conversion: {e}"))
    }
}

/// The human-readable message of a JS exception or rejection value (`Error.message`, else `String(value)`).
pub fn js_message(value: &JsValue) -> String {
    if let Some(s) = value.as_string() {
        return s;
    }
    if let Ok(m) = js_sys::Reflect::get(value, &JsValue::from_str("message")) {
        if let Some(s) = m.as_string() {
            return s;
        }
    }
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "unknown JavaScript error".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_appended_to_the_message_and_the_code_kept() {
        let e = Error::Timeout("x.test did not answer. Retry at most once.".into())
            .with_note("the tab opened for it was closed again");
        assert_eq!(e.code(), ErrorCode::Timeout);
        assert_eq!(
            e.to_string(),
            "x.test did not answer. Retry at most once; the tab opened for it was closed again"
        );
    }
}
