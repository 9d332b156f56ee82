//! [`BridgeClient`]: a native client of the bridge (SPEC §9), used by the CLI, the MCP server and
//! every end-to-end test.
//!
//! It connects without an `Origin` header (the client role), says `hello` with the pairing token,
//! and then sends v1-envelope requests `{"id","method","params"}`; answers are matched by `id`, so
//! any number of calls may be in flight on one client at once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bua_protocol::{Action, ErrorCode};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

use crate::error::{Error, Result};

/// How long [`BridgeClient::connect`] waits for the TCP connect, the upgrade and the `ack` together.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long [`BridgeClient::close`] waits for the bridge to answer the close frame.
pub const CLOSE_TIMEOUT: Duration = Duration::from_millis(500);

/// Where the bridge is: a port on 127.0.0.1 or a full `ws://` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// `ws://127.0.0.1:<port>`.
    Port(u16),
    /// A `ws://` or `wss://` URL.
    Url(String),
}

impl Endpoint {
    /// The `ws://` URL.
    pub fn url(&self) -> String {
        match self {
            Endpoint::Port(port) => format!("ws://127.0.0.1:{port}"),
            Endpoint::Url(url) => url.clone(),
        }
    }
}

impl From<u16> for Endpoint {
    fn from(port: u16) -> Self {
        Endpoint::Port(port)
    }
}

impl From<&str> for Endpoint {
    /// A string of digits is a port; anything else a URL.
    fn from(s: &str) -> Self {
        match s.parse::<u16>() {
            Ok(port) => Endpoint::Port(port),
            Err(_) => Endpoint::Url(s.to_string()),
        }
    }
}

impl From<String> for Endpoint {
    fn from(s: String) -> Self {
        Endpoint::from(s.as_str())
    }
}

type Reply = oneshot::Sender<Result<Value>>;

/// A call waiting for its answer.
struct Pending {
    reply: Reply,
    /// The request frame went out on the socket: the bridge may have received it (and run it).
    written: bool,
}

/// A frame for the writer task; `id` names the pending call it carries, if any.
struct Outgoing {
    message: Message,
    id: Option<String>,
}

/// One event as the bridge forwarded it (SPEC §9 event stream).
#[derive(Debug, Clone, PartialEq)]
pub struct ForwardedEvent {
    /// The event, e.g. `{"type":"session_started","tabId":3,…}` (SPEC §8).
    pub event: Value,
    /// How many older events the bridge dropped for this (slow) subscriber just before this one.
    pub dropped: u64,
}

struct Inner {
    pending: Mutex<HashMap<String, Pending>>,
    events: broadcast::Sender<Value>,
    frames: broadcast::Sender<ForwardedEvent>,
    dropped: AtomicU64,
    next_id: AtomicU64,
    /// `Some(why)` once the connection has ended.
    closed: tokio::sync::watch::Sender<Option<String>>,
}

/// A connected client. Cheap to share behind an `Arc`; `call` takes `&self`.
pub struct BridgeClient {
    client_id: String,
    owner: String,
    server_version: String,
    tx: mpsc::Sender<Outgoing>,
    inner: Arc<Inner>,
    reader: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for BridgeClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BridgeClient")
            .field("client_id", &self.client_id)
            .field("owner", &self.owner)
            .field("server_version", &self.server_version)
            .field("open", &self.is_open())
            .finish()
    }
}

impl Drop for BridgeClient {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl BridgeClient {
    /// Connects to the bridge at `endpoint` (a port or a `ws://` URL) with the pairing `token` and
    /// completes the handshake (SPEC §2, client role, no `Origin`). The `hello` declares protocol
    /// version 4, so results come in the v4 shape (v1-only method names still answer in v1 shape;
    /// see [`bua_protocol::ClientDialect`]).
    ///
    /// Errors: [`Error::Rejected`] (`unauthorized`, `protocol_version_mismatch`),
    /// [`Error::Unreachable`] when nothing listens, [`Error::InvalidEndpoint`] for a URL that is not
    /// `ws://`/`wss://`, [`Error::WebSocket`] when the upgrade is refused, [`Error::Timeout`] after
    /// [`CONNECT_TIMEOUT`].
    pub async fn connect(endpoint: impl Into<Endpoint>, token: &str) -> Result<Self> {
        Self::connect_as(endpoint, token, None).await
    }

