//! Native tests of the bridge's client side (SPEC §9) with a fake extension: v1 result shapes per
//! client dialect, owner stamping, `new_tab`'s v1 result, and the event stream's bounded
//! per-subscriber buffer (a slow subscriber never blocks requests; drops are counted). No browser.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bua_bridge::server::{self, ServerConfig, ServerHandle};
use bua_bridge::{BridgeClient, Error};
use bua_protocol::ErrorCode;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

mod common;

use common::{
    connect_client, extension_connect, extension_hello, next_json, raw_connect, say_hello,
    send_json, Ws,
};

const TOKEN: &str = "client-api-token-0123456789";

async fn start_server(subscriber_buffer: usize) -> ServerHandle {
    let mut config = ServerConfig::loopback(0, TOKEN);
    config.subscriber_buffer = subscriber_buffer;
    server::start(config).await.expect("server starts")
}

/// A raw client that says the v1 hello (no protocolVersion), as a v1-bridge program does.
async fn v1_client(server: &ServerHandle) -> Ws {
    let mut ws = raw_connect(server, None).await.expect("upgrade");
    let hello = json!({"type":"hello","role":"client","name":"bridge-client","token":TOKEN});
    let ack = say_hello(&mut ws, hello).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    ws
}

/// A fake extension answering every request with `answer(action, owner)`; `events` lets the test
/// push event frames through the same connection. Returns the sender for events.
async fn fake_extension(
    server: &ServerHandle,
    answer: impl Fn(&Value, &str) -> Value + Send + 'static,
) -> mpsc::UnboundedSender<Value> {
    let mut ws = extension_connect(server).await;
    let ack = say_hello(&mut ws, extension_hello(TOKEN)).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let (mut sink, mut stream) = ws.split();
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Value>();
    tokio::spawn(async move {
        while let Some(v) = out_rx.recv().await {
            if sink.send(Message::text(v.to_string())).await.is_err() {
                break;
            }
        }
    });
    let (event_tx, mut event_rx) = mpsc::unbounded_channel::<Value>();
    let replies = out_tx.clone();
    tokio::spawn(async move {
        while let Some(Ok(message)) = stream.next().await {
            let Message::Text(text) = message else {
                continue;
            };
            let Ok(frame) = serde_json::from_str::<Value>(text.as_str()) else {
                continue;
            };
            if frame["type"] != "request" {
                continue;
            }
            let owner = frame["owner"].as_str().unwrap_or_default().to_string();
            let result = answer(&frame["action"], &owner);
            let _ = replies.send(json!({"type":"response","id":frame["id"],"result":result}));
        }
    });
    tokio::spawn(async move {
        while let Some(event) = event_rx.recv().await {
            if out_tx.send(json!({"type":"event","event":event})).is_err() {
                break;
            }
        }
    });
    // Wait until the bridge has installed the extension.
    server
        .wait_for_extension(Duration::from_secs(5))
        .await
        .expect("extension installed");
    event_tx
}

fn tab(tab_id: i64, url: &str, title: &str) -> Value {
    json!({"tabId": tab_id, "windowId": 1, "windowState": "minimized", "url": url, "title": title,
           "active": true, "agentOwned": true, "session": false})
}

/// The fake browser's answers: enough of SPEC §4 to check the bridge's reshaping.
fn answer(action: &Value, owner: &str) -> Value {
    match action["type"].as_str().unwrap_or_default() {
        "get_tabs" => {
            json!({"tabs": [tab(7, "http://127.0.0.1/a", "A"), tab(8, "http://127.0.0.1/new", "New page")]})
        }
        "open_tab" => json!({"tabId": 8, "windowId": 1, "domain": "127.0.0.1"}),
        "navigate" => json!({"tabId": action["tabId"], "url": action["url"], "title": "Example"}),
        "close_tab" => json!({"closed": true, "tabId": action["tabId"]}),
        "click" => {
            json!({"clicked": {"tag": "button", "id": "submit", "text": "提交"}, "tabId": 7})
        }
        "close_agent_tabs" => {
            json!({"closed": [8], "owner": action["owner"].as_str().unwrap_or(owner)})
        }
        "close_agent_window" => json!({"closed": true, "windowId": 5}),
        "evaluate" => {
            json!({"type": "object", "value": [{"text": "Example", "href": "https://example.com/"}]})
        }
        "scroll" => json!({"scrolled": {"dx": 0, "dy": 800}, "atEnd": false, "tabId": 7}),
        other => json!({"echo": other}),
    }
}

