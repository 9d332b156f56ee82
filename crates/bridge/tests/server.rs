//! Native tests of the bridge server (SPEC §2, §3, §9) with a fake extension: a tokio-tungstenite
//! client that sends `Origin: chrome-extension://<id>`. Fast, no browser.

use std::time::{Duration, Instant};

use bua_bridge::server::{self, ServerConfig, ServerHandle, CLOSE_REPLACED};
use bua_bridge::{BridgeClient, Error};
use bua_protocol::ErrorCode;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

mod common;

use common::{
    connect_client, extension_connect, extension_hello, next_json, raw_connect, say_hello,
    send_json, Ws, EXT_ID,
};

const TOKEN: &str = "test-token-0123456789abcdef";

async fn start_server(min_version: Option<u32>) -> ServerHandle {
    let mut config = ServerConfig::loopback(0, TOKEN);
    config.extension_id = Some(EXT_ID.to_string());
    if let Some(v) = min_version {
        config.min_protocol_version = v;
    }
    server::start(config).await.expect("server starts")
}

/// A fake extension that completed the handshake.
async fn fake_extension(server: &ServerHandle) -> Ws {
    let mut ws = extension_connect(server).await;
    let ack = say_hello(&mut ws, extension_hello(TOKEN)).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(ack["protocolVersion"], 4);
    assert!(
        ack.get("clientId").is_none(),
        "extensions get no clientId: {ack}"
    );
    ws
}

fn http_status(err: &Error) -> Option<u16> {
    match err {
        Error::WebSocket(e) => match e.as_ref() {
            tokio_tungstenite::tungstenite::Error::Http(response) => {
                Some(response.status().as_u16())
            }
            _ => None,
        },
        _ => None,
    }
}

/// Reads frames until the close frame; returns its code and reason.
async fn expect_close(ws: &mut Ws) -> (u16, String) {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Close(Some(frame))))) => {
                return (u16::from(frame.code), frame.reason.to_string())
            }
            Ok(Some(Ok(Message::Close(None)))) => return (1005, String::new()),
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(e))) => panic!("error instead of a close frame: {e}"),
            Ok(None) => panic!("stream ended without a close frame"),
            Err(_) => panic!("no close frame within 10 s"),
        }
    }
}

