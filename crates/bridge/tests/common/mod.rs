//! The raw WebSocket side of the native bridge tests: a connection to the server with a chosen `Origin`,
//! and JSON frames written and read on it, as a fake extension or a hand-written client speaks them.
//! (`tests/common/` is no test target of its own; each test binary that needs it says `mod common;`.)

use std::time::Duration;

use bua_bridge::server::ServerHandle;
use bua_bridge::{BridgeClient, Error};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The id of the fake extension: it connects with `Origin: chrome-extension://<EXT_ID>`.
pub const EXT_ID: &str = "obbcebjpclnphmijagoggibdnbknjkao";

/// A raw WebSocket to the bridge.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens a WebSocket to the server with the given `Origin` (or none).
pub async fn raw_connect(server: &ServerHandle, origin: Option<&str>) -> Result<Ws, Error> {
    let mut request = server.url().into_client_request()?;
    if let Some(origin) = origin {
        let value = HeaderValue::from_str(origin).expect("header value");
        request.headers_mut().insert("origin", value);
    }
    let (ws, _) = tokio_tungstenite::connect_async(request).await?;
    Ok(ws)
}

/// The next text frame as JSON (other frames skipped); panics on a close frame or after 10 s.
pub async fn next_json(ws: &mut Ws) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame within 10 s")
            .expect("connection open")
            .expect("frame ok");
        match message {
            Message::Text(text) => return serde_json::from_str(text.as_str()).expect("JSON frame"),
            Message::Close(frame) => panic!("connection closed: {frame:?}"),
            _ => continue,
        }
    }
}

/// Writes `value` as one text frame.
pub async fn send_json(ws: &mut Ws, value: Value) {
    ws.send(Message::text(value.to_string()))
        .await
        .expect("send");
}

/// Opens a WebSocket with the extension's `Origin` (see [`EXT_ID`]).
pub async fn extension_connect(server: &ServerHandle) -> Ws {
    raw_connect(server, Some(&format!("chrome-extension://{EXT_ID}")))
        .await
        .expect("extension upgrade accepted")
}

/// The extension's `hello` (protocol 4) with the pairing `token`.
pub fn extension_hello(token: &str) -> Value {
    json!({"type":"hello","role":"extension","protocolVersion":4,"extensionVersion":"0.1.0","name":"chrome-main","token":token})
}

/// Sends `hello` and returns the server's answer to it (`ack` or `reject`).
pub async fn say_hello(ws: &mut Ws, hello: Value) -> Value {
    send_json(ws, hello).await;
    next_json(ws).await
}

/// A library client connected with the pairing `token` (its `hello` acknowledged).
pub async fn connect_client(server: &ServerHandle, token: &str) -> BridgeClient {
    BridgeClient::connect(server.port(), token)
        .await
        .expect("the client's hello is acknowledged")
}
