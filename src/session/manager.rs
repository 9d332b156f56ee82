//! The session manager (SPEC §6): creates, ensures and ends sessions through one cleanup path, and reconciles
//! the stored sessions at worker start. See the module [`super`] for the model.

use super::bus::{self, SessionEvent};
use super::model::{self, Session, SessionOwner};
use super::{history, idle, inflight, netrules, recent};
use crate::chrome::{storage, tabs};
use crate::error::{Error, Result};
use crate::store;
use crate::time::now;
use crate::{blocklist, cdp, controls, windows};
use bua_protocol::{EndReason, OpenTabResult};
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use std::cell::RefCell;
use std::future::Future;

/// Storage key of the active sessions: `[{tabId, domain, startedAt, lastActionAt, actionCount, owner,
/// agentOwner?}]`.
pub const SESSIONS_KEY: &str = "activeSessions";

/// `chrome.storage.session` key set by the first worker start of an extension run. `storage.session` survives
/// service-worker restarts but not an extension reload or a browser restart, so its presence tells whether the
/// stored sessions can be trusted at worker start.
pub const WORKER_MARK_KEY: &str = "buaWorkerStarted";

thread_local! {
    static READY: RefCell<Option<Shared<LocalBoxFuture<'static, ()>>>> = const { RefCell::new(None) };
    /// Per tab: main-frame navigations committed so far (`Page.frameNavigated`) and the last URL.
    static NAVIGATIONS: RefCell<std::collections::HashMap<i64, (u64, String)>> =
        RefCell::new(std::collections::HashMap::new());
}

/// Worker start: subscribes the audit log and the forwarder to the bus, watches main-frame navigations, applies
/// the idle interval, and reconciles the stored sessions. Actions and events wait for [`ready`].
pub fn start() {
    if READY.with(|r| r.borrow().is_some()) {
        return;
    }
    history::install();
    netrules::install();
    // A new session on a tab replaces what was remembered about its last end.
    bus::subscribe(|event| {
        if let SessionEvent::Started(s) = event {
            recent::forget(s.tab_id);
        }
    });
    cdp::events::listen(|tab_id, event| {
        if let Some(url) = event.main_frame_navigated().map(str::to_owned) {
            NAVIGATIONS.with(|n| {
                let mut n = n.borrow_mut();
                let entry = n.entry(tab_id).or_insert((0, String::new()));
                *entry = (entry.0 + 1, url.clone());
            });
            wasm_bindgen_futures::spawn_local(async move {
                on_navigated(tab_id, &url).await;
            });
        }
    });
    let reconciled = reconcile().boxed_local().shared();
    READY.with(|r| *r.borrow_mut() = Some(reconciled.clone()));
    wasm_bindgen_futures::spawn_local(reconciled);
    wasm_bindgen_futures::spawn_local(idle::configure());
}

/// Resolves once the worker-start reconcile is done (at once if [`start`] was not called).
pub async fn ready() {
    let gate = READY.with(|r| r.borrow().clone());
    if let Some(gate) = gate {
        gate.await;
    }
}

/// The active sessions.
pub async fn sessions() -> Result<Vec<Session>> {
    store::local().read(SESSIONS_KEY).await
}

/// The session of `tab_id`, if any.
pub async fn session(tab_id: i64) -> Option<Session> {
    sessions()
        .await
        .ok()?
        .into_iter()
        .find(|s| s.tab_id == tab_id)
}

/// Whether the tab has an active session.
pub async fn has_session(tab_id: i64) -> bool {
    session(tab_id).await.is_some()
}

