//! `navigate`, `go_back`, `go_forward`, `reload` (SPEC §4): issue the navigation, wait for the main
//! frame to commit and reach `DOMContentLoaded` (30 s action budget) plus at most `loadWaitMs` for `load`
//! ([`wait_loaded`], the one wait every navigating action shares), answer `beforeunload` (and any other
//! dialog) meanwhile so a guarded page cannot wedge them, and report `{tabId, url, title, loaded}`.
//!
//! Also [`Watch`]: input actions (click, Enter) that start a navigation wait for it the same way before they
//! answer, so the next action sees the new page.

use super::dialogs;
use super::page;
use crate::cdp::commands::{
    PageGetNavigationHistory, PageNavigate, PageNavigateToHistoryEntry, PageReload,
    PageResetNavigationHistory, PageStopLoading, RuntimeEvaluate,
};
use crate::cdp::{self, events, Event};
use crate::error::{Error, Result};
use bua_protocol::NavResult;
use futures::TryFutureExt;
use serde_json::Value;

/// How long a navigation may take to commit and reach `DOMContentLoaded`, ms (the bridge allows 30 s for
/// the action).
pub const LOAD_BUDGET_MS: f64 = 27_000.0;

/// The `loadWaitMs` of an action, ms (SPEC §4: omitted is [`bua_protocol::DEFAULT_LOAD_WAIT_MS`]).
pub fn load_wait(load_wait_ms: Option<u32>) -> u32 {
    load_wait_ms.unwrap_or(bua_protocol::DEFAULT_LOAD_WAIT_MS)
}

type EventRx = events::Next;

/// A receiver for the next main-frame commit: `Page.frameNavigated` without `parentId` (new document,
/// bfcache restore included) or `Page.navigatedWithinDocument` (fragment, `history.pushState`).
fn commit_waiter(tab_id: i64) -> EventRx {
    events::wait(tab_id, |event| {
        matches!(event, Event::NavigatedWithinDocument(_)) || event.main_frame_navigated().is_some()
    })
}

/// `navigate {url, loadWaitMs?}`: clears the uid cache, navigates, waits as [`wait_loaded`] does.
///
/// Errors: [`load_error`] when the browser cannot load the URL (the tab stays usable, on the browser's error
/// page), `timeout` when it does not reach `DOMContentLoaded` within the budget.
pub async fn navigate(tab_id: i64, url: &str, load_wait_ms: u32) -> Result<NavResult> {
    let deadline = page::now_ms() + LOAD_BUDGET_MS;
    if let Some(commit) = begin(tab_id, url, Tab::Existing(tab_id)).await? {
        committed(tab_id, commit, deadline).await?;
    }
    // Without a commit (a same-document or aborted navigation) the tab shows the page it showed: the same
    // wait tells whether that one has loaded.
    let loaded = wait_loaded(tab_id, deadline, load_wait_ms, true).await?;
    current(tab_id, loaded).await
}

/// The first navigation of a tab the extension just opened on `about:blank` (`open_tab`, and `navigate`
/// without a tab): like [`navigate`], and it drops the blank page from the tab's history
/// (`Page.resetNavigationHistory`), so `go_back` there says "no previous page", as in a tab opened on the
/// URL. Returns whether `load` came ([`wait_loaded`]).
///
/// Errors: as [`navigate`]; the caller closes the tab when it fails.
pub async fn first_navigation(tab_id: i64, url: &str, load_wait_ms: u32) -> Result<bool> {
    let deadline = page::now_ms() + LOAD_BUDGET_MS;
    if let Some(commit) = begin(tab_id, url, Tab::Opened).await? {
        committed(tab_id, commit, deadline).await?;
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

/// Which tab a failed load happened in, for the "what now" of [`load_error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// A tab the agent already had (`navigate`): it stays usable, on the browser's error page.
    Existing(i64),
    /// A tab opened for this action (`open_tab`): the caller closes it and says so.
    Opened,
}

/// Why the browser could not load a URL, from the `net::ERR_…` name in `Page.navigate`'s `errorText`
/// (Chromium's `net/base/net_error_list.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadFailure {
    /// The host name did not resolve (DNS).
    NameNotResolved,
    /// The host refused, dropped or never took the connection, or the machine is offline.
    Unreachable,
    /// The connection or the response timed out.
    TimedOut,
    /// The URL itself cannot be loaded: malformed, an unsupported scheme, or a port the browser refuses.
    BadUrl,
    /// The secure connection failed (certificate, TLS, HTTPS on a plain HTTP port).
    Insecure,
    /// An extension, a policy or the response's own headers blocked it.
    Blocked,
    /// The server answered with something the browser cannot show (redirect loop, empty or broken response).
    BadResponse,
    /// Any other network error.
    Other,
}

