//! `chrome.alarms`: the periodic wake-up that reconnects a worker Chrome stopped.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "alarms"], js_name = create, catch)]
    fn create_js(name: &str, info: &JsValue) -> Result<JsValue, JsValue>;
}

/// `chrome.alarms.create(name, {periodInMinutes})`; 0.5 min is the smallest period Chrome allows (Chrome ≥ 120).
pub fn create_periodic(name: &str, period_minutes: f64) {
    let info = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&info, &"periodInMinutes".into(), &period_minutes.into());
    if let Err(e) = create_js(name, &info) {
        crate::log::warn(&format!(
            "chrome.alarms.create: {}",
            crate::error::js_message(&e)
        ));
    }
}
