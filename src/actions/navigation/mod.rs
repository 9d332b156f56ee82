//! `navigate`, `go_back`, `go_forward`, `reload` (SPEC §4): issue the navigation, wait for the main
//! frame to commit and reach `DOMContentLoaded` (30 s action budget) plus at most `loadWaitMs` for `load`
//! ([`wait_loaded`], the one wait every navigating action shares), answer `beforeunload` (and any other
//! dialog) meanwhile so a guarded page cannot wedge them, and report `{tabId, url, title, loaded}`.
//!
//! Also [`Watch`]: input actions (click, Enter) that start a navigation wait for it the same way before they
//! answer, so the next action sees the new page. [`failure`] says why a load failed.

pub mod failure;

pub use failure::{check_target, load_error, opens_directly, LoadFailure, Tab};

use failure::is_data_url;

use super::ctx::Ctx;
use super::dialogs;
use super::handler::{Handler, Traits};
use super::page;
use crate::cdp::commands::{
    PageGetNavigationHistory, PageNavigate, PageNavigateToHistoryEntry, PageReload,
    PageResetNavigationHistory, PageStopLoading, RuntimeEvaluate,
};
use crate::cdp::{self, events, Event};
use crate::error::{Error, Result};
use bua_protocol::{NavResult, Navigate, PageLoad, TabLoad, DEFAULT_LOAD_WAIT_MS};
use futures::TryFutureExt;
use serde_json::Value;

/// How long a navigation may take to commit and reach `DOMContentLoaded`, ms (the bridge allows 30 s for
/// the action).
pub const LOAD_BUDGET_MS: f64 = 27_000.0;

/// `go_back {tabId?, loadWaitMs?}`.
pub struct GoBack(pub TabLoad);

/// `go_forward {tabId?, loadWaitMs?}`.
pub struct GoForward(pub TabLoad);

/// `reload {tabId?, loadWaitMs?}`.
pub struct Reload(pub TabLoad);

/// How long an input action waits, after a round trip to the renderer ([`Watch::settle`]), for the
/// event of a navigation it may have started, ms.
pub const NAV_GRACE_MS: u32 = 10;

/// The `loadWaitMs` of an action, ms (SPEC §4: omitted is [`bua_protocol::DEFAULT_LOAD_WAIT_MS`]).
pub fn load_wait(load_wait_ms: Option<u32>) -> u32 {
    load_wait_ms.unwrap_or(bua_protocol::DEFAULT_LOAD_WAIT_MS)
}

type EventRx = events::Next;

/// A receiver for the next main-frame commit: `Page.frameNavigated` without `parentId` (new document,
/// bfcache restore included) or `Page.navigatedWithinDocument` (fragment, `history.pushState`). Made before
/// every navigation, so it also drops a stranded dialog mark left from before ([`dialogs::take_stranded`]):
/// only one that holds this navigation may make [`committed`] send it again.
fn commit_waiter(tab_id: i64) -> EventRx {
    dialogs::take_stranded(tab_id);
    events::wait(tab_id, |event| {
        matches!(event, Event::NavigatedWithinDocument(_)) || event.main_frame_navigated().is_some()
    })
}

/// `navigate {url, loadWaitMs?}`: clears the uid cache, navigates, waits as [`wait_loaded`] does.
///
/// Errors: [`load_error`] when the browser cannot load the URL (the tab stays usable, on the browser's error
/// page), `timeout` when it does not reach `DOMContentLoaded` within the budget.
impl Handler for Navigate {
    type Output = NavResult;
    const TRAITS: Traits = Traits::NAVIGATION;

    async fn run(&self, ctx: &Ctx) -> Result<NavResult> {
        let (url, load_wait_ms) = (self.url.as_str(), load_wait(self.load_wait_ms));
        let deadline = page::now_ms() + LOAD_BUDGET_MS;
        if let Some(commit) = begin(ctx.tab_id, url, Tab::Existing(ctx.tab_id)).await? {
            committed(ctx.tab_id, commit, deadline, Resend::Url(url)).await?;
        }
        // Without a commit (a same-document or aborted navigation) the tab shows the page it showed: the same
        // wait tells whether that one has loaded.
        let loaded = wait_loaded(ctx.tab_id, deadline, load_wait_ms, true).await?;
        current(ctx.tab_id, loaded).await
    }
}