    /// Like [`BridgeClient::connect`], naming the agent `owner` stamped on this client's requests
    /// (SPEC §2 client `hello`, optional `owner`): connections with the same owner share one agent
    /// window, and `close_agent_tabs`/`close_agent_window` reach every tab that owner opened. `None`:
    /// the bridge's `clientId` is the owner (one agent per connection).
    ///
    /// Errors: as [`BridgeClient::connect`]; a malformed owner (empty, over 64 characters, control
    /// characters) is [`Error::Rejected`] with `invalid_action`.
    pub async fn connect_as(
        endpoint: impl Into<Endpoint>,
        token: &str,
        owner: Option<&str>,
    ) -> Result<Self> {
        let mut hello = json!({"type": "hello", "role": "client", "name": "bua-bridge-client", "protocolVersion": bua_protocol::PROTOCOL_VERSION, "token": token});
        if let (Some(owner), Value::Object(m)) = (owner, &mut hello) {
            m.insert("owner".into(), Value::String(owner.to_string()));
        }
        Self::connect_with_hello(endpoint, hello).await
    }

    /// Like [`BridgeClient::connect`] with a caller-made `hello` (tests use it to send odd ones).
    pub async fn connect_with_hello(endpoint: impl Into<Endpoint>, hello: Value) -> Result<Self> {
        let url = endpoint.into().url();
        check_url(&url)?;
        match tokio::time::timeout(CONNECT_TIMEOUT, Self::handshake(&url, hello)).await {
            Ok(r) => r,
            Err(_) => Err(Error::Timeout {
                what: format!("the handshake with {url}"),
                ms: u64::try_from(CONNECT_TIMEOUT.as_millis()).unwrap_or(u64::MAX),
            }),
        }
    }

