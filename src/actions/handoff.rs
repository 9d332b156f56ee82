//! `handoff` (SPEC §4): the agent hands a tab to the person for what only they may do (sign in, a CAPTCHA, a
//! 2FA code, a payment confirmation) and gets it back by itself when the page is clear.
//!
//! * Shown: the tab becomes its window's active tab, the window is restored (if minimized) and focused, a
//!   `chrome.notifications` notification says why (a click brings the tab forward again), and the request is
//!   listed in `chrome.storage.local` `pendingHandoffs`, which the popup shows at its top with **Done** and
//!   **Cancel** ([`answer`]).
//! * Ends as soon as one of: the obstacle the classifier saw when the handoff began no longer fires
//!   (`by: "page"`); Done (`by: "user"`); Cancel (`by: "cancelled"`, `resolved: false`); `waitMs` runs out
//!   (`timeout`); the tab's session ends (the pipeline fails the action in flight with the session's error).
//!   A handoff that began on a page without an obstacle has nothing to watch: only Done, Cancel, the wait or
//!   the session end it.
//! * Watching: the classifier (SPEC §5) is re-run on page changes only — main-frame navigations and loads
//!   (`Page.frameNavigated`, `Page.domContentEventFired`, `Page.loadEventFired`) and DOM mutations, which a
//!   page-side `MutationObserver` reports through a `Runtime.addBinding` binding at most every
//!   [`PAGE_THROTTLE_MS`]; the worker waits [`DEBOUNCE_MS`] after a change before classifying, so a burst of
//!   changes costs one classification.
//! * Afterwards the notification and the popup entry go, and a window that was minimized when the handoff
//!   began is minimized again (after the last of several handoffs in it). Every handoff emits
//!   `handoff_started` / `handoff_ended` on the session bus: the bridge gets both, the audit log one HANDOFF row.
//!
//! The handoff does not hold the tab's per-tab lock while it waits (the person, not CDP input, acts on the
//! page), so the wait does not queue the agent's other actions on the tab behind it.

use super::ctx::Ctx;
use super::handler::{Handler, Traits, Window};
use crate::cdp::Event;
use crate::chrome::{notifications, storage, tabs, windows};
use crate::error::{Error, Result};
use crate::session::{self, SessionEvent, SessionOwner};
use crate::{cdp, extract};
use bua_protocol::{Extract, ExtractPart, Handoff, HandoffOutcome, HandoffResult, Obstacle};
use futures::channel::oneshot;
use futures::future::{select_all, FutureExt, LocalBoxFuture};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::HashMap;

/// Storage key of the handoffs waiting for the person: `[PendingHandoff]`, oldest first (the popup's source).
pub const PENDING_KEY: &str = "pendingHandoffs";
/// The page-side binding the mutation observer calls.
const BINDING: &str = "__buaHandoffChanged";
/// The page calls the binding at most once per this many ms during a burst of DOM mutations.
pub const PAGE_THROTTLE_MS: u32 = 100;
/// The worker waits this long after a DOM change before classifying, ms.
pub const DEBOUNCE_MS: u32 = 120;
/// The longest each step of tidying up after a handoff may take (notification, observer, window), ms.
const CLEANUP_TIMEOUT_MS: u32 = 2_000;
/// Prefix of the notification ids: `bua-handoff-<tabId>`.
const NOTIFICATION_PREFIX: &str = "bua-handoff-";

/// One handoff waiting for the person, as the popup shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingHandoff {
    /// The tab handed over.
    pub tab_id: i64,
    /// Its domain when the handoff began.
    pub domain: String,
    /// The agent's one-line reason.
    pub reason: String,
    /// ms since the Unix epoch.
    pub started_at: f64,
}

/// What the person pressed in the popup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// Done: the person finished (`by: "user"`).
    Done,
    /// Cancel: the person will not do it (`by: "cancelled"`).
    Cancel,
}

struct Waiting {
    pending: PendingHandoff,
    answer: Option<oneshot::Sender<Answer>>,
}

thread_local! {
    static WAITING: RefCell<HashMap<i64, Waiting>> = RefCell::new(HashMap::new());
    /// Windows shown for handoffs: window id → (handoffs running in it, whether it was minimized before).
    static SHOWN: RefCell<HashMap<i64, (usize, bool)>> = RefCell::new(HashMap::new());
}

