//! Real input (SPEC §4): `click`, `click_at`, `hover`, `type`, `press_key`.
//!
//! Mouse input is `Input.dispatchMouseEvent` (moved → pressed → released) at a point [`pointer`] checked;
//! text is `DOM.focus` then `Input.insertText`, keys are `Input.dispatchKeyEvent`, so pages see trusted
//! events (`beforeinput`/`input` included) exactly as from a user. A dialog an input raises is answered by
//! the action's dialog scope (SPEC §7, [`dialogs::answering`]) and the input completes; without one,
//! [`dialogs::race`] ends the input at once instead of blocking it until a timeout. A navigation the input
//! starts is waited for ([`navigation::Watch`]), and so is the download a `download` link's click starts.

use super::ctx::Ctx;
use super::dialogs::{self, Raced};
use super::keys::{self, KeyDef};
use super::locator::{self, Element};
use super::navigation::Watch;
use super::page;
use super::pointer::{self, Point};
use crate::cdp::commands::{DomFocus, InputDispatchMouseEvent, InputInsertText};
use crate::cdp::{self, Failure, Target};
use crate::error::{Error, Result};
use bua_protocol::{
    ClickResult, ElementInfo, HoverResult, Locator, Modifier, PressKeyResult, TypeResult,
    DEFAULT_LOAD_WAIT_MS,
};
use serde_json::Value;

/// How long an input action waits, after a round trip to the renderer ([`Watch::settle`]), for the
/// event of a navigation it may have started, ms.
const NAV_GRACE_MS: u32 = 10;
/// How long `click` waits for a navigation it started to load, ms (the action has 10 s).
const CLICK_LOAD_BUDGET_MS: u32 = 7_000;
/// The same for `type {submit}` and `press_key {waitLoad}` (the action has 15 s).
const KEY_LOAD_BUDGET_MS: u32 = 11_000;

/// The `href` of the link `this` is or is inside (absolute), else null.
const LINK_HREF: &str = r#"function() {
  const a = this.closest ? this.closest('a[href], area[href]') : null;
  return a && typeof a.href === 'string' ? a.href : null;
}"#;

/// Whether `this` is, or is inside, a link with a `download` attribute: its click starts a download without
/// a navigation, so nothing else tells the click to wait for it.
const DOWNLOAD_LINK: &str = r#"function() {
  const a = this.closest ? this.closest('a[href][download], area[href][download]') : null;
  return !!a;
}"#;

/// How long a click on a `download` link waits for the download to begin (`Page.downloadWillBegin`), ms.
const DOWNLOAD_BEGIN_MS: u32 = 3_000;

/// Makes a link (or form) that would open a new tab or window open in this tab for the coming click,
/// restoring its `target` right after the click's activation (SPEC §4: links open in the same tab).
/// Whether `this` is a form control the browser keeps from being clicked (`:disabled`: its own `disabled`
/// or a disabled `<fieldset>`'s): Chrome delivers no `click` to it, so the click could never be confirmed.
const DISABLED: &str = r#"function() { return !!(this.matches && this.matches(':disabled')); }"#;

const SAME_TAB: &str = r#"function() {
  const el = this.closest ? this.closest('a[href], area[href], button, input') : null;
  let t = el && (el.localName === 'a' || el.localName === 'area') ? el : (el && el.form ? el.form : null);
  if (!t) return false;
  const target = t.getAttribute('target');
  if (!target || ['_self', '_top', '_parent'].includes(target.toLowerCase())) return false;
  t.setAttribute('target', '_self');
  const restore = () => t.setAttribute('target', target);
  t.ownerDocument.defaultView.addEventListener('click', () => setTimeout(restore, 0), { capture: true, once: true });
  setTimeout(restore, 3000);
  return true;
}"#;

/// The control to type into: `this` when it is editable, its control for a `<label>`, or its only editable
/// descendant; otherwise a string saying why not.
const EDITABLE_TARGET: &str = r#"function() {
  const nonText = ['checkbox', 'radio', 'submit', 'button', 'reset', 'file', 'image', 'hidden', 'range', 'color'];
  const check = el => {
    if (el.isContentEditable) return true;
    const tag = el.localName;
    if (tag === 'textarea' || (tag === 'input' && !nonText.includes((el.type || 'text').toLowerCase()))) {
      if (el.disabled) return 'it is disabled';
      if (el.readOnly) return 'it is read-only';
      return true;
    }
    return null;
  };
  let r = check(this);
  if (r === true) return this;
  if (typeof r === 'string') return r;
  if (this.localName === 'label' && this.control) {
    r = check(this.control);
    return r === true ? this.control : (r || 'its control is not a text field');
  }
  const inner = Array.from(this.querySelectorAll('input, textarea, [contenteditable]')).filter(e => check(e) === true);
  if (inner.length === 1) return inner[0];
  return 'a <' + this.localName + '> is not a text field (input, textarea or contenteditable)';
}"#;