/// The first navigation of a tab the extension just opened on `about:blank` (`open_tab`, and `navigate`
/// without a tab): like [`Navigate`], and it drops the blank page from the tab's history
/// (`Page.resetNavigationHistory`), so `go_back` there says "no previous page", as in a tab opened on the
/// URL. Returns whether `load` came ([`wait_loaded`]).
///
/// Errors: as [`Navigate`]; the caller closes the tab when it fails.
pub async fn first_navigation(tab_id: i64, url: &str, load_wait_ms: u32) -> Result<bool> {
    let deadline = page::now_ms() + LOAD_BUDGET_MS;
    if let Some(commit) = begin(tab_id, url, Tab::Opened).await? {
        committed(tab_id, commit, deadline, Resend::Url(url)).await?;
        forget_blank_entry(tab_id).await;
    }
    wait_loaded(tab_id, deadline, load_wait_ms, true).await
}

/// `Page.resetNavigationHistory` right after the first commit of a tab opened on `about:blank` (for a few ms
/// after the commit the new page may not be active yet: [`cdp::send`] sends it again then). A failure only
/// leaves the blank page in the history, so it is logged, not raised.
async fn forget_blank_entry(tab_id: i64) {
    if let Err(e) = cdp::send(tab_id, &PageResetNavigationHistory {}).await {
        crate::log::info(&format!(
            "tab {tab_id}: the blank first page stays in its history: {e}"
        ));
    }
}

/// Clears the uid cache and sends `Page.navigate` (answering dialogs meanwhile). `Some(commit waiter)` when a
/// new document is on its way; `None` when there is nothing to wait for (a same-document navigation, or one
/// the browser aborted: a download, a 204, a navigation the page replaced).
async fn begin(tab_id: i64, url: &str, tab: Tab) -> Result<Option<EventRx>> {
    crate::extract::invalidate(tab_id);
    let commit = commit_waiter(tab_id);
    let response = dialogs::navigating(
        tab_id,
        cdp::send_with_timeout(
            tab_id,
            &PageNavigate {
                url: url.to_owned(),
            },
            LOAD_BUDGET_MS as u32,
        )
        .err_into(),
    )
    .await;
    let response = match response {
        Ok(response) => response,
        // `Page.navigate` answers once the response has started; a server that accepts the connection and
        // never answers leaves it pending past the load budget: a timed-out load of the URL, not a CDP command.
        Err(Error::Timeout(_)) => {
            stop_pending_load(tab_id).await;
            return Err(stopped_load_error(url, tab));
        }
        Err(other) => return Err(other),
    };
    if let Some(error) = response.error_text.as_deref().filter(|e| !e.is_empty()) {
        if error.contains("ERR_ABORTED") {
            if is_data_url(url) {
                return Err(Error::InvalidAction(format!(
                    "the browser does not let extensions navigate a tab to a data: URL ({error}); open it \
                     with open_tab instead, or serve the page over http(s)"
                )));
            }
            return Ok(None);
        }
        return Err(load_error(url, error, tab));
    }
    Ok(response.loader_id.is_some().then_some(commit))
}

/// Stops a navigation that ran out of time (`Page.stopLoading`), so the tab is left on the page it shows
/// (the previous document, or the part of the new one that arrived). While the browser still waits for the
/// server's answer, commands that need the page (`Runtime.evaluate`, `Page.captureScreenshot`) queue behind
/// that navigation and time out one after the other; stopped, the tab answers at once (SPEC §4 `navigate`).
/// A failure is only logged: the caller reports the timeout either way.
async fn stop_pending_load(tab_id: i64) {
    if let Err(e) = cdp::send_with_timeout(tab_id, &PageStopLoading {}, 1_000).await {
        crate::log::info(&format!(
            "tab {tab_id}: could not stop the load that timed out: {e}"
        ));
    }
}