/// `err` is the handshake's `reject` with `unauthorized`, its message saying `says`.
fn assert_unauthorized(err: &Error, says: &str) {
    assert!(
        matches!(
            err,
            Error::Rejected {
                code: ErrorCode::Unauthorized,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains(says), "{err}");
}

#[tokio::test]
async fn client_handshake_gets_ack_with_a_client_id() {
    let server = start_server(None).await;
    let client = connect_client(&server, TOKEN).await;
    let id = client.client_id();
    assert!(id.starts_with("cli-") && id.len() == 12, "{id}");
    assert!(id[4..].bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    assert_eq!(client.server_version(), bua_bridge::SERVER_VERSION);
    let other = connect_client(&server, TOKEN).await;
    assert_ne!(other.client_id(), id, "every client gets its own id");
    assert_eq!(server.stats().client_acks, 2);
    server.shutdown().await;
}

#[tokio::test]
async fn wrong_or_missing_token_is_rejected_unauthorized() {
    let server = start_server(None).await;
    let err = BridgeClient::connect(server.port(), "wrong")
        .await
        .expect_err("rejected");
    assert_unauthorized(&err, "wrong pairing token");

    let hello = json!({"type":"hello","role":"client","name":"x"});
    let err = BridgeClient::connect_with_hello(server.port(), hello)
        .await
        .expect_err("rejected");
    assert_unauthorized(&err, "missing pairing token");

    let mut ws = extension_connect(&server).await;
    let reject = say_hello(&mut ws, extension_hello("nope")).await;
    assert_eq!(reject["type"], "reject");
    assert_eq!(reject["error"]["code"], "unauthorized");
    let (code, _) = expect_close(&mut ws).await;
    assert_eq!(code, 1008);
    assert_eq!(server.stats().rejects, 3);
    server.shutdown().await;
}

#[tokio::test]
async fn web_origins_are_refused_at_the_upgrade_with_403() {
    let server = start_server(None).await;
    let port = server.port();
    for origin in [
        format!("http://127.0.0.1:{port}"),
        "http://127.0.0.1:8000".to_string(),
        "https://example.com".to_string(),
        "http://127.0.0.1.evil.example".to_string(),
        "null".to_string(),
        "file://".to_string(),
        // A look-alike extension when the id is pinned.
        "chrome-extension://abcdefghijklmnopabcdefghijklmnop".to_string(),
        format!("chrome-extension://{EXT_ID}.evil.example"),
    ] {
        let err = raw_connect(&server, Some(&origin))
            .await
            .err()
            .unwrap_or_else(|| panic!("{origin} accepted"));
        assert_eq!(http_status(&err), Some(403), "{origin}: {err:?}");
    }
    assert_eq!(server.stats().refused_origins, 8);
    assert_eq!(server.stats().rejects, 0, "refused before any hello");
    server.shutdown().await;
}

#[tokio::test]
async fn role_must_match_the_origin_class() {
    let server = start_server(None).await;
    // A native program (no Origin) claiming to be the extension.
    let mut ws = raw_connect(&server, None).await.expect("upgrade");
    let reject = say_hello(&mut ws, extension_hello(TOKEN)).await;
    assert_eq!(reject["error"]["code"], "unauthorized", "{reject}");
    assert!(
        reject["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("role `extension`"),
        "{reject}"
    );

    // The extension's Origin claiming to be a client.
    let mut ws = extension_connect(&server).await;
    let hello = json!({"type":"hello","role":"client","token":TOKEN});
    let reject = say_hello(&mut ws, hello).await;
    assert_eq!(reject["error"]["code"], "unauthorized", "{reject}");
    assert!(server.extension().borrow().is_none());
    server.shutdown().await;
}

#[tokio::test]
async fn protocol_versions_outside_the_range_are_rejected() {
    let server = start_server(None).await;
    for version in [json!(3), json!(5), Value::Null] {
        let mut ws = extension_connect(&server).await;
        let mut hello = extension_hello(TOKEN);
        if version.is_null() {
            hello
                .as_object_mut()
                .expect("object")
                .remove("protocolVersion");
        } else {
            hello["protocolVersion"] = version.clone();
        }
        let reject = say_hello(&mut ws, hello).await;
        assert_eq!(reject["type"], "reject", "{version}: {reject}");
        assert_eq!(
            reject["error"]["code"], "protocol_version_mismatch",
            "{version}: {reject}"
        );
    }
    server.shutdown().await;

    // A bridge that requires protocol 5 refuses today's extension (SPEC §2: the version ranges must overlap).
    let server = start_server(Some(5)).await;
    let mut ws = extension_connect(&server).await;
    let reject = say_hello(&mut ws, extension_hello(TOKEN)).await;
    assert_eq!(reject["error"]["code"], "protocol_version_mismatch");
    assert!(
        reject["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("5..=4"),
        "{reject}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn the_first_frame_must_be_hello() {
    let server = start_server(None).await;
    let mut ws = raw_connect(&server, None).await.expect("upgrade");
    send_json(&mut ws, json!({"id":"1","method":"ping"})).await;
    let reject = next_json(&mut ws).await;
    assert_eq!(reject["type"], "reject");
    assert_eq!(reject["error"]["code"], "invalid_action");
    server.shutdown().await;
}

/// `--no-evaluate` (SPEC §10): the bridge refuses `evaluate` (and its v1 alias `run_script`) with
/// `not_allowed` saying the person turned it off, before any extension is asked; other actions go on.
#[tokio::test]
async fn an_action_the_person_turned_off_is_not_allowed_before_the_extension_is_asked() {
    let mut config = ServerConfig::loopback(0, TOKEN);
    config.switched_off = vec!["evaluate"];
    let server = server::start(config).await.expect("server starts");
    let client = connect_client(&server, TOKEN).await;
    for (method, params) in [
        ("evaluate", json!({"expression": "return 1"})),
        ("run_script", json!({"code": "1"})),
    ] {
        let err = client.call(method, params).await.expect_err("refused");
        assert_eq!(err.code(), ErrorCode::NotAllowed, "{err}");
        assert!(
            err.to_string().contains("evaluate is turned off")
                && err.to_string().contains("--no-evaluate"),
            "{err}"
        );
    }
    let err = client
        .call("get_tabs", json!({}))
        .await
        .expect_err("no extension");
    assert_eq!(err.code(), ErrorCode::NoExtension, "{err}");
    server.shutdown().await;
}

/// `--allow` and the switches reach the extension in its `ack` (SPEC §2, §10), which enforces them;
/// a bridge without controls sends none.
#[tokio::test]
async fn the_extensions_ack_carries_the_bridges_unattended_run_controls() {
    let mut config = ServerConfig::loopback(0, TOKEN);
    config.extension_id = Some(EXT_ID.to_string());
    config.switched_off = vec!["upload"];
    config.allow = vec!["shop.test".into(), "127.0.0.1".into()];
    let server = server::start(config).await.expect("server starts");
    let mut ws = extension_connect(&server).await;
    let ack = say_hello(&mut ws, extension_hello(TOKEN)).await;
    assert_eq!(
        ack["controls"],
        json!({"allow": ["shop.test", "127.0.0.1"], "off": ["upload"]}),
        "{ack}"
    );
    server.shutdown().await;
    let plain = start_server(None).await;
    let mut ws = extension_connect(&plain).await;
    let ack = say_hello(&mut ws, extension_hello(TOKEN)).await;
    assert!(ack.get("controls").is_none(), "{ack}");
    plain.shutdown().await;
}

#[tokio::test]
async fn ping_is_answered_by_the_bridge_and_actions_need_an_extension() {
    let server = start_server(None).await;
    let client = connect_client(&server, TOKEN).await;
    assert_eq!(
        client.call("ping", Value::Null).await.expect("pong"),
        json!({"pong": true, "serverVersion": bua_bridge::SERVER_VERSION, "extension": null})
    );
    let err = client
        .call("get_tabs", json!({}))
        .await
        .expect_err("no extension");
    assert_eq!(err.code(), ErrorCode::NoExtension, "{err}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_client_request_reaches_the_extension_with_owner_and_uuid_and_comes_back() {
    let server = start_server(None).await;
    let mut ext = fake_extension(&server).await;
    let info = server
        .wait_for_extension(Duration::from_secs(2))
        .await
        .expect("extension");
    assert_eq!(info.extension_id, EXT_ID);
    assert_eq!(info.name.as_deref(), Some("chrome-main"));
    let client = connect_client(&server, TOKEN).await;
    let owner = client.client_id().to_string();
    let call = tokio::spawn(async move {
        let result = client.call("get_tabs", json!({})).await;
        (client, result)
    });
    let request = next_json(&mut ext).await;
    assert_eq!(request["type"], "request");
    assert_eq!(request["owner"], owner.as_str());
    assert_eq!(request["action"], json!({"type":"get_tabs"}));
    let id = request["id"].as_str().expect("id").to_string();
    let parsed = uuid::Uuid::parse_str(&id).expect("UUID");
    assert_eq!(parsed.get_version_num(), 4);
    let tabs = json!({"tabs":[{"tabId":7,"windowId":1,"windowState":"normal","url":"http://x/","title":"X","active":true,"agentOwned":false,"session":false}]});
    send_json(&mut ext, json!({"type":"response","id":id,"result":tabs})).await;
    let (_client, result) = call.await.expect("join");
    assert_eq!(result.expect("result"), tabs);
    server.shutdown().await;
}

#[tokio::test]
async fn extension_errors_reach_the_client_with_their_code() {
    let server = start_server(None).await;
    let mut ext = fake_extension(&server).await;
    let client = connect_client(&server, TOKEN).await;
    let call = tokio::spawn(async move { client.call("close_tab", json!({"tabId": 99})).await });
    let request = next_json(&mut ext).await;
    assert_eq!(request["action"], json!({"type":"close_tab","tabId":99}));
    send_json(
        &mut ext,
        json!({"type":"response","id":request["id"],"error":{"code":"tab_not_found","message":"no tab 99: call get_tabs"}}),
    )
    .await;
    let err = call.await.expect("join").expect_err("error");
    assert!(
        matches!(&err, Error::Remote { code: ErrorCode::TabNotFound, message } if message == "no tab 99: call get_tabs"),
        "{err:?}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn concurrent_calls_on_one_client_are_matched_by_id() {
    let server = start_server(None).await;
    let mut ext = fake_extension(&server).await;
    let client = std::sync::Arc::new(connect_client(&server, TOKEN).await);
    let mut calls = Vec::new();
    for tab in 0..20 {
        let client = client.clone();
        calls.push(tokio::spawn(async move {
            (tab, client.call("close_tab", json!({"tabId": tab})).await)
        }));
    }
    let mut requests = Vec::new();
    for _ in 0..20 {
        requests.push(next_json(&mut ext).await);
    }
    // Answer in reverse order; each caller must get the answer of its own tab.
    for request in requests.iter().rev() {
        let tab = request["action"]["tabId"].clone();
        send_json(
            &mut ext,
            json!({"type":"response","id":request["id"],"result":{"closed":true,"tabId":tab}}),
        )
        .await;
    }
    for call in calls {
        let (tab, result) = call.await.expect("join");
        assert_eq!(result.expect("ok"), json!({"closed": true, "tabId": tab}));
    }
    server.shutdown().await;
}

#[tokio::test]
async fn invalid_actions_and_malformed_client_frames_get_invalid_action_and_the_connection_stays_open(
) {
    let server = start_server(None).await;
    let client = connect_client(&server, TOKEN).await;

    let err = client.call("click", json!({})).await.expect_err("invalid");
    assert_eq!(err.code(), ErrorCode::InvalidAction);
    assert!(
        err.to_string().contains("uid") || err.to_string().contains("locator"),
        "names the field: {err}"
    );

    let err = client
        .call("open_tab", json!({"url": 5}))
        .await
        .expect_err("invalid");
    assert_eq!(err.code(), ErrorCode::InvalidAction);
    assert!(err.to_string().contains("url"), "names the field: {err}");

    let err = client
        .call("no_such_method", json!({}))
        .await
        .expect_err("invalid");
    assert_eq!(err.code(), ErrorCode::InvalidAction);

    // Not JSON at all: the answer has an empty id.
    let answer = client.send_raw_unidentified("{not json".to_string()).await;
    assert_eq!(
        answer.err().map(|e| e.code()),
        Some(ErrorCode::InvalidAction)
    );
    // Readable id, bad method.
    let answer = client
        .call_raw_with_id("r1".into(), json!({"id":"r1","method":5}).to_string())
        .await;
    let err = answer.expect_err("invalid");
    assert_eq!(err.code(), ErrorCode::InvalidAction);
    assert!(err.to_string().contains("method"), "{err}");

    assert_eq!(
        client.call("ping", Value::Null).await.expect("still open")["pong"],
        true
    );
    assert_eq!(server.stats().invalid_frames, 5);
    server.shutdown().await;
}

#[tokio::test]
async fn malformed_extension_frames_get_an_error_frame_and_the_connection_stays_open() {
    let server = start_server(None).await;
    let mut ext = fake_extension(&server).await;
    ext.send(Message::text("{not json")).await.expect("send");
    let error = next_json(&mut ext).await;
    assert_eq!(error["type"], "error", "{error}");
    assert_eq!(error["error"]["code"], "invalid_action");

    send_json(&mut ext, json!({"type":"bogus","id":"x1"})).await;
    let error = next_json(&mut ext).await;
    assert_eq!(error["error"]["code"], "invalid_action");
    assert_eq!(error["id"], "x1", "the id is echoed when readable");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("type"),
        "{error}"
    );

    send_json(
        &mut ext,
        json!({"type":"response","id":"x2","result":{},"extra":1}),
    )
    .await;
    let error = next_json(&mut ext).await;
    assert_eq!(error["error"]["code"], "invalid_action");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("extra"),
        "{error}"
    );

    send_json(&mut ext, json!({"type":"ping"})).await;
    assert_eq!(next_json(&mut ext).await, json!({"type":"pong"}));
    assert!(server.extension().borrow().is_some(), "still the extension");
    server.shutdown().await;
}

#[tokio::test]
async fn a_request_without_answer_times_out_and_the_late_answer_is_dropped() {
    let server = start_server(None).await;
    let mut ext = fake_extension(&server).await;
    let client = connect_client(&server, TOKEN).await;
    let started = Instant::now();
    let call = tokio::spawn(async move { client.call("get_tabs", json!({})).await });
    let request = next_json(&mut ext).await;
    let err = call.await.expect("join").expect_err("timeout");
    let waited = started.elapsed();
    assert_eq!(err.code(), ErrorCode::Timeout, "{err}");
    // get_tabs has a 5 s timeout (SPEC §4).
    assert!(
        waited >= Duration::from_millis(4900) && waited < Duration::from_secs(7),
        "{waited:?}"
    );
    send_json(
        &mut ext,
        json!({"type":"response","id":request["id"],"result":{"tabs":[]}}),
    )
    .await;
    send_json(&mut ext, json!({"type":"ping"})).await;
    assert_eq!(next_json(&mut ext).await, json!({"type":"pong"}));
    assert_eq!(server.stats().late_responses, 1);
    server.shutdown().await;
}

#[tokio::test]
async fn pending_requests_fail_at_once_when_the_extension_disconnects() {
    let server = start_server(None).await;
    let mut ext = fake_extension(&server).await;
    let client = connect_client(&server, TOKEN).await;
    let call = tokio::spawn(async move { client.call("get_tabs", json!({})).await });
    let _request = next_json(&mut ext).await;
    let dropped = Instant::now();
    drop(ext);
    let err = call.await.expect("join").expect_err("fails");
    assert_eq!(err.code(), ErrorCode::NoExtension, "{err}");
    assert!(err.to_string().contains("disconnected"), "{err}");
    assert!(
        dropped.elapsed() < Duration::from_secs(2),
        "{:?}",
        dropped.elapsed()
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_newer_extension_replaces_the_older_one() {
    let server = start_server(None).await;
    let mut old = fake_extension(&server).await;
    let first = server
        .wait_for_extension(Duration::from_secs(2))
        .await
        .expect("first");
    let mut new = fake_extension(&server).await;
    let (code, reason) = expect_close(&mut old).await;
    assert_eq!(code, CLOSE_REPLACED);
    assert!(reason.contains("replaced"), "{reason}");
    let second = server.extension().borrow().clone().expect("second");
    assert_ne!(first.connection, second.connection);

    let client = connect_client(&server, TOKEN).await;
    let call = tokio::spawn(async move { client.call("get_tabs", json!({})).await });
    let request = next_json(&mut new).await;
    send_json(
        &mut new,
        json!({"type":"response","id":request["id"],"result":{"tabs":[]}}),
    )
    .await;
    assert_eq!(call.await.expect("join").expect("ok"), json!({"tabs": []}));
    assert!(
        server.extension().borrow().is_some(),
        "the old connection's close must not unset the new one"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn events_are_forwarded_to_subscribed_clients_once_and_in_order() {
    let server = start_server(None).await;
    let mut ext = fake_extension(&server).await;
    let client = connect_client(&server, TOKEN).await;
    let quiet = connect_client(&server, TOKEN).await;
    let mut events = client.events();
    let mut quiet_events = quiet.events();
    for _ in 0..2 {
        assert_eq!(
            client
                .call("subscribe_events", Value::Null)
                .await
                .expect("ok"),
            json!({"subscribed": true})
        );
    }
    let sent: Vec<Value> = (1..=3)
        .map(|tab| json!({"type":"tab_closed","tabId":tab}))
        .collect();
    for event in &sent {
        send_json(&mut ext, json!({"type":"event","event":event})).await;
    }
    for want in &sent {
        let got = tokio::time::timeout(Duration::from_secs(5), events.recv())
            .await
            .expect("in time")
            .expect("event");
        assert_eq!(&got, want);
    }
    // Subscribing twice does not duplicate; an unsubscribed client gets nothing.
    client.call("ping", Value::Null).await.expect("ping");
    assert!(events.try_recv().is_err(), "no duplicate events");
    assert!(
        quiet_events.try_recv().is_err(),
        "unsubscribed clients get no events"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn an_oversize_frame_is_closed_with_1009() {
    let server = start_server(None).await;
    let mut ws = raw_connect(&server, None).await.expect("upgrade");
    send_json(
        &mut ws,
        json!({"type":"hello","role":"client","token":TOKEN}),
    )
    .await;
    assert_eq!(next_json(&mut ws).await["type"], "ack");
    let big = format!(
        "{{\"id\":\"big\",\"method\":\"ping\",\"params\":{{\"x\":\"{}\"}}}}",
        "a".repeat(17 << 20)
    );
    // The server may close while we are still writing; ignore the write error.
    let _ = ws.send(Message::text(big)).await;
    let (code, reason) = expect_close(&mut ws).await;
    assert_eq!(code, u16::from(CloseCode::Size));
    assert!(reason.contains("16 MiB"), "{reason}");
    server.shutdown().await;
}

#[tokio::test]
async fn shutdown_closes_connections_with_going_away() {
    let server = start_server(None).await;
    let mut ext = fake_extension(&server).await;
    server.shutdown().await;
    let (code, reason) = expect_close(&mut ext).await;
    assert_eq!(code, 1001);
    assert!(reason.contains("shutting down"), "{reason}");
}

/// Starts a server whose actions wait up to `wait` for an extension.
async fn start_waiting_server(wait: Duration) -> ServerHandle {
    let mut config = ServerConfig::loopback(0, TOKEN);
    config.extension_id = Some(EXT_ID.to_string());
    config.extension_wait = wait;
    server::start(config).await.expect("server starts")
}

/// Answers the next request on `ext` with `result`; returns the request.
async fn answer_next(ext: &mut Ws, result: Value) -> Value {
    let request = next_json(ext).await;
    assert_eq!(request["type"], "request", "{request}");
    send_json(
        ext,
        json!({"type":"response","id":request["id"],"result":result}),
    )
    .await;
    request
}

// An MCP server that starts its own bridge used to get `no_extension` for its first calls, until
// the extension (in its reconnect backoff) came back.
#[tokio::test]
async fn an_action_waits_for_an_extension_that_connects_a_second_later() {
    let server = start_waiting_server(Duration::from_secs(10)).await;
    let client = connect_client(&server, TOKEN).await;
    let started = Instant::now();
    let call = tokio::spawn(async move {
        let result = client.call("get_tabs", json!({})).await;
        (client, result)
    });
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!call.is_finished(), "the action did not wait");
    let mut ext = fake_extension(&server).await;
    let tabs = json!({"tabs": []});
    let request = answer_next(&mut ext, tabs.clone()).await;
    assert_eq!(request["action"], json!({"type": "get_tabs"}));
    let (client, result) = call.await.expect("join");
    assert_eq!(result.expect("answered once the extension came"), tabs);
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(950) && waited < Duration::from_secs(3),
        "{waited:?}"
    );

    // The extension goes away (a service-worker restart): the wait starts again from there.
    drop(ext);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let call = tokio::spawn(async move {
        let result = client.call("extract", json!({})).await;
        (client, result)
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut ext = fake_extension(&server).await;
    answer_next(&mut ext, json!({"url": "x"})).await;
    let (_client, result) = call.await.expect("join");
    assert_eq!(
        result.expect("answered after the reconnect"),
        json!({"url": "x"})
    );
    server.shutdown().await;
}

#[tokio::test]
async fn past_the_wait_an_action_without_an_extension_fails_at_once() {
    let server = start_waiting_server(Duration::from_millis(600)).await;
    let client = connect_client(&server, TOKEN).await;
    // Within the window the action waits it out, then fails with no_extension saying so.
    let started = Instant::now();
    let err = client
        .call("get_tabs", json!({}))
        .await
        .expect_err("no extension");
    let waited = started.elapsed();
    assert_eq!(err.code(), ErrorCode::NoExtension, "{err}");
    assert!(
        err.to_string().starts_with(
            "no extension is connected to the bridge (none connected within 0.6 s of the bridge's start or the extension's last disconnect): open Chrome"
        ),
        "{err}"
    );
    assert!(
        waited >= Duration::from_millis(300) && waited < Duration::from_secs(2),
        "{waited:?}"
    );
    // Past the window: at once.
    let started = Instant::now();
    let err = client
        .call("get_tabs", json!({}))
        .await
        .expect_err("no extension");
    assert_eq!(err.code(), ErrorCode::NoExtension, "{err}");
    assert!(
        started.elapsed() < Duration::from_millis(200),
        "{:?}",
        started.elapsed()
    );
    // ping never waits.
    assert_eq!(
        client.call("ping", Value::Null).await.expect("pong"),
        json!({"pong": true, "serverVersion": bua_bridge::SERVER_VERSION, "extension": null})
    );
    server.shutdown().await;
}

#[tokio::test]
async fn shutdown_ends_an_action_waiting_for_an_extension() {
    let server = start_waiting_server(Duration::from_secs(30)).await;
    let client = connect_client(&server, TOKEN).await;
    let call = tokio::spawn(async move { client.call("get_tabs", json!({})).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    server.shutdown().await;
    let result = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("the call ends with the server")
        .expect("join");
    assert!(result.is_err(), "{result:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
}