impl LoadFailure {
    /// Classifies an `errorText` such as `net::ERR_NAME_NOT_RESOLVED`.
    pub fn classify(error_text: &str) -> LoadFailure {
        let name = error_text.trim().trim_start_matches("net::");
        let is = |names: &[&str]| names.contains(&name);
        let starts = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
        if is(&[
            "ERR_NAME_NOT_RESOLVED",
            "ERR_NAME_RESOLUTION_FAILED",
            "ERR_ICANN_NAME_COLLISION",
        ]) || starts(&["ERR_DNS_"])
        {
            LoadFailure::NameNotResolved
        } else if is(&["ERR_TIMED_OUT", "ERR_CONNECTION_TIMED_OUT"]) {
            LoadFailure::TimedOut
        } else if is(&[
            "ERR_CONNECTION_REFUSED",
            "ERR_CONNECTION_RESET",
            "ERR_CONNECTION_CLOSED",
            "ERR_CONNECTION_ABORTED",
            "ERR_CONNECTION_FAILED",
            "ERR_ADDRESS_UNREACHABLE",
            "ERR_INTERNET_DISCONNECTED",
            "ERR_NETWORK_CHANGED",
            "ERR_NETWORK_ACCESS_DENIED",
            "ERR_NETWORK_IO_SUSPENDED",
            "ERR_EMPTY_RESPONSE",
            "ERR_SOCKET_NOT_CONNECTED",
            "ERR_TUNNEL_CONNECTION_FAILED",
        ]) || starts(&["ERR_PROXY_", "ERR_SOCKS_"])
        {
            LoadFailure::Unreachable
        } else if is(&[
            "ERR_INVALID_URL",
            "ERR_UNKNOWN_URL_SCHEME",
            "ERR_DISALLOWED_URL_SCHEME",
            "ERR_UNSAFE_PORT",
            "ERR_ADDRESS_INVALID",
            "ERR_FILE_NOT_FOUND",
        ]) {
            LoadFailure::BadUrl
        } else if starts(&["ERR_CERT_", "ERR_SSL_", "ERR_BAD_SSL_"]) {
            LoadFailure::Insecure
        } else if starts(&["ERR_BLOCKED_BY_"]) {
            LoadFailure::Blocked
        } else if is(&[
            "ERR_TOO_MANY_REDIRECTS",
            "ERR_INVALID_REDIRECT",
            "ERR_UNSAFE_REDIRECT",
            "ERR_HTTP_RESPONSE_CODE_FAILURE",
            "ERR_INVALID_RESPONSE",
            "ERR_INVALID_HTTP_RESPONSE",
            "ERR_CONTENT_DECODING_FAILED",
            "ERR_RESPONSE_HEADERS_TOO_BIG",
        ]) {
            LoadFailure::BadResponse
        } else {
            LoadFailure::Other
        }
    }
}

