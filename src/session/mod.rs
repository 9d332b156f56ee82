//! Sessions (SPEC §6, the session model): bookkeeping of debugger attachment and audit, keyed by tabId.
//!
//! PROVISIONAL: the minimal surface the dispatcher needs; the session issue replaces it with the real manager
//! (storage + write lock, events, blocklist, end reasons, cleanup).

use crate::error::{Error, Result};
use std::future::Future;

/// Resolves the tab an action targets: the explicit `tabId`, else the only candidate (SPEC §6).
pub async fn resolve_tab(_owner: &str, tab_id: Option<i64>) -> Result<i64> {
    match tab_id {
        Some(id) => Ok(id),
        None => {
            let tabs = crate::chrome::tabs::query(
                &serde_json::json!({ "active": true, "lastFocusedWindow": true }),
            )
            .await?;
            tabs.first().and_then(|t| t.id).ok_or_else(|| {
                Error::SessionNotFound(
                    "no tab to act on; pass tabId (see get_tabs) or call open_tab".into(),
                )
            })
        }
    }
}

/// Fails with `domain_blocked` when `url`'s host is on the blocklist.
pub async fn check_url_allowed(_url: &str, _tab_id: Option<i64>) -> Result<()> {
    Ok(())
}

/// Creates or reuses the session of `tab_id`.
pub async fn ensure_session(_tab_id: i64, _url: &str, _owner: &str) -> Result<()> {
    Ok(())
}

/// Runs a handler; fails it with `session_not_found` if the tab's session ends meanwhile.
pub async fn run_in_flight<T>(_tab_id: i64, f: impl Future<Output = Result<T>>) -> Result<T> {
    f.await
}

/// Counts one action on the tab's session.
pub async fn record_action(_tab_id: i64) {}

/// Whether the tab has an active session.
pub async fn has_session(_tab_id: i64) -> bool {
    false
}
