//! Typing a text into a field as a person does (SPEC §4 `type`), the one path every action that types
//! takes: find the text field the element stands for, hold the focus on it, clear it, press a key per
//! character ([`keys::strokes`]: `keydown`, `keypress`, `beforeinput`, `input`, `keyup` each, from
//! `Input.dispatchKeyEvent`), and read the value back.
//!
//! A dialog a key raises is answered by the action's dialog scope (SPEC §7) and the typing goes on; without a
//! scope, [`dialogs::race`] ends the typing at once with `element_obstructed`.

use super::dialogs::{self, Raced};
use super::keys::{self, KeyDef, Stroke};
use super::locator::Element;
use super::page::Arg;
use crate::cdp::commands::{DomFocus, InputDispatchKeyEvent, InputInsertText};
use crate::cdp::{self, Failure};
use crate::error::{Error, Result};
use bua_protocol::{ElementInfo, Modifier};
use serde_json::json;

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
/// other elements is a no-op), so a field that "steals focus back" cannot take our keystrokes. Answers
/// what typing needs to know of the field in the same round trip ([`FieldState`]).
/// Undone by [`FOCUS_UNLOCK`], or after 15 s (`type`'s timeout, SPEC §4) when that never comes: typing a long
/// text key by key takes seconds. A newer lock takes over from an older one, whose undoing then does nothing
/// (the fields of a form are typed into one after another, well within 15 s).
const FOCUS_LOCK: &str = r#"function() {
  const target = this, K = Symbol.for('bua.focusLock');
  const wins = [target.ownerDocument.defaultView];
  try { if (wins[0].top !== wins[0] && wins[0].top.document) wins.push(wins[0].top); } catch (e) {}
  const unlock = () => {
    for (const w of wins) {
      const P = w.HTMLElement.prototype;
      if (P[K] && P[K].unlock === unlock) { P.focus = P[K].original; delete P[K]; }
    }
  };
  for (const w of wins) {
    const P = w.HTMLElement.prototype;
    const original = P[K] ? P[K].original : P.focus;
    P.focus = function (...args) { if (this === target || target.contains(this)) return original.apply(this, args); };
    P[K] = { original, unlock };
  }
  target.ownerDocument.defaultView[K] = unlock;
  setTimeout(unlock, 15000);
  let a = target.ownerDocument.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  const focused = a === target || (!!a && target.isContentEditable && target.contains(a));
  const value = target.isContentEditable ? target.innerText.replace(/\n$/, '') : String(target.value ?? '');
  return [focused, value !== '', target.isContentEditable || target.localName === 'textarea'];
}"#;

/// Lifts [`FOCUS_LOCK`] and stops [`KEY_LOG_START`]'s log.
const FOCUS_UNLOCK: &str = r#"function() {
  const w = this.ownerDocument.defaultView;
  const unlock = w[Symbol.for('bua.focusLock')];
  if (unlock) unlock();
  const log = w[Symbol.for('bua.keyLog')];
  if (log) log.stop();
  return true;
}"#;

/// Starts a log of the trusted `keydown` and `keyup` events of `this` field's window, `"keydown:a"` each,
/// taken in the capture phase before the page's listeners on the field: after a dialog, [`send_keys`]
/// reads which keys arrived. Stopped by [`FOCUS_UNLOCK`] (or after 15 s, as the lock).
const KEY_LOG_START: &str = r#"function() {
  const w = this.ownerDocument.defaultView, K = Symbol.for('bua.keyLog');
  if (w[K]) w[K].stop();
  const log = [];
  const record = e => { if (e.isTrusted) log.push(e.type + ':' + e.key); };
  w.addEventListener('keydown', record, true);
  w.addEventListener('keyup', record, true);
  const stop = () => {
    w.removeEventListener('keydown', record, true);
    w.removeEventListener('keyup', record, true);
    if (w[K] && w[K].log === log) delete w[K];
  };
  w[K] = { log, stop };
  setTimeout(stop, 15000);
  return true;
}"#;

/// [`KEY_LOG_START`]'s entries from index `from` on, or `null` when the log is gone.
const KEY_LOG_READ: &str = r#"function(from) {
  const log = this.ownerDocument.defaultView[Symbol.for('bua.keyLog')];
  return log ? log.log.slice(from) : null;
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