/// The tab an action targets (SPEC §6): the explicit `tabId`, else [`model::pick_tab`] over the active sessions
/// (`session_not_found` naming the candidates when it cannot decide).
///
/// When `owner` has no session of its own left and one of its tabs was recently ended by the user (Stop,
/// Stop all, idle, screen lock) or the blocklist, that is `session_not_found` saying so first
/// ([`recent::RecentEnd::notice`]) rather than a fall-back onto another agent's tab.
pub async fn resolve_tab(owner: &str, tab_id: Option<i64>) -> Result<i64> {
    if let Some(id) = tab_id {
        check_tab_owner(owner, id).await?;
        return Ok(id);
    }
    let table = sessions().await?;
    let own_left = table
        .iter()
        .any(|s| s.owner == SessionOwner::Agent && s.agent_owner.as_deref() == Some(owner));
    let ended = (!own_left)
        .then(|| recent::for_omitted_tab(owner, table.is_empty()))
        .flatten();
    let picked = match &ended {
        // Another agent's tab or the user's would be picked: the agent's own work was stopped instead.
        Some(end) if end.agent_owner.as_deref() == Some(owner) => {
            Err("tabId omitted and this agent has no session left".to_owned())
        }
        _ => model::pick_tab(&table, owner),
    };
    picked.map_err(|m| {
        let e = Error::SessionNotFound(m);
        match &ended {
            Some(end) => recent::explain(e, end, f64::INFINITY),
            None => e,
        }
    })
}

/// Refuses `owner`'s action on another agent's tab (SPEC §6: agents are isolated; the user's tabs stay
/// reachable to every agent).
///
/// Errors: `session_not_found` naming the tab's owner.
pub async fn check_tab_owner(owner: &str, tab_id: i64) -> Result<()> {
    match windows::owner_of(tab_id).await {
        Some(other) if other != owner => Err(Error::SessionNotFound(format!(
            "tab {tab_id} belongs to another agent (`{other}`), not to you (`{owner}`): act only on the tabs you opened (open_tab) or the user's; get_tabs shows each tab's agentOwner"
        ))),
        _ => Ok(()),
    }
}

/// How many main-frame navigations `tab_id` has committed (while attached) so far; see
/// [`check_navigated_since`].
pub fn navigations(tab_id: i64) -> u64 {
    NAVIGATIONS.with(|n| n.borrow().get(&tab_id).map_or(0, |(count, _)| *count))
}

/// After an action that may have navigated the tab (a link clicked, a form submitted): when the main frame
/// committed a navigation since `before` ([`navigations`]) onto a blocked domain, ends the session as
/// `domain_blocked` (unless [`on_navigated`] already did; its `domain_blocked` event is not repeated) and
/// fails with `domain_blocked` naming the URL and the blocklist entry (SPEC §6: terminal). Whether the
/// action answered before or after the session ended, the agent is told the same.
pub async fn check_navigated_since(tab_id: i64, before: u64) -> Result<()> {
    let Some(url) = NAVIGATIONS.with(|n| {
        n.borrow()
            .get(&tab_id)
            .filter(|(count, _)| *count != before)
            .map(|(_, url)| url.clone())
    }) else {
        return Ok(());
    };
    let Some((entry, why)) = refusing(&url).await? else {
        return Ok(());
    };
    end_session_navigated_blocked(tab_id, recent::Blocked::new(&entry, Some(&url))).await;
    Err(blocked_error(&why, &url, Some(tab_id)))
}

/// Fails with `domain_blocked` (and emits the `domain_blocked` event) when `url` is on the blocklist; for the
/// target URL of `open_tab` / `navigate`. `tab_id` is the tab the action was for, if any.
pub async fn check_url_allowed(url: &str, tab_id: Option<i64>) -> Result<()> {
    match announce_if_blocked(url, tab_id).await? {
        Some((_, why)) => Err(blocked_error(&why, url, tab_id)),
        None => Ok(()),
    }
}

/// Like [`check_url_allowed`] for the page a tab is on: a hit also ends the tab's session, if it has one,
/// as `domain_blocked`.
pub async fn check_tab_allowed(tab_id: i64, url: &str) -> Result<()> {
    let Some((entry, why)) = announce_if_blocked(url, Some(tab_id)).await? else {
        return Ok(());
    };
    end_session_blocked(tab_id, recent::Blocked::new(&entry, Some(url))).await;
    Err(blocked_error(&why, url, Some(tab_id)))
}

/// What refuses `url` to agents, if anything: (the entry to report — a blocklist entry, or
/// [`controls::ALLOWLIST_ENTRY`] —, why, as a phrase after the URL). The blocklist first (SPEC §6), then
/// the allowlists of unattended runs (SPEC §10).
async fn refusing(url: &str) -> Result<Option<(String, String)>> {
    let list = blocklist::load().await?;
    if let Some(entry) = blocklist::blocking_entry(&list, url) {
        let why = format!("is on a blocked domain (blocklist entry `{entry}`)");
        return Ok(Some((entry.to_owned(), why)));
    }
    let refusal = controls::load().await?.refusal(url);
    Ok(refusal.map(|why| (controls::ALLOWLIST_ENTRY.to_owned(), why)))
}

