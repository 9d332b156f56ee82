//! Tab actions: `get_tabs`.

use crate::chrome::windows;
use crate::error::Result;
use bua_protocol::{GetTabsResult, TabInfo};

/// `get_tabs` (SPEC §4): every tab of every normal window, with its window's state.
pub async fn get_tabs() -> Result<GetTabsResult> {
    let mut tabs = Vec::new();
    for window in windows::get_all(true).await? {
        let state = window.state.clone().unwrap_or_else(|| "normal".to_owned());
        for tab in window.tabs.unwrap_or_default() {
            let Some(tab_id) = tab.id else { continue };
            tabs.push(TabInfo {
                tab_id,
                window_id: tab.window_id,
                window_state: state.clone(),
                url: tab.url().to_owned(),
                title: tab.title.clone().unwrap_or_default(),
                active: tab.active,
                agent_owned: false,
                session: false,
            });
        }
    }
    Ok(GetTabsResult { tabs })
}
