//! Typed bindings to the `chrome.*` extension APIs the service worker uses, one file per namespace.
//!
//! Every binding returns the MV3 promise form of the API, awaited and converted into Rust types with
//! serde-wasm-bindgen; a rejected promise (Chrome's `lastError`) becomes [`Error`] with Chrome's message.

pub mod alarms;
pub mod debugger;
pub mod dnr;
pub mod downloads;
pub mod idle;
pub mod native_messaging;
pub mod notifications;
pub mod runtime;
pub mod storage;
pub mod tab_groups;
pub mod tabs;
pub mod windows;

use crate::error::{Error, Result};
use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Awaits a Chrome API promise and deserializes its value; `context` names the API for the error message.
pub(crate) async fn settle<T: DeserializeOwned>(
    context: &str,
    promise: js_sys::Promise,
) -> Result<T> {
    let value = JsFuture::from(promise)
        .await
        .map_err(|e| Error::from_js(context, &e))?;
    from_js(&value)
}

/// Awaits a Chrome API promise whose value is not needed.
pub(crate) async fn settle_unit(context: &str, promise: js_sys::Promise) -> Result<()> {
    JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|e| Error::from_js(context, &e))
}

/// Calls the promise-returning Chrome API `context` names (`f` calls it) and deserializes what the promise
/// resolves to: [`guard`] then [`settle`].
pub(crate) async fn call<T: DeserializeOwned>(
    context: &str,
    f: impl FnOnce() -> std::result::Result<js_sys::Promise, JsValue>,
) -> Result<T> {
    settle(context, guard(context, f)?).await
}

/// Like [`call`] for an API whose value is not needed.
pub(crate) async fn call_unit(
    context: &str,
    f: impl FnOnce() -> std::result::Result<js_sys::Promise, JsValue>,
) -> Result<()> {
    settle_unit(context, guard(context, f)?).await
}

/// Converts a Rust value into a plain JS object (maps become objects, as storage and messaging expect).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    Ok(value.serialize(&serializer)?)
}

/// Converts a JS value into a Rust value.
pub fn from_js<T: DeserializeOwned>(value: &JsValue) -> Result<T> {
    Ok(serde_wasm_bindgen::from_value(value.clone())?)
}

/// Calls a Chrome API that throws synchronously on bad arguments (e.g. a closed tab id) and returns a promise.
pub(crate) fn guard(
    context: &str,
    call: impl FnOnce() -> std::result::Result<js_sys::Promise, JsValue>,
) -> Result<js_sys::Promise> {
    call().map_err(|e| Error::from_js(context, &e))
}
