//! JavaScript dialogs (`alert`, `confirm`, `prompt`, `beforeunload`) and the actions (SPEC §7).
//!
//! An open dialog blocks the page's main thread: every CDP command that needs the page (input, evaluate,
//! even `Runtime.callFunctionOn`) waits until it closes. So every page action runs inside [`answering`]:
//! each dialog the tab raises meanwhile is answered at once by the action's [`Policy`] (its `dialog` and
//! `promptText`, else alert and beforeunload accepted, confirm and prompt dismissed) and recorded; the
//! router reports the records in the action's result ([`take_answered`]). A dialog already open when an
//! action starts is the router's decision: on an agent's tab it is answered by the default here, on a tab
//! the user is using it is left to the user ([`ensure_none`]).

use crate::cdp::commands::PageHandleJavaScriptDialog;
use crate::cdp::event::{Event, JavascriptDialogOpening};
use crate::cdp::{self, events, Command, Failure};
use crate::error::{Error, Result};
use bua_protocol::{DialogAnswered, DialogPolicy, DialogReport};
use futures::future::{select, Either};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::future::Future;

/// How the dialogs of one action are answered.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// The action's `dialog` and `promptText`.
    pub dialog: DialogPolicy,
    /// A navigation of ours (navigate, go_back, go_forward, reload, close_tab): its `beforeunload` is always
    /// accepted, since leaving the page is the action (to stay, do not navigate).
    pub leaves_page: bool,
}

impl Policy {
    /// Whether a dialog of `kind` is accepted.
    pub fn accepts(&self, kind: &str) -> bool {
        (self.leaves_page && kind == "beforeunload") || self.dialog.accepts(kind)
    }
}

thread_local! {
    /// Tabs whose dialogs an action is answering now, with its policy.
    static ACTIVE: RefCell<HashMap<i64, Policy>> = RefCell::new(HashMap::new());
    /// Per tab: the dialogs answered since the last [`take_answered`], oldest first.
    static ANSWERED: RefCell<HashMap<i64, Vec<DialogReport>>> = RefCell::new(HashMap::new());
    /// Tabs with a dialog CDP could not answer because its page is being left ([`take_stranded`]).
    static STRANDED: RefCell<HashSet<i64>> = RefCell::new(HashSet::new());
}

/// Whether a dialog of the page the tab is leaving could not be answered since the last call (SPEC §7): it
/// holds the navigation, which the caller then starts again.
pub fn take_stranded(tab_id: i64) -> bool {
    STRANDED.with(|s| s.borrow_mut().remove(&tab_id))
}

/// One line naming an open dialog: `alert("Saved!")`.
pub fn describe(dialog: &JavascriptDialogOpening) -> String {
    let kind = match dialog.kind.as_str() {
        "" => "dialog",
        kind => kind,
    };
    let message = dialog.message.as_str();
    let mut shown: String = message.chars().take(120).collect();
    if shown.len() < message.len() {
        shown.push('…');
    }
    format!("{kind}({shown:?})")
}

/// Whether an action is answering the tab's dialogs right now.
pub fn is_answering(tab_id: i64) -> bool {
    ACTIVE.with(|a| a.borrow().contains_key(&tab_id))
}

/// The dialog open on the tab that nobody is about to answer (none while an action answers them).
pub fn left_open(tab_id: i64) -> Option<JavascriptDialogOpening> {
    if is_answering(tab_id) {
        return None;
    }
    events::open_dialog(tab_id)
}

/// Fails with `element_obstructed` when a JavaScript dialog is open on the tab and left to the user: the
/// page cannot run anything until it is answered.
pub fn ensure_none(tab_id: i64) -> Result<()> {
    match left_open(tab_id) {
        None => Ok(()),
        Some(dialog) => Err(Error::ElementObstructed(format!(
            "a JavaScript dialog {} is open on tab {tab_id}, a tab the user is using, and blocks the page; \
             ask the user to answer it, or pass dialog: \"accept\" or \"dismiss\" to evaluate or navigate \
             (they answer it)",
            describe(&dialog)
        ))),
    }
}

