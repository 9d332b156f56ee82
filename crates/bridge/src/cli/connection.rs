//! Reaching the bridge: where it is, the token, and the one agent owner every CLI invocation says
//! `hello` with (SPEC §2 client `hello` `owner`, §6, §9).

use std::path::PathBuf;
use std::time::Duration;

use super::failure::Failure;
use crate::client::{BridgeClient, Endpoint};
use crate::error::{Error, Result};
use crate::token;

/// The agent owner of CLI invocations that name none: every `bua-bridge open`, `click`, `call …`
/// acts as this one agent, whatever process runs it.
pub const DEFAULT_OWNER: &str = "cli";

/// The environment variable that names the CLI's agent owner when `--owner` is not given.
pub const OWNER_ENV: &str = "BUA_OWNER";

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
    pub(super) async fn connect_client(&self) -> Result<BridgeClient> {
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
