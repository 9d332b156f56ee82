//! `chrome.idle`: the detection interval for the idle guard.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "idle"], js_name = setDetectionInterval, catch)]
    fn set_detection_interval_js(seconds: u32) -> Result<(), JsValue>;
}

/// `chrome.idle.setDetectionInterval(seconds)`; Chrome's minimum is 15 s, so smaller values are raised to it.
pub fn set_detection_interval(seconds: u32) {
    if let Err(e) = set_detection_interval_js(seconds.max(15)) {
        crate::log::warn(&format!(
            "chrome.idle.setDetectionInterval: {}",
            crate::error::js_message(&e)
        ));
    }
}
