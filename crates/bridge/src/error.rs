//! The crate's one error type.

use std::path::PathBuf;

use bua_protocol::ErrorCode;

/// Every failure of `bua-bridge`: the server, the client library, the DevTools client and `launch`.
///
/// [`Error::code`] maps each variant onto a SPEC §8 error code, so a front end (CLI, MCP) can always
/// report `{code, message}`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The bridge or the extension answered a request with an error (`{code, message}`, SPEC §8).
    #[error("{message}")]
    Remote {
        /// The protocol error code, e.g. `no_extension` or `invalid_action`.
        code: ErrorCode,
        /// The human-readable message, saying what to do next.
        message: String,
    },
    /// The bridge answered `hello` with `reject` (SPEC §2).
    #[error("the bridge refused the handshake ({}): {message}", code.as_str())]
    Rejected {
        /// `unauthorized`, `protocol_version_mismatch` or `invalid_action`.
        code: ErrorCode,
        /// The bridge's explanation.
        message: String,
    },
    /// A file or socket operation failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done, e.g. "reading token file /home/u/.config/bua/token".
        context: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Nothing accepted a TCP connection at the bridge's URL (connection refused, host or network
    /// unreachable, name not resolved): no bridge runs there. Reported to CLI users with the
    /// client-side code [`BRIDGE_UNREACHABLE`].
    #[error("no bridge at {url} ({source}): start it with `bua-bridge serve` (or `bua-bridge launch`), or point --port/--url at the running one")]
    Unreachable {
        /// The `ws://` URL tried, e.g. `ws://127.0.0.1:9225`.
        url: String,
        /// Why the connection failed.
        #[source]
        source: std::io::Error,
    },
    /// The WebSocket transport failed (connect, upgrade refused, read or write).
    #[error("WebSocket: {0}")]
    WebSocket(#[from] Box<tokio_tungstenite::tungstenite::Error>),
    /// A URL or endpoint given by the user could not be used.
    #[error("invalid endpoint {input:?}: {reason}")]
    InvalidEndpoint {
        /// What the user gave.
        input: String,
        /// Why it is not usable.
        reason: String,
    },
    /// The peer sent something the protocol does not allow at this point.
    #[error("unexpected message from {peer}: {detail}")]
    UnexpectedMessage {
        /// "bridge", "DevTools", …
        peer: &'static str,
        /// What was wrong.
        detail: String,
    },
    /// The connection to the bridge closed after the request went out and before its answer.
    #[error("connection closed: {0}")]
    Closed(String),
    /// The connection to the bridge closed before the request went out: the bridge never saw it,
    /// so it may be sent again (SPEC §9, "Takeover").
    #[error("the request was not sent, the connection to the bridge closed first: {0}")]
    NotSent(String),
    /// The bridge went away while an action that changes the page was in flight: it may or may not
    /// have run, so it is not sent again (SPEC §9, "Takeover"). Reported as `timeout`.
    #[error("the bridge went away while `{method}` was in flight ({why}): its outcome is unknown; call extract to see the page before doing it again")]
    OutcomeUnknown {
        /// The action, e.g. `click`.
        method: String,
        /// Why the connection ended.
        why: String,
    },
    /// Waiting for something took longer than allowed.
    #[error("timed out after {ms} ms waiting for {what}")]
    Timeout {
        /// What was awaited.
        what: String,
        /// The limit, in milliseconds.
        ms: u64,
    },
    /// The pairing token file could not be read, created or trusted.
    #[error("token file {}: {reason}", path.display())]
    Token {
        /// The token file.
        path: PathBuf,
        /// What is wrong and what to do.
        reason: String,
    },
    /// A DevTools (CDP) command answered with an error.
    #[error("DevTools {method}: {message}")]
    DevTools {
        /// The CDP method, e.g. `Target.attachToTarget`.
        method: String,
        /// The CDP error message or JS exception text.
        message: String,
    },
    /// The person's secrets file cannot be used (SPEC §4 "Secrets"); the message says how to fix it.
    #[error("{0}")]
    Secrets(String),
    /// `launch` could not start or pair the browser.
    #[error("launch: {0}")]
    Launch(String),
    /// The MCP server (`bua-bridge mcp`) could not start or serve stdio.
    #[error("MCP: {0}")]
    Mcp(String),
    /// `install`, `uninstall`, `extension` or `doctor` could not do its job; the message says what to do.
    #[error("{0}")]
    Install(String),
    /// JSON (de)serialisation failed.
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// The code a front end (CLI `{"code","error"}`, MCP tool error) reports for [`Error::Unreachable`].
/// It is client-side only: the bridge never sends it, and it is not a SPEC §8 protocol code.
pub const BRIDGE_UNREACHABLE: &str = "bridge_unreachable";

/// The client library's error: a protocol `code` plus a message (see [`Error::code`]).
pub type ClientError = Error;

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The SPEC §8 code for this error: the remote code for [`Error::Remote`] and [`Error::Rejected`],
    /// `timeout` for [`Error::Timeout`], `internal_error` for local failures.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Remote { code, .. } | Error::Rejected { code, .. } => *code,
            // Like an action that timed out, it may or may not have happened.
            Error::Timeout { .. } | Error::OutcomeUnknown { .. } => ErrorCode::Timeout,
            _ => ErrorCode::InternalError,
        }
    }

    /// The code a front end reports: [`Error::code`], except [`BRIDGE_UNREACHABLE`] for
    /// [`Error::Unreachable`] (no protocol code fits: nothing answered at all) and for a bridge
    /// that went away ([`Error::Closed`], [`Error::NotSent`]): that is never `internal_error`.
    pub fn client_code(&self) -> &'static str {
        match self {
            Error::Unreachable { .. } | Error::Closed(_) | Error::NotSent(_) => BRIDGE_UNREACHABLE,
            other => other.code().as_str(),
        }
    }

    /// Whether nothing listens at the bridge's address (TCP connection refused): a bridge may be
    /// started there.
    pub fn is_connection_refused(&self) -> bool {
        matches!(self, Error::Unreachable { source, .. }
            if source.kind() == std::io::ErrorKind::ConnectionRefused)
    }

    /// Whether this is a failure to reach or keep a bridge (refused, reset, closed, handshake
    /// timed out) that another attempt a moment later may not have: the moment another process
    /// takes the port over (SPEC §9, "Takeover").
    pub fn is_bridge_gone(&self) -> bool {
        matches!(
            self,
            Error::Unreachable { .. }
                | Error::Closed(_)
                | Error::NotSent(_)
                | Error::WebSocket(_)
                | Error::Timeout { .. }
        )
    }

    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }
}

impl From<tokio_tungstenite::tungstenite::Error> for Error {
    fn from(e: tokio_tungstenite::tungstenite::Error) -> Self {
        Error::WebSocket(Box::new(e))
    }
}
