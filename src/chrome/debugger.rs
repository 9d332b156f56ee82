//! `chrome.debugger`: attach, detach, sendCommand (CDP 1.3) on a tab target, or on one of its flat child
//! sessions (`{tabId, sessionId}`, Chrome ≥ 125: the frame targets `Target.setAutoAttach` attaches).

use super::{call, call_unit, to_js};
use crate::error::{js_message, Error, Result};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "debugger"], js_name = attach, catch)]
    fn attach_js(target: &JsValue, version: &str) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "debugger"], js_name = detach, catch)]
    fn detach_js(target: &JsValue) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "debugger"], js_name = sendCommand, catch)]
    fn send_command_js(
        target: &JsValue,
        method: &str,
        params: &JsValue,
    ) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "debugger"], js_name = getTargets, catch)]
    fn get_targets_js() -> Result<js_sys::Promise, JsValue>;
}

/// The CDP protocol version the extension speaks (`chrome.debugger.attach` requires one).
pub const PROTOCOL_VERSION: &str = "1.3";

fn target(tab_id: i64) -> Result<JsValue> {
    to_js(&serde_json::json!({ "tabId": tab_id }))
}

/// The `chrome.debugger` target of a command: the tab, or a child session of it.
fn command_target(tab_id: i64, session_id: Option<&str>) -> Result<JsValue> {
    match session_id {
        Some(session) => to_js(&serde_json::json!({ "tabId": tab_id, "sessionId": session })),
        None => target(tab_id),
    }
}

/// `chrome.debugger.attach({tabId}, "1.3")`. Chrome's own message on failure (e.g. "Another debugger is already
/// attached to the tab", "Cannot access a chrome:// URL") is returned unchanged so the caller can classify it.
pub async fn attach(tab_id: i64) -> std::result::Result<(), String> {
    let t = target(tab_id).map_err(|e| e.to_string())?;
    let promise = attach_js(&t, PROTOCOL_VERSION).map_err(|e| js_message(&e))?;
    JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|e| js_message(&e))
}

/// `chrome.debugger.detach({tabId})`.
pub async fn detach(tab_id: i64) -> Result<()> {
    let t = target(tab_id)?;
    call_unit("chrome.debugger.detach", || detach_js(&t)).await
}

/// `chrome.debugger.sendCommand({tabId, sessionId?}, method, params)`; the CDP error message is kept verbatim.
pub async fn send_command(
    tab_id: i64,
    session_id: Option<&str>,
    method: &str,
    params: &serde_json::Value,
) -> std::result::Result<serde_json::Value, String> {
    let t = command_target(tab_id, session_id).map_err(|e| e.to_string())?;
    let p = to_js(params).map_err(|e| e.to_string())?;
    let promise = send_command_js(&t, method, &p).map_err(|e| js_message(&e))?;
    let value = JsFuture::from(promise).await.map_err(|e| js_message(&e))?;
    if value.is_undefined() || value.is_null() {
        return Ok(serde_json::Value::Null);
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}

/// Like [`send_command`], but returns the result as JSON text (`JSON.stringify` on the JS side). For
/// big results (DOM snapshots, AX trees: megabytes) this is much faster than converting the object
/// property by property, and the caller can deserialize straight into its own types.
pub async fn send_command_json(
    tab_id: i64,
    session_id: Option<&str>,
    method: &str,
    params: &serde_json::Value,
    answer: Answer,
) -> std::result::Result<String, String> {
    let t = command_target(tab_id, session_id).map_err(|e| e.to_string())?;
    let p = to_js(params).map_err(|e| e.to_string())?;
    let promise = send_command_js(&t, method, &p).map_err(|e| js_message(&e))?;
    let value = JsFuture::from(promise).await.map_err(|e| js_message(&e))?;
    if value.is_undefined() || value.is_null() {
        return Ok("null".to_string());
    }
    if answer == Answer::WithoutScriptText {
        drop_script_text(&value);
    }
    js_sys::JSON::stringify(&value)
        .map(String::from)
        .map_err(|e| js_message(&e))
}

/// How much of a command's answer `cdp::send_text` hands to Rust.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// All of it.
    Whole,
    /// A `DOMSnapshot.captureSnapshot` answer with the text of its `<script>` and `<style>` elements
    /// emptied first, on the JS side: nothing in Rust reads it, and on script-heavy pages it is most of the
    /// answer (950 KB of 1.25 MB on a news page), all of which would be stringified, copied into wasm and
    /// parsed (docs/BENCHMARKS.md).
    WithoutScriptText,
}

// The one piece of answer-shaping done in JS: it has to happen before the answer is stringified, and from
// Rust each of the tens of thousands of array reads would cross the wasm boundary. A string is emptied only
// when every node that names it is the text of a <script> or <style> (strings are shared by value) and no
// attribute names it; short strings are left alone, as they cost nothing.
#[wasm_bindgen(inline_js = r#"
export function dropScriptText(snapshot) {
  try {
    const strings = snapshot.strings;
    const long = (s) => typeof strings[s] === "string" && strings[s].length >= 256;
    const script = new Set(), kept = new Set();
    for (const doc of snapshot.documents) {
      const { nodeValue: values = [], nodeName: names = [], parentIndex: parents = [] } = doc.nodes;
      for (let i = 0; i < values.length; i++) {
        if (!long(values[i])) continue;
        const tag = String(strings[names[parents[i]]]).toLowerCase();
        (tag === "script" || tag === "style" ? script : kept).add(values[i]);
      }
      for (const attrs of doc.nodes.attributes || []) for (const s of attrs) if (long(s)) kept.add(s);
    }
    for (const s of script) if (!kept.has(s)) strings[s] = "";
  } catch (e) {
    // An answer of another shape goes to Rust whole, which reports what is wrong with it.
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = dropScriptText)]
    fn drop_script_text(snapshot: &JsValue);
}

/// One entry of `chrome.debugger.getTargets()`.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetInfo {
    #[serde(default)]
    pub tab_id: Option<i64>,
    #[serde(default)]
    pub attached: bool,
    #[serde(default, rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub extension_id: Option<String>,
}

/// `chrome.debugger.getTargets()`: tells which tabs already have a debugger attached (ours after a worker restart).
pub async fn get_targets() -> Result<Vec<TargetInfo>> {
    call("chrome.debugger.getTargets", get_targets_js).await
}

/// Maps an attach failure message onto the protocol error.
pub fn attach_error(tab_id: i64, message: &str) -> Error {
    Error::DebuggerAttachFailed(format!(
        "cannot attach the debugger to tab {tab_id}: {message} (restricted pages such as chrome://, the Web Store and other extensions' pages cannot be automated)"
    ))
}
