//! The handshake of SPEC §2: `hello` → `ack` | `reject`. Nothing else is sent before `ack`.

use crate::error::{ErrorBody, ErrorCode};
use crate::wire::{Fields, Res};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who is saying hello: the browser extension (one at a time) or a client (CLI, MCP, agent programs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// `"extension"`: the Chrome extension; a newer connection replaces the older one.
    Extension,
    /// `"client"`: any number of local programs speaking the v1-bridge envelope (SPEC §9).
    Client,
}

impl Role {
    /// The wire spelling.
    pub fn as_str(&self) -> &'static str {
        match self {
            Role::Extension => "extension",
            Role::Client => "client",
        }
    }
}

/// The first message of every connection.
///
/// Extension: `{"type":"hello","role":"extension","protocolVersion":4,"extensionVersion":"0.1.0","name":"chrome-main","token":"…"}`;
/// client: `{"type":"hello","role":"client","name":"bridge-client","token":"…","owner":"cli"}` (`owner`
/// optional, clients only: see [`Hello::owner`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hello {
    /// Extension or client.
    pub role: Role,
    /// The sender's protocol version; required of the extension, optional for v1-style clients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<u32>,
    /// The extension's `manifest.json` version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension_version: Option<String>,
    /// A free-form name for logs (`"chrome-main"`, `"bridge-client"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The pairing token (SPEC §2); missing or wrong → `reject unauthorized`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// Clients only: the agent owner to stamp on this client's requests instead of its `clientId`
    /// (SPEC §2/§9, a pure addition), so that separate connections of one agent — e.g. one CLI
    /// invocation per command — share one agent window and reach it with `close_agent_*`. 1 to
    /// [`MAX_OWNER_CHARS`] printable characters, no surrounding spaces ([`check_owner`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// The longest `owner` a client `hello` may name, in characters.
pub const MAX_OWNER_CHARS: usize = 64;

/// Checks a client-chosen agent owner (`hello.owner`): 1 to [`MAX_OWNER_CHARS`] characters, no
/// control characters, no leading or trailing whitespace. The error says what is wrong, e.g.
/// `"is empty"`, `"is 80 characters long; at most 64"`, `"contains a control character (U+000A)"`.
pub fn check_owner(owner: &str) -> Result<(), String> {
    let chars = owner.chars().count();
    if owner.trim().is_empty() {
        return Err("is empty".into());
    }
    if chars > MAX_OWNER_CHARS {
        return Err(format!(
            "is {chars} characters long; at most {MAX_OWNER_CHARS}"
        ));
    }
    if let Some(c) = owner.chars().find(|c| c.is_control()) {
        return Err(format!(
            "contains a control character (U+{:04X})",
            u32::from(c)
        ));
    }
    if owner.trim() != owner {
        return Err("starts or ends with whitespace".into());
    }
    Ok(())
}

impl Hello {
    /// The extension's hello, speaking [`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION).
    pub fn extension(
        extension_version: impl Into<String>,
        name: impl Into<String>,
        token: Option<String>,
    ) -> Self {
        Hello {
            role: Role::Extension,
            protocol_version: Some(crate::PROTOCOL_VERSION),
            extension_version: Some(extension_version.into()),
            name: Some(name.into()),
            token,
            owner: None,
        }
    }

    /// A client's hello, speaking [`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION).
    pub fn client(name: impl Into<String>, token: Option<String>) -> Self {
        Hello {
            role: Role::Client,
            protocol_version: Some(crate::PROTOCOL_VERSION),
            extension_version: None,
            name: Some(name.into()),
            token,
            owner: None,
        }
    }

    /// Checks the hello's protocol version against what a server accepts (`min..=max`, SPEC §2).
    ///
    /// The extension must send `protocolVersion`; a client may omit it (v1 clients do).
    /// Errors are `protocol_version_mismatch` with a message that says which side to upgrade.
    pub fn check_version(&self, min: u32, max: u32) -> Result<(), ErrorBody> {
        check_protocol_version(self.role, self.protocol_version, min, max)
    }