/// The error of a load [`stop_pending_load`] stopped: a timed-out load of `url`, and an existing tab stays on the
/// page it showed (not on an error page, as after a load the browser failed itself).
fn stopped_load_error(url: &str, tab: Tab) -> Error {
    let error = load_error(url, "net::ERR_TIMED_OUT", Tab::Opened);
    match tab {
        Tab::Existing(id) => error.with_note(&format!(
            "the load was stopped. Tab {id} stays usable, on the page it showed before: navigate it elsewhere \
             or go on"
        )),
        Tab::Opened => error,
    }
}

/// `go_back`: the previous entry of the tab's history, as [`go`].
impl Handler for GoBack {
    type Output = NavResult;
    const TRAITS: Traits = Traits::NAVIGATION;

    async fn run(&self, ctx: &Ctx) -> Result<NavResult> {
        go(ctx.tab_id, -1, load_wait(self.0.load_wait_ms)).await
    }
}

/// `go_forward`: the next entry of the tab's history, as [`go`].
impl Handler for GoForward {
    type Output = NavResult;
    const TRAITS: Traits = Traits::NAVIGATION;

    async fn run(&self, ctx: &Ctx) -> Result<NavResult> {
        go(ctx.tab_id, 1, load_wait(self.0.load_wait_ms)).await
    }
}

/// `go_back` / `go_forward`: moves `delta` (−1 / +1) in the tab's history and waits as [`Navigate`] does.
///
/// Errors: `invalid_action` when there is no entry in that direction.
async fn go(tab_id: i64, delta: i64, load_wait_ms: u32) -> Result<NavResult> {
    let history = cdp::send(tab_id, &PageGetNavigationHistory {}).await?;
    let target = usize::try_from(history.current_index + delta)
        .ok()
        .and_then(|i| history.entries.get(i));
    let Some(entry_id) = target.map(|e| e.id) else {
        let which = if delta < 0 {
            "no previous page (go_back)"
        } else {
            "no next page (go_forward)"
        };
        return Err(Error::InvalidAction(format!(
            "tab {tab_id} has {which} in its history; use navigate with a URL instead"
        )));
    };
    // No eager `invalidate`: an entry of the same document (a `pushState` route) keeps its uids; a new
    // document clears them when it commits (the main-frame navigation listener, SPEC §5).
    let deadline = page::now_ms() + LOAD_BUDGET_MS;
    let commit = commit_waiter(tab_id);
    dialogs::navigating(
        tab_id,
        cdp::send(tab_id, &PageNavigateToHistoryEntry { entry_id }).err_into(),
    )
    .await?;
    let loaded = settle(
        tab_id,
        commit,
        deadline,
        load_wait_ms,
        Resend::Entry(entry_id),
    )
    .await?;
    current(tab_id, loaded).await
}

/// `reload`: reloads the page and waits as [`Navigate`] does.
impl Handler for Reload {
    type Output = NavResult;
    const TRAITS: Traits = Traits::NAVIGATION;

    async fn run(&self, ctx: &Ctx) -> Result<NavResult> {
        let load_wait_ms = load_wait(self.0.load_wait_ms);
        crate::extract::invalidate(ctx.tab_id);
        let deadline = page::now_ms() + LOAD_BUDGET_MS;
        let commit = commit_waiter(ctx.tab_id);
        dialogs::navigating(ctx.tab_id, cdp::send(ctx.tab_id, &PageReload {}).err_into()).await?;
        let loaded = settle(ctx.tab_id, commit, deadline, load_wait_ms, Resend::Reload).await?;
        current(ctx.tab_id, loaded).await
    }
}

/// Waits (answering dialogs) for the commit, then as [`wait_loaded`]; whether `load` came.
async fn settle(
    tab_id: i64,
    commit: EventRx,
    deadline: f64,
    load_wait_ms: u32,
    resend: Resend<'_>,
) -> Result<bool> {
    committed(tab_id, commit, deadline, resend).await?;
    wait_loaded(tab_id, deadline, load_wait_ms, true).await
}

