//! Maps a protocol [`Action`] onto its handler.

use crate::error::{Error, Result};
use bua_protocol::Action;
use serde::Serialize;

/// Runs one action for `owner` (the bridge client's id) and returns its result object.
pub async fn dispatch(owner: Option<String>, action: Action) -> Result<serde_json::Value> {
    let _ = owner;
    match action {
        Action::GetTabs => json(super::tabs::get_tabs().await?),
        other => Err(Error::InvalidAction(format!(
            "{} is not available in this build",
            other.name()
        ))),
    }
}

fn json<T: Serialize>(value: T) -> Result<serde_json::Value> {
    Ok(serde_json::to_value(value)?)
}
