//! `chrome.storage.local`: get, set, remove; `chrome.storage.session`: get, set.

use super::{call_unit, from_js, guard, to_js};
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
    Some(decoded(key, &value, "changed to"))
}

/// `value` of `key` decoded; `None` when it is absent, or of an unexpected shape (logged: "storage key
/// <key> <verb> an unexpected shape").
fn decoded<T: DeserializeOwned>(key: &str, value: &JsValue, verb: &str) -> Option<T> {
    if value.is_undefined() || value.is_null() {
        return None;
    }
    from_js(value)
        .map_err(|e| {
            crate::log::warn(&format!(
                "storage key {key} {verb} an unexpected shape, ignored: {e}"
            ))
        })
        .ok()
}

/// Reads one key; `None` when it is absent (or does not have the expected shape, which is logged as corrupt).
pub async fn get<T: DeserializeOwned>(key: &str) -> Result<Option<T>> {
    Ok(decoded(key, &LOCAL.get_one(key).await?, "has"))
}

/// Writes one key.
pub async fn set<T: Serialize + ?Sized>(key: &str, value: &T) -> Result<()> {
    LOCAL.set_one(key, &to_js(value)?).await
}

/// Writes several keys in one `chrome.storage.local.set` (`items`: a JSON object), so listeners see one change.
pub async fn set_items(items: &serde_json::Value) -> Result<()> {
    let obj = to_js(items)?;
    call_unit(LOCAL.set, || (LOCAL.set_js)(&obj)).await
}

/// Removes one key.
pub async fn remove(key: &str) -> Result<()> {
    let k = JsValue::from_str(key);
    call_unit("chrome.storage.local.remove", || remove_js(&k)).await
}

/// Reads one key of `chrome.storage.session` (in memory; survives service-worker restarts, cleared when the
/// extension reloads or the browser restarts); `None` when absent.
pub async fn session_get<T: DeserializeOwned>(key: &str) -> Result<Option<T>> {
    let value = SESSION.get_one(key).await?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    Ok(Some(from_js(&value)?))
}

/// Writes one key of `chrome.storage.session`.
pub async fn session_set<T: Serialize + ?Sized>(key: &str, value: &T) -> Result<()> {
    SESSION.set_one(key, &to_js(value)?).await
}

/// Reads one key of `chrome.storage.local` as a raw JS value (`undefined` when absent), for values the caller
/// keeps in JS form (e.g. the audit-log ring, which is appended to without re-serialising it).
pub async fn get_raw(key: &str) -> Result<JsValue> {
    LOCAL.get_one(key).await
}

/// Writes one key of `chrome.storage.local` from a raw JS value.
pub async fn set_raw(key: &str, value: &JsValue) -> Result<()> {
    LOCAL.set_one(key, value).await
}

/// A storage area's `get` and `set`, with their names for errors.
struct Area {
    get: &'static str,
    set: &'static str,
    get_js: fn(&JsValue) -> std::result::Result<js_sys::Promise, JsValue>,
    set_js: fn(&JsValue) -> std::result::Result<js_sys::Promise, JsValue>,
}

/// `chrome.storage.local`.
const LOCAL: Area = Area {
    get: "chrome.storage.local.get",
    set: "chrome.storage.local.set",
    get_js,
    set_js,
};

/// `chrome.storage.session`.
const SESSION: Area = Area {
    get: "chrome.storage.session.get",
    set: "chrome.storage.session.set",
    get_js: session_get_js,
    set_js: session_set_js,
};

impl Area {
    /// One key's raw value (`undefined` when absent).
    async fn get_one(&self, key: &str) -> Result<JsValue> {
        let keys = JsValue::from_str(key);
        let promise = guard(self.get, || (self.get_js)(&keys))?;
        let items = JsFuture::from(promise)
            .await
            .map_err(|e| Error::from_js(self.get, &e))?;
        js_sys::Reflect::get(&items, &keys).map_err(|e| Error::from_js(self.get, &e))
    }

    /// Writes one key from a raw JS value.
    async fn set_one(&self, key: &str, value: &JsValue) -> Result<()> {
        let obj = js_sys::Object::new();
        js_sys::Reflect::set(&obj, &JsValue::from_str(key), value)
            .map_err(|e| Error::from_js(self.set, &e))?;
        call_unit(self.set, || (self.set_js)(&obj)).await
    }
}
