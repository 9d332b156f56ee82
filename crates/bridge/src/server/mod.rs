//! The WebSocket server of SPEC §2, §3 and §9 (`bua-bridge serve`, also run in-process by `launch`).
//!
//! Every upgrade is classified by its `Origin` ([`crate::origin`]); a refused Origin gets HTTP 403 and
//! never reaches the handshake. The first frame must be `hello` with the role the Origin allows, a
//! protocol version in `min_protocol_version..=PROTOCOL_VERSION` and the pairing token; the answer is
//! `ack` or `reject` (then close). One extension is served at a time (a newer one replaces the older);
//! any number of clients. A client request `{"id","method","params"}` becomes an action (`params` +
//! `{"type": method}`, validated by the protocol crate), stamped with an `owner` (the one its `hello`
//! named, else its `clientId`), given a UUIDv4 request id and the action's timeout, and forwarded to
//! the extension; the answer goes back in the v1 envelope. Malformed frames get `invalid_action` and
//! the connection stays open.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bua_protocol::{
    Ack, Action, ClientDialect, ClientResponse, ErrorBody, ErrorCode, FromExtension, Reject,
    Request, Role, ToExtension, MAX_FRAME_BYTES, MIN_PROTOCOL_VERSION, PROTOCOL_VERSION,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::handshake::server::{
    ErrorResponse, Request as HttpRequest, Response as HttpResponse,
};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::WebSocketStream;
use tokio_util::sync::CancellationToken;

use crate::error::{Error, Result};
use crate::origin::{classify_origin, OriginClass};

/// How long a connection may take from TCP accept to a completed upgrade, and from the upgrade to
/// its `hello` (10 s each).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Capacity of each connection's outbound queue (messages); senders wait when it is full.
const OUTBOUND_QUEUE: usize = 1024;

/// Capacity of the event broadcast buffer (events). Each subscriber's forwarder drains it at once
/// into its own [`ServerConfig::subscriber_buffer`], so it only lags when a forwarder task is starved.
const EVENT_BUFFER: usize = 1024;

/// Default of [`ServerConfig::subscriber_buffer`] (events).
pub const DEFAULT_SUBSCRIBER_BUFFER: usize = 1024;

/// Application close code sent to an extension connection replaced by a newer one (SPEC §2).
pub const CLOSE_REPLACED: u16 = 4001;

/// The wait `bua-bridge serve` and `bua-bridge mcp` give an extension before an action fails
/// with `no_extension` ([`ServerConfig::extension_wait`]): 13 s, the extension's longest
/// reconnect backoff step (10 s × a jitter of up to 1.25, SPEC §2) plus its connect.
pub const DEFAULT_EXTENSION_WAIT: Duration = Duration::from_secs(13);

/// How long `serve`, `mcp` and `launch` keep an agent owner's tabs and window after its last
/// connection ended ([`ServerConfig::agent_grace`], SPEC §6): 5 min.
pub const DEFAULT_AGENT_GRACE: Duration = Duration::from_secs(5 * 60);

/// The `owner` of the requests the bridge sends the extension on its own behalf (the `get_tabs` that finds
/// agent owners at connect), not a client's.
pub const BRIDGE_OWNER: &str = "bua-bridge";

/// Settings of one server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Address to listen on; port 0 picks a free port. Loopback unless the user asked otherwise.
    pub bind: SocketAddr,
    /// The pairing token every `hello` must carry (SPEC §2).
    pub token: String,
    /// When set, only `Origin: chrome-extension://<this id>` may connect as the extension.
    pub extension_id: Option<String>,
    /// The lowest protocol version accepted; versions above [`PROTOCOL_VERSION`] are refused too.
    pub min_protocol_version: u32,
    /// Events kept per `subscribe_events` subscriber that has not read them yet (≥ 1). When a slow
    /// subscriber's buffer is full the oldest event is dropped and counted; the next event it gets
    /// carries `"dropped": N`. Requests and responses never wait for events.
    pub subscriber_buffer: usize,
    /// How long an action waits for an extension when none is connected, counted from the later
    /// of the server's start and the last extension disconnect: an extension in its reconnect
    /// backoff (0.5 s → 10 s, SPEC §2) is back within that time. Past it, or when zero, an action
    /// without an extension fails at once with `no_extension`. [`ServerConfig::loopback`] sets
    /// zero; `serve` and `mcp` use [`DEFAULT_EXTENSION_WAIT`].
    pub extension_wait: Duration,
    /// When every connection of an agent owner has been gone this long, the bridge closes that
    /// owner's agent tabs and window (`close_agent_tabs` + `close_agent_window` with its `owner`;
    /// the sessions end through the usual path, SPEC §6). An owner that connects again within it
    /// keeps them. `None` (what [`ServerConfig::loopback`] sets): never; `serve`, `mcp` and
    /// `launch` use [`DEFAULT_AGENT_GRACE`] unless `--agent-grace` says otherwise.
    pub agent_grace: Option<Duration>,
    /// The folders `upload` may read files from (`--files-dir`, SPEC §4); none: uploads are refused.
    pub files_dirs: Vec<std::path::PathBuf>,
}

