//! The client side of the bridge: the v1-bridge envelope (SPEC §9).
//!
//! ```text
//! request   {"id":"abc-123","method":"<action type>","params":{…}}
//! success   {"id":"abc-123","success":true,"result":{…}}
//! failure   {"id":"abc-123","success":false,"error":"<message>","code":"<code>"}
//! ```
//!
//! A client's first frame is a [`Hello`](crate::Hello) (parse it with [`parse_hello`](crate::parse_hello));
//! the bridge answers with `ack`/`reject` and may forward events as `{"type":"event","event":{…}}`
//! ([`ToClient`]).

use crate::envelope::parse_frame;
use crate::error::{ErrorBody, ErrorCode};
use crate::event::Event;
use crate::handshake::{parse_error_body, Ack, Reject, ACK_FIELDS};
use crate::wire::{deserialize_object, kind, Fields, Res};
use crate::FrameError;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// A client's request: `{"id":"abc-123","method":…,"params":{"url":"…"}}` (`method` an action
/// name such as `navigate`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClientRequest {
    /// Chosen by the client; echoed in the response.
    pub id: String,
    /// An action type of SPEC §4, `ping`, or a v1 alias (`list_tabs`, `new_tab`, …).
    pub method: String,
    /// The method's parameters; `{}` when absent on the wire.
    pub params: Value,
}

impl ClientRequest {
    /// A request.
    pub fn new(id: impl Into<String>, method: impl Into<String>, params: Value) -> Self {
        ClientRequest {
            id: id.into(),
            method: method.into(),
            params,
        }
    }

    /// The wire JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The v4 action this request stands for: `{"type": method, ...params}` validated by
    /// [`Action::from_value`](crate::Action::from_value), with the v1-bridge method names and
    /// params accepted as aliases (see [`client_action`](crate::client_action)). `ping` is not an
    /// action: the bridge answers it itself.
    pub fn to_action(&self) -> Result<crate::Action, ErrorBody> {
        crate::v1::client_action(&self.method, &self.params)
    }

    /// The result to send back for this request: the v4 result, reshaped for v1 methods that
    /// promise a v1 shape (`list_tabs`: `tab_id`/`window_id`; see [`client_result`](crate::client_result)).
    pub fn shape_result(&self, result: Value) -> Value {
        crate::v1::client_result(&self.method, result)
    }

    /// The result to send back to a client of `dialect` (see
    /// [`client_result_for`](crate::client_result_for)): v1-only methods in their v1 shape, shared
    /// methods with the v1 snake_case keys added for [`ClientDialect::V1`](crate::ClientDialect::V1).
    pub fn shape_result_for(&self, result: Value, dialect: crate::v1::ClientDialect) -> Value {
        crate::v1::client_result_for(&self.method, &self.params, result, dialect)
    }
}

/// Parses and validates a client's request frame. `id` must be a non-empty string, `method` a
/// non-empty string, `params` an object (or absent / `null` → `{}`); other fields are refused.
pub fn parse_client_request(text: &str) -> Result<ClientRequest, FrameError> {
    let (map, id) = parse_frame(text, "a request")?;
    client_request_from_map(map).map_err(|error| FrameError { id, error })
}

fn client_request_from_map(map: Map<String, Value>) -> Res<ClientRequest> {
    let mut f = Fields::from_map("request", map, &["id", "method", "params"]);
    f.check_unknown()?;
    let id = f.req_nonempty("id")?;
    let method = f.req_nonempty("method")?;
    let params = match f.take("params") {
        None => Value::Object(Map::new()),
        Some(v @ Value::Object(_)) => v,
        Some(other) => {
            return Err(f.err("params", format!("must be an object, got {}", kind(&other))))
        }
    };
    Ok(ClientRequest { id, method, params })
}

impl<'de> Deserialize<'de> for ClientRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_object(deserializer, client_request_from_map)
    }
}

/// The bridge's answer to a [`ClientRequest`].
#[derive(Clone, Debug, PartialEq)]
pub enum ClientResponse {
    /// `{"id":…,"success":true,"result":…}`
    Ok {
        /// The request's id.
        id: String,
        /// The result.
        result: Value,
    },
    /// `{"id":…,"success":false,"error":"<message>","code":"<code>"}`
    Err {
        /// The request's id (empty when the request's id could not be read).
        id: String,
        /// The message (says what to do next).
        error: String,
        /// The code.
        code: ErrorCode,
    },
}

impl ClientResponse {
    /// A success.
    pub fn ok(id: impl Into<String>, result: Value) -> Self {
        ClientResponse::Ok {
            id: id.into(),
            result,
        }
    }

    /// A failure from an error body.
    pub fn err(id: impl Into<String>, error: ErrorBody) -> Self {
        ClientResponse::Err {
            id: id.into(),
            error: error.message,
            code: error.code,
        }
    }

    /// From an outcome.
    pub fn from_result(id: impl Into<String>, outcome: Result<Value, ErrorBody>) -> Self {
        match outcome {
            Ok(v) => ClientResponse::ok(id, v),
            Err(e) => ClientResponse::err(id, e),
        }
    }

    /// The request id.
    pub fn id(&self) -> &str {
        match self {
            ClientResponse::Ok { id, .. } | ClientResponse::Err { id, .. } => id,
        }
    }

    /// The outcome as a `Result`.
    pub fn into_result(self) -> Result<Value, ErrorBody> {
        match self {
            ClientResponse::Ok { result, .. } => Ok(result),
            ClientResponse::Err { error, code, .. } => Err(ErrorBody::new(code, error)),
        }
    }