    async fn handshake(url: &str, hello: Value) -> Result<Self> {
        let owner = hello
            .get("owner")
            .and_then(Value::as_str)
            .map(str::to_string);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(
            url,
            Some(crate::server::websocket_config()),
            false,
        )
        .await
        .map_err(|e| connect_error(url, e))?;
        let (mut sink, mut stream) = ws.split();
        sink.send(Message::text(hello.to_string())).await?;
        let ack = loop {
            match stream.next().await {
                None => {
                    return Err(Error::Closed(
                        "the bridge closed the connection during the handshake".into(),
                    ))
                }
                Some(Err(e)) => return Err(e.into()),
                Some(Ok(Message::Text(text))) => break text,
                Some(Ok(Message::Close(frame))) => {
                    return Err(Error::Closed(format!(
                        "the bridge closed the connection during the handshake{}",
                        frame.map(|f| format!(": {}", f.reason)).unwrap_or_default()
                    )))
                }
                Some(Ok(_)) => continue,
            }
        };
        let ack: Value =
            serde_json::from_str(ack.as_str()).map_err(|e| Error::UnexpectedMessage {
                peer: "bridge",
                detail: format!("handshake answer is not JSON: {e}"),
            })?;
        match ack.get("type").and_then(Value::as_str) {
            Some("ack") => {}
            Some("reject") => {
                let error = ack.get("error");
                let code = error
                    .and_then(|e| e.get("code"))
                    .and_then(Value::as_str)
                    .and_then(ErrorCode::from_wire)
                    .unwrap_or(ErrorCode::InternalError);
                let message = error
                    .and_then(|e| e.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or("no message")
                    .to_string();
                return Err(Error::Rejected { code, message });
            }
            _ => {
                return Err(Error::UnexpectedMessage {
                    peer: "bridge",
                    detail: format!("expected ack or reject, got {ack}"),
                })
            }
        }
        let client_id = ack
            .get("clientId")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let owner = owner.unwrap_or_else(|| client_id.clone());
        let server_version = ack
            .get("serverVersion")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();

        let (events, _) = broadcast::channel(1024);
        let (frames, _) = broadcast::channel(1024);
        let inner = Arc::new(Inner {
            pending: Mutex::new(HashMap::new()),
            events,
            frames,
            dropped: AtomicU64::new(0),
            next_id: AtomicU64::new(1),
            closed: tokio::sync::watch::channel(None).0,
        });
        let (tx, mut rx) = mpsc::channel::<Outgoing>(256);
        let writer_inner = inner.clone();
        let writer = tokio::spawn(async move {
            while let Some(out) = rx.recv().await {
                // Marked before the send: a send that fails half-way may still have delivered the
                // frame, and re-sending an input the bridge ran would run it twice.
                if let Some(id) = &out.id {
                    if let Some(p) = lock(&writer_inner.pending).get_mut(id) {
                        p.written = true;
                    }
                }
                if sink.send(out.message).await.is_err() {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let reader_inner = inner.clone();
        let reader = tokio::spawn(async move {
            let mut why = "the bridge closed the connection".to_string();
            while let Some(message) = stream.next().await {
                match message {
                    Ok(Message::Text(text)) => route(&reader_inner, text.as_str()),
                    Ok(Message::Close(frame)) => {
                        if let Some(f) = frame {
                            why = format!(
                                "the bridge closed the connection ({} {})",
                                u16::from(f.code),
                                f.reason
                            );
                        }
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        why = format!("connection to the bridge failed: {e}");
                        break;
                    }
                }
            }
            writer.abort();
            let pending = std::mem::take(&mut *lock(&reader_inner.pending));
            for p in pending.into_values() {
                let error = if p.written {
                    Error::Closed(why.clone())
                } else {
                    Error::NotSent(why.clone())
                };
                let _ = p.reply.send(Err(error));
            }
            reader_inner.closed.send_replace(Some(why));
        });
        Ok(BridgeClient {
            client_id,
            owner,
            server_version,
            tx,
            inner,
            reader,
        })
    }

    /// The id the bridge gave this client (`cli-…`); it is the `owner` of this client's actions
    /// unless it connected with [`BridgeClient::connect_as`] and an owner.
    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    /// The agent owner stamped on this client's actions: the one given to
    /// [`BridgeClient::connect_as`], else [`BridgeClient::client_id`].
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// The bridge's version from `ack`.
    pub fn server_version(&self) -> &str {
        &self.server_version
    }

    /// Calls `method` with `params` (a JSON object, or `Value::Null` for none) and returns `result`.
    ///
    /// Errors: [`Error::Remote`] with the protocol code (`no_extension`, `invalid_action`, `timeout`,
    /// …) and message; [`Error::NotSent`] when the connection ended before the request went out,
    /// [`Error::Closed`] when it ended after (see [`after_connection_lost`] for what is safe then).
    pub async fn call(&self, method: &str, params: Value) -> Result<Value> {
        let id = format!("c{}", self.inner.next_id.fetch_add(1, Ordering::Relaxed));
        let request = if params.is_null() {
            json!({"id": id, "method": method})
        } else {
            json!({"id": id, "method": method, "params": params})
        };
        self.call_raw_with_id(id, request.to_string()).await
    }

    /// Like [`BridgeClient::call`] but gives up after `limit` with [`Error::Timeout`].
    pub async fn call_timeout(
        &self,
        method: &str,
        params: Value,
        limit: Duration,
    ) -> Result<Value> {
        match tokio::time::timeout(limit, self.call(method, params)).await {
            Ok(r) => r,
            Err(_) => Err(Error::Timeout {
                what: format!("the answer to `{method}`"),
                ms: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
            }),
        }
    }

    /// Sends a raw text frame whose answer carries `id` (tests use it for malformed requests).
    pub async fn call_raw_with_id(&self, id: String, frame: String) -> Result<Value> {
        let (reply, answer) = oneshot::channel();
        let pending = Pending {
            reply,
            written: false,
        };
        lock(&self.inner.pending).insert(id.clone(), pending);
        let out = Outgoing {
            message: Message::text(frame),
            id: Some(id.clone()),
        };
        if self.tx.send(out).await.is_err() {
            lock(&self.inner.pending).remove(&id);
            return Err(Error::NotSent(
                "the connection to the bridge is closed".into(),
            ));
        }
        match answer.await {
            Ok(r) => r,
            Err(_) => Err(Error::Closed(
                "the connection to the bridge is closed".into(),
            )),
        }
    }

    /// Sends a raw text frame and returns the next answer that has no readable id (`"id": null`),
    /// as the bridge sends for frames it cannot parse.
    pub async fn send_raw_unidentified(&self, frame: String) -> Result<Value> {
        self.call_raw_with_id(String::new(), frame).await
    }

    /// Events forwarded by the bridge after `subscribe_events` (`{"type":"session_started",…}`).
    pub fn events(&self) -> broadcast::Receiver<Value> {
        self.inner.events.subscribe()
    }

    /// Like [`BridgeClient::events`], with each event's `dropped` count (events the bridge dropped
    /// for this subscriber just before it, because it read too slowly).
    pub fn forwarded_events(&self) -> broadcast::Receiver<ForwardedEvent> {
        self.inner.frames.subscribe()
    }

    /// Total events the bridge reported dropped for this client so far (sum of `dropped`).
    pub fn dropped_events(&self) -> u64 {
        self.inner.dropped.load(Ordering::Relaxed)
    }

    /// Waits until the connection to the bridge has ended (the bridge stopped or closed it, or the
    /// network failed) and returns why, e.g. "the bridge closed the connection (1001 shutting down)".
    /// Event streams use it: the bridge sends no event to say it is going away.
    pub async fn closed(&self) -> String {
        let mut state = self.inner.closed.subscribe();
        let why = match state.wait_for(Option::is_some).await {
            Ok(why) => why.clone().unwrap_or_default(),
            Err(_) => "the connection to the bridge is closed".to_owned(),
        };
        why
    }

    /// Whether the connection to the bridge is still open.
    pub fn is_open(&self) -> bool {
        !self.reader.is_finished()
    }

    /// Ends the connection with the WebSocket closing handshake: sends a close frame (1000,
    /// "done") and waits up to [`CLOSE_TIMEOUT`] for the bridge's. Call it before a process
    /// exits, so the bridge sees a clean close instead of a reset; dropping a client also sends a
    /// close frame, but only if the runtime keeps running long enough.
    pub async fn close(mut self) {
        use tokio_tungstenite::tungstenite::protocol::{frame::coding::CloseCode, CloseFrame};
        if self.reader.is_finished() {
            return;
        }
        let frame = CloseFrame {
            code: CloseCode::Normal,
            reason: "done".into(),
        };
        let out = Outgoing {
            message: Message::Close(Some(frame)),
            id: None,
        };
        if self.tx.send(out).await.is_ok() {
            let _ = tokio::time::timeout(CLOSE_TIMEOUT, &mut self.reader).await;
        }
    }
}

/// The client request params of `action`: its canonical wire JSON (SPEC §4) without the `type`
/// tag, which the request's method names (SPEC §9), e.g. `{"uid":"e3","tabId":12}` for a click.
pub fn action_params(action: &Action) -> Value {
    let mut params = action.to_value();
    if let Value::Object(m) = &mut params {
        m.remove("type");
    }
    params
}

/// What a front end does with a call to `method` that failed with `error` (SPEC §9, "Takeover"):
/// `Ok(())` when the bridge went away before answering and sending the request again (on a new
/// connection, to whichever bridge now holds the port) is safe: always when it was never written
/// ([`Error::NotSent`]), and when it was, only for actions that only read
/// ([`bua_protocol::is_read_action`]). An action that may have run is [`Error::OutcomeUnknown`];
/// any other error is returned as it is.
pub fn after_connection_lost(method: &str, error: Error) -> Result<()> {
    match error {
        Error::NotSent(_) => Ok(()),
        Error::Closed(_) if bua_protocol::is_read_action(method) => Ok(()),
        Error::Closed(why) => Err(Error::OutcomeUnknown {
            method: method.to_owned(),
            why,
        }),
        other => Err(other),
    }
}

/// Checks that `url` is a `ws://` or `wss://` URL with a host.
///
/// Errors: [`Error::InvalidEndpoint`] saying what the bridge's URL looks like.
fn check_url(url: &str) -> Result<()> {
    let invalid = |reason: String| Error::InvalidEndpoint {
        input: url.to_string(),
        reason: format!("{reason}; the bridge's URL looks like ws://127.0.0.1:9225"),
    };
    let parsed = url::Url::parse(url).map_err(|e| invalid(e.to_string()))?;
    if !matches!(parsed.scheme(), "ws" | "wss") {
        return Err(invalid(format!(
            "the scheme is `{}`, not ws or wss",
            parsed.scheme()
        )));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(invalid("no host".into()));
    }
    Ok(())
}

/// Names what went wrong while opening the WebSocket to `url`: nothing listens
/// ([`Error::Unreachable`]), the URL is not a WebSocket URL ([`Error::InvalidEndpoint`]), or the
/// peer is not a bridge (an HTTP answer instead of the upgrade).
fn connect_error(url: &str, e: tokio_tungstenite::tungstenite::Error) -> Error {
    use tokio_tungstenite::tungstenite::Error as Ws;
    match e {
        Ws::Io(source) => Error::Unreachable {
            url: url.to_string(),
            source,
        },
        Ws::Url(reason) => Error::InvalidEndpoint {
            input: url.to_string(),
            reason: format!("{reason}; the bridge's URL looks like ws://127.0.0.1:9225"),
        },
        Ws::Http(response) => Error::UnexpectedMessage {
            peer: "bridge",
            detail: format!(
                "{url} answered the WebSocket upgrade with HTTP {}: is a bua-bridge listening there?",
                response.status()
            ),
        },
        other => Error::from(other),
    }
}

/// Routes one frame from the bridge to its waiting call, or to the event channel.
fn route(inner: &Inner, text: &str) {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        tracing::warn!(frame = text, "the bridge sent a frame that is not JSON");
        return;
    };
    if value.get("type").and_then(Value::as_str) == Some("event") {
        let event = value.get("event").cloned().unwrap_or(Value::Null);
        let dropped = value.get("dropped").and_then(Value::as_u64).unwrap_or(0);
        inner.dropped.fetch_add(dropped, Ordering::Relaxed);
        let _ = inner.frames.send(ForwardedEvent {
            event: event.clone(),
            dropped,
        });
        let _ = inner.events.send(event);
        return;
    }
    let id = match value.get("id") {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let Some(Pending { reply, .. }) = lock(&inner.pending).remove(&id) else {
        tracing::warn!(%id, "an answer for no pending call");
        return;
    };
    let outcome = if value.get("success").and_then(Value::as_bool) == Some(true) {
        Ok(value.get("result").cloned().unwrap_or(Value::Null))
    } else {
        let code = value
            .get("code")
            .and_then(Value::as_str)
            .and_then(ErrorCode::from_wire)
            .unwrap_or(ErrorCode::InternalError);
        let message = value
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("the bridge answered with an error and no message")
            .to_string();
        Err(Error::Remote { code, message })
    };
    let _ = reply.send(outcome);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unsent_requests_and_reads_are_sent_again_after_the_bridge_went_away() {
        let gone = || Error::Closed("reset".into());
        assert!(after_connection_lost("click", Error::NotSent("reset".into())).is_ok());
        assert!(after_connection_lost("extract", gone()).is_ok());
        assert!(after_connection_lost("get_tabs", gone()).is_ok());
        match after_connection_lost("click", gone()) {
            Err(e @ Error::OutcomeUnknown { .. }) => {
                assert_eq!(e.code(), ErrorCode::Timeout);
                let m = e.to_string();
                assert!(
                    m.contains("`click` was in flight")
                        && m.contains("outcome is unknown")
                        && m.contains("call extract"),
                    "{m}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            after_connection_lost(
                "extract",
                Error::Remote {
                    code: ErrorCode::Timeout,
                    message: "x".into()
                }
            ),
            Err(Error::Remote { .. })
        ));
        assert_eq!(gone().client_code(), crate::error::BRIDGE_UNREACHABLE);
    }

    #[test]
    fn only_websocket_urls_with_a_host_are_bridge_urls() {
        assert!(check_url("ws://127.0.0.1:9225").is_ok());
        assert!(check_url("wss://bridge.example:443/x").is_ok());
        for bad in ["http://127.0.0.1:9225", "127.0.0.1:9225", "ws://", "9225x"] {
            match check_url(bad) {
                Err(Error::InvalidEndpoint { input, reason }) => {
                    assert_eq!(input, bad);
                    assert!(
                        reason.ends_with("looks like ws://127.0.0.1:9225"),
                        "{reason}"
                    );
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