impl ServerConfig {
    /// A loopback config on `port` with `token`, no pinned extension, and the crate's version range.
    pub fn loopback(port: u16, token: impl Into<String>) -> Self {
        ServerConfig {
            bind: SocketAddr::from(([127, 0, 0, 1], port)),
            token: token.into(),
            extension_id: None,
            min_protocol_version: MIN_PROTOCOL_VERSION,
            subscriber_buffer: DEFAULT_SUBSCRIBER_BUFFER,
            extension_wait: Duration::ZERO,
            agent_grace: None,
            files_dirs: Vec::new(),
        }
    }
}

/// The connected extension, as told in its `hello`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtensionInfo {
    /// The bridge's id of this connection (increasing).
    pub connection: u64,
    /// The extension id from its `Origin`.
    pub extension_id: String,
    /// `name` from `hello` (e.g. `chrome-main`).
    pub name: Option<String>,
    /// `extensionVersion` from `hello`.
    pub extension_version: Option<String>,
    /// The protocol version the extension speaks.
    pub protocol_version: u32,
}

/// Counters of what the server saw since it started (all monotonic).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// WebSocket upgrade requests received (refused or not).
    pub upgrade_requests: u64,
    /// Upgrades refused because of their `Origin` (HTTP 403).
    pub refused_origins: u64,
    /// Upgrades whose `Origin` was `chrome-extension://…` and that passed the Origin check.
    pub extension_upgrades: u64,
    /// Handshakes answered with `ack` for the extension.
    pub extension_acks: u64,
    /// Handshakes answered with `ack` for clients.
    pub client_acks: u64,
    /// Handshakes answered with `reject` (both roles).
    pub rejects: u64,
    /// Malformed frames answered with `invalid_action` (both roles).
    pub invalid_frames: u64,
    /// Responses from the extension whose request had already timed out or was unknown.
    pub late_responses: u64,
    /// Events dropped for slow `subscribe_events` subscribers (summed over subscribers).
    pub dropped_events: u64,
}

#[derive(Default)]
struct Counters {
    upgrade_requests: AtomicU64,
    refused_origins: AtomicU64,
    extension_upgrades: AtomicU64,
    extension_acks: AtomicU64,
    client_acks: AtomicU64,
    rejects: AtomicU64,
    invalid_frames: AtomicU64,
    late_responses: AtomicU64,
    dropped_events: AtomicU64,
}

impl Counters {
    fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn snapshot(&self) -> Stats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Stats {
            upgrade_requests: get(&self.upgrade_requests),
            refused_origins: get(&self.refused_origins),
            extension_upgrades: get(&self.extension_upgrades),
            extension_acks: get(&self.extension_acks),
            client_acks: get(&self.client_acks),
            rejects: get(&self.rejects),
            invalid_frames: get(&self.invalid_frames),
            late_responses: get(&self.late_responses),
            dropped_events: get(&self.dropped_events),
        }
    }
}

/// The current extension connection.
struct ExtensionSlot {
    info: ExtensionInfo,
    tx: mpsc::Sender<Message>,
}

/// A request forwarded to the extension and not answered yet.
struct Pending {
    /// Which extension connection it was sent on (its requests fail when that connection goes).
    connection: u64,
    /// The action type, for logs.
    action: &'static str,
    started: Instant,
    reply: oneshot::Sender<std::result::Result<Value, ErrorBody>>,
}

struct Shared {
    config: ServerConfig,
    extension: Mutex<Option<ExtensionSlot>>,
    pending: Mutex<HashMap<String, Pending>>,
    events: broadcast::Sender<Value>,
    extension_state: watch::Sender<Option<ExtensionInfo>>,
    /// When an extension was last expected: the server's start, then each extension disconnect
    /// (the start of [`ServerConfig::extension_wait`]'s window).
    extension_expected_since: Mutex<Instant>,
    counters: Counters,
    next_connection: AtomicU64,
    shutdown: CancellationToken,
    /// Live client connections per agent owner, and a count bumped on every connect, so a grace
    /// timer can tell that its owner came back meanwhile ([`ServerConfig::agent_grace`]).
    owners: Mutex<HashMap<String, OwnerLiveness>>,
}

#[derive(Default)]
struct OwnerLiveness {
    connections: usize,
    connects: u64,
}

/// Locks a mutex, recovering the data if a panicking thread poisoned it (the maps stay consistent:
/// every critical section is a single insert/remove/replace).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A running server. Dropping it does not stop the server; call [`ServerHandle::shutdown`].
pub struct ServerHandle {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept_task: JoinHandle<()>,
}

/// The WebSocket limits of SPEC §3: messages and frames up to [`MAX_FRAME_BYTES`] (16 MiB).
pub fn websocket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_FRAME_BYTES))
        .max_frame_size(Some(MAX_FRAME_BYTES))
}

