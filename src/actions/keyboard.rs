//! Keyboard input (SPEC §4): `type` (`DOM.focus`, then `Input.insertText`, so pages see trusted
//! `beforeinput`/`input` events) and `press_key` (`Input.dispatchKeyEvent`, [`keys`] maps the names). A
//! dialog a key raises is answered by the action's dialog scope (SPEC §7); without one, [`dialogs::race`]
//! ends the input at once. A navigation `type {submit}` or `press_key {waitLoad}` starts is waited for
//! ([`navigation::Watch`]).

use super::ctx::Ctx;
use super::dialogs::{self, Raced};
use super::handler::{Handler, Traits};
use super::keys::{self, KeyDef};
use super::locator::{self, Element};
use super::navigation::{self, Watch, NAV_GRACE_MS};
use super::page;
use crate::cdp::commands::{DomFocus, InputInsertText};
use crate::cdp::{self, Failure};
use crate::error::{Error, Result};
use bua_protocol::{
    Modifier, PressKey, PressKeyResult, TypeResult, TypeText, DEFAULT_LOAD_WAIT_MS,
};

/// How long `type {submit}` and `press_key {waitLoad}` wait for a navigation they started to load, ms (the
/// action has 15 s).
const KEY_LOAD_BUDGET_MS: u32 = 11_000;

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
impl Handler for TypeText {
    type Output = TypeResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<TypeResult> {
        let tab_id = ctx.tab_id;
        let (locator, text, clear, submit) =
            (&self.locator, self.text.as_str(), self.clear, self.submit);
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
            let enter =
                keys::lookup("Enter").ok_or_else(|| Error::Internal("no Enter key".into()))?;
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
}

async fn type_locked(tab_id: i64, field: &Element, text: &str, clear: bool) -> Result<String> {
    let interrupted = |what: &str| {
        Error::ElementObstructed(format!(
            "a JavaScript dialog opened on tab {tab_id} while {what}; it blocks the page until answered \
             (evaluate answers it automatically)"
        ))
    };
    field.focus().await?;
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
        field.focus().await?;
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

impl Element {
    /// `DOM.focus` unless the element already has the focus; checks that it got it.
    pub async fn focus(&self) -> Result<()> {
        if self.call(HAS_FOCUS, &[]).await?.as_bool() == Some(true) {
            return Ok(());
        }
        self.dom_focus().await?;
        if self.call(HAS_FOCUS, &[]).await?.as_bool() != Some(true) {
            return Err(Error::ElementObstructed(format!(
            "the element ({}) on tab {} did not keep the keyboard focus (the page moved it elsewhere)",
            self.label,
            self.tab_id()
        )));
        }
        Ok(())
    }

    /// `DOM.focus`.
    ///
    /// Errors: `invalid_action` when the element cannot take the keyboard focus.
    pub async fn dom_focus(&self) -> Result<()> {
        let command = DomFocus {
            object_id: self.object_id.clone(),
        };
        match cdp::send(&self.target, &command).await {
            Ok(_) => Ok(()),
            Err(e) if e.failure == Failure::NotFocusable => Err(Error::InvalidAction(format!(
                "the element ({}) on tab {} cannot take the keyboard focus",
                self.label,
                self.tab_id()
            ))),
            Err(e) => Err(e.into()),
        }
    }
}

/// `press_key {key, modifiers?, locator?, waitLoad?, loadWaitMs?}`: focuses the element when given, holds the
/// modifiers, presses the key, and with `waitLoad` waits for a navigation it starts as `navigate` does
/// (`load_wait_ms` for `load` after `DOMContentLoaded`); `loaded` tells how that went.
///
/// Errors: `invalid_action` for a key name that is not a `KeyboardEvent.key` value; locator errors.
impl Handler for PressKey {
    type Output = PressKeyResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<PressKeyResult> {
        let tab_id = ctx.tab_id;
        let (key, modifiers, locator) = (
            self.key.as_str(),
            self.modifiers.as_slice(),
            self.locator.as_ref(),
        );
        let (wait_load, load_wait_ms) = (self.wait_load, navigation::load_wait(self.load_wait_ms));
        let def = keys::lookup(key).ok_or_else(|| {
        Error::InvalidAction(format!(
            "key: {key:?} is not a KeyboardEvent.key value; use e.g. \"Enter\", \"Escape\", \"Tab\", \"ArrowDown\", \
             \"a\", \"F5\""
        ))
    })?;
        if let Some(locator) = locator {
            locator::resolve(tab_id, locator).await?.dom_focus().await?;
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
                    dialogs::race(tab_id, &keys::event(&keys::modifier_key(*m), held, true))
                        .await?,
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
