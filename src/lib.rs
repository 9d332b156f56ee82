//! BUA Browser Bridge, the extension: a Chrome MV3 service worker written in Rust and compiled to WebAssembly.
//!
//! It connects to `bua-bridge` over one WebSocket ([`bridge`], SPEC §2), receives one `browser` action per request,
//! runs it through `chrome.debugger` ([`cdp`], [`actions`]) inside the session pipeline, and answers. The JS in
//! `extension/background.js` only registers the Chrome listeners synchronously and forwards every event to the
//! `#[wasm_bindgen]` entry points below. Pure logic (markdown, obstacle classifier, AX filtering, blocklist
//! matching) has no `web-sys` in its signatures, so `cargo test` runs it natively.
//!
//! # Layers
//!
//! Modules import downward only (`python3 ../shared/tools/layers.py src` checks that the graph has no cycle):
//!
//! 1. [`error`], [`log`], [`time`], [`secret`] — the crate error, console logging, the clock and timestamps, which
//!    values are secrets and the scrubber that keeps them out of every message;
//! 2. [`chrome`] (typed `chrome.*` bindings), [`store`] (the storage write lock), [`settings`], [`pairing`]
//!    (the bridge URL and token from `bua-bridge`'s native-messaging host);
//! 3. [`cdp`] — attachment, typed CDP commands, event routing, the per-tab lock;
//! 4. [`extract`], [`blocklist`], [`controls`] (the allowlist and the switches of unattended runs);
//! 5. [`agent_groups`] — one named tab group per agent; [`windows`] — the agent window and the tabs the agent opened;
//! 6. [`session`] — the session model, its event bus, audit log and manager;
//! 7. [`actions`] — the `browser` actions and their dispatcher;
//! 8. [`bridge`] — the WebSocket client; its event forwarder subscribes to the session bus;
//! 9. [`api`] — the popup/options commands the worker answers;
//! 10. [`ui`] — the popup and options pages.
//!
//! A lower layer that must tell a higher one something publishes on a bus or a listener list the higher one
//! subscribes to (the session bus, [`cdp::events::listen`]); this file, the worker's entry points, may name
//! any layer.

pub mod actions;
pub mod agent_groups;
pub mod api;
pub mod blocklist;
pub mod bridge;
pub mod cdp;
pub mod chrome;
pub mod controls;
pub mod error;
pub mod extract;
pub mod log;
pub mod pairing;
pub mod secret;
pub mod session;
pub mod settings;
pub mod store;
pub mod time;
pub mod ui;
pub mod windows;

pub use error::{Error, Result};

use wasm_bindgen::prelude::*;

/// Name of the periodic alarm that reconnects a worker Chrome stopped and restarted.
const RECONNECT_ALARM: &str = "bua-reconnect";

/// Called once per worker start, after the wasm module is instantiated.
#[wasm_bindgen]
pub fn start() {
    chrome::alarms::create_periodic(RECONNECT_ALARM, 0.5);
    session::start();
    wasm_bindgen_futures::spawn_local(actions::handoff::reset());
    actions::downloads::install();
    bridge::install_forwarder();
    wasm_bindgen_futures::spawn_local(async {
        let rejected = bridge::restore_fatal().await;
        bridge::ensure_connected();
        // Pairing without pasting (SPEC §11): a stored change reconnects through on_storage_changed. A pairing
        // the bridge rejected before is asked about as a refusal: the host may know the bridge's new token.
        let moment = match rejected {
            true => pairing::Moment::Refused,
            false => pairing::Moment::Start,
        };
        pairing::ask_host(moment).await;
    });
}

#[wasm_bindgen]
pub fn on_installed(_details: JsValue) {}

#[wasm_bindgen]
pub fn on_startup() {}

#[wasm_bindgen]
pub fn on_alarm(_alarm: JsValue) {
    bridge::ensure_connected();
    bridge::forward::flush();
}

