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
/// handler may `fetch` before it changes anything), at most `max_ms`. A page that keeps changing
/// (a clock, an animation) is read at the cap.
///
/// A page the action navigated to (`fresh`) has loaded already and has no handler of the action still
/// to run: only the quiet time is waited for.
fn settle_js(fresh: bool, max_ms: u32) -> String {
    // A fresh page counts as quiet since before the wait: read at once unless it is still changing.
    let (first_look, quiet_before) = if fresh {
        (0, QUIET_MS)
    } else {
        (FIRST_LOOK_MS, 0)
    };
    format!(
        r#"new Promise(done => {{
  const settle = () => {{
    const quiet = {QUIET_MS}, first = {first_look}, max = {max_ms}, start = performance.now();
    let last = start - {quiet_before};
    const o = new MutationObserver(() => {{ last = performance.now(); }});
    o.observe(document, {{ subtree: true, childList: true, attributes: true, characterData: true }});
    const check = () => {{
      const now = performance.now();
      if ((now - start >= first && now - last >= quiet) || now - start >= max) {{ o.disconnect(); done(true); }}
      else setTimeout(check, 5);
    }};
    check();
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
/// Quiet time that counts as settled, ms: about two frames, so a framework's render in the next animation
/// frame or a `setTimeout(0)` still counts as the same change.
const QUIET_MS: u32 = 30;
/// Shortest wait, ms: what the page does a moment after the action (a fetch is waited for by
/// [`requests_done`], so this only needs to see it sent).
const FIRST_LOOK_MS: u32 = 30;
/// Longest wait in all, ms.
const SETTLE_MAX_MS: u32 = 1_000;

/// Settles the page, reads it, and says what changed since the agent's last view (`fresh_page`: the action
/// navigated, so the view is sent whole). `since`: the tab's journal mark from before the action, so the
/// requests the action made the page send are waited for ([`requests_done`]).
pub async fn after_action(tab_id: i64, fresh_page: bool, since: u64) -> Result<AfterAction> {
    let start = crate::time::now();
    settle(tab_id, fresh_page, SETTLE_MAX_MS).await;
    // A click whose handler fetches changes the page when the answer comes, which may be after the first
    // look: wait for what the action sent, then for the page to settle on it.
    if !fresh_page && requests_done(tab_id, since, start).await {
        // The answer's handler runs a moment after the answer: a first look again, not a fresh page's,
        // within what is left of the 1 s.
        let left = f64::from(SETTLE_MAX_MS) - (crate::time::now() - start);
        settle(tab_id, false, left.max(f64::from(FIRST_LOOK_MS)) as u32).await;
    }
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

/// Waits, until [`SETTLE_MAX_MS`] after `start`, for the requests the page sent after the journal's `since`
/// mark to finish or fail (SPEC §4 "Outcomes"); whether there were any.
async fn requests_done(tab_id: i64, since: u64, start: f64) -> bool {
    let open = || crate::cdp::journal::with(tab_id, |j| j.open_since(since));
    if open() == 0 {
        return false;
    }
    while open() > 0 && crate::time::now() - start < f64::from(SETTLE_MAX_MS) {
        crate::cdp::sleep(REQUEST_POLL_MS).await;
    }
    true
}

/// How often [`requests_done`] looks at the journal, ms.
const REQUEST_POLL_MS: u32 = 10;

/// Waits for the page to settle ([`settle_js`]); a page that cannot run it (a dialog, a crashed renderer)
/// is read as it is.
async fn settle(tab_id: i64, fresh: bool, max_ms: u32) {
    let command = RuntimeEvaluate {
        expression: settle_js(fresh, max_ms),
        silent: Some(true),
        await_promise: Some(true),
        return_by_value: Some(true),
        ..Default::default()
    };
    let _ = crate::cdp::send(tab_id, &command).await;
}
