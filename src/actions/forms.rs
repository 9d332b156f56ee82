//! Form controls (SPEC §4): `select_option` (native `<select>` popups are never opened: the value is set
//! and `input` + `change` fired), `check` (a real click on the box or its label, so frameworks see it),
//! `set_value` (the native value setter + `input` + `change`, for controls typing cannot reach), and
//! `get_value` (reads what any of them left, changing nothing).

use super::ctx::Ctx;
use super::handler::{Handler, Traits};
use super::keyboard::{reported_value, secret_of};
use super::locator::Element;
use super::page::Arg;
use crate::error::{Error, Result};
use bua_protocol::{
    Check, CheckResult, FormValue, GetValue, GetValueResult, OptionChoice, SelectOption,
    SelectOptionResult, SelectedOption, SetValue, SetValueResult,
};
use serde_json::{json, Value};

/// Selects options of `this` `<select>` (or the `<select>` of `this` `<option>` or `<label>`): `kind` is
/// value/label/index, `wanted` an array; `input` + `change` only when the selection changed. Returns
/// `{selected:[{value,label}]}` or `{error, …}`.
const SELECT: &str = r#"function(kind, wanted) {
  const sel = this.localName === 'option' ? this.closest('select') : this.localName === 'label' && this.control ? this.control : this;
  if (!sel || sel.localName !== 'select') return { error: 'not_select', tag: this.localName };
  if (sel.disabled) return { error: 'disabled_select' };
  const options = Array.from(sel.options);
  const list = () => options.map(o => ({ value: o.value, label: o.label, disabled: o.disabled }));
  const norm = s => String(s).replace(/\s+/g, ' ').trim();
  const picks = [];
  for (const w of wanted) {
    let o;
    if (kind === 'value') o = options.find(o => o.value === w);
    else if (kind === 'label') o = options.find(o => norm(o.label) === norm(w)) || options.find(o => norm(o.label).toLowerCase() === norm(w).toLowerCase());
    else o = options[w];
    if (!o) return { error: 'no_option', wanted: w, options: list() };
    if (o.disabled || (o.parentElement && o.parentElement.localName === 'optgroup' && o.parentElement.disabled))
      return { error: 'disabled_option', wanted: w, label: o.label, options: list() };
    picks.push(o);
  }
  if (picks.length > 1 && !sel.multiple) return { error: 'not_multiple', count: picks.length };
  const state = () => options.map(o => o.selected).join();
  const before = state();
  if (sel.multiple) options.forEach(o => { o.selected = picks.includes(o); });
  else sel.selectedIndex = picks[0].index;
  // A person's choice of what is already chosen fires nothing.
  if (state() !== before) {
    sel.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    sel.dispatchEvent(new Event('change', { bubbles: true }));
  }
  return { selected: Array.from(sel.selectedOptions).map(o => ({ value: o.value, label: o.label })) };
}"#;

/// The checkable control of `this` (itself, a label's control, or its only checkbox/radio descendant) and
/// its state: returns the element, or a string saying why there is none.
const CHECKABLE: &str = r#"function() {
  const ok = e => (e.localName === 'input' && ['checkbox', 'radio'].includes(e.type))
    || ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(e.getAttribute('role'));
  if (ok(this)) return this;
  if (this.localName === 'label' && this.control && ok(this.control)) return this.control;
  const inner = Array.from(this.querySelectorAll('input[type=checkbox], input[type=radio], [role=checkbox], [role=radio], [role=switch]'));
  if (inner.length === 1) return inner[0];
  return 'a <' + this.localName + '> is not a checkbox, radio button or switch';
}"#;

/// `{checked, kind, disabled}` of a checkable control.
const CHECK_STATE: &str = r#"function() {
  const native = this.localName === 'input';
  const checked = native ? this.checked : this.getAttribute('aria-checked') === 'true';
  const disabled = native ? this.disabled : this.getAttribute('aria-disabled') === 'true';
  return { checked, disabled, radio: native ? this.type === 'radio' : /radio/.test(this.getAttribute('role') || '') };
}"#;

/// The untrusted fallback when no point of the control or its label can be clicked (e.g. a visually
/// hidden input without a label): `click()` toggles it and fires click/input/change.
const CLICK_IN_PAGE: &str = "function() { this.click(); return true; }";

