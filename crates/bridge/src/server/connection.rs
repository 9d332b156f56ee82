//! One connection after its upgrade: the writer task that sends responses before events, the
//! read loop, and what each frame of an extension or a client becomes (SPEC §3, §9). A client
//! request runs on its own task, so a slow action never blocks the next frame.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bua_protocol::{
    ClientDialect, ClientResponse, ErrorBody, ErrorCode, FromExtension, Reject, ToExtension,
    MAX_FRAME_BYTES,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::{broadcast, mpsc};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::WebSocketStream;
use tokio_util::sync::CancellationToken;

use super::config::OUTBOUND_QUEUE;
use super::events::EventQueue;
use super::frames::{close_message, is_reset, millis, to_text};
use super::owners::owner_disconnected;
use super::pending::{dispatch, fail_pending};
use super::state::{lock, Counters, Shared};
use super::v1::v1_new_tab;
use crate::origin::OriginClass;

/// What a connection is, once its handshake passed.
#[derive(Clone)]
pub(super) enum Peer {
    Extension,
    Client {
        client_id: String,
        /// The `owner` stamped on this client's requests: its `hello.owner`, else `client_id`.
        owner: String,
        /// v1 (no `protocolVersion` in `hello`) or v4: decides the result shapes (SPEC §9).
        dialect: ClientDialect,
    },
}

/// One accepted WebSocket connection: its outbound queue (drained by a writer task) and what it
/// needs to answer frames.
pub(super) struct Connection {
    pub(super) shared: Arc<Shared>,
    pub(super) tx: mpsc::Sender<Message>,
    pub(super) id: u64,
    pub(super) peer: SocketAddr,
    /// Cancelled when the connection ends, so helper tasks (event forwarding) stop with it.
    pub(super) closed: CancellationToken,
    /// Whether `subscribe_events` already started a forwarder on this connection.
    pub(super) subscribed: std::sync::atomic::AtomicBool,
    /// This connection's event buffer (used once it subscribed).
    pub(super) events: Arc<EventQueue>,
}

