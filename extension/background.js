// BUA Browser Bridge service worker bootstrap.
//
// Everything the extension does lives in Rust (../src, compiled to pkg/bua_extension_bg.wasm). This file only
// exists because an MV3 service worker must register its listeners synchronously in the first turn of the
// script: events that arrive while the wasm module is still compiling are queued on the `ready` promise and
// handed to Rust in order. No top-level await and no dynamic import() — both are forbidden in service workers.
import init, * as bua from "./pkg/bua_extension.js";

const ready = init({ module_or_path: "./pkg/bua_extension_bg.wasm" }).then(() => bua.start());

// The wasm exports and the init promise, reachable from DevTools for end-to-end tests that drive the Rust
// handlers directly (e.g. `buaReady.then(() => bua.on_idle_state_changed("locked"))`).
globalThis.bua = bua;
globalThis.buaReady = ready;

const hand = (name) => (...args) => {
  ready.then(() => bua[name](...args)).catch((e) => console.error(`bua: ${name} failed`, e));
};

chrome.runtime.onInstalled.addListener(hand("on_installed"));
chrome.runtime.onStartup.addListener(hand("on_startup"));
chrome.alarms.onAlarm.addListener(hand("on_alarm"));
chrome.storage.onChanged.addListener(hand("on_storage_changed"));
chrome.tabs.onRemoved.addListener(hand("on_tab_removed"));
chrome.tabs.onCreated.addListener(hand("on_tab_created"));
chrome.tabs.onUpdated.addListener(hand("on_tab_updated"));
chrome.tabs.onAttached.addListener(hand("on_tab_moved_window"));
chrome.tabs.onDetached.addListener(hand("on_tab_moved_window"));
chrome.tabs.onReplaced.addListener(hand("on_tab_replaced"));
chrome.downloads.onCreated.addListener(hand("on_download_created"));
chrome.windows.onRemoved.addListener(hand("on_window_removed"));
chrome.debugger.onEvent.addListener(hand("on_debugger_event"));
chrome.debugger.onDetach.addListener(hand("on_debugger_detach"));
chrome.idle.onStateChanged.addListener(hand("on_idle_state_changed"));
chrome.notifications.onClicked.addListener(hand("on_notification_clicked"));

// Popup and options pages talk to the worker with chrome.runtime.sendMessage; answer asynchronously.
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  ready
    .then(() => bua.on_message(message))
    .then(sendResponse, (e) => sendResponse({ error: { code: "internal_error", message: String(e) } }));
  return true;
});