/// `chrome.storage.onChanged`: a new backend URL or token re-pairs at once.
#[wasm_bindgen]
pub fn on_storage_changed(changes: JsValue, area: String) {
    if area != "local" {
        return;
    }
    // The worker's own writes come back here too: `changed` keeps a value the store already holds.
    for key in js_sys::Object::keys(&js_sys::Object::from(changes.clone())).iter() {
        if let Some(key) = key.as_string() {
            if !store::local().holds(&key) {
                store::local().forget(&key);
                continue;
            }
            let change =
                js_sys::Reflect::get(&changes, &JsValue::from_str(&key)).unwrap_or_default();
            let new = js_sys::Reflect::get(&change, &JsValue::from_str("newValue"))
                .ok()
                .filter(|v| !v.is_undefined());
            match new.map(|v| chrome::from_js::<serde_json::Value>(&v)) {
                Some(Ok(v)) => store::local().changed(&key, Some(v)),
                None => store::local().changed(&key, None),
                Some(Err(_)) => store::local().forget(&key),
            }
        }
    }
    let touched =
        |key: &str| js_sys::Reflect::has(&changes, &JsValue::from_str(key)).unwrap_or(false);
    if touched(settings::BACKEND_URL_KEY) || touched(settings::TOKEN_KEY) {
        bridge::settings_changed();
    }
    if touched(controls::ALLOWLIST_KEY) {
        // The browser-level rules follow the allowlist (SPEC §10); actions check it each time.
        session::netrules::request_sync();
    }
    if touched(blocklist::BLOCKLIST_KEY) {
        // A domain added to the blocklist ends its sessions (SPEC §6), whoever wrote the list.
        session::netrules::request_sync();
        wasm_bindgen_futures::spawn_local(async {
            session::ready().await;
            session::enforce_blocklist().await;
        });
    }
    if touched(settings::IDLE_SECONDS_KEY) {
        wasm_bindgen_futures::spawn_local(session::idle::configure());
    }
}

/// `chrome.tabs.onRemoved(tabId, removeInfo)`: the worker forgets the tab (attachment, lock, uid cache) and its
/// session ends as `tab_closed` (SPEC §6).
#[wasm_bindgen]
pub async fn on_tab_removed(tab_id: f64, _info: JsValue) {
    let tab_id = tab_id as i64;
    chrome::tabs::forget(tab_id);
    session::forget_tab(tab_id);
    session::ready().await;
    session::on_tab_removed(tab_id).await;
}

/// `chrome.tabs.onUpdated(tabId, changeInfo, tab)`: a session tab whose URL changed onto a blocked domain
/// (redirects included) ends as `domain_blocked`.
#[wasm_bindgen]
pub async fn on_tab_updated(tab_id: f64, change: JsValue, tab: JsValue) {
    let before = chrome::tabs::known_url(tab_id as i64);
    match chrome::from_js::<chrome::tabs::Tab>(&tab) {
        Ok(tab) => chrome::tabs::learn(tab),
        Err(_) => chrome::tabs::forget(tab_id as i64),
    }
    let url = js_sys::Reflect::get(&change, &JsValue::from_str("url"))
        .ok()
        .and_then(|u| u.as_string());
    if let Some(url) = url {
        session::ready().await;
        // The browser-level rules name agent pages by their host (SPEC §6): another page of the same host
        // changes nothing in them.
        let same_host = before
            .as_deref()
            .and_then(blocklist::url_host)
            .is_some_and(|h| blocklist::url_host(&url).as_deref() == Some(h.as_str()));
        if !same_host && windows::owner_of(tab_id as i64).await.is_some() {
            session::netrules::request_sync();
        }
        session::on_navigated(tab_id as i64, &url).await;
    }
}

/// `chrome.tabs.onCreated(tab)`: a tab opened from an agent's tab, or from a tab an action runs on, joins the
/// agent's tabs (and the action reports it, SPEC §4 `openedTab`); either way the browser-level blocklist rules
/// learn the new tab (SPEC §6).
#[wasm_bindgen]
pub async fn on_tab_created(tab: JsValue) {
    let Ok(tab) = chrome::from_js::<chrome::tabs::Tab>(&tab) else {
        return;
    };
    chrome::tabs::learn(tab.clone());
    session::ready().await;
    actions::outcomes::on_tab_created(tab).await;
    session::netrules::request_sync();
}