/// Binds `config.bind` and starts serving in the background on the current tokio runtime.
///
/// Errors when the address cannot be bound (e.g. the port is taken).
pub async fn start(config: ServerConfig) -> Result<ServerHandle> {
    let listener = TcpListener::bind(config.bind)
        .await
        .map_err(|e| {
            let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
                " (is a bua-bridge already running there? Then use it; or pick another --port and set that URL in the extension's options)"
            } else {
                ""
            };
            Error::io(format!("binding {}{hint}", config.bind), e)
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::io("reading the bound address", e))?;
    let (events, _) = broadcast::channel(EVENT_BUFFER);
    let (extension_state, _) = watch::channel(None);
    let shared = Arc::new(Shared {
        config,
        extension: Mutex::new(None),
        pending: Mutex::new(HashMap::new()),
        events,
        extension_state,
        extension_expected_since: Mutex::new(Instant::now()),
        counters: Counters::default(),
        next_connection: AtomicU64::new(1),
        shutdown: CancellationToken::new(),
        owners: Mutex::new(HashMap::new()),
    });
    let accept_task = tokio::spawn(accept_loop(listener, shared.clone()));
    tracing::info!(%addr, "bua-bridge listening");
    Ok(ServerHandle {
        addr,
        shared,
        accept_task,
    })
}

impl ServerHandle {
    /// The bound address (with the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The `ws://` URL of this server.
    pub fn url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// The pairing token this server requires.
    pub fn token(&self) -> &str {
        &self.shared.config.token
    }

    /// Counters since start.
    pub fn stats(&self) -> Stats {
        self.shared.counters.snapshot()
    }

    /// The connected extension, if any; changes whenever one is acked or goes away.
    pub fn extension(&self) -> watch::Receiver<Option<ExtensionInfo>> {
        self.shared.extension_state.subscribe()
    }

    /// Waits until an extension has completed the handshake, at most `limit`.
    ///
    /// Errors with [`Error::Timeout`] when none did in time.
    pub async fn wait_for_extension(&self, limit: Duration) -> Result<ExtensionInfo> {
        let mut rx = self.extension();
        let wait = async {
            loop {
                if let Some(info) = rx.borrow_and_update().clone() {
                    return Some(info);
                }
                if rx.changed().await.is_err() {
                    return None;
                }
            }
        };
        match tokio::time::timeout(limit, wait).await {
            Ok(Some(info)) => Ok(info),
            Ok(None) => Err(Error::Closed("the server stopped".to_string())),
            Err(_) => Err(Error::Timeout {
                what: "the extension's handshake".to_string(),
                ms: millis(limit),
            }),
        }
    }

    /// Extension events (`{"type":"session_started",…}`, SPEC §8) as they arrive.
    pub fn subscribe_events(&self) -> broadcast::Receiver<Value> {
        self.shared.events.subscribe()
    }

    /// Sends one action to the extension as `owner` and waits for its answer (in-process client).
    ///
    /// Errors: `no_extension`, `timeout` (the action's SPEC §4 timeout), or the extension's error.
    pub async fn dispatch(
        &self,
        owner: &str,
        action: Action,
    ) -> std::result::Result<Value, ErrorBody> {
        dispatch(&self.shared, owner, action).await
    }

    /// Stops accepting, closes every connection with 1001 "bridge shutting down", fails pending
    /// requests, and waits for the accept loop to end.
    pub async fn shutdown(self) {
        self.shared.shutdown.cancel();
        let _ = self.accept_task.await;
        fail_pending(
            &self.shared,
            None,
            ErrorCode::NoExtension,
            "the bridge is shutting down",
        );
        // Give connection tasks a moment to flush their close frames.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    /// A token that is cancelled when the server shuts down.
    pub fn shutdown_token(&self) -> CancellationToken {
        self.shared.shutdown.clone()
    }
}

/// Whether a read error is the peer going away without a close frame (a reset connection).
fn is_reset(e: &tungstenite::Error) -> bool {
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

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

async fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        tokio::select! {
            _ = shared.shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let shared = shared.clone();
                    tokio::spawn(async move { handle_connection(shared, stream, peer).await });
                }
                Err(e) => {
                    // EMFILE and friends: back off instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }
    tracing::info!("bua-bridge stopped accepting connections");
}

fn forbidden(reason: &str) -> ErrorResponse {
    let mut response =
        ErrorResponse::new(Some(format!("bua-bridge: connection refused: {reason}\n")));
    *response.status_mut() = StatusCode::FORBIDDEN;
    response
}

/// A close frame; `reason` is cut to the 123 bytes a close frame can carry.
fn close_message(code: CloseCode, reason: &str) -> Message {
    let mut cut = reason.len().min(123);
    while !reason.is_char_boundary(cut) {
        cut -= 1;
    }
    Message::Close(Some(CloseFrame {
        code,
        reason: reason[..cut].to_string().into(),
    }))
}

fn to_text<T: serde::Serialize>(value: &T) -> Message {
    match serde_json::to_string(value) {
        Ok(text) => Message::text(text),
        // Serialising our own types cannot fail; answer with a generic error frame if it ever does.
        Err(e) => Message::text(
            json!({"type":"error","error":{"code":"internal_error","message":format!("serialisation failed: {e}")}})
                .to_string(),
        ),
    }
}

// The callback's error type is fixed by tungstenite (`http::Response`), so it cannot be boxed.
#[allow(clippy::result_large_err)]
async fn handle_connection(shared: Arc<Shared>, stream: TcpStream, peer: SocketAddr) {
    let mut class: Option<OriginClass> = None;
    let pinned = shared.config.extension_id.clone();
    let counters = &shared.counters;
    let callback = |request: &HttpRequest, response: HttpResponse| {
        Counters::bump(&counters.upgrade_requests);
        let origins: Vec<&[u8]> = request
            .headers()
            .get_all("origin")
            .iter()
            .map(|v| v.as_bytes())
            .collect();
        match classify_origin(&origins, pinned.as_deref()) {
            Ok(c) => {
                if matches!(c, OriginClass::Extension(_)) {
                    Counters::bump(&counters.extension_upgrades);
                }
                class = Some(c);
                Ok(response)
            }
            Err(reason) => {
                Counters::bump(&counters.refused_origins);
                tracing::warn!(%peer, %reason, "refused a WebSocket upgrade (Origin)");
                Err(forbidden(&reason))
            }
        }
    };
    let upgrade =
        tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(websocket_config()));
    let ws = match tokio::time::timeout(HANDSHAKE_TIMEOUT, upgrade).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            tracing::debug!(%peer, error = %e, "WebSocket upgrade failed");
            return;
        }
        Err(_) => {
            tracing::debug!(%peer, "WebSocket upgrade timed out");
            return;
        }
    };
    let Some(class) = class else { return };
    let connection = shared.next_connection.fetch_add(1, Ordering::Relaxed);
    Connection::run(shared, ws, class, peer, connection).await;
}