/// While `this` is being typed into, page scripts cannot move focus elsewhere (`HTMLElement.focus` of
/// other elements is a no-op), so a field that "steals focus back" cannot take our keystrokes.
/// Undone by [`FOCUS_UNLOCK`] (or after 5 s at the latest).
const FOCUS_LOCK: &str = r#"function() {
  const target = this, K = Symbol.for('bua.focusLock');
  const wins = [target.ownerDocument.defaultView];
  try { if (wins[0].top !== wins[0] && wins[0].top.document) wins.push(wins[0].top); } catch (e) {}
  for (const w of wins) {
    const P = w.HTMLElement.prototype;
    if (P[K]) continue;
    const original = P.focus;
    P.focus = function (...args) { if (this === target || target.contains(this)) return original.apply(this, args); };
    P[K] = original;
  }
  const unlock = () => { for (const w of wins) { const P = w.HTMLElement.prototype; if (P[K]) { P.focus = P[K]; delete P[K]; } } };
  target.ownerDocument.defaultView[K] = unlock;
  setTimeout(unlock, 5000);
  return true;
}"#;

const FOCUS_UNLOCK: &str = r#"function() {
  const unlock = this.ownerDocument.defaultView[Symbol.for('bua.focusLock')];
  if (unlock) unlock();
  return true;
}"#;

/// Whether `this` has the keyboard focus (deepest active element through shadow roots).
const HAS_FOCUS: &str = r#"function() {
  let a = this.ownerDocument.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a === this || (!!a && this.isContentEditable && this.contains(a));
}"#;

/// The text-field value of `this`: `.value`, or the text of a contenteditable.
const READ_VALUE: &str = r#"function() {
  return this.isContentEditable ? this.innerText.replace(/\n$/, '') : String(this.value ?? '');
}"#;

/// `[value, secret]` of `this` text field: [`READ_VALUE`]'s value, and whether it is a password field.
const READ_BACK: &str = r#"function() {
  const value = this.isContentEditable ? this.innerText.replace(/\n$/, '') : String(this.value ?? '');
  return [value, this.localName === 'input' && this.type === 'password'];
}"#;

/// The read-back value `type` reports: a password field's value masked as `extract` shows it (one `•` per
/// character, as Chrome's accessibility tree does), any other value as it is.
pub fn reported_value(value: &str, secret: bool) -> String {
    if secret {
        "\u{2022}".repeat(value.chars().count())
    } else {
        value.to_owned()
    }
}

/// Selects the whole content of `this` text field or contenteditable.
const SELECT_CONTENT: &str = r#"function() {
  if (!this.isContentEditable && typeof this.select === 'function') { this.select(); return true; }
  const range = this.ownerDocument.createRange();
  range.selectNodeContents(this);
  const sel = this.ownerDocument.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
  return true;
}"#;

/// The element with the keyboard focus, through shadow roots and same-origin iframes.
const ACTIVE_ELEMENT: &str = r#"(() => {
  let a = document.activeElement;
  for (;;) {
    if (a && a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
    let inner = null;
    try { inner = a && a.contentDocument ? a.contentDocument.activeElement : null; } catch (e) {}
    if (inner) { a = inner; continue; }
    return a || document.body;
  }
})()"#;