/// How a navigation is sent again when a dialog of the page it leaves holds it ([`committed`]).
enum Resend<'a> {
    /// `Page.navigate` to the URL.
    Url(&'a str),
    /// `Page.reload`.
    Reload,
    /// `Page.navigateToHistoryEntry`.
    Entry(i64),
}

/// Most times one navigation is sent again for a dialog that holds it.
const RESENDS: usize = 3;

/// How often [`committed`] looks for a dialog that holds the navigation, ms.
const STRANDED_POLL_MS: f64 = 100.0;

/// Waits (answering dialogs) for the main frame's commit. A dialog the page being left raised after the
/// navigation began cannot be answered through CDP and holds the commit ([`dialogs::take_stranded`]): the
/// navigation is sent again as `resend` says, which closes it.
///
/// Errors: `session_not_found` when the debugger left the tab first (the dispatcher tells a closed tab
/// apart), `timeout` when nothing committed by `deadline`.
async fn committed(
    tab_id: i64,
    mut commit: EventRx,
    deadline: f64,
    resend: Resend<'_>,
) -> Result<()> {
    let mut resent = 0;
    let committed = loop {
        let slice = (deadline - page::now_ms()).clamp(0.0, STRANDED_POLL_MS) as u32;
        let step = dialogs::navigating(tab_id, async {
            Ok(cdp::with_timeout(slice, &mut commit).await)
        })
        .await?;
        if step.is_some() || page::now_ms() >= deadline {
            break step;
        }
        if dialogs::take_stranded(tab_id) && resent < RESENDS {
            resent += 1;
            crate::log::info(&format!(
                "tab {tab_id}: a dialog of the page being left holds the navigation; sending it again"
            ));
            send_again(tab_id, &resend).await;
        }
    };
    match committed {
        Some(Ok(Some(_))) => Ok(()),
        Some(_) => Err(Error::SessionNotFound(format!(
            "the debugger left tab {tab_id} during the navigation; call get_tabs to check the tab"
        ))),
        None => {
            stop_pending_load(tab_id).await;
            Err(Error::Timeout(format!(
                "tab {tab_id} did not start showing the new page within {} s; call extract to see where it is",
                LOAD_BUDGET_MS / 1000.0
            )))
        }
    }
}

/// Sends a navigation again ([`committed`]); a failure is logged, and the wait goes on to its deadline.
async fn send_again(tab_id: i64, resend: &Resend<'_>) {
    let sent = match resend {
        Resend::Url(url) => cdp::send(
            tab_id,
            &PageNavigate {
                url: (*url).to_owned(),
            },
        )
        .await
        .map(drop),
        Resend::Reload => cdp::send(tab_id, &PageReload {}).await.map(drop),
        Resend::Entry(entry_id) => cdp::send(
            tab_id,
            &PageNavigateToHistoryEntry {
                entry_id: *entry_id,
            },
        )
        .await
        .map(drop),
    };
    if let Err(e) = sent {
        crate::log::info(&format!(
            "tab {tab_id}: sending the navigation again failed: {e}"
        ));
    }
}

