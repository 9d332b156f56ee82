//! The handshake of SPEC §2: the first frame must be `hello` with the role the Origin allows, a
//! protocol version in `min_protocol_version..=PROTOCOL_VERSION` and the pairing token; the answer
//! is `ack` or `reject` (then close). One extension is served at a time: a newer one replaces the
//! older, whose pending requests fail.

use bua_protocol::{
    Ack, ClientDialect, ErrorCode, FromExtension, Role, ToExtension, PROTOCOL_VERSION,
};
use futures_util::StreamExt;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::config::{ExtensionInfo, CLOSE_REPLACED, HANDSHAKE_TIMEOUT};
use super::connection::{Connection, Peer};
use super::frames::{close_message, to_text};
use super::owners::{adopt_agent_owners, owner_connected};
use super::pending::fail_pending;
use super::state::{lock, Counters, ExtensionSlot};
use crate::origin::OriginClass;

impl Connection {
    /// Reads `hello` and answers `ack` or `reject`; `None` means the connection is over.
    pub(super) async fn handshake(
        &self,
        stream: &mut futures_util::stream::SplitStream<WebSocketStream<TcpStream>>,
        class: &OriginClass,
    ) -> Option<Peer> {
        let text = loop {
            match tokio::time::timeout(HANDSHAKE_TIMEOUT, stream.next()).await {
                Err(_) => {
                    self.send(close_message(CloseCode::Policy, "no hello within 10 s"))
                        .await;
                    return None;
                }
                Ok(None) | Ok(Some(Err(_))) => return None,
                Ok(Some(Ok(Message::Text(text)))) => break text,
                Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
                Ok(Some(Ok(Message::Close(_)))) => return None,
                Ok(Some(Ok(_))) => {
                    self.reject(
                        ErrorCode::InvalidAction,
                        "the first frame must be a JSON text `hello`".into(),
                    )
                    .await;
                    return None;
                }
            }
        };
        let hello = match bua_protocol::parse_from_extension(text.as_str()) {
            Ok(FromExtension::Hello(hello)) => hello,
            Ok(_) => {
                self.reject(
                    ErrorCode::InvalidAction,
                    "the first frame must be `hello`".into(),
                )
                .await;
                return None;
            }
            Err(frame) => {
                // A hello with a bad field is named as such; anything else was not a hello.
                let message = if frame.error.message.starts_with("hello: ") {
                    format!("bad {}", frame.error.message)
                } else {
                    format!("the first frame must be `hello`: {}", frame.error.message)
                };
                self.reject(ErrorCode::InvalidAction, message).await;
                return None;
            }
        };
        let config = &self.shared.config;
        let expected_role = match class {
            OriginClass::Native => Role::Client,
            OriginClass::Extension(_) => Role::Extension,
        };
        if hello.role != expected_role {
            self.reject(
                ErrorCode::Unauthorized,
                format!(
                    "role `{}` is not allowed from {}: the extension role needs Origin chrome-extension://<id>, the client role no Origin",
                    role_name(&hello.role),
                    class.describe()
                ),
            )
            .await;
            return None;
        }
        let range = config.min_protocol_version..=PROTOCOL_VERSION;
        let version = match (&hello.role, hello.protocol_version) {
            (_, Some(v)) => v,
            // v1-bridge clients send no version; they speak the client envelope, which has no version.
            (Role::Client, None) => PROTOCOL_VERSION,
            (Role::Extension, None) => 0,
        };
        if !range.contains(&version) {
            // An extension of another version: this binary writes its own (SPEC §11 "One binary").
            let fix = if hello.role == Role::Extension {
                "run `bua-bridge extension` to write the extension of this bridge's version, then reload it in chrome://extensions"
            } else {
                "upgrade the older side"
            };
            self.reject(
                ErrorCode::ProtocolVersionMismatch,
                format!(
                    "protocol version {version} is not supported: this bua-bridge {} accepts {}..={}; {fix}",
                    crate::SERVER_VERSION,
                    range.start(),
                    range.end()
                ),
            )
            .await;
            return None;
        }
        let token_ok = hello
            .token
            .as_deref()
            .is_some_and(|t| crate::token::matches(&config.token, t));
        if !token_ok {
            let what = if hello.token.as_deref().is_none_or(str::is_empty) {
                "missing pairing token"
            } else {
                "wrong pairing token"
            };
            let fix = match class {
                OriginClass::Native => "pass the bridge's token with --token, $BUA_TOKEN or --token-file (default ~/.config/bua/token)",
                OriginClass::Extension(_) => "paste the token printed by `bua-bridge serve` (or in ~/.config/bua/token) into the extension's options",
            };
            let message = format!("{what}: {fix}");
            if hello.token.as_deref().is_none_or(str::is_empty)
                && matches!(class, OriginClass::Extension(_))
            {
                // An extension that was never paired tries once without a token; `launch` pairs it right
                // after, `serve` waits for the user to paste the token. Neither is a fault.
                tracing::info!(
                    peer = %self.peer,
                    "the extension connected before it was paired (no pairing token yet); it connects again once it has the token"
                );
                self.send_reject(ErrorCode::Unauthorized, message).await;
            } else {
                self.reject(ErrorCode::Unauthorized, message).await;
            }
            return None;
        }
        match class {
            OriginClass::Native => {
                let client_id = format!("cli-{}", short_uuid());
                Counters::bump(&self.shared.counters.client_acks);
                self.send(to_text(&ToExtension::Ack(Ack {
                    protocol_version: PROTOCOL_VERSION,
                    server_version: crate::SERVER_VERSION.to_string(),
                    client_id: Some(client_id.clone()),
                    controls: None,
                })))
                .await;
                // A v1-bridge hello carries no protocol version (SPEC §2): that client reads the
                // v1 result keys too.
                let dialect = if hello.protocol_version.is_some() {
                    ClientDialect::V4
                } else {
                    ClientDialect::V1
                };
                // Separate connections of one agent (one CLI run per command) share its owner.
                let owner = hello.owner.clone().unwrap_or_else(|| client_id.clone());
                tracing::info!(peer = %self.peer, %client_id, %owner, name = ?hello.name, ?dialect, "client connected");
                owner_connected(&self.shared, &owner);
                Some(Peer::Client {
                    client_id,
                    owner,
                    dialect,
                })
            }
            OriginClass::Extension(extension_id) => {
                Counters::bump(&self.shared.counters.extension_acks);
                self.send(to_text(&ToExtension::Ack(Ack {
                    protocol_version: PROTOCOL_VERSION,
                    server_version: crate::SERVER_VERSION.to_string(),
                    client_id: None,
                    controls: self.shared.config.controls(),
                })))
                .await;
                let info = ExtensionInfo {
                    connection: self.id,
                    extension_id: extension_id.clone(),
                    name: hello.name.clone(),
                    extension_version: hello.extension_version.clone(),
                    protocol_version: version,
                };
                self.install_extension(info).await;
                Some(Peer::Extension)
            }
        }
    }

