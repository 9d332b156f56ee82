//! BUA Browser Bridge, the extension: a Chrome MV3 service worker written in Rust and compiled to WebAssembly.
//!
//! It connects to `bua-bridge` over one WebSocket ([`bridge`], SPEC §2), receives one `browser` action per request,
//! runs it through `chrome.debugger` ([`cdp`], [`actions`]) inside the session pipeline, and answers. The JS in
//! `extension/background.js` only registers the Chrome listeners synchronously and forwards every event to the
//! `#[wasm_bindgen]` entry points below. Pure logic (markdown, obstacle classifier, AX filtering, blocklist
//! matching) has no `web-sys` in its signatures, so `cargo test` runs it natively.

pub mod actions;
pub mod bridge;
pub mod cdp;
pub mod chrome;
pub mod error;
pub mod extract;
pub mod log;
pub mod session;
pub mod settings;
pub mod windows;

pub use error::{Error, Result};

use wasm_bindgen::prelude::*;

/// Name of the periodic alarm that reconnects a worker Chrome stopped and restarted.
const RECONNECT_ALARM: &str = "bua-reconnect";

/// Called once per worker start, after the wasm module is instantiated.
#[wasm_bindgen]
pub fn start() {
    chrome::alarms::create_periodic(RECONNECT_ALARM, 0.5);
    wasm_bindgen_futures::spawn_local(async {
        bridge::restore_fatal().await;
        bridge::ensure_connected();
    });
}

#[wasm_bindgen]
pub fn on_installed(_details: JsValue) {}

#[wasm_bindgen]
pub fn on_startup() {}

#[wasm_bindgen]
pub fn on_alarm(_alarm: JsValue) {
    bridge::ensure_connected();
}

/// `chrome.storage.onChanged`: a new backend URL or token re-pairs at once.
#[wasm_bindgen]
pub fn on_storage_changed(changes: JsValue, area: String) {
    if area != "local" {
        return;
    }
    let touched =
        |key: &str| js_sys::Reflect::has(&changes, &JsValue::from_str(key)).unwrap_or(false);
    if touched(settings::BACKEND_URL_KEY) || touched(settings::TOKEN_KEY) {
        bridge::settings_changed();
    }
}

#[wasm_bindgen]
pub fn on_tab_removed(tab_id: f64, _info: JsValue) {
    cdp::forget(tab_id as i64);
}

#[wasm_bindgen]
pub fn on_tab_updated(_tab_id: f64, _change: JsValue, _tab: JsValue) {}

#[wasm_bindgen]
pub fn on_window_removed(_window_id: f64) {}

/// `chrome.debugger.onEvent(source, method, params)`.
#[wasm_bindgen]
pub fn on_debugger_event(source: JsValue, method: String, params: JsValue) {
    let Some(tab_id) = source_tab(&source) else {
        return;
    };
    let params: serde_json::Value = chrome::from_js(&params).unwrap_or(serde_json::Value::Null);
    cdp::events::dispatch(tab_id, &method, &params);
}

/// `chrome.debugger.onDetach(source, reason)`: forget the attachment before anything else.
#[wasm_bindgen]
pub fn on_debugger_detach(source: JsValue, _reason: String) {
    if let Some(tab_id) = source_tab(&source) {
        cdp::forget(tab_id);
    }
}

#[wasm_bindgen]
pub fn on_idle_state_changed(_state: String) {}

/// `chrome.runtime.onMessage` from the popup and options pages.
#[wasm_bindgen]
pub async fn on_message(_message: JsValue) -> Result<JsValue, JsValue> {
    Ok(JsValue::NULL)
}

/// The host of `url` (lowercase), or "" for URLs without one (about:blank, data:).
pub fn session_domain(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        .unwrap_or_default()
}

fn source_tab(source: &JsValue) -> Option<i64> {
    js_sys::Reflect::get(source, &JsValue::from_str("tabId"))
        .ok()?
        .as_f64()
        .map(|v| v as i64)
}