/// The dialogs answered on the tab since the last call, oldest first.
pub fn take_answered(tab_id: i64) -> Vec<DialogReport> {
    ANSWERED.with(|a| a.borrow_mut().remove(&tab_id).unwrap_or_default())
}

/// Answers the dialog open on the tab, if any, by the running action's policy (the default outside one);
/// returns whether there was one.
pub async fn answer_open(tab_id: i64) -> Result<bool> {
    let Some(dialog) = events::open_dialog(tab_id) else {
        return Ok(false);
    };
    let policy = ACTIVE
        .with(|a| a.borrow().get(&tab_id).cloned())
        .unwrap_or_default();
    answer(tab_id, &dialog, &policy).await?;
    Ok(true)
}

async fn answer(tab_id: i64, dialog: &JavascriptDialogOpening, policy: &Policy) -> Result<()> {
    let kind = dialog.kind.as_str();
    let message = dialog.message.as_str();
    let accept = policy.accepts(kind);
    // An accepted prompt returns what a user pressing OK would send: the given text, else the default.
    let prompt_text = (accept && kind == "prompt").then(|| {
        policy
            .dialog
            .prompt_text
            .clone()
            .unwrap_or_else(|| dialog.default_prompt.clone())
    });
    crate::log::info(&format!(
        "tab {tab_id}: {} {}",
        if accept { "accepting" } else { "dismissing" },
        describe(dialog)
    ));
    let command = PageHandleJavaScriptDialog {
        accept,
        prompt_text: prompt_text.clone(),
    };
    let result = cdp::send_with_timeout(tab_id, &command, 3_000).await;
    match result {
        Ok(_) => {}
        // Someone (the user) answered it first: it is theirs, not reported; no close event may follow.
        Err(e) if e.failure == Failure::NoDialog => {
            events::forget_dialog(tab_id, dialog);
            return Ok(());
        }
        // It belongs to the page a navigation is leaving (an `alert()` loop raised one more after the
        // navigation began): CDP cannot reach that page any more, yet the dialog holds the renderer, so the
        // navigation cannot commit. [`take_stranded`] tells the navigation, which starts itself again: a new
        // navigation closes the old page's dialogs.
        Err(e) if e.failure == Failure::PageNotActive => {
            events::forget_dialog(tab_id, dialog);
            STRANDED.with(|s| s.borrow_mut().insert(tab_id));
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    }
    let report = DialogReport {
        r#type: kind.to_owned(),
        message: message.to_owned(),
        answer: if accept {
            DialogAnswered::Accepted
        } else {
            DialogAnswered::Dismissed
        },
        prompt_text,
    };
    ANSWERED.with(|a| a.borrow_mut().entry(tab_id).or_default().push(report));
    Ok(())
}

/// Runs `work` while answering, by `policy`, every dialog the tab raises meanwhile (SPEC §7); a dialog
/// already open is answered first, by the default. Inside another `answering` of the same tab (a
/// navigation inside a page action) this only runs `work`: the outer one answers.
pub async fn answering<T>(
    tab_id: i64,
    policy: Policy,
    work: impl Future<Output = Result<T>>,
) -> Result<T> {
    if is_answering(tab_id) {
        return work.await;
    }
    // The next waiter is always registered before a dialog is answered: the page may raise the next one
    // (alert → confirm → prompt) before the answer's response arrives.
    let mut opening = opening_waiter(tab_id);
    if let Some(dialog) = events::open_dialog(tab_id) {
        let default = Policy {
            leaves_page: policy.leaves_page,
            ..Policy::default()
        };
        answer(tab_id, &dialog, &default).await?;
    }
    ACTIVE.with(|a| a.borrow_mut().insert(tab_id, policy.clone()));
    let _done = Deactivate(tab_id);
    let mut work = std::pin::pin!(work);
    loop {
        match select(work.as_mut(), opening).await {
            Either::Left((result, _)) => {
                // A dialog that opened as the work ended (the event came with its last answer).
                if let Some(dialog) = events::open_dialog(tab_id) {
                    answer(tab_id, &dialog, &policy).await?;
                }
                return result;
            }
            Either::Right((Ok(Some(Event::JavascriptDialogOpening(dialog))), _)) => {
                opening = opening_waiter(tab_id);
                answer(tab_id, &dialog, &policy).await?;
            }
            // The debugger went away; the work fails on its own.
            Either::Right(_) => return work.await,
        }
    }
}

/// [`answering`] for a navigation of ours (SPEC §7): its `beforeunload` is accepted. Inside a page action
/// the action's own policy answers instead.
pub async fn navigating<T>(tab_id: i64, work: impl Future<Output = Result<T>>) -> Result<T> {
    let policy = Policy {
        leaves_page: true,
        ..Policy::default()
    };
    answering(tab_id, policy, work).await
}

/// Ends an [`answering`] scope however its future ends (finished or dropped).
struct Deactivate(i64);

impl Drop for Deactivate {
    fn drop(&mut self) {
        ACTIVE.with(|a| a.borrow_mut().remove(&self.0));
    }
}

/// Resolves with the next dialog that opens on the tab (register it before sending what may raise one).
pub fn opening_waiter(tab_id: i64) -> events::Next {
    events::wait(tab_id, |event| {
        matches!(event, Event::JavascriptDialogOpening(_))
    })
}

/// What [`race`] saw first.
#[derive(Debug)]
pub enum Raced<T> {
    /// The command answered.
    Done(T),
    /// A dialog opened first and nobody answers it; the command stays blocked in the page until the
    /// dialog is answered, and is abandoned.
    Dialog(JavascriptDialogOpening),
}

/// Sends one CDP command that may make the page raise a dialog (input events; to the tab, or to a frame
/// target). Inside [`answering`] the dialog is answered and the command completes; otherwise this returns as
/// soon as a dialog opens, so the action never waits for the user.
pub async fn race<C: Command>(
    target: impl Into<cdp::Target>,
    command: &C,
) -> Result<Raced<C::Response>> {
    let target = target.into();
    if is_answering(target.tab_id) {
        return Ok(Raced::Done(cdp::send(&target, command).await?));
    }
    let opening = opening_waiter(target.tab_id);
    let command = std::pin::pin!(cdp::send(&target, command));
    match select(command, opening).await {
        Either::Left((result, _)) => Ok(Raced::Done(result?)),
        Either::Right((Ok(Some(Event::JavascriptDialogOpening(dialog))), _)) => {
            Ok(Raced::Dialog(dialog))
        }
        Either::Right((_, command)) => Ok(Raced::Done(command.await?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bua_protocol::DialogAnswer;

    #[test]
    fn by_default_alert_and_beforeunload_are_accepted_confirm_and_prompt_dismissed() {
        let p = Policy::default();
        assert!(p.accepts("alert"));
        assert!(p.accepts("beforeunload"));
        assert!(!p.accepts("confirm"));
        assert!(!p.accepts("prompt"));
    }

    #[test]
    fn a_navigation_accepts_beforeunload_even_when_told_to_dismiss() {
        let dismiss = DialogPolicy {
            answer: Some(DialogAnswer::Dismiss),
            prompt_text: None,
        };
        let click = Policy {
            dialog: dismiss.clone(),
            leaves_page: false,
        };
        assert!(!click.accepts("beforeunload") && !click.accepts("alert"));
        let navigate = Policy {
            dialog: dismiss,
            leaves_page: true,
        };
        assert!(navigate.accepts("beforeunload") && !navigate.accepts("confirm"));
    }

    #[test]
    fn describe_names_type_and_message() {
        let d = JavascriptDialogOpening {
            kind: "alert".to_owned(),
            message: "Saved!".to_owned(),
            ..Default::default()
        };
        assert_eq!(describe(&d), "alert(\"Saved!\")");
    }
}
