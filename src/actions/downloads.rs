//! Downloads started from the agent's tabs (SPEC §4 `downloads`) and the ones each action started.
//!
//! `chrome.downloads` does not say which tab a download came from, CDP does: a tab's debugger reports
//! `Page.downloadWillBegin {url, suggestedFilename}` when a navigation of the tab turns into a download,
//! and `downloads.onCreated` reports the `chrome.downloads` item for the same URL a moment before or after.
//! The two are paired by URL. Only tabs with our debugger attached (the agent's and those it acts on) are
//! seen, so a download from a tab the user browses alone is never listed; the router further lists only
//! the downloads of the asking agent's tabs or of its own actions. What is learned lives in memory (a
//! service-worker restart forgets it; the files stay).

use super::handler::Pageless;
use crate::chrome::downloads::{self, DownloadItem};
use crate::error::Result;
use bua_protocol::{DownloadInfo, DownloadRef, Downloads, DownloadsResult};
use std::cell::RefCell;

/// How long a `Page.downloadWillBegin` and a `downloads.onCreated` may be apart and still pair, ms.
const PAIR_WINDOW_MS: f64 = 10_000.0;

/// A download seen from one side only, waiting for the other.
#[derive(Clone, Debug)]
struct Begun {
    tab_id: i64,
    url: String,
    suggested: String,
    at: f64,
    /// The owner of the action that was running on the tab, if one was.
    owner: Option<String>,
}

/// A download paired with its tab.
#[derive(Clone, Debug)]
struct Known {
    id: i64,
    tab_id: i64,
    owner: Option<String>,
    suggested: String,
    at: f64,
}

thread_local! {
    /// Tabs an action runs on now, with the action's owner ([`acting`]).
    static ACTING: RefCell<std::collections::HashMap<i64, String>> = RefCell::new(Default::default());
    static BEGUN: RefCell<Vec<Begun>> = const { RefCell::new(Vec::new()) };
    static CREATED: RefCell<Vec<(DownloadItem, f64)>> = const { RefCell::new(Vec::new()) };
    static KNOWN: RefCell<Vec<Known>> = const { RefCell::new(Vec::new()) };
}

/// Worker start: watch `Page.downloadWillBegin` on every attached tab.
pub fn install() {
    crate::cdp::events::listen(|tab_id, event| {
        if let crate::cdp::Event::DownloadWillBegin(download) = event {
            let begun = Begun {
                tab_id,
                url: download.url.clone(),
                suggested: download.suggested_filename.clone(),
                at: crate::time::now(),
                owner: ACTING.with(|a| a.borrow().get(&tab_id).cloned()),
            };
            let item = CREATED.with(|c| {
                let mut c = c.borrow_mut();
                let found = c.iter().position(|(i, _)| urls_match(i, &begun.url));
                found.map(|i| c.remove(i).0)
            });
            match item {
                Some(item) => pair(&item, begun),
                None => BEGUN.with(|b| b.borrow_mut().push(begun)),
            }
        }
    });
}

/// Marks `owner`'s action as running on `tab_id` (`Some`) or done (`None`): downloads that begin meanwhile
/// are that owner's, whoever's tab it is.
pub fn acting(tab_id: i64, owner: Option<&str>) {
    ACTING.with(|a| match owner {
        Some(owner) => {
            a.borrow_mut().insert(tab_id, owner.to_owned());
        }
        None => {
            a.borrow_mut().remove(&tab_id);
        }
    });
}

/// `chrome.downloads.onCreated(item)`.
pub fn on_created(item: DownloadItem) {
    let now = crate::time::now();
    BEGUN.with(|b| b.borrow_mut().retain(|x| now - x.at < PAIR_WINDOW_MS));
    CREATED.with(|c| c.borrow_mut().retain(|(_, at)| now - at < PAIR_WINDOW_MS));
    let begun = BEGUN.with(|b| {
        let mut b = b.borrow_mut();
        let found = b.iter().position(|x| urls_match(&item, &x.url));
        found.map(|i| b.remove(i))
    });
    match begun {
        Some(begun) => pair(&item, begun),
        None => CREATED.with(|c| c.borrow_mut().push((item, now))),
    }
}

