//! CDP event routing: handlers that wait for an event on a tab register a one-shot waiter; `chrome.debugger.onEvent`
//! hands every event, decoded once ([`Event::decode`]), to [`dispatch`], which wakes matching waiters and keeps
//! per-tab facts (open dialog).

use super::event::{Event, JavascriptDialogOpening};
use futures::channel::oneshot;
use std::cell::RefCell;
use std::collections::HashMap;

type Predicate = Box<dyn Fn(&Event) -> bool>;

/// What a [`wait`] resolves with: the event, or `None` when the tab's debugger went away first.
pub type Next = oneshot::Receiver<Option<Event>>;

struct Waiter {
    tab_id: i64,
    matches: Predicate,
    tx: Option<oneshot::Sender<Option<Event>>>,
}

/// Listeners called for every event of every tab (extract's uid cache, the session guard, dialogs).
type Listener = Box<dyn Fn(i64, &Event)>;

thread_local! {
    static WAITERS: RefCell<Vec<Waiter>> = const { RefCell::new(Vec::new()) };
    static LISTENERS: RefCell<Vec<Listener>> = const { RefCell::new(Vec::new()) };
    static DIALOGS: RefCell<HashMap<i64, JavascriptDialogOpening>> = RefCell::new(HashMap::new());
}

/// Registers a listener for the worker's lifetime.
pub fn listen(listener: impl Fn(i64, &Event) + 'static) {
    LISTENERS.with(|l| l.borrow_mut().push(Box::new(listener)));
}

/// Returns a receiver that resolves with the first event on `tab_id` for which `matches(event)` holds
/// (`|e| matches!(e, Event::LoadEventFired(_))`), or with `None` when the tab's debugger goes away first.
/// Register before sending the command that causes it.
pub fn wait(tab_id: i64, matches: impl Fn(&Event) -> bool + 'static) -> Next {
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

/// Removes the waiters `done` picks and returns the senders of those whose receiver still listens, to be
/// sent on once the list is let go (a woken task may register new waiters).
fn take_waiters(mut done: impl FnMut(&Waiter) -> bool) -> Vec<oneshot::Sender<Option<Event>>> {
    WAITERS.with(|w| {
        let mut taken = Vec::new();
        w.borrow_mut().retain_mut(|waiter| {
            if !done(waiter) {
                return true;
            }
            taken.extend(waiter.tx.take().filter(|tx| !tx.is_canceled()));
            false
        });
        taken
    })
}

/// Entry point for `chrome.debugger.onEvent`.
pub fn dispatch(tab_id: i64, event: &Event) {
    if super::journal::is_journal_event(event) {
        super::journal::record(tab_id, event, crate::time::now());
    }
    match event {
        Event::JavascriptDialogOpening(dialog) => {
            DIALOGS.with(|d| d.borrow_mut().insert(tab_id, dialog.clone()));
        }
        Event::JavascriptDialogClosed(_) => {
            DIALOGS.with(|d| d.borrow_mut().remove(&tab_id));
        }
        _ if event.main_frame_navigated().is_some() => {
            DIALOGS.with(|d| d.borrow_mut().remove(&tab_id));
        }
        _ => {}
    }
    // Take the matching senders out first: a woken task may register new waiters.
    let fired = take_waiters(|waiter| {
        let canceled = waiter.tx.as_ref().is_some_and(|tx| tx.is_canceled());
        canceled || (waiter.tab_id == tab_id && (waiter.matches)(event))
    });
    for tx in fired {
        let _ = tx.send(Some(event.clone()));
    }
    LISTENERS.with(|l| {
        for listener in l.borrow().iter() {
            listener(tab_id, event);
        }
    });
}

/// The dialog currently open on `tab_id` (its [`Event::JavascriptDialogOpening`]), if any.
pub fn open_dialog(tab_id: i64) -> Option<JavascriptDialogOpening> {
    DIALOGS.with(|d| d.borrow().get(&tab_id).cloned())
}

/// Forgets `dialog` as the tab's open dialog (unless another opened since): Chrome says no such dialog is
/// showing, or that it belongs to a page that is no longer the tab's active one (its opening event came
/// after the navigation that left that page), and no `Page.javascriptDialogClosed` will come for it.
pub fn forget_dialog(tab_id: i64, dialog: &JavascriptDialogOpening) {
    DIALOGS.with(|d| {
        let mut d = d.borrow_mut();
        if d.get(&tab_id) == Some(dialog) {
            d.remove(&tab_id);
        }
    });
}

/// The tab's debugger went away: wake its waiters with `None` and drop its facts.
pub fn tab_gone(tab_id: i64) {
    DIALOGS.with(|d| d.borrow_mut().remove(&tab_id));
    let gone = take_waiters(|waiter| waiter.tab_id == tab_id);
    for tx in gone {
        let _ = tx.send(None);
    }
}
