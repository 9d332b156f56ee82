//! The debugger controller: attaches `chrome.debugger` (CDP 1.3) to tabs, sends typed commands with timeouts,
//! and routes CDP events to whoever waits for them.
//!
//! Attachment is idempotent and tracked in memory (`ATTACHED`). After a service-worker restart the set is empty
//! while Chrome still holds our attachment; an attach then answers "Another debugger is already attached", which
//! [`ensure_attached`] treats as ours when `chrome.debugger.getTargets` says the extension is the one attached.

pub mod command;
pub mod commands;
pub mod error;
pub mod event;
pub mod events;
pub mod frames;
pub mod journal;
pub mod lock;
pub mod target;

pub use command::Command;
pub use error::{CdpError, Failure};
pub use event::Event;

use crate::chrome::debugger;
use crate::error::{Error, Result};
use commands::{
    EmulationSetFocusEmulationEnabled, LogEnable, NetworkEnable,
    PageAddScriptToEvaluateOnNewDocument, PageEnable, PageNavigate, PageReload, RuntimeEnable,
    RuntimeEvaluate,
};
use futures::future::{select, Either};
use gloo_timers::future::TimeoutFuture;
use std::cell::RefCell;
use std::collections::HashSet;
use std::future::Future;
pub use target::Target;

thread_local! {
    static ATTACHED: RefCell<HashSet<i64>> = RefCell::new(HashSet::new());
    /// Tabs whose `Page.enable` waits on a JavaScript dialog that opened while no debugger listened
    /// ([`prepare`]).
    static HELD: RefCell<HashSet<i64>> = RefCell::new(HashSet::new());
}

/// How long the attach waits for `Page.enable`, ms. A dialog that opened while our debugger was not
/// attached (the worker stopped, or before the tab's first action) holds the page: `Page.enable` then
/// answers only once it closes, the debugger cannot answer it ("No dialog is showing"), and only a
/// navigation (`Page.navigate`, `Page.reload`) closes it. A page whose script keeps its main thread busy
/// looks the same from here, so the message names both.
const PAGE_ENABLE_WAIT_MS: u32 = 5_000;

/// Whether the last attach to `tab_id` found its page held by a dialog the debugger cannot answer.
pub fn held_by_dialog(tab_id: i64) -> bool {
    HELD.with(|h| h.borrow().contains(&tab_id))
}

/// Frees a page [`held_by_dialog`] by loading it (`url`, else the page itself): the load closes the dialog
/// and the page's `Page.enable` answers; then attaches as [`ensure_attached`] does. The action that asked
/// loads its page after this (a second load of the same URL replaces the entry: the history is unchanged).
///
/// Errors: those of the load, or of the attach when the page stays held.
pub async fn free_held(tab_id: i64, url: Option<&str>) -> Result<()> {
    match url {
        Some(url) => send(
            tab_id,
            &PageNavigate {
                url: url.to_owned(),
            },
        )
        .await
        .map(drop),
        None => send(tab_id, &PageReload {}).await.map(drop),
    }?;
    let mut attached = ensure_attached(tab_id).await;
    for _ in 0..FREE_ATTEMPTS {
        if attached.is_ok() || !held_by_dialog(tab_id) {
            break;
        }
        attached = ensure_attached(tab_id).await;
    }
    attached
}

/// How many more times [`free_held`] attaches while the page still reads as held.
const FREE_ATTEMPTS: usize = 2;

/// Default time a single CDP command may take before it fails with `timeout` (ms).
pub const COMMAND_TIMEOUT_MS: u32 = 10_000;

/// Whether this worker believes the debugger is attached to `tab_id`.
pub fn is_attached(tab_id: i64) -> bool {
    ATTACHED.with(|a| a.borrow().contains(&tab_id))
}

/// Tabs this worker has attached to.
pub fn attached_tabs() -> Vec<i64> {
    ATTACHED.with(|a| a.borrow().iter().copied().collect())
}

/// Attaches the debugger to `tab_id` unless attached, then enables the domains every action relies on
/// (`Page`, `Runtime`) and installs the `navigator.webdriver === false` script (SPEC §7).
pub async fn ensure_attached(tab_id: i64) -> Result<()> {
    if is_attached(tab_id) {
        return Ok(());
    }
    if let Err(message) = debugger::attach(tab_id).await {
        match Failure::classify(&message) {
            Failure::AlreadyAttached => {
                // Ours from before a worker restart, or someone else's (then commands fail visibly below).
                crate::log::info(&format!(
                    "tab {tab_id}: re-using an existing debugger attachment"
                ));
            }
            Failure::NoTab => return Err(crate::chrome::tabs::not_found(tab_id)),
            _ => return Err(debugger::attach_error(tab_id, &message)),
        }
    }
    ATTACHED.with(|a| a.borrow_mut().insert(tab_id));
    // `console` and `network` report what happened since this attach (SPEC §4).
    journal::reset(tab_id);
    if let Err(e) = prepare(tab_id).await {
        forget(tab_id);
        return Err(e);
    }
    Ok(())
}

