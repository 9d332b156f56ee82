//! End-to-end tests of the foundation (SPEC §2, §3, §9: launch, pairing, reconnects) in real headless Chromium
//! with the built extension, the real `bua-bridge launch`, and fixture pages on 127.0.0.1.

use crate::support;

use std::time::{Duration, Instant};

use bua_bridge::server;
use bua_bridge::{BridgeClient, Error};
use bua_protocol::ErrorCode;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use support::{
    eventually, failure, get_tabs, note, processes_matching, Browser, BrowserOptions, FixtureServer,
};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

/// Opens a raw WebSocket to `port` with an optional `Origin`.
async fn raw_upgrade(
    port: u16,
    origin: Option<&str>,
) -> Result<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    Error,
> {
    let mut request = format!("ws://127.0.0.1:{port}").into_client_request()?;
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("origin", HeaderValue::from_str(origin).expect("header"));
    }
    let (ws, _) = tokio_tungstenite::connect_async(request).await?;
    Ok(ws)
}

fn http_status(err: &Error) -> Option<u16> {
    match err {
        Error::WebSocket(e) => match e.as_ref() {
            tokio_tungstenite::tungstenite::Error::Http(r) => Some(r.status().as_u16()),
            _ => None,
        },
        _ => None,
    }
}

/// The next text frame of a raw WebSocket as JSON (10 s at most).
async fn next_json<S>(ws: &mut S) -> Value
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    support::next_json_frame(ws, Duration::from_secs(10)).await
}

#[tokio::test]
async fn handshake_the_extension_is_acked_and_a_client_gets_a_client_id() {
    let browser = &Browser::shared("bridge");
    let dt = browser.devtools().await;
    let state = browser
        .wait_connection_state(&dt, Duration::from_secs(5), |s| s["state"] == "connected")
        .await;
    assert_eq!(state["url"], browser.bridge_url().as_str(), "{state}");

    let client = browser.client().await;
    assert!(
        client.client_id().starts_with("cli-"),
        "{}",
        client.client_id()
    );
    // A v4 client's ping also names the bridge's version and the extension it serves (SPEC §9).
    let pong = client.call("ping", Value::Null).await.expect("pong");
    assert_eq!(pong["pong"], true, "{pong}");
    assert_eq!(pong["serverVersion"], bua_bridge::SERVER_VERSION, "{pong}");
    assert_eq!(
        pong["extension"]["id"],
        browser.extension_id.as_str(),
        "{pong}"
    );
    assert_eq!(
        pong["extension"]["version"],
        bua_bridge::SERVER_VERSION,
        "{pong}"
    );
}

#[tokio::test]
async fn get_tabs_returns_the_fixture_tab_with_its_url_and_title() {
    let browser = &Browser::shared("bridge");
    let fixtures = FixtureServer::shared();
    let url = fixtures.url("/basic/index.html");
    let dt = browser.devtools().await;
    dt.open_page(&url).await.expect("open the fixture page");
    let client = browser.client().await;
    let tab = eventually(Duration::from_secs(10), || async {
        let tabs = get_tabs(&client).await.expect("get_tabs works");
        tabs.into_iter()
            .find(|t| t["url"] == url.as_str() && t["title"] == "BUA basic fixture")
    })
    .await
    .unwrap_or_else(|| {
        panic!(
            "the fixture tab never showed up in get_tabs\n{}",
            browser.logs()
        )
    });
    assert!(tab["tabId"].as_i64().is_some_and(|id| id > 0), "{tab}");
    assert!(tab["windowId"].as_i64().is_some(), "{tab}");
    assert!(
        ["normal", "minimized", "maximized", "fullscreen"]
            .contains(&tab["windowState"].as_str().unwrap_or("")),
        "{tab}"
    );
    assert!(tab["active"].is_boolean(), "{tab}");
    assert_eq!(
        tab["agentOwned"], false,
        "the test opened it, not the agent: {tab}"
    );
    assert_eq!(tab["session"], false, "{tab}");
}

