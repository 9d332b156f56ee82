//! A failed CDP command as a typed error: the method, CDP's error code when Chrome gave one, its message, and
//! what the failure means for the caller ([`Failure`]).
//!
//! `chrome.debugger.sendCommand` rejects with text. For a protocol error that text is the JSON of CDP's error
//! object (`{"code":-32000,"message":"No dialog is showing"}`); for a failure of `chrome.debugger` itself
//! (no attachment, no such tab) it is a plain sentence. Most CDP failures share the generic server-error code
//! -32000, so what a failure means can only be read from the message: [`Failure::classify`] is the one place
//! that reads it.

use crate::error::Error;

/// What a failed command (or attach) means for the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The debugger is not (or no longer) attached to the tab: detached by the user, by Chrome, or during the
    /// command.
    NotAttached,
    /// The tab does not exist (any more).
    NoTab,
    /// An attach found another debugger attached — ours from before a service-worker restart, or someone
    /// else's.
    AlreadyAttached,
    /// The page's JavaScript context went away under the command (the page navigated, a frame was replaced).
    ContextGone,
    /// The DOM node named by the command is gone (removed from the document, or no node there).
    NodeGone,
    /// `DOM.getContentQuads`: the node has no box to compute quads of.
    NoContentQuads,
    /// `DOM.focus`: the element cannot take the keyboard focus.
    NotFocusable,
    /// `Page.handleJavaScriptDialog`: no dialog is showing (someone answered it first).
    NoDialog,
    /// Right after a commit the new page is not active yet (`Page.resetNavigationHistory`).
    PageNotActive,
    /// A frame's flat session is gone (the frame navigated to another site or was removed) while the tab's
    /// debugger stays attached.
    FrameGone,
    /// The command did not answer in time.
    Timeout,
    /// Anything else: a refusal the caller cannot act on.
    Other,
}

impl Failure {
    /// What Chrome's `message` says. Chrome gives these only as text (see the module doc), so the fragments
    /// below are matched here and nowhere else; they are Chromium's own wording, kept verbatim.
    pub fn classify(message: &str) -> Failure {
        const CONTEXT_GONE: [&str; 5] = [
            "Cannot find context with specified id",
            "Could not find object with given id",
            "Execution context was destroyed",
            "Cannot find default execution context",
            "Inspected target navigated or closed",
        ];
        if message.contains("Debugger is not attached")
            || message.contains("Detached while handling command")
        {
            Failure::NotAttached
        } else if message.contains("No session with given id")
            || message.contains("Session with given id not found")
        {
            Failure::FrameGone
        } else if message.contains("No tab with given id") {
            Failure::NoTab
        } else if message.contains("Another debugger is already attached") {
            Failure::AlreadyAttached
        } else if CONTEXT_GONE.iter().any(|p| message.contains(p)) {
            Failure::ContextGone
        } else if message.contains("Could not compute content quads") {
            Failure::NoContentQuads
        } else if message.contains("detached") || message.contains("No node") {
            Failure::NodeGone
        } else if message.contains("not focusable") {
            Failure::NotFocusable
        } else if message.contains("No dialog") {
            Failure::NoDialog
        } else if message.contains("Not attached to an active page") {
            Failure::PageNotActive
        } else {
            Failure::Other
        }
    }

    /// Whether the debugger or the tab is gone (the action cannot go on on this tab).
    pub fn is_target_gone(self) -> bool {
        matches!(self, Failure::NotAttached | Failure::NoTab)
    }
}

/// One failed CDP command on a tab.
#[derive(Clone, Debug, PartialEq)]
pub struct CdpError {
    /// The CDP method, e.g. `"DOM.focus"`.
    pub method: &'static str,
    /// The tab the command was sent to.
    pub tab_id: i64,
    /// CDP's error code (`-32000` for most), when Chrome gave one.
    pub code: Option<i64>,
    /// CDP's (or `chrome.debugger`'s) message.
    pub message: String,
    /// What it means.
    pub failure: Failure,
}

impl CdpError {
    /// The failure of `method` on `tab_id` from the text `chrome.debugger` rejected with.
    pub fn from_chrome(method: &'static str, tab_id: i64, text: &str) -> CdpError {
        #[derive(serde::Deserialize)]
        struct Body {
            code: i64,
            message: String,
        }
        let (code, message) = match serde_json::from_str::<Body>(text) {
            Ok(body) => (Some(body.code), body.message),
            Err(_) => (None, text.to_owned()),
        };
        CdpError {
            method,
            tab_id,
            code,
            failure: Failure::classify(&message),
            message,
        }
    }

