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
//!
//! This module holds the configuration, the shared state and the [`ServerHandle`]; one room each
//! for accepting connections (`accept`), the `hello` handshake (`handshake`), a connection's frames
//! (`connection`), the pending pool that routes actions to the extension (`pending`), the event
//! stream (`events`), agent owners' grace and takeover (`owners`), v1 `new_tab` (`v1`) and frame
//! helpers (`frames`).

mod accept;
mod connection;
mod events;
mod frames;
mod handshake;
mod owners;
mod pending;
mod v1;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bua_protocol::{Action, ErrorBody, ErrorCode, MAX_FRAME_BYTES, MIN_PROTOCOL_VERSION};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

use crate::error::{Error, Result};
use accept::accept_loop;
use frames::millis;
use pending::{dispatch, fail_pending};

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
