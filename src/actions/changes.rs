//! What an action changed in the agent's view of its tab (SPEC §4 "Outcomes": `changes`, `view`). After an
//! action, [`after_action`] reads the page once more, settles it first (a click's fetch, an autocomplete's
//! list), and answers with the diff against the agent's view (`extract::view`) — or with the new view itself
//! after a navigation, when the agent had no view of the tab, or when a diff would say about as much as the
//! page.

use crate::cdp::commands::RuntimeEvaluate;
use crate::error::Result;
use crate::extract::{self, diff, view};
use bua_protocol::{Changes, ExtractResult, Outcomes};

/// What an action's result says about the page after it.
pub enum AfterAction {
    /// The change against the agent's last view of the tab.
    Changes(Changes),
    /// The new view.
    View(Box<ExtractResult>),
}

impl AfterAction {
    /// Puts it into an action's outcomes: `changes` or `view`.
    pub fn report(self, outcomes: &mut Outcomes) {
        match self {
            AfterAction::Changes(changes) => outcomes.changes = Some(changes),
            AfterAction::View(view) => outcomes.view = Some(view),
        }
    }
}

/// What [`after_action`] read, or `None` when it could not read the page: the action happened, and its
/// result stands without the change (the failure is logged).
pub fn or_logged(tab_id: i64, read: Result<AfterAction>) -> Option<AfterAction> {
    read.map_err(|e| {
        crate::log::info(&format!(
            "tab {tab_id}: what the action changed could not be read: {e}"
        ))
    })
    .ok()
}

/// The page script that waits for the page to settle after an action: a document still being parsed (a
/// navigation the action started, whose load it did not wait for) first until `DOMContentLoaded`, at most
/// [`PARSED_MAX_MS`]; then until no DOM mutation came for [`QUIET_MS`], at least [`FIRST_LOOK_MS`] (a click's
/// handler may `fetch` before it changes anything), at most [`SETTLE_MAX_MS`]. A page that keeps changing
/// (a clock, an animation) is read at the cap.
///
/// A page the action navigated to (`fresh`) has loaded already and has no handler of the action still
/// to run: only the quiet time is waited for.
fn settle_js(fresh: bool) -> String {
    // A fresh page counts as quiet since before the wait: read at once unless it is still changing.
    let (first_look, quiet_before) = if fresh {
        (0, QUIET_MS)
    } else {
        (FIRST_LOOK_MS, 0)
    };
    format!(
        r#"new Promise(done => {{
  const settle = () => {{
    const quiet = {QUIET_MS}, first = {first_look}, max = {SETTLE_MAX_MS}, start = performance.now();
    let last = start - {quiet_before};
    const o = new MutationObserver(() => {{ last = performance.now(); }});
    o.observe(document, {{ subtree: true, childList: true, attributes: true, characterData: true }});
    const check = () => {{
      const now = performance.now();
      if ((now - start >= first && now - last >= quiet) || now - start >= max) {{ o.disconnect(); done(true); }}
      else setTimeout(check, 10);
    }};
    setTimeout(check, Math.max(10, Math.min(first, quiet)));
  }};
  if (document.readyState !== 'loading') return settle();
  let started = false;
  const once = () => {{ if (!started) {{ started = true; settle(); }} }};
  document.addEventListener('DOMContentLoaded', once, {{ once: true }});
  setTimeout(once, {PARSED_MAX_MS});
}})"#
    )
}
/// Longest wait for a document being parsed, ms.
const PARSED_MAX_MS: u32 = 5_000;
/// Quiet time that counts as settled, ms.
const QUIET_MS: u32 = 60;
/// Shortest wait, ms.
const FIRST_LOOK_MS: u32 = 60;
/// Longest wait, ms.
const SETTLE_MAX_MS: u32 = 1_000;

/// Settles the page, reads it, and says what changed since the agent's last view (`fresh_page`: the action
/// navigated, so the view is sent whole).
pub async fn after_action(tab_id: i64, fresh_page: bool) -> Result<AfterAction> {
    settle(tab_id, fresh_page).await;
    let old = view::get(tab_id);
    // `extract` keeps what it reads as the new view (`remember`).
    let new = extract::extract(tab_id, &extract::agent_params(tab_id)).await?;
    Ok(match old.filter(|_| !fresh_page) {
        Some(old) => match diff::diff(&old, &new) {
            Some(changes) => AfterAction::Changes(changes),
            None => AfterAction::View(Box::new(new)),
        },
        None => AfterAction::View(Box::new(new)),
    })
}

/// Waits for the page to settle ([`settle_js`]); a page that cannot run it (a dialog, a crashed renderer)
/// is read as it is.
async fn settle(tab_id: i64, fresh: bool) {
    let command = RuntimeEvaluate {
        expression: settle_js(fresh),
        silent: Some(true),
        await_promise: Some(true),
        return_by_value: Some(true),
        ..Default::default()
    };
    let _ = crate::cdp::send(tab_id, &command).await;
}