#[tokio::test]
async fn web_origins_are_refused_at_the_upgrade_for_both_roles() {
    let browser = &Browser::shared("bridge");
    let fixtures = FixtureServer::shared();
    let page_origin = format!("http://127.0.0.1:{}", fixtures.port());
    for origin in [
        page_origin.as_str(),
        "null",
        "http://127.0.0.1.evil.example",
        "file://",
        // A look-alike extension: launch pins the real extension id.
        "chrome-extension://abcdefghijklmnopabcdefghijklmnop",
    ] {
        // The Origin decides at the upgrade, before any hello: refused whatever role follows.
        for role in ["client", "extension"] {
            let err = raw_upgrade(browser.port, Some(origin))
                .await
                .err()
                .unwrap_or_else(|| panic!("{origin} ({role}) was accepted"));
            assert_eq!(http_status(&err), Some(403), "{origin} ({role}): {err:?}");
        }
    }

    // The real threat: a web page in the browser opening the bridge. Its WebSocket never opens.
    let dt = browser.devtools().await;
    let target = dt
        .open_page(&fixtures.url("/basic/index.html"))
        .await
        .expect("page");
    let session = dt.attach(&target).await.expect("attach");
    let outcome = eventually(Duration::from_secs(5), || async {
        let js = format!(
            "new Promise(r => {{ const ws = new WebSocket('ws://127.0.0.1:{}'); \
             ws.onopen = () => r('open'); ws.onclose = e => r('closed:' + e.code); }})",
            browser.port
        );
        dt.evaluate(&session, &js).await.ok()
    })
    .await
    .expect("the page's WebSocket settles");
    assert_eq!(
        outcome,
        json!("closed:1006"),
        "a web page must not reach the bridge"
    );
    dt.close_target(&target).await.expect("close page");
}

#[tokio::test]
async fn a_wrong_token_is_rejected_unauthorized() {
    let browser = &Browser::shared("bridge");
    let err = BridgeClient::connect(browser.port, "0000wrong")
        .await
        .expect_err("rejected");
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
}

#[tokio::test]
async fn a_malformed_client_frame_gets_invalid_action_and_the_connection_stays_open() {
    let browser = &Browser::shared("bridge");
    let client = browser.client().await;
    failure(
        client
            .send_raw_unidentified("{\"id\": 12, this is not json".to_string())
            .await,
        ErrorCode::InvalidAction,
    );

    failure(
        client.call("click", json!({"tabId": "seven"})).await,
        ErrorCode::InvalidAction,
    );

    // Same connection, still working, through to the extension.
    get_tabs(&client)
        .await
        .expect("get_tabs after malformed frames");
}