/// The popup's Done / Cancel on the handoff of `tab_id`; false when none is waiting there.
pub fn answer(tab_id: i64, answer: Answer) -> bool {
    let sender = WAITING.with(|w| {
        w.borrow_mut()
            .get_mut(&tab_id)
            .and_then(|waiting| waiting.answer.take())
    });
    sender.is_some_and(|tx| tx.send(answer).is_ok())
}

/// The handoffs waiting now, oldest first.
pub fn pending() -> Vec<PendingHandoff> {
    let mut list: Vec<PendingHandoff> =
        WAITING.with(|w| w.borrow().values().map(|x| x.pending.clone()).collect());
    list.sort_by(|a, b| a.started_at.total_cmp(&b.started_at));
    list
}

/// Worker start: handoffs listed by a previous worker have no action waiting any more.
pub async fn reset() {
    if let Err(e) = write_pending().await {
        crate::log::warn(&format!("cannot reset {PENDING_KEY}: {e}"));
    }
}

/// `chrome.notifications.onClicked`: a handoff's notification brings its tab forward again.
pub async fn notification_clicked(id: &str) {
    let Some(tab_id) = id
        .strip_prefix(NOTIFICATION_PREFIX)
        .and_then(|t| t.parse::<i64>().ok())
    else {
        return;
    };
    if let Err(e) = bring_forward(tab_id).await {
        crate::log::info(&format!("handoff notification of tab {tab_id}: {e}"));
    }
}

/// Runs `handoff` on `ctx.tab_id` (session ensured, debugger attached, per-tab lock not held).
///
/// Errors: `invalid_action` when a handoff already waits on the tab; `timeout` when `waitMs` runs out; the
/// session's error when it ends meanwhile (from the pipeline); `session_not_found` when the debugger leaves.
impl Handler for Handoff {
    type Output = HandoffResult;
    const TRAITS: Traits = Traits {
        tab_lock: false,
        window: Window::Own,
        ..Traits::PAGE
    };

    async fn run(&self, ctx: &Ctx) -> Result<HandoffResult> {
        let params = self;
        let tab_id = ctx.tab_id;
        let (answer_tx, answer_rx) = oneshot::channel();
        let before = fingerprint(tab_id).await;
        let initial = classify(tab_id).await.ok().and_then(|page| page.obstacle);
        let session = session::session(tab_id).await;
        let pending = PendingHandoff {
            tab_id,
            domain: session
                .as_ref()
                .map(|s| s.domain.clone())
                .unwrap_or_default(),
            reason: params.reason.clone(),
            started_at: crate::time::now(),
        };
        let taken = WAITING.with(|w| {
            let mut w = w.borrow_mut();
            if w.contains_key(&tab_id) {
                return true;
            }
            w.insert(
                tab_id,
                Waiting {
                    pending: pending.clone(),
                    answer: Some(answer_tx),
                },
            );
            false
        });
        if taken {
            return Err(Error::InvalidAction(format!(
            "a handoff already waits for the person on tab {tab_id}; wait for its result instead of \
             asking twice"
        )));
        }
        let mut guard = Guard {
            pending: pending.clone(),
            owner: session.map(|s| s.owner).unwrap_or(SessionOwner::Agent),
            window: None,
            finished: false,
        };
        guard.window = show(tab_id).await;
        if let Err(e) = write_pending().await {
            crate::log::warn(&format!(
                "handoff on tab {tab_id}: cannot list it for the popup: {e}"
            ));
        }
        let message = request_text(&pending.domain, &pending.reason);
        if let Err(e) =
            notifications::create(&notification_id(tab_id), "The agent needs you", &message).await
        {
            crate::log::info(&format!("handoff on tab {tab_id}: no notification: {e}"));
        }
        session::bus::emit(SessionEvent::HandoffStarted {
            tab_id,
            domain: pending.domain.clone(),
            reason: pending.reason.clone(),
            started_at: pending.started_at,
        });

        let ending = wait(tab_id, initial, before, params.wait_ms, answer_rx).await;
        let (outcome, result) = match ending {
        Ending::Page(Ok(page)) => (HandoffOutcome::Page, Ok(result(tab_id, true, HandoffOutcome::Page, page))),
        Ending::Page(Err(e)) => (HandoffOutcome::SessionEnded, Err(e)),
        Ending::Answered(answer) => {
            let (resolved, by) = match answer {
                Answer::Done => (true, HandoffOutcome::User),
                Answer::Cancel => (false, HandoffOutcome::Cancelled),
            };
            let page = classify(tab_id).await.unwrap_or_default();
            (by, Ok(result(tab_id, resolved, by, page)))
        }
        Ending::TimedOut => (
            HandoffOutcome::Timeout,
            Err(Error::Timeout(format!(
                "the person did not finish on tab {tab_id} within {:.1} s (waitMs); call extract to see \
                 where the page is, then ask the user in the chat before handing it over again",
                params.wait_ms as f64 / 1000.0
            ))),
        ),
    };
        guard.finish(outcome).await;
        result
    }
}

