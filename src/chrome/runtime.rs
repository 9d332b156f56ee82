//! `chrome.runtime`: the extension's own id and version; `sendMessage` and `openOptionsPage` for the popup and
//! options pages (SPEC §10).

use super::{call_unit, guard, to_js};
use crate::error::{Error, Result};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = getManifest)]
    fn get_manifest_js() -> JsValue;
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = id, thread_local_v2)]
    static RUNTIME_ID: JsValue;
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = sendMessage, catch)]
    fn send_message_js(message: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = openOptionsPage, catch)]
    fn open_options_page_js() -> Result<js_sys::Promise, JsValue>;
}

/// `chrome.runtime.sendMessage(message)` to the service worker; resolves with its answer (a JS value, `undefined`
/// when no listener answered). Used by the popup and options pages to call [`crate::api`].
///
/// Errors: [`Error::Internal`] with Chrome's message (e.g. "Could not establish connection").
pub async fn send_message<T: serde::Serialize + ?Sized>(message: &T) -> Result<JsValue> {
    let message = to_js(message)?;
    let promise = guard("chrome.runtime.sendMessage", || send_message_js(&message))?;
    JsFuture::from(promise)
        .await
        .map_err(|e| Error::from_js("chrome.runtime.sendMessage", &e))
}

/// `chrome.runtime.openOptionsPage()`: opens (or focuses) the options page.
pub async fn open_options_page() -> Result<()> {
    call_unit("chrome.runtime.openOptionsPage", open_options_page_js).await
}

/// The `version` of manifest.json.
pub fn extension_version() -> String {
    js_sys::Reflect::get(&get_manifest_js(), &"version".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| "0.0.0".to_owned())
}

/// This extension's id.
pub fn id() -> String {
    RUNTIME_ID.with(|v| v.as_string().unwrap_or_default())
}