    /// `method` did not answer on `tab_id` within `timeout_ms`.
    pub fn timeout(method: &'static str, tab_id: i64, timeout_ms: u32) -> CdpError {
        CdpError {
            method,
            tab_id,
            code: None,
            message: format!("did not answer within {timeout_ms} ms"),
            failure: Failure::Timeout,
        }
    }

    /// `method` answered something that does not have the documented shape.
    pub fn malformed(method: &'static str, tab_id: i64, error: &serde_json::Error) -> CdpError {
        CdpError {
            method,
            tab_id,
            code: None,
            message: format!("unexpected answer: {error}"),
            failure: Failure::Other,
        }
    }
}

impl std::fmt::Display for CdpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (method, tab_id) = (self.method, self.tab_id);
        match self.failure {
            Failure::Timeout => write!(f, "CDP {method} on tab {tab_id} {}", self.message),
            Failure::FrameGone => write!(
                f,
                "the frame went away on tab {tab_id} during {method} (it navigated or was removed); call \
                 extract again and use a fresh uid"
            ),
            // The dispatcher tells a closed tab (`tab_not_found`) from a detach on a tab that is still there.
            f_ if f_.is_target_gone() => write!(
                f,
                "the debugger was detached from tab {tab_id} during {method}; call get_tabs to check the tab \
                 before acting on it again"
            ),
            // CDP's message last: callers that show the agent only the reason take what follows the colon.
            _ => write!(f, "CDP {method} failed on tab {tab_id}: {}", self.message),
        }
    }
}

impl std::error::Error for CdpError {}

/// A timeout is `timeout`, a detached debugger or a closed tab `session_not_found`, anything else
/// `internal_error` (SPEC §8), each with the [`CdpError`]'s message.
impl From<CdpError> for Error {
    fn from(e: CdpError) -> Error {
        match e.failure {
            Failure::Timeout => Error::Timeout(e.to_string()),
            Failure::FrameGone => Error::ElementStale(e.to_string()),
            f if f.is_target_gone() => Error::SessionNotFound(e.to_string()),
            _ => Error::Internal(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bua_protocol::ErrorCode;

    #[test]
    fn a_protocol_error_keeps_cdp_code_and_message_and_is_classified() {
        let e = CdpError::from_chrome(
            "DOM.focus",
            7,
            r#"{"code":-32000,"message":"Element is not focusable"}"#,
        );
        assert_eq!(e.code, Some(-32000));
        assert_eq!(e.message, "Element is not focusable");
        assert_eq!(e.failure, Failure::NotFocusable);
        let error = Error::from(e);
        assert_eq!(error.code(), ErrorCode::InternalError);
        assert_eq!(
            error.to_string(),
            "CDP DOM.focus failed on tab 7: Element is not focusable"
        );
    }

    #[test]
    fn chrome_debugger_text_without_code_is_classified_and_a_detach_is_session_not_found() {
        let e = CdpError::from_chrome(
            "Page.navigate",
            3,
            "Debugger is not attached to the tab with id: 3.",
        );
        assert_eq!((e.code, e.failure), (None, Failure::NotAttached));
        let error = Error::from(e);
        assert_eq!(error.code(), ErrorCode::SessionNotFound);
        assert!(error.to_string().contains("get_tabs"), "{error}");
        assert_eq!(Failure::classify("No tab with given id 3."), Failure::NoTab);
        assert_eq!(
            Failure::classify("Another debugger is already attached to the tab with id: 3."),
            Failure::AlreadyAttached
        );
    }

    #[test]
    fn fragments_map_to_their_failure() {
        for (message, failure) in [
            (
                "Cannot find context with specified id",
                Failure::ContextGone,
            ),
            ("Could not find object with given id", Failure::ContextGone),
            ("Execution context was destroyed.", Failure::ContextGone),
            ("Could not compute content quads.", Failure::NoContentQuads),
            ("Node is detached from document", Failure::NodeGone),
            ("No node found at given location", Failure::NodeGone),
            ("No dialog is showing", Failure::NoDialog),
            ("Not attached to an active page", Failure::PageNotActive),
            ("Internal error", Failure::Other),
        ] {
            assert_eq!(Failure::classify(message), failure, "{message}");
        }
    }

    #[test]
    fn a_timeout_is_timeout_naming_method_and_budget() {
        let error = Error::from(CdpError::timeout("Page.reload", 4, 10_000));
        assert_eq!(error.code(), ErrorCode::Timeout);
        assert_eq!(
            error.to_string(),
            "CDP Page.reload on tab 4 did not answer within 10000 ms"
        );
    }
}
