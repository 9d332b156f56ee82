//! JavaScript dialogs (`alert`, `confirm`, `prompt`, `beforeunload`) and the actions (SPEC §7).
//!
//! An open dialog blocks the page's main thread: every CDP command that needs the page (input, evaluate,
//! even `Runtime.callFunctionOn`) waits until it closes. So:
//! * While `evaluate` or a navigation of ours runs, dialogs on that tab are answered at once
//!   ([`answering`]: alert and beforeunload accepted, confirm and prompt dismissed), so CDP cannot deadlock.
//! * Outside them, page dialogs are left to the user. An input command that raises one returns as soon as
//!   `Page.javascriptDialogOpening` arrives ([`race`]), and the next action reports the open dialog
//!   ([`ensure_none`]) instead of hanging until a timeout.

use crate::cdp::commands::PageHandleJavaScriptDialog;
use crate::cdp::{self, events, Command, Failure};
use crate::error::{Error, Result};
use futures::future::{select, Either};
use serde_json::Value;
use std::future::Future;

/// How a dialog raised during `evaluate` or a navigation is answered (SPEC §7): alert and beforeunload
/// are accepted, confirm and prompt dismissed.
pub fn accepts(dialog_type: &str) -> bool {
    matches!(dialog_type, "alert" | "beforeunload")
}

/// One line naming an open dialog: `alert("Saved!")`.
pub fn describe(dialog: &Value) -> String {
    let kind = dialog
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("dialog");
    let message = dialog.get("message").and_then(Value::as_str).unwrap_or("");
    let mut shown: String = message.chars().take(120).collect();
    if shown.len() < message.len() {
        shown.push('…');
    }
    format!("{kind}({shown:?})")
}

/// Fails with `element_obstructed` when a JavaScript dialog is open on the tab: the page cannot run
/// anything until it is answered.
pub fn ensure_none(tab_id: i64) -> Result<()> {
    match events::open_dialog(tab_id) {
        None => Ok(()),
        Some(dialog) => Err(Error::ElementObstructed(format!(
            "a JavaScript dialog {} is open on tab {tab_id} and blocks the page; the user can answer it, \
             or call evaluate (dialogs are answered automatically during evaluate: alert accepted, \
             confirm/prompt dismissed) or navigate away",
            describe(&dialog)
        ))),
    }
}

/// Answers the dialog open on the tab, if any, by the SPEC §7 rule; returns whether there was one.
pub async fn answer_open(tab_id: i64) -> Result<bool> {
    let Some(dialog) = events::open_dialog(tab_id) else {
        return Ok(false);
    };
    answer(tab_id, &dialog).await?;
    Ok(true)
}

async fn answer(tab_id: i64, dialog: &Value) -> Result<()> {
    let kind = dialog.get("type").and_then(Value::as_str).unwrap_or("");
    let accept = accepts(kind);
    let result =
        cdp::send_with_timeout(tab_id, &PageHandleJavaScriptDialog { accept }, 3_000).await;
    match result {
        Ok(_) => Ok(()),
        // Someone (the user) answered it first.
        Err(e) if e.failure == Failure::NoDialog => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Runs `work` while answering every dialog the tab raises meanwhile (SPEC §7: evaluate, and our own
/// navigations so a `beforeunload` guard cannot wedge them). A dialog already open is answered first.
pub async fn answering<T>(tab_id: i64, work: impl Future<Output = Result<T>>) -> Result<T> {
    // The next waiter is always registered before a dialog is answered: the page may raise the next one
    // (alert → confirm → prompt) before the answer's response arrives.
    let mut opening = opening_waiter(tab_id);
    answer_open(tab_id).await?;
    let mut work = std::pin::pin!(work);
    loop {
        match select(work.as_mut(), opening).await {
            Either::Left((result, _)) => return result,
            Either::Right((Ok(Some((_, dialog))), _)) => {
                opening = opening_waiter(tab_id);
                crate::log::info(&format!(
                    "tab {tab_id}: answering {} automatically",
                    describe(&dialog)
                ));
                answer(tab_id, &dialog).await?;
            }
            // The debugger went away; the work fails on its own.
            Either::Right(_) => return work.await,
        }
    }
}

fn opening_waiter(tab_id: i64) -> futures::channel::oneshot::Receiver<Option<(String, Value)>> {
    events::wait(tab_id, |method, _| method == "Page.javascriptDialogOpening")
}

/// What [`race`] saw first.
#[derive(Debug)]
pub enum Raced<T> {
    /// The command answered.
    Done(T),
    /// A dialog opened first (its `Page.javascriptDialogOpening` params); the command stays blocked
    /// in the page until the dialog is answered, and is abandoned.
    Dialog(Value),
}

/// Sends one CDP command that may make the page raise a dialog (input events): returns as soon as either
/// the command answers or a dialog opens, so the action never waits for the user.
pub async fn race<C: Command>(
    target: impl Into<cdp::Target>,
    command: &C,
) -> Result<Raced<C::Response>> {
    let target = target.into();
    let opening = opening_waiter(target.tab_id);
    let command = std::pin::pin!(cdp::send(&target, command));
    match select(command, opening).await {
        Either::Left((result, _)) => Ok(Raced::Done(result?)),
        Either::Right((Ok(Some((_, dialog))), _)) => Ok(Raced::Dialog(dialog)),
        Either::Right((_, command)) => Ok(Raced::Done(command.await?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn alert_and_beforeunload_are_accepted_confirm_and_prompt_dismissed() {
        assert!(accepts("alert"));
        assert!(accepts("beforeunload"));
        assert!(!accepts("confirm"));
        assert!(!accepts("prompt"));
    }

    #[test]
    fn describe_names_type_and_message() {
        let d = json!({"type": "alert", "message": "Saved!"});
        assert_eq!(describe(&d), "alert(\"Saved!\")");
    }
}
