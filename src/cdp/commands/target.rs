//! `Target` commands: frame targets (SPEC §5 "Frames").

use crate::cdp::command::Empty;
use serde::Serialize;

/// `Target.setAutoAttach`: attach to the target's child frames (out-of-process iframes) as flat sessions that
/// `chrome.debugger` addresses as `{tabId, sessionId}`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetSetAutoAttach {
    /// Attach to existing and future children.
    pub auto_attach: bool,
    /// Whether new children wait for `Runtime.runIfWaitingForDebugger` (never: frames must not stall).
    pub wait_for_debugger_on_start: bool,
    /// Flat sessions (the only mode `chrome.debugger` supports).
    pub flatten: bool,
}
command!(TargetSetAutoAttach => "Target.setAutoAttach", Empty);

/// `Target.detachFromTarget`: lets go of a child we do not automate (workers).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetDetachFromTarget {
    /// The child's session.
    pub session_id: String,
}
command!(TargetDetachFromTarget => "Target.detachFromTarget", Empty);
