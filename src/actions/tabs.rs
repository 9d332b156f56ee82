//! Tab actions that need no debugger: `get_tabs`, `activate_tab`, `close_tab`.

use crate::chrome::{tabs, windows};
use crate::error::Result;
use bua_protocol::{ActivateTabResult, CloseTabResult, GetTabsResult, TabInfo};

/// `get_tabs` (SPEC §4): every tab of every normal window, with its window's state; `agentOwned` and
/// `agentOwner` for tabs an agent opened (or tabs in an agent window), `session` for tabs with an active session.
pub async fn get_tabs() -> Result<GetTabsResult> {
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

/// `activate_tab` (SPEC §4): makes the tab active and focuses its window.
pub async fn activate_tab(tab_id: i64) -> Result<ActivateTabResult> {
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

/// `close_tab` (SPEC §4). Its session ends as `tab_closed` through `tabs.onRemoved`.
pub async fn close_tab(tab_id: i64) -> Result<CloseTabResult> {
    tabs::remove(tab_id).await?;
    Ok(CloseTabResult {
        closed: true,
        tab_id,
    })
}