/// `[value, tag, type, autocomplete]` of `this` text field: [`READ_VALUE`]'s value and what
/// [`crate::secret::is_secret_field`] reads.
const READ_BACK: &str = r#"function() {
  const value = this.isContentEditable ? this.innerText.replace(/\n$/, '') : String(this.value ?? '');
  return [value, this.localName, this.getAttribute('type'), this.getAttribute('autocomplete')];
}"#;

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

/// Most key events sent before their answers are awaited (inside a dialog scope, see [`send_strokes`]):
/// bounds what a slow page has queued against [`cdp::COMMAND_TIMEOUT_MS`].
const KEY_EVENTS_IN_FLIGHT: usize = 64;

/// What [`type_into`] typed into.
#[derive(Clone, Debug)]
pub struct Typed {
    /// The text field (the located element, or the control it stands for).
    pub element: ElementInfo,
    /// The field's value read back after typing ([`reported_value`]: a password masked).
    pub value: String,
}

/// The read-back value `type` reports: a secret field's value (a password, a card number, …) as the fixed
/// [`crate::secret::MASK`], as `extract` shows it (SPEC §5 "Secrets"), any other value as it is.
pub fn reported_value(value: &str, secret: bool) -> String {
    crate::secret::shown(value, secret)
}

/// Whether the field described by a read-back's `[_, tag, type, autocomplete]` (from `at` on) is secret.
pub fn secret_of(read: &serde_json::Value, at: usize) -> bool {
    crate::secret::is_secret_field(
        read[at].as_str().unwrap_or_default(),
        read[at + 1].as_str(),
        read[at + 2].as_str(),
    )
}

/// Types `text` into the text field `located` stands for (itself, a `<label>`'s control, or its only
/// editable descendant) as a person does: focuses it (`DOM.focus`; page scripts cannot move the focus
/// meanwhile), with `clear` selects all and deletes (ctrl+a, Backspace), presses a key per character
/// ([`keys::strokes`]; a line break is Enter only in a textarea or contenteditable), and reads the value
/// back.
///
/// Errors: `invalid_action` when the element is not a text field (or is disabled or read-only) or cannot
/// take the focus; `element_obstructed` when the page moves the focus away, or when a dialog interrupts
/// the typing outside a dialog scope; CDP errors.
pub async fn type_into(tab_id: i64, located: &Element, text: &str, clear: bool) -> Result<Typed> {
    let field = located
        .element_for(EDITABLE_TARGET, "it is not a text field", |reason| {
            format!(
                "cannot type into the element ({}) on tab {tab_id}: {reason}; type into a textbox (extract lists them)",
                located.label
            )
        })
        .await?;
    let element = field.describe().await?;
    let state = FieldState::read(&field.call(FOCUS_LOCK, &[]).await?);
    let typed = type_locked(tab_id, &field, text, clear, state).await;
    // The page may be blocked by a dialog now; unlocking then would wait for it (the lock expires itself).
    if dialogs::left_open(tab_id).is_none() {
        let _ = field.call(FOCUS_UNLOCK, &[]).await;
    }
    Ok(Typed {
        element,
        value: typed?,
    })
}

/// What [`FOCUS_LOCK`] read of the field as it locked the focus on it.
struct FieldState {
    /// It has the keyboard focus already.
    focused: bool,
    /// It holds text (so `clear` has something to delete).
    has_text: bool,
    /// It keeps line breaks (a textarea or contenteditable), so a line break is the Enter key.
    multiline: bool,
}

impl FieldState {
    fn read(v: &serde_json::Value) -> FieldState {
        let flag = |i: usize| v.get(i).and_then(serde_json::Value::as_bool) == Some(true);
        FieldState {
            focused: flag(0),
            has_text: flag(1),
            multiline: flag(2),
        }
    }
}

async fn type_locked(
    tab_id: i64,
    field: &Element,
    text: &str,
    clear: bool,
    state: FieldState,
) -> Result<String> {
    let interrupted = |what: &str| {
        Error::ElementObstructed(format!(
            "a JavaScript dialog opened on tab {tab_id} while {what}; it blocks the page until answered \
             (evaluate answers it automatically)"
        ))
    };
    if !state.focused {
        field.take_focus().await?;
    }
    let clearing = clear && state.has_text;
    if clearing && !clear_field(tab_id, field).await? {
        return Err(interrupted("clearing the field"));
    }
    if !text.is_empty() {
        // The clearing's key events may have let the page move the focus by a means the lock cannot stop
        // (e.g. a handler calling blur()).
        if clearing {
            field.focus().await?;
        }
        if !send_strokes(tab_id, field, &keys::strokes(text, state.multiline)).await? {
            return Err(interrupted("typing"));
        }
    }
    let read = field.call(READ_BACK, &[]).await?;
    let secret = secret_of(&read, 1);
    let value = read[0].as_str().unwrap_or_default();
    if secret {
        // What was typed and what the field made of it never leave the extension (SPEC §5 "Secrets").
        crate::secret::remember(text);
        crate::secret::remember(value);
    }
    Ok(reported_value(value, secret))
}

