//! The dispatcher pipeline every action runs through (SPEC §6, session model "首次 action 自动创建"):
//! resolve tabId + domain → blocklist check → ensure session → per-tab lock → attach the debugger → run the
//! handler → record the action. Actions that only manage tabs and windows skip the debugger steps.
//!
//! * Blocklist: the tab's current page (a hit also ends the tab's session) and the target URL of `open_tab` /
//!   `navigate`; a hit is `domain_blocked` with a `domain_blocked` event and no session.
//! * `open_tab`, and `navigate` without `tabId` when no session exists anywhere, open an agent tab
//!   ([`crate::windows`]).
//! * `screenshot` of a tab in a minimized window restores the window unfocused for the capture
//!   ([`windows::with_window_shown`]).
//! * Everything after the blocklist check runs "in flight": if the tab's session ends meanwhile (tab closed,
//!   Stop, idle, …) the action fails at once with `session_not_found`.

use super::Ctx;
use crate::error::Result;
use crate::{cdp, session, windows};
use bua_protocol::Action;
use serde::Serialize;

/// The owner recorded for requests that carry none (e.g. sent by a bridge without client ids).
pub const DEFAULT_OWNER: &str = "agent";

/// Runs one action for `owner` (the bridge client's id) and returns its result object.
pub async fn dispatch(owner: Option<String>, action: Action) -> Result<serde_json::Value> {
    session::ready().await;
    session::forward::flush();
    let owner = owner.unwrap_or_else(|| DEFAULT_OWNER.to_owned());
    match action {
        Action::GetTabs => json(super::tabs::get_tabs().await?),
        Action::OpenTab(p) => {
            session::check_url_allowed(&p.url, None).await?;
            json(windows::open_agent_tab(&owner, &p.url, p.focus).await?)
        }
        Action::CloseAgentTabs(p) => {
            let owner = p.owner.unwrap_or(owner);
            json(windows::close_agent_tabs(&owner).await?)
        }
        Action::CloseAgentWindow(p) => {
            let owner = p.owner.unwrap_or(owner);
            json(windows::close_agent_window(&owner).await?)
        }
        Action::ActivateTab(p) => json(super::tabs::activate_tab(p.tab_id).await?),
        Action::CloseTab(p) => {
            let tab_id = session::resolve_tab(&owner, p.tab_id).await?;
            if cdp::is_attached(tab_id) {
                // A `beforeunload` guard holds `tabs.remove` until someone answers it: answer it (SPEC §7).
                json(super::dialogs::answering(tab_id, super::tabs::close_tab(tab_id)).await?)
            } else {
                json(super::tabs::close_tab(tab_id).await?)
            }
        }
        Action::Navigate(mut p) if p.tab_id.is_none() && session::sessions().await?.is_empty() => {
            // No session anywhere: the navigation opens a tab in the agent window (SPEC §6).
            session::check_url_allowed(&p.url, None).await?;
            let opened =
                windows::open(&owner, "about:blank", &crate::session_domain(&p.url), false).await?;
            p.tab_id = Some(opened.tab_id);
            run_on_tab(owner, Action::Navigate(p)).await
        }
        other => run_on_tab(owner, other).await,
    }
}

/// The full pipeline for actions that act on a page.
async fn run_on_tab(owner: String, mut action: Action) -> Result<serde_json::Value> {
    let tab_id = session::resolve_tab(&owner, action.tab_id()).await?;
    action.set_tab_id(tab_id);
    let tab = crate::chrome::tabs::get(tab_id).await?;
    let url = page_url(&tab);
    session::check_tab_allowed(tab_id, url).await?;
    if let Some(target) = action.target_url() {
        session::check_url_allowed(target, Some(tab_id)).await?;
    }
    let url = url.to_owned();
    let name = action.name();
    let mut stages = Stages::new();
    session::run_in_flight(tab_id, async move {
        session::ensure_session(tab_id, &url, &owner).await?;
        stages.mark("session");
        let _lock = cdp::lock::lock_tab(tab_id).await;
        stages.mark("lock");
        cdp::ensure_attached(tab_id).await?;
        stages.mark("attach");
        let ctx = Ctx { tab_id, owner };
        let result = if matches!(action, Action::Screenshot(_)) {
            // A minimized window draws no frames to capture (headed Chrome).
            windows::with_window_shown(tab_id, super::run(&ctx, action)).await
        } else {
            super::run(&ctx, action).await
        };
        stages.mark("run");
        session::record_action(tab_id).await;
        stages.mark("record");
        stages.warn_if_slow(name, tab_id);
        result
    })
    .await
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
        let now = session::now();
        Stages {
            start: now,
            last: now,
            marks: Vec::new(),
        }
    }

    fn mark(&mut self, stage: &'static str) {
        let now = session::now();
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

/// The page a tab is on or loading: `pendingUrl` while a navigation is pending (a fresh `open_tab` tab),
/// else the committed `url`.
fn page_url(tab: &crate::chrome::tabs::Tab) -> &str {
    tab.pending_url
        .as_deref()
        .filter(|u| !u.is_empty())
        .unwrap_or(tab.url())
}

fn json<T: Serialize>(value: T) -> Result<serde_json::Value> {
    Ok(serde_json::to_value(value)?)
}