/// The first `<label>` of `this` that has a box.
const VISIBLE_LABEL: &str = r#"function() {
  const labels = this.labels ? Array.from(this.labels) : [];
  return labels.find(l => l.getClientRects().length > 0) || null;
}"#;

/// Sets the value of `this` with the native setter (so framework value trackers notice) and fires
/// `input` + `change`; returns `{value}` or `{error}`.
const SET_VALUE: &str = r#"function(v) {
  const el = this, tag = el.localName, type = (el.type || '').toLowerCase();
  if (el.disabled) return { error: 'it is disabled' };
  if (tag === 'input' && ['checkbox', 'radio'].includes(type)) return { error: 'it is a ' + type + ' (use check)' };
  if (tag === 'input' && type === 'file') return { error: 'file inputs cannot be set from a page' };
  if (el.isContentEditable) {
    el.textContent = v;
    el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText', data: v }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { value: el.innerText };
  }
  if (!['input', 'textarea', 'select'].includes(tag) && !('value' in el)) return { error: 'a <' + tag + '> has no value' };
  let proto = Object.getPrototypeOf(el), desc;
  while (proto && !(desc = Object.getOwnPropertyDescriptor(proto, 'value'))) proto = Object.getPrototypeOf(proto);
  if (desc && desc.set) desc.set.call(el, v); else el.value = v;
  if (tag === 'select' && el.value !== v) return { error: 'no option has the value ' + JSON.stringify(v) };
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { value: String(el.value ?? ''), field: [tag, el.getAttribute('type'), el.getAttribute('autocomplete')] };
}"#;

/// The control `get_value` reads for `this`: a `<label>`'s control, else the element itself.
const VALUE_CONTROL: &str = r#"function() {
  return this.localName === 'label' && this.control ? this.control : this;
}"#;

/// The current value of `this` as `{value, label?, checked?, field?, options?}` (`field`: tag, type and
/// autocomplete, what [`crate::secret::is_secret_field`] reads), or `{error}` when it has
/// none (the shapes of [`GetValueResult`]). Text is read as `type` reads it back; `options` are every
/// option of a select, an `<input list>`'s datalist, an ARIA list box or a combobox's popup (at most
/// `max` of them).
const READ_CONTROL: &str = r#"function(max) {
  const el = this, tag = el.localName, type = tag === 'input' ? (el.type || 'text').toLowerCase() : '';
  const role = el.getAttribute('role') || '';
  const text = o => (o.getAttribute('aria-label') || o.textContent || '').replace(/\s+/g, ' ').trim();
  const ariaOptions = () => {
    const roots = role === 'listbox' ? [el] : ((el.getAttribute('aria-controls') || '') + ' ' + (el.getAttribute('aria-owns') || ''))
      .split(/\s+/).filter(Boolean).map(id => el.ownerDocument.getElementById(id)).filter(Boolean);
    return roots.flatMap(r => Array.from(r.querySelectorAll('[role=option]')));
  };
  const listed = () => {
    if (tag === 'select') return Array.from(el.options).slice(0, max).map(o => ({ value: o.value, label: o.label }));
    if (tag === 'input' && el.list) return Array.from(el.list.options).slice(0, max).map(o => ({ value: o.value, label: o.label || o.value }));
    return ariaOptions().slice(0, max).map(o => ({ value: text(o), label: text(o) }));
  };
  if (tag === 'select') {
    const picked = Array.from(el.selectedOptions);
    if (el.multiple) return { value: picked.map(o => o.value), label: picked.map(o => o.label), options: listed() };
    return { value: picked.length ? picked[0].value : '', label: picked.length ? picked[0].label : '', options: listed() };
  }
  if (type === 'checkbox' || type === 'radio') return { value: String(el.value), checked: el.checked };
  if (tag === 'input' || tag === 'textarea') return { value: String(el.value ?? ''), field: [tag, el.getAttribute('type'), el.getAttribute('autocomplete')], options: listed() };
  if (el.isContentEditable) return { value: el.innerText.replace(/\n$/, ''), options: listed() };
  if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role))
    return { value: el.getAttribute('value') ?? '', checked: el.getAttribute('aria-checked') === 'true' };
  if (role === 'listbox' || role === 'combobox') {
    const picked = ariaOptions().filter(o => o.getAttribute('aria-selected') === 'true').map(text);
    return { value: role === 'listbox' ? picked : (el.getAttribute('aria-valuetext') || picked[0] || ''), options: listed() };
  }
  if ('value' in el && el.value !== undefined && el.value !== null) return { value: String(el.value) };
  return { error: 'a <' + tag + '> has no value' };
}"#;

