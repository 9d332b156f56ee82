//! Where the pages' data comes from (SPEC §10): the service worker's answers to [`crate::api`] commands, and
//! `chrome.storage.local` read directly.

use crate::api::UiCommand;
use crate::error::{Error, Result};
use bua_protocol::ErrorBody;
use serde::de::DeserializeOwned;

/// Sends one command to the service worker and decodes its answer (SPEC §10, [`crate::api`]).
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

/// Reads one `chrome.storage.local` key the pages show; a failure reads as absent (and is logged).
pub async fn stored<T: DeserializeOwned>(key: &str) -> Option<T> {
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
    use crate::api::Settings;
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
