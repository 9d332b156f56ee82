//! `chrome.tabs`: query, get, create, update, remove, and the worker's copy of what the tab events said
//! ([`known`]).

use super::{call, guard, settle, settle_unit, to_js};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = query, catch)]
    fn query_js(info: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = get, catch)]
    fn get_js(tab_id: i32) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = create, catch)]
    fn create_js(props: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = update, catch)]
    fn update_js(tab_id: i32, props: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = remove, catch)]
    fn remove_js(tab_id: i32) -> Result<js_sys::Promise, JsValue>;
}

/// The fields of `tabs.Tab` the extension reads.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tab {
    pub id: Option<i64>,
    pub window_id: i64,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub pending_url: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub active: bool,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub opener_tab_id: Option<i64>,
}

impl Tab {
    /// The tab id; Chrome omits it only for tabs outside the browser (devtools windows).
    pub fn tab_id(&self) -> i64 {
        self.id.unwrap_or(-1)
    }
    /// The committed URL, or "" when Chrome does not report one.
    pub fn url(&self) -> &str {
        self.url.as_deref().unwrap_or("")
    }
    /// The page the tab is on or loading: `pendingUrl` while a navigation is pending (a fresh `open_tab`
    /// tab), else the committed `url`.
    pub fn page_url(&self) -> &str {
        self.pending_url
            .as_deref()
            .filter(|u| !u.is_empty())
            .unwrap_or(self.url())
    }
}

/// `chrome.tabs.query(info)`.
pub async fn query(info: &serde_json::Value) -> Result<Vec<Tab>> {
    let info = to_js(info)?;
    call("chrome.tabs.query", || query_js(&info)).await
}

/// `chrome.tabs.get(tabId)`; a missing tab is [`Error::TabNotFound`].
pub async fn get(tab_id: i64) -> Result<Tab> {
    let id = tab_id_js(tab_id)?;
    let promise = guard("chrome.tabs.get", || get_js(id)).map_err(|_| not_found(tab_id))?;
    settle("chrome.tabs.get", promise)
        .await
        .map_err(|_| not_found(tab_id))
}

thread_local! {
    /// Per tab, the `Tab` of the latest `tabs.get` or tab event (see [`known`]).
    static KNOWN: std::cell::RefCell<std::collections::HashMap<i64, Tab>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// The tab as Chrome last described it to the worker: the `Tab` of its latest `tabs.onCreated` /
/// `tabs.onUpdated` event or `tabs.get`, else a `tabs.get` now. Its `url`, `pendingUrl`, `title`, `status`
/// and `windowId` are current (every change of them is an event: [`learn`], [`forget`]); `active` may not be.
///
/// Every action reads its tab first, and after a navigation a call into the browser waits behind the
/// browser's own work for several ms (docs/BENCHMARKS.md); the events have already said what it would say.
///
/// Errors: as [`get`].
pub async fn known(tab_id: i64) -> Result<Tab> {
    if let Some(tab) = KNOWN.with(|k| k.borrow().get(&tab_id).cloned()) {
        return Ok(tab);
    }
    let tab = get(tab_id).await?;
    learn(tab.clone());
    Ok(tab)
}

/// The URL (or, while a navigation is pending, the pending URL) [`known`] holds for `tab_id`, without asking
/// Chrome; `None` for a tab not seen yet.
pub fn known_url(tab_id: i64) -> Option<String> {
    KNOWN.with(|k| k.borrow().get(&tab_id).map(|t| t.page_url().to_owned()))
}

/// A `tabs.onCreated` / `tabs.onUpdated` event's `Tab` (or a `tabs.get` answer): what [`known`] answers.
pub fn learn(tab: Tab) {
    if let Some(id) = tab.id {
        KNOWN.with(|k| k.borrow_mut().insert(id, tab));
    }
}

/// The tab closed, was replaced (prerendering, discarding) or moved to another window: [`known`] asks
/// Chrome again.
pub fn forget(tab_id: i64) {
    KNOWN.with(|k| k.borrow_mut().remove(&tab_id));
}

/// `chrome.tabs.create(props)`.
pub async fn create(props: &CreateProperties) -> Result<Tab> {
    let props = to_js(props)?;
    call("chrome.tabs.create", || create_js(&props)).await
}

/// `chrome.tabs.update(tabId, props)`.
pub async fn update(tab_id: i64, props: &serde_json::Value) -> Result<Tab> {
    let id = tab_id_js(tab_id)?;
    let props = to_js(props)?;
    call("chrome.tabs.update", || update_js(id, &props)).await
}

/// `chrome.tabs.remove(tabId)`; a tab that is already gone is [`Error::TabNotFound`].
pub async fn remove(tab_id: i64) -> Result<()> {
    let id = tab_id_js(tab_id)?;
    let promise = guard("chrome.tabs.remove", || remove_js(id)).map_err(|_| not_found(tab_id))?;
    settle_unit("chrome.tabs.remove", promise)
        .await
        .map_err(|_| not_found(tab_id))
}

/// `tabs.create` properties.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateProperties {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opener_tab_id: Option<i64>,
}

pub(crate) fn not_found(tab_id: i64) -> Error {
    Error::TabNotFound(format!(
        "tab {tab_id} does not exist (closed?); call get_tabs to see the open tabs"
    ))
}

fn tab_id_js(tab_id: i64) -> Result<i32> {
    i32::try_from(tab_id).map_err(|_| not_found(tab_id))
}
