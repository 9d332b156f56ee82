//! The client side of the command line (SPEC §9): `call` and the friendly subcommands people reach
//! for (`tabs`, `open`, `navigate`, `extract`, `click`, `type`, `eval`, `screenshot`, `events`).
//!
//! Each friendly subcommand is one request: [`Request`] says which method with which params, and
//! how its result is printed ([`Output`]). Output is JSON on stdout (one line; `--pretty` indents);
//! a failure prints `{"code":"…","error":"…"}` on stdout and the process exits with status 1. The
//! codes are SPEC §8's, plus the client-side [`BRIDGE_UNREACHABLE`] when no bridge answers. When
//! stdout is closed early (`bua-bridge tabs | head -c 10`) the process ends quietly with
//! [`BROKEN_PIPE_EXIT`].
//!
//! Every invocation is a new connection, so all of them say `hello` with one stable agent owner
//! ([`DEFAULT_OWNER`], or `--owner` / `$BUA_OWNER`): `open` twice puts both tabs in one agent
//! window, and `call close_agent_tabs` closes them (SPEC §2 client `hello` `owner`, §6, §9).
//!
//! The pure parts (params, locators, owners, image formats, rendering) are plain functions with
//! unit tests. This module holds the connection, the owner and the [`Failure`]; what a subcommand
//! asks is in `request`, how its result is printed in `render`, and running it in `run`.

mod connection;
mod failure;
mod render;
mod request;
mod run;

pub use connection::*;
pub use failure::*;
pub use render::*;
pub use request::*;
pub use run::*;

#[cfg(test)]
mod tests;
