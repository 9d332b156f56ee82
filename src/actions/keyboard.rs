//! Keyboard input (SPEC §4): `type` ([`typing::type_into`]: a key per character, so pages see `keydown`,
//! `keypress`, `beforeinput`, `input` and `keyup` as from a keyboard) and `press_key`
//! (`Input.dispatchKeyEvent`, [`keys`] maps the names). A dialog a key raises is answered by the action's
//! dialog scope (SPEC §7); without one, [`dialogs::race`] ends the input at once. A navigation
//! `type {submit}` or `press_key {waitLoad}` starts is waited for ([`navigation::Watch`]).

use super::ctx::Ctx;
use super::dialogs::{self, Raced};
use super::handler::{Handler, Traits};
use super::keys;
use super::locator;
use super::navigation::{self, Watch, NAV_GRACE_MS};
use super::page;
use super::secrets;
use super::typing::{self, key_press, Typed};
use crate::error::{Error, Result};
use bua_protocol::{PressKey, PressKeyResult, TypeResult, TypeText};

/// How long `type {submit}` and `press_key {waitLoad}` wait for a navigation they started to load, ms (the
/// action has 15 s).
const KEY_LOAD_BUDGET_MS: u32 = 11_000;

/// The read-back value of a text field as `type` reports it (kept here for the actions that name it so).
pub use super::typing::{reported_value, secret_of};

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

/// `type {locator, text, clear?, submit?}`: types the text into the field as a person does
/// ([`typing::type_into`]: focus held, cleared with ctrl+a and Backspace when `clear`, a key per character),
/// reads the value back, and presses Enter when `submit`.
///
/// Errors: locator errors; `invalid_action` when the element is not a text field (or is disabled or
/// read-only); `element_obstructed` when the page takes the focus away.
impl Handler for TypeText {
    type Output = TypeResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<TypeResult> {
        let located = ctx.locate(&self.locator).await?;
        if let Some(name) = &self.secret {
            let origins = self.secret_origins.as_deref();
            secrets::check_bound(ctx.tab_id, &located, name, origins, &self.text).await?;
        }
        let Typed { element, value } =
            typing::type_into(ctx.tab_id, &located, &self.text, self.clear).await?;
        // A named secret reads as the mask in any field (SPEC §4 "Secrets").
        let value = crate::secret::shown(&value, self.secret.is_some());
        if self.submit {
            let enter =
                keys::lookup("Enter").ok_or_else(|| Error::Internal("no Enter key".into()))?;
            let press = key_press(ctx.tab_id, &enter, 0);
            Watch::around(ctx.tab_id, KEY_LOAD_BUDGET_MS, press).await?;
        }
        Ok(TypeResult {
            element,
            value,
            tab_id: ctx.tab_id,
        })
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
            ctx.locate(locator).await?.dom_focus().await?;
        }
        let element = match page::eval_object(ctx.tab_id, ACTIVE_ELEMENT).await? {
            Ok(object) => match object.object_id {
                Some(id) => Some(locator::describe_object(ctx.tab_id, &id).await?),
                None => None,
            },
            Err(_) => None,
        };
        let watch = Watch::start(ctx.tab_id).await?;
        let mut held = 0;
        let mut completed = true;
        for m in modifiers {
            held |= m.cdp_bit();
            completed = completed
                && matches!(
                    dialogs::race(
                        ctx.tab_id,
                        &keys::event(&keys::modifier_key(*m), held, true)
                    )
                    .await?,
                    Raced::Done(_)
                );
        }
        completed = completed && key_press(ctx.tab_id, &def, held).await?;
        for m in modifiers.iter().rev() {
            if !completed {
                break;
            }
            held &= !m.cdp_bit();
            completed = matches!(
                dialogs::race(
                    ctx.tab_id,
                    &keys::event(&keys::modifier_key(*m), held, false)
                )
                .await?,
                Raced::Done(_)
            );
        }
        let loaded = if completed && wait_load {
            watch
                .settle(
                    ctx.tab_id,
                    NAV_GRACE_MS * 2,
                    KEY_LOAD_BUDGET_MS,
                    load_wait_ms,
                )
                .await
        } else {
            None
        };
        Ok(PressKeyResult {
            key: def.key,
            modifiers: modifiers.to_vec(),
            element,
            tab_id: ctx.tab_id,
            loaded,
        })
    }
}