/// Everything that needs the extension away from the shared bridge runs in its own browser:
/// a bridge that requires protocol 5 (reject → fatal, no reconnect for ≥ 10 s), a wrong token
/// (reject unauthorized → fatal), a malformed frame on an extension-role connection, recovery.
#[tokio::test]
async fn handshake_rejects_are_fatal_for_the_extension_until_its_settings_change() {
    let (browser, dt) = Browser::launch_connected(BrowserOptions::default()).await;

    // A second bridge that requires protocol 5, same token, same pinned id.
    let mut config = browser.second_bridge_config();
    config.min_protocol_version = 5;
    let strict = server::start(config).await.expect("strict bridge");
    browser
        .storage_set(&dt, json!({"backendUrl": strict.url()}))
        .await;
    let state = browser
        .wait_connection_state(&dt, Duration::from_secs(10), |s| s["state"] == "fatal")
        .await;
    assert_eq!(state["code"], "protocol_version_mismatch", "{state}");
    // The bridge names the command that writes the extension of its own version (SPEC §11).
    assert!(
        state["message"]
            .as_str()
            .is_some_and(|m| m.contains("run `bua-bridge extension`")),
        "{state}"
    );
    let after_reject = strict.stats();
    assert_eq!(after_reject.rejects, 1, "{after_reject:?}");
    assert_eq!(after_reject.extension_acks, 0, "{after_reject:?}");
    let attempts = after_reject.upgrade_requests;
    tokio::time::sleep(Duration::from_secs(11)).await;
    let later = strict.stats();
    assert_eq!(
        later.upgrade_requests, attempts,
        "the extension tried again after a fatal reject: {later:?}"
    );
    let state = browser.storage_get(&dt, "connection").await;
    assert_eq!(state["state"], "fatal", "still fatal after 11 s: {state}");
    strict.shutdown().await;

    // Back to the launched bridge, with a wrong token.
    browser
        .storage_set(
            &dt,
            json!({"backendUrl": browser.bridge_url(), "token": "0000wrong"}),
        )
        .await;
    let state = browser
        .wait_connection_state(&dt, Duration::from_secs(10), |s| {
            s["state"] == "fatal" && s["code"] == "unauthorized"
        })
        .await;
    assert!(
        state["message"]
            .as_str()
            .is_some_and(|m| m.contains("token")),
        "{state}"
    );

    // The extension is away (fatal), so an extension-role connection can test malformed frames
    // against the launched bridge without racing the real one.
    let client = browser.client().await;
    failure(
        client.call("get_tabs", json!({})).await,
        ErrorCode::NoExtension,
    );
    let origin = format!("chrome-extension://{}", browser.extension_id);
    let mut fake = raw_upgrade(browser.port, Some(&origin))
        .await
        .expect("extension upgrade");
    let hello = json!({"type":"hello","role":"extension","protocolVersion":4,"extensionVersion":"0.0.0-test",
                       "name":"fake","token":browser.token});
    fake.send(Message::text(hello.to_string()))
        .await
        .expect("hello");
    assert_eq!(next_json(&mut fake).await["type"], "ack");
    // A bridge with an agent grace first asks a new extension which agent owners have tabs (SPEC §6).
    let asked = next_json(&mut fake).await;
    assert_eq!(
        (&asked["type"], &asked["owner"]),
        (&json!("request"), &json!(bua_bridge::server::BRIDGE_OWNER)),
        "{asked}"
    );
    fake.send(Message::text("{\"type\":\"response\",\"id\":"))
        .await
        .expect("send");
    let error = next_json(&mut fake).await;
    assert_eq!(error["type"], "error", "{error}");
    assert_eq!(error["error"]["code"], "invalid_action", "{error}");
    fake.send(Message::text(
        json!({"type":"response","id":"r9","result":{},"bogus":true}).to_string(),
    ))
    .await
    .expect("send");
    let error = next_json(&mut fake).await;
    assert_eq!(error["error"]["code"], "invalid_action", "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("bogus"),
        "names the field: {error}"
    );
    fake.send(Message::text("{\"type\":\"ping\"}"))
        .await
        .expect("ping");
    assert_eq!(
        next_json(&mut fake).await,
        json!({"type":"pong"}),
        "the connection stays open"
    );
    // It is the extension now: a client request reaches it.
    let call = tokio::spawn(async move { client.call("get_tabs", json!({})).await });
    let request = next_json(&mut fake).await;
    assert_eq!(request["action"]["type"], "get_tabs");
    fake.send(Message::text(
        json!({"type":"response","id":request["id"],"result":{"tabs":[]}}).to_string(),
    ))
    .await
    .expect("respond");
    assert_eq!(
        call.await.expect("join").expect("result"),
        json!({"tabs": []})
    );
    drop(fake);

    // Re-pairing with the right token clears the fatal state.
    browser
        .storage_set(&dt, json!({"token": browser.token}))
        .await;
    browser
        .wait_connection_state(&dt, Duration::from_secs(10), |s| s["state"] == "connected")
        .await;
    let client = browser.client().await;
    get_tabs(&client).await.expect("get_tabs after re-pairing");
}