/// What refuses `url` ([`refusing`]), if anything; a hit is announced as the `domain_blocked` event.
async fn announce_if_blocked(url: &str, tab_id: Option<i64>) -> Result<Option<(String, String)>> {
    let Some((entry, why)) = refusing(url).await? else {
        return Ok(None);
    };
    bus::emit(SessionEvent::DomainBlocked {
        entry: entry.clone(),
        url: Some(url.to_owned()),
        tab_id,
    });
    Ok(Some((entry, why)))
}

fn blocked_error(why: &str, url: &str, tab_id: Option<i64>) -> Error {
    let place = match tab_id {
        Some(t) => format!("tab {t}: "),
        None => String::new(),
    };
    Error::DomainBlocked(format!(
        "{place}{url} {why}; stop this plan and do not retry it on another tab or with another action"
    ))
}

/// Creates or reuses the session of `tab_id` for an action on `url` (SPEC §6 "ensure session"): a new session
/// emits `session_started`; the same domain is reused; a changed domain is updated silently. The session is an
/// `agent` session when the agent opened the tab.
pub async fn ensure_session(tab_id: i64, url: &str, _owner: &str) -> Result<()> {
    let domain = crate::session_domain(url);
    // The common case, a session on the same domain, needs no write (and no lock).
    if let Some(existing) = session(tab_id).await {
        if domain.is_empty() || existing.domain == domain {
            return Ok(());
        }
    }
    let agent = windows::agent_tab(tab_id).await;
    let (owner, agent_owner) = match &agent {
        Some(t) => (SessionOwner::Agent, Some(t.owner.as_str())),
        None => (SessionOwner::User, None),
    };
    let now = now();
    let ensured = store::local()
        .update(SESSIONS_KEY, |table: &mut Vec<Session>| {
            model::ensure(table, tab_id, &domain, owner, agent_owner, now)
        })
        .await?;
    if let model::Ensured::Started(session) = ensured {
        bus::emit(SessionEvent::Started(session));
    }
    Ok(())
}

/// Starts the session of a tab the agent just opened (`open_tab`): `owner` `agent`, `agentOwner` the client.
pub async fn start_agent_session(tab_id: i64, domain: &str, agent_owner: &str) -> Result<()> {
    let now = now();
    let ensured = store::local()
        .update(SESSIONS_KEY, |table: &mut Vec<Session>| {
            model::ensure(
                table,
                tab_id,
                domain,
                SessionOwner::Agent,
                Some(agent_owner),
                now,
            )
        })
        .await?;
    if let model::Ensured::Started(session) = ensured {
        bus::emit(SessionEvent::Started(session));
    }
    Ok(())
}

/// Opens an agent tab for `owner` on `load_url` ([`windows::open`]) and starts its `agent` session with
/// `domain` (`session_started`); the result is `{tabId, windowId, domain}` (SPEC §4 `open_tab`). The caller has
/// checked the blocklist. Used by `open_tab`, by `navigate` without a tab (on `about:blank`, with the target's
/// domain) and by `click {newTab:true}`.
pub async fn open_agent_tab(
    owner: &str,
    load_url: &str,
    domain: &str,
    focus: bool,
) -> Result<OpenTabResult> {
    let opened = windows::open(owner, load_url, domain, focus).await?;
    start_agent_session(opened.tab_id, domain, owner).await?;
    Ok(opened)
}

/// Runs an action on `tab_id`; it fails with `session_not_found` if the tab's session ends meanwhile.
pub async fn run_in_flight<T>(tab_id: i64, action: impl Future<Output = Result<T>>) -> Result<T> {
    inflight::run(tab_id, action).await
}

/// Counts one action on the tab's session (`actionCount + 1`, `lastActionAt`); a no-op if it ended.
pub async fn record_action(tab_id: i64) {
    let now = now();
    if let Err(e) = store::local()
        .update(SESSIONS_KEY, |table: &mut Vec<Session>| {
            model::record(table, tab_id, now).is_some()
        })
        .await
    {
        crate::log::warn(&format!("cannot record an action on tab {tab_id}: {e}"));
    }
}