/// What a connection is, once its handshake passed.
#[derive(Clone)]
enum Peer {
    Extension,
    Client {
        client_id: String,
        /// The `owner` stamped on this client's requests: its `hello.owner`, else `client_id`.
        owner: String,
        /// v1 (no `protocolVersion` in `hello`) or v4: decides the result shapes (SPEC §9).
        dialect: ClientDialect,
    },
}

/// A subscriber's bounded event buffer (SPEC §9 event stream): the forwarder pushes without ever
/// waiting, dropping the oldest event when full; the connection's writer sends events only when no
/// response is waiting, so a subscriber that reads slowly never delays anyone's requests.
struct EventQueue {
    state: Mutex<EventQueueState>,
    ready: tokio::sync::Notify,
    capacity: usize,
}

#[derive(Default)]
struct EventQueueState {
    events: std::collections::VecDeque<Value>,
    /// Dropped since the last event this subscriber was sent.
    dropped: u64,
}

impl EventQueue {
    fn new(capacity: usize) -> Self {
        EventQueue {
            state: Mutex::new(EventQueueState::default()),
            ready: tokio::sync::Notify::new(),
            capacity: capacity.max(1),
        }
    }

    /// Queues `event`; returns how many older events were dropped to make room (0 or 1).
    fn push(&self, event: Value) -> u64 {
        let mut state = lock(&self.state);
        let mut dropped = 0;
        while state.events.len() >= self.capacity {
            state.events.pop_front();
            dropped += 1;
        }
        state.dropped += dropped;
        state.events.push_back(event);
        drop(state);
        self.ready.notify_one();
        dropped
    }

    /// Counts `n` events lost before they reached this queue (broadcast lag).
    fn lost(&self, n: u64) {
        lock(&self.state).dropped += n;
    }

    /// The next event frame: `{"type":"event","event":{…}}`, with `"dropped":N` when events were
    /// dropped since the previous one.
    fn pop_frame(&self) -> Option<Message> {
        let mut state = lock(&self.state);
        let event = state.events.pop_front()?;
        let dropped = std::mem::take(&mut state.dropped);
        drop(state);
        let frame = if dropped > 0 {
            json!({"type": "event", "event": event, "dropped": dropped})
        } else {
            json!({"type": "event", "event": event})
        };
        Some(Message::text(frame.to_string()))
    }
}

struct Connection {
    shared: Arc<Shared>,
    tx: mpsc::Sender<Message>,
    id: u64,
    peer: SocketAddr,
    /// Cancelled when the connection ends, so helper tasks (event forwarding) stop with it.
    closed: CancellationToken,
    /// Whether `subscribe_events` already started a forwarder on this connection.
    subscribed: std::sync::atomic::AtomicBool,
    /// This connection's event buffer (used once it subscribed).
    events: Arc<EventQueue>,
}

