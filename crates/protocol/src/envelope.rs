//! The bridge ↔ extension envelope (SPEC §3), tagged by `type`:
//!
//! ```text
//! request  {"type":"request","id":"<UUIDv4>","owner":"cli-…","action":{…}}   (the action of SPEC §4)
//! response {"type":"response","id":"…","result":{…}}   or   {"type":"response","id":"…","error":{"code":"…","message":"…"}}
//! event    {"type":"event","event":{"type":"session_started",…}}
//! ping     {"type":"ping"}          pong {"type":"pong"}
//! ```
//!
//! [`parse_to_extension`] and [`parse_from_extension`] validate every inbound frame; a malformed
//! frame becomes a [`FrameError`] (never a panic), which the receiver answers without closing.

use crate::action::Action;
use crate::error::ErrorBody;
use crate::event::Event;
use crate::handshake::{parse_error_body, Ack, Hello, Reject, ACK_FIELDS, HELLO_FIELDS};
use crate::wire::{deserialize_object, kind, Fields, Res};
use crate::MAX_FRAME_BYTES;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// What the bridge sends to the extension.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToExtension {
    /// Handshake accepted.
    Ack(Ack),
    /// Handshake refused; the bridge then closes. Terminal for the extension.
    Reject(Reject),
    /// One action to run.
    Request(Request),
    /// The answer to `ping`.
    Pong,
    /// Bytes of a file for an `upload` request, sent ahead of it (an addition to SPEC §3).
    FileChunk(FileChunk),
    /// The bridge's answer to a malformed frame from the extension (an addition to SPEC §3):
    /// `{"type":"error","id":"…","error":{"code":"invalid_action","message":"…"}}`; `id` when it could be read.
    Error {
        /// The id of the offending frame, when it had a readable one.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// What was wrong.
        error: ErrorBody,
    },
}

/// `{"type":"request","id":"<uuid>","owner":"cli-…","action":{…}}`: ids are made by the bridge only.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Request {
    /// A UUIDv4 made by the bridge; the response carries it back.
    pub id: String,
    /// The requesting client's id (`close_agent_*` default to it; agent tabs are recorded under it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The action.
    pub action: Action,
}

/// `{"type":"file_chunk","upload":"…","file":0,"name":"a.pdf","mime":"application/pdf","size":N,"data":"<base64>"}`:
/// one piece of file `file` of the upload `upload`, in order. The bridge sends every chunk of an
/// upload before the `upload` request whose `staged` names it, so a file of any size (up to the
/// upload limits) crosses in frames well under [`MAX_FRAME_BYTES`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileChunk {
    /// The upload's id (the request's `staged`).
    pub upload: String,
    /// The file's index in the request's `files`.
    pub file: u32,
    /// The file's name (its path's last component).
    pub name: String,
    /// Its MIME type (empty when unknown).
    pub mime: String,
    /// The whole file's size, bytes.
    pub size: u64,
    /// This piece, base64 (standard alphabet, padded).
    pub data: String,
}

/// What the extension sends to the bridge.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromExtension {
    /// The first frame of a connection (also what clients send first).
    Hello(Hello),
    /// The answer to a request.
    Response(Response),
    /// A one-way event (SPEC §8).
    Event {
        /// The event.
        event: Event,
    },
    /// Keepalive every 20 s; answered by `pong`.
    Ping,
}

/// `{"type":"response","id":…,"result":{…}}` or `{"type":"response","id":…,"error":{code,message}}`:
/// exactly one of `result` / `error` is present on the wire.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Response {
    /// The request's id.
    pub id: String,
    /// The result (SPEC §4 result column), when the action succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// The error, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
}

impl Response {
    /// A success.
    pub fn ok(id: impl Into<String>, result: Value) -> Self {
        Response {
            id: id.into(),
            result: Some(result),
            error: None,
        }
    }

    /// A failure.
    pub fn err(id: impl Into<String>, error: ErrorBody) -> Self {
        Response {
            id: id.into(),
            result: None,
            error: Some(error),
        }
    }

    /// The outcome as a `Result` (an error wins if, against the contract, both are set).
    pub fn into_result(self) -> Result<Value, ErrorBody> {
        match (self.error, self.result) {
            (Some(e), _) => Err(e),
            (None, Some(v)) => Ok(v),
            (None, None) => Ok(Value::Null),
        }
    }
}

