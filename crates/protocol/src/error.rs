//! Error codes and the `{code, message}` error body shared by every message (SPEC §8).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Every error code of the protocol (SPEC §8), `snake_case` on the wire.
///
/// None of them means "retry as is": [`ErrorCode::advice`] says what the caller should do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The tab's URL or the target URL is on the user's blocklist. Terminal.
    DomainBlocked,
    /// No session could be chosen for the omitted `tabId` (or the session ended mid-action).
    SessionNotFound,
    /// The given `tabId` does not exist.
    TabNotFound,
    /// The locator matched nothing in the current document.
    ElementNotFound,
    /// The `uid` was valid for an earlier `extract` but the page changed since.
    ElementStale,
    /// Another element covers the click point; the message names it.
    ElementObstructed,
    /// The action did not finish within its timeout (SPEC §4 timeout column).
    Timeout,
    /// `navigate`/`open_tab`: the URL's host name does not resolve (DNS). Not transient like `timeout`:
    /// the host name is wrong, or the network has no name service.
    HostNotFound,
    /// `chrome.debugger.attach` failed (another debugger, or a page that cannot be debugged).
    DebuggerAttachFailed,
    /// The action or frame failed validation, or an `evaluate` expression threw.
    InvalidAction,
    /// A bug or an unexpected browser failure.
    InternalError,
    /// Handshake only: the peer's protocol version is outside the accepted range.
    ProtocolVersionMismatch,
    /// Handshake only: missing or wrong pairing token.
    Unauthorized,
    /// Bridge → client only: no extension is connected to the bridge.
    NoExtension,
    /// The person's settings refuse this action here: a switched-off action (`evaluate`, `upload`), a
    /// secret typed outside its origins, a site outside the allowlist (SPEC §4 "Secrets", §10). Terminal.
    NotAllowed,
}

const ALL_CODES: [ErrorCode; 15] = [
    ErrorCode::DomainBlocked,
    ErrorCode::SessionNotFound,
    ErrorCode::TabNotFound,
    ErrorCode::ElementNotFound,
    ErrorCode::ElementStale,
    ErrorCode::ElementObstructed,
    ErrorCode::Timeout,
    ErrorCode::HostNotFound,
    ErrorCode::DebuggerAttachFailed,
    ErrorCode::InvalidAction,
    ErrorCode::InternalError,
    ErrorCode::ProtocolVersionMismatch,
    ErrorCode::Unauthorized,
    ErrorCode::NoExtension,
    ErrorCode::NotAllowed,
];

impl ErrorCode {
    /// The wire spelling, e.g. `"element_stale"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            ErrorCode::DomainBlocked => "domain_blocked",
            ErrorCode::SessionNotFound => "session_not_found",
            ErrorCode::TabNotFound => "tab_not_found",
            ErrorCode::ElementNotFound => "element_not_found",
            ErrorCode::ElementStale => "element_stale",
            ErrorCode::ElementObstructed => "element_obstructed",
            ErrorCode::Timeout => "timeout",
            ErrorCode::HostNotFound => "host_not_found",
            ErrorCode::DebuggerAttachFailed => "debugger_attach_failed",
            ErrorCode::InvalidAction => "invalid_action",
            ErrorCode::InternalError => "internal_error",
            ErrorCode::ProtocolVersionMismatch => "protocol_version_mismatch",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::NoExtension => "no_extension",
            ErrorCode::NotAllowed => "not_allowed",
        }
    }

    /// Parses the wire spelling; `None` for an unknown code.
    pub fn from_wire(s: &str) -> Option<ErrorCode> {
        ALL_CODES.iter().copied().find(|c| c.as_str() == s)
    }

    /// Every code, in the order of SPEC §8.
    pub fn all() -> &'static [ErrorCode] {
        &ALL_CODES
    }

    /// A one-line "what to do next" for the agent (the error contract of SPEC §8),
    /// used in docs and in the MCP tool description.
    pub fn advice(&self) -> &'static str {
        match self {
            ErrorCode::DomainBlocked => {
                "Terminal: the user blocked this site; do not retry it at all; tell the user."
            }
            ErrorCode::SessionNotFound => {
                "Several tabs could be meant, or the session ended: pass the tabId from open_tab or get_tabs."
            }
            ErrorCode::TabNotFound => "The tab is gone: get_tabs, or open_tab again.",
            ErrorCode::ElementNotFound => {
                "Nothing matches the locator now: extract and pick a new target."
            }
            ErrorCode::ElementStale => {
                "The page changed since the last extract: extract again, use the new uid."
            }
            ErrorCode::ElementObstructed => {
                "Another element (named in the message) covers the target: close or scroll past it, then retry."
            }
            ErrorCode::Timeout => {
                "Retry only if transient (slow load), best after wait_for; else change the plan."
            }
            ErrorCode::HostNotFound => {
                "The host does not resolve (DNS): fix the URL, do not retry it as is; if it is surely right, the \
                 network is down: tell the user."
            }
            ErrorCode::DebuggerAttachFailed => {
                "The tab cannot be controlled (another debugger, a browser page): use another tab or ask the user."
            }
            ErrorCode::InvalidAction => {
                "Fix the field the message names (or evaluate's expression)."
            }
            ErrorCode::InternalError => "Unexpected: report it; try another approach at most once.",
            ErrorCode::ProtocolVersionMismatch => {
                "Extension, bridge and client speak different protocol versions: ask the user to upgrade the older one."
            }
            ErrorCode::Unauthorized => {
                "The bridge refused the pairing token: ask the user to give this client or the extension the \
                 bridge's token (the message says where it is)."
            }
            ErrorCode::NoExtension => {
                "No extension is connected to the bridge (it already waited): ask the user to open Chrome with the \
                 BUA extension paired to this bridge."
            }
            ErrorCode::NotAllowed => "Terminal: the user forbade it; tell the user.",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error shape everywhere (`response.error`, `reject.error`): `{"code":"…","message":"…"}` (SPEC §8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ErrorBody {
    /// The machine-readable code.
    pub code: ErrorCode,
    /// A human-readable message that says what to do next.
    pub message: String,
}

impl ErrorBody {
    /// An error with the given code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ErrorBody {
            code,
            message: message.into(),
        }
    }

    /// An `invalid_action` error; the message should name the offending field.
    pub fn invalid(message: impl Into<String>) -> Self {
        ErrorBody::new(ErrorCode::InvalidAction, message)
    }
}
