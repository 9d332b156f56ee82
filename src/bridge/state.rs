//! The connection state shown by the popup, persisted in `chrome.storage.local` under `connection`.

use crate::chrome::storage;
use bua_protocol::{ErrorBody, ErrorCode};
use serde::{Deserialize, Serialize};

/// Storage key of [`ConnectionState`].
pub const CONNECTION_KEY: &str = "connection";

/// What the popup shows about the bridge connection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ConnectionState {
    Connecting {
        url: String,
    },
    Connected {
        url: String,
    },
    /// The bridge rejected the handshake; nothing is retried until the user changes the settings.
    Fatal {
        code: ErrorCode,
        message: String,
        fix: String,
    },
}

impl ConnectionState {
    /// A fatal state with the fix the user has to apply (SPEC §2).
    pub fn fatal(error: ErrorBody) -> Self {
        let fix = match error.code {
            ErrorCode::ProtocolVersionMismatch => {
                "Update the extension to bua-bridge's version: run `bua-bridge extension`, then reload the extension in chrome://extensions."
            }
            ErrorCode::Unauthorized => {
                "Re-pair: copy the token printed by `bua-bridge serve` (also in ~/.config/bua/token) into the \
                 Pairing token field of the options page, then press Save and test connection."
            }
            _ => "Check the backend URL and token in the options page.",
        };
        ConnectionState::Fatal {
            code: error.code,
            message: error.message,
            fix: fix.to_owned(),
        }
    }
}

pub(crate) async fn store(state: &ConnectionState) {
    if let Err(e) = storage::set(CONNECTION_KEY, state).await {
        crate::log::warn(&format!("cannot store the connection state: {e}"));
    }
}