/// A frame that failed validation: the id when it could be read (so the error can be correlated),
/// and an `invalid_action` [`ErrorBody`] naming the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct FrameError {
    /// The frame's `id`, when it was a string.
    pub id: Option<String>,
    /// What was wrong.
    pub error: ErrorBody,
}

impl FrameError {
    /// The bridge's answer to the extension: `{"type":"error","id"?,"error":{…}}`.
    pub fn to_extension(&self) -> ToExtension {
        ToExtension::Error {
            id: self.id.clone(),
            error: self.error.clone(),
        }
    }

    /// The extension's answer to a bad request: a `response` with the error, when the id was read.
    pub fn to_response(&self) -> Option<Response> {
        self.id
            .as_ref()
            .map(|id| Response::err(id.clone(), self.error.clone()))
    }
}

impl ToExtension {
    /// The wire JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The wire JSON text (`type` first).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl FromExtension {
    /// The wire JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The wire JSON text (`type` first).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Parses a frame's text into a JSON object, refusing frames over [`MAX_FRAME_BYTES`].
/// Returns the object and its `id` when that is a string.
pub(crate) fn parse_frame(
    text: &str,
    what: &str,
) -> Result<(Map<String, Value>, Option<String>), FrameError> {
    let bad = |id: Option<String>, msg: String| FrameError {
        id,
        error: ErrorBody::invalid(msg),
    };
    if text.len() > MAX_FRAME_BYTES {
        return Err(bad(
            None,
            format!(
                "frame: {} bytes is over the {} MiB limit ({MAX_FRAME_BYTES} bytes)",
                text.len(),
                MAX_FRAME_BYTES / (1024 * 1024)
            ),
        ));
    }
    let v: Value = serde_json::from_str(text)
        .map_err(|e| bad(None, format!("frame: not valid JSON ({e})")))?;
    match v {
        Value::Object(map) => {
            let id = match map.get("id") {
                Some(Value::String(s)) => Some(s.clone()),
                _ => None,
            };
            Ok((map, id))
        }
        other => Err(bad(
            None,
            format!("frame: {what} must be a JSON object, got {}", kind(&other)),
        )),
    }
}

fn message_type<'m>(map: &'m Map<String, Value>, expected: &str) -> Res<&'m str> {
    match map.get("type") {
        Some(Value::String(s)) => Ok(s),
        None | Some(Value::Null) => Err(ErrorBody::invalid(format!("type: required ({expected})"))),
        Some(other) => Err(ErrorBody::invalid(format!(
            "type: must be a string, got {}",
            kind(other)
        ))),
    }
}

fn closed<'a>(
    name: &'a str,
    mut map: Map<String, Value>,
    allowed: &'a [&'a str],
) -> Res<Fields<'a>> {
    map.remove("type");
    let f = Fields::from_map(name, map, allowed);
    f.check_unknown()?;
    Ok(f)
}

/// Parses and validates a frame the bridge sent to the extension (`ack`, `reject`, `request`,
/// `pong`, `error`). Unknown `type`, missing or extra fields, a bad action → `invalid_action`
/// naming the field; the id is kept when readable so the extension can answer that request.
pub fn parse_to_extension(text: &str) -> Result<ToExtension, FrameError> {
    let (map, id) = parse_frame(text, "a bridge message")?;
    to_extension_from_map(map).map_err(|error| FrameError { id, error })
}

