//! Actions in flight per tab, so that ending a session fails them at once with `session_not_found` instead of
//! letting them run on (or hang on) a tab whose debugger was just detached (SPEC §6 cleanup). A session that
//! ended because its tab closed fails them with `tab_not_found` instead: the tab, not the session, is what
//! the agent has to replace (SPEC §8).

use crate::error::{Error, Result};
use bua_protocol::EndReason;
use futures::channel::oneshot;
use futures::future::{select, Either};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;

/// The actions in flight on one tab: registration id and the channel that cancels it with its error.
type Waiting = Vec<(u64, oneshot::Sender<Error>)>;

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
/// [`ended`]'s error.
pub async fn run<T>(tab_id: i64, action: impl Future<Output = Result<T>>) -> Result<T> {
    let (tx, rx) = oneshot::channel();
    let id = NEXT.with(|n| n.replace(n.get() + 1));
    IN_FLIGHT.with(|m| m.borrow_mut().entry(tab_id).or_default().push((id, tx)));
    let _registration = Registration { tab_id, id };
    let action = std::pin::pin!(action);
    match select(action, rx).await {
        Either::Left((result, _)) => result,
        Either::Right((Ok(error), _)) => Err(error),
        // The sender was dropped without an end: cannot happen while registered; treat as ended.
        Either::Right((Err(_), _)) => Err(Error::SessionNotFound(format!(
            "the session on tab {tab_id} ended while the action ran; call get_tabs before acting on it again"
        ))),
    }
}

/// The error of an action cut short on `tab_id` because its session ended for `reason`: `tab_not_found` when
/// the tab closed, `domain_blocked` (terminal, SPEC §6) when the tab reached a blocked domain, else
/// `session_not_found` naming the reason; all say what to do next.
pub fn ended(tab_id: i64, reason: EndReason) -> Error {
    match reason {
        EndReason::TabClosed => Error::TabNotFound(format!(
            "tab {tab_id} was closed while the action ran; {}",
            next_step(reason)
        )),
        EndReason::DomainBlocked => Error::DomainBlocked(format!(
            "the session on tab {tab_id} ended ({reason}) while the action ran; {}",
            next_step(reason)
        )),
        _ => Error::SessionNotFound(format!(
            "the session on tab {tab_id} ended ({reason}) while the action ran; {}",
            next_step(reason)
        )),
    }
}

/// What the agent should do after its action was cut short by `reason`.
pub fn next_step(reason: EndReason) -> &'static str {
    match reason {
        EndReason::DomainBlocked => {
            "the tab is on a blocked domain: stop this plan, do not retry elsewhere"
        }
        EndReason::TabClosed => "the tab is gone: call get_tabs to pick another tab, or open_tab",
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
    fail_ended(tab_id, reason, None)
}