/// `chrome.storage.onChanged` for the backend URL and token can arrive after the extension already connected with
/// those very values (`launch` writes them while the worker may be connecting): the working connection stays,
/// so no action falls into a reconnect gap (`no_extension`). A real change still moves the extension at once.
/// Its own browser: it moves the extension to a second bridge and back.
#[tokio::test]
async fn rewriting_the_same_backend_url_and_token_keeps_the_connection() {
    let (browser, dt) = Browser::launch_connected(BrowserOptions::default()).await;
    let other = server::start(browser.second_bridge_config())
        .await
        .expect("a second bridge");
    browser
        .storage_set(&dt, json!({"backendUrl": other.url()}))
        .await;
    eventually(Duration::from_secs(10), || async {
        (other.stats().extension_acks == 1).then_some(())
    })
    .await
    .unwrap_or_else(|| panic!("not moved to the second bridge: {:?}", other.stats()));
    let before = other.stats();

    // The change event of a write that left both values as they are, as the worker would receive it.
    let changes = json!({
        "backendUrl": {"oldValue": other.url(), "newValue": other.url()},
        "token": {"oldValue": browser.token, "newValue": browser.token},
    });
    browser
        .eval_in_worker(
            &dt,
            &format!("buaReady.then(() => {{ bua.on_storage_changed({changes}, 'local'); return true; }})"),
        )
        .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after = other.stats();
    assert_eq!(
        (after.upgrade_requests, after.extension_acks),
        (before.upgrade_requests, before.extension_acks),
        "the extension reconnected although nothing changed: {before:?} → {after:?}"
    );
    let client = BridgeClient::connect(other.port(), &browser.token)
        .await
        .expect("client");
    get_tabs(&client)
        .await
        .expect("get_tabs on the kept connection");

    // A real change: back to the launched bridge.
    browser
        .storage_set(&dt, json!({"backendUrl": browser.bridge_url()}))
        .await;
    let client = browser.client().await;
    eventually(Duration::from_secs(10), || async {
        get_tabs(&client).await.ok()
    })
    .await
    .unwrap_or_else(|| panic!("not back on the launched bridge\n{}", browser.logs()));
    other.shutdown().await;
}

/// The service worker is stopped (its DevTools target closed) and woken again by a browser event
/// (the test opens a tab): the extension is connected again within 5 s and `get_tabs` works.
#[tokio::test]
async fn after_the_service_worker_is_stopped_and_woken_the_extension_reconnects_within_5s() {
    let browser = Browser::launch(BrowserOptions::default());
    let fixtures = FixtureServer::shared();
    let dt = browser.devtools().await;
    let client = browser.client().await;
    get_tabs(&client).await.expect("connected before the stop");

    // The bridge sees the extension go: get_tabs fails with no_extension.
    let worker = browser.stop_service_worker(&dt, &client).await;
    let stopped = eventually(Duration::from_secs(5), || async {
        let targets = dt.targets().await.ok()?;
        (!targets.iter().any(|t| t.id == worker.id)).then_some(())
    })
    .await;
    assert!(
        stopped.is_some(),
        "the service worker target is still there"
    );

    // Wake it with a browser event: a new tab (tabs.onUpdated).
    let woke = Instant::now();
    let url = fixtures.url("/basic/second.html");
    dt.open_page(&url).await.expect("open a tab");
    let tabs = eventually(Duration::from_secs(5), || async {
        get_tabs(&client).await.ok()
    })
    .await;
    let elapsed = woke.elapsed();
    note(&format!(
        "service worker woken by a tab → get_tabs answered after {} ms",
        elapsed.as_millis()
    ));
    let tabs = tabs.unwrap_or_else(|| panic!("not reconnected within 5 s\n{}", browser.logs()));
    assert!(elapsed <= Duration::from_secs(5), "{elapsed:?}");
    let found = eventually(Duration::from_secs(5), || async {
        get_tabs(&client)
            .await
            .ok()?
            .into_iter()
            .find(|t| t["url"] == url.as_str())
    })
    .await;
    assert!(
        found.is_some(),
        "the new tab is listed; first answer was {tabs:?}"
    );
}

