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
mod config;
mod connection;
mod events;
mod frames;
mod handshake;
mod owners;
mod pending;
mod state;
mod v1;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bua_protocol::{Action, ErrorBody, ErrorCode};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::error::{Error, Result};
use accept::accept_loop;
use config::EVENT_BUFFER;
pub use config::{
    ExtensionInfo, ServerConfig, Stats, BRIDGE_OWNER, CLOSE_REPLACED, DEFAULT_AGENT_GRACE,
    DEFAULT_EXTENSION_WAIT, DEFAULT_SUBSCRIBER_BUFFER, HANDSHAKE_TIMEOUT,
};
use frames::millis;
pub use frames::websocket_config;
use pending::{dispatch, fail_pending};
use state::{Counters, Shared};

/// A running server. Dropping it does not stop the server; call [`ServerHandle::shutdown`].
pub struct ServerHandle {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept_task: JoinHandle<()>,
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
