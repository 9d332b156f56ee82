//! `chrome.downloads`: search (the `downloads` permission).

use super::{call, to_js};
use crate::error::Result;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "downloads"], js_name = search, catch)]
    fn search_js(query: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// The fields of `downloads.DownloadItem` the extension reads.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadItem {
    pub id: i64,
    /// The URL first requested.
    #[serde(default)]
    pub url: String,
    /// The URL after redirects.
    #[serde(default)]
    pub final_url: String,
    /// Absolute path on disk; "" until the browser chose it.
    #[serde(default)]
    pub filename: String,
    #[serde(default)]
    pub mime: String,
    #[serde(default)]
    pub bytes_received: f64,
    /// -1 or 0 when unknown.
    #[serde(default)]
    pub total_bytes: f64,
    /// `in_progress`, `interrupted` or `complete`.
    #[serde(default)]
    pub state: String,
    /// `InterruptReason` of an interrupted download.
    #[serde(default)]
    pub error: Option<String>,
}

impl DownloadItem {
    /// The file's name without its folder (the path tells the user's directory layout; the name is enough).
    pub fn file_name(&self) -> String {
        self.filename
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or_default()
            .to_owned()
    }
}

/// `chrome.downloads.search(query)`.
pub async fn search(query: &serde_json::Value) -> Result<Vec<DownloadItem>> {
    let query = to_js(query)?;
    call("chrome.downloads.search", || search_js(&query)).await
}

/// The download with `id`, if it still exists.
pub async fn get(id: i64) -> Result<Option<DownloadItem>> {
    Ok(search(&serde_json::json!({ "id": id }))
        .await?
        .into_iter()
        .next())
}
