//! The dispatcher pipeline every action runs through (SPEC §6, "Dispatch of every action"):
//! resolve tabId + domain → blocklist check → ensure session → per-tab lock → attach the debugger → run the
//! handler → record the action. Actions that only manage tabs and windows skip the debugger steps.
//!
//! * Blocklist: the tab's current page (a hit also ends the tab's session) and the target URL of `open_tab` /
//!   `navigate`; a hit is `domain_blocked` with a `domain_blocked` event and no session. Target URLs that are
//!   the browser's own pages (`about:version`, …) are `invalid_action` ([`navigation::check_target`]).
//! * `open_tab`, and `navigate` without `tabId` when no session exists anywhere, open an agent tab on
//!   `about:blank` ([`crate::windows`]) and navigate it in the pipeline, so a URL the browser cannot load fails
//!   both with the same error as `navigate` ([`navigation::load_error`]); the tab opened for them is closed
//!   then (its session ends as `tab_closed`), so a failed `open_tab` leaves nothing behind.
//! * `screenshot` of a tab in a minimized window restores the window unfocused for the capture
//!   ([`windows::with_window_shown`]).
//! * Any other action but `handoff` on a tab of a minimized window leaves it minimized, the focus where it was,
//!   although Chrome restores it for a click ([`windows::keep_minimized`]).
//! * Everything after the blocklist check runs "in flight": if the tab's session ends meanwhile (tab closed,
//!   Stop, idle, …) the action fails at once (`tab_not_found` for a closed tab, else `session_not_found`).
//!   A handler that fails because the debugger went away is told apart the same way ([`detached`]).
//! * After the handler, a main-frame navigation it caused onto a blocked domain (a link, a form) fails the
//!   action with `domain_blocked` ([`session::check_navigated_since`]), as does a session ended as
//!   `domain_blocked` while it ran.
//! * Errors of an action on a tab whose session the user (Stop, Stop all, idle, screen lock) or the
//!   blocklist ended recently say so first ([`session::recent`]); the codes stay those of SPEC §8.
//! * A failed attach (`debugger_attach_failed`: a `chrome://` page, the Web Store, another extension's page)
//!   ends the tab's session through the normal cleanup, so no dead session stays listed.

use super::changes;
use super::ctx::Ctx;
use super::handler::{Pageless, Window};
use super::navigation;
use super::router::{self, PageAction, Routed};
use crate::error::{Error, Result};
use crate::{cdp, session, windows};
use bua_protocol::{Action, DialogPolicy, EndReason, NavResult, OpenTab, OpenTabResult, Outcomes};
use serde::Serialize;
use std::future::Future;

/// The owner recorded for requests that carry none (e.g. sent by a bridge without client ids).
pub const DEFAULT_OWNER: &str = "agent";

/// Runs one action for `owner` (the bridge client's id) and returns its result object.
///
/// An action naming a tab whose session was recently ended by the user, their absence or the blocklist
/// fails with its usual code and that end's notice first ([`session::recent`]); one that was running when
/// its tab hit the blocklist fails with `domain_blocked`.
pub async fn dispatch(owner: Option<String>, action: Action) -> Result<serde_json::Value> {
    session::ready().await;
    let owner = owner.unwrap_or_else(|| DEFAULT_OWNER.to_owned());
    let named = action.tab_id();
    let started = crate::time::now();
    dispatch_action(owner, action)
        .await
        .map_err(|e| explain_end(e, named, started))
}

/// `error` with the remembered end of `tab_id`'s last session first, if it has one.
fn explain_end(error: Error, tab_id: Option<i64>, started: f64) -> Error {
    match tab_id.and_then(session::recent::for_tab) {
        Some(end) => session::recent::explain(error, &end, started),
        None => error,
    }
}