/// `launch` prints READY within 15 s, and after SIGTERM no Chromium process and no temporary
/// profile is left.
#[tokio::test]
async fn launch_is_ready_within_15s_and_leaves_nothing_behind_after_sigterm() {
    let browser = Browser::launch(BrowserOptions::default());
    note(&format!(
        "bua-bridge launch READY after {} ms",
        browser.ready_after.as_millis()
    ));
    assert!(
        browser.ready_after <= Duration::from_secs(15),
        "READY after {:?}",
        browser.ready_after
    );
    assert!(browser.browser_pid > 0, "DEVTOOLS line parsed");
    assert!(
        browser.profile_dir.is_dir(),
        "profile {:?} exists while running",
        browser.profile_dir
    );
    let profile = browser.profile_dir.display().to_string();
    assert!(
        !processes_matching(browser.browser_pid, &profile).is_empty(),
        "Chromium is running while launched"
    );
    assert_eq!(browser.extension_id, "obbcebjpclnphmijagoggibdnbknjkao");

    let status = browser.terminate().expect("launch was running");
    assert!(
        status.success(),
        "launch exits cleanly on SIGTERM: {status:?}\n{}",
        browser.logs()
    );
    // A normal launch logs no warning: the extension's first, unpaired attempt is expected (info), and
    // stderr that is not a terminal gets no colour codes.
    let logs = browser.logs();
    assert!(!logs.contains("handshake rejected"), "{logs}");
    assert!(!logs.contains(" WARN "), "{logs}");
    assert!(
        !logs.contains('\u{1b}'),
        "colour codes in a log that is not a terminal: {logs:?}"
    );
    let left = processes_matching(browser.browser_pid, &profile);
    assert!(left.is_empty(), "processes left after SIGTERM: {left:?}");
    assert!(
        !browser.profile_dir.exists(),
        "temporary profile left: {profile}"
    );
}

/// Raw `GET` against the fixture server: `(status line, headers+body text)`.
fn http_get(port: u16, path: &str) -> (String, String) {
    use std::io::{Read, Write};
    let mut stream =
        std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect fixture server");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut text = String::new();
    stream.read_to_string(&mut text).expect("read");
    let status = text.lines().next().unwrap_or_default().to_string();
    (status, text)
}

/// The harness's fixture server serves files and programmable routes (redirects, slow answers).
#[test]
fn fixture_server_serves_files_redirects_and_slow_routes() {
    use support::Route;
    let fixtures = FixtureServer::start(support::fixtures_dir());
    let (status, text) = http_get(fixtures.port(), "/basic/index.html?x=1");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(
        text.contains("Content-Type: text/html; charset=utf-8"),
        "{text}"
    );
    assert!(text.contains("<title>BUA basic fixture</title>"), "{text}");
    assert_eq!(
        http_get(fixtures.port(), "/basic/").0,
        "HTTP/1.1 200 OK",
        "directory → index.html"
    );
    assert_eq!(
        http_get(fixtures.port(), "/nope.html").0,
        "HTTP/1.1 404 Not Found"
    );
    assert_eq!(
        http_get(fixtures.port(), "/../Cargo.toml").0,
        "HTTP/1.1 404 Not Found"
    );
    assert_eq!(
        http_get(fixtures.port(), "/basic/%2e%2e/%2e%2e/Cargo.toml").0,
        "HTTP/1.1 404 Not Found"
    );

    let target = fixtures.url("/basic/second.html");
    fixtures.route(
        "/go",
        Route::Redirect {
            status: 302,
            location: target.clone(),
        },
    );
    let (status, text) = http_get(fixtures.port(), "/go");
    assert_eq!(status, "HTTP/1.1 302 Found");
    assert!(text.contains(&format!("Location: {target}")), "{text}");

    fixtures.route(
        "/slow",
        Route::Slow {
            delay: Duration::from_millis(400),
            body: "<title>slow</title>".into(),
        },
    );
    let started = Instant::now();
    let (status, text) = http_get(fixtures.port(), "/slow");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(text.ends_with("<title>slow</title>"), "{text}");
    assert!(started.elapsed() >= Duration::from_millis(400));

    fixtures.route("/inline", Route::Html("<p>inline</p>".into()));
    assert!(http_get(fixtures.port(), "/inline")
        .1
        .ends_with("<p>inline</p>"));
    assert_eq!(
        fixtures.hits(),
        vec![
            "/basic/index.html?x=1",
            "/basic/",
            "/nope.html",
            "/../Cargo.toml",
            "/basic/%2e%2e/%2e%2e/Cargo.toml",
            "/go",
            "/slow",
            "/inline"
        ]
    );
}
