//! `chrome.runtime.sendNativeMessage`: one request to a native-messaging host (permission
//! `nativeMessaging`). Chrome starts the host, sends the message, and resolves with its one answer; a host
//! that is not registered (or refuses this extension) is an error.

use super::{call, to_js};
use crate::error::Result;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = sendNativeMessage, catch)]
    fn send_native_message_js(
        host: &str,
        message: &JsValue,
    ) -> std::result::Result<js_sys::Promise, JsValue>;
}

/// Sends `message` to the native host `host` and returns its answer.
///
/// Errors: Chrome's message, e.g. "Specified native messaging host not found."
pub async fn send(host: &str, message: &serde_json::Value) -> Result<serde_json::Value> {
    let message = to_js(message)?;
    call("chrome.runtime.sendNativeMessage", || {
        send_native_message_js(host, &message)
    })
    .await
}
