//! The CDP floor: commands sent straight to the browser's DevTools WebSocket, timed from
//! the write of the command to the arrival of the whole answer frame.
//!
//! The answer is not parsed: Chromium writes `{"id":N,` first, so a frame is matched to its command by
//! that prefix and only its byte length is kept. That makes the floor the browser's own work plus the
//! transport and nothing else — a stricter comparison than a client that builds a JSON tree.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use bua_bridge::devtools;

use crate::BenchError;

/// The largest answer accepted (AX trees of the 50k page are tens of MB).
const MAX_MESSAGE_BYTES: usize = 512 << 20;

/// How long one command may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// One answered command.
#[derive(Debug, Clone)]
pub struct Reply {
    /// From sending the command to holding its whole answer frame, ms.
    pub ms: f64,
    /// The answer frame's length, bytes.
    pub bytes: usize,
    /// The answer text (kept only when asked for: small answers).
    pub text: Option<String>,
}

impl Reply {
    /// The answer parsed, or `Value::Null` when it was not kept or is not JSON.
    pub fn json(&self) -> Value {
        self.text
            .as_deref()
            .and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or(Value::Null)
    }
}

/// A single-owner DevTools connection: one command at a time, no background reader.
pub struct RawCdp {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl RawCdp {
    /// Connects to a browser endpoint `ws://127.0.0.1:<port>/devtools/browser/<id>`.
    ///
    /// Errors: [`BenchError::Bridge`] with the WebSocket failure.
    pub async fn connect(url: &str) -> Result<RawCdp, BenchError> {
        let config = WebSocketConfig::default()
            .max_message_size(Some(MAX_MESSAGE_BYTES))
            .max_frame_size(Some(MAX_MESSAGE_BYTES));
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false)
            .await
            .map_err(|e| BenchError::Bridge(bua_bridge::Error::from(Box::new(e))))?;
        Ok(RawCdp { ws, next_id: 1 })
    }

    /// Sends `method` (to `session` when given) and waits for its answer; keeps the answer's text
    /// when `keep` is set.
    ///
    /// Errors: [`BenchError::Cdp`] when CDP answers with an error, [`BenchError::Timeout`] after 60 s,
    /// [`BenchError::Closed`] when the connection ends.
    pub async fn call(
        &mut self,
        method: &str,
        params: Value,
        session: Option<&str>,
        keep: bool,
    ) -> Result<Reply, BenchError> {
        let id = self.next_id;
        self.next_id += 1;
        let mut command = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            command["sessionId"] = Value::String(s.to_string());
        }
        let frame = command.to_string();
        let prefix = format!("{{\"id\":{id},");
        let started = Instant::now();
        self.ws
            .send(Message::text(frame))
            .await
            .map_err(|e| BenchError::Closed(format!("DevTools write failed: {e}")))?;
        let deadline = started + COMMAND_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let next = match tokio::time::timeout(left, self.ws.next()).await {
                Ok(Some(Ok(m))) => m,
                Ok(Some(Err(e))) => {
                    return Err(BenchError::Closed(format!("DevTools read failed: {e}")))
                }
                Ok(None) => return Err(BenchError::Closed("DevTools connection closed".into())),
                Err(_) => {
                    return Err(BenchError::Timeout(format!(
                        "CDP {method} took longer than {} s",
                        COMMAND_TIMEOUT.as_secs()
                    )))
                }
            };
            let Message::Text(text) = next else { continue };
            let text = text.as_str();
            if !text.starts_with(&prefix) {
                continue; // an event, or a late answer to something else
            }
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            if text[prefix.len()..].starts_with("\"error\"") {
                let message = serde_json::from_str::<Value>(text)
                    .ok()
                    .and_then(|v| {
                        v.pointer("/error/message")
                            .and_then(Value::as_str)
                            .map(str::to_string)
                    })
                    .unwrap_or_else(|| text.chars().take(200).collect());
                return Err(BenchError::Cdp {
                    method: method.to_string(),
                    message,
                });
            }
            return Ok(Reply {
                ms,
                bytes: text.len(),
                text: keep.then(|| text.to_string()),
            });
        }
    }

    /// Sends a small command and returns its parsed `result`.
    pub async fn result(
        &mut self,
        method: &str,
        params: Value,
        session: Option<&str>,
    ) -> Result<Value, BenchError> {
        let reply = self.call(method, params, session, true).await?;
        Ok(reply.json().get("result").cloned().unwrap_or(Value::Null))
    }

    /// Attaches to a target in flat mode and returns the session id.
    pub async fn attach(&mut self, target_id: &str) -> Result<String, BenchError> {
        let result = self
            .result(devtools::ATTACH, devtools::attach_params(target_id), None)
            .await?;
        devtools::result_str(&result, "sessionId").ok_or_else(|| BenchError::Cdp {
            method: devtools::ATTACH.into(),
            message: format!("no sessionId in {result}"),
        })
    }

    /// Evaluates `expression` in `session` and returns its value (`returnByValue`).
    ///
    /// Errors: [`BenchError::Cdp`] with the text of the exception when it throws.
    pub async fn eval(&mut self, session: &str, expression: &str) -> Result<Value, BenchError> {
        let result = self
            .result(
                devtools::EVALUATE,
                devtools::evaluate_params(expression),
                Some(session),
            )
            .await?;
        devtools::evaluated_value(&result).map_err(|message| BenchError::Cdp {
            method: devtools::EVALUATE.into(),
            message,
        })
    }
}
