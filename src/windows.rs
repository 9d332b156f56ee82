//! The agent window (SPEC §6, "The agent window"): where the agent's own tabs live, out of the user's way.
//!
//! * Created lazily by the first `open_tab` of an owner (a bridge client id, `"cli-…"`) with
//!   `chrome.windows.create({url, focused:false, state:"minimized"})`; never steals focus. Later `open_tab`s of
//!   the same owner add inactive tabs to it. Different owners get different windows.
//! * Persisted in `chrome.storage.local` `buaWindowId` as `{"<owner>": windowId}` so it survives a
//!   service-worker restart; an entry is forgotten on `windows.onRemoved` (the user closed it).
//! * The tabs the agent opened are persisted in `agentTabs` as `[{tabId, owner, windowId}]`: they are
//!   `agentOwned` in `get_tabs`, their sessions are `agent` sessions, and they are closed when their session
//!   ends. A window is closed with its last tab (Chrome does that), and [`close_if_empty`] closes one left
//!   holding only blank tabs.
//! * `open_tab {focus:true}` opens in the user's focused window instead (active), still as an agent tab.
//! * In its agent window an agent's tabs sit in one tab group named after the owner ([`crate::agent_groups`]).
//!
//! Every change to these keys goes through the session model's storage write lock.

use crate::chrome::{tabs, windows};
use crate::error::{Error, Result};
use crate::store;
use bua_protocol::{CloseAgentTabsResult, CloseAgentWindowResult, OpenTabResult, PageLoad};
use futures::lock::Mutex;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// Storage key of the agent windows: `{"<owner>": windowId}`.
pub const WINDOW_KEY: &str = "buaWindowId";
/// Storage key of the agent's tabs: `[{tabId, owner, windowId}]`.
pub const AGENT_TABS_KEY: &str = "agentTabs";

/// One tab the agent opened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentTab {
    /// The tab.
    pub tab_id: i64,
    /// The bridge client that opened it.
    pub owner: String,
    /// The window it was opened in (the agent window unless `focus:true`).
    pub window_id: i64,
}

/// `{"<owner>": windowId}`.
pub type WindowMap = BTreeMap<String, i64>;

thread_local! {
    /// Serialises window creation, so two concurrent `open_tab`s of one owner share one new window.
    static OPEN_LOCK: Rc<Mutex<()>> = Rc::new(Mutex::new(()));
    /// Windows shown for a capture: window id → (captures running in it, whether it was restored from minimized).
    static SHOWN: RefCell<HashMap<i64, (usize, bool)>> = RefCell::new(HashMap::new());
}

/// Runs `capture` (a screenshot of `tab_id`) with the tab's window restored if it is minimized, then minimizes
/// it again. Headed Chrome draws no compositor frames for a minimized (iconified) window, so
/// `Page.captureScreenshot` there may wait indefinitely (measured under Xvfb with a window manager: about half
/// the captures hung for 40 s or more). The window is restored with `focused:false`, so the user's focused
/// window keeps focus; it is visible for the length of the capture (about 150 ms). Concurrent captures in one
/// window restore it once and minimize it after the last.
///
/// A background tab of an agent window is first made that window's active tab ([`bring_forward`]).
pub async fn with_window_shown<T>(tab_id: i64, capture: impl std::future::Future<Output = T>) -> T {
    let window_id = match tabs::get(tab_id).await {
        Ok(tab) => {
            bring_forward(&tab).await;
            tab.window_id
        }
        Err(_) => return capture.await,
    };
    let first = SHOWN.with(|s| {
        let mut s = s.borrow_mut();
        let entry = s.entry(window_id).or_insert((0, false));
        entry.0 += 1;
        entry.0 == 1
    });
    if first {
        let minimized = windows::get(window_id, false)
            .await
            .is_some_and(|w| w.state.as_deref() == Some("minimized"));
        let restored = minimized
            && windows::update(
                window_id,
                &serde_json::json!({"state": "normal", "focused": false}),
            )
            .await
            .is_ok();
        SHOWN.with(|s| {
            if let Some(entry) = s.borrow_mut().get_mut(&window_id) {
                entry.1 = restored;
            }
        });
    }
    let out = capture.await;
    let minimize_again = SHOWN.with(|s| {
        let mut s = s.borrow_mut();
        let Some(entry) = s.get_mut(&window_id) else {
            return false;
        };
        entry.0 = entry.0.saturating_sub(1);
        if entry.0 == 0 {
            let restored = entry.1;
            s.remove(&window_id);
            restored
        } else {
            false
        }
    });
    if minimize_again {
        let _ = windows::update(window_id, &serde_json::json!({"state": "minimized"})).await;
    }
    out
}

