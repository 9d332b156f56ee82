//! CDP event routing: handlers that wait for an event on a tab register a one-shot waiter; `chrome.debugger.onEvent`
//! hands every event to [`dispatch`], which wakes matching waiters and keeps per-tab facts (open dialog).

use futures::channel::oneshot;
use std::cell::RefCell;
use std::collections::HashMap;

type Predicate = Box<dyn Fn(&str, &serde_json::Value) -> bool>;

struct Waiter {
    tab_id: i64,
    matches: Predicate,
    tx: Option<oneshot::Sender<Option<(String, serde_json::Value)>>>,
}

/// Listeners called for every event of every tab (extract's uid cache, the session guard, dialogs).
type Listener = Box<dyn Fn(i64, &str, &serde_json::Value)>;

thread_local! {
    static WAITERS: RefCell<Vec<Waiter>> = const { RefCell::new(Vec::new()) };
    static LISTENERS: RefCell<Vec<Listener>> = const { RefCell::new(Vec::new()) };
    static DIALOGS: RefCell<HashMap<i64, serde_json::Value>> = RefCell::new(HashMap::new());
}

/// Registers a listener for the worker's lifetime.
pub fn listen(listener: impl Fn(i64, &str, &serde_json::Value) + 'static) {
    LISTENERS.with(|l| l.borrow_mut().push(Box::new(listener)));
}

/// Returns a receiver that resolves with the first event on `tab_id` for which `matches(method, params)` holds,
/// or with `None` when the tab's debugger goes away first. Register before sending the command that causes it.
pub fn wait(
    tab_id: i64,
    matches: impl Fn(&str, &serde_json::Value) -> bool + 'static,
) -> oneshot::Receiver<Option<(String, serde_json::Value)>> {
    let (tx, rx) = oneshot::channel();
    WAITERS.with(|w| {
        w.borrow_mut().push(Waiter {
            tab_id,
            matches: Box::new(matches),
            tx: Some(tx),
        })
    });
    rx
}

/// The URL a main-frame commit landed on: `Some` for a `Page.frameNavigated` of a frame without `parentId`
/// (a new document in the tab, bfcache restores included), `None` for any other event.
pub fn main_frame_navigated(method: &str, params: &serde_json::Value) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct FrameNavigated {
        frame: Frame,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Frame {
        #[serde(default)]
        parent_id: Option<String>,
        #[serde(default)]
        url: String,
    }
    if method != "Page.frameNavigated" {
        return None;
    }
    let FrameNavigated { frame } = serde::Deserialize::deserialize(params).ok()?;
    frame.parent_id.is_none().then_some(frame.url)
}

/// Entry point for `chrome.debugger.onEvent`.
pub fn dispatch(tab_id: i64, method: &str, params: &serde_json::Value) {
    if super::journal::is_journal_event(method) {
        super::journal::record(tab_id, method, params, crate::time::now());
    }
    match method {
        "Page.javascriptDialogOpening" => {
            DIALOGS.with(|d| d.borrow_mut().insert(tab_id, params.clone()));
        }
        "Page.javascriptDialogClosed" => {
            DIALOGS.with(|d| d.borrow_mut().remove(&tab_id));
        }
        _ if main_frame_navigated(method, params).is_some() => {
            DIALOGS.with(|d| d.borrow_mut().remove(&tab_id));
        }
        _ => {}
    }
    // Take the matching senders out first: a woken task may register new waiters.
    let fired: Vec<_> = WAITERS.with(|w| {
        let mut w = w.borrow_mut();
        let mut fired = Vec::new();
        w.retain_mut(|waiter| {
            if waiter.tx.as_ref().is_some_and(|tx| tx.is_canceled()) {
                return false;
            }
            if waiter.tab_id == tab_id && (waiter.matches)(method, params) {
                if let Some(tx) = waiter.tx.take() {
                    fired.push(tx);
                }
                return false;
            }
            true
        });
        fired
    });
    for tx in fired {
        let _ = tx.send(Some((method.to_owned(), params.clone())));
    }
    LISTENERS.with(|l| {
        for listener in l.borrow().iter() {
            listener(tab_id, method, params);
        }
    });
}

/// The dialog currently open on `tab_id` (`Page.javascriptDialogOpening` params), if any.
pub fn open_dialog(tab_id: i64) -> Option<serde_json::Value> {
    DIALOGS.with(|d| d.borrow().get(&tab_id).cloned())
}

/// The tab's debugger went away: wake its waiters with `None` and drop its facts.
pub fn tab_gone(tab_id: i64) {
    DIALOGS.with(|d| d.borrow_mut().remove(&tab_id));
    let gone: Vec<_> = WAITERS.with(|w| {
        let mut w = w.borrow_mut();
        let mut gone = Vec::new();
        w.retain_mut(|waiter| {
            if waiter.tab_id == tab_id {
                if let Some(tx) = waiter.tx.take() {
                    gone.push(tx);
                }
                return false;
            }
            true
        });
        gone
    });
    for tx in gone {
        let _ = tx.send(None);
    }
}
