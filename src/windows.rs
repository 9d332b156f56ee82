//! The agent window (SPEC §6): where `open_tab` puts the agent's tabs, minimized and unfocused.
//!
//! PROVISIONAL: the session issue replaces this with the real, persisted, per-owner agent window.

use crate::chrome::{tabs, windows};
use crate::error::Result;
use bua_protocol::{CloseAgentTabsResult, CloseAgentWindowResult, OpenTabResult};

/// Opens `url` in a new agent tab for `owner` (in the user's focused window when `focus`).
pub async fn open_agent_tab(_owner: &str, url: &str, focus: bool) -> Result<OpenTabResult> {
    let tab = if focus {
        tabs::create(&tabs::CreateProperties {
            url: Some(url.to_owned()),
            active: Some(true),
            ..Default::default()
        })
        .await?
    } else {
        let w = windows::create(
            &serde_json::json!({ "url": url, "focused": false, "state": "minimized" }),
        )
        .await?;
        w.tabs
            .and_then(|t| t.into_iter().next())
            .ok_or_else(|| crate::Error::Internal("window has no tab".into()))?
    };
    Ok(OpenTabResult {
        tab_id: tab.tab_id(),
        window_id: tab.window_id,
        domain: crate::session_domain(url),
    })
}

/// Closes `owner`'s agent tabs.
pub async fn close_agent_tabs(_owner: &str) -> Result<CloseAgentTabsResult> {
    Ok(CloseAgentTabsResult { closed: vec![] })
}

/// Closes `owner`'s agent window.
pub async fn close_agent_window(_owner: &str) -> Result<CloseAgentWindowResult> {
    Ok(CloseAgentWindowResult {
        closed: false,
        window_id: None,
    })
}

/// Whether the agent opened `tab_id`.
pub async fn is_agent_tab(_tab_id: i64) -> bool {
    false
}