/// `click {locator, newTab?}`.
///
/// Errors: locator errors, `element_not_found` (no visible box), `element_obstructed` (covered, names the
/// cover). A dialog raised by the click does not fail it.
pub async fn click(ctx: &Ctx, locator: &Locator, new_tab: bool) -> Result<ClickResult> {
    let tab_id = ctx.tab_id;
    let element = locator::resolve(tab_id, locator).await?;
    let clicked = element.describe().await?;
    if element.call(DISABLED, &[]).await?.as_bool() == Some(true) {
        return Err(Error::InvalidAction(format!(
            "the element to click is disabled (extract lists it with the flag `disabled`), so the page \
             takes no click on it; fill in what the form still needs, or wait_for the page to enable it, \
             then click again (a <{}>)",
            clicked.tag
        )));
    }
    if new_tab {
        if let Some(href) = element.call(LINK_HREF, &[]).await?.as_str() {
            crate::session::check_url_allowed(href, None).await?;
            let opened = crate::session::open_agent_tab(
                &ctx.owner,
                href,
                &crate::session_domain(href),
                false,
            )
            .await?;
            super::outcomes::opened(
                tab_id,
                bua_protocol::OpenedTab {
                    tab_id: opened.tab_id,
                    url: href.to_owned(),
                },
            );
            return Ok(ClickResult {
                clicked,
                tab_id: opened.tab_id,
                x: None,
                y: None,
            });
        }
    }
    let point = pointer::clickable_point(tab_id, &element).await?;
    if !new_tab {
        element.call(SAME_TAB, &[]).await?;
    }
    let downloads = element.call(DOWNLOAD_LINK, &[]).await?.as_bool() == Some(true);
    // Registered before the click, so the result can report the download the click starts (SPEC §4).
    let download = downloads
        .then(|| cdp::events::wait(tab_id, |e| matches!(e, cdp::Event::DownloadWillBegin(_))));
    let watch = Watch::start(tab_id).await?;
    if element_click(tab_id, &element, point).await? {
        watch
            .settle(
                tab_id,
                NAV_GRACE_MS,
                CLICK_LOAD_BUDGET_MS,
                DEFAULT_LOAD_WAIT_MS,
            )
            .await;
    }
    if let Some(download) = download {
        if cdp::with_timeout(DOWNLOAD_BEGIN_MS, download)
            .await
            .is_none()
        {
            crate::log::info(&format!(
                "tab {tab_id}: the download link's click started no download within {DOWNLOAD_BEGIN_MS} ms"
            ));
        }
    }
    Ok(ClickResult {
        clicked,
        tab_id,
        x: None,
        y: None,
    })
}

/// Clicks an element already resolved (scroll into view, hit test, real mouse events), without the
/// navigation wait: for controls such as checkboxes.
pub async fn click_element(tab_id: i64, element: &Element) -> Result<()> {
    let point = pointer::clickable_point(tab_id, element).await?;
    element_click(tab_id, element, point).await?;
    Ok(())
}

/// Marks, in the element's document, whether a trusted `click` arrives from now on (for 10 s at most). A
/// `click`, not a `mousedown`: what a click promises is the click event, and a press whose release was lost
/// (input dropped half-way) is no click.
const PROBE_ARM: &str = r#"function() {
  const w = this.ownerDocument.defaultView, K = Symbol.for('bua.clickProbe');
  if (w[K]) w[K].stop();
  const probe = { down: false };
  const on = e => { if (e.isTrusted) probe.down = true; };
  probe.stop = () => { w.removeEventListener('click', on, true); if (w[K] === probe) delete w[K]; };
  w.addEventListener('click', on, true);
  w[K] = probe;
  setTimeout(probe.stop, 10000);
  return true;
}"#;

/// Whether the armed probe ([`PROBE_ARM`]) saw the click; it stays armed for another try.
const PROBE_READ: &str = r#"function() {
  const p = this.ownerDocument.defaultView[Symbol.for('bua.clickProbe')];
  return p ? p.down : null;
}"#;

/// Disarms the probe.
const PROBE_STOP: &str = r#"function() {
  const p = this.ownerDocument.defaultView[Symbol.for('bua.clickProbe')];
  if (p) p.stop();
  return true;
}"#;