async fn dispatch_action(owner: String, action: Action) -> Result<serde_json::Value> {
    if matches!(action, Action::Evaluate(_) | Action::Upload(_)) {
        // Turned off for unattended runs, in the options page or by the bridge (SPEC §10).
        if let Some(message) = crate::controls::load().await?.switched_off(action.name()) {
            return Err(Error::NotAllowed(message));
        }
    }
    if let Action::Navigate(p) = &action {
        if p.tab_id.is_none() && session::sessions().await?.is_empty() {
            // No session anywhere: the navigation opens a tab in the agent window (SPEC §6).
            session::check_url_allowed(&p.url, None).await?;
            navigation::check_target(&p.url)?;
            let load_wait = navigation::load_wait(p.load_wait_ms);
            return navigate_in_new_tab(&owner, &p.url, load_wait).await;
        }
    }
    let request = Request {
        name: action.name(),
        tab_id: action.tab_id(),
        target_url: action.target_url().map(str::to_owned),
        dialog: action.dialog(),
    };
    match router::route(action) {
        Routed::Pageless(handler) => handler.run(&owner).await,
        Routed::Page(handler) => run_on_tab(owner, request, handler).await,
    }
}

/// What the pipeline reads of a page action besides its handler.
struct Request {
    /// The wire `type`.
    name: &'static str,
    /// The tab it names, if any (else the session's tab, SPEC §6).
    tab_id: Option<i64>,
    /// The URL `navigate` goes to (the blocklist checks it).
    target_url: Option<String>,
    /// Its `dialog` and `promptText` (SPEC §7).
    dialog: DialogPolicy,
}

/// `open_tab`: the blocklist and [`navigation::check_target`] first, then [`open_tab`].
impl Pageless for OpenTab {
    type Output = OpenTabResult;

    async fn run(&self, owner: &str) -> Result<OpenTabResult> {
        session::check_url_allowed(&self.url, None).await?;
        navigation::check_target(&self.url)?;
        let load_wait = navigation::load_wait(self.load_wait_ms);
        open_tab(owner, &self.url, self.focus, load_wait).await
    }
}

/// `open_tab`: a new agent tab (session started) that navigates to `url` and waits as `navigate` does
/// (`DOMContentLoaded`, then at most `load_wait_ms` for `load`; SPEC §4). `about:blank` and `data:` URLs
/// open directly ([`navigation::opens_directly`]).
///
/// Errors: those of [`navigation::first_navigation`] (e.g. `timeout` for a host that does not answer), with
/// the tab closed again.
async fn open_tab(owner: &str, url: &str, focus: bool, load_wait_ms: u32) -> Result<OpenTabResult> {
    if navigation::opens_directly(url) {
        let opened =
            session::open_agent_tab(owner, url, &crate::session_domain(url), focus).await?;
        // The session it started counts it (SPEC §6: every dispatched action is recorded).
        session::record_action(opened.tab_id).await;
        return Ok(opened);
    }
    let (opened, load) = in_new_tab("open_tab", owner, url, focus, |tab_id| async move {
        let loaded = navigation::first_navigation(tab_id, url, load_wait_ms).await?;
        Ok(navigation::page_load(tab_id, loaded).await)
    })
    .await?;
    Ok(OpenTabResult { load, ..opened })
}

/// `navigate` with no tab and no session anywhere: a new agent tab that loads `url` (counted as an action).
/// Its result carries the new page's view, as every navigation's does (SPEC §4 "What an action changed").
async fn navigate_in_new_tab(
    owner: &str,
    url: &str,
    load_wait_ms: u32,
) -> Result<serde_json::Value> {
    let (_, (result, after)) = in_new_tab("navigate", owner, url, false, |tab_id| async move {
        let loaded = navigation::first_navigation(tab_id, url, load_wait_ms).await?;
        let result: NavResult = navigation::current(tab_id, loaded).await?;
        let after = changes::or_logged(tab_id, changes::after_action(tab_id, true, 0).await);
        Ok((result, after))
    })
    .await?;
    let mut value = json(result)?;
    let mut outcomes = Outcomes::default();
    if let Some(after) = after {
        after.report(&mut outcomes);
    }
    outcomes.merge_into(&mut value);
    Ok(value)
}