/// The wait every navigating action shares (SPEC §4 "like a person waits"): until the main frame's document
/// reached `DOMContentLoaded` (by `deadline`, ms since the epoch), then at most `load_wait_ms` more (never
/// past `deadline`) for its `load` event. `Ok(true)` when `load` came, `Ok(false)` when the page is readable
/// but still loading something (an image or a frame whose server never answers, an ad host).
///
/// The state is `document.readyState` (`interactive` after `DOMContentLoaded`, `complete` after `load`),
/// read again whenever `Page.domContentEventFired` / `Page.loadEventFired` arrive and at least every
/// [`POLL_MS`]: the events answer at once, the read covers events that came before this wait began (a
/// bfcache restore fires none). An open dialog is answered when `answer` (our navigations), else one that
/// nobody answers ends the wait as `Ok(false)`.
///
/// Errors: `timeout` when the document is still `loading` at `deadline` (saying what it waited for); with
/// `answer`, the load is stopped first (`Page.stopLoading`), as for a load that never committed.
pub async fn wait_loaded(
    tab_id: i64,
    deadline: f64,
    load_wait_ms: u32,
    answer: bool,
) -> Result<bool> {
    let is_load_event = |event: &Event| {
        matches!(
            event,
            Event::DomContentEventFired(_) | Event::LoadEventFired(_)
        )
    };
    let mut event = events::wait(tab_id, is_load_event);
    let mut state = String::new();
    let mut give_up = deadline;
    let mut interactive = false;
    loop {
        if answer {
            if dialogs::answer_open(tab_id).await? {
                continue;
            }
        } else if dialogs::left_open(tab_id).is_some() {
            return Ok(false);
        }
        // Right after a commit the new context may not exist yet: errors mean "not yet".
        if let Ok(v) = page::eval_value_with_timeout(tab_id, "document.readyState", 2_000).await {
            state = v.as_str().unwrap_or_default().to_owned();
        }
        match state.as_str() {
            "complete" => return Ok(true),
            "interactive" if !interactive => {
                interactive = true;
                give_up = deadline.min(page::now_ms() + f64::from(load_wait_ms));
            }
            _ => {}
        }
        let now = page::now_ms();
        if now >= give_up {
            if interactive {
                return Ok(false);
            }
            if answer {
                stop_pending_load(tab_id).await;
            }
            return Err(Error::Timeout(format!(
                "tab {tab_id} did not reach DOMContentLoaded in time (document.readyState {state:?}: its HTML \
                 is still arriving, or a script holds it up); the load was stopped. Call extract to see what \
                 arrived, or navigate again later"
            )));
        }
        let wait = (give_up - now).clamp(1.0, POLL_MS) as u32;
        if let Some(fired) = cdp::with_timeout(wait, &mut event).await {
            if !matches!(fired, Ok(Some(_))) {
                return Err(Error::SessionNotFound(format!(
                    "the debugger left tab {tab_id} while it loaded; call get_tabs to check the tab"
                )));
            }
            event = events::wait(tab_id, is_load_event);
        }
    }
}

/// How often [`wait_loaded`] reads `document.readyState` when no load event arrives, ms.
const POLL_MS: f64 = 250.0;

/// `{tabId, url, title, status?, loaded}` of the tab's current history entry (error pages keep the URL that
/// failed); `loaded` is [`wait_loaded`]'s answer.
pub async fn current(tab_id: i64, loaded: bool) -> Result<NavResult> {
    let mut history = cdp::send(tab_id, &PageGetNavigationHistory {}).await?;
    let index = usize::try_from(history.current_index.max(0)).unwrap_or(usize::MAX);
    let entry = if index < history.entries.len() {
        history.entries.swap_remove(index)
    } else {
        Default::default()
    };
    let mut title = entry.title;
    if title.is_empty() {
        if let Ok(Value::String(t)) =
            page::eval_value_with_timeout(tab_id, "document.title", 2_000).await
        {
            title = t;
        }
    }
    Ok(NavResult {
        tab_id,
        url: entry.url,
        title,
        load: page_load(tab_id, loaded).await,
    })
}

/// The tab's [`PageLoad`]: its document's [`http_status`] and `loaded`, [`wait_loaded`]'s answer.
pub async fn page_load(tab_id: i64, loaded: bool) -> PageLoad {
    PageLoad {
        status: http_status(tab_id).await,
        loaded: Some(loaded),
    }
}

/// The HTTP status of the tab's current document (`404` for a missing page), from its navigation timing
/// entry (`PerformanceNavigationTiming.responseStatus`); `None` when it came from no HTTP response
/// (`about:blank`, `data:`, a browser error page) or the page cannot tell yet (SPEC §4 `navigate`).
async fn http_status(tab_id: i64) -> Option<u16> {
    const EXPRESSION: &str = "(() => { const e = performance.getEntriesByType('navigation')[0]; \
        return /^https?:$/.test(location.protocol) && e ? e.responseStatus || null : null; })()";
    let value = page::eval_value_with_timeout(tab_id, EXPRESSION, 2_000)
        .await
        .ok()?;
    value
        .as_u64()
        .and_then(|s| u16::try_from(s).ok())
        .filter(|s| *s > 0)
}

