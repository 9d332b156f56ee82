//! The debugger controller: attaches `chrome.debugger` (CDP 1.3) to tabs, sends typed commands with timeouts,
//! and routes CDP events to whoever waits for them.
//!
//! Attachment is idempotent and tracked in memory (`ATTACHED`). After a service-worker restart the set is empty
//! while Chrome still holds our attachment; an attach then answers "Another debugger is already attached", which
//! [`ensure_attached`] treats as ours when `chrome.debugger.getTargets` says the extension is the one attached.

pub mod events;
pub mod lock;

use crate::chrome::debugger;
use crate::error::{Error, Result};
use futures::future::{select, Either};
use gloo_timers::future::TimeoutFuture;
use std::cell::RefCell;
use std::collections::HashSet;
use std::future::Future;

thread_local! {
    static ATTACHED: RefCell<HashSet<i64>> = RefCell::new(HashSet::new());
}

/// Default time a single CDP command may take before it fails with `timeout` (ms).
pub const COMMAND_TIMEOUT_MS: u32 = 10_000;

/// Whether this worker believes the debugger is attached to `tab_id`.
pub fn is_attached(tab_id: i64) -> bool {
    ATTACHED.with(|a| a.borrow().contains(&tab_id))
}

/// Tabs this worker has attached to.
pub fn attached_tabs() -> Vec<i64> {
    ATTACHED.with(|a| a.borrow().iter().copied().collect())
}

/// Attaches the debugger to `tab_id` unless attached, then enables the domains every action relies on
/// (`Page`, `Runtime`) and installs the `navigator.webdriver === false` script (SPEC §7).
pub async fn ensure_attached(tab_id: i64) -> Result<()> {
    if is_attached(tab_id) {
        return Ok(());
    }
    match debugger::attach(tab_id).await {
        Ok(()) => {}
        Err(message) if message.contains("Another debugger is already attached") => {
            // Ours from before a worker restart, or someone else's (then commands fail visibly below).
            crate::log::info(&format!(
                "tab {tab_id}: re-using an existing debugger attachment"
            ));
        }
        Err(message) if message.contains("No tab with given id") => {
            return Err(crate::chrome::tabs::not_found(tab_id));
        }
        Err(message) => return Err(debugger::attach_error(tab_id, &message)),
    }
    ATTACHED.with(|a| a.borrow_mut().insert(tab_id));
    if let Err(e) = prepare(tab_id).await {
        forget(tab_id);
        return Err(e);
    }
    Ok(())
}

async fn prepare(tab_id: i64) -> Result<()> {
    send(tab_id, "Page.enable", serde_json::json!({})).await?;
    send(tab_id, "Runtime.enable", serde_json::json!({})).await?;
    send(
        tab_id,
        "Page.addScriptToEvaluateOnNewDocument",
        serde_json::json!({
            "source": "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });"
        }),
    )
    .await?;
    // Pages in the minimized agent window would otherwise count as unfocused and hidden (SPEC §6).
    let _ = send(
        tab_id,
        "Emulation.setFocusEmulationEnabled",
        serde_json::json!({ "enabled": true }),
    )
    .await;
    // The current document was created before the script was installed.
    let _ = send(
        tab_id,
        "Runtime.evaluate",
        serde_json::json!({
            "expression": "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true }); 0"
        }),
    )
    .await;
    Ok(())
}

/// Forgets the attachment (called first on `onDetach`, before any other cleanup: the v3 hang bug).
pub fn forget(tab_id: i64) {
    ATTACHED.with(|a| a.borrow_mut().remove(&tab_id));
    events::tab_gone(tab_id);
}

/// Detaches from `tab_id`; idempotent (the in-memory set is cleared first, errors are ignored).
pub async fn detach(tab_id: i64) {
    let was = is_attached(tab_id);
    forget(tab_id);
    if was {
        let _ = debugger::detach(tab_id).await;
    }
}

/// Sends one CDP command with the default timeout. CDP errors become `internal_error` with CDP's message,
/// except a detached target (or a closed tab), which is `session_not_found`.
pub async fn send(
    tab_id: i64,
    method: &str,
    params: serde_json::Value,
) -> Result<serde_json::Value> {
    send_with_timeout(tab_id, method, params, COMMAND_TIMEOUT_MS).await
}

/// [`send`] with an explicit timeout in ms.
pub async fn send_with_timeout(
    tab_id: i64,
    method: &str,
    params: serde_json::Value,
    timeout_ms: u32,
) -> Result<serde_json::Value> {
    let call = debugger::send_command(tab_id, method, &params);
    match with_timeout(timeout_ms, call).await {
        Some(Ok(v)) => Ok(v),
        Some(Err(message)) => Err(command_error(tab_id, method, &message)),
        None => Err(Error::Timeout(format!(
            "CDP {method} on tab {tab_id} did not answer within {timeout_ms} ms"
        ))),
    }
}

fn command_error(tab_id: i64, method: &str, message: &str) -> Error {
    if message.contains("Debugger is not attached")
        || message.contains("No tab with given id")
        || message.contains("Detached while handling command")
    {
        forget(tab_id);
        // The dispatcher tells a closed tab (`tab_not_found`) from a detach on a tab that is still there.
        return Error::SessionNotFound(format!(
            "the debugger was detached from tab {tab_id} during {method}; call get_tabs to check the tab \
             before acting on it again"
        ));
    }
    Error::Internal(format!("CDP {method} failed on tab {tab_id}: {message}"))
}

/// Runs `future` for at most `ms`; `None` when the time ran out.
pub async fn with_timeout<T>(ms: u32, future: impl Future<Output = T>) -> Option<T> {
    let future = std::pin::pin!(future);
    match select(future, TimeoutFuture::new(ms)).await {
        Either::Left((value, _)) => Some(value),
        Either::Right(_) => None,
    }
}

/// Sleeps `ms` milliseconds.
pub async fn sleep(ms: u32) {
    TimeoutFuture::new(ms).await;
}
