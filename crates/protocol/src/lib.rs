//! `bua_protocol`: the contract between the BUA Browser Bridge extension (Rust → WASM, in Chrome)
//! and the `bua-bridge` server/CLI (native), as serde types — protocol v4 of SPEC §2–§9.
//!
//! The schema *is* the API: every message is a type here, and both sides validate every inbound
//! frame with this crate ([`parse_to_extension`], [`parse_from_extension`],
//! [`parse_client_request`], [`Action::from_value`]). Validation errors are
//! [`ErrorCode::InvalidAction`] with a message that names the offending field; nothing here panics
//! on input. The action union's JSON Schema ([`json_schema`]) feeds `bua-bridge schema` and the MCP
//! tool's `inputSchema`. The crate has no tokio or wasm dependencies, so it compiles for
//! `wasm32-unknown-unknown` and natively.
//!
//! Layout: [`error`](ErrorCode) codes and bodies, the handshake ([`Hello`], [`Ack`], [`Reject`]),
//! the bridge ↔ extension envelope ([`ToExtension`], [`FromExtension`]), actions and locators
//! ([`Action`], [`Locator`]), typed results ([`ExtractResult`], …), events ([`Event`]) and the
//! v1-bridge client envelope ([`ClientRequest`], [`ClientResponse`]).

mod action;
mod client;
mod envelope;
mod error;
mod event;
mod handshake;
mod locator;
mod result;
mod schema;
mod wire;

pub use action::*;
pub use client::*;
pub use envelope::*;
pub use error::*;
pub use event::*;
pub use handshake::*;
pub use locator::*;
pub use result::*;
pub use schema::*;

/// The protocol version this crate speaks (SPEC §2).
pub const PROTOCOL_VERSION: u32 = 4;
/// The oldest protocol version a server accepts (`requiredMinProtocolVersion`, SPEC §2).
pub const MIN_PROTOCOL_VERSION: u32 = 4;
/// The largest frame either side accepts, bytes (SPEC §3: 16 MiB).
pub const MAX_FRAME_BYTES: usize = 16 * 1024 * 1024;