/// Ends the session of `tab_id` for `reason` through the one cleanup path; `None` when it had none.
pub async fn end_session_by_tab(tab_id: i64, reason: EndReason) -> Option<Session> {
    end_one(tab_id, reason, None, false).await
}

/// Ends the session of `tab_id` as `domain_blocked` because of the blocklist hit `blocked` (remembered for
/// the agent's next action, [`recent`]).
pub async fn end_session_blocked(tab_id: i64, blocked: recent::Blocked) -> Option<Session> {
    end_one(tab_id, EndReason::DomainBlocked, Some(blocked), false).await
}

/// Like [`end_session_blocked`] for a navigation noticed on two paths at once ([`on_navigated`],
/// [`check_navigated_since`]): whichever ends the session emits the `domain_blocked` event, so it is sent
/// once, before the `session_ended`.
async fn end_session_navigated_blocked(tab_id: i64, blocked: recent::Blocked) -> Option<Session> {
    end_one(tab_id, EndReason::DomainBlocked, Some(blocked), true).await
}

async fn end_one(
    tab_id: i64,
    reason: EndReason,
    blocked: Option<recent::Blocked>,
    announce: bool,
) -> Option<Session> {
    let removed = match store::local()
        .update(SESSIONS_KEY, |table: &mut Vec<Session>| {
            model::remove(table, tab_id)
        })
        .await
    {
        Ok(r) => r,
        Err(e) => {
            crate::log::warn(&format!("cannot end the session of tab {tab_id}: {e}"));
            None
        }
    };
    if let Some(session) = &removed {
        if let (true, Some(b)) = (announce, &blocked) {
            bus::emit(SessionEvent::DomainBlocked {
                entry: b.entry.clone(),
                url: b.url.clone(),
                tab_id: Some(tab_id),
            });
        }
        cleanup(session, reason, blocked).await;
    }
    removed
}

/// Ends every session for `reason`; returns how many. For `global_stop` the `global_stop` event is emitted
/// first, before any `session_ended` (SPEC §8).
pub async fn end_all_sessions(reason: EndReason) -> usize {
    let all = match store::local()
        .update(SESSIONS_KEY, |table: &mut Vec<Session>| {
            std::mem::take(table)
        })
        .await
    {
        Ok(all) => all,
        Err(e) => {
            crate::log::warn(&format!("cannot end the sessions ({reason}): {e}"));
            return 0;
        }
    };
    if reason == EndReason::GlobalStop {
        bus::emit(SessionEvent::GlobalStop {
            at: now(),
            session_count: u32::try_from(all.len()).unwrap_or(u32::MAX),
        });
    }
    futures::future::join_all(all.iter().map(|s| cleanup(s, reason, None))).await;
    all.len()
}

/// Ends every session whose domain `list` (normalised blocklist entries) blocks, as `domain_blocked`, with a
/// `domain_blocked` event for each; returns them.
pub async fn end_all_sessions_for_domain(list: &[String]) -> Vec<Session> {
    let ended = match store::local()
        .update(SESSIONS_KEY, |table: &mut Vec<Session>| {
            let (blocked, keep): (Vec<Session>, Vec<Session>) = std::mem::take(table)
                .into_iter()
                .partition(|s| blocklist::blocking_entry_for_host(list, &s.domain).is_some());
            *table = keep;
            blocked
        })
        .await
    {
        Ok(ended) => ended,
        Err(e) => {
            crate::log::warn(&format!("cannot apply the blocklist to the sessions: {e}"));
            return Vec::new();
        }
    };
    for s in &ended {
        if let Some(entry) = blocklist::blocking_entry_for_host(list, &s.domain) {
            bus::emit(SessionEvent::DomainBlocked {
                entry: entry.to_owned(),
                url: None,
                tab_id: Some(s.tab_id),
            });
        }
    }
    futures::future::join_all(ended.iter().map(|s| {
        let blocked = blocklist::blocking_entry_for_host(list, &s.domain)
            .map(|entry| recent::Blocked::new(entry, None));
        cleanup(s, EndReason::DomainBlocked, blocked)
    }))
    .await;
    ended
}