/// Empties the focused `field`, which holds text, as a person does: ctrl+a, Backspace; a field that ignores
/// the select-all shortcut gets its content selected directly and Backspace again. `false` when a dialog
/// interrupted it.
async fn clear_field(tab_id: i64, field: &Element) -> Result<bool> {
    let select_all = keys::lookup("a").ok_or_else(|| Error::Internal("no key a".into()))?;
    let backspace =
        keys::lookup("Backspace").ok_or_else(|| Error::Internal("no Backspace".into()))?;
    let has_text = |v: serde_json::Value| v.as_str().is_some_and(|v| !v.is_empty());
    if !key_press(tab_id, &select_all, keys::mask(&[Modifier::Ctrl])).await?
        || !key_press(tab_id, &backspace, 0).await?
    {
        return Ok(false);
    }
    if has_text(field.call(READ_VALUE, &[]).await?) {
        field.call(SELECT_CONTENT, &[]).await?;
        return key_press(tab_id, &backspace, 0).await;
    }
    Ok(true)
}

/// Sends `strokes` to the tab in order; `false` when a dialog interrupted them.
///
/// Inside a dialog scope (every action's, SPEC §7) a dialog cannot end the typing, so the key events go
/// [`KEY_EVENTS_IN_FLIGHT`] at a time ([`send_keys`]) instead of one round trip each: Chrome queues input
/// events for the page in order, so the page sees the same events. Outside a scope each event is raced
/// against a dialog, so the first dialog ends the typing at once.
async fn send_strokes(tab_id: i64, field: &Element, strokes: &[Stroke]) -> Result<bool> {
    if !dialogs::is_answering(tab_id) {
        for stroke in strokes {
            let done = match stroke {
                Stroke::Key(def, mask) => key_press(tab_id, def, *mask).await?,
                Stroke::Insert(text) => matches!(
                    dialogs::race(tab_id, &InputInsertText { text: text.clone() }).await?,
                    Raced::Done(_)
                ),
            };
            if !done {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    field.call(KEY_LOG_START, &[]).await?;
    let mut logged = 0;
    let mut events = Vec::with_capacity(KEY_EVENTS_IN_FLIGHT);
    for stroke in strokes {
        match stroke {
            Stroke::Key(def, mask) => {
                events.push(keys::event(def, *mask, true));
                events.push(keys::event(def, *mask, false));
            }
            Stroke::Insert(text) => {
                send_keys(tab_id, field, &mut logged, &std::mem::take(&mut events)).await?;
                cdp::send(tab_id, &InputInsertText { text: text.clone() }).await?;
            }
        }
        if events.len() >= KEY_EVENTS_IN_FLIGHT {
            send_keys(tab_id, field, &mut logged, &std::mem::take(&mut events)).await?;
        }
    }
    send_keys(tab_id, field, &mut logged, &events).await?;
    Ok(true)
}

/// Most dialogs one batch of keys may meet before the typing gives up.
const DIALOGS_PER_BATCH: usize = 8;

/// Sends `events` at once ([`cdp::send_all`]) and makes sure the page got them all. While a dialog is open
/// Chrome drops the input events it receives (it ignores the page's input until the dialog closes), and
/// answers them as if sent; the dialog scope answers the dialog, and the events that did not arrive are
/// sent again. Which did is read from the page's key log ([`KEY_LOG_START`], whose first `logged` entries
/// are earlier batches'): the browser takes our commands in order and the dialog's answer is sent after
/// all of them, so the dropped ones are the batch's tail.
///
/// Errors: `element_obstructed` when the page's log does not show the batch's head (the page swallowed
/// key events before our log saw them, or the log is gone) or dialogs keep coming.
async fn send_keys(
    tab_id: i64,
    field: &Element,
    logged: &mut usize,
    events: &[InputDispatchKeyEvent],
) -> Result<()> {
    let mut rest = events;
    for _ in 0..=DIALOGS_PER_BATCH {
        if rest.is_empty() {
            return Ok(());
        }
        let mut dialog = dialogs::opening_waiter(tab_id);
        cdp::send_all(tab_id, rest).await?;
        if !matches!(dialog.try_recv(), Ok(Some(_))) {
            *logged += rest.len();
            return Ok(());
        }
        let arrived = field
            .call(KEY_LOG_READ, &[Arg::Value(json!(*logged))])
            .await?;
        // No log (the page replaced its window's state): what arrived is unknown, so nothing is sent again.
        let Ok(arrived) = serde_json::from_value::<Vec<String>>(arrived) else {
            break;
        };
        let Some(count) = arrived_head(rest, &arrived) else {
            break;
        };
        *logged += count;
        rest = &rest[count..];
    }
    Err(Error::ElementObstructed(format!(
        "JavaScript dialogs opened on tab {tab_id} while typing into the element ({}) and keys may not have \
         arrived; get_value reads what the field holds, type the rest again",
        field.label
    )))
}

/// How many of `sent` key events `arrived` (the page's key log since they were sent) shows, when it shows
/// their head in order and nothing else; `None` otherwise.
fn arrived_head(sent: &[InputDispatchKeyEvent], arrived: &[String]) -> Option<usize> {
    let in_order = arrived.len() <= sent.len()
        && sent.iter().zip(arrived).all(|(event, entry)| {
            let kind = if event.kind == "keyUp" {
                "keyup"
            } else {
                "keydown"
            };
            entry.strip_prefix(kind).and_then(|k| k.strip_prefix(':')) == Some(event.key.as_str())
        });
    in_order.then_some(arrived.len())
}

/// Presses and releases one key with `mask` held; `false` when a dialog interrupted it.
pub async fn key_press(tab_id: i64, def: &KeyDef, mask: u32) -> Result<bool> {
    for down in [true, false] {
        let raced = dialogs::race(tab_id, &keys::event(def, mask, down)).await?;
        if let Raced::Dialog(_) = raced {
            return Ok(false);
        }
    }
    Ok(true)
}

impl Element {
    /// `DOM.focus` unless the element already has the focus; checks that it got it.
    ///
    /// Errors: `invalid_action` when it cannot take the focus; `element_obstructed` when the page moved
    /// it elsewhere.
    pub async fn focus(&self) -> Result<()> {
        if self.call(HAS_FOCUS, &[]).await?.as_bool() == Some(true) {
            return Ok(());
        }
        self.take_focus().await
    }

    /// `DOM.focus` on an element that does not have the focus; checks that it got it.
    ///
    /// Errors: as [`Element::focus`].
    async fn take_focus(&self) -> Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_fields_value_is_masked_like_extract_shows_it() {
        assert_eq!(reported_value("s3cret", true), crate::secret::MASK);
        assert_eq!(reported_value("pässwört-longer", true), crate::secret::MASK);
        assert_eq!(reported_value("", true), "");
        assert_eq!(reported_value("s3cret", false), "s3cret");
    }

    fn sent(text: &str) -> Vec<InputDispatchKeyEvent> {
        keys::strokes(text, false)
            .iter()
            .flat_map(|s| match s {
                Stroke::Key(def, mask) => [true, false].map(|down| keys::event(def, *mask, down)),
                Stroke::Insert(_) => unreachable!(),
            })
            .collect()
    }

    fn log(entries: &[&str]) -> Vec<String> {
        entries.iter().map(|e| (*e).to_owned()).collect()
    }

    #[test]
    fn the_keys_a_dialog_cut_off_are_the_tail_the_log_does_not_show() {
        let sent = sent("hi!t");
        assert_eq!(arrived_head(&sent, &[]), Some(0));
        let head = log(&["keydown:h", "keyup:h", "keydown:i", "keyup:i", "keydown:!"]);
        assert_eq!(arrived_head(&sent, &head), Some(5));
        assert_eq!(arrived_head(&sent[..5], &head), Some(5));
    }

    #[test]
    fn a_log_with_a_gap_or_a_stranger_is_not_trusted() {
        let sent = sent("ab");
        assert_eq!(arrived_head(&sent, &log(&["keydown:a", "keydown:b"])), None);
        assert_eq!(arrived_head(&sent, &log(&["keydown:x"])), None);
        let too_many = log(&["keydown:a", "keyup:a", "keydown:b", "keyup:b", "keydown:c"]);
        assert_eq!(arrived_head(&sent, &too_many), None);
    }
}
