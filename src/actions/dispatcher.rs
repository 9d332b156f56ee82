//! The dispatcher pipeline every action runs through (SPEC §6, session model "首次 action 自动创建"):
//! resolve tabId + domain → blocklist check → ensure session → per-tab lock → attach the debugger → run the
//! handler → record the action. Actions that only manage tabs and windows skip the debugger steps.

use super::Ctx;
use crate::error::Result;
use crate::{cdp, session, windows};
use bua_protocol::Action;
use serde::Serialize;

/// The owner recorded for requests that carry none (e.g. sent by a bridge without client ids).
pub const DEFAULT_OWNER: &str = "agent";

/// Runs one action for `owner` (the bridge client's id) and returns its result object.
pub async fn dispatch(owner: Option<String>, action: Action) -> Result<serde_json::Value> {
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
            json(super::tabs::close_tab(tab_id).await?)
        }
        other => run_on_tab(owner, other).await,
    }
}

/// The full pipeline for actions that act on a page.
async fn run_on_tab(owner: String, mut action: Action) -> Result<serde_json::Value> {
    let tab_id = session::resolve_tab(&owner, action.tab_id()).await?;
    action.set_tab_id(tab_id);
    let tab = crate::chrome::tabs::get(tab_id).await?;
    session::check_url_allowed(tab.url(), Some(tab_id)).await?;
    if let Some(url) = action.target_url() {
        session::check_url_allowed(url, Some(tab_id)).await?;
    }
    session::ensure_session(tab_id, tab.url(), &owner).await?;
    let _lock = cdp::lock::lock_tab(tab_id).await;
    cdp::ensure_attached(tab_id).await?;
    let ctx = Ctx { tab_id, owner };
    let result = session::run_in_flight(tab_id, super::run(&ctx, action)).await;
    session::record_action(tab_id).await;
    result
}

fn json<T: Serialize>(value: T) -> Result<serde_json::Value> {
    Ok(serde_json::to_value(value)?)
}
