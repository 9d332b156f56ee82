//! Logging to the service worker console (visible in chrome://extensions → "Inspect views").

/// `console.info`, prefixed with `bua:`.
pub fn info(message: &str) {
    web_sys::console::info_1(&format!("bua: {message}").into());
}

/// `console.warn`, prefixed with `bua:`.
pub fn warn(message: &str) {
    web_sys::console::warn_1(&format!("bua: {message}").into());
}