/// Opens an agent tab on `about:blank` whose session starts with `url`'s domain, then runs `navigation` (its
/// first navigation, given the tab id) in the pipeline as action `name` (counted, the tab locked; the
/// session is the one just started); when that fails, closes the tab (its session ends as `tab_closed`)
/// and says so in the error.
async fn in_new_tab<T, F, Fut>(
    name: &'static str,
    owner: &str,
    url: &str,
    focus: bool,
    navigation: F,
) -> Result<(OpenTabResult, T)>
where
    F: FnOnce(i64) -> Fut,
    Fut: Future<Output = Result<T>>,
{
    let steps = Steps {
        name,
        ensure_session: false,
        record: true,
        lock_tab: true,
        navigation: None,
    };
    let opened =
        session::open_agent_tab(owner, "about:blank", &crate::session_domain(url), focus).await?;
    let tab_id = opened.tab_id;
    let result = pipeline(tab_id, "about:blank", owner.to_owned(), steps, |ctx| {
        navigation(ctx.tab_id)
    })
    .await;
    match result {
        Ok(value) => Ok((opened, value)),
        Err(e) => {
            let closed = crate::chrome::tabs::remove(tab_id).await.is_ok();
            Err(if closed {
                e.with_note("the tab opened for it was closed again")
            } else {
                e
            })
        }
    }
}

/// Which optional steps of the pipeline an action takes.
#[derive(Clone, Debug)]
struct Steps {
    /// The action's name, for logs and messages.
    name: &'static str,
    /// Create or update the tab's session (every action on an existing tab). A tab opened for the action
    /// already has its session; if that ended meanwhile (Stop all) the action fails instead of starting one.
    ensure_session: bool,
    /// Count the action on the session (`actionCount`, `lastActionAt`).
    record: bool,
    /// Hold the tab's per-tab lock while the action runs (all but `handoff`).
    lock_tab: bool,
    /// The action loads a page (`navigate`, `reload`, …): on a tab whose page a dialog holds
    /// ([`cdp::held_by_dialog`]) the page is loaded first, which closes that dialog ([`cdp::free_held`]):
    /// `Some(url)` of a `navigate`, `Some(None)` to reload.
    navigation: Option<Option<String>>,
}

/// The full pipeline for actions that act on a page.
async fn run_on_tab(
    owner: String,
    request: Request,
    handler: Box<dyn PageAction>,
) -> Result<serde_json::Value> {
    let tab_id = session::resolve_tab(&owner, request.tab_id).await?;
    let started = crate::time::now();
    run_on_resolved_tab(owner, tab_id, request, handler)
        .await
        .map_err(|e| explain_end(e, Some(tab_id), started))
}

async fn run_on_resolved_tab(
    owner: String,
    tab_id: i64,
    request: Request,
    handler: Box<dyn PageAction>,
) -> Result<serde_json::Value> {
    let tab = crate::chrome::tabs::known(tab_id).await?;
    let url = tab.page_url();
    session::check_tab_allowed(tab_id, url).await?;
    if let Some(target) = request.target_url.as_deref() {
        session::check_url_allowed(target, Some(tab_id)).await?;
        navigation::check_target(target)?;
    }
    let url = url.to_owned();
    let traits = handler.traits();
    let steps = Steps {
        name: request.name,
        ensure_session: true,
        record: true,
        lock_tab: traits.tab_lock,
        navigation: traits.navigation.then(|| request.target_url.clone()),
    };
    let window_id = tab.window_id;
    let dialog = request.dialog;
    pipeline(tab_id, &url, owner, steps, move |ctx| async move {
        let run = router::run(&ctx, handler, dialog);
        match traits.window {
            Window::Shown => windows::with_window_shown(tab_id, run).await,
            Window::Own => run.await,
            // A read sends no input: nothing restores its window (and its three `windows` calls are saved).
            Window::KeepMinimized if bua_protocol::is_read_action(request.name) => run.await,
            Window::KeepMinimized => windows::keep_minimized(window_id, run).await,
        }
    })
    .await
}