impl Connection {
    async fn run(
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

    async fn send(&self, message: Message) {
        if self.tx.send(message).await.is_err() {
            tracing::debug!(peer = %self.peer, "dropped an outbound message: connection closed");
        }
    }

    async fn reject(&self, code: ErrorCode, message: String) {
        tracing::warn!(peer = %self.peer, code = code.as_str(), %message, "handshake rejected");
        self.send_reject(code, message).await;
    }

    /// [`Self::reject`] without the warning, for a refusal that is part of normal operation.
    async fn send_reject(&self, code: ErrorCode, message: String) {
        Counters::bump(&self.shared.counters.rejects);
        let reason = format!("{}: {}", code.as_str(), message);
        self.send(to_text(&ToExtension::Reject(Reject {
            error: ErrorBody::new(code, message),
        })))
        .await;
        self.send(close_message(CloseCode::Policy, &reason)).await;
    }

    /// Reads `hello` and answers `ack` or `reject`; `None` means the connection is over.
    async fn handshake(
        &self,
        stream: &mut futures_util::stream::SplitStream<WebSocketStream<TcpStream>>,
        class: &OriginClass,
    ) -> Option<Peer> {
        let text = loop {
            match tokio::time::timeout(HANDSHAKE_TIMEOUT, stream.next()).await {
                Err(_) => {
                    self.send(close_message(CloseCode::Policy, "no hello within 10 s"))
                        .await;
                    return None;
                }
                Ok(None) | Ok(Some(Err(_))) => return None,
                Ok(Some(Ok(Message::Text(text)))) => break text,
                Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
                Ok(Some(Ok(Message::Close(_)))) => return None,
                Ok(Some(Ok(_))) => {
                    self.reject(
                        ErrorCode::InvalidAction,
                        "the first frame must be a JSON text `hello`".into(),
                    )
                    .await;
                    return None;
                }
            }
        };
        let hello = match bua_protocol::parse_from_extension(text.as_str()) {
            Ok(FromExtension::Hello(hello)) => hello,
            Ok(_) => {
                self.reject(
                    ErrorCode::InvalidAction,
                    "the first frame must be `hello`".into(),
                )
                .await;
                return None;
            }
            Err(frame) => {
                // A hello with a bad field is named as such; anything else was not a hello.
                let message = if frame.error.message.starts_with("hello: ") {
                    format!("bad {}", frame.error.message)
                } else {
                    format!("the first frame must be `hello`: {}", frame.error.message)
                };
                self.reject(ErrorCode::InvalidAction, message).await;
                return None;
            }
        };
        let config = &self.shared.config;
        let expected_role = match class {
            OriginClass::Native => Role::Client,
            OriginClass::Extension(_) => Role::Extension,
        };
        if hello.role != expected_role {
            self.reject(
                ErrorCode::Unauthorized,
                format!(
                    "role `{}` is not allowed from {}: the extension role needs Origin chrome-extension://<id>, the client role no Origin",
                    role_name(&hello.role),
                    class.describe()
                ),
            )
            .await;
            return None;
        }
        let range = config.min_protocol_version..=PROTOCOL_VERSION;
        let version = match (&hello.role, hello.protocol_version) {
            (_, Some(v)) => v,
            // v1-bridge clients send no version; they speak the client envelope, which has no version.
            (Role::Client, None) => PROTOCOL_VERSION,
            (Role::Extension, None) => 0,
        };
        if !range.contains(&version) {
            self.reject(
                ErrorCode::ProtocolVersionMismatch,
                format!(
                    "protocol version {version} is not supported: this bua-bridge {} accepts {}..={}; upgrade the older side",
                    crate::SERVER_VERSION,
                    range.start(),
                    range.end()
                ),
            )
            .await;
            return None;
        }
        let token_ok = hello
            .token
            .as_deref()
            .is_some_and(|t| crate::token::matches(&config.token, t));
        if !token_ok {
            let what = if hello.token.as_deref().is_none_or(str::is_empty) {
                "missing pairing token"
            } else {
                "wrong pairing token"
            };
            let fix = match class {
                OriginClass::Native => "pass the bridge's token with --token, $BUA_TOKEN or --token-file (default ~/.config/bua/token)",
                OriginClass::Extension(_) => "paste the token printed by `bua-bridge serve` (or in ~/.config/bua/token) into the extension's options",
            };
            let message = format!("{what}: {fix}");
            if hello.token.as_deref().is_none_or(str::is_empty)
                && matches!(class, OriginClass::Extension(_))
            {
                // An extension that was never paired tries once without a token; `launch` pairs it right
                // after, `serve` waits for the user to paste the token. Neither is a fault.
                tracing::info!(
                    peer = %self.peer,
                    "the extension connected before it was paired (no pairing token yet); it connects again once it has the token"
                );
                self.send_reject(ErrorCode::Unauthorized, message).await;
            } else {
                self.reject(ErrorCode::Unauthorized, message).await;
            }
            return None;
        }
        match class {
            OriginClass::Native => {
                let client_id = format!("cli-{}", short_uuid());
                Counters::bump(&self.shared.counters.client_acks);
                self.send(to_text(&ToExtension::Ack(Ack {
                    protocol_version: PROTOCOL_VERSION,
                    server_version: crate::SERVER_VERSION.to_string(),
                    client_id: Some(client_id.clone()),
                })))
                .await;
                // A v1-bridge hello carries no protocol version (SPEC §2): that client reads the
                // v1 result keys too.
                let dialect = if hello.protocol_version.is_some() {
                    ClientDialect::V4
                } else {
                    ClientDialect::V1
                };
                // Separate connections of one agent (one CLI run per command) share its owner.
                let owner = hello.owner.clone().unwrap_or_else(|| client_id.clone());
                tracing::info!(peer = %self.peer, %client_id, %owner, name = ?hello.name, ?dialect, "client connected");
                owner_connected(&self.shared, &owner);
                Some(Peer::Client {
                    client_id,
                    owner,
                    dialect,
                })
            }
            OriginClass::Extension(extension_id) => {
                Counters::bump(&self.shared.counters.extension_acks);
                self.send(to_text(&ToExtension::Ack(Ack {
                    protocol_version: PROTOCOL_VERSION,
                    server_version: crate::SERVER_VERSION.to_string(),
                    client_id: None,
                })))
                .await;
                let info = ExtensionInfo {
                    connection: self.id,
                    extension_id: extension_id.clone(),
                    name: hello.name.clone(),
                    extension_version: hello.extension_version.clone(),
                    protocol_version: version,
                };
                self.install_extension(info).await;
                Some(Peer::Extension)
            }
        }
    }

    /// Makes this connection the extension; a previous one is closed with [`CLOSE_REPLACED`].
    async fn install_extension(&self, info: ExtensionInfo) {
        tracing::info!(peer = %self.peer, extension_id = %info.extension_id, name = ?info.name,
            version = ?info.extension_version, connection = self.id, "extension connected");
        let previous = lock(&self.shared.extension).replace(ExtensionSlot {
            info: info.clone(),
            tx: self.tx.clone(),
        });
        self.shared.extension_state.send_replace(Some(info));
        adopt_agent_owners(&self.shared);
        if let Some(old) = previous {
            tracing::info!(
                connection = old.info.connection,
                "closing the older extension connection"
            );
            fail_pending(
                &self.shared,
                Some(old.info.connection),
                ErrorCode::NoExtension,
                "the extension connection was replaced by a newer one before it answered; send the action again",
            );
            let _ = old
                .tx
                .send(close_message(
                    CloseCode::from(CLOSE_REPLACED),
                    "replaced by a newer extension connection",
                ))
                .await;
        }
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
            "the extension disconnected before answering (service worker stopped or browser closed); it reconnects by itself — send the action again",
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
                self.send(to_text(&ClientResponse::Ok {
                    id,
                    result: json!({"pong": true}),
                }))
                .await
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
    async fn subscribe_events(&self, id: String) {
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

/// v1 `new_tab {url}` answers `{tab_id, url, title, active}` for the *loaded* page, but `open_tab`
/// answers `{tabId, windowId, domain}` as soon as the tab exists. So the bridge opens the agent tab
/// on `about:blank`, then `navigate`s it (which waits for the load, SPEC §4) and reads `active`
/// from `get_tabs`. A navigation that fails (e.g. `domain_blocked`) closes the blank tab again and
/// returns the navigation's error.
async fn v1_new_tab(
    shared: &Arc<Shared>,
    owner: &str,
    action: Action,
) -> std::result::Result<Value, ErrorBody> {
    let Action::OpenTab(open) = action else {
        return dispatch(shared, owner, action).await;
    };
    let url = open.url.clone();
    let blank = url == "about:blank";
    let opened = dispatch(
        shared,
        owner,
        Action::OpenTab(bua_protocol::OpenTab {
            url: "about:blank".into(),
            focus: open.focus,
            load_wait_ms: None,
        }),
    )
    .await?;
    let Some(tab_id) = opened.get("tabId").and_then(Value::as_i64) else {
        return Ok(opened);
    };
    let mut result = opened;
    if !blank {
        let navigate = Action::Navigate(bua_protocol::Navigate {
            url,
            tab_id: Some(tab_id),
            dialog: Default::default(),
            load_wait_ms: open.load_wait_ms,
        });
        match dispatch(shared, owner, navigate).await {
            Ok(nav) => {
                if let (Value::Object(m), Value::Object(n)) = (&mut result, nav) {
                    for key in ["url", "title"] {
                        if let Some(v) = n.get(key) {
                            m.insert(key.to_string(), v.clone());
                        }
                    }
                    if let Some(domain) = m
                        .get("url")
                        .and_then(Value::as_str)
                        .and_then(|u| url::Url::parse(u).ok())
                        .and_then(|u| u.host_str().map(str::to_string))
                    {
                        m.insert("domain".into(), Value::String(domain));
                    }
                }
            }
            Err(e) => {
                let close = Action::CloseTab(bua_protocol::TabOnly {
                    tab_id: Some(tab_id),
                    dialog: Default::default(),
                });
                if let Err(close_error) = dispatch(shared, owner, close).await {
                    tracing::debug!(%tab_id, error = %close_error, "new_tab: closing the blank tab failed");
                }
                return Err(e);
            }
        }
    }
    if let Ok(tabs) = dispatch(shared, owner, Action::GetTabs).await {
        let tab = tabs
            .get("tabs")
            .and_then(Value::as_array)
            .and_then(|tabs| {
                tabs.iter()
                    .find(|t| t.get("tabId").and_then(Value::as_i64) == Some(tab_id))
            })
            .cloned();
        if let (Some(tab), Value::Object(m)) = (tab, &mut result) {
            for key in ["url", "title", "active"] {
                if let Some(v) = tab.get(key) {
                    // The navigation's url/title are the loaded page's; keep them.
                    m.entry(key.to_string()).or_insert_with(|| v.clone());
                }
            }
        }
    }
    Ok(result)
}

fn role_name(role: &Role) -> &'static str {
    match role {
        Role::Extension => "extension",
        Role::Client => "client",
    }
}

/// `cli-` ids use the first 8 hex digits of a UUIDv4.
/// Counts a new connection of `owner` (which cancels a grace timer running for it).
fn owner_connected(shared: &Shared, owner: &str) {
    let mut owners = lock(&shared.owners);
    let live = owners.entry(owner.to_owned()).or_default();
    live.connections += 1;
    live.connects += 1;
}

/// Counts a connection of `owner` gone; when it was its last, starts the grace timer
/// ([`ServerConfig::agent_grace`]).
fn owner_disconnected(shared: &Arc<Shared>, owner: &str) {
    let connects = {
        let mut owners = lock(&shared.owners);
        let Some(live) = owners.get_mut(owner) else {
            return;
        };
        live.connections = live.connections.saturating_sub(1);
        if live.connections > 0 {
            return;
        }
        live.connects
    };
    start_grace(shared, owner, connects);
}

/// After [`ServerConfig::agent_grace`], closes `owner`'s agent tabs and window unless it connected
/// again since its connect count was `connects` (SPEC §6). The extension ends their sessions as for
/// any closed agent tab (`tab_closed`, with their audit rows).
fn start_grace(shared: &Arc<Shared>, owner: &str, connects: u64) {
    let Some(grace) = shared.config.agent_grace else {
        return;
    };
    let (shared, owner) = (shared.clone(), owner.to_owned());
    tokio::spawn(async move {
        tokio::select! {
            _ = shared.shutdown.cancelled() => return,
            _ = tokio::time::sleep(grace) => {}
        }
        {
            let mut owners = lock(&shared.owners);
            match owners.get(&owner) {
                // Back meanwhile, or already closed by an earlier timer.
                Some(live) if live.connections > 0 || live.connects != connects => return,
                None => return,
                Some(_) => owners.remove(&owner),
            };
        }
        tracing::info!(%owner, grace_s = grace.as_secs_f64(), "agent owner gone for the grace period: closing its agent tabs and window");
        let owned = Some(owner.clone());
        let closes = [
            Action::CloseAgentTabs(bua_protocol::OwnerOnly {
                owner: owned.clone(),
            }),
            Action::CloseAgentWindow(bua_protocol::OwnerOnly { owner: owned }),
        ];
        for close in closes {
            let name = close.name();
            if let Err(e) = dispatch(&shared, &owner, close).await {
                tracing::warn!(%owner, action = name, error = %e.message, "could not close a gone agent's tabs");
            }
        }
    });
}

/// Starts the grace timer for every agent owner the extension has tabs for but no client of this
/// bridge is connected as: the owners of a bridge that went away (a takeover, SPEC §9) or of a
/// bridge restart are cleaned up too.
fn adopt_agent_owners(shared: &Arc<Shared>) {
    if shared.config.agent_grace.is_none() {
        return;
    }
    let shared = shared.clone();
    tokio::spawn(async move {
        let Ok(tabs) = dispatch(&shared, BRIDGE_OWNER, Action::GetTabs).await else {
            return;
        };
        let mut seen = std::collections::BTreeSet::new();
        for tab in tabs
            .get("tabs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(owner) = tab.get("agentOwner").and_then(Value::as_str) {
                seen.insert(owner.to_owned());
            }
        }
        for owner in seen {
            let connects = {
                let mut owners = lock(&shared.owners);
                let live = owners.entry(owner.clone()).or_default();
                if live.connections > 0 {
                    continue;
                }
                live.connects
            };
            start_grace(&shared, &owner, connects);
        }
    });
}

fn short_uuid() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..8].to_string()
}