/// The error of a failed load of `url` (`error_text` is Chromium's, e.g. `net::ERR_CONNECTION_REFUSED`), with
/// what the agent should do next (SPEC §8). The code follows who can fix it:
///
/// * `host_not_found` — the host name does not resolve (DNS): retrying will not help; check the host name.
/// * `timeout` — the site did not answer: connection refused or reset, offline, timed out. Not the caller's
///   malformed input; the message says to check the URL, and that a retry is worth at most one try later.
/// * `invalid_action` — the URL itself cannot be loaded (malformed, unsupported scheme, a port the browser
///   refuses, a missing file): fix the request.
/// * `internal_error` — the browser refused what came back (certificate, a blocking policy, a redirect
///   loop, a broken response): tell the user.
pub fn load_error(url: &str, error_text: &str, tab: Tab) -> Error {
    let host = url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| url.to_owned());
    let after = match tab {
        Tab::Existing(id) => format!(
            " Tab {id} stays usable (it shows the browser's error page): navigate it elsewhere or go on."
        ),
        Tab::Opened => String::new(),
    };
    let e = error_text;
    match LoadFailure::classify(error_text) {
        LoadFailure::NameNotResolved => Error::HostNotFound(format!(
            "{host} could not be found: the DNS lookup failed ({e}) loading {url}. Check the host name in the \
             URL; if it is right, the site or the network is down: do not retry now, tell the user.{after}"
        )),
        LoadFailure::Unreachable => Error::Timeout(format!(
            "{host} did not answer ({e}) loading {url}. Check the URL's host and port; if they are right, the \
             site is down or unreachable from this browser: retry at most once, later, else tell the user.{after}"
        )),
        LoadFailure::TimedOut => Error::Timeout(format!(
            "loading {url} timed out ({e}): the site is slow or down. Retry at most once, later, else tell the \
             user.{after}"
        )),
        LoadFailure::BadUrl => Error::InvalidAction(format!(
            "the browser cannot load {url} ({e}): the URL is malformed, names a missing file, or uses a scheme \
             or port the browser refuses. Fix the URL.{after}"
        )),
        LoadFailure::Insecure => Error::Internal(format!(
            "the secure connection to {host} failed ({e}): its certificate is not trusted, or it does not \
             speak HTTPS there. Check http:// against https:// in the URL; else tell the user, and do not try \
             to get around it.{after}"
        )),
        LoadFailure::Blocked => Error::Internal(format!(
            "the browser blocked {url} ({e}: an extension, a policy, or the site's own headers). Tell the \
             user.{after}"
        )),
        LoadFailure::BadResponse => Error::Internal(format!(
            "{host} answered {url} with something the browser cannot show ({e}: a redirect loop, or an \
             empty or broken response). Tell the user, or try another page of the site.{after}"
        )),
        LoadFailure::Other => Error::Internal(format!(
            "the browser could not load {url} ({e}). Check the URL; else tell the user.{after}"
        )),
    }
}

/// Whether `url` is a `data:` URL.
fn is_data_url(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| u.scheme() == "data")
}

/// Whether a new tab should be created on `url` itself instead of on `about:blank` followed by
/// [`first_navigation`]: `about:blank` needs no navigation, and `Page.navigate` from an extension refuses
/// `data:` URLs (`ERR_ABORTED`) that `chrome.tabs.create` opens. Neither touches the network, so there is
/// no load failure to report.
pub fn opens_directly(url: &str) -> bool {
    url == "about:blank" || is_data_url(url)
}

/// Refuses target URLs that would land on the browser's own pages: `about:` URLs other than `about:blank`
/// and `about:srcdoc` are `chrome://` pages (e.g. `about:version`), which extensions cannot control — and
/// `Page.navigate` onto one from `chrome.debugger` crashes Chromium 156.
///
/// Errors: `invalid_action` naming the URL.
pub fn check_target(url: &str) -> Result<()> {
    let Ok(parsed) = url::Url::parse(url) else {
        return Ok(());
    };
    if parsed.scheme() == "about" && !matches!(parsed.path(), "blank" | "srcdoc") {
        return Err(Error::InvalidAction(format!(
            "{url} is one of the browser's own pages, which extensions cannot open or control; use an \
             http(s) URL (or about:blank)"
        )));
    }
    Ok(())
}

/// `go_back` / `go_forward`: moves `delta` (−1 / +1) in the tab's history and waits as [`navigate`] does.
///
/// Errors: `invalid_action` when there is no entry in that direction.
pub async fn go(tab_id: i64, delta: i64, load_wait_ms: u32) -> Result<NavResult> {
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
    crate::extract::invalidate(tab_id);
    let deadline = page::now_ms() + LOAD_BUDGET_MS;
    let commit = commit_waiter(tab_id);
    dialogs::navigating(
        tab_id,
        cdp::send(tab_id, &PageNavigateToHistoryEntry { entry_id }).err_into(),
    )
    .await?;
    let loaded = settle(tab_id, commit, deadline, load_wait_ms).await?;
    current(tab_id, loaded).await
}