/// Ensure session → per-tab lock → attach → `run` → record, all in flight (see the module docs). `url` is
/// the tab's page (its session's domain).
async fn pipeline<T, F, Fut>(
    tab_id: i64,
    url: &str,
    owner: String,
    steps: Steps,
    run: F,
) -> Result<T>
where
    F: FnOnce(Ctx) -> Fut,
    Fut: Future<Output = Result<T>>,
{
    let mut stages = Stages::new();
    let result = session::run_in_flight(tab_id, async {
        if steps.ensure_session {
            session::ensure_session(tab_id, url, &owner).await?;
        } else if !session::has_session(tab_id).await {
            return Err(Error::SessionNotFound(format!(
                "the session of tab {tab_id} ended (Stop?) before {} ran; call get_tabs before going on",
                steps.name
            )));
        }
        stages.mark("session");
        let lock = cdp::lock::lock_tab(tab_id).await;
        stages.mark("lock");
        // A page held by a dialog the debugger cannot answer takes only a navigation: loading the page
        // closes the dialog, and the tab is then prepared as any other.
        match (cdp::ensure_attached(tab_id).await, &steps.navigation) {
            (Err(_), Some(url)) if cdp::held_by_dialog(tab_id) => {
                cdp::free_held(tab_id, url.as_deref()).await?
            }
            (attached, _) => attached?,
        }
        stages.mark("attach");
        // Attached under the lock; an action that does not keep it (handoff) lets it go now.
        let _lock = steps.lock_tab.then_some(lock);
        let navigations = session::navigations(tab_id);
        let result = match run(Ctx { tab_id, owner }).await {
            Err(Error::SessionNotFound(_)) => Err(detached(tab_id, steps.name).await),
            // A link or form may have taken the tab onto a blocked domain (SPEC §6).
            Ok(value) => session::check_navigated_since(tab_id, navigations)
                .await
                .map(|()| value),
            other => other,
        };
        stages.mark("run");
        if steps.record {
            // Counted in the worker at once (the session store's cache); the storage write, a round trip
            // to the browser process, finishes after the response is sent.
            wasm_bindgen_futures::spawn_local(session::record_action(tab_id));
            stages.mark("record");
        }
        stages.warn_if_slow(steps.name, tab_id);
        result
    })
    .await;
    if let Err(Error::DebuggerAttachFailed(_)) = &result {
        // Only the attach above gives this code. The session would stay listed without a debugger until the
        // tab closes: end it through the one cleanup path, now that the action no longer runs in flight.
        // `domain_blocked` is the closest of SPEC §6's closed list of reasons: the browser itself blocks
        // extensions from this page.
        session::end_session_by_tab(tab_id, EndReason::DomainBlocked).await;
    }
    result
}

/// The error of a handler that failed because the debugger left `tab_id` mid-action: `tab_not_found` when
/// the tab was closed (Chrome may report the detach a moment before the tab is gone from `tabs.get`, so
/// that is asked three times over 200 ms), else `session_not_found` with what to check. Neither says
/// "retry as is" (SPEC §8).
async fn detached(tab_id: i64, action: &str) -> Error {
    for attempt in 0..3 {
        if attempt > 0 {
            cdp::sleep(100).await;
        }
        if crate::chrome::tabs::get(tab_id).await.is_err() {
            return Error::TabNotFound(format!(
                "tab {tab_id} was closed while {action} ran; call get_tabs to pick another tab, or open_tab"
            ));
        }
    }
    Error::SessionNotFound(format!(
        "the debugger was detached from tab {tab_id} while {action} ran (the user pressed Cancel on the \
         browser's debugging bar, or the tab moved to a page extensions cannot control); call get_tabs to \
         check the tab, and do not resend {action} unchanged"
    ))
}

/// Times the pipeline's stages, to name the slow one when an action takes long.
struct Stages {
    start: f64,
    last: f64,
    marks: Vec<(&'static str, f64)>,
}

/// An action slower than this (ms) is logged with its stage times.
const SLOW_ACTION_MS: f64 = 3_000.0;

impl Stages {
    fn new() -> Self {
        let now = crate::time::now();
        Stages {
            start: now,
            last: now,
            marks: Vec::new(),
        }
    }

    fn mark(&mut self, stage: &'static str) {
        let now = crate::time::now();
        self.marks.push((stage, now - self.last));
        self.last = now;
    }

    fn warn_if_slow(&self, action: &str, tab_id: i64) {
        let total = self.last - self.start;
        if total >= SLOW_ACTION_MS {
            let stages: Vec<String> = self
                .marks
                .iter()
                .map(|(s, ms)| format!("{s} {ms:.0} ms"))
                .collect();
            crate::log::warn(&format!(
                "slow {action} on tab {tab_id}: {total:.0} ms ({})",
                stages.join(", ")
            ));
        }
    }
}

fn json<T: Serialize>(value: T) -> Result<serde_json::Value> {
    Ok(serde_json::to_value(value)?)
}