/// Runs `action` (on a tab in `window_id`) and, if that window was minimized before and Chrome restored it
/// meanwhile, minimizes it again and gives the focus back to the window that had it (SPEC §6: the agent window
/// never steals focus). Headed Chrome activates the window of a tab that gets a mouse press through
/// `Input.dispatchMouseEvent` — a minimized window is restored and focused (measured under Xvfb with a window
/// manager: a `click`, even on a plain paragraph, while `hover`, a mouse move, does not). No CDP setting was
/// found that stops it, so the window is put back right after the action: it shows, and holds the focus, only
/// for the rest of that action. A window a capture holds restored ([`with_window_shown`]) is left to it.
pub async fn keep_minimized<T>(window_id: i64, action: impl std::future::Future<Output = T>) -> T {
    let minimized = windows::get(window_id, false)
        .await
        .is_some_and(|w| w.state.as_deref() == Some("minimized"));
    if !minimized {
        return action.await;
    }
    let focused = windows::get_last_focused()
        .await
        .ok()
        .filter(|w| w.focused)
        .and_then(|w| w.id)
        .filter(|id| *id != window_id);
    let out = action.await;
    let shown_for_capture = SHOWN.with(|s| s.borrow().contains_key(&window_id));
    let restored = !shown_for_capture
        && windows::get(window_id, false)
            .await
            .is_some_and(|w| w.state.as_deref() != Some("minimized"));
    if restored {
        crate::log::info(&format!(
            "window {window_id}: Chrome restored the minimized window for the action's input; minimizing it again"
        ));
        let _ = windows::update(window_id, &serde_json::json!({"state": "minimized"})).await;
        if let Some(id) = focused {
            let _ = windows::update(id, &serde_json::json!({"focused": true})).await;
        }
    }
    out
}

/// Makes `tab` the active tab of its window when it is a background tab of an agent window (SPEC §4
/// `screenshot`). Chrome composites only a window's active tab: `Page.captureScreenshot` of a background tab
/// waits for a frame that comes late or never (measured: 6–12 s, often past the capture's time limit), while
/// the active tab answers in about 70 ms. `tabs.update({active})` does not focus the window (the user's
/// focused window keeps focus); the user's own windows are left alone (their background tabs are captured
/// as they are, however slowly).
async fn bring_forward(tab: &tabs::Tab) {
    if tab.active {
        return;
    }
    let Some(tab_id) = tab.id else { return };
    let agent: WindowMap = store::local().read(WINDOW_KEY).await.unwrap_or_default();
    if !agent.values().any(|w| *w == tab.window_id) {
        return;
    }
    if let Err(e) = tabs::update(tab_id, &serde_json::json!({ "active": true })).await {
        crate::log::info(&format!(
            "tab {tab_id}: could not bring it forward in its agent window for the screenshot: {e}"
        ));
    }
}

/// Opens an agent tab for `owner` on `load_url` and records it in `agentTabs`; the result is
/// `{tabId, windowId, domain}` (SPEC §4 `open_tab`) with `domain` as given. With `focus`, the tab opens active in
/// the user's focused window. The caller has checked the blocklist and starts the tab's session
/// ([`crate::session::open_agent_tab`]).
pub async fn open(owner: &str, load_url: &str, domain: &str, focus: bool) -> Result<OpenTabResult> {
    let tab = if focus {
        let window_id = user_window().await;
        tabs::create(&tabs::CreateProperties {
            url: Some(load_url.to_owned()),
            window_id,
            active: Some(true),
            ..Default::default()
        })
        .await?
    } else {
        let lock = OPEN_LOCK.with(Rc::clone);
        let _guard = lock.lock().await;
        open_in_agent_window(owner, load_url).await?
    };
    let tab_id = tab
        .id
        .ok_or_else(|| Error::Internal("Chrome created a tab without an id".into()))?;
    adopt(tab_id, owner, tab.window_id).await?;
    if !focus {
        // The agent's named, coloured group in its window (SPEC §6 "Tab groups").
        crate::agent_groups::join(tab_id, owner, tab.window_id).await;
    }
    Ok(OpenTabResult {
        tab_id,
        window_id: tab.window_id,
        domain: domain.to_owned(),
        load: PageLoad::default(),
    })
}