/// Watches the main frame around an input action: created before the input, [`Watch::settle`] afterwards
/// waits for a navigation the input started.
pub struct Watch {
    started: EventRx,
    commit: EventRx,
    /// The navigation became a download: nothing will commit.
    download: EventRx,
}

impl Watch {
    /// Starts watching the tab's main frame.
    pub async fn start(tab_id: i64) -> Result<Watch> {
        let main = page::main_frame_id(tab_id).await?;
        let started = events::wait(tab_id, move |event| {
            matches!(
                event,
                Event::FrameRequestedNavigation(frame)
                    | Event::FrameStartedNavigating(frame)
                    | Event::FrameStartedLoading(frame) if frame.frame_id == main
            )
        });
        Ok(Watch {
            started,
            commit: commit_waiter(tab_id),
            download: events::wait(tab_id, |event| matches!(event, Event::DownloadWillBegin(_))),
        })
    }

    /// Runs `input` (true when it reached the page) in a watch, then waits as a click or a key does for a
    /// navigation it starts: [`Watch::settle`] with `budget_ms`, `DEFAULT_LOAD_WAIT_MS` for `load`.
    pub async fn around(
        tab_id: i64,
        budget_ms: u32,
        input: impl std::future::Future<Output = Result<bool>>,
    ) -> Result<()> {
        let watch = Watch::start(tab_id).await?;
        if input.await? {
            watch
                .settle(tab_id, NAV_GRACE_MS, budget_ms, DEFAULT_LOAD_WAIT_MS)
                .await;
        }
        Ok(())
    }

    /// If the input started a main-frame navigation, waits (at most `budget_ms`) for it to commit and reach
    /// `DOMContentLoaded`, then as [`wait_loaded`] (at most `load_wait_ms` for `load`, within the budget).
    /// `Some(loaded)` when a navigation committed, `None` when none did. Never fails the input action: the
    /// input happened; an unfinished load is only logged. A dialog nobody answers (e.g. a `beforeunload` guard
    /// outside an action's dialog scope) ends the wait at once, and so does a navigation that turned into a
    /// download (`Page.downloadWillBegin`).
    ///
    /// Whether a navigation started is learned from one CDP round trip, not a timed wait: the renderer
    /// answers it after the input's handlers and default action ran, so a navigation they requested has
    /// been announced (`Page.frameRequestedNavigation`, …) by then. Playwright's Chromium input epilogue
    /// does the same with `Page.enable`. `grace_ms` only covers the event reaching the worker after the
    /// answer, and navigations a handler defers by a timer of about that length.
    pub async fn settle(
        mut self,
        tab_id: i64,
        grace_ms: u32,
        budget_ms: u32,
        load_wait_ms: u32,
    ) -> Option<bool> {
        let start = page::now_ms();
        let deadline = start + f64::from(budget_ms);
        // An error (the old document is already going away) or a dialog: the loop below sees either.
        let _ = dialogs::race(
            tab_id,
            &RuntimeEvaluate {
                expression: "0".to_owned(),
                ..Default::default()
            },
        )
        .await;
        let answered = page::now_ms();
        let mut started = false;
        loop {
            if dialogs::left_open(tab_id).is_some() {
                return None;
            }
            if !started {
                match self.started.try_recv() {
                    Ok(None) => {}
                    Ok(Some(Some(_))) => started = true,
                    Ok(Some(None)) | Err(_) => return None,
                }
            }
            match self.commit.try_recv() {
                Ok(None) => {}
                Ok(Some(Some(_))) => break,
                Ok(Some(None)) | Err(_) => return None,
            }
            if !matches!(self.download.try_recv(), Ok(None)) {
                return None;
            }
            let now = page::now_ms();
            if (!started && now - answered >= f64::from(grace_ms)) || now >= deadline {
                return None;
            }
            cdp::sleep(5).await;
        }
        match wait_loaded(tab_id, deadline, load_wait_ms, false).await {
            Ok(loaded) => Some(loaded),
            Err(e) => {
                crate::log::info(&format!(
                    "tab {tab_id}: page still loading after input: {e}"
                ));
                Some(false)
            }
        }
    }
}