impl Connection {
    /// Runs the connection: its writer task, the handshake, then its frames until it closes.
    pub(super) async fn run(
        shared: Arc<Shared>,
        ws: WebSocketStream<TcpStream>,
        class: OriginClass,
        peer: SocketAddr,
        id: u64,
    ) {
        let (mut sink, mut stream) = ws.split();
        let (tx, mut rx) = mpsc::channel::<Message>(OUTBOUND_QUEUE);
        let events = Arc::new(EventQueue::new(shared.config.subscriber_buffer));
        let queue = events.clone();
        let writer = tokio::spawn(async move {
            // Responses (and handshake/close frames) first; events only when none is waiting.
            loop {
                let message = match rx.try_recv() {
                    Ok(m) => m,
                    Err(mpsc::error::TryRecvError::Disconnected) => break,
                    Err(mpsc::error::TryRecvError::Empty) => match queue.pop_frame() {
                        Some(frame) => frame,
                        None => tokio::select! {
                            biased;
                            m = rx.recv() => match m {
                                Some(m) => m,
                                None => break,
                            },
                            _ = queue.ready.notified() => continue,
                        },
                    },
                };
                let closing = matches!(message, Message::Close(_));
                if sink.send(message).await.is_err() || closing {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let conn = Connection {
            shared: shared.clone(),
            tx,
            id,
            peer,
            closed: CancellationToken::new(),
            subscribed: std::sync::atomic::AtomicBool::new(false),
            events,
        };
        let role = tokio::select! {
            _ = shared.shutdown.cancelled() => None,
            r = conn.handshake(&mut stream, &class) => r,
        };
        if let Some(role) = role {
            conn.serve(&mut stream, role).await;
        }
        conn.closed.cancel();
        drop(conn);
        // The writer ends once every sender (ours and per-request tasks') is gone or a close was sent.
        let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
    }

    /// Queues `message` for the writer (dropped when the connection is closed).
    pub(super) async fn send(&self, message: Message) {
        if self.tx.send(message).await.is_err() {
            tracing::debug!(peer = %self.peer, "dropped an outbound message: connection closed");
        }
    }

    /// Refuses the handshake with `code` and closes, with a warning in the log.
    pub(super) async fn reject(&self, code: ErrorCode, message: String) {
        tracing::warn!(peer = %self.peer, code = code.as_str(), %message, "handshake rejected");
        self.send_reject(code, message).await;
    }

    /// [`Self::reject`] without the warning, for a refusal that is part of normal operation.
    pub(super) async fn send_reject(&self, code: ErrorCode, message: String) {
        Counters::bump(&self.shared.counters.rejects);
        let reason = format!("{}: {}", code.as_str(), message);
        self.send(to_text(&ToExtension::Reject(Reject {
            error: ErrorBody::new(code, message),
        })))
        .await;
        self.send(close_message(CloseCode::Policy, &reason)).await;
    }

    async fn serve(
        &self,
        stream: &mut futures_util::stream::SplitStream<WebSocketStream<TcpStream>>,
        role: Peer,
    ) {
        let mut close_reason: Option<String> = None;
        let mut abrupt = false;
        loop {
            let next = tokio::select! {
                _ = self.shared.shutdown.cancelled() => {
                    self.send(close_message(CloseCode::Away, "bridge shutting down")).await;
                    break;
                }
                next = stream.next() => next,
            };
            match next {
                None => break,
                Some(Ok(Message::Text(text))) => match &role {
                    Peer::Extension => self.on_extension_text(text.as_str()).await,
                    Peer::Client { .. } => self.on_client_text(&role, text.as_str()).await,
                },
                Some(Ok(Message::Binary(_))) => {
                    let error = ErrorBody::invalid(
                        "binary frames are not supported; send JSON text frames",
                    );
                    self.on_invalid_frame(&role, None, error).await;
                }
                Some(Ok(Message::Close(frame))) => {
                    close_reason = frame.map(|f| format!("{} {}", u16::from(f.code), f.reason));
                    break;
                }
                Some(Ok(_)) => {} // ping/pong: tungstenite answers pings itself
                Some(Err(tungstenite::Error::Capacity(e))) => {
                    let reason = format!(
                        "frame too large ({e}); the limit is {MAX_FRAME_BYTES} bytes (16 MiB)"
                    );
                    tracing::warn!(peer = %self.peer, %reason, "closing connection");
                    self.send(close_message(CloseCode::Size, &reason)).await;
                    close_reason = Some(reason);
                    break;
                }
                Some(Err(e)) => {
                    abrupt = is_reset(&e);
                    close_reason = Some(e.to_string());
                    break;
                }
            }
        }
        if let Peer::Client { owner, .. } = &role {
            owner_disconnected(&self.shared, owner);
        }
        match role {
            Peer::Extension => self.extension_gone(close_reason.as_deref()),
            // A client that exits without the closing handshake (an old CLI, a killed script) is
            // routine: not worth an info line per call.
            Peer::Client { client_id, .. } if abrupt => {
                tracing::debug!(%client_id, reason = ?close_reason, "client disconnected without closing");
            }
            Peer::Client { client_id, .. } => {
                tracing::info!(%client_id, reason = ?close_reason, "client disconnected");
            }
        }
    }

    fn extension_gone(&self, reason: Option<&str>) {
        let mut slot = lock(&self.shared.extension);
        if slot.as_ref().is_some_and(|s| s.info.connection == self.id) {
            *slot = None;
            drop(slot);
            *lock(&self.shared.extension_expected_since) = Instant::now();
            self.shared.extension_state.send_replace(None);
        } else {
            drop(slot);
        }
        tracing::info!(connection = self.id, reason = ?reason, "extension disconnected");
        fail_pending(
            &self.shared,
            Some(self.id),
            ErrorCode::NoExtension,
            "the extension disconnected before answering (service worker stopped or browser closed); it reconnects by itself",
        );
    }

    async fn on_invalid_frame(&self, role: &Peer, id: Option<String>, error: ErrorBody) {
        Counters::bump(&self.shared.counters.invalid_frames);
        tracing::warn!(peer = %self.peer, id = ?id, message = %error.message, "malformed frame");
        match role {
            Peer::Extension => self.send(to_text(&ToExtension::Error { id, error })).await,
            Peer::Client { .. } => {
                self.send(to_text(&ClientResponse::Err {
                    id: id.unwrap_or_default(),
                    error: error.message,
                    code: error.code,
                }))
                .await
            }
        }
    }

    async fn on_extension_text(&self, text: &str) {
        match bua_protocol::parse_from_extension(text) {
            Err(frame) => {
                self.on_invalid_frame(&Peer::Extension, frame.id, frame.error)
                    .await
            }
            Ok(FromExtension::Ping) => self.send(to_text(&ToExtension::Pong)).await,
            Ok(FromExtension::Hello(_)) => {
                let error =
                    ErrorBody::invalid("type: `hello` was already accepted on this connection");
                self.on_invalid_frame(&Peer::Extension, None, error).await;
            }
            Ok(FromExtension::Event { event }) => {
                let value = serde_json::to_value(&event).unwrap_or(Value::Null);
                tracing::info!(event = %value, "extension event");
                // No subscribers is fine.
                let _ = self.shared.events.send(value);
            }
            Ok(FromExtension::Response(response)) => {
                let pending = lock(&self.shared.pending).remove(&response.id);
                let Some(pending) = pending else {
                    Counters::bump(&self.shared.counters.late_responses);
                    tracing::warn!(id = %response.id, "dropped a response for a request that timed out or is unknown");
                    return;
                };
                let outcome = match (response.error, response.result) {
                    (Some(error), _) => Err(error),
                    (None, result) => Ok(result.unwrap_or(Value::Null)),
                };
                tracing::debug!(id = %response.id, action = pending.action,
                    ms = millis(pending.started.elapsed()), ok = outcome.is_ok(), "response");
                let _ = pending.reply.send(outcome);
            }
        }
    }

    async fn on_client_text(&self, role: &Peer, text: &str) {
        let Peer::Client { owner, dialect, .. } = role else {
            return;
        };
        let request = match bua_protocol::parse_client_request(text) {
            Ok(r) => r,
            Err(frame) => return self.on_invalid_frame(role, frame.id, frame.error).await,
        };
        let id = request.id.clone();
        match request.method.as_str() {
            "ping" => {
                // A v4 client also learns this bridge's version and the extension it serves (SPEC §9;
                // `doctor` reads them); a v1 client gets the v1 answer.
                let mut result = json!({"pong": true});
                if *dialect == ClientDialect::V4 {
                    let extension = self.shared.extension_state.borrow().as_ref().map(|e| {
                        json!({"id": e.extension_id, "version": e.extension_version,
                               "protocolVersion": e.protocol_version})
                    });
                    result["serverVersion"] = json!(crate::SERVER_VERSION);
                    result["extension"] = json!(extension);
                }
                self.send(to_text(&ClientResponse::Ok { id, result })).await
            }
            "subscribe_events" => {
                self.subscribe_events(id).await;
            }
            _ => {
                let action = match request.to_action() {
                    Ok(a) => a,
                    Err(error) => return self.on_invalid_frame(role, Some(id), error).await,
                };
                // Each request runs on its own task so a slow action never blocks the next frame.
                let shared = self.shared.clone();
                let tx = self.tx.clone();
                let owner = owner.clone();
                let dialect = *dialect;
                tokio::spawn(async move {
                    let outcome = if request.method == "new_tab" {
                        v1_new_tab(&shared, &owner, action).await
                    } else {
                        dispatch(&shared, &owner, action).await
                    };
                    let response = match outcome {
                        Ok(result) => ClientResponse::Ok {
                            id,
                            result: request.shape_result_for(result, dialect),
                        },
                        Err(error) => ClientResponse::Err {
                            id,
                            error: error.message,
                            code: error.code,
                        },
                    };
                    let _ = tx.send(to_text(&response)).await;
                });
            }
        }
    }

    /// `subscribe_events`: forwards every later extension event as `{"type":"event","event":{…}}`
    /// through this connection's bounded [`EventQueue`] (oldest dropped and counted when full).
    /// A second `subscribe_events` on the same connection is answered the same way but starts no
    /// second forwarder (events are never duplicated).
    pub(super) async fn subscribe_events(&self, id: String) {
        let first = !self.subscribed.swap(true, Ordering::Relaxed);
        let mut rx = self.shared.events.subscribe();
        self.send(to_text(&ClientResponse::Ok {
            id,
            result: json!({"subscribed": true}),
        }))
        .await;
        if !first {
            return;
        }
        let queue = self.events.clone();
        let closed = self.closed.clone();
        let shared = self.shared.clone();
        let peer = self.peer;
        tokio::spawn(async move {
            let mut warned = false;
            loop {
                let received = tokio::select! {
                    _ = closed.cancelled() => break,
                    r = rx.recv() => r,
                };
                let dropped = match received {
                    Ok(event) => queue.push(event),
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        queue.lost(n);
                        n
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if dropped > 0 {
                    shared
                        .counters
                        .dropped_events
                        .fetch_add(dropped, Ordering::Relaxed);
                    if !warned {
                        warned = true;
                        tracing::warn!(%peer, "a slow event subscriber is losing its oldest events");
                    }
                }
            }
        });
    }
}