/// `reload`: reloads the page and waits as [`navigate`] does.
pub async fn reload(tab_id: i64, load_wait_ms: u32) -> Result<NavResult> {
    crate::extract::invalidate(tab_id);
    let deadline = page::now_ms() + LOAD_BUDGET_MS;
    let commit = commit_waiter(tab_id);
    dialogs::navigating(tab_id, cdp::send(tab_id, &PageReload {}).err_into()).await?;
    let loaded = settle(tab_id, commit, deadline, load_wait_ms).await?;
    current(tab_id, loaded).await
}

/// Waits (answering dialogs) for the commit, then as [`wait_loaded`]; whether `load` came.
async fn settle(tab_id: i64, commit: EventRx, deadline: f64, load_wait_ms: u32) -> Result<bool> {
    committed(tab_id, commit, deadline).await?;
    wait_loaded(tab_id, deadline, load_wait_ms, true).await
}

/// Waits (answering dialogs) for the main frame's commit.
///
/// Errors: `session_not_found` when the debugger left the tab first (the dispatcher tells a closed tab
/// apart), `timeout` when nothing committed by `deadline`.
async fn committed(tab_id: i64, commit: EventRx, deadline: f64) -> Result<()> {
    let remaining = (deadline - page::now_ms()).max(0.0) as u32;
    let committed = dialogs::navigating(tab_id, async {
        Ok(cdp::with_timeout(remaining, commit).await)
    })
    .await?;
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
        status: http_status(tab_id).await,
        loaded: Some(loaded),
    })
}