/// Like [`fail`], with the remembered end (`end`, see [`super::recent`]) when there is one: its notice
/// (who ended the session, when, what to do) comes first in the message. A `domain_blocked` end fails them
/// with `domain_blocked` naming the blocked URL.
pub fn fail_ended(tab_id: i64, reason: EndReason, end: Option<&super::recent::RecentEnd>) -> usize {
    let list = IN_FLIGHT.with(|m| m.borrow_mut().remove(&tab_id).unwrap_or_default());
    let n = list.len();
    for (_, tx) in list {
        let error = match end {
            Some(end) if reason == EndReason::DomainBlocked => Error::DomainBlocked(end.notice()),
            Some(end) => {
                Error::SessionNotFound(format!("{} ({reason}, while the action ran)", end.notice()))
            }
            None => ended(tab_id, reason),
        };
        let _ = tx.send(error);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use bua_protocol::ErrorCode;
    use std::task::{Context, Poll, Waker};

    /// Polls `future` once on this thread.
    fn poll_once<F: Future>(future: std::pin::Pin<&mut F>) -> Poll<F::Output> {
        future.poll(&mut Context::from_waker(Waker::noop()))
    }

    /// An action that never finishes by itself (a `wait_for` on text that never comes).
    fn forever() -> impl Future<Output = Result<()>> {
        futures::future::pending()
    }

    #[test]
    fn closing_the_tab_fails_its_actions_in_flight_with_tab_not_found() {
        let mut action = Box::pin(run(41, forever()));
        assert!(poll_once(action.as_mut()).is_pending());
        assert_eq!(fail(41, EndReason::TabClosed), 1);
        let Poll::Ready(Err(e)) = poll_once(action.as_mut()) else {
            panic!("the action did not end with the tab");
        };
        assert_eq!(e.code(), ErrorCode::TabNotFound, "{e}");
        let m = e.to_string();
        assert!(m.contains("tab 41 was closed"), "{m}");
        assert!(m.contains("get_tabs"), "{m}");
        assert!(
            !m.contains("retry") && !m.contains("again"),
            "no retry advice: {m}"
        );
        assert_eq!(fail(41, EndReason::TabClosed), 0, "unregistered when done");
    }

    #[test]
    fn other_end_reasons_fail_them_with_session_not_found_or_domain_blocked_and_the_reason() {
        for (reason, advice) in [
            (EndReason::UserStopped, "do not retry"),
            (EndReason::GlobalStop, "do not retry"),
            (EndReason::DomainBlocked, "do not retry elsewhere"),
            (EndReason::ScreenLocked, "do not retry"),
        ] {
            let mut action = Box::pin(run(42, forever()));
            assert!(poll_once(action.as_mut()).is_pending());
            fail(42, reason);
            let Poll::Ready(Err(e)) = poll_once(action.as_mut()) else {
                panic!("{reason}: the action did not end");
            };
            let code = if reason == EndReason::DomainBlocked {
                ErrorCode::DomainBlocked
            } else {
                ErrorCode::SessionNotFound
            };
            assert_eq!(e.code(), code, "{e}");
            assert!(e.to_string().contains(&format!("({reason})")), "{e}");
            assert!(e.to_string().contains(advice), "{e}");
        }
    }

    #[test]
    fn with_a_remembered_end_the_notice_comes_first_and_a_blocklist_hit_is_domain_blocked() {
        use crate::session::recent::{Blocked, RecentEnd};
        let mut end = RecentEnd {
            tab_id: 44,
            domain: "shop.localhost".into(),
            reason: EndReason::GlobalStop,
            ended_at: 1_796_061_483_000.0,
            agent_owner: Some("cli".into()),
            blocked: None,
        };
        let mut action = Box::pin(run(44, forever()));
        assert!(poll_once(action.as_mut()).is_pending());
        assert_eq!(fail_ended(44, EndReason::GlobalStop, Some(&end)), 1);
        let Poll::Ready(Err(e)) = poll_once(action.as_mut()) else {
            panic!("the action did not end");
        };
        assert_eq!(e.code(), ErrorCode::SessionNotFound, "{e}");
        assert!(e.to_string().starts_with(&end.notice()), "{e}");
        assert!(e.to_string().contains("(global_stop"), "{e}");

        end.reason = EndReason::DomainBlocked;
        end.blocked = Some(Blocked {
            entry: "blocked.localhost".into(),
            url: Some("http://blocked.localhost/".into()),
        });
        let mut action = Box::pin(run(44, forever()));
        assert!(poll_once(action.as_mut()).is_pending());
        fail_ended(44, EndReason::DomainBlocked, Some(&end));
        let Poll::Ready(Err(e)) = poll_once(action.as_mut()) else {
            panic!("the action did not end");
        };
        assert_eq!(e.code(), ErrorCode::DomainBlocked, "{e}");
        assert!(e.to_string().contains("http://blocked.localhost/"), "{e}");
    }

    #[test]
    fn an_action_that_finishes_first_keeps_its_own_result() {
        let mut action = Box::pin(run(43, async { Ok(5) }));
        assert_eq!(poll_once(action.as_mut()), Poll::Ready(Ok(5)));
        assert_eq!(fail(43, EndReason::TabClosed), 0);
    }
}