fn result(tab_id: i64, resolved: bool, by: HandoffOutcome, page: Page) -> HandoffResult {
    HandoffResult {
        resolved,
        by,
        url: page.url,
        title: page.title,
        obstacle: page.obstacle,
        tab_id,
    }
}

/// What the classifier sees on the page.
#[derive(Clone, Debug, Default)]
struct Page {
    url: String,
    title: String,
    obstacle: Option<Obstacle>,
}

/// Runs the obstacle classifier (SPEC §5) on the tab, through `extract` without touching its uid cache.
async fn classify(tab_id: i64) -> Result<Page> {
    let params = Extract {
        tab_id: Some(tab_id),
        include: vec![ExtractPart::Markdown],
        ..Default::default()
    };
    let r = extract::extract(tab_id, &params).await?;
    Ok(Page {
        url: r.url,
        title: r.title,
        obstacle: r.obstacle,
    })
}

/// A cheap summary of the document (URL, title, element count, text length) that changes when the page does.
async fn fingerprint(tab_id: i64) -> Option<String> {
    super::page::eval_value(
        tab_id,
        "location.href + '|' + document.title + '|' + document.getElementsByTagName('*').length + '|' + \
         (document.body ? document.body.textContent.length : 0)",
    )
    .await
    .ok()
    .and_then(|v| v.as_str().map(str::to_owned))
}

/// [`classify`] once the document is parsed: `None` while it is still loading. A new document just committed
/// is empty and would read as "no obstacle"; its `DOMContentLoaded` classifies it again.
async fn classify_parsed(tab_id: i64) -> Result<Option<Page>> {
    let state = super::page::eval_value(tab_id, "document.readyState").await?;
    if state == "loading" {
        return Ok(None);
    }
    classify(tab_id).await.map(Some)
}

enum Ending {
    Answered(Answer),
    Page(Result<Page>),
    TimedOut,
}

/// Waits for the first ending; the page is watched only when it had an obstacle.
async fn wait(
    tab_id: i64,
    initial: Option<Obstacle>,
    before: Option<String>,
    wait_ms: u64,
    answer: oneshot::Receiver<Answer>,
) -> Ending {
    let mut endings: Vec<LocalBoxFuture<'_, Ending>> = vec![
        async move {
            match answer.await {
                Ok(a) => Ending::Answered(a),
                // The sender went with its entry: nothing more can be answered.
                Err(_) => futures::future::pending().await,
            }
        }
        .boxed_local(),
        async move {
            cdp::sleep(u32::try_from(wait_ms).unwrap_or(u32::MAX)).await;
            Ending::TimedOut
        }
        .boxed_local(),
    ];
    if let Some(obstacle) = initial {
        endings.push(
            watch(tab_id, obstacle, before)
                .map(Ending::Page)
                .boxed_local(),
        );
    }
    select_all(endings).await.0
}

/// Whether `event` is a page change that may have cleared the obstacle.
fn is_change(event: &Event) -> bool {
    match event {
        Event::DomContentEventFired(_) | Event::LoadEventFired(_) => true,
        Event::BindingCalled(called) => called.name == BINDING,
        _ => event.main_frame_navigated().is_some(),
    }
}

