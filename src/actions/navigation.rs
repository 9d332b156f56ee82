//! `navigate`, `go_back`, `go_forward`, `reload` (SPEC §4): issue the navigation, wait for the main
//! frame to commit and load (30 s action budget), answer `beforeunload` (and any other dialog) meanwhile so
//! a guarded page cannot wedge them, and report `{tabId, url, title}`.
//!
//! Also [`Watch`]: input actions (click, Enter) that start a navigation wait for it to load before they
//! answer, so the next action sees the new page.

use super::dialogs;
use super::page;
use crate::cdp::{self, events};
use crate::error::{Error, Result};
use bua_protocol::NavResult;
use futures::channel::oneshot;
use serde_json::{json, Value};

/// How long a navigation may take to commit and load, ms (the bridge allows 30 s for the action).
pub const LOAD_BUDGET_MS: f64 = 27_000.0;

type EventRx = oneshot::Receiver<Option<(String, Value)>>;

/// A receiver for the next main-frame commit: `Page.frameNavigated` without `parentId` (new document,
/// bfcache restore included) or `Page.navigatedWithinDocument` (fragment, `history.pushState`).
fn commit_waiter(tab_id: i64) -> EventRx {
    events::wait(tab_id, |method, params| match method {
        "Page.frameNavigated" => params.pointer("/frame/parentId").is_none(),
        "Page.navigatedWithinDocument" => true,
        _ => false,
    })
}

/// `navigate {url}`: clears the uid cache, navigates, waits for load.
///
/// Errors: `invalid_action` when the browser cannot load the URL (`net::ERR_NAME_NOT_RESOLVED`, refused
/// connection, …), `timeout` when it does not load within the budget.
pub async fn navigate(tab_id: i64, url: &str) -> Result<NavResult> {
    crate::extract::invalidate(tab_id);
    let deadline = page::now_ms() + LOAD_BUDGET_MS;
    let commit = commit_waiter(tab_id);
    let response = dialogs::answering(
        tab_id,
        cdp::send_with_timeout(
            tab_id,
            "Page.navigate",
            json!({ "url": url }),
            LOAD_BUDGET_MS as u32,
        ),
    )
    .await?;
    if let Some(error) = response.get("errorText").and_then(Value::as_str) {
        if !error.is_empty() && !error.contains("ERR_ABORTED") {
            return Err(net_error(url, error));
        }
        // Aborted: a download, a 204, or a navigation the page replaced; report where the tab is.
        return current(tab_id).await;
    }
    if response.get("loaderId").and_then(Value::as_str).is_some() {
        settle(tab_id, commit, deadline).await?;
    }
    current(tab_id).await
}

fn net_error(url: &str, error: &str) -> Error {
    if error.contains("TIMED_OUT") {
        Error::Timeout(format!(
            "loading {url} timed out ({error}); the site may be slow or down"
        ))
    } else {
        Error::InvalidAction(format!(
            "the browser could not load {url} ({error}); check the URL"
        ))
    }
}

