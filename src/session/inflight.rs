//! Actions in flight per tab, so that ending a session fails them at once with `session_not_found` instead of
//! letting them run on (or hang on) a tab whose debugger was just detached (SPEC §6 cleanup).

use crate::error::{Error, Result};
use bua_protocol::EndReason;
use futures::channel::oneshot;
use futures::future::{select, Either};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;

/// The actions in flight on one tab: registration id and the channel that cancels it.
type Waiting = Vec<(u64, oneshot::Sender<EndReason>)>;

thread_local! {
    static IN_FLIGHT: RefCell<HashMap<i64, Waiting>> = RefCell::new(HashMap::new());
    static NEXT: Cell<u64> = const { Cell::new(1) };
}

/// Removes the registration when the action finishes (or is dropped).
struct Registration {
    tab_id: i64,
    id: u64,
}

impl Drop for Registration {
    fn drop(&mut self) {
        IN_FLIGHT.with(|m| {
            let mut m = m.borrow_mut();
            if let Some(list) = m.get_mut(&self.tab_id) {
                list.retain(|(id, _)| *id != self.id);
                if list.is_empty() {
                    m.remove(&self.tab_id);
                }
            }
        });
    }
}

/// Runs `action` on `tab_id`; if the tab's session ends first, the action is dropped and fails with
/// `session_not_found` naming the end reason.
pub async fn run<T>(tab_id: i64, action: impl Future<Output = Result<T>>) -> Result<T> {
    let (tx, rx) = oneshot::channel();
    let id = NEXT.with(|n| n.replace(n.get() + 1));
    IN_FLIGHT.with(|m| m.borrow_mut().entry(tab_id).or_default().push((id, tx)));
    let _registration = Registration { tab_id, id };
    let action = std::pin::pin!(action);
    match select(action, rx).await {
        Either::Left((result, _)) => result,
        Either::Right((Ok(reason), _)) => Err(Error::SessionNotFound(format!(
            "the session on tab {tab_id} ended ({reason}) while the action ran; {}",
            next_step(reason)
        ))),
        // The sender was dropped without an end: cannot happen while registered; treat as ended.
        Either::Right((Err(_), _)) => Err(Error::SessionNotFound(format!(
            "the session on tab {tab_id} ended while the action ran; pass tabId to start a new one"
        ))),
    }
}

/// What the agent should do after its action was cut short by `reason`.
pub fn next_step(reason: EndReason) -> &'static str {
    match reason {
        EndReason::DomainBlocked => {
            "the tab is on a blocked domain: stop this plan, do not retry elsewhere"
        }
        EndReason::TabClosed => "the tab is gone: call get_tabs or open_tab",
        EndReason::UserStopped | EndReason::GlobalStop => {
            "the user stopped the agent: stop and report, do not retry"
        }
        EndReason::ScreenLocked | EndReason::SystemIdle => {
            "the user is away: stop and report, do not retry"
        }
        EndReason::ExtensionReload => "the extension restarted: pass tabId to start a new session",
    }
}

/// Fails every action in flight on `tab_id` with `reason`; returns how many there were.
pub fn fail(tab_id: i64, reason: EndReason) -> usize {
    let list = IN_FLIGHT.with(|m| m.borrow_mut().remove(&tab_id).unwrap_or_default());
    let n = list.len();
    for (_, tx) in list {
        let _ = tx.send(reason);
    }
    n
}