/// Re-classifies on every page change until `initial`'s type no longer fires; the page then.
async fn watch(tab_id: i64, initial: Obstacle, before: Option<String>) -> Result<Page> {
    let mut next = cdp::events::wait(tab_id, is_change);
    if let Err(e) = cdp::send(
        tab_id,
        &cdp::commands::RuntimeAddBinding {
            name: BINDING.to_owned(),
        },
    )
    .await
    {
        crate::log::info(&format!(
            "handoff on tab {tab_id}: no DOM watch ({e}); navigations only"
        ));
    }
    observe(tab_id).await;
    // The first round classifies at once if the page changed between the handoff's first look and the
    // observer's start (such a change sends no event); an unchanged page keeps its first verdict.
    let mut changed = before.is_none() || fingerprint(tab_id).await != before;
    // The event that woke the round: after a load or a DOM change the document is parsed; after a commit
    // (or at the start) it may not be.
    let mut parsed = false;
    loop {
        let verdict = match (changed, parsed) {
            (false, _) => Ok(None),
            (true, true) => classify(tab_id).await.map(Some),
            (true, false) => classify_parsed(tab_id).await,
        };
        changed = true;
        match verdict {
            Ok(Some(page)) if page.obstacle.as_ref().map(|o| o.r#type) != Some(initial.r#type) => {
                return Ok(page)
            }
            Ok(_) => {}
            // Mid-navigation the document may be gone; the next change classifies again.
            Err(e) => crate::log::info(&format!("handoff on tab {tab_id}: classify: {e}")),
        }
        // A new document needs its observer; on the same document this is a no-op.
        observe(tab_id).await;
        let event = match next.await {
            Ok(Some(event)) => event,
            _ => {
                return Err(Error::SessionNotFound(format!(
                "the debugger left tab {tab_id} during the handoff; call get_tabs to check the tab"
            )))
            }
        };
        // DOM mutations come in bursts; a navigation or a load is one event and is classified at once.
        if matches!(event, Event::BindingCalled(_)) {
            cdp::sleep(DEBOUNCE_MS).await;
        }
        parsed = !matches!(event, Event::FrameNavigated(_));
        next = cdp::events::wait(tab_id, is_change);
    }
}

/// Installs the page-side mutation observer (once per document).
async fn observe(tab_id: i64) {
    let script = format!(
        "(() => {{ const b = globalThis.{BINDING}; \
         if (typeof b !== 'function' || globalThis.__buaHandoffObserver) return false; \
         let pending = false; \
         const o = new MutationObserver(() => {{ if (pending) return; pending = true; \
           setTimeout(() => {{ pending = false; try {{ b('dom'); }} catch (e) {{}} }}, {PAGE_THROTTLE_MS}); }}); \
         o.observe(document, {{subtree: true, childList: true, attributes: true, characterData: true}}); \
         globalThis.__buaHandoffObserver = o; return true; }})()"
    );
    let _ = super::page::eval_value(tab_id, &script).await;
}

/// Stops watching the page (the tab may be gone already: errors are ignored).
async fn unobserve(tab_id: i64) {
    if !cdp::is_attached(tab_id) {
        return;
    }
    let _ = super::page::eval_value(
        tab_id,
        "(() => { globalThis.__buaHandoffObserver?.disconnect(); delete globalThis.__buaHandoffObserver; return true; })()",
    )
    .await;
    let _ = cdp::send(
        tab_id,
        &cdp::commands::RuntimeRemoveBinding {
            name: BINDING.to_owned(),
        },
    )
    .await;
}

/// What the notification and the popup say: "The agent needs you on example.com: sign in".
pub fn request_text(domain: &str, reason: &str) -> String {
    if domain.is_empty() {
        format!("The agent needs you: {reason}")
    } else {
        format!("The agent needs you on {domain}: {reason}")
    }
}

fn notification_id(tab_id: i64) -> String {
    format!("{NOTIFICATION_PREFIX}{tab_id}")
}

/// Makes the tab active and its window restored and focused; the window id, counted in [`SHOWN`].
async fn show(tab_id: i64) -> Option<i64> {
    let tab = tabs::get(tab_id).await.ok()?;
    let window_id = tab.window_id;
    let minimized = windows::get(window_id, false)
        .await
        .is_some_and(|w| w.state.as_deref() == Some("minimized"));
    SHOWN.with(|s| {
        let mut s = s.borrow_mut();
        let entry = s.entry(window_id).or_insert((0, minimized));
        entry.0 += 1;
    });
    if let Err(e) = bring_forward(tab_id).await {
        crate::log::warn(&format!("handoff on tab {tab_id}: cannot show it: {e}"));
    }
    Some(window_id)
}

/// The tab active in its window, the window restored if minimized, and focused.
async fn bring_forward(tab_id: i64) -> Result<()> {
    let tab = tabs::update(tab_id, &serde_json::json!({ "active": true }))
        .await
        .map_err(|_| tabs::not_found(tab_id))?;
    let minimized = windows::get(tab.window_id, false)
        .await
        .is_some_and(|w| w.state.as_deref() == Some("minimized"));
    let info = if minimized {
        serde_json::json!({ "state": "normal", "focused": true })
    } else {
        serde_json::json!({ "focused": true })
    };
    windows::update(tab.window_id, &info).await?;
    Ok(())
}