/// `go_back` / `go_forward`: moves `delta` (−1 / +1) in the tab's history and waits for load.
///
/// Errors: `invalid_action` when there is no entry in that direction.
pub async fn go(tab_id: i64, delta: i64) -> Result<NavResult> {
    let history = cdp::send(tab_id, "Page.getNavigationHistory", json!({})).await?;
    let index = history
        .get("currentIndex")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let entries = history
        .get("entries")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let target = usize::try_from(index + delta)
        .ok()
        .and_then(|i| entries.get(i));
    let Some(entry_id) = target.and_then(|e| e.get("id")).and_then(Value::as_i64) else {
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
    dialogs::answering(
        tab_id,
        cdp::send(
            tab_id,
            "Page.navigateToHistoryEntry",
            json!({ "entryId": entry_id }),
        ),
    )
    .await?;
    settle(tab_id, commit, deadline).await?;
    current(tab_id).await
}

/// `reload`: reloads the page and waits for load.
pub async fn reload(tab_id: i64) -> Result<NavResult> {
    crate::extract::invalidate(tab_id);
    let deadline = page::now_ms() + LOAD_BUDGET_MS;
    let commit = commit_waiter(tab_id);
    dialogs::answering(tab_id, cdp::send(tab_id, "Page.reload", json!({}))).await?;
    settle(tab_id, commit, deadline).await?;
    current(tab_id).await
}

/// Waits (answering dialogs) for the commit, then for `document.readyState === "complete"`.
/// A page that reached `interactive` when the budget runs out counts as loaded (a stalled image must not
/// fail the navigation); one still `loading` is a `timeout`.
async fn settle(tab_id: i64, commit: EventRx, deadline: f64) -> Result<()> {
    let remaining = (deadline - page::now_ms()).max(0.0) as u32;
    let committed = dialogs::answering(tab_id, async {
        Ok(cdp::with_timeout(remaining, commit).await)
    })
    .await?;
    match committed {
        Some(Ok(Some(_))) => {}
        Some(_) => {
            return Err(Error::SessionNotFound(format!(
                "the debugger left tab {tab_id} during the navigation (tab closed?)"
            )))
        }
        None => {
            return Err(Error::Timeout(format!(
                "tab {tab_id} did not start showing the new page within {} s; call extract to see \
                 where it is",
                LOAD_BUDGET_MS / 1000.0
            )))
        }
    }
    wait_loaded(tab_id, deadline, true).await
}

/// Polls `document.readyState` until `complete` or `deadline` (ms since the epoch). An open dialog is
/// answered when `answer` (our navigations), else it ends the wait (input actions leave dialogs to the
/// user).
pub async fn wait_loaded(tab_id: i64, deadline: f64, answer: bool) -> Result<()> {
    let mut state = String::new();
    loop {
        if answer {
            if dialogs::answer_open(tab_id).await? {
                continue;
            }
        } else if events::open_dialog(tab_id).is_some() {
            return Ok(());
        }
        // Right after a commit the new context may not exist yet: errors mean "not yet".
        if let Ok(v) = page::eval_value_with_timeout(tab_id, "document.readyState", 2_000).await {
            state = v.as_str().unwrap_or_default().to_owned();
            if state == "complete" {
                return Ok(());
            }
        }
        if page::now_ms() >= deadline {
            return if state == "interactive" {
                Ok(())
            } else {
                Err(Error::Timeout(format!(
                    "tab {tab_id} did not finish loading in time (readyState {state:?}); call wait_for or \
                     extract to check it"
                )))
            };
        }
        cdp::sleep(100).await;
    }
}

/// `{tabId, url, title}` of the tab's current history entry (error pages keep the URL that failed).
pub async fn current(tab_id: i64) -> Result<NavResult> {
    let history = cdp::send(tab_id, "Page.getNavigationHistory", json!({})).await?;
    let index = history
        .get("currentIndex")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let entry = history
        .get("entries")
        .and_then(Value::as_array)
        .and_then(|e| e.get(usize::try_from(index).unwrap_or(usize::MAX)))
        .cloned()
        .unwrap_or(Value::Null);
    let text = |k: &str| {
        entry
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let mut title = text("title");
    if title.is_empty() {
        if let Ok(Value::String(t)) =
            page::eval_value_with_timeout(tab_id, "document.title", 2_000).await
        {
            title = t;
        }
    }
    Ok(NavResult {
        tab_id,
        url: text("url"),
        title,
    })
}

/// Watches the main frame around an input action: created before the input, [`Watch::settle`] afterwards
/// waits for a navigation the input started.
pub struct Watch {
    started: EventRx,
    commit: EventRx,
}

impl Watch {
    /// Starts watching the tab's main frame.
    pub async fn start(tab_id: i64) -> Result<Watch> {
        let main = page::main_frame_id(tab_id).await?;
        let started = events::wait(tab_id, move |method, params| {
            matches!(
                method,
                "Page.frameRequestedNavigation"
                    | "Page.frameStartedNavigating"
                    | "Page.frameStartedLoading"
            ) && params.get("frameId").and_then(Value::as_str) == Some(main.as_str())
        });
        Ok(Watch {
            started,
            commit: commit_waiter(tab_id),
        })
    }

    /// If the input started a main-frame navigation, waits (at most `budget_ms`) for it to commit and
    /// load. Never fails the input action: the input happened; an unfinished load is only logged. A
    /// dialog (e.g. a `beforeunload` guard) ends the wait at once: dialogs outside evaluate are the user's.
    ///
    /// Whether a navigation started is learned from one CDP round trip, not a timed wait: the renderer
    /// answers it after the input's handlers and default action ran, so a navigation they requested has
    /// been announced (`Page.frameRequestedNavigation`, …) by then. Playwright's Chromium input epilogue
    /// does the same with `Page.enable`. `grace_ms` only covers the event reaching the worker after the
    /// answer, and navigations a handler defers by a timer of about that length.
    pub async fn settle(mut self, tab_id: i64, grace_ms: u32, budget_ms: u32) {
        let start = page::now_ms();
        let deadline = start + f64::from(budget_ms);
        // An error (the old document is already going away) or a dialog: the loop below sees either.
        let _ = dialogs::race(tab_id, "Runtime.evaluate", json!({ "expression": "0" })).await;
        let answered = page::now_ms();
        let mut started = false;
        loop {
            if events::open_dialog(tab_id).is_some() {
                return;
            }
            if !started {
                match self.started.try_recv() {
                    Ok(None) => {}
                    Ok(Some(Some(_))) => started = true,
                    Ok(Some(None)) | Err(_) => return,
                }
            }
            match self.commit.try_recv() {
                Ok(None) => {}
                Ok(Some(Some(_))) => break,
                Ok(Some(None)) | Err(_) => return,
            }
            let now = page::now_ms();
            if (!started && now - answered >= f64::from(grace_ms)) || now >= deadline {
                return;
            }
            cdp::sleep(if started { 20 } else { 5 }).await;
        }
        if let Err(e) = wait_loaded(tab_id, deadline, false).await {
            crate::log::info(&format!(
                "tab {tab_id}: page still loading after input: {e}"
            ));
        }
    }
}