async fn v1_call(ws: &mut Ws, id: &str, method: &str, params: Value) -> Value {
    send_json(ws, json!({"id": id, "method": method, "params": params})).await;
    loop {
        let v = next_json(ws).await;
        if v["id"] == id {
            return v;
        }
    }
}

#[tokio::test]
async fn ping_is_answered_without_an_extension_and_actions_get_no_extension() {
    let server = start_server(16).await;
    let mut ws = v1_client(&server).await;
    assert_eq!(
        v1_call(&mut ws, "p1", "ping", json!({})).await,
        json!({"id":"p1","success":true,"result":{"pong":true}})
    );
    for (method, params) in [
        ("list_tabs", json!({})),
        (
            "navigate",
            json!({"url": "https://example.com", "tab_id": 7}),
        ),
        ("run_script", json!({"code": "1"})),
    ] {
        let r = v1_call(&mut ws, "x", method, params).await;
        assert_eq!(r["success"], false, "{r}");
        assert_eq!(r["code"], "no_extension", "{method}: {r}");
        assert!(
            r["error"]
                .as_str()
                .is_some_and(|e| e.contains("no extension is connected")),
            "{r}"
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn v1_clients_get_v1_keys_and_v4_clients_get_v4_results() {
    let server = start_server(16).await;
    let _ext = fake_extension(&server, answer).await;
    let mut v1 = v1_client(&server).await;

    let r = v1_call(&mut v1, "a", "list_tabs", json!({})).await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["result"]["tabs"][0]["tab_id"], 7, "{r}");
    assert_eq!(r["result"]["tabs"][0]["window_id"], 1, "{r}");
    assert!(r["result"]["tabs"][0].get("tabId").is_none(), "{r}");

    // new_tab: the bridge opens a blank agent tab, navigates it (waiting for the load) and looks
    // it up, so the v1 result has the loaded page's url and title, and `active`.
    for (id, method, params, result) in [
        (
            "b",
            "navigate",
            json!({"url": "https://example.com", "tab_id": 7}),
            json!({"tab_id": 7, "tabId": 7, "url": "https://example.com", "title": "Example"}),
        ),
        (
            "c",
            "new_tab",
            json!({"url": "http://127.0.0.1/new"}),
            json!({"tab_id": 8, "window_id": 1, "domain": "127.0.0.1", "url": "http://127.0.0.1/new",
                   "title": "Example", "active": true}),
        ),
        (
            "d",
            "run_script",
            json!({"code": "document.title", "tab_id": 7}),
            json!({"result": [{"text": "Example", "href": "https://example.com/"}], "tab_id": 7}),
        ),
        (
            "e",
            "close_agent_window",
            json!({}),
            json!({"closed": true, "windowId": 5, "window_id": 5}),
        ),
    ] {
        let r = v1_call(&mut v1, id, method, params).await;
        assert_eq!(r["result"], result, "{method}: {r}");
    }

    let r = v1_call(
        &mut v1,
        "f",
        "scroll",
        json!({"dx": 0, "dy": 800, "target": {"by": "css", "value": "#list"}, "smooth": true, "tab_id": 7}),
    )
    .await;
    assert_eq!(r["result"]["at_end"], false, "{r}");
    assert_eq!(r["result"]["tab_id"], 7, "{r}");

    // The library client declares protocol 4: shared methods answer in the v4 shape only.
    let v4 = connect_client(&server, TOKEN).await;
    let r = v4
        .call(
            "navigate",
            json!({"url": "https://example.com", "tabId": 7}),
        )
        .await
        .expect("ok");
    assert_eq!(
        r,
        json!({"tabId": 7, "url": "https://example.com", "title": "Example"})
    );
    // …but a v1-only name still answers in its v1 shape.
    let r = v4.call("list_tabs", json!({})).await.expect("ok");
    assert_eq!(r["tabs"][1]["tab_id"], 8, "{r}");
    server.shutdown().await;
}

#[tokio::test]
async fn each_client_is_stamped_as_the_owner_of_its_requests() {
    let server = start_server(16).await;
    let _ext = fake_extension(&server, answer).await;
    let a = connect_client(&server, TOKEN).await;
    let b = connect_client(&server, TOKEN).await;
    let ra = a.call("close_auto_tabs", json!({})).await.expect("a");
    let rb = b.call("close_agent_tabs", json!({})).await.expect("b");
    assert_eq!(ra["owner"], a.client_id(), "{ra}");
    assert_eq!(rb["owner"], b.client_id(), "{rb}");
    // An explicit owner goes through as the action's own parameter.
    let r = a
        .call("close_auto_tabs", json!({"owner": "mcp-1234-abcd"}))
        .await
        .expect("explicit");
    assert_eq!(r["owner"], "mcp-1234-abcd");
    server.shutdown().await;
}

#[tokio::test]
async fn a_slow_subscriber_never_blocks_requests_and_sees_how_many_events_it_lost() {
    const EVENTS: i64 = 8_000;
    const BUFFER: usize = 64;
    let server = start_server(BUFFER).await;
    let events = fake_extension(&server, answer).await;

    // The slow subscriber: subscribes, then stops reading its socket.
    let mut slow = v1_client(&server).await;
    let ack = v1_call(&mut slow, "s", "subscribe_events", json!({})).await;
    assert_eq!(ack["result"], json!({"subscribed": true}));
    // A fast subscriber reads everything as it comes.
    let fast = connect_client(&server, TOKEN).await;
    let mut fast_events = fast.forwarded_events();
    fast.call("subscribe_events", json!({})).await.expect("sub");
    let fast_seen = Arc::new(AtomicU64::new(0));
    let fast_dropped = Arc::new(AtomicU64::new(0));
    // The newest event the fast subscriber has seen: the flood waits for it, so the bridge is never
    // saturated by the extension side and any request delay would come from the slow subscriber.
    let fast_last = Arc::new(AtomicU64::new(0));
    let (seen, dropped, newest) = (fast_seen.clone(), fast_dropped.clone(), fast_last.clone());
    let fast_reader = tokio::spawn(async move {
        loop {
            match fast_events.recv().await {
                Ok(e) => {
                    seen.fetch_add(1, Ordering::Relaxed);
                    dropped.fetch_add(e.dropped, Ordering::Relaxed);
                    let tab_id = e.event["tabId"].as_u64().unwrap_or(0);
                    newest.fetch_max(tab_id, Ordering::Relaxed);
                    if tab_id == EVENTS as u64 {
                        break;
                    }
                }
                // This test's own in-process channel lagging counts as dropped too.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                    dropped.fetch_add(n, Ordering::Relaxed);
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            }
        }
    });

    // Flood ~1.5 KB events, in batches paced by the fast subscriber, while another client keeps
    // making requests. 12 MB is far more than the slow subscriber's socket buffers hold.
    let requester = connect_client(&server, TOKEN).await;
    let padding = format!("http://127.0.0.1/{}", "p".repeat(1500));
    let newest = fast_last.clone();
    let flood = tokio::spawn(async move {
        for tab_id in 1..=EVENTS {
            let event = json!({"type": "domain_blocked", "domain": "127.0.0.1", "url": padding, "tabId": tab_id});
            if events.send(event).is_err() {
                break;
            }
            if tab_id % 200 == 0 {
                let deadline = Instant::now() + Duration::from_secs(10);
                while newest.load(Ordering::Relaxed) < tab_id as u64 && Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            }
        }
    });
    let mut worst = Duration::ZERO;
    let mut requests = 0;
    while !flood.is_finished() {
        let started = Instant::now();
        let r = requester
            .call_timeout("get_tabs", json!({}), Duration::from_secs(5))
            .await
            .expect("requests are answered while events flood a slow subscriber");
        assert_eq!(r["tabs"][0]["tabId"], 7);
        worst = worst.max(started.elapsed());
        requests += 1;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    flood.await.expect("flood");
    // Generous for a loaded 2-core machine; typical is a few ms.
    assert!(
        worst < Duration::from_secs(3),
        "a request took {worst:?} while a slow subscriber was flooded"
    );
    tokio::time::timeout(Duration::from_secs(20), fast_reader)
        .await
        .expect("the fast subscriber got the last event")
        .expect("join");
    eprintln!(
        "[measure] worst latency of {requests} requests during a {EVENTS}-event flood: {worst:?}; fast subscriber saw {} events, {} dropped",
        fast_seen.load(Ordering::Relaxed),
        fast_dropped.load(Ordering::Relaxed)
    );
    assert_eq!(
        fast_seen.load(Ordering::Relaxed) + fast_dropped.load(Ordering::Relaxed),
        EVENTS as u64,
        "every event is either delivered or counted as dropped"
    );

    // Now the slow subscriber asks something before reading anything: its answer overtakes the
    // events still queued for it in the bridge. Then it reads: events in order, the oldest dropped
    // and counted, nothing unaccounted for, the newest kept.
    send_json(
        &mut slow,
        json!({"id": "late-ping", "method": "ping", "params": {}}),
    )
    .await;
    let mut received = 0u64;
    let mut dropped_total = 0u64;
    let mut last = 0i64;
    let mut saw_drop_marker = false;
    let mut pong_after: Option<u64> = None;
    while last < EVENTS || pong_after.is_none() {
        let frame = next_json(&mut slow).await;
        if frame["id"] == "late-ping" {
            assert_eq!(frame["result"], json!({"pong": true}));
            pong_after = Some(received);
            continue;
        }
        assert_eq!(frame["type"], "event", "{frame}");
        let tab_id = frame["event"]["tabId"].as_i64().expect("tabId");
        assert!(
            tab_id > last,
            "events arrive in order: {tab_id} after {last}"
        );
        let dropped = frame.get("dropped").and_then(Value::as_u64).unwrap_or(0);
        assert_eq!(
            tab_id - last - 1,
            dropped as i64,
            "the dropped counter says exactly how many events are missing before {tab_id}"
        );
        saw_drop_marker |= dropped > 0;
        dropped_total += dropped;
        received += 1;
        last = tab_id;
    }
    assert!(saw_drop_marker, "a slow subscriber must have lost events");
    assert_eq!(received + dropped_total, EVENTS as u64);
    assert!(
        server.stats().dropped_events >= dropped_total,
        "{:?}",
        server.stats()
    );
    let pong_after = pong_after.unwrap_or(received);
    assert!(
        pong_after < received,
        "the answer to the subscriber's own request must overtake the events queued in the bridge \
         (it came after all {received} events)"
    );
    eprintln!(
        "[measure] slow subscriber (buffer {BUFFER}): {received} events delivered, {dropped_total} dropped; \
         its ping answer overtook {} queued events",
        received - pong_after
    );
    server.shutdown().await;
}

#[tokio::test]
async fn invalid_v1_params_name_the_field() {
    let server = start_server(16).await;
    let mut ws = v1_client(&server).await;
    let r = v1_call(
        &mut ws,
        "t",
        "click",
        json!({"target": {"by": "id", "value": "x"}}),
    )
    .await;
    assert_eq!(r["code"], "invalid_action", "{r}");
    assert!(
        r["error"].as_str().is_some_and(|e| e.contains("target.by")),
        "{r}"
    );
    let client = connect_client(&server, TOKEN).await;
    let err = client
        .call("click", json!({"uid": "e1", "index": 2}))
        .await
        .expect_err("invalid");
    assert!(
        matches!(&err, Error::Remote { code: ErrorCode::InvalidAction, message } if message.contains("index")),
        "{err}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_hello_owner_is_stamped_instead_of_the_client_id_and_shared_by_connections() {
    let server = start_server(16).await;
    // The fake extension records the owner of every request it receives.
    let seen: Arc<std::sync::Mutex<Vec<(String, String)>>> = Arc::default();
    let record = seen.clone();
    let _ext = fake_extension(&server, move |action, owner| {
        let kind = action["type"].as_str().unwrap_or_default().to_string();
        record
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((kind, owner.to_string()));
        answer(action, owner)
    })
    .await;
    let a = BridgeClient::connect_as(server.port(), TOKEN, Some("agent-7"))
        .await
        .expect("a");
    let b = BridgeClient::connect_as(server.port(), TOKEN, Some("agent-7"))
        .await
        .expect("b");
    let c = connect_client(&server, TOKEN).await;
    assert_ne!(a.client_id(), b.client_id(), "still one client id each");
    assert_eq!((a.owner(), b.owner()), ("agent-7", "agent-7"));
    assert_eq!(c.owner(), c.client_id(), "no owner named: the client id");
    a.call("open_tab", json!({"url": "http://127.0.0.1/a"}))
        .await
        .expect("a opens");
    let r = b.call("close_agent_tabs", json!({})).await.expect("b");
    assert_eq!(r["owner"], "agent-7", "b reaches a's tabs: {r}");
    let r = c.call("close_agent_tabs", json!({})).await.expect("c");
    assert_eq!(r["owner"], c.client_id());
    assert_eq!(
        seen.lock().unwrap_or_else(|p| p.into_inner())[..2],
        [
            ("open_tab".to_string(), "agent-7".to_string()),
            ("close_agent_tabs".to_string(), "agent-7".to_string())
        ]
    );

    // A malformed owner is refused at the handshake, naming the field.
    for bad in ["", "a\nb", &"x".repeat(65)] {
        match BridgeClient::connect_as(server.port(), TOKEN, Some(bad)).await {
            Err(Error::Rejected { code, message }) => {
                assert_eq!(code, ErrorCode::InvalidAction);
                assert!(message.starts_with("bad hello: owner: "), "{message}");
            }
            other => panic!("{bad:?}: expected a reject, got {other:?}"),
        }
    }

    // Every CLI invocation is a new connection with the same owner: `cli`, `--owner`, `$BUA_OWNER`.
    seen.lock().unwrap_or_else(|p| p.into_inner()).clear();
    let port = server.port().to_string();
    let cli = |args: &[&str], env: Option<&str>| {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_bua-bridge"));
        command
            .args(args)
            .args(["--port", &port, "--token", TOKEN])
            .env_remove("BUA_OWNER")
            .stdin(std::process::Stdio::null());
        if let Some(owner) = env {
            command.env("BUA_OWNER", owner);
        }
        async move {
            let out = command.output().await.expect("run the CLI");
            assert!(out.status.success(), "{out:?}");
            serde_json::from_slice::<Value>(&out.stdout).expect("JSON")
        }
    };
    cli(&["open", "http://127.0.0.1/1"], None).await;
    cli(&["open", "http://127.0.0.1/2"], None).await;
    let r = cli(&["call", "close_agent_tabs"], None).await;
    assert_eq!(r["owner"], "cli", "{r}");
    let r = cli(&["call", "close_agent_tabs", "--owner", "ci-7"], None).await;
    assert_eq!(r["owner"], "ci-7", "{r}");
    let r = cli(&["call", "close_agent_tabs"], Some("from-env")).await;
    assert_eq!(r["owner"], "from-env", "{r}");
    let owners: Vec<String> = seen
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .map(|(_, o)| o.clone())
        .collect();
    assert_eq!(owners, ["cli", "cli", "cli", "ci-7", "from-env"]);
    server.shutdown().await;
}

#[tokio::test]
async fn the_mcp_server_acts_as_its_own_owner() {
    use bua_bridge::mcp::{default_owner, BrowserMcp, McpOptions};
    let server = start_server(16).await;
    let seen: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
    let record = seen.clone();
    let _ext = fake_extension(&server, move |action, owner| {
        record
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(owner.to_string());
        answer(action, owner)
    })
    .await;
    let owner = default_owner();
    let pid = std::process::id().to_string();
    let parts: Vec<&str> = owner.split('-').collect();
    assert_eq!(parts[..2], ["mcp", pid.as_str()], "{owner}");
    assert_eq!(parts[2].len(), 4, "{owner}");
    assert_ne!(default_owner(), owner, "one per MCP server process");
    let mcp = BrowserMcp::new(McpOptions {
        port: server.port(),
        url: None,
        owner: owner.clone(),
        token: TOKEN.into(),
        token_source: bua_bridge::mcp::TokenSource::Flag,
        start_bridge: false,
        extension_wait: Duration::ZERO,
        agent_grace: None,
        screenshot_cap: Default::default(),
        files_dirs: Vec::new(),
        secrets: None,
        switched_off: Vec::new(),
        allow: Vec::new(),
    });
    let args = |v: Value| v.as_object().cloned();
    for action in [
        json!({"type": "open_tab", "url": "http://127.0.0.1/a"}),
        json!({"type": "close_agent_tabs"}),
    ] {
        let result = mcp.run(args(action)).await;
        assert_ne!(result.is_error, Some(true), "{result:?}");
    }
    assert_eq!(
        *seen.lock().unwrap_or_else(|p| p.into_inner()),
        [owner.clone(), owner.clone()]
    );
    server.shutdown().await;
}