/// `chrome.tabs.onAttached` / `onDetached(tabId, info)`: the tab moved to another window.
#[wasm_bindgen]
pub fn on_tab_moved_window(tab_id: f64, _info: JsValue) {
    chrome::tabs::forget(tab_id as i64);
}

/// `chrome.tabs.onReplaced(addedTabId, removedTabId)`: a prerendered or discarded tab took another's place.
#[wasm_bindgen]
pub fn on_tab_replaced(added: f64, removed: f64) {
    chrome::tabs::forget(added as i64);
    chrome::tabs::forget(removed as i64);
}

/// `chrome.downloads.onCreated(item)`: paired with the tab it came from ([`actions::downloads`]).
#[wasm_bindgen]
pub fn on_download_created(item: JsValue) {
    if let Ok(item) = chrome::from_js::<chrome::downloads::DownloadItem>(&item) {
        actions::downloads::on_created(item);
    }
}

/// `chrome.windows.onRemoved(windowId)`: an agent window the user closed is forgotten.
#[wasm_bindgen]
pub async fn on_window_removed(window_id: f64) {
    session::ready().await;
    windows::forget_window(window_id as i64).await;
}

/// `chrome.debugger.onEvent(source, method, params)`. Frame targets' `Target` events keep the tab's map of
/// frame sessions ([`cdp::frames`]); events from a frame session (`source.sessionId`) stop there, so that a
/// frame's load or navigation is never taken for the tab's.
#[wasm_bindgen]
pub fn on_debugger_event(source: JsValue, method: String, params: JsValue) {
    let Some(tab_id) = source_tab(&source) else {
        return;
    };
    let session = js_sys::Reflect::get(&source, &JsValue::from_str("sessionId"))
        .ok()
        .and_then(|s| s.as_string());
    let event = cdp::Event::decode(&method, serde_wasm_bindgen::Deserializer::from(params));
    if cdp::frames::on_event(tab_id, session.as_deref(), &event) || session.is_some() {
        return;
    }
    cdp::events::dispatch(tab_id, &event);
}

/// `chrome.debugger.onDetach(source, reason)`: forget the attachment before anything else (SPEC §6: a stale
/// "attached" entry would make the next action skip the attach and send commands to a detached tab).
/// Then the session ends as `user_stopped` (the infobar's Cancel), unless the tab closed (`target_closed`).
#[wasm_bindgen]
pub async fn on_debugger_detach(source: JsValue, reason: String) {
    if let Some(tab_id) = source_tab(&source) {
        cdp::forget(tab_id);
        session::ready().await;
        session::on_debugger_detach(tab_id, &reason).await;
    }
}

/// `chrome.idle.onStateChanged(state)`: `locked` ends every session as `screen_locked`, `idle` as
/// `system_idle` (SPEC §6). Resolves with the number of sessions ended.
#[wasm_bindgen]
pub async fn on_idle_state_changed(state: String) -> Result<JsValue, JsValue> {
    session::ready().await;
    let ended = session::on_idle_state_changed(&state).await;
    Ok(JsValue::from_f64(ended as f64))
}

/// `chrome.notifications.onClicked(notificationId)`: a handoff's notification brings its tab forward.
#[wasm_bindgen]
pub async fn on_notification_clicked(id: String) {
    actions::handoff::notification_clicked(&id).await;
}

/// `chrome.runtime.onMessage` from the popup and options pages: `{"cmd": …}` → the answer of
/// [`api`] (SPEC §10), or `{"error":{code,message}}`.
#[wasm_bindgen]
pub async fn on_message(message: JsValue) -> Result<JsValue, JsValue> {
    session::ready().await;
    let message: serde_json::Value = chrome::from_js(&message).unwrap_or(serde_json::Value::Null);
    let answer = api::handle_value(message).await;
    chrome::to_js(&answer).map_err(|e| JsValue::from_str(&e.to_string()))
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
