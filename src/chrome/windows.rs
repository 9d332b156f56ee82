//! `chrome.windows`: create, get, getAll, update, remove.

use super::{call, call_unit, settle, to_js};
use crate::error::Result;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "windows"], js_name = create, catch)]
    fn create_js(data: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "windows"], js_name = get, catch)]
    fn get_js(window_id: i32, query: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "windows"], js_name = getAll, catch)]
    fn get_all_js(query: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "windows"], js_name = getLastFocused, catch)]
    fn get_last_focused_js(query: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "windows"], js_name = update, catch)]
    fn update_js(window_id: i32, info: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "windows"], js_name = remove, catch)]
    fn remove_js(window_id: i32) -> Result<js_sys::Promise, JsValue>;
}

/// The fields of `windows.Window` the extension reads.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    pub id: Option<i64>,
    #[serde(default)]
    pub focused: bool,
    #[serde(default)]
    pub state: Option<String>,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default)]
    pub tabs: Option<Vec<super::tabs::Tab>>,
}

/// `chrome.windows.create(data)`.
pub async fn create(data: &serde_json::Value) -> Result<Window> {
    let data = to_js(data)?;
    call("chrome.windows.create", || create_js(&data)).await
}

/// `chrome.windows.get(windowId, {populate})`; `None` when the window no longer exists.
pub async fn get(window_id: i64, populate: bool) -> Option<Window> {
    let id = i32::try_from(window_id).ok()?;
    let query = to_js(&serde_json::json!({ "populate": populate })).ok()?;
    let promise = get_js(id, &query).ok()?;
    settle("chrome.windows.get", promise).await.ok()
}

/// `chrome.windows.getAll({populate})`.
pub async fn get_all(populate: bool) -> Result<Vec<Window>> {
    let query = to_js(&serde_json::json!({ "populate": populate }))?;
    call("chrome.windows.getAll", || get_all_js(&query)).await
}

/// `chrome.windows.getLastFocused({windowTypes:["normal"]})`.
pub async fn get_last_focused() -> Result<Window> {
    let query = to_js(&serde_json::json!({ "windowTypes": ["normal"] }))?;
    call("chrome.windows.getLastFocused", || {
        get_last_focused_js(&query)
    })
    .await
}

/// `chrome.windows.update(windowId, info)`.
pub async fn update(window_id: i64, info: &serde_json::Value) -> Result<Window> {
    let id = i32::try_from(window_id).unwrap_or(-1);
    let info = to_js(info)?;
    call("chrome.windows.update", || update_js(id, &info)).await
}

/// `chrome.windows.remove(windowId)`.
pub async fn remove(window_id: i64) -> Result<()> {
    let id = i32::try_from(window_id).unwrap_or(-1);
    call_unit("chrome.windows.remove", || remove_js(id)).await
}