/// Clicks `element` at `point` (tab viewport), and only reports it done when the element's document saw a
/// trusted `click` (SPEC §4): Chrome can drop input to a tab (seen while it handles a frame's navigation
/// to an unknown scheme) and to a cross-origin frame's process (SPEC §5 "Frames"), and a click nobody
/// received must not be reported as done. When nothing arrived the click is sent once more — in a frame to
/// the frame's own target, at the point in the frame's viewport (real input into that frame's widget, no
/// routing); when still nothing arrived, the action fails. `false` when a dialog interrupted the click.
///
/// Errors: `element_obstructed` when the page never received the click; as [`mouse_click`].
async fn element_click(tab_id: i64, element: &Element, point: Point) -> Result<bool> {
    element.call(PROBE_ARM, &[]).await?;
    for attempt in 0..2 {
        let sent = if attempt == 0 || element.target.session().is_none() {
            mouse_click(tab_id, point).await?
        } else {
            let (dx, dy) = cdp::frames::offset(&element.target)
                .await
                .map_err(|_| element.gone(tab_id))?;
            let local = Point {
                x: point.x - dx,
                y: point.y - dy,
            };
            mouse_click(&element.target, local).await?
        };
        if !sent {
            return Ok(false);
        }
        let mut seen = element.call(PROBE_READ, &[]).await;
        // The frame's process may still be handling the events the tab's target has acknowledged.
        for _ in 0..3 {
            if !matches!(seen, Ok(Value::Bool(false))) {
                break;
            }
            cdp::sleep(30).await;
            seen = element.call(PROBE_READ, &[]).await;
        }
        match seen {
            Ok(Value::Bool(false)) => {
                crate::log::info(&format!(
                    "tab {tab_id}: the frame of {} did not receive click {} at ({}, {})",
                    element.label,
                    attempt + 1,
                    point.x,
                    point.y
                ));
            }
            // Received; or the page went away under the click (it navigated): the click happened.
            _ => {
                let _ = element.call(PROBE_STOP, &[]).await;
                return Ok(true);
            }
        }
    }
    let _ = element.call(PROBE_STOP, &[]).await;
    Err(Error::ElementObstructed(format!(
        "the click on the element ({}) at ({}, {}) of tab {tab_id} never reached its page (Chrome dropped the \
         input twice; a browser dialog may be showing on the tab); call extract, then click again or use \
         another element",
        element.label, point.x, point.y
    )))
}

/// `click_at {x, y}`: clicks whatever is at the viewport point (CSS px).
///
/// Errors: `invalid_action` when the point is outside the viewport.
pub async fn click_at(tab_id: i64, x: f64, y: f64) -> Result<ClickResult> {
    let viewport = page::viewport(tab_id).await?;
    let (width, height) = viewport.size();
    if x < 0.0 || y < 0.0 || x >= width || y >= height {
        return Err(Error::InvalidAction(format!(
            "({x}, {y}) is outside tab {tab_id}'s viewport ({width}×{height} CSS px); use coordinates inside it \
             or scroll first"
        )));
    }
    let point = Point { x, y };
    let clicked = match pointer::node_at(tab_id, point, viewport).await? {
        Some(object) => locator::describe_object(tab_id, &object).await?,
        None => ElementInfo {
            tag: "html".to_owned(),
            ..ElementInfo::default()
        },
    };
    let watch = Watch::start(tab_id).await?;
    if mouse_click(tab_id, point).await? {
        watch
            .settle(
                tab_id,
                NAV_GRACE_MS,
                CLICK_LOAD_BUDGET_MS,
                DEFAULT_LOAD_WAIT_MS,
            )
            .await;
    }
    Ok(ClickResult {
        clicked,
        tab_id,
        x: Some(x),
        y: Some(y),
    })
}

/// `hover {locator}`: moves the mouse over the element's uncovered centre.
pub async fn hover(tab_id: i64, locator: &Locator) -> Result<HoverResult> {
    let element = locator::resolve(tab_id, locator).await?;
    let hovered = element.describe().await?;
    let point = pointer::clickable_point(tab_id, &element).await?;
    mouse(tab_id, "mouseMoved", point, "none", 0).await?;
    Ok(HoverResult { hovered, tab_id })
}

/// Sends one mouse event (to the tab, or to a frame target with a point of its viewport); `false` when a
/// dialog opened instead of an answer.
pub(crate) async fn mouse(
    target: impl Into<Target>,
    kind: &str,
    p: Point,
    button: &str,
    buttons: u32,
) -> Result<bool> {
    let event = InputDispatchMouseEvent {
        kind: kind.to_owned(),
        x: p.x,
        y: p.y,
        button: button.to_owned(),
        buttons,
        pointer_type: "mouse",
        click_count: (kind != "mouseMoved").then_some(1),
    };
    Ok(matches!(
        dialogs::race(target, &event).await?,
        Raced::Done(_)
    ))
}

