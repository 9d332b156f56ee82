//! User settings kept in `chrome.storage.local`: the backend URL, the pairing token, the idle timeout.

use crate::chrome::storage;
use crate::error::Result;

/// Storage key of the backend WebSocket URL (SPEC §2; set in the options page or by `bua-bridge launch`).
pub const BACKEND_URL_KEY: &str = "backendUrl";
/// Storage key of the pairing token.
pub const TOKEN_KEY: &str = "token";
/// Storage key of the idle timeout in seconds.
pub const IDLE_SECONDS_KEY: &str = "idleTimeoutSeconds";
/// The v1 bridge's address, the default backend.
pub const DEFAULT_BACKEND_URL: &str = "ws://127.0.0.1:9225";
/// Default idle timeout: 30 min (SPEC §6).
pub const DEFAULT_IDLE_SECONDS: u32 = 30 * 60;

/// Where to connect and with which token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backend {
    pub url: String,
    pub token: Option<String>,
}

/// Reads the backend settings, falling back to the defaults.
pub async fn backend() -> Result<Backend> {
    let url: Option<String> = storage::get(BACKEND_URL_KEY).await?;
    let token: Option<String> = storage::get(TOKEN_KEY).await?;
    Ok(Backend {
        url: url
            .filter(|u| !u.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_BACKEND_URL.to_owned()),
        token: token.filter(|t| !t.is_empty()),
    })
}

/// The idle timeout in seconds (at least 15 s, Chrome's minimum).
pub async fn idle_seconds() -> u32 {
    let v: Option<u32> = storage::get(IDLE_SECONDS_KEY).await.ok().flatten();
    v.unwrap_or(DEFAULT_IDLE_SECONDS).max(15)
}