/// Forwards one action to the current extension and waits for its answer or its timeout.
async fn dispatch(
    shared: &Arc<Shared>,
    owner: &str,
    mut action: Action,
) -> std::result::Result<Value, ErrorBody> {
    // An upload's files are read here, before any extension is asked, so a refused path costs nothing.
    let upload = match &action {
        Action::Upload(u) if u.staged.is_some() => {
            return Err(ErrorBody::invalid(
                "upload: staged: set by the bridge only; give the files as paths in `files`",
            ))
        }
        Action::Upload(u) => Some(crate::files::read(&u.files, &shared.config.files_dirs).await?),
        _ => None,
    };
    let Some((connection, tx)) = current_extension(shared).await else {
        let wait = shared.config.extension_wait;
        let waited = if wait.is_zero() {
            String::new()
        } else {
            format!(
                " (none connected within {} s of the bridge's start or the extension's last disconnect)",
                wait.as_secs_f64()
            )
        };
        return Err(ErrorBody::new(
            ErrorCode::NoExtension,
            format!("no extension is connected to the bridge{waited}: open Chrome with the BUA extension and pair it with the token printed by `bua-bridge serve`"),
        ));
    };
    let id = uuid::Uuid::new_v4().to_string();
    if let (Some(files), Action::Upload(u)) = (&upload, &mut action) {
        u.staged = Some(id.clone());
        for chunk in crate::files::chunks(&id, files) {
            if tx
                .send(to_text(&ToExtension::FileChunk(chunk)))
                .await
                .is_err()
            {
                return Err(ErrorBody::new(
                    ErrorCode::NoExtension,
                    "the extension disconnected while the upload's files were sent; send the action again",
                ));
            }
        }
    }
    drop(upload);
    let name = action.name();
    let limit = action.timeout();
    let (reply, answer) = oneshot::channel();
    lock(&shared.pending).insert(
        id.clone(),
        Pending {
            connection,
            action: name,
            started: Instant::now(),
            reply,
        },
    );
    let frame = to_text(&ToExtension::Request(Request {
        id: id.clone(),
        owner: Some(owner.to_string()),
        action,
    }));
    if tx.send(frame).await.is_err() {
        lock(&shared.pending).remove(&id);
        return Err(ErrorBody::new(
            ErrorCode::NoExtension,
            "the extension disconnected before the request could be sent; send the action again",
        ));
    }
    match tokio::time::timeout(limit, answer).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(_)) => Err(ErrorBody::new(
            ErrorCode::InternalError,
            "the bridge dropped the request without an answer",
        )),
        Err(_) => {
            lock(&shared.pending).remove(&id);
            tracing::warn!(%id, action = name, ms = millis(limit), "request timed out");
            Err(ErrorBody::new(
                ErrorCode::Timeout,
                format!(
                    "`{name}` got no answer from the extension within {} ms; check the page state (extract) before retrying",
                    millis(limit)
                ),
            ))
        }
    }
}