/// The HTTP status of the tab's current document (`404` for a missing page), from its navigation timing
/// entry (`PerformanceNavigationTiming.responseStatus`); `None` when it came from no HTTP response
/// (`about:blank`, `data:`, a browser error page) or the page cannot tell yet (SPEC §4 `navigate`).
pub async fn http_status(tab_id: i64) -> Option<u16> {
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
            cdp::sleep(if started { 20 } else { 5 }).await;
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

#[cfg(test)]
mod tests {
    use super::*;
    use bua_protocol::ErrorCode;

    #[test]
    fn load_failures_are_classified_by_chromium_error_name() {
        let cases = [
            ("net::ERR_NAME_NOT_RESOLVED", LoadFailure::NameNotResolved),
            (
                "net::ERR_NAME_RESOLUTION_FAILED",
                LoadFailure::NameNotResolved,
            ),
            ("net::ERR_DNS_TIMED_OUT", LoadFailure::NameNotResolved),
            ("net::ERR_CONNECTION_REFUSED", LoadFailure::Unreachable),
            ("net::ERR_CONNECTION_RESET", LoadFailure::Unreachable),
            ("net::ERR_ADDRESS_UNREACHABLE", LoadFailure::Unreachable),
            ("net::ERR_INTERNET_DISCONNECTED", LoadFailure::Unreachable),
            ("net::ERR_EMPTY_RESPONSE", LoadFailure::Unreachable),
            ("net::ERR_PROXY_CONNECTION_FAILED", LoadFailure::Unreachable),
            ("net::ERR_TIMED_OUT", LoadFailure::TimedOut),
            ("net::ERR_CONNECTION_TIMED_OUT", LoadFailure::TimedOut),
            ("net::ERR_UNSAFE_PORT", LoadFailure::BadUrl),
            ("net::ERR_INVALID_URL", LoadFailure::BadUrl),
            ("net::ERR_UNKNOWN_URL_SCHEME", LoadFailure::BadUrl),
            ("net::ERR_CERT_AUTHORITY_INVALID", LoadFailure::Insecure),
            ("net::ERR_SSL_PROTOCOL_ERROR", LoadFailure::Insecure),
            ("net::ERR_BLOCKED_BY_ADMINISTRATOR", LoadFailure::Blocked),
            ("net::ERR_TOO_MANY_REDIRECTS", LoadFailure::BadResponse),
            (
                "net::ERR_HTTP_RESPONSE_CODE_FAILURE",
                LoadFailure::BadResponse,
            ),
            ("net::ERR_SOMETHING_NEW", LoadFailure::Other),
            // Without the `net::` prefix too.
            ("ERR_NAME_NOT_RESOLVED", LoadFailure::NameNotResolved),
        ];
        for (text, want) in cases {
            assert_eq!(LoadFailure::classify(text), want, "{text}");
        }
    }

    #[test]
    fn an_unknown_host_is_host_not_found_a_refused_one_timeout_both_say_to_check_the_url() {
        // DNS failure: its own code (an agent branching on `timeout` would retry it), never "retry as is".
        let e = load_error(
            "http://nonexistent.example/a",
            "net::ERR_NAME_NOT_RESOLVED",
            Tab::Existing(7),
        );
        assert_eq!(e.code(), ErrorCode::HostNotFound, "{e}");
        let m = e.to_string();
        for part in [
            "nonexistent.example could not be found",
            "DNS lookup failed (net::ERR_NAME_NOT_RESOLVED)",
            "Check the host name",
            "do not retry now",
            "Tab 7 stays usable",
        ] {
            assert!(m.contains(part), "{part:?} not in {m:?}");
        }
        // A closed port: the host did not answer.
        let e = load_error(
            "http://127.0.0.1:9/",
            "net::ERR_CONNECTION_REFUSED",
            Tab::Existing(7),
        );
        assert_eq!(e.code(), ErrorCode::Timeout, "{e}");
        let m = e.to_string();
        assert!(
            m.starts_with("127.0.0.1 did not answer (net::ERR_CONNECTION_REFUSED)"),
            "{m}"
        );
        assert!(m.contains("Check the URL's host and port"), "{m}");
        assert!(m.contains("retry at most once"), "{m}");
        // open_tab closes the tab it opened and says so itself: no "stays usable" here.
        let e = load_error(
            "http://nonexistent.example/",
            "net::ERR_NAME_NOT_RESOLVED",
            Tab::Opened,
        );
        assert_eq!(e.code(), ErrorCode::HostNotFound);
        assert!(!e.to_string().contains("stays usable"), "{e}");
    }

    #[test]
    fn a_url_the_browser_refuses_is_invalid_action_and_a_refused_answer_internal_error() {
        let e = load_error(
            "http://127.0.0.1:1/",
            "net::ERR_UNSAFE_PORT",
            Tab::Existing(3),
        );
        assert_eq!(e.code(), ErrorCode::InvalidAction, "{e}");
        assert!(e.to_string().contains("Fix the URL"), "{e}");
        let e = load_error(
            "https://self-signed.test/",
            "net::ERR_CERT_AUTHORITY_INVALID",
            Tab::Opened,
        );
        assert_eq!(e.code(), ErrorCode::InternalError, "{e}");
        assert!(e.to_string().contains("do not try to get around it"), "{e}");
        let e = load_error(
            "http://loop.test/",
            "net::ERR_TOO_MANY_REDIRECTS",
            Tab::Opened,
        );
        assert_eq!(e.code(), ErrorCode::InternalError, "{e}");
        assert!(e.to_string().contains("redirect loop"), "{e}");
    }

    #[test]
    fn only_blank_and_data_urls_open_directly() {
        assert!(opens_directly("about:blank"));
        assert!(opens_directly("data:text/html,<p>hi"));
        assert!(opens_directly("DATA:text/plain,x"));
        assert!(!opens_directly("http://127.0.0.1:8000/"));
        assert!(!opens_directly("https://example.com/data:x"));
    }

    #[test]
    fn browser_pages_behind_about_urls_are_refused_before_navigating() {
        for url in ["about:version", "about:settings", "about:gpu"] {
            let e = check_target(url).expect_err(url);
            assert_eq!(e.code(), bua_protocol::ErrorCode::InvalidAction);
            assert!(e.to_string().contains("browser's own pages"), "{e}");
        }
        for url in [
            "about:blank",
            "about:srcdoc",
            "http://127.0.0.1:8000/about:version",
            "https://example.com/",
            "data:text/html,hi",
        ] {
            assert_eq!(check_target(url), Ok(()), "{url}");
        }
    }
}
