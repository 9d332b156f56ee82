//! `chrome.tabGroups` (query, update) and `chrome.tabs.group`: the named, coloured groups of tabs a window
//! shows. Needs the `tabGroups` permission; without it (or on a browser without tab groups) every call is an
//! error, which callers treat as "no group".

use super::{call, to_js};
use crate::error::Result;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = group, catch)]
    fn group_js(options: &JsValue) -> std::result::Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabGroups"], js_name = update, catch)]
    fn update_js(group_id: i32, props: &JsValue) -> std::result::Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabGroups"], js_name = query, catch)]
    fn query_js(info: &JsValue) -> std::result::Result<js_sys::Promise, JsValue>;
}

/// The fields of `tabGroups.TabGroup` the extension reads.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TabGroup {
    pub id: i64,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub color: String,
    pub window_id: i64,
}

/// `chrome.tabs.group({tabIds, groupId})` into an existing group, or `{tabIds, createProperties:{windowId}}`
/// for a new one in `window_id`; the group's id.
pub async fn group(tab_ids: &[i64], group_id: Option<i64>, window_id: i64) -> Result<i64> {
    let options = match group_id {
        Some(id) => serde_json::json!({ "tabIds": tab_ids, "groupId": id }),
        None => {
            serde_json::json!({ "tabIds": tab_ids, "createProperties": { "windowId": window_id } })
        }
    };
    let options = to_js(&options)?;
    call("chrome.tabs.group", || group_js(&options)).await
}

/// `chrome.tabGroups.update(groupId, props)` (`title`, `color`, `collapsed`).
pub async fn update(group_id: i64, props: &serde_json::Value) -> Result<TabGroup> {
    let id = i32::try_from(group_id).unwrap_or(-1);
    let props = to_js(props)?;
    call("chrome.tabGroups.update", || update_js(id, &props)).await
}

/// `chrome.tabGroups.query(info)` (`{}` for every group, `{windowId}`, `{title}`).
pub async fn query(info: &serde_json::Value) -> Result<Vec<TabGroup>> {
    let info = to_js(info)?;
    call("chrome.tabGroups.query", || query_js(&info)).await
}