    /// Makes this connection the extension; a previous one is closed with [`CLOSE_REPLACED`].
    async fn install_extension(&self, info: ExtensionInfo) {
        tracing::info!(peer = %self.peer, extension_id = %info.extension_id, name = ?info.name,
            version = ?info.extension_version, connection = self.id, "extension connected");
        if let Some(theirs) = info
            .extension_version
            .as_deref()
            .filter(|v| *v != crate::SERVER_VERSION)
        {
            tracing::warn!(
                "the extension is version {theirs}, this bua-bridge {}: run `bua-bridge extension` to write the matching extension, then reload it in chrome://extensions",
                crate::SERVER_VERSION
            );
        }
        let previous = lock(&self.shared.extension).replace(ExtensionSlot {
            info: info.clone(),
            tx: self.tx.clone(),
        });
        self.shared.extension_state.send_replace(Some(info));
        adopt_agent_owners(&self.shared);
        if let Some(old) = previous {
            tracing::info!(
                connection = old.info.connection,
                "closing the older extension connection"
            );
            fail_pending(
                &self.shared,
                Some(old.info.connection),
                ErrorCode::NoExtension,
                "the extension connection was replaced by a newer one before it answered",
            );
            let _ = old
                .tx
                .send(close_message(
                    CloseCode::from(CLOSE_REPLACED),
                    "replaced by a newer extension connection",
                ))
                .await;
        }
    }
}

/// The wire name of `role`, for messages.
fn role_name(role: &Role) -> &'static str {
    match role {
        Role::Extension => "extension",
        Role::Client => "client",
    }
}

/// `cli-` ids use the first 8 hex digits of a UUIDv4.
fn short_uuid() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..8].to_string()
}
