//! The results of the actions on tabs: `get_tabs`, `open_tab`, the navigations, `activate_tab`,
//! `close_tab` and `close_agent_*`.

use crate::action::TabId;
use serde::{Deserialize, Serialize};

/// One tab of `get_tabs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TabInfo {
    /// The tab.
    pub tab_id: TabId,
    /// Its window.
    pub window_id: i64,
    /// `normal` / `minimized` / `maximized` / `fullscreen` (`chrome.windows.WindowState`).
    pub window_state: String,
    /// The tab's URL.
    pub url: String,
    /// The tab's title.
    pub title: String,
    /// Whether it is the active tab of its window.
    pub active: bool,
    /// Whether the agent opened it.
    pub agent_owned: bool,
    /// For agent tabs: the agent owner that opened it (SPEC §6); only that owner may act on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_owner: Option<String>,
    /// Whether it has an active session.
    pub session: bool,
}

/// `get_tabs` → `{tabs:[…]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GetTabsResult {
    /// Every tab of every normal window.
    pub tabs: Vec<TabInfo>,
}

/// `open_tab` → `{tabId, windowId, domain}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenTabResult {
    /// The new tab.
    pub tab_id: TabId,
    /// Its window (the agent window unless `focus`).
    pub window_id: i64,
    /// The target's host.
    pub domain: String,
    /// How the page loaded (`status?`, `loaded?`); both absent when the tab opened on `about:blank` or a
    /// `data:` URL without a navigation.
    #[serde(flatten)]
    pub load: PageLoad,
}

/// How a navigation's page loaded, the `{status?, loaded?}` of `open_tab` and the navigations (SPEC §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageLoad {
    /// The HTTP status of the document's response (`404` for a missing page); absent when it was not loaded
    /// over HTTP(S) (`about:blank`, `data:`, a browser error page) (SPEC §4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Whether the main frame's `load` event came within `loadWaitMs` after `DOMContentLoaded` (SPEC §4):
    /// `false` for a page still loading something (an image that never answers); the page is readable
    /// either way. Absent from older extensions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loaded: Option<bool>,
}

/// `navigate` / `go_back` / `go_forward` / `reload` → `{tabId, url, title, status?, loaded?}` after
/// `DOMContentLoaded` (SPEC §4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NavResult {
    /// The tab.
    pub tab_id: TabId,
    /// The URL after load (redirects followed).
    pub url: String,
    /// The title after load.
    pub title: String,
    /// How the page loaded (`status?`, `loaded?`).
    #[serde(flatten)]
    pub load: PageLoad,
}

/// `activate_tab` → `{tabId, url, title, active:true}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivateTabResult {
    /// The tab.
    pub tab_id: TabId,
    /// Its URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// Always true.
    pub active: bool,
}

/// `close_tab` → `{closed:true, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseTabResult {
    /// Whether the tab was closed.
    pub closed: bool,
    /// The tab.
    pub tab_id: TabId,
}

/// `close_agent_tabs` → `{closed:[tabId…]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CloseAgentTabsResult {
    /// The tabs closed.
    pub closed: Vec<TabId>,
}

/// `close_agent_window` → `{closed:bool, windowId:number|null}` (`windowId` is `null`, not omitted,
/// when there was no window).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseAgentWindowResult {
    /// Whether a window was closed.
    pub closed: bool,
    /// The window, `null` when none existed.
    pub window_id: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_load_is_flat_in_the_navigation_and_open_tab_results_and_omitted_when_unknown() {
        let load = PageLoad {
            status: Some(404),
            loaded: Some(false),
        };
        let nav = NavResult {
            tab_id: 3,
            url: "u".into(),
            title: "t".into(),
            load,
        };
        let wire = r#"{"tabId":3,"url":"u","title":"t","status":404,"loaded":false}"#;
        assert_eq!(serde_json::to_string(&nav).unwrap(), wire);
        assert_eq!(serde_json::from_str::<NavResult>(wire).unwrap(), nav);
        let opened = OpenTabResult {
            tab_id: 3,
            window_id: 7,
            domain: "d".into(),
            load: PageLoad::default(),
        };
        let wire = r#"{"tabId":3,"windowId":7,"domain":"d"}"#;
        assert_eq!(serde_json::to_string(&opened).unwrap(), wire);
        assert_eq!(serde_json::from_str::<OpenTabResult>(wire).unwrap(), opened);
    }
}