fn to_extension_from_map(map: Map<String, Value>) -> Res<ToExtension> {
    const EXPECTED: &str = "ack, reject, request, pong, file_chunk or error";
    let ty = message_type(&map, EXPECTED)?.to_owned();
    Ok(match ty.as_str() {
        "ack" => {
            let mut f = closed("ack", map, ACK_FIELDS)?;
            ToExtension::Ack(Ack::from_fields(&mut f)?)
        }
        "reject" => {
            let mut f = closed("reject", map, &["error"])?;
            let error = parse_error_body("reject: error", &f.req_value("error")?)?;
            ToExtension::Reject(Reject { error })
        }
        "request" => {
            let mut f = closed("request", map, &["id", "owner", "action"])?;
            let id = f.req_nonempty("id")?;
            let owner = f.opt_nonempty("owner")?;
            let action = Action::from_value(&f.req_value("action")?)?;
            ToExtension::Request(Request { id, owner, action })
        }
        "pong" => {
            closed("pong", map, &[])?;
            ToExtension::Pong
        }
        "file_chunk" => {
            const FIELDS: &[&str] = &["upload", "file", "name", "mime", "size", "data"];
            let mut f = closed("file_chunk", map, FIELDS)?;
            let chunk = FileChunk {
                upload: f.req_nonempty("upload")?,
                file: f.opt_u32("file", 0, u32::MAX)?.unwrap_or(0),
                name: f.req_str("name")?,
                mime: f.req_str("mime")?,
                size: f
                    .opt_int("size", 0, i64::MAX)?
                    .and_then(|n| u64::try_from(n).ok())
                    .unwrap_or(0),
                data: f.req_str("data")?,
            };
            f.finish()?;
            ToExtension::FileChunk(chunk)
        }
        "error" => {
            let mut f = closed("error", map, &["id", "error"])?;
            let id = f.opt_str("id")?;
            let error = parse_error_body("error: error", &f.req_value("error")?)?;
            ToExtension::Error { id, error }
        }
        other => {
            return Err(ErrorBody::invalid(format!(
                "type: unknown message type `{other}` (expected {EXPECTED})"
            )))
        }
    })
}

/// Parses and validates a frame sent to the bridge by the extension (`hello`, `response`,
/// `event`, `ping`); a client's first frame (`hello`) parses here too.
pub fn parse_from_extension(text: &str) -> Result<FromExtension, FrameError> {
    let (map, id) = parse_frame(text, "an extension message")?;
    from_extension_from_map(map).map_err(|error| FrameError { id, error })
}

fn from_extension_from_map(map: Map<String, Value>) -> Res<FromExtension> {
    const EXPECTED: &str = "hello, response, event or ping";
    let ty = message_type(&map, EXPECTED)?.to_owned();
    Ok(match ty.as_str() {
        "hello" => {
            let mut f = closed("hello", map, HELLO_FIELDS)?;
            FromExtension::Hello(Hello::from_fields(&mut f)?)
        }
        "response" => {
            let mut f = closed("response", map, &["id", "result", "error"])?;
            let id = f.req_nonempty("id")?;
            // `"result": null` is a result (e.g. an action with nothing to say); `"error": null` is no error.
            let result = f.take_raw("result");
            let error = match f.take("error") {
                Some(v) => Some(parse_error_body("response: error", &v)?),
                None => None,
            };
            match (&result, &error) {
                (Some(_), Some(_)) => {
                    return Err(f.err_msg("exactly one of result/error is allowed, got both"))
                }
                (None, None) => return Err(f.err_msg("exactly one of result/error is required")),
                _ => {}
            }
            FromExtension::Response(Response { id, result, error })
        }
        "event" => {
            let mut f = closed("event", map, &["event"])?;
            FromExtension::Event {
                event: Event::from_value(&f.req_value("event")?)?,
            }
        }
        "ping" => {
            closed("ping", map, &[])?;
            FromExtension::Ping
        }
        other => {
            return Err(ErrorBody::invalid(format!(
                "type: unknown message type `{other}` (expected {EXPECTED})"
            )))
        }
    })
}

/// Parses a `hello` frame of either role (the first frame on every connection).
pub fn parse_hello(text: &str) -> Result<Hello, FrameError> {
    match parse_from_extension(text)? {
        FromExtension::Hello(h) => Ok(h),
        other => {
            let name = match other {
                FromExtension::Response(_) => "response",
                FromExtension::Event { .. } => "event",
                _ => "ping",
            };
            let id = match &other {
                FromExtension::Response(r) => Some(r.id.clone()),
                _ => None,
            };
            Err(FrameError {
                id,
                error: ErrorBody::invalid(format!(
                    "type: expected `hello` as the first message, got `{name}`"
                )),
            })
        }
    }
}

impl<'de> Deserialize<'de> for ToExtension {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_object(deserializer, to_extension_from_map)
    }
}

impl<'de> Deserialize<'de> for FromExtension {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_object(deserializer, from_extension_from_map)
    }
}
