//! `bua_protocol`: the contract between the BUA Browser Bridge extension (Rust → WASM, in Chrome)
//! and the `bua-bridge` server/CLI (native), as serde types — protocol v4 of SPEC §2–§9.
//!
//! The schema *is* the API: every message is a type here, and both sides validate every inbound
//! frame with this crate ([`parse_to_extension`], [`parse_from_extension`],
//! [`parse_client_request`], [`Action::from_value`]). Validation errors are
//! [`ErrorCode::InvalidAction`] with a message that names the offending field; nothing here panics
//! on input, and frames over [`MAX_FRAME_BYTES`] are refused. The action union's JSON Schema
//! ([`json_schema`]) feeds `bua-bridge schema` and the MCP tool's `inputSchema`; the details an agent asks for
//! with the tool's `help` ([`action_help`], [`errors_help`]) are rendered from the same action table. The crate has no
//! tokio or wasm dependencies, so it compiles for `wasm32-unknown-unknown` and natively.
//!
//! Layout: error codes and bodies ([`ErrorCode`], [`ErrorBody`]); the handshake ([`Hello`],
//! [`Ack`], [`Reject`]); the bridge ↔ extension envelope ([`ToExtension`], [`FromExtension`]);
//! actions and locators ([`Action`], [`Locator`], per-action timeouts in [`Action::timeout`]);
//! typed results ([`ExtractResult`], [`EvaluateResult`], …); events ([`Event`], [`EndReason`]);
//! the v1-bridge client envelope ([`ClientRequest`], [`ClientResponse`], [`ToClient`]) with the
//! v1 method and parameter aliases ([`client_action`], [`client_result`]).
//!
//! ```
//! use bua_protocol::*;
//! use serde_json::json;
//!
//! // The bridge sends a request; the extension validates it…
//! let click = Action::Click(Click { locator: Locator::uid("e7"), tab_id: Some(12), new_tab: false, dialog: DialogPolicy::default() });
//! let frame = json!({"type": "request", "id": "r1", "owner": "cli-1", "action": click.to_value()});
//! let ToExtension::Request(req) = parse_to_extension(&frame.to_string()).unwrap() else { unreachable!() };
//! assert_eq!(req.action, click);
//! assert_eq!(req.action.timeout(), std::time::Duration::from_secs(10));
//!
//! // …and answers it.
//! let reply = FromExtension::Response(Response::ok(req.id, json!({"tabId": 12})));
//! assert_eq!(reply.to_json(), r#"{"type":"response","id":"r1","result":{"tabId":12}}"#);
//!
//! // A malformed action is refused with invalid_action naming the field, keeping the id.
//! let mut bad = click.to_value();
//! bad["index"] = json!(1);
//! let frame = json!({"type": "request", "id": "r2", "action": bad});
//! let err = parse_to_extension(&frame.to_string()).unwrap_err();
//! assert_eq!(err.id.as_deref(), Some("r2"));
//! assert_eq!(err.error.code, ErrorCode::InvalidAction);
//! assert!(err.error.message.contains("index: not allowed with uid"));
//! ```

#![warn(missing_docs)]

mod action;
mod changes;
mod client;
mod envelope;
mod error;
mod event;
mod field;
mod handshake;
#[cfg(feature = "schema")]
mod help;
mod locator;
mod result;
#[cfg(feature = "schema")]
mod schema;
pub mod secret;
pub mod text;
mod v1;
mod wire;

pub use action::*;
pub use changes::*;
pub use client::*;
pub use envelope::*;
pub use error::*;
pub use event::*;
pub use handshake::*;
#[cfg(feature = "schema")]
pub use help::*;
pub use locator::*;
pub use result::*;
#[cfg(feature = "schema")]
pub use schema::*;
pub use v1::{
    client_action, client_result, client_result_for, is_v1_method, v4_method, ClientDialect,
    V1_SERIALIZE,
};

/// The protocol version this crate speaks (SPEC §2).
pub const PROTOCOL_VERSION: u32 = 4;
/// The oldest protocol version a server accepts (`requiredMinProtocolVersion`, SPEC §2).
pub const MIN_PROTOCOL_VERSION: u32 = 4;
/// The largest frame either side accepts, bytes (SPEC §3: 16 MiB).
pub const MAX_FRAME_BYTES: usize = 16 * 1024 * 1024;
