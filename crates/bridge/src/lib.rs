//! `bua-bridge` is the native end of BUA Browser Bridge (SPEC §1, §2, §3, §9).
//!
//! The Chrome extension connects to it as a WebSocket *client* with role `extension`; local programs
//! (the CLI, the MCP server, agent programs, the end-to-end tests) connect with role `client` and speak
//! the v1-bridge envelope `{"id","method","params"}`. The bridge checks every upgrade's `Origin`, runs
//! the `hello` → `ack` | `reject` handshake (version range and pairing token), stamps each client's
//! requests with its `clientId` as `owner`, gives every forwarded action a UUIDv4 request id and a
//! per-action timeout, and routes the extension's responses back to the caller.
//!
//! Modules:
//! * [`server`] — the WebSocket server (`bua-bridge serve`), usable in-process.
//! * [`client`] — [`client::BridgeClient`], the client library used by the CLI, the MCP server and the tests.
//! * [`devtools`] — a small Chrome DevTools Protocol client over the browser's DevTools WebSocket.
//! * [`launch`] — `bua-bridge launch`: server + Chromium with the unpacked extension, paired automatically.
//! * [`files`] — the files of an `upload`: allowed folders, reading, `file_chunk` frames.
//! * [`mcp`] — `bua-bridge mcp`: an MCP server on stdio with one `browser` tool (rmcp).
//! * `bua_protocol::text` — results as text for a model (the MCP `extract` result), shared with the extension.
//! * [`cli`] — the friendly client subcommands (`tabs`, `open`, `extract`, `click`, …) as functions.
//! * [`origin`], [`token`] — the pure rules of SPEC §2 (Origin classes, extension ids, pairing tokens).
//! * [`site`] — the static file server of the demo site, the benchmark's pages and the tests' fixtures.
//! * [`demo`] — `bua-bridge demo`: the main job end to end on the bundled site.
//! * [`setup`] — a person's machine: `install`/`uninstall`, the skill file, MCP host snippets (SPEC §11).
//!
//! All fallible functions return [`Error`]; protocol-level failures carry the SPEC §8 error code.

pub mod cli;
pub mod client;
pub mod demo;
pub mod devtools;
pub mod error;
pub mod files;
pub mod launch;
pub mod mcp;
pub mod origin;
pub mod secrets;
pub mod server;
pub mod setup;
pub mod site;
pub mod token;

pub use client::BridgeClient;
pub use error::{ClientError, Error, Result};
pub use server::{ServerConfig, ServerHandle};

/// The bridge's default port on 127.0.0.1 (the v1 bridge's; the extension's default backend URL is
/// `ws://127.0.0.1:9225`, SPEC §2).
pub const DEFAULT_PORT: u16 = 9225;

/// The bridge's own version, sent as `serverVersion` in `ack` (SPEC §2).
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");
