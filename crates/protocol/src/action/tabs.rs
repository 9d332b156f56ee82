//! The parameters of the actions on tabs and navigation: `open_tab`, `navigate`, `go_back` /
//! `go_forward` / `reload`, `close_tab`, `activate_tab`, `close_agent_*` and `get_tabs`.

use super::params::params;
use crate::field::{Flag, OptText, Url, REQUIRED_TAB};
use crate::wire::TabId;

params! {
    /// `open_tab {url, focus?, loadWaitMs?}` → `{tabId, windowId, domain, status?, loaded?}` after
    /// `DOMContentLoaded` (SPEC §4). Opens in the agent window unless `focus`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct OpenTab {
        /// Absolute URL (http, https, file, about or data).
        pub url: String = "url" => Url,
        /// Open in the user's window, not the agent's: only when the user asked to see it.
        pub focus: bool = "focus" => Flag(false),
        pub load_wait_ms,
    }

    /// `navigate {url, tabId?, loadWaitMs?}` → `{tabId, url, title, status?, loaded?}` after
    /// `DOMContentLoaded` and at most `loadWaitMs` for `load` (SPEC §4).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Navigate {
        /// Absolute URL (http, https, file, about or data).
        pub url: String = "url" => Url,
        pub tab_id,
        pub load_wait_ms,
        pub dialog,
    }

    /// `go_back` / `go_forward` / `reload {tabId?, loadWaitMs?}`: they wait as `navigate` does.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct TabLoad {
        pub tab_id,
        pub load_wait_ms,
        pub dialog,
    }

    /// Parameters of the actions that only take an optional `tabId`
    /// (`close_tab`).
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct TabOnly {
        pub tab_id,
        pub dialog,
    }

    /// `activate_tab {tabId}` (required) → `{tabId, url, title, active:true}`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ActivateTab {
        /// The tab to bring to the front (required).
        pub tab_id: TabId = "tabId" => REQUIRED_TAB,
    }

    /// `close_agent_tabs {owner?}` / `close_agent_window {owner?}`: only `owner`'s tabs/window when
    /// given; otherwise the requesting client's (the bridge stamps the request's `owner`).
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct OwnerOnly {
        /// Another agent owner (a bridge client id). Omitted: the caller.
        pub owner: Option<String> = "owner" => OptText,
    }

    /// The parameters of `get_tabs`: none.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub(crate) struct NoParams {}
}