/// Minimizes `window_id` again after its last handoff, if it was minimized before the first.
async fn hide(window_id: i64) {
    let minimize = SHOWN.with(|s| {
        let mut s = s.borrow_mut();
        let Some(entry) = s.get_mut(&window_id) else {
            return false;
        };
        entry.0 = entry.0.saturating_sub(1);
        if entry.0 > 0 {
            return false;
        }
        let was_minimized = entry.1;
        s.remove(&window_id);
        was_minimized
    });
    if minimize {
        let _ = windows::update(window_id, &serde_json::json!({ "state": "minimized" })).await;
    }
}

async fn write_pending() -> Result<()> {
    storage::set(PENDING_KEY, &pending()).await
}

/// Ends a handoff exactly once: on [`Guard::finish`], or, when the pipeline drops the action because the
/// session ended, from `Drop` (as `session_ended`, in a task of its own).
struct Guard {
    pending: PendingHandoff,
    owner: SessionOwner,
    window: Option<i64>,
    finished: bool,
}

impl Guard {
    /// Runs the end in a task of its own and waits for it: the session's end may drop the action meanwhile,
    /// and the end (its event above all) must still happen, once.
    async fn finish(&mut self, outcome: HandoffOutcome) {
        self.finished = true;
        let (done, finished) = oneshot::channel();
        let (pending, owner, window) = (self.pending.clone(), self.owner, self.window);
        wasm_bindgen_futures::spawn_local(async move {
            end(pending, owner, window, outcome, Some(done)).await;
        });
        let _ = finished.await;
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if !self.finished {
            let (pending, owner, window) = (self.pending.clone(), self.owner, self.window);
            wasm_bindgen_futures::spawn_local(end(
                pending,
                owner,
                window,
                HandoffOutcome::SessionEnded,
                None,
            ));
        }
    }
}

async fn end(
    pending: PendingHandoff,
    owner: SessionOwner,
    window: Option<i64>,
    outcome: HandoffOutcome,
    answered: Option<oneshot::Sender<()>>,
) {
    let tab_id = pending.tab_id;
    WAITING.with(|w| w.borrow_mut().remove(&tab_id));
    if let Err(e) = write_pending().await {
        crate::log::warn(&format!("handoff on tab {tab_id}: cannot unlist it: {e}"));
    }
    session::bus::emit(SessionEvent::HandoffEnded {
        tab_id,
        domain: pending.domain,
        reason: pending.reason,
        outcome,
        owner,
        started_at: pending.started_at,
        ended_at: crate::time::now(),
    });
    // Tidying up after a session end races its cleanup (tabs and the agent window closing): none of it may
    // hold the handoff's end back, so each step has a deadline. The result goes out once the window is back
    // as it was; the notification and the page's observer go after.
    if let Some(window_id) = window {
        let _ = cdp::with_timeout(CLEANUP_TIMEOUT_MS, hide(window_id)).await;
    }
    if let Some(answered) = answered {
        let _ = answered.send(());
    }
    let _ = cdp::with_timeout(
        CLEANUP_TIMEOUT_MS,
        notifications::clear(&notification_id(tab_id)),
    )
    .await;
    // A session that ended takes the debugger (and with it the binding) away; a command sent to a tab being
    // detached or closed could wait out the CDP timeout, so the page is only told to stop on a live session.
    if outcome != HandoffOutcome::SessionEnded {
        let _ = cdp::with_timeout(CLEANUP_TIMEOUT_MS, unobserve(tab_id)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_names_the_site_and_the_reason() {
        assert_eq!(
            request_text("example.com", "sign in"),
            "The agent needs you on example.com: sign in"
        );
        assert_eq!(request_text("", "sign in"), "The agent needs you: sign in");
    }

    #[test]
    fn page_changes_are_navigations_loads_and_the_observer_binding() {
        use crate::cdp::event::{BindingCalled, FrameNavigated, NavigatedFrame};
        let navigated = |parent_id: Option<&str>| {
            Event::FrameNavigated(FrameNavigated {
                frame: NavigatedFrame {
                    id: "c".to_owned(),
                    parent_id: parent_id.map(str::to_owned),
                    url: "http://a.test/x".to_owned(),
                },
            })
        };
        let binding = |name: &str| {
            Event::BindingCalled(BindingCalled {
                name: name.to_owned(),
                payload: "dom".to_owned(),
            })
        };
        assert!(is_change(&navigated(None)));
        assert!(!is_change(&navigated(Some("f"))));
        assert!(is_change(&Event::LoadEventFired(Default::default())));
        assert!(is_change(&binding(BINDING)));
        assert!(!is_change(&binding("other")));
        assert!(!is_change(&Event::LogEntryAdded(Default::default())));
    }
}
