//! The server's settings ([`ServerConfig`]) and limits, and what it reports: the connected
//! extension ([`ExtensionInfo`]) and its counters ([`Stats`]).

use std::net::SocketAddr;
use std::time::Duration;

use bua_protocol::MIN_PROTOCOL_VERSION;

/// How long a connection may take from TCP accept to a completed upgrade, and from the upgrade to
/// its `hello` (10 s each).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Capacity of each connection's outbound queue (messages); senders wait when it is full.
pub(super) const OUTBOUND_QUEUE: usize = 1024;

/// Capacity of the event broadcast buffer (events). Each subscriber's forwarder drains it at once
/// into its own [`ServerConfig::subscriber_buffer`], so it only lags when a forwarder task is starved.
pub(super) const EVENT_BUFFER: usize = 1024;

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
    /// The person's secrets file (`--secrets`, default `~/.config/bua/secrets`; SPEC §4 "Secrets"), read at
    /// each `type {secret}`; `None`: secrets are refused.
    pub secrets: Option<std::path::PathBuf>,
    /// Actions the person turned off for agents (`--no-evaluate`, `--no-upload`, SPEC §10): refused with
    /// `not_allowed` before the extension is asked.
    pub switched_off: Vec<&'static str>,
    /// The sites agents may open (`--allow SITE`, SPEC §10); empty: no allowlist. Sent to the extension in
    /// its `ack`, which enforces it as it does the blocklist.
    pub allow: Vec<String>,
}

impl ServerConfig {
    /// The controls the extension's `ack` carries (SPEC §10), `None` when there are none.
    pub fn controls(&self) -> Option<bua_protocol::AckControls> {
        let controls = bua_protocol::AckControls {
            allow: self.allow.clone(),
            off: self.switched_off.iter().map(|a| a.to_string()).collect(),
        };
        (controls != bua_protocol::AckControls::default()).then_some(controls)
    }

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
            secrets: None,
            switched_off: Vec::new(),
            allow: Vec::new(),
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
