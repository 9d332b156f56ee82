//! The popup and the options page (SPEC §10): the two surfaces through which the user stays in control.
//!
//! `popup/popup.html` and `options/options.html` are hand-written skeletons (every section, label and button is
//! in the HTML, so nothing moves when data arrives); their three-line loaders instantiate the same wasm module as
//! the service worker and call [`popup_main`] / [`options_main`], which fill the skeleton in and wire it up.
//!
//! * Data comes from the worker through [`call`] (`chrome.runtime.sendMessage`, the commands of
//!   [`crate::session::api`]) and from `chrome.storage.local` directly (`connection`, `activeSessions`,
//!   `buaWindowId`, `blocklist`, `sessionHistory`, settings); `chrome.storage.onChanged` keeps both pages live.
//! * [`format`] turns that data into the strings the user reads and is tested natively; [`dom`] is the small
//!   DOM helper; [`popup`] and [`options`] own the page state.

pub mod dom;
pub mod format;
pub mod options;
pub mod popup;

use crate::error::{Error, Result};
use crate::session::api::UiCommand;
use bua_protocol::ErrorBody;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

/// Entry point of `popup/popup.html`.
#[wasm_bindgen]
pub fn popup_main() {
    wasm_bindgen_futures::spawn_local(async {
        if let Err(e) = popup::run().await {
            page_failed(&e);
        }
    });
}

/// Entry point of `options/options.html`.
#[wasm_bindgen]
pub fn options_main() {
    wasm_bindgen_futures::spawn_local(async {
        if let Err(e) = options::run().await {
            page_failed(&e);
        }
    });
}

/// Sends one command to the service worker and decodes its answer (SPEC §10, [`crate::session::api`]).
///
/// Errors: the worker's `{"error":{code,message}}` as the matching [`Error`] variant (e.g. `invalid_action` for a
/// bad blocklist entry); [`Error::Internal`] when the worker cannot be reached or answers something else.
pub async fn call<R: DeserializeOwned>(command: &UiCommand) -> Result<R> {
    let answer = crate::chrome::runtime::send_message(command).await?;
    let value: serde_json::Value = crate::chrome::from_js(&answer)?;
    decode(value)
}

/// Decodes a worker answer: `{"error":{code,message}}` → `Err`, anything else → `R`.
pub fn decode<R: DeserializeOwned>(value: serde_json::Value) -> Result<R> {
    if let Some(error) = value.get("error") {
        let body: ErrorBody = serde_json::from_value(error.clone()).map_err(|e| {
            Error::Internal(format!(
                "the service worker answered an unreadable error: {e}"
            ))
        })?;
        return Err(body.into());
    }
    if value.is_null() {
        return Err(Error::Internal(
            "the service worker did not answer; reload the extension".into(),
        ));
    }
    Ok(serde_json::from_value(value)?)
}

/// Shows a page that could not start (an HTML/Rust mismatch or no extension context): the reason in place of
/// the page, announced to assistive technology.
fn page_failed(error: &Error) {
    crate::log::warn(&format!("the page could not start: {error}"));
    let Ok(document) = dom::document() else {
        return;
    };
    if let Some(body) = document.body() {
        body.set_text_content(None);
        if let Ok(p) = dom::el("p") {
            let p = p
                .class("page-error")
                .attr("role", "alert")
                .text(&format!(
                    "BUA Browser Bridge could not load this page: {error}"
                ))
                .build();
            let _ = body.append_child(&p);
        }
    }
}

/// Reads one `chrome.storage.local` key the pages show; a failure reads as absent (and is logged).
async fn stored<T: DeserializeOwned>(key: &str) -> Option<T> {
    match crate::chrome::storage::get(key).await {
        Ok(v) => v,
        Err(e) => {
            crate::log::warn(&format!("cannot read {key}: {e}"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::api::Settings;
    use serde_json::json;

    #[test]
    fn worker_errors_become_typed_errors_and_answers_decode() {
        let err = decode::<serde_json::Value>(
            json!({"error":{"code":"invalid_action","message":"`a b` is not a domain"}}),
        )
        .expect_err("error answer");
        assert_eq!(err, Error::InvalidAction("`a b` is not a domain".into()));
        let settings: Settings = decode(
            json!({"backendUrl":"ws://127.0.0.1:9225","token":"t","idleTimeoutSeconds":1800}),
        )
        .expect("settings");
        assert_eq!(settings.idle_timeout_seconds, 1800);
        assert!(decode::<Settings>(serde_json::Value::Null).is_err());
    }
}