/// Records `tab_id` (in `window_id`) as a tab `owner` opened: `agentOwned`, closed with its session. Used
/// for tabs opened for the agent and for tabs its tabs or actions open (popups, `target=_blank`).
pub async fn adopt(tab_id: i64, owner: &str, window_id: i64) -> Result<()> {
    let entry = AgentTab {
        tab_id,
        owner: owner.to_owned(),
        window_id,
    };
    store::local()
        .update(AGENT_TABS_KEY, |list: &mut Vec<AgentTab>| {
            list.retain(|t| t.tab_id != tab_id);
            list.push(entry);
        })
        .await?;
    Ok(())
}

async fn open_in_agent_window(owner: &str, url: &str) -> Result<tabs::Tab> {
    let known: WindowMap = store::local().read(WINDOW_KEY).await?;
    if let Some(&window_id) = known.get(owner) {
        if windows::get(window_id, false).await.is_some() {
            return tabs::create(&tabs::CreateProperties {
                url: Some(url.to_owned()),
                window_id: Some(window_id),
                active: Some(false),
                ..Default::default()
            })
            .await;
        }
    }
    let window = windows::create(&serde_json::json!({
        "url": url,
        "focused": false,
        "state": "minimized",
    }))
    .await?;
    let window_id = window
        .id
        .ok_or_else(|| Error::Internal("Chrome created a window without an id".into()))?;
    store::local()
        .update(WINDOW_KEY, |map: &mut WindowMap| {
            map.insert(owner.to_owned(), window_id);
        })
        .await?;
    window
        .tabs
        .and_then(|t| t.into_iter().next())
        .ok_or_else(|| Error::Internal(format!("the new agent window {window_id} has no tab")))
}

/// The user's focused normal window (never an agent window), if there is one.
async fn user_window() -> Option<i64> {
    let agent: WindowMap = store::local().read(WINDOW_KEY).await.unwrap_or_default();
    let is_agent = |id: Option<i64>| id.is_some_and(|id| agent.values().any(|w| *w == id));
    if let Ok(w) = windows::get_last_focused().await {
        if !is_agent(w.id) {
            return w.id;
        }
    }
    let all = windows::get_all(false).await.ok()?;
    let normal =
        |w: &&windows::Window| w.kind.as_deref().unwrap_or("normal") == "normal" && !is_agent(w.id);
    all.iter()
        .filter(normal)
        .find(|w| w.focused)
        .or_else(|| all.iter().find(normal))
        .and_then(|w| w.id)
}

/// The agent tabs and windows as stored.
pub async fn state() -> Result<(Vec<AgentTab>, WindowMap)> {
    let tabs: Vec<AgentTab> = store::local().read(AGENT_TABS_KEY).await?;
    let windows: WindowMap = store::local().read(WINDOW_KEY).await?;
    Ok((tabs, windows))
}

/// The registration of `tab_id` if the agent opened it.
pub async fn agent_tab(tab_id: i64) -> Option<AgentTab> {
    let tabs: Vec<AgentTab> = store::local().read(AGENT_TABS_KEY).await.ok()?;
    tabs.into_iter().find(|t| t.tab_id == tab_id)
}

/// The agent owner of `tab_id` (SPEC §6): the owner that opened it, else the owner of the agent window it is in;
/// `None` for the user's tabs (and tabs that do not exist).
pub async fn owner_of(tab_id: i64) -> Option<String> {
    let (registered, windows_map) = state().await.ok()?;
    if let Some(t) = registered.into_iter().find(|t| t.tab_id == tab_id) {
        return Some(t.owner);
    }
    let window_id = tabs::get(tab_id).await.ok()?.window_id;
    windows_map
        .into_iter()
        .find(|(_, w)| *w == window_id)
        .map(|(owner, _)| owner)
}

/// Whether the agent opened `tab_id`.
pub async fn is_agent_tab(tab_id: i64) -> bool {
    agent_tab(tab_id).await.is_some()
}

