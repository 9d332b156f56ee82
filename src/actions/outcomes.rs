//! What an action caused besides its own result (SPEC §4 "Outcomes"), collected in one place around every
//! page action ([`Collector`]) and merged into its result: the dialogs answered ([`super::dialogs`]),
//! `navigated` when the main frame changed document, `openedTab` when a tab or popup opened from the tab,
//! and the downloads it started ([`super::downloads`]). A new kind of outcome is one more field filled in
//! [`Collector::finish`].
//!
//! A tab opened from a tab an action runs on, or from an agent's tab at any time, becomes that agent's tab
//! (`agentTabs`, an `agent` session): Chrome opens it next to its opener, so a tab opened from the agent
//! window stays in it ([`on_tab_created`]).

use super::ctx::Ctx;
use super::{dialogs, downloads, page};
use crate::chrome::tabs::Tab;
use bua_protocol::{Navigated, OpenedTab, Outcomes};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;

/// How long an action's result waits for the `chrome.downloads` item of a download it started, ms.
const DOWNLOAD_ITEM_WAIT_MS: f64 = 1_000.0;

struct Watching {
    owner: String,
    opened: Vec<OpenedTab>,
}

thread_local! {
    /// Tabs an action runs on now (the per-tab lock makes it one per tab).
    static WATCHING: RefCell<HashMap<i64, Watching>> = RefCell::new(HashMap::new());
}

/// Collects one action's outcomes; created before the action runs, [`Collector::finish`]ed after it.
pub struct Collector {
    tab_id: i64,
    navigations: u64,
    started: f64,
}

impl Collector {
    /// Starts watching `ctx.tab_id` for `ctx.owner`'s action.
    pub fn start(ctx: &Ctx) -> Collector {
        // Dialogs answered outside any action (none should be) are not this action's.
        dialogs::take_answered(ctx.tab_id);
        WATCHING.with(|w| {
            w.borrow_mut().insert(
                ctx.tab_id,
                Watching {
                    owner: ctx.owner.clone(),
                    opened: Vec::new(),
                },
            )
        });
        downloads::acting(ctx.tab_id, Some(&ctx.owner));
        Collector {
            tab_id: ctx.tab_id,
            navigations: crate::session::navigations(ctx.tab_id),
            started: crate::time::now(),
        }
    }

    /// Whether the tab's main frame changed document since the action started.
    pub fn navigated(&self) -> bool {
        crate::session::navigations(self.tab_id) != self.navigations
    }

    /// The outcomes. `navigated` is left out for the navigations (`navigate`, `go_back`, …), whose result
    /// is the new page.
    pub async fn finish(self, is_navigation: bool) -> Outcomes {
        let tab_id = self.tab_id;
        let navigated = if !is_navigation && self.navigated() {
            Some(current_page(tab_id).await)
        } else {
            None
        };
        let downloads = downloads::started_since(tab_id, self.started, DOWNLOAD_ITEM_WAIT_MS).await;
        let mut opened_tab = WATCHING.with(|w| {
            w.borrow_mut()
                .get_mut(&tab_id)
                .and_then(|w| (!w.opened.is_empty()).then(|| w.opened.remove(0)))
        });
        // A script's `window.open` creates its tab before the tab knows its URL.
        if let Some(opened) = opened_tab.as_mut().filter(|o| o.url.is_empty()) {
            if let Ok(tab) = crate::chrome::tabs::get(opened.tab_id).await {
                opened.url = tab
                    .pending_url
                    .clone()
                    .filter(|u| !u.is_empty())
                    .unwrap_or_else(|| tab.url().to_owned());
            }
        }
        Outcomes {
            dialogs: dialogs::take_answered(tab_id),
            navigated,
            opened_tab,
            downloads,
            ..Outcomes::default()
        }
    }
}

impl Drop for Collector {
    fn drop(&mut self) {
        WATCHING.with(|w| w.borrow_mut().remove(&self.tab_id));
        downloads::acting(self.tab_id, None);
    }
}

/// Records a tab the action running on `tab_id` opened itself (`click {newTab:true}`).
pub fn opened(tab_id: i64, tab: OpenedTab) {
    WATCHING.with(|w| {
        if let Some(w) = w.borrow_mut().get_mut(&tab_id) {
            w.opened.push(tab);
        }
    });
}

/// `{url, title}` of the tab's document now.
async fn current_page(tab_id: i64) -> Navigated {
    let read =
        page::eval_value_with_timeout(tab_id, "[location.href, document.title]", 2_000).await;
    if let Ok(Value::Array(v)) = read {
        let text = |i: usize| {
            v.get(i)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        return Navigated {
            url: text(0),
            title: text(1),
        };
    }
    match crate::chrome::tabs::get(tab_id).await {
        Ok(tab) => Navigated {
            url: tab.url().to_owned(),
            title: tab.title.unwrap_or_default(),
        },
        Err(_) => Navigated {
            url: String::new(),
            title: String::new(),
        },
    }
}

/// Whether a new tab's first URL is a web page an agent could have opened (`about:blank` included: a
/// `window.open` popup often starts there), not a browser or extension page.
fn is_web_page(url: &str) -> bool {
    let scheme = url.split(':').next().unwrap_or("").to_ascii_lowercase();
    matches!(
        scheme.as_str(),
        "http" | "https" | "file" | "about" | "data" | "blob" | ""
    ) && !url.starts_with("about:newtab")
}

/// `chrome.tabs.onCreated`: a tab opened from a tab an action runs on is reported by that action, and a
/// tab opened from there or from an agent's tab joins that agent's tabs and sessions. Tabs the user opens
/// from their own tabs are left alone.
pub async fn on_tab_created(tab: Tab) {
    let (Some(opener), Some(tab_id)) = (tab.opener_tab_id, tab.id) else {
        return;
    };
    let url = tab
        .pending_url
        .clone()
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| tab.url().to_owned());
    if !is_web_page(&url) {
        // A browser or extension page (a new-tab page, this extension's popup opened as a tab) is never an
        // agent's tab: the person opened it, and the agent could not drive it anyway.
        return;
    }
    let watched = WATCHING.with(|w| {
        w.borrow_mut().get_mut(&opener).map(|w| {
            w.opened.push(OpenedTab {
                tab_id,
                url: url.clone(),
            });
            w.owner.clone()
        })
    });
    let owner = match watched {
        Some(owner) => owner,
        None => match crate::windows::agent_tab(opener).await {
            Some(agent) => agent.owner,
            None => return,
        },
    };
    if let Err(e) = crate::windows::adopt(tab_id, &owner, tab.window_id).await {
        crate::log::warn(&format!("tab {tab_id} opened by tab {opener}: {e}"));
        return;
    }
    let domain = crate::session_domain(&url);
    if let Err(e) = crate::session::start_agent_session(tab_id, &domain, &owner).await {
        crate::log::warn(&format!("tab {tab_id} opened by tab {opener}: {e}"));
    }
}

#[cfg(test)]
mod tests {
    use super::is_web_page;

    #[test]
    fn only_web_pages_opened_from_an_agent_tab_join_the_agent() {
        for url in [
            "https://a.test/x",
            "http://127.0.0.1:80/",
            "about:blank",
            "",
            "file:///tmp/a.html",
        ] {
            assert!(is_web_page(url), "{url}");
        }
        for url in [
            "chrome-extension://obbcebjpclnphmijagoggibdnbknjkao/popup/popup.html",
            "chrome://newtab/",
            "devtools://devtools/bundled/inspector.html",
        ] {
            assert!(!is_web_page(url), "{url}");
        }
    }
}
