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

mod render;
mod request;
mod run;

pub use render::*;
pub use request::*;
pub use run::*;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};

use crate::client::{BridgeClient, Endpoint};
pub use crate::error::BRIDGE_UNREACHABLE;
use crate::error::{Error, Result};
use crate::token;

/// The agent owner of CLI invocations that name none: every `bua-bridge open`, `click`, `call …`
/// acts as this one agent, whatever process runs it.
pub const DEFAULT_OWNER: &str = "cli";

/// The environment variable that names the CLI's agent owner when `--owner` is not given.
pub const OWNER_ENV: &str = "BUA_OWNER";

/// The exit status when stdout was closed before the output was written (128 + SIGPIPE, what a
/// shell reports for `cat big | head -1`'s `cat`).
pub const BROKEN_PIPE_EXIT: u8 = 141;

/// The CLI's agent owner: `--owner`, else `$BUA_OWNER` (when not empty), else [`DEFAULT_OWNER`].
///
/// Errors: `invalid_action` naming `--owner` or `BUA_OWNER` when the owner is not 1–64 printable
/// characters ([`bua_protocol::check_owner`]).
pub fn resolve_owner(
    flag: Option<&str>,
    env: Option<&str>,
) -> std::result::Result<String, Failure> {
    let (owner, source) = match (flag, env.filter(|e| !e.is_empty())) {
        (Some(f), _) => (f, "--owner"),
        (None, Some(e)) => (e, OWNER_ENV),
        (None, None) => (DEFAULT_OWNER, ""),
    };
    bua_protocol::check_owner(owner)
        .map_err(|what| Failure::invalid(format!("{source}: the owner {what}")))?;
    Ok(owner.to_string())
}

/// Where the bridge is and how to authenticate: `--port` (default 9225) or `--url`, and the token
/// from `--token`, `--token-file`, or the default token file (`~/.config/bua/token`).
#[derive(Debug, Clone, Default)]
pub struct Connection {
    /// Port on 127.0.0.1.
    pub port: u16,
    /// A full `ws://` URL (wins over `port`).
    pub url: Option<String>,
    /// The pairing token itself.
    pub token: Option<String>,
    /// A token file.
    pub token_file: Option<PathBuf>,
    /// The agent owner named in `hello` (see [`resolve_owner`]); `None`: the bridge's client id.
    pub owner: Option<String>,
}

impl Connection {
    /// The bridge endpoint.
    pub fn endpoint(&self) -> Endpoint {
        match &self.url {
            Some(u) => Endpoint::from(u.as_str()),
            None => Endpoint::Port(self.port),
        }
    }

    /// The pairing token: `--token`, else the token file (never created here).
    ///
    /// Errors: [`Error::Token`]/[`Error::Io`] when the file is missing, empty or unreadable.
    pub fn token(&self) -> Result<String> {
        if let Some(t) = &self.token {
            return Ok(t.clone());
        }
        token::read(&self.token_path()?)
    }

    /// `--token-file`, else the default token file.
    fn token_path(&self) -> Result<PathBuf> {
        match &self.token_file {
            Some(p) => Ok(p.clone()),
            None => token::default_path(),
        }
    }

    /// Why no token could be read, as the CLI reports it (`unauthorized`) — unless no bridge
    /// answers either: then that is the first thing to fix ([`BRIDGE_UNREACHABLE`]).
    async fn token_failure(&self, e: Error) -> Failure {
        let url = self.endpoint().url();
        if let Err(source) = probe(&url).await {
            return Failure::from(Error::Unreachable { url, source });
        }
        let message = match (&e, self.token_path()) {
            (Error::Io { source, .. }, Ok(path))
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                format!(
                    "no pairing token: {} does not exist; `bua-bridge serve` creates it (or pass --token or --token-file)",
                    path.display()
                )
            }
            _ => format!("{e} (pass --token or --token-file)"),
        };
        Failure {
            code: "unauthorized".into(),
            message,
        }
    }

    /// Connects as [`Connection::owner`] with the token already known to work (used to reconnect).
    ///
    /// Errors: those of [`Connection::token`] and [`BridgeClient::connect_as`].
    async fn connect_client(&self) -> Result<BridgeClient> {
        let token = self.token()?;
        BridgeClient::connect_as(self.endpoint(), &token, self.owner.as_deref()).await
    }

    /// Connects as [`Connection::owner`]; a bridge that cannot be reached gives a message that
    /// names the URL and says how to start one.
    ///
    /// Errors: see [`Failure`]: `unauthorized` (token), [`BRIDGE_UNREACHABLE`] (nothing listens),
    /// `timeout` (something listens but never completes the handshake), `invalid_action` (a URL
    /// that is not `ws://`, a malformed owner).
    pub async fn connect(&self) -> std::result::Result<BridgeClient, Failure> {
        let token = match self.token() {
            Ok(t) => t,
            Err(e) => return Err(self.token_failure(e).await),
        };
        let endpoint = self.endpoint();
        let url = endpoint.url();
        match BridgeClient::connect_as(endpoint, &token, self.owner.as_deref()).await {
            Ok(c) => Ok(c),
            Err(e @ Error::Timeout { .. }) => Err(Failure {
                code: e.client_code().into(),
                message: format!(
                    "{e}: is a bua-bridge listening at {url}? Start one with `bua-bridge serve`"
                ),
            }),
            Err(e @ Error::InvalidEndpoint { .. }) => Err(Failure::invalid(format!("--url: {e}"))),
            Err(e) => Err(Failure::from(e)),
        }
    }
}

/// Opens (and closes) a TCP connection to the host and port of `url`, within 2 s. A URL that does
/// not parse passes: the WebSocket connect reports it.
///
/// Errors: the connect error (refused, unreachable, timed out).
async fn probe(url: &str) -> std::io::Result<()> {
    let Ok(parsed) = url::Url::parse(url) else {
        return Ok(());
    };
    let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
        return Ok(());
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match tokio::time::timeout(
        Duration::from_secs(2),
        tokio::net::TcpStream::connect((host, port)),
    )
    .await
    {
        Ok(connected) => connected.map(drop),
        Err(_) => Err(std::io::Error::from(std::io::ErrorKind::TimedOut)),
    }
}

/// A failure as the CLI prints it: `{"code":"…","error":"…"}`, exit status 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The SPEC §8 error code (`no_extension`, `invalid_action`, …), or the client-side
    /// [`BRIDGE_UNREACHABLE`].
    pub code: String,
    /// What went wrong and what to do.
    pub message: String,
}

impl Failure {
    /// An `invalid_action` failure (bad arguments).
    pub fn invalid(message: impl Into<String>) -> Self {
        Failure {
            code: "invalid_action".into(),
            message: message.into(),
        }
    }

    /// The JSON printed for it.
    pub fn to_json(&self) -> Value {
        json!({"code": self.code, "error": self.message})
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure {
            code: e.client_code().into(),
            message: e.to_string(),
        }
    }
}

#[cfg(test)]
mod tests;