/// The script that keeps `navigator.webdriver === false` in every document of the tab (SPEC §7).
pub(crate) const WEBDRIVER_FALSE: &str =
    "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });";

async fn prepare(tab_id: i64) -> Result<()> {
    match send_with_timeout(tab_id, &PageEnable {}, PAGE_ENABLE_WAIT_MS).await {
        Ok(_) => HELD.with(|h| h.borrow_mut().remove(&tab_id)),
        Err(e) if e.failure == Failure::Timeout => {
            HELD.with(|h| h.borrow_mut().insert(tab_id));
            return Err(Error::ElementObstructed(format!(
                "the page of tab {tab_id} does not answer: a JavaScript dialog that opened while the \
                 extension was not attached holds it (the debugger cannot answer such a dialog), or a \
                 script keeps it busy; navigate or reload the tab, which closes the dialog (the page's \
                 unsaved state is lost), or ask the user to answer it"
            )));
        }
        Err(e) => return Err(e.into()),
    };
    send(tab_id, &RuntimeEnable {}).await?;
    // The sources of `console` and `network`; a page that refuses them still runs every other action.
    let _ = send(tab_id, &NetworkEnable {}).await;
    let _ = send(tab_id, &LogEnable {}).await;
    send(
        tab_id,
        &PageAddScriptToEvaluateOnNewDocument {
            source: WEBDRIVER_FALSE.to_owned(),
        },
    )
    .await?;
    // Pages in the minimized agent window would otherwise count as unfocused and hidden (SPEC §6).
    let _ = send(tab_id, &EmulationSetFocusEmulationEnabled { enabled: true }).await;
    // The current document was created before the script was installed.
    let _ = send(
        tab_id,
        &RuntimeEvaluate {
            expression: format!("{WEBDRIVER_FALSE} 0"),
            ..Default::default()
        },
    )
    .await;
    // Cross-origin frames are targets of their own (SPEC §5 "Frames"): attach to them as flat sessions.
    if let Err(e) = send(tab_id, &target::auto_attach_params()).await {
        // Cross-origin frames stay out of reach then, as they were before Chrome offered flat sessions.
        crate::log::info(&format!("tab {tab_id}: cannot auto-attach to frames: {e}"));
    }
    Ok(())
}

/// Forgets the attachment (called first on `onDetach`, before any other cleanup, SPEC §6: a stale "attached"
/// entry would make the next action skip the attach and send commands to a detached tab).
pub fn forget(tab_id: i64) {
    ATTACHED.with(|a| a.borrow_mut().remove(&tab_id));
    target::tab_gone(tab_id);
    events::tab_gone(tab_id);
    journal::drop_tab(tab_id);
}

/// Detaches from `tab_id`; idempotent (the in-memory set is cleared first, errors are ignored).
pub async fn detach(tab_id: i64) {
    let was = is_attached(tab_id);
    forget(tab_id);
    if was {
        let _ = debugger::detach(tab_id).await;
    }
}

/// Sends one CDP command with the default timeout ([`COMMAND_TIMEOUT_MS`]) to a tab or one of its frame
/// sessions ([`Target`]; a tab id converts into its top-level target) and returns its typed answer.
///
/// Errors: a [`CdpError`] with the method, CDP's code and message and what it means ([`Failure`]); a detached
/// debugger or a closed tab is also forgotten here, so the next action attaches again. As a crate error it is
/// `timeout`, `session_not_found` (debugger or tab gone), `element_stale` (the frame went away) or
/// `internal_error`.
pub async fn send<C: Command>(
    target: impl Into<Target>,
    command: &C,
) -> Result<C::Response, CdpError> {
    send_with_timeout(target, command, COMMAND_TIMEOUT_MS).await
}

/// [`send`] with an explicit timeout in ms.
pub async fn send_with_timeout<C: Command>(
    target: impl Into<Target>,
    command: &C,
    timeout_ms: u32,
) -> Result<C::Response, CdpError> {
    let target = target.into();
    let tab_id = target.tab_id;
    let params =
        serde_json::to_value(command).map_err(|e| CdpError::malformed(C::METHOD, tab_id, &e))?;
    let answer = answer_of(&target, C::METHOD, timeout_ms, || {
        debugger::send_command(tab_id, target.session(), C::METHOD, &params)
    })
    .await?;
    match answer {
        // Commands without a result answer nothing at all.
        serde_json::Value::Null => decode::<C>(tab_id, serde_json::json!({})),
        value => decode::<C>(tab_id, value),
    }
}