/// The connected extension's connection id and queue. With none connected, waits for one until
/// [`ServerConfig::extension_wait`] after the server's start or the last extension disconnect
/// (whichever is later); `None` when none came by then or the server shuts down.
async fn current_extension(shared: &Shared) -> Option<(u64, mpsc::Sender<Message>)> {
    let now = || {
        lock(&shared.extension)
            .as_ref()
            .map(|slot| (slot.info.connection, slot.tx.clone()))
    };
    if let Some(found) = now() {
        return Some(found);
    }
    let deadline = *lock(&shared.extension_expected_since) + shared.config.extension_wait;
    if Instant::now() >= deadline {
        return None;
    }
    let mut state = shared.extension_state.subscribe();
    let arrived = async {
        loop {
            if let Some(found) = now() {
                return Some(found);
            }
            if state.changed().await.is_err() {
                return None;
            }
        }
    };
    tracing::debug!("no extension connected: waiting for one");
    tokio::select! {
        found = tokio::time::timeout_at(deadline.into(), arrived) => found.ok().flatten(),
        _ = shared.shutdown.cancelled() => None,
    }
}

/// Fails every pending request sent on `connection` (all of them when `None`).
fn fail_pending(shared: &Shared, connection: Option<u64>, code: ErrorCode, message: &str) {
    let failed: Vec<Pending> = {
        let mut pending = lock(&shared.pending);
        let ids: Vec<String> = pending
            .iter()
            .filter(|(_, p)| connection.is_none_or(|c| p.connection == c))
            .map(|(id, _)| id.clone())
            .collect();
        ids.iter().filter_map(|id| pending.remove(id)).collect()
    };
    for p in failed {
        tracing::info!(action = p.action, "failing a pending request: {message}");
        let _ = p.reply.send(Err(ErrorBody::new(code, message)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(m: Option<Message>) -> Value {
        match m {
            Some(Message::Text(t)) => serde_json::from_str(t.as_str()).unwrap_or(Value::Null),
            other => panic!("expected a text frame, got {other:?}"),
        }
    }

    #[test]
    fn a_full_event_queue_drops_the_oldest_and_the_next_frame_says_how_many() {
        let q = EventQueue::new(3);
        for n in 1..=5 {
            let dropped = q.push(json!({"type": "tab_closed", "tabId": n}));
            assert_eq!(dropped, u64::from(n > 3), "push {n}");
        }
        // 1 and 2 were dropped; 3, 4, 5 are kept in order, the first carrying the count.
        assert_eq!(
            frame(q.pop_frame()),
            json!({"type": "event", "event": {"type": "tab_closed", "tabId": 3}, "dropped": 2})
        );
        assert_eq!(
            frame(q.pop_frame()),
            json!({"type": "event", "event": {"type": "tab_closed", "tabId": 4}})
        );
        q.lost(7);
        assert_eq!(
            frame(q.pop_frame()),
            json!({"type": "event", "event": {"type": "tab_closed", "tabId": 5}, "dropped": 7})
        );
        assert!(q.pop_frame().is_none());
    }

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

    #[test]
    fn a_zero_capacity_queue_still_keeps_the_newest_event() {
        let q = EventQueue::new(0);
        q.push(json!({"n": 1}));
        q.push(json!({"n": 2}));
        assert_eq!(
            frame(q.pop_frame()),
            json!({"type": "event", "event": {"n": 2}, "dropped": 1})
        );
    }
}