    pub(crate) fn from_fields(f: &mut Fields<'_>) -> Res<Hello> {
        let role = match f.req_str("role")?.as_str() {
            "extension" => Role::Extension,
            "client" => Role::Client,
            other => {
                return Err(f.err(
                    "role",
                    format!("unknown role `{other}` (use extension or client)"),
                ))
            }
        };
        let protocol_version = f.opt_u32("protocolVersion", 0, u32::MAX)?;
        let owner = f.opt_str("owner")?;
        if let Some(owner) = &owner {
            if role == Role::Extension {
                return Err(f.err("owner", "is for clients only; the extension has no owner"));
            }
            check_owner(owner).map_err(|what| f.err("owner", what))?;
        }
        Ok(Hello {
            role,
            protocol_version,
            extension_version: f.opt_str("extensionVersion")?,
            name: f.opt_str("name")?,
            token: f.opt_str("token")?,
            owner,
        })
    }
}

/// The fields a `hello` may carry.
pub(crate) const HELLO_FIELDS: &[&str] = &[
    "role",
    "protocolVersion",
    "extensionVersion",
    "name",
    "token",
    "owner",
];

/// Checks an offered protocol version against `min..=max` (SPEC §2; both 4 today).
///
/// `None` is accepted for [`Role::Client`] only. The error is `protocol_version_mismatch`.
pub fn check_protocol_version(
    role: Role,
    offered: Option<u32>,
    min: u32,
    max: u32,
) -> Result<(), ErrorBody> {
    let range = if min == max {
        format!("{min}")
    } else {
        format!("{min}..={max}")
    };
    match offered {
        None if role == Role::Client => Ok(()),
        None => Err(ErrorBody::new(
            ErrorCode::ProtocolVersionMismatch,
            format!("hello has no protocolVersion; this bridge speaks protocol {range}: upgrade the extension"),
        )),
        Some(v) if v < min => Err(ErrorBody::new(
            ErrorCode::ProtocolVersionMismatch,
            format!(
                "the {} speaks protocol {v}, this bridge needs {range}: upgrade the {}",
                role.as_str(),
                role.as_str()
            ),
        )),
        Some(v) if v > max => Err(ErrorBody::new(
            ErrorCode::ProtocolVersionMismatch,
            format!("the {} speaks protocol {v}, this bridge only {range}: upgrade bua-bridge", role.as_str()),
        )),
        Some(_) => Ok(()),
    }
}

/// The server's acceptance: `{"type":"ack","protocolVersion":4,"serverVersion":"…","clientId":"cli-…"}`
/// (`clientId` for clients only, omitted when `None`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ack {
    /// The protocol version the server speaks.
    pub protocol_version: u32,
    /// The bridge's version (`CARGO_PKG_VERSION`).
    pub server_version: String,
    /// The id the bridge stamped on this client (the `owner` of its requests unless its `hello`
    /// named one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// Extension only: the unattended-run controls of this bridge (SPEC §10; a pure addition), omitted
    /// when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controls: Option<AckControls>,
}

/// The unattended-run controls a bridge sends the extension in its `ack` (SPEC §10):
/// `{"allow":["shop.test"],"off":["evaluate"]}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AckControls {
    /// `--allow` sites: agents may open only these (and their subdomains); empty: no allowlist.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    /// Actions turned off (`--no-evaluate`, `--no-upload`): `"evaluate"`, `"upload"`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub off: Vec<String>,
}

