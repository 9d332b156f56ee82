//! Building WebSocket frames (close frames, JSON text frames) and reading read errors: what every
//! connection of the server sends and sees.

use std::time::Duration;

use bua_protocol::MAX_FRAME_BYTES;
use serde_json::json;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{self, Message};

/// The WebSocket limits of SPEC §3: messages and frames up to [`MAX_FRAME_BYTES`] (16 MiB).
pub fn websocket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_FRAME_BYTES))
        .max_frame_size(Some(MAX_FRAME_BYTES))
}

/// Whether a read error is the peer going away without a close frame (a reset connection).
pub(super) fn is_reset(e: &tungstenite::Error) -> bool {
    use tungstenite::error::ProtocolError;
    match e {
        tungstenite::Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => true,
        tungstenite::Error::Io(io) => matches!(
            io.kind(),
            std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::BrokenPipe
                | std::io::ErrorKind::UnexpectedEof
        ),
        _ => false,
    }
}

/// `d` in whole ms, for logs and messages.
pub(super) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A close frame; `reason` is cut to the 123 bytes a close frame can carry.
pub(super) fn close_message(code: CloseCode, reason: &str) -> Message {
    let mut cut = reason.len().min(123);
    while !reason.is_char_boundary(cut) {
        cut -= 1;
    }
    Message::Close(Some(CloseFrame {
        code,
        reason: reason[..cut].to_string().into(),
    }))
}

/// `value` as a JSON text frame.
pub(super) fn to_text<T: serde::Serialize>(value: &T) -> Message {
    match serde_json::to_string(value) {
        Ok(text) => Message::text(text),
        // Serialising our own types cannot fail; answer with a generic error frame if it ever does.
        Err(e) => Message::text(
            json!({"type":"error","error":{"code":"internal_error","message":format!("serialisation failed: {e}")}})
                .to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reset_is_told_apart_from_other_read_errors() {
        use tungstenite::error::ProtocolError;
        let reset = tungstenite::Error::Protocol(ProtocolError::ResetWithoutClosingHandshake);
        assert!(is_reset(&reset));
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        assert!(is_reset(&tungstenite::Error::Io(io)));
        assert!(!is_reset(&tungstenite::Error::Protocol(
            ProtocolError::NonZeroReservedBits
        )));
        assert!(!is_reset(&tungstenite::Error::ConnectionClosed));
    }
}
