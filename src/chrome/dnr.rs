//! `chrome.declarativeNetRequest` session rules: the browser refuses a request before it is sent (SPEC §6,
//! "Blocklist"). Session rules live as long as the browser session and are not persisted, which suits rules
//! built from tab ids.

use super::{guard, settle_unit, to_js};
use crate::error::Result;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "declarativeNetRequest"], js_name = updateSessionRules, catch)]
    fn update_session_rules_js(options: &JsValue) -> std::result::Result<js_sys::Promise, JsValue>;
}

/// `chrome.declarativeNetRequest.updateSessionRules({removeRuleIds, addRules})`: removes the rules with
/// `remove` ids and adds `add` (rule objects as the DNR API reads them) in one atomic update.
///
/// Errors: Chrome's message for an invalid rule (e.g. an empty `requestDomains`).
pub async fn update_session_rules(remove: &[i64], add: &[serde_json::Value]) -> Result<()> {
    let options = to_js(&serde_json::json!({ "removeRuleIds": remove, "addRules": add }))?;
    let context = "chrome.declarativeNetRequest.updateSessionRules";
    settle_unit(
        context,
        guard(context, || update_session_rules_js(&options))?,
    )
    .await
}
