//! The state every connection of one server shares: the extension slot, the pending pool, the
//! event broadcast, the counters and the agent owners' liveness.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use bua_protocol::ErrorBody;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

use super::config::{ExtensionInfo, ServerConfig, Stats};

#[derive(Default)]
pub(super) struct Counters {
    pub(super) upgrade_requests: AtomicU64,
    pub(super) refused_origins: AtomicU64,
    pub(super) extension_upgrades: AtomicU64,
    pub(super) extension_acks: AtomicU64,
    pub(super) client_acks: AtomicU64,
    pub(super) rejects: AtomicU64,
    pub(super) invalid_frames: AtomicU64,
    pub(super) late_responses: AtomicU64,
    pub(super) dropped_events: AtomicU64,
}

impl Counters {
    pub(super) fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn snapshot(&self) -> Stats {
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
pub(super) struct ExtensionSlot {
    pub(super) info: ExtensionInfo,
    pub(super) tx: mpsc::Sender<Message>,
}

/// A request forwarded to the extension and not answered yet.
pub(super) struct Pending {
    /// Which extension connection it was sent on (its requests fail when that connection goes).
    pub(super) connection: u64,
    /// The action type, for logs.
    pub(super) action: &'static str,
    pub(super) started: Instant,
    pub(super) reply: oneshot::Sender<std::result::Result<Value, ErrorBody>>,
}

pub(super) struct Shared {
    pub(super) config: ServerConfig,
    pub(super) extension: Mutex<Option<ExtensionSlot>>,
    pub(super) pending: Mutex<HashMap<String, Pending>>,
    pub(super) events: broadcast::Sender<Value>,
    pub(super) extension_state: watch::Sender<Option<ExtensionInfo>>,
    /// When an extension was last expected: the server's start, then each extension disconnect
    /// (the start of [`ServerConfig::extension_wait`]'s window).
    pub(super) extension_expected_since: Mutex<Instant>,
    pub(super) counters: Counters,
    pub(super) next_connection: AtomicU64,
    pub(super) shutdown: CancellationToken,
    /// Live client connections per agent owner, and a count bumped on every connect, so a grace
    /// timer can tell that its owner came back meanwhile ([`ServerConfig::agent_grace`]).
    pub(super) owners: Mutex<HashMap<String, OwnerLiveness>>,
}

#[derive(Default)]
pub(super) struct OwnerLiveness {
    pub(super) connections: usize,
    pub(super) connects: u64,
}

/// Locks a mutex, recovering the data if a panicking thread poisoned it (the maps stay consistent:
/// every critical section is a single insert/remove/replace).
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