/// `close_agent_tabs` (SPEC §4): closes the tabs `owner` opened (and any tab in its agent window);
/// `{closed:[tabId…]}`. Their sessions end as `tab_closed` through `tabs.onRemoved`.
pub async fn close_agent_tabs(owner: &str) -> Result<CloseAgentTabsResult> {
    let (registered, windows_map) = state().await?;
    let mut ids: Vec<i64> = registered
        .iter()
        .filter(|t| t.owner == owner)
        .map(|t| t.tab_id)
        .collect();
    if let Some(&window_id) = windows_map.get(owner) {
        if let Some(w) = windows::get(window_id, true).await {
            ids.extend(w.tabs.unwrap_or_default().iter().filter_map(|t| t.id));
        }
    }
    ids.sort_unstable();
    ids.dedup();
    let mut closed = Vec::new();
    for id in ids {
        if tabs::remove(id).await.is_ok() {
            closed.push(id);
        }
    }
    forget_tabs(&closed).await;
    Ok(CloseAgentTabsResult { closed })
}

/// `close_agent_window` (SPEC §4): closes `owner`'s agent window; `{closed, windowId|null}`.
pub async fn close_agent_window(owner: &str) -> Result<CloseAgentWindowResult> {
    let known: WindowMap = store::local().read(WINDOW_KEY).await?;
    let Some(&window_id) = known.get(owner) else {
        return Ok(CloseAgentWindowResult {
            closed: false,
            window_id: None,
        });
    };
    let closed = windows::remove(window_id).await.is_ok();
    forget_window(window_id).await;
    Ok(CloseAgentWindowResult {
        closed,
        window_id: closed.then_some(window_id),
    })
}

/// Closes `window_id` if it is an agent window left with no tabs but blank ones (SPEC §6 "closed when its
/// last tab closes"); returns whether it closed it.
pub async fn close_if_empty(window_id: i64) -> bool {
    let known: WindowMap = store::local().read(WINDOW_KEY).await.unwrap_or_default();
    if !known.values().any(|w| *w == window_id) {
        return false;
    }
    let Some(window) = windows::get(window_id, true).await else {
        forget_window(window_id).await;
        return false;
    };
    let blank = |t: &tabs::Tab| {
        let url = t
            .pending_url
            .as_deref()
            .filter(|u| !u.is_empty())
            .unwrap_or(t.url());
        url.is_empty() || url == "about:blank" || url.starts_with("chrome://newtab")
    };
    if window.tabs.unwrap_or_default().iter().all(blank) && windows::remove(window_id).await.is_ok()
    {
        forget_window(window_id).await;
        return true;
    }
    false
}

/// The popup's Show: restores and focuses `owner`'s agent window, or every agent window; returns their ids.
pub async fn show(owner: Option<&str>) -> Result<Vec<i64>> {
    let known: WindowMap = store::local().read(WINDOW_KEY).await?;
    let mut shown = Vec::new();
    for (o, &window_id) in &known {
        if owner.is_some_and(|want| want != o) {
            continue;
        }
        if windows::update(
            window_id,
            &serde_json::json!({"state": "normal", "focused": true}),
        )
        .await
        .is_ok()
        {
            shown.push(window_id);
        }
    }
    Ok(shown)
}

/// `windows.onRemoved`: forgets the window if it was an agent window.
pub async fn forget_window(window_id: i64) {
    let r = store::local()
        .update(WINDOW_KEY, |map: &mut WindowMap| {
            map.retain(|_, w| *w != window_id);
        })
        .await;
    if let Err(e) = r {
        crate::log::warn(&format!("cannot forget agent window {window_id}: {e}"));
    }
}

/// `tabs.onRemoved`: forgets the tab; returns its registration if the agent had opened it.
pub async fn forget_tab(tab_id: i64) -> Option<AgentTab> {
    store::local()
        .update(AGENT_TABS_KEY, |list: &mut Vec<AgentTab>| {
            let i = list.iter().position(|t| t.tab_id == tab_id)?;
            Some(list.remove(i))
        })
        .await
        .ok()
        .flatten()
}

async fn forget_tabs(ids: &[i64]) {
    if ids.is_empty() {
        return;
    }
    let _ = store::local()
        .update(AGENT_TABS_KEY, |list: &mut Vec<AgentTab>| {
            list.retain(|t| !ids.contains(&t.tab_id));
        })
        .await;
}

/// Worker start: forgets agent windows and tabs that no longer exist.
pub async fn reconcile() {
    let Ok((registered, known)) = state().await else {
        return;
    };
    for (_, &window_id) in known.iter() {
        if windows::get(window_id, false).await.is_none() {
            forget_window(window_id).await;
        }
    }
    let mut gone = Vec::new();
    for t in &registered {
        if tabs::get(t.tab_id).await.is_err() {
            gone.push(t.tab_id);
        }
    }
    forget_tabs(&gone).await;
}
