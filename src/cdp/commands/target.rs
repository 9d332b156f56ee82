//! `Target` commands: frame targets (SPEC §5 "Frames").

use crate::cdp::command::Empty;

command!(
    /// `Target.setAutoAttach`: attach to the target's child frames (out-of-process iframes) as flat sessions that
    /// `chrome.debugger` addresses as `{tabId, sessionId}`.
    pub struct TargetSetAutoAttach {
        /// Attach to existing and future children.
        pub auto_attach: bool,
        /// Whether new children wait for `Runtime.runIfWaitingForDebugger` (never: frames must not stall).
        pub wait_for_debugger_on_start: bool,
        /// Flat sessions (the only mode `chrome.debugger` supports).
        pub flatten: bool,
    } => "Target.setAutoAttach", Empty
);

command!(
    /// `Target.detachFromTarget`: lets go of a child we do not automate (workers).
    pub struct TargetDetachFromTarget {
        /// The child's session.
        pub session_id: String,
    } => "Target.detachFromTarget", Empty
);
