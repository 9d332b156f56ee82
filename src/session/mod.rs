//! Sessions (SPEC §6): bookkeeping of debugger attachment and audit, keyed by tabId.
//!
//! A session is created by the first action on a tab (or by `open_tab`), and ends for one of seven reasons, all
//! through one cleanup path ([`end_session_by_tab`], [`end_all_sessions`], [`end_all_sessions_for_domain`]):
//! detach the debugger (idempotent; the in-memory attached set is cleared first, so that no later action
//! believes a detached tab is still attached and skips the attach), fail the tab's in-flight actions with
//! `session_not_found`, close the tab if the agent opened it and its agent window if that is left empty, and
//! emit `session_ended` on the bus.
//!
//! * State: `chrome.storage.local` `activeSessions` (`[Session]`, see [`model::Session`]); every mutation goes
//!   through the write lock of [`crate::store`].
//! * Events: [`bus`]; subscribers are the audit log ([`history`]) and, one layer up, the bridge's forwarder
//!   (`crate::bridge::forward`), which subscribes itself.
//! * Triggers: `tabs.onRemoved` → `tab_closed`; `debugger.onDetach` (not `target_closed`) → `user_stopped`;
//!   `chrome.idle` → [`idle`]; blocklist change → `domain_blocked`; main-frame navigation of a session tab onto
//!   a blocked host (`tabs.onUpdated` and CDP `Page.frameNavigated`, so redirects are caught) → `domain_blocked`;
//!   Stop all → `global_stop`; worker start → [`reconcile`].
//! * The operations themselves: [`manager`]; the popup/options API over them is `crate::api`.
//!
//! Inside the module the order is `model → bus → history, recent, netrules → inflight, idle → manager`; the children
//! name each other, never this file.

pub mod bus;
pub mod history;
pub mod idle;
pub mod inflight;
pub mod manager;
pub mod model;
pub mod netrules;
pub mod recent;

pub use bus::SessionEvent;
pub use manager::{
    check_navigated_since, check_tab_allowed, check_tab_owner, check_url_allowed, end_all_sessions,
    end_all_sessions_for_domain, end_session_blocked, end_session_by_tab, enforce_blocklist,
    ensure_session, forget_tab, has_session, navigations, on_debugger_detach,
    on_idle_state_changed, on_navigated, on_tab_removed, open_agent_tab, ready, reconcile,
    record_action, resolve_tab, run_in_flight, session, sessions, start, start_agent_session,
    SESSIONS_KEY, WORKER_MARK_KEY,
};
pub use model::{Session, SessionOwner};