/// Sends `commands` to `target` one after another without waiting for each answer, then waits for all of
/// them (each within [`COMMAND_TIMEOUT_MS`]); their answers are dropped. CDP runs a session's commands in the
/// order they arrive, so this is [`send`] in a loop without a round trip per command (input events: the page
/// sees them in order). A command refused with "not attached to an active page" is sent again a few ms
/// later and may then come after its successors.
///
/// Errors: the first failure, as [`send`]'s; the others are still waited for.
pub async fn send_all<C: Command>(
    target: impl Into<Target>,
    commands: &[C],
) -> Result<(), CdpError> {
    let target = target.into();
    let mut pending: Vec<_> = commands
        .iter()
        .map(|command| Some(Box::pin(send(target.clone(), command))))
        .collect();
    let mut first_error = None;
    // Polled in index order: a command is issued when its future is first polled.
    std::future::poll_fn(|cx| {
        for slot in pending.iter_mut() {
            if let Some(future) = slot {
                if let std::task::Poll::Ready(answer) = future.as_mut().poll(cx) {
                    *slot = None;
                    if let Err(e) = answer {
                        first_error.get_or_insert(e);
                    }
                }
            }
        }
        if pending.iter().all(Option::is_none) {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    first_error.map_or(Ok(()), Err)
}

/// Runs `call` (one `chrome.debugger.sendCommand` of `method` to `target`) within `timeout_ms`, again while
/// Chrome says the tab's new page is not active yet ([`not_active_yet`]); a refusal becomes a [`CdpError`].
async fn answer_of<T, Fut>(
    target: &Target,
    method: &'static str,
    timeout_ms: u32,
    call: impl Fn() -> Fut,
) -> Result<T, CdpError>
where
    Fut: Future<Output = std::result::Result<T, String>>,
{
    let mut attempt = 0;
    loop {
        let error = match with_timeout(timeout_ms, call()).await {
            Some(Ok(answer)) => return Ok(answer),
            Some(Err(text)) => failed(target, method, &text),
            None => return Err(CdpError::timeout(method, target.tab_id, timeout_ms)),
        };
        if !not_active_yet(&error, &mut attempt).await {
            return Err(error);
        }
    }
}

/// Most times a command that met a page not active yet is sent again ([`not_active_yet`]), 10 ms apart.
const NOT_ACTIVE_RETRIES: u32 = 20;

/// Whether to send a command again that Chrome refused with "Not attached to an active page": for a few ms
/// after a navigation commits (an error page of a refused URL too) the tab's new page is not active yet,
/// and a command sent then was not run at all (measured: one 5 ms retry in two of five first navigations).
/// Waits 10 ms before saying yes, at most [`NOT_ACTIVE_RETRIES`] times per command.
async fn not_active_yet(error: &CdpError, attempt: &mut u32) -> bool {
    if error.failure != Failure::PageNotActive || *attempt >= NOT_ACTIVE_RETRIES {
        return false;
    }
    *attempt += 1;
    sleep(10).await;
    true
}

/// Sends one CDP command and returns its answer as JSON text, for answers of megabytes (DOM snapshots, AX
/// trees) that the caller parses straight into its own types; errors as [`send`].
pub async fn send_text<C: Command>(
    target: impl Into<Target>,
    command: &C,
    timeout_ms: u32,
) -> Result<String, CdpError> {
    let target = target.into();
    let tab_id = target.tab_id;
    let params =
        serde_json::to_value(command).map_err(|e| CdpError::malformed(C::METHOD, tab_id, &e))?;
    answer_of(&target, C::METHOD, timeout_ms, || {
        debugger::send_command_json(tab_id, target.session(), C::METHOD, &params, C::ANSWER)
    })
    .await
}

fn decode<C: Command>(tab_id: i64, value: serde_json::Value) -> Result<C::Response, CdpError> {
    serde_json::from_value(value).map_err(|e| CdpError::malformed(C::METHOD, tab_id, &e))
}

fn failed(target: &Target, method: &'static str, text: &str) -> CdpError {
    let error = CdpError::from_chrome(method, target.tab_id, text);
    match target.session() {
        // A frame session can go (its frame navigated or was removed) while the tab stays attached.
        Some(session) if error.failure.is_target_gone() || error.failure == Failure::FrameGone => {
            target::session_gone(target.tab_id, session);
            CdpError {
                failure: Failure::FrameGone,
                ..error
            }
        }
        None if error.failure.is_target_gone() => {
            forget(target.tab_id);
            error
        }
        _ => error,
    }
}

/// Runs `future` for at most `ms`; `None` when the time ran out.
pub async fn with_timeout<T>(ms: u32, future: impl Future<Output = T>) -> Option<T> {
    let future = std::pin::pin!(future);
    match select(future, TimeoutFuture::new(ms)).await {
        Either::Left((value, _)) => Some(value),
        Either::Right(_) => None,
    }
}

/// Sleeps `ms` milliseconds.
pub async fn sleep(ms: u32) {
    TimeoutFuture::new(ms).await;
}