    /// The wire JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The wire JSON text (`id`, `success` first).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl Serialize for ClientResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ClientResponse::Ok { id, result } => {
                let mut m = serializer.serialize_map(Some(3))?;
                m.serialize_entry("id", id)?;
                m.serialize_entry("success", &true)?;
                m.serialize_entry("result", result)?;
                m.end()
            }
            ClientResponse::Err { id, error, code } => {
                let mut m = serializer.serialize_map(Some(4))?;
                m.serialize_entry("id", id)?;
                m.serialize_entry("success", &false)?;
                m.serialize_entry("error", error)?;
                m.serialize_entry("code", code)?;
                m.end()
            }
        }
    }
}

fn client_response_from_map(map: Map<String, Value>) -> Res<ClientResponse> {
    let mut f = Fields::from_map(
        "response",
        map,
        &["id", "success", "result", "error", "code"],
    );
    f.check_unknown()?;
    let id = f.req_str("id")?;
    let success = f
        .opt_bool("success")?
        .ok_or_else(|| f.err("success", "required"))?;
    if success {
        let result = f.take_raw("result").unwrap_or(Value::Null);
        f.finish()?;
        Ok(ClientResponse::Ok { id, result })
    } else {
        let error = f.req_str("error")?;
        let code_s = f.req_str("code")?;
        let code = ErrorCode::from_wire(&code_s)
            .ok_or_else(|| f.err("code", format!("unknown error code `{code_s}`")))?;
        f.finish()?;
        Ok(ClientResponse::Err { id, error, code })
    }
}

impl<'de> Deserialize<'de> for ClientResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_object(deserializer, client_response_from_map)
    }
}

/// Everything the bridge sends to a client: the handshake answer, responses, forwarded events.
#[derive(Clone, Debug, PartialEq)]
pub enum ToClient {
    /// `{"type":"ack",…,"clientId":"cli-…"}`
    Ack(Ack),
    /// `{"type":"reject","error":{…}}`
    Reject(Reject),
    /// `{"type":"event","event":{…}}`: an extension event forwarded to the client.
    Event(Event),
    /// `{"type":"event","event":{…},"dropped":N}`: an event forwarded to a slow subscriber after
    /// the bridge dropped the `N` (≥ 1) oldest events that did not fit its buffer.
    EventAfterDrop {
        /// The event.
        event: Event,
        /// How many events were dropped just before this one.
        dropped: u64,
    },
    /// `{"id":…,"success":…}`
    Response(ClientResponse),
}

impl ToClient {
    /// The wire JSON.
    pub fn to_value(&self) -> Value {
        match self {
            ToClient::Ack(a) => {
                let mut v = serde_json::to_value(a).unwrap_or(Value::Null);
                if let Value::Object(m) = &mut v {
                    m.insert("type".to_owned(), Value::String("ack".to_owned()));
                }
                v
            }
            ToClient::Reject(r) => {
                serde_json::json!({"type": "reject", "error": r.error})
            }
            ToClient::Event(e) => serde_json::json!({"type": "event", "event": e.to_value()}),
            ToClient::EventAfterDrop { event, dropped } => {
                serde_json::json!({"type": "event", "event": event.to_value(), "dropped": dropped})
            }
            ToClient::Response(r) => r.to_value(),
        }
    }

    /// The wire JSON text.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }
}

impl Serialize for ToClient {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

/// Parses a frame the bridge sent to a client: `ack`, `reject`, `event` (tagged by `type`) or a
/// response (`{"id","success",…}`).
pub fn parse_to_client(text: &str) -> Result<ToClient, FrameError> {
    let (map, id) = parse_frame(text, "a bridge message")?;
    to_client_from_map(map).map_err(|error| FrameError { id, error })
}

fn to_client_from_map(mut map: Map<String, Value>) -> Res<ToClient> {
    let Some(ty) = map.remove("type") else {
        return Ok(ToClient::Response(client_response_from_map(map)?));
    };
    let ty = match ty {
        Value::String(s) => s,
        other => {
            return Err(ErrorBody::invalid(format!(
                "type: must be a string, got {}",
                kind(&other)
            )))
        }
    };
    match ty.as_str() {
        "ack" => {
            let mut f = Fields::from_map("ack", map, ACK_FIELDS);
            f.check_unknown()?;
            Ok(ToClient::Ack(Ack::from_fields(&mut f)?))
        }
        "reject" => {
            let mut f = Fields::from_map("reject", map, &["error"]);
            f.check_unknown()?;
            let v = f.req_value("error")?;
            Ok(ToClient::Reject(Reject {
                error: parse_error_body("reject: error", &v)?,
            }))
        }
        "event" => {
            let mut f = Fields::from_map("event", map, &["event", "dropped"]);
            f.check_unknown()?;
            let v = f.req_value("event")?;
            let event = Event::from_value(&v)?;
            match f.opt_int("dropped", 0, i64::MAX)? {
                Some(n) if n > 0 => Ok(ToClient::EventAfterDrop {
                    event,
                    dropped: u64::try_from(n).unwrap_or(0),
                }),
                _ => Ok(ToClient::Event(event)),
            }
        }
        other => Err(ErrorBody::invalid(format!(
            "type: unknown message type `{other}` (expected ack, reject, event or a response)"
        ))),
    }
}