impl Ack {
    pub(crate) fn from_fields(f: &mut Fields<'_>) -> Res<Ack> {
        let protocol_version = f
            .opt_u32("protocolVersion", 0, u32::MAX)?
            .ok_or_else(|| f.err("protocolVersion", "required"))?;
        Ok(Ack {
            protocol_version,
            server_version: f.req_str("serverVersion")?,
            client_id: f.opt_str("clientId")?,
            controls: match f.take("controls") {
                None => None,
                Some(v) => Some(
                    serde_json::from_value(v)
                        .map_err(|e| f.err("controls", format!("must be {{allow, off}}: {e}")))?,
                ),
            },
        })
    }
}

/// The fields an `ack` may carry.
pub(crate) const ACK_FIELDS: &[&str] =
    &["protocolVersion", "serverVersion", "clientId", "controls"];

/// The server's refusal, after which it closes: `{"type":"reject","error":{"code":"unauthorized","message":"…"}}`.
/// For the extension it is terminal (fatal state, no reconnect).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reject {
    /// Usually `protocol_version_mismatch` or `unauthorized`.
    pub error: ErrorBody,
}

/// Reads an error body `{code, message}` (closed: no other fields); `ctx` names where it is
/// (e.g. `"response: error"`).
pub(crate) fn parse_error_body(ctx: &str, v: &Value) -> Res<ErrorBody> {
    let mut f = Fields::new(ctx, v, &["code", "message"])?;
    f.check_unknown()?;
    let code_s = f.req_str("code")?;
    let code = ErrorCode::from_wire(&code_s)
        .ok_or_else(|| f.err("code", format!("unknown error code `{code_s}`")))?;
    let message = f.req_str("message")?;
    f.finish()?;
    Ok(ErrorBody { code, message })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_hello, ErrorCode};

    #[test]
    fn a_client_hello_may_name_its_owner() {
        let h = parse_hello(r#"{"type":"hello","role":"client","token":"t","owner":"cli"}"#)
            .expect("valid");
        assert_eq!(h.owner.as_deref(), Some("cli"));
        let back = serde_json::to_value(&h).expect("serialises");
        assert_eq!(back["owner"], "cli");
        // Omitted: no owner, and none is serialised (the v1 hello is unchanged).
        let h = parse_hello(r#"{"type":"hello","role":"client","token":"t"}"#).expect("valid");
        assert_eq!(h.owner, None);
        assert!(serde_json::to_value(&h)
            .expect("ser")
            .get("owner")
            .is_none());
        let h = parse_hello(r#"{"type":"hello","role":"client","owner":"agent · Ünïcode 42"}"#)
            .expect("printable unicode is fine");
        assert_eq!(h.owner.as_deref(), Some("agent · Ünïcode 42"));
    }

    #[test]
    fn a_bad_owner_is_refused_naming_the_field() {
        let long = "x".repeat(MAX_OWNER_CHARS + 1);
        for (owner, what) in [
            ("", "is empty"),
            ("   ", "is empty"),
            (long.as_str(), "65 characters long; at most 64"),
            ("cli\nrm", "control character (U+000A)"),
            ("a\u{7f}", "control character (U+007F)"),
            (" cli", "whitespace"),
        ] {
            let frame =
                serde_json::json!({"type":"hello","role":"client","owner":owner}).to_string();
            let e = parse_hello(&frame).expect_err(owner);
            assert_eq!(e.error.code, ErrorCode::InvalidAction);
            assert!(
                e.error.message.starts_with("hello: owner: ") && e.error.message.contains(what),
                "{owner:?}: {}",
                e.error.message
            );
        }
        let e = parse_hello(r#"{"type":"hello","role":"client","owner":7}"#).expect_err("number");
        assert!(e.error.message.contains("owner"), "{}", e.error.message);
        let e =
            parse_hello(r#"{"type":"hello","role":"extension","protocolVersion":4,"owner":"cli"}"#)
                .expect_err("extension");
        assert!(
            e.error.message.contains("owner: is for clients only"),
            "{}",
            e.error.message
        );
        assert_eq!(
            check_owner(&"é".repeat(MAX_OWNER_CHARS)),
            Ok(()),
            "counted in characters"
        );
    }
}
