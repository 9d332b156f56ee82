//! `chrome.storage.local`: get, set, remove; `chrome.storage.session`: get, set.

use super::{from_js, guard, settle_unit, to_js};
use crate::error::{Error, Result};
use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "local"], js_name = get, catch)]
    fn get_js(keys: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "local"], js_name = set, catch)]
    fn set_js(items: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "local"], js_name = remove, catch)]
    fn remove_js(keys: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "session"], js_name = get, catch)]
    fn session_get_js(keys: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "session"], js_name = set, catch)]
    fn session_set_js(items: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "onChanged"], js_name = addListener)]
    fn on_changed_add_js(callback: &js_sys::Function);
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "onChanged"], js_name = removeListener)]
    fn on_changed_remove_js(callback: &js_sys::Function);
}

/// A `chrome.storage.onChanged` listener for the `local` area; removed when dropped (the popup and options
/// pages hold theirs for the page's lifetime).
pub struct ChangeListener {
    callback: Closure<dyn FnMut(JsValue, JsValue)>,
}

impl Drop for ChangeListener {
    fn drop(&mut self) {
        on_changed_remove_js(self.callback.as_ref().unchecked_ref());
    }
}

/// Calls `f(changes)` for every change to `chrome.storage.local`. `changes` is Chrome's
/// `{key: {oldValue?, newValue?}}` object; read it with [`changed`].
pub fn on_changed(mut f: impl FnMut(&JsValue) + 'static) -> ChangeListener {
    let callback =
        Closure::<dyn FnMut(JsValue, JsValue)>::new(move |changes: JsValue, area: JsValue| {
            if area.as_string().as_deref() == Some("local") {
                f(&changes);
            }
        });
    on_changed_add_js(callback.as_ref().unchecked_ref());
    ChangeListener { callback }
}

/// The new value of `key` in an `onChanged` `changes` object: `None` when `key` did not change,
/// `Some(None)` when it was removed (or has an unexpected shape, logged), `Some(Some(v))` otherwise.
pub fn changed<T: DeserializeOwned>(changes: &JsValue, key: &str) -> Option<Option<T>> {
    let change = js_sys::Reflect::get(changes, &JsValue::from_str(key)).ok()?;
    if change.is_undefined() || change.is_null() {
        return None;
    }
    let value = js_sys::Reflect::get(&change, &JsValue::from_str("newValue")).ok()?;
    if value.is_undefined() || value.is_null() {
        return Some(None);
    }
    match from_js(&value) {
        Ok(v) => Some(Some(v)),
        Err(e) => {
            crate::log::warn(&format!(
                "storage key {key} changed to an unexpected shape, ignored: {e}"
            ));
            Some(None)
        }
    }
}

/// Reads one key; `None` when it is absent (or does not have the expected shape, which is logged as corrupt).
pub async fn get<T: DeserializeOwned>(key: &str) -> Result<Option<T>> {
    let keys = JsValue::from_str(key);
    let promise = guard("chrome.storage.local.get", || get_js(&keys))?;
    let items = JsFuture::from(promise)
        .await
        .map_err(|e| Error::from_js("chrome.storage.local.get", &e))?;
    let value = js_sys::Reflect::get(&items, &keys)
        .map_err(|e| Error::from_js("chrome.storage.local.get", &e))?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match from_js(&value) {
        Ok(v) => Ok(Some(v)),
        Err(e) => {
            crate::log::warn(&format!(
                "storage key {key} has an unexpected shape, ignored: {e}"
            ));
            Ok(None)
        }
    }
}

/// Writes one key.
pub async fn set<T: Serialize + ?Sized>(key: &str, value: &T) -> Result<()> {
    let obj = js_sys::Object::new();
    js_sys::Reflect::set(&obj, &JsValue::from_str(key), &to_js(value)?)
        .map_err(|e| Error::from_js("chrome.storage.local.set", &e))?;
    settle_unit(
        "chrome.storage.local.set",
        guard("chrome.storage.local.set", || set_js(&obj))?,
    )
    .await
}

/// Removes one key.
pub async fn remove(key: &str) -> Result<()> {
    let k = JsValue::from_str(key);
    settle_unit(
        "chrome.storage.local.remove",
        guard("chrome.storage.local.remove", || remove_js(&k))?,
    )
    .await
}

/// Reads one key of `chrome.storage.session` (in memory; survives service-worker restarts, cleared when the
/// extension reloads or the browser restarts); `None` when absent.
pub async fn session_get<T: DeserializeOwned>(key: &str) -> Result<Option<T>> {
    let keys = JsValue::from_str(key);
    let promise = guard("chrome.storage.session.get", || session_get_js(&keys))?;
    let items = JsFuture::from(promise)
        .await
        .map_err(|e| Error::from_js("chrome.storage.session.get", &e))?;
    let value = js_sys::Reflect::get(&items, &keys)
        .map_err(|e| Error::from_js("chrome.storage.session.get", &e))?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    Ok(Some(from_js(&value)?))
}

/// Writes one key of `chrome.storage.session`.
pub async fn session_set<T: Serialize + ?Sized>(key: &str, value: &T) -> Result<()> {
    let obj = js_sys::Object::new();
    js_sys::Reflect::set(&obj, &JsValue::from_str(key), &to_js(value)?)
        .map_err(|e| Error::from_js("chrome.storage.session.set", &e))?;
    settle_unit(
        "chrome.storage.session.set",
        guard("chrome.storage.session.set", || session_set_js(&obj))?,
    )
    .await
}

/// Reads one key of `chrome.storage.local` as a raw JS value (`undefined` when absent), for values the caller
/// keeps in JS form (e.g. the audit-log ring, which is appended to without re-serialising it).
pub async fn get_raw(key: &str) -> Result<JsValue> {
    let keys = JsValue::from_str(key);
    let promise = guard("chrome.storage.local.get", || get_js(&keys))?;
    let items = JsFuture::from(promise)
        .await
        .map_err(|e| Error::from_js("chrome.storage.local.get", &e))?;
    js_sys::Reflect::get(&items, &keys).map_err(|e| Error::from_js("chrome.storage.local.get", &e))
}

/// Writes one key of `chrome.storage.local` from a raw JS value.
pub async fn set_raw(key: &str, value: &JsValue) -> Result<()> {
    let obj = js_sys::Object::new();
    js_sys::Reflect::set(&obj, &JsValue::from_str(key), value)
        .map_err(|e| Error::from_js("chrome.storage.local.set", &e))?;
    settle_unit(
        "chrome.storage.local.set",
        guard("chrome.storage.local.set", || set_js(&obj))?,
    )
    .await
}