/// Reads the blocklist and ends the sessions it blocks (the `blocklist` storage change listener).
pub async fn enforce_blocklist() -> usize {
    match blocklist::load().await {
        Ok(list) if !list.is_empty() => end_all_sessions_for_domain(&list).await.len(),
        Ok(_) => 0,
        Err(e) => {
            crate::log::warn(&format!("cannot read the blocklist: {e}"));
            0
        }
    }
}

/// The one cleanup path of every end reason (SPEC §6). It runs as a task of its own, which the caller only
/// waits for, so that it always runs to the end: the end of a session can be decided by an action in flight on
/// that very tab ([`check_navigated_since`]: a clicked link onto a blocked domain), and the
/// [`inflight::fail_ended`] below cancels that action at its next await. Were the cleanup part of the
/// action's future, it would be dropped with it half done: the session removed and `domain_blocked` announced,
/// but the agent tab left open and no `session_ended` sent.
async fn cleanup(session: &Session, reason: EndReason, blocked: Option<recent::Blocked>) {
    let (done, finished) = futures::channel::oneshot::channel::<()>();
    let session = session.clone();
    wasm_bindgen_futures::spawn_local(async move {
        cleanup_to_the_end(&session, reason, blocked).await;
        let _ = done.send(());
    });
    // If the caller is dropped meanwhile, the task still finishes.
    let _ = finished.await;
}

async fn cleanup_to_the_end(
    session: &Session,
    reason: EndReason,
    blocked: Option<recent::Blocked>,
) {
    let tab_id = session.tab_id;
    // Remembered first, so that every error of the agent's actions on this tab from now on can say why.
    let end = recent::RecentEnd {
        tab_id,
        domain: session.domain.clone(),
        reason,
        ended_at: now(),
        agent_owner: session.agent_owner.clone(),
        blocked,
    };
    let remembered = recent::remembers(reason, end.blocked.is_some());
    // In-flight actions stop at their next await, before the detach can make them fail in other ways.
    inflight::fail_ended(tab_id, reason, remembered.then_some(&end));
    recent::remember(end);
    if reason == EndReason::TabClosed {
        forget_tab(tab_id);
    } else {
        // Clears the in-memory attached set first, then detaches; harmless when not attached.
        cdp::detach(tab_id).await;
    }
    let agent = windows::agent_tab(tab_id).await;
    if let Some(agent) = &agent {
        if reason != EndReason::TabClosed {
            let _ = tabs::remove(tab_id).await;
        }
        windows::close_if_empty(agent.window_id).await;
    }
    bus::emit(SessionEvent::Ended {
        session: session.clone(),
        reason,
        ended_at: now(),
    });
}

/// Drops what this worker keeps in memory about a closed tab: the debugger attachment and its event
/// waiters (woken with "gone"), the open-dialog fact, the per-tab lock entry, and the uid cache of its last
/// `extract` (SPEC §5), which would otherwise stay until the worker restarts. Synchronous, so the
/// `tabs.onRemoved` listener runs it first, before any await.
pub fn forget_tab(tab_id: i64) {
    NAVIGATIONS.with(|n| n.borrow_mut().remove(&tab_id));
    cdp::forget(tab_id);
    cdp::lock::forget_tab(tab_id);
    crate::extract::forget_tab(tab_id);
}

/// `tabs.onRemoved`: the tab's session ends as `tab_closed`, after a `tab_closed` event (for session tabs and
/// agent tabs only); an agent window left empty is closed.
pub async fn on_tab_removed(tab_id: i64) {
    forget_tab(tab_id);
    let agent = windows::agent_tab(tab_id).await;
    if has_session(tab_id).await || agent.is_some() {
        bus::emit(SessionEvent::TabClosed { tab_id });
    }
    end_session_by_tab(tab_id, EndReason::TabClosed).await;
    if let Some(agent) = windows::forget_tab(tab_id).await.or(agent) {
        windows::close_if_empty(agent.window_id).await;
    }
}

