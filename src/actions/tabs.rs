//! The tab and window actions (SPEC §4), which need no page: `get_tabs`, `activate_tab`, `close_tab`,
//! `close_agent_tabs`, `close_agent_window`.

use super::dialogs;
use super::handler::Pageless;
use crate::chrome::{tabs, windows};
use crate::error::Result;
use crate::{cdp, session};
use bua_protocol::{
    ActivateTab, ActivateTabResult, CloseAgentTabsResult, CloseAgentWindowResult, CloseTabResult,
    GetTabsResult, OwnerOnly, TabInfo, TabOnly,
};

/// `get_tabs` (it takes no parameters).
pub struct GetTabs;

/// `close_agent_tabs {owner?}`.
pub struct CloseAgentTabs(pub OwnerOnly);

/// `close_agent_window {owner?}`.
pub struct CloseAgentWindow(pub OwnerOnly);

/// `get_tabs` (SPEC §4): every tab of every normal window, with its window's state; `agentOwned` and
/// `agentOwner` for tabs an agent opened (or tabs in an agent window), `session` for tabs with an active session.
impl Pageless for GetTabs {
    type Output = GetTabsResult;

    async fn run(&self, _owner: &str) -> Result<GetTabsResult> {
        let sessions = crate::session::sessions().await?;
        let (agent_tabs, agent_windows) = crate::windows::state().await?;
        let mut result = Vec::new();
        for window in windows::get_all(true).await? {
            let window_owner = window.id.and_then(|id| {
                agent_windows
                    .iter()
                    .find(|(_, w)| **w == id)
                    .map(|(owner, _)| owner.clone())
            });
            let state = window.state.clone().unwrap_or_else(|| "normal".to_owned());
            for tab in window.tabs.unwrap_or_default() {
                let Some(tab_id) = tab.id else { continue };
                let agent_owner = agent_tabs
                    .iter()
                    .find(|t| t.tab_id == tab_id)
                    .map(|t| t.owner.clone())
                    .or_else(|| window_owner.clone());
                result.push(TabInfo {
                    tab_id,
                    window_id: tab.window_id,
                    window_state: state.clone(),
                    url: tab.url().to_owned(),
                    title: tab.title.clone().unwrap_or_default(),
                    active: tab.active,
                    agent_owned: agent_owner.is_some(),
                    agent_owner,
                    session: sessions.iter().any(|s| s.tab_id == tab_id),
                });
            }
        }
        Ok(GetTabsResult { tabs: result })
    }
}

/// `activate_tab {tabId}` (SPEC §4): makes the tab active and focuses its window; only a tab of `owner`'s
/// or one the user has (SPEC §6).
impl Pageless for ActivateTab {
    type Output = ActivateTabResult;

    async fn run(&self, owner: &str) -> Result<ActivateTabResult> {
        let tab_id = self.tab_id;
        session::check_tab_owner(owner, tab_id).await?;
        let tab = tabs::update(tab_id, &serde_json::json!({ "active": true }))
            .await
            .map_err(|_| tabs::not_found(tab_id))?;
        windows::update(tab.window_id, &serde_json::json!({ "focused": true })).await?;
        Ok(ActivateTabResult {
            tab_id,
            url: tab.url().to_owned(),
            title: tab.title.clone().unwrap_or_default(),
            active: true,
        })
    }
}

/// `close_tab {tabId?, dialog?}` (SPEC §4). Its session ends as `tab_closed` through `tabs.onRemoved`. A
/// `beforeunload` guard holds `tabs.remove` until someone answers it: on a tab with the debugger attached it
/// is answered (SPEC §7) and reported.
impl Pageless for TabOnly {
    type Output = serde_json::Value;

    async fn run(&self, owner: &str) -> Result<serde_json::Value> {
        let tab_id = session::resolve_tab(owner, self.tab_id).await?;
        if !cdp::is_attached(tab_id) {
            return Ok(serde_json::to_value(close_tab(tab_id).await?)?);
        }
        let policy = dialogs::Policy {
            dialog: self.dialog.clone(),
            leaves_page: true,
        };
        dialogs::take_answered(tab_id);
        let closed = dialogs::answering(tab_id, policy, close_tab(tab_id));
        let mut value = serde_json::to_value(closed.await?)?;
        let outcomes = bua_protocol::Outcomes {
            dialogs: dialogs::take_answered(tab_id),
            ..Default::default()
        };
        outcomes.merge_into(&mut value);
        Ok(value)
    }
}

async fn close_tab(tab_id: i64) -> Result<CloseTabResult> {
    tabs::remove(tab_id).await?;
    Ok(CloseTabResult {
        closed: true,
        tab_id,
    })
}

/// `close_agent_tabs {owner?}`: closes the tabs `owner` (default: the requester) opened.
impl Pageless for CloseAgentTabs {
    type Output = CloseAgentTabsResult;

    async fn run(&self, owner: &str) -> Result<CloseAgentTabsResult> {
        let owner = self.0.owner.as_deref().unwrap_or(owner);
        crate::windows::close_agent_tabs(owner).await
    }
}

/// `close_agent_window {owner?}`: closes `owner`'s agent window and its tabs.
impl Pageless for CloseAgentWindow {
    type Output = CloseAgentWindowResult;

    async fn run(&self, owner: &str) -> Result<CloseAgentWindowResult> {
        let owner = self.0.owner.as_deref().unwrap_or(owner);
        crate::windows::close_agent_window(owner).await
    }
}
