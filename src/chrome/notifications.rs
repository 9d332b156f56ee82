//! `chrome.notifications`: the notification a `handoff` raises (SPEC §4), and clearing it.

use super::{call_unit, to_js};
use crate::error::Result;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "notifications"], js_name = create, catch)]
    fn create_js(id: &str, options: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "notifications"], js_name = clear, catch)]
    fn clear_js(id: &str) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = getURL)]
    fn get_url(path: &str) -> String;
}

/// The extension's icon shown in its notifications.
const ICON_PATH: &str = "icons/bua-128.png";

/// `chrome.notifications.create(id, {type:"basic", iconUrl, title, message, requireInteraction:true})`:
/// a notification that stays until it is clicked or cleared. Errors: Chrome's (e.g. notifications turned off).
pub async fn create(id: &str, title: &str, message: &str) -> Result<()> {
    let options = to_js(&serde_json::json!({
        "type": "basic",
        "iconUrl": get_url(ICON_PATH),
        "title": title,
        "message": message,
        "requireInteraction": true,
        "priority": 2,
    }))?;
    call_unit("chrome.notifications.create", || create_js(id, &options)).await
}

/// `chrome.notifications.clear(id)`; a notification already gone is not an error.
pub async fn clear(id: &str) -> Result<()> {
    call_unit("chrome.notifications.clear", || clear_js(id)).await
}
