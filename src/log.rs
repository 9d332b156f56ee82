//! Logging to the service worker console (visible in chrome://extensions → "Inspect views"); to stderr in
//! native tests, where there is no console to call.

/// `console.info`, prefixed with `bua:`.
pub fn info(message: &str) {
    #[cfg(target_arch = "wasm32")]
    web_sys::console::info_1(&format!("bua: {message}").into());
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("bua: {message}");
}

/// `console.warn`, prefixed with `bua:`.
pub fn warn(message: &str) {
    #[cfg(target_arch = "wasm32")]
    web_sys::console::warn_1(&format!("bua: {message}").into());
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("bua: warning: {message}");
}