/// `chrome.debugger.onDetach(source, reason)`: forget the attachment first (SPEC §6: a
/// stale "attached" entry would make the next action skip the attach), then end the
/// session as `user_stopped` — unless the target closed, which `tabs.onRemoved` reports as `tab_closed`.
pub async fn on_debugger_detach(tab_id: i64, reason: &str) {
    cdp::forget(tab_id);
    if reason == "target_closed" {
        return;
    }
    end_session_by_tab(tab_id, EndReason::UserStopped).await;
}

/// `chrome.idle.onStateChanged`: ends every session for `locked` / `idle` ([`idle::reason_for_state`]);
/// returns how many ended.
pub async fn on_idle_state_changed(state: &str) -> usize {
    match idle::reason_for_state(state) {
        Some(reason) => end_all_sessions(reason).await,
        None => 0,
    }
}

/// A session tab committed a main-frame navigation to `url` (`tabs.onUpdated` `url`, CDP `Page.frameNavigated`,
/// redirects included): a blocked host ends the session as `domain_blocked`.
pub async fn on_navigated(tab_id: i64, url: &str) {
    if !has_session(tab_id).await {
        return;
    }
    let Ok(Some((entry, _))) = refusing(url).await else {
        return;
    };
    // `tabs.onUpdated` and `Page.frameNavigated` both report it: the one that ends the session announces it.
    end_session_navigated_blocked(tab_id, recent::Blocked::new(&entry, Some(url))).await;
}

/// Worker start (SPEC §6 "Service-worker restart"): sessions whose tab is gone end as `tab_closed`; when the
/// extension itself (re)started — `storage.session` is empty — the remaining sessions cannot be trusted (their
/// debugger attachments died with the old instance) and end as `extension_reload`. After a mere service-worker
/// restart they continue: Chrome keeps the attachment, and the next attach re-learns it.
pub async fn reconcile() {
    let restarted_worker = matches!(
        storage::session_get::<bool>(WORKER_MARK_KEY).await,
        Ok(Some(true))
    );
    if let Err(e) = storage::session_set(WORKER_MARK_KEY, &true).await {
        crate::log::warn(&format!("cannot mark the worker start: {e}"));
    }
    windows::reconcile().await;
    let stored = match sessions().await {
        Ok(s) => s,
        // Only `chrome.storage` itself failing gets here: a table of an unexpected shape reads as empty
        // (and is replaced by the next session change, `crate::store`). Nothing can be ended without the
        // list, so the sessions stay for the next worker start to reconcile.
        Err(e) => {
            crate::log::warn(&format!(
                "cannot read the stored sessions at worker start, leaving them for the next start: {e}"
            ));
            return;
        }
    };
    for s in stored {
        if tabs::get(s.tab_id).await.is_err() {
            bus::emit(SessionEvent::TabClosed { tab_id: s.tab_id });
            end_session_by_tab(s.tab_id, EndReason::TabClosed).await;
        } else if !restarted_worker {
            end_session_by_tab(s.tab_id, EndReason::ExtensionReload).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_tab_is_forgotten_in_memory_waiters_dialogs_and_uids() {
        let tab = 9_001;
        let mut waiter = cdp::events::wait(tab, |_| true);
        let mut other = cdp::events::wait(tab + 1, |_| true);
        let dialog = cdp::event::JavascriptDialogOpening {
            kind: "alert".to_owned(),
            message: "hi".to_owned(),
            ..Default::default()
        };
        cdp::events::dispatch(tab, &cdp::Event::JavascriptDialogOpening(dialog));
        // The dialog event itself woke the first waiter; register another that is still waiting.
        assert!(matches!(waiter.try_recv(), Ok(Some(Some(_)))));
        waiter = cdp::events::wait(tab, |e| matches!(e, cdp::Event::LoadEventFired(_)));
        assert!(cdp::events::open_dialog(tab).is_some());

        forget_tab(tab);

        assert_eq!(
            waiter.try_recv(),
            Ok(Some(None)),
            "a waiter on the closed tab learns it is gone"
        );
        assert!(cdp::events::open_dialog(tab).is_none());
        assert!(!cdp::is_attached(tab));
        assert_eq!(
            other.try_recv(),
            Ok(None),
            "other tabs' waiters keep waiting"
        );
        let stale = crate::extract::resolve_uid(tab, "e0").expect_err("no uids");
        assert_eq!(stale.code(), bua_protocol::ErrorCode::ElementStale);
    }
}
