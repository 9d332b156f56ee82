//! `chrome.runtime`: the extension's own id and version.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = getManifest)]
    fn get_manifest_js() -> JsValue;
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = id, thread_local_v2)]
    static RUNTIME_ID: JsValue;
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
