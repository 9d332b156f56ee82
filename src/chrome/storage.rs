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