/// `get_value {locator}`: the control's current value, read in the page (nothing is focused, clicked
/// or changed).
///
/// Errors: `invalid_action` (an element without a value, e.g. a `<div>`: the message says to read its
/// text with `extract`), locator errors.
impl Handler for GetValue {
    type Output = GetValueResult;
    const TRAITS: Traits = Traits::PAGE;

    async fn run(&self, ctx: &Ctx) -> Result<GetValueResult> {
        let located = ctx.locate(&self.locator).await?;
        // A `<label>`'s control, else the element itself.
        let control = located
            .call_for_element(VALUE_CONTROL, &[])
            .await?
            .unwrap_or(located);
        let element = control.describe().await?;
        let max = Arg::Value(json!(bua_protocol::GET_VALUE_MAX_OPTIONS));
        let r = control.call(READ_CONTROL, &[max]).await?;
        if let Some(reason) = r.get("error").and_then(Value::as_str) {
            return Err(Error::InvalidAction(format!(
            "cannot read a value from the element ({}): {reason}; read its text with extract, or locate \
             the input, textarea, select or contenteditable itself",
            control.label
        )));
        }
        let form_value = |key: &str| -> Result<Option<FormValue>> {
            r.get(key)
                .cloned()
                .map(serde_json::from_value)
                .transpose()
                .map_err(Into::into)
        };
        let secret = r.get("field").is_some_and(|f| secret_of(f, 0));
        let value = match form_value("value")? {
            // A secret field's value is masked as `extract` and `type` show it (SPEC §5 "Secrets").
            Some(FormValue::One(v)) => FormValue::One(reported_value(&v, secret)),
            Some(many) => many,
            None => FormValue::One(String::new()),
        };
        Ok(GetValueResult {
            element,
            value,
            label: form_value("label")?,
            checked: r.get("checked").and_then(Value::as_bool),
            options: r
                .get("options")
                .cloned()
                .map(serde_json::from_value)
                .transpose()?
                .unwrap_or_default(),
            tab_id: ctx.tab_id,
        })
    }
}