fn urls_match(item: &DownloadItem, url: &str) -> bool {
    !url.is_empty() && (item.url == url || item.final_url == url)
}

fn pair(item: &DownloadItem, begun: Begun) {
    KNOWN.with(|k| {
        k.borrow_mut().push(Known {
            id: item.id,
            tab_id: begun.tab_id,
            owner: begun.owner,
            suggested: begun.suggested,
            at: begun.at,
        })
    });
}

/// The downloads that began on `tab_id` at or after `since` (ms since the epoch), as an action reports
/// them. A download whose `chrome.downloads` item has not arrived yet is waited for up to `wait_ms`.
pub async fn started_since(tab_id: i64, since: f64, wait_ms: f64) -> Vec<DownloadRef> {
    let deadline = crate::time::now() + wait_ms;
    loop {
        let pending = BEGUN.with(|b| {
            b.borrow()
                .iter()
                .any(|x| x.tab_id == tab_id && x.at >= since)
        });
        if !pending || crate::time::now() >= deadline {
            break;
        }
        crate::cdp::sleep(20).await;
    }
    let known: Vec<Known> = KNOWN.with(|k| {
        k.borrow()
            .iter()
            .filter(|x| x.tab_id == tab_id && x.at >= since)
            .cloned()
            .collect()
    });
    let mut out = Vec::with_capacity(known.len());
    for k in known {
        let item = downloads::get(k.id).await.ok().flatten();
        let (filename, state) = match &item {
            Some(item) => (name_or(item, &k.suggested), item.state.clone()),
            None => (k.suggested.clone(), "in_progress".to_owned()),
        };
        out.push(DownloadRef {
            id: k.id,
            filename,
            state,
        });
    }
    out
}

fn name_or(item: &DownloadItem, suggested: &str) -> String {
    let name = item.file_name();
    if name.is_empty() {
        suggested.to_owned()
    } else {
        name
    }
}

/// `downloads {tabId?, waitMs?}` (SPEC §4), for the requesting owner: see [`list`].
impl Pageless for Downloads {
    type Output = DownloadsResult;

    async fn run(&self, owner: &str) -> Result<DownloadsResult> {
        list(owner, self.tab_id, self.wait_ms.unwrap_or(0)).await
    }
}

/// `downloads {tabId?, waitMs?}` for `owner`: the downloads of `owner`'s tabs or actions (only `tab_id`'s
/// when given), oldest first; with `wait_ms`, first waits until none of them is in progress (then they are
/// listed as they are, still running or not).
pub async fn list(owner: &str, tab_id: Option<i64>, wait_ms: u64) -> Result<DownloadsResult> {
    let mut mine = Vec::new();
    let known: Vec<Known> = KNOWN.with(|k| k.borrow().clone());
    for k in known {
        if tab_id.is_some_and(|t| t != k.tab_id) {
            continue;
        }
        let owned = match &k.owner {
            Some(o) => o == owner,
            None => crate::windows::agent_tab(k.tab_id)
                .await
                .is_some_and(|t| t.owner == owner),
        };
        if owned {
            mine.push(k);
        }
    }
    let deadline = crate::time::now() + wait_ms as f64;
    loop {
        let mut items = Vec::with_capacity(mine.len());
        for k in &mine {
            if let Some(item) = downloads::get(k.id).await? {
                items.push((k, item));
            }
        }
        let running = items.iter().any(|(_, i)| i.state == "in_progress");
        if !running || crate::time::now() >= deadline {
            let downloads = items.into_iter().map(|(k, i)| info(k, &i)).collect();
            return Ok(DownloadsResult { downloads });
        }
        crate::cdp::sleep(100).await;
    }
}

fn info(k: &Known, item: &DownloadItem) -> DownloadInfo {
    let url = if item.final_url.is_empty() {
        item.url.clone()
    } else {
        item.final_url.clone()
    };
    DownloadInfo {
        id: item.id,
        tab_id: k.tab_id,
        url,
        filename: name_or(item, &k.suggested),
        mime: item.mime.clone(),
        bytes: item.bytes_received.max(0.0) as u64,
        total_bytes: (item.total_bytes > 0.0).then_some(item.total_bytes as u64),
        state: item.state.clone(),
        error: item.error.clone().filter(|e| !e.is_empty()),
    }
}
