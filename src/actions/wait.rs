//! `wait_for {locator | textContains, state?, timeoutMs?}` (SPEC §4): polls the page every 100 ms until the
//! element (or text) reaches the state — `visible` (rendered with a box), `attached` (in the document) or
//! `hidden` (absent or not rendered) — and answers `{found:true, elapsedMs}`; not in time → `timeout`.
//! Polls survive navigations (a poll that fails while the page changes counts as "not yet").

use super::ctx::Ctx;
use super::dialogs;
use super::handler::{Handler, Traits};
use super::locator::{self, IS_VISIBLE};
use super::page;
use crate::cdp;
use crate::cdp::commands::RuntimeEvaluate;
use crate::error::{Error, Result};
use bua_protocol::{Locator, WaitFor, WaitForResult, WaitState, WaitTarget};
use serde_json::Value;

/// The state of the first match of a locator: `"visible"`, `"attached"` or `"absent"`.
const LOCATOR_STATE: &str = r#"(find, kind, value, index) => {
  const el = find(kind, value, index);
  if (typeof el === 'number') return 'absent';
  const shown = el.getClientRects().length > 0 && (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true }));
  return shown ? 'visible' : 'attached';
}"#;

/// Whether the page's rendered text (open shadow roots included) contains the string.
const HAS_TEXT: &str = r#"(want) => {
  const texts = [document.body ? document.body.innerText : ''];
  const visit = root => { for (const e of root.querySelectorAll('*')) if (e.shadowRoot) { texts.push(e.shadowRoot.textContent); visit(e.shadowRoot); } };
  if (document.body) visit(document.body);
  const norm = s => (s || '').replace(/\s+/g, ' ');
  return texts.some(t => norm(t).includes(norm(want)));
}"#;

/// Poll interval, ms.
const POLL_MS: u32 = 100;

/// `wait_for`.
///
/// Errors: `timeout` (state not reached in `timeoutMs`), `invalid_action` (a selector or XPath the
/// browser cannot parse), `element_stale` (a uid that left the page, unless waiting for `hidden`),
/// `element_obstructed` (a dialog blocks the page).
impl Handler for WaitFor {
    type Output = WaitForResult;
    const TRAITS: Traits = Traits::PAGE;

    async fn run(&self, ctx: &Ctx) -> Result<WaitForResult> {
        let start = page::now_ms();
        let deadline = start + self.timeout_ms as f64;
        loop {
            dialogs::ensure_none(ctx.tab_id)?;
            let reached = match &self.target {
                WaitTarget::Locator(locator) => {
                    locator_reached(ctx.tab_id, locator, self.state).await?
                }
                WaitTarget::TextContains(text) => {
                    text_reached(ctx.tab_id, text, self.state).await?
                }
            };
            let elapsed = (page::now_ms() - start).max(0.0) as u64;
            if reached {
                return Ok(WaitForResult {
                    found: true,
                    elapsed_ms: elapsed,
                    tab_id: ctx.tab_id,
                });
            }
            if page::now_ms() >= deadline {
                let what = match &self.target {
                    WaitTarget::Locator(l) => format!("the element ({l})"),
                    WaitTarget::TextContains(t) => format!("text {t:?}"),
                };
                return Err(Error::Timeout(format!(
                "{what} was not {} on tab {tab_id} within {} ms; call extract to see the page, or wait longer \
                 if it is still loading",
                self.state.as_str(),
                self.timeout_ms,
                 tab_id = ctx.tab_id
            )));
            }
            page::release(ctx.tab_id).await;
            cdp::sleep(POLL_MS).await;
        }
    }
}

/// Whether the locator's element is in `state` now. Transient failures (navigation) are "no".
async fn locator_reached(tab_id: i64, locator: &Locator, state: WaitState) -> Result<bool> {
    let observed = match locator {
        Locator::Uid(uid) => match locator::resolve(tab_id, locator).await {
            Ok(element) => match element.call(IS_VISIBLE, &[]).await {
                Ok(v) if v.as_bool() == Some(true) => "visible",
                Ok(_) => "attached",
                Err(_) => "absent",
            },
            Err(Error::ElementStale(_)) if state == WaitState::Hidden => "absent",
            Err(Error::ElementStale(_)) => return Err(locator::stale(tab_id, uid)),
            Err(e @ Error::SessionNotFound(_)) => return Err(e),
            Err(_) => return Ok(false),
        },
        _ => {
            let expression = format!(
                "({LOCATOR_STATE})({}, {}, {}, {})",
                locator::FIND,
                page::js_str(locator.key()),
                page::js_str(locator.value()),
                locator.index()
            );
            match poll(tab_id, &expression).await? {
                Poll::Value(v) => match v.as_str() {
                    Some("visible") => "visible",
                    Some("attached") => "attached",
                    _ => "absent",
                },
                Poll::Threw(m) if m.contains("SyntaxError") || m.contains("not a valid") => {
                    return Err(Error::InvalidAction(format!(
                        "{}: {:?} cannot be used: {m}",
                        locator.key(),
                        locator.value()
                    )))
                }
                Poll::Threw(_) | Poll::Failed => return Ok(false),
            }
        }
    };
    Ok(match state {
        WaitState::Visible => observed == "visible",
        WaitState::Attached => observed != "absent",
        WaitState::Hidden => observed != "visible",
    })
}

async fn text_reached(tab_id: i64, text: &str, state: WaitState) -> Result<bool> {
    let expression = format!("({HAS_TEXT})({})", page::js_str(text));
    Ok(match poll(tab_id, &expression).await? {
        Poll::Value(v) => {
            let present = v.as_bool() == Some(true);
            if state == WaitState::Hidden {
                !present
            } else {
                present
            }
        }
        _ => false,
    })
}

enum Poll {
    Value(Value),
    Threw(String),
    Failed,
}

/// One poll; only a detached debugger (tab gone) is an error, anything else is "not yet".
async fn poll(tab_id: i64, expression: &str) -> Result<Poll> {
    let command = RuntimeEvaluate {
        expression: expression.to_owned(),
        return_by_value: Some(true),
        silent: Some(true),
        ..Default::default()
    };
    Ok(
        match cdp::send_with_timeout(tab_id, &command, 3_000).await {
            Ok(r) => match page::outcome(&r) {
                Ok(o) => Poll::Value(o.value.unwrap_or(Value::Null)),
                Err(m) => Poll::Threw(m),
            },
            Err(e) if e.failure.is_target_gone() => return Err(e.into()),
            Err(_) => Poll::Failed,
        },
    )
}