/// moved → pressed → released at `p`; `false` when a dialog interrupted it (the click still happened up to
/// that point, as for a user).
async fn mouse_click(target: impl Into<Target>, p: Point) -> Result<bool> {
    let target = target.into();
    Ok(mouse(&target, "mouseMoved", p, "none", 0).await?
        && mouse(&target, "mousePressed", p, "left", 1).await?
        && mouse(&target, "mouseReleased", p, "left", 0).await?)
}

/// Presses and releases one key with `mask` held; `false` when a dialog interrupted it.
async fn key_press(tab_id: i64, def: &KeyDef, mask: u32) -> Result<bool> {
    for down in [true, false] {
        let raced = dialogs::race(tab_id, &keys::event(def, mask, down)).await?;
        if let Raced::Dialog(_) = raced {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `type {locator, text, clear?, submit?}`: focuses the field (`DOM.focus`, page focus moves blocked
/// meanwhile), selects all and deletes when `clear`, inserts the text with `Input.insertText`, reads the
/// value back, and presses Enter when `submit`.
///
/// Errors: locator errors; `invalid_action` when the element is not a text field (or is disabled or
/// read-only); `element_obstructed` when a dialog interrupts the typing.
pub async fn type_text(
    tab_id: i64,
    locator: &Locator,
    text: &str,
    clear: bool,
    submit: bool,
) -> Result<TypeResult> {
    let located = locator::resolve(tab_id, locator).await?;
    let field = match located
        .call_for_element(EDITABLE_TARGET, &[])
        .await?
    {
        Ok(field) => field,
        Err(reason) => {
            return Err(Error::InvalidAction(format!(
                "cannot type into the element ({}) on tab {tab_id}: {}; type into a textbox (extract lists them)",
                located.label,
                reason.as_str().unwrap_or("it is not a text field")
            )))
        }
    };
    let element = field.describe().await?;
    field.call(FOCUS_LOCK, &[]).await?;
    let typed = type_locked(tab_id, &field, text, clear).await;
    // The page may be blocked by a dialog now; unlocking then would wait for it (the lock expires itself).
    if dialogs::left_open(tab_id).is_none() {
        let _ = field.call(FOCUS_UNLOCK, &[]).await;
    }
    let value = typed?;
    if submit {
        let watch = Watch::start(tab_id).await?;
        let enter = keys::lookup("Enter").ok_or_else(|| Error::Internal("no Enter key".into()))?;
        if key_press(tab_id, &enter, 0).await? {
            watch
                .settle(
                    tab_id,
                    NAV_GRACE_MS,
                    KEY_LOAD_BUDGET_MS,
                    DEFAULT_LOAD_WAIT_MS,
                )
                .await;
        }
    }
    Ok(TypeResult {
        element,
        value,
        tab_id,
    })
}

async fn type_locked(tab_id: i64, field: &Element, text: &str, clear: bool) -> Result<String> {
    let interrupted = |what: &str| {
        Error::ElementObstructed(format!(
            "a JavaScript dialog opened on tab {tab_id} while {what}; it blocks the page until answered \
             (evaluate answers it automatically)"
        ))
    };
    focus(tab_id, field).await?;
    if clear {
        let select_all = keys::lookup("a").ok_or_else(|| Error::Internal("no key a".into()))?;
        let backspace =
            keys::lookup("Backspace").ok_or_else(|| Error::Internal("no Backspace".into()))?;
        let current = field.call(READ_VALUE, &[]).await?;
        if current.as_str().is_some_and(|v| !v.is_empty()) {
            if !key_press(tab_id, &select_all, keys::mask(&[Modifier::Ctrl])).await?
                || !key_press(tab_id, &backspace, 0).await?
            {
                return Err(interrupted("clearing the field"));
            }
            // Some fields ignore the select-all shortcut: select their content directly and delete again.
            let left = field.call(READ_VALUE, &[]).await?;
            if left.as_str().is_some_and(|v| !v.is_empty()) {
                field.call(SELECT_CONTENT, &[]).await?;
                if !key_press(tab_id, &backspace, 0).await? {
                    return Err(interrupted("clearing the field"));
                }
            }
        }
    }
    if !text.is_empty() {
        // Focus may have moved by a means the lock cannot stop (e.g. a blur handler calling blur()).
        focus(tab_id, field).await?;
        if let Raced::Dialog(_) = dialogs::race(
            tab_id,
            &InputInsertText {
                text: text.to_owned(),
            },
        )
        .await?
        {
            return Err(interrupted("typing"));
        }
    }
    let read = field.call(READ_BACK, &[]).await?;
    Ok(reported_value(
        read[0].as_str().unwrap_or_default(),
        read[1].as_bool().unwrap_or(false),
    ))
}

/// `DOM.focus` unless the element already has the focus; checks that it got it.
async fn focus(tab_id: i64, field: &Element) -> Result<()> {
    if field.call(HAS_FOCUS, &[]).await?.as_bool() == Some(true) {
        return Ok(());
    }
    let focused = cdp::send(
        &field.target,
        &DomFocus {
            object_id: field.object_id.clone(),
        },
    )
    .await;
    match focused {
        Ok(_) => {}
        Err(e) if e.failure == Failure::NotFocusable => {
            return Err(Error::InvalidAction(format!(
                "the element ({}) on tab {tab_id} cannot take the keyboard focus",
                field.label
            )))
        }
        Err(e) => return Err(e.into()),
    }
    if field.call(HAS_FOCUS, &[]).await?.as_bool() != Some(true) {
        return Err(Error::ElementObstructed(format!(
            "the element ({}) on tab {tab_id} did not keep the keyboard focus (the page moved it elsewhere)",
            field.label
        )));
    }
    Ok(())
}

/// `press_key {key, modifiers?, locator?, waitLoad?, loadWaitMs?}`: focuses the element when given, holds the
/// modifiers, presses the key, and with `waitLoad` waits for a navigation it starts as `navigate` does
/// (`load_wait_ms` for `load` after `DOMContentLoaded`); `loaded` tells how that went.
///
/// Errors: `invalid_action` for a key name that is not a `KeyboardEvent.key` value; locator errors.
pub async fn press_key(
    tab_id: i64,
    key: &str,
    modifiers: &[Modifier],
    locator: Option<&Locator>,
    wait_load: bool,
    load_wait_ms: u32,
) -> Result<PressKeyResult> {
    let def = keys::lookup(key).ok_or_else(|| {
        Error::InvalidAction(format!(
            "key: {key:?} is not a KeyboardEvent.key value; use e.g. \"Enter\", \"Escape\", \"Tab\", \"ArrowDown\", \
             \"a\", \"F5\""
        ))
    })?;
    if let Some(locator) = locator {
        let element = locator::resolve(tab_id, locator).await?;
        cdp::send(
            &element.target,
            &DomFocus {
                object_id: element.object_id.clone(),
            },
        )
        .await
        .map_err(|e| match e.failure {
            Failure::NotFocusable => Error::InvalidAction(format!(
                "the element ({}) on tab {tab_id} cannot take the keyboard focus",
                element.label
            )),
            _ => e.into(),
        })?;
    }
    let element = match page::eval_object(tab_id, ACTIVE_ELEMENT).await? {
        Ok(object) => match object.object_id {
            Some(id) => Some(locator::describe_object(tab_id, &id).await?),
            None => None,
        },
        Err(_) => None,
    };
    let watch = Watch::start(tab_id).await?;
    let mut held = 0;
    let mut completed = true;
    for m in modifiers {
        held |= m.cdp_bit();
        completed = completed
            && matches!(
                dialogs::race(tab_id, &keys::event(&keys::modifier_key(*m), held, true)).await?,
                Raced::Done(_)
            );
    }
    completed = completed && key_press(tab_id, &def, held).await?;
    for m in modifiers.iter().rev() {
        if !completed {
            break;
        }
        held &= !m.cdp_bit();
        completed = matches!(
            dialogs::race(tab_id, &keys::event(&keys::modifier_key(*m), held, false)).await?,
            Raced::Done(_)
        );
    }
    let loaded = if completed && wait_load {
        watch
            .settle(tab_id, NAV_GRACE_MS * 2, KEY_LOAD_BUDGET_MS, load_wait_ms)
            .await
    } else {
        None
    };
    Ok(PressKeyResult {
        key: def.key,
        modifiers: modifiers.to_vec(),
        element,
        tab_id,
        loaded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_fields_value_is_masked_like_extract_shows_it() {
        assert_eq!(reported_value("s3cret", true), "••••••");
        assert_eq!(reported_value("pässwört", true).chars().count(), 8);
        assert_eq!(reported_value("", true), "");
        assert_eq!(reported_value("s3cret", false), "s3cret");
    }
}