/// `select_option {locator, value | label | index}`.
///
/// Errors: `invalid_action` (not a `<select>`, disabled select or option, several options for a single
/// select), `element_not_found` (no such option; the message lists the options), locator errors.
impl Handler for SelectOption {
    type Output = SelectOptionResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<SelectOptionResult> {
        let element = ctx.locate(&self.locator).await?;
        let (kind, wanted) = match &self.choice {
            OptionChoice::Value(v) => ("value", json!(v)),
            OptionChoice::Label(v) => ("label", json!(v)),
            OptionChoice::Index(v) => ("index", json!(v)),
        };
        let r = element
            .call(SELECT, &[Arg::Value(json!(kind)), Arg::Value(wanted)])
            .await?;
        let options = || {
            r.get("options")
                .and_then(Value::as_array)
                .map(|o| {
                    o.iter()
                        .map(|o| {
                            let mut s = format!(
                                "{:?} ({:?})",
                                o.get("label").and_then(Value::as_str).unwrap_or(""),
                                o.get("value").and_then(Value::as_str).unwrap_or("")
                            );
                            if o.get("disabled").and_then(Value::as_bool) == Some(true) {
                                s.push_str(" disabled");
                            }
                            s
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default()
        };
        let wanted = || r.get("wanted").map(|w| w.to_string()).unwrap_or_default();
        match r.get("error").and_then(Value::as_str) {
        None => {}
        Some("not_select") => {
            return Err(Error::InvalidAction(format!(
                "the element ({}) is a <{}>, not a <select>; for a custom dropdown click it open, then click \
                 the option",
                element.label,
                r.get("tag").and_then(Value::as_str).unwrap_or("?")
            )))
        }
        Some("disabled_select") => {
            return Err(Error::InvalidAction(format!(
                "the <select> ({}) is disabled; the page must enable it first",
                element.label
            )))
        }
        Some("no_option") => {
            return Err(Error::ElementNotFound(format!(
                "the <select> ({}) has no option with {} {}; its options (label (value)): {}",
                element.label,
                self.choice.key(),
                wanted(),
                options()
            )))
        }
        Some("disabled_option") => {
            return Err(Error::InvalidAction(format!(
                "the option {} of the <select> ({}) is disabled and cannot be chosen; pick an enabled one: {}",
                wanted(),
                element.label,
                options()
            )))
        }
        Some("not_multiple") => {
            return Err(Error::InvalidAction(format!(
                "the <select> ({}) takes one option, not {}",
                element.label,
                r.get("count").and_then(Value::as_u64).unwrap_or(0)
            )))
        }
        Some(other) => return Err(Error::Internal(format!("select_option: {other}"))),
    }
        let selected: Vec<SelectedOption> =
            serde_json::from_value(r.get("selected").cloned().unwrap_or_else(|| json!([])))?;
        Ok(SelectOptionResult {
            selected,
            tab_id: ctx.tab_id,
        })
    }
}

/// `check {locator, checked?}`: clicks the control (or its label) when its state differs from `checked`.
///
/// Errors: `invalid_action` (not checkable, disabled, or unchecking a radio button), locator errors,
/// `element_obstructed`.
impl Handler for Check {
    type Output = CheckResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<CheckResult> {
        let (locator, wanted) = (&self.locator, self.checked);
        let located = ctx.locate(locator).await?;
        let control = located
            .element_for(CHECKABLE, "it is not checkable", |reason| {
                format!("cannot check the element ({}): {reason}", located.label)
            })
            .await?;
        let element = control.describe().await?;
        let state = control.call(CHECK_STATE, &[]).await?;
        let checked = state.get("checked").and_then(Value::as_bool) == Some(true);
        if checked == wanted {
            return Ok(CheckResult {
                checked,
                tab_id: ctx.tab_id,
                element: Some(element),
            });
        }
        if state.get("disabled").and_then(Value::as_bool) == Some(true) {
            return Err(Error::InvalidAction(format!(
                "the control ({}) is disabled",
                control.label
            )));
        }
        if !wanted && state.get("radio").and_then(Value::as_bool) == Some(true) {
            return Err(Error::InvalidAction(format!(
            "a radio button ({}) cannot be unchecked; check another option of its group instead",
            control.label
        )));
        }
        toggle(&control).await?;
        let after = control.call(CHECK_STATE, &[]).await?;
        let checked = after.get("checked").and_then(Value::as_bool) == Some(true);
        if checked != wanted {
            return Err(Error::InvalidAction(format!(
            "clicking the control ({}) did not change its state (the page keeps it {}); it may need another \
             step first",
            control.label,
            if checked { "checked" } else { "unchecked" }
        )));
        }
        Ok(CheckResult {
            checked,
            tab_id: ctx.tab_id,
            element: Some(element),
        })
    }
}

/// Clicks the control, else a visible label of it, else `click()` in the page.
async fn toggle(control: &Element) -> Result<()> {
    match control.click().await {
        Ok(()) => return Ok(()),
        Err(Error::ElementNotFound(_)) => {}
        Err(e) => return Err(e),
    }
    if let Ok(label) = control.call_for_element(VISIBLE_LABEL, &[]).await? {
        return label.click().await;
    }
    control.call(CLICK_IN_PAGE, &[]).await?;
    Ok(())
}

/// `set_value {locator, value}`.
///
/// Errors: `invalid_action` (no value to set: disabled, checkbox/radio, file input, element without a
/// value; a `<select>` without that option), locator errors.
impl Handler for SetValue {
    type Output = SetValueResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<SetValueResult> {
        let (locator, value) = (&self.locator, self.value.as_str());
        let element = ctx.locate(locator).await?;
        let info = element.describe().await?;
        let r = element.call(SET_VALUE, &[Arg::Value(json!(value))]).await?;
        if let Some(reason) = r.get("error").and_then(Value::as_str) {
            return Err(Error::InvalidAction(format!(
                "cannot set the value of the element ({}): {reason}",
                element.label
            )));
        }
        let secret = r.get("field").is_some_and(|f| secret_of(f, 0));
        let read = r.get("value").and_then(Value::as_str).unwrap_or_default();
        if secret {
            crate::secret::remember(value);
            crate::secret::remember(read);
        }
        Ok(SetValueResult {
            element: info,
            // A secret field's value is masked as `extract` and `type` show it (SPEC §5 "Secrets").
            value: reported_value(read, secret),
            tab_id: ctx.tab_id,
        })
    }
}
