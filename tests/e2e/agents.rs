//! End-to-end tests of many agents on one browser (SPEC §6, §9): two `bua-bridge mcp` processes share one bridge
//! and the one that does not own it takes it over when the owner exits, without a call failing for it; agents
//! cannot act on each other's tabs, and a gone agent's tabs and window are closed after the grace; the browser
//! itself refuses the blocklist for what an agent page opens or posts.
//!
//! One browser for the area (`Browser::shared_with("agents", …)`). Each test points its extension at the
//! bridge it uses (a port two MCP servers share, or a bridge this process runs), so the tests run one at a
//! time ([`serial`]).

use crate::support;

use std::process::Stdio;
use std::time::{Duration, Instant};

use bua_bridge::devtools::DevTools;
use bua_bridge::BridgeClient;
use serde_json::{json, Value};
use support::{
    eventually, fixtures_dir, get_tabs, history, Browser, BrowserOptions, FixtureServer, McpStdio,
    Route, SharedBrowser, OFFLINE_RESOLVER_RULES,
};

/// The blocked test domain, resolved to 127.0.0.1 by the browser's host-resolver rules.
const BLOCKED_HOST: &str = "blocked.test";

/// The area's browser, held by a test for its whole run.
fn browser() -> SharedBrowser {
    Browser::shared_with(
        "agents",
        BrowserOptions {
            // The last --host-resolver-rules wins: the usual offline rules plus the blocked domain on loopback.
            extra_args: vec![format!(
                "--chrome-arg=--host-resolver-rules=MAP {BLOCKED_HOST} 127.0.0.1, {OFFLINE_RESOLVER_RULES}"
            )],
        },
    )
}

/// One test at a time: each points the one extension at its own bridge.
async fn serial() -> tokio::sync::MutexGuard<'static, ()> {
    static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    SERIAL.lock().await
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Points the extension at `ws://127.0.0.1:<port>` and waits until it is connected there.
async fn point_extension_at(browser: &Browser, dt: &DevTools, port: u16) {
    let url = format!("ws://127.0.0.1:{port}");
    browser
        .storage_set(dt, json!({"backendUrl": url, "token": browser.token}))
        .await;
    browser
        .wait_connection_state(dt, Duration::from_secs(15), |s| {
            s["state"] == "connected" && s["url"] == url.as_str()
        })
        .await;
}

/// Starts `bua-bridge mcp <args>` and initializes it. `BUA_TEST_MCP_LOG=<dir>`: each server's log in
/// `<dir>/mcp-<owner>.log`.
fn start_mcp(args: &[&str]) -> McpStdio {
    let log = std::env::var_os("BUA_TEST_MCP_LOG")
        .and_then(|dir| {
            let owner = args.last().copied().unwrap_or("mcp");
            std::fs::File::create(std::path::Path::new(&dir).join(format!("mcp-{owner}.log"))).ok()
        })
        .map_or_else(Stdio::null, Stdio::from);
    let mut mcp = McpStdio::spawn(args, log);
    mcp.initialize("agents-test");
    mcp
}

/// Calls the browser tool, which must succeed, and returns its result JSON.
fn ok_json(mcp: &mut McpStdio, arguments: Value) -> Value {
    let (is_error, text) = mcp.browser(arguments.clone());
    assert!(!is_error, "{arguments} failed: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The uid of the element line `eN button "<name>"` of an agent-text extract.
fn button_uid(extract: &str, name: &str) -> String {
    let suffix = format!(" button \"{name}\"");
    extract
        .lines()
        .find_map(|l| {
            l.strip_suffix(suffix.as_str())
                .filter(|uid| uid.starts_with('e'))
        })
        .unwrap_or_else(|| panic!("no button {name:?} in:\n{extract}"))
        .to_string()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn body(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_mcp_server_that_owns_the_bridge_exits_the_other_takes_over_and_no_call_fails_for_it(
) {
    let _serial = serial().await;
    let browser = &browser();
    let dt = browser.devtools().await;
    let port = free_port();
    let port_arg = port.to_string();
    let args = |owner: &'static str| {
        vec![
            "--port".to_string(),
            port_arg.clone(),
            "--token".to_string(),
            browser.token.clone(),
            "--owner".to_string(),
            owner.to_string(),
        ]
    };
    let owner_args = args("takeover-a");
    let mut owner = start_mcp(&strs(&owner_args));
    // `mcp` connects (here: starts its bridge) before it answers `initialize`.
    BridgeClient::connect(port, &browser.token)
        .await
        .expect("the first MCP server runs the bridge");
    point_extension_at(browser, &dt, port).await;
    let agent_args = args("takeover-b");
    let mut agent = start_mcp(&strs(&agent_args));

    let page = FixtureServer::shared().url("/clients/mcp.html");
    let opened = ok_json(&mut agent, json!({"type": "open_tab", "url": page}));
    let tab_id = opened["tabId"].as_i64().expect("tabId");
    let (is_error, extract) = agent.browser(json!({"type": "extract", "tabId": tab_id}));
    assert!(!is_error, "{extract}");
    let uid = button_uid(&extract, "Count");

    // A click in flight when the bridge's process dies: done, or "outcome unknown" — never internal_error.
    let in_flight = agent.send_browser(json!({"type": "click", "uid": uid, "tabId": tab_id}));
    owner.kill();
    let started = Instant::now();
    let (is_error, text) = agent.result(in_flight);
    if is_error {
        let b = body(&text);
        assert_eq!(b["code"], "timeout", "{text}");
        assert!(
            b["message"]
                .as_str()
                .is_some_and(|m| m.contains("outcome is unknown") && m.contains("extract")),
            "{text}"
        );
    }

    // The next 20 calls, reads and clicks, all succeed on the bridge the agent's server took over.
    let mut uid = uid;
    for i in 0..20 {
        let call = match i % 3 {
            0 => json!({"type": "get_tabs"}),
            1 => json!({"type": "extract", "tabId": tab_id}),
            _ => json!({"type": "click", "uid": uid, "tabId": tab_id}),
        };
        let (is_error, text) = agent.browser(call.clone());
        assert!(
            !is_error,
            "call {i} {call} failed after the takeover: {text}"
        );
        if i % 3 == 1 {
            uid = button_uid(&text, "Count");
        }
        if i == 0 {
            support::note(&format!(
                "first call after the bridge's owner was killed answered after {:.2} s",
                started.elapsed().as_secs_f64()
            ));
        }
    }
    let client = BridgeClient::connect(port, &browser.token)
        .await
        .expect("the second MCP server runs the bridge now");
    let tabs = get_tabs(&client).await.expect("get_tabs");
    let tab = tabs
        .iter()
        .find(|t| t["tabId"] == tab_id)
        .expect("the agent's tab");
    assert_eq!(tab["agentOwner"], "takeover-b", "{tab}");
    let (is_error, text) = agent.browser(json!({"type": "close_agent_window"}));
    assert!(!is_error, "{text}");
    agent.exit();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_cannot_touch_each_others_tabs_and_a_gone_agents_tabs_close_after_the_grace() {
    let _serial = serial().await;
    let browser = &browser();
    let dt = browser.devtools().await;
    let grace = Duration::from_millis(1500);
    let mut config = bua_bridge::server::ServerConfig::loopback(0, browser.token.clone());
    config.extension_id = Some(browser.extension_id.clone());
    config.agent_grace = Some(grace);
    config.extension_wait = Duration::from_secs(10);
    let bridge = bua_bridge::server::start(config).await.expect("bridge");
    point_extension_at(browser, &dt, bridge.port()).await;
    let port = bridge.port().to_string();
    let args = |owner: &'static str| {
        [
            "--port",
            port.as_str(),
            "--token",
            browser.token.as_str(),
            "--no-serve",
            "--owner",
            owner,
        ]
        .map(str::to_string)
    };
    let start = |owner: &'static str| start_mcp(&strs(&args(owner)));
    let mut a = start("grace-a");
    let mut b = start("grace-b");
    let page = FixtureServer::shared().url("/clients/mcp.html");
    let tab_a = ok_json(&mut a, json!({"type": "open_tab", "url": page}))["tabId"]
        .as_i64()
        .expect("tabId");

    // B sees whose tab it is, and may neither click in it nor close it.
    let tabs = ok_json(&mut b, json!({"type": "get_tabs"}));
    let listed = tabs["tabs"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["tabId"] == tab_a).cloned())
        .expect("A's tab listed");
    assert_eq!(
        (&listed["agentOwned"], &listed["agentOwner"]),
        (&json!(true), &json!("grace-a"))
    );
    for refused in [
        json!({"type": "click", "selector": "#inc", "tabId": tab_a}),
        json!({"type": "close_tab", "tabId": tab_a}),
    ] {
        let (is_error, text) = b.browser(refused.clone());
        let e = body(&text);
        assert!(is_error, "{refused} was allowed: {text}");
        assert_eq!(e["code"], "session_not_found", "{text}");
        assert!(
            e["message"]
                .as_str()
                .is_some_and(|m| m.contains("`grace-a`")),
            "{text}"
        );
    }
    let count = ok_json(
        &mut a,
        json!({"type": "evaluate", "tabId": tab_a,
        "expression": "return document.querySelector('#count').textContent"}),
    );
    assert_eq!(count["value"], "0", "B's click did not happen: {count}");

    // A exits and comes back within the grace: its tab stays, past the grace too. Nothing happens to wait for
    // here (the point is that nothing closes), so these two waits are measured against the 1.5 s grace.
    let client = BridgeClient::connect(bridge.port(), &browser.token)
        .await
        .expect("client");
    a.exit();
    tokio::time::sleep(grace / 3).await;
    let a_again = start("grace-a");
    tokio::time::sleep(grace + Duration::from_millis(700)).await;
    let tabs = get_tabs(&client).await.expect("get_tabs");
    assert!(
        tabs.iter().any(|t| t["tabId"] == tab_a),
        "A came back within the grace, yet its tab closed: {tabs:?}"
    );

    // A exits for good: after the grace its tab and window are closed, with the session's END row.
    let exited = Instant::now();
    a_again.exit();
    let closed = eventually(Duration::from_secs(10), || async {
        let tabs = get_tabs(&client).await.ok()?;
        (!tabs.iter().any(|t| t["agentOwner"] == "grace-a")).then_some(())
    })
    .await;
    assert!(closed.is_some(), "A's tabs are still open");
    assert!(
        exited.elapsed() >= grace,
        "closed before the grace: {:?}",
        exited.elapsed()
    );
    // The window is forgotten by the grace's `close_agent_window`, which the bridge sends after the tabs'
    // close: a `get_tabs` may answer in between.
    let forgotten = eventually(Duration::from_secs(5), || async {
        let windows = browser.storage_get(&dt, "buaWindowId").await;
        windows.get("grace-a").is_none().then_some(())
    })
    .await;
    assert!(
        forgotten.is_some(),
        "A's agent window is still known: {}",
        browser.storage_get(&dt, "buaWindowId").await
    );
    let entries = history(browser, &dt).await;
    assert!(
        entries
            .iter()
            .any(|h| h["event"] == "end" && h["tabId"] == tab_a),
        "no END row for A's tab: {entries:?}"
    );
    let (is_error, text) = b.browser(json!({"type": "get_tabs"}));
    assert!(!is_error, "B is unaffected: {text}");
    b.exit();
    client.close().await;
    bridge.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocked_site_gets_no_request_from_an_agent_pages_window_open_or_form_post() {
    let _serial = serial().await;
    let browser = &browser();
    let dt = browser.devtools().await;
    let mut config = bua_bridge::server::ServerConfig::loopback(0, browser.token.clone());
    config.extension_id = Some(browser.extension_id.clone());
    config.extension_wait = Duration::from_secs(10);
    let bridge = bua_bridge::server::start(config).await.expect("bridge");
    point_extension_at(browser, &dt, bridge.port()).await;
    let blocked = FixtureServer::start(fixtures_dir());
    let blocked_base = format!("http://{BLOCKED_HOST}:{}", blocked.port());
    let site = FixtureServer::shared();
    site.route(
        "/agents/opener.html",
        Route::Html(format!(
            r#"<!doctype html><title>opener</title>
<form id="f" method="post" action="{blocked_base}/posted"><input name="q" value="1"></form>
<button id="go" onclick="window.open('{blocked_base}/popup'); document.getElementById('f').submit()">Go</button>"#
        )),
    );
    browser
        .storage_set(&dt, json!({"blocklist": [BLOCKED_HOST]}))
        .await;
    let client = BridgeClient::connect_as(bridge.port(), &browser.token, Some("dnr-agent"))
        .await
        .expect("client");
    let opened = client
        .call("open_tab", json!({"url": site.url("/agents/opener.html")}))
        .await
        .expect("open_tab");
    let tab_id = opened["tabId"].as_i64().expect("tabId");
    // The rules follow the agent tab and its page's host.
    let rules = eventually(Duration::from_secs(5), || async {
        let rules = browser
            .eval_in_worker(&dt, "chrome.declarativeNetRequest.getSessionRules()")
            .await;
        let covered = rules.as_array().is_some_and(|r| {
            r.iter().any(|rule| {
                rule["condition"]["tabIds"]
                    .as_array()
                    .is_some_and(|t| t.contains(&json!(tab_id)))
            }) && r
                .iter()
                .any(|rule| rule["condition"]["initiatorDomains"] == json!(["127.0.0.1"]))
        });
        covered.then_some(rules)
    })
    .await;
    assert!(rules.is_some(), "no session rules cover tab {tab_id}");

    let mut events = support::Events::subscribe(&client).await;
    // A real click (user activation: the popup blocker lets window.open through).
    let _ = client
        .call("click", json!({"selector": "#go", "tabId": tab_id}))
        .await;
    // Both navigations happened — the popup opened on the blocked URL (the popup is the agent's tab, so its
    // session may already have ended on the blocked domain and closed it), the opener left its page (or its
    // session ended on the blocked domain and closed it) — and were refused before a request was sent.
    let popup = format!("{blocked_base}/popup");
    let posted = format!("{blocked_base}/posted");
    let deadline = Instant::now() + Duration::from_secs(10);
    let happened = loop {
        let tabs = get_tabs(&client).await.unwrap_or_default();
        events.pull();
        let popup_ended = events.seen.iter().any(|e| {
            e["type"] == "session_ended" && e["reason"] == "domain_blocked" && e["tabId"] != tab_id
        });
        let popup_opened = popup_ended || tabs.iter().any(|t| t["url"] == popup.as_str());
        let opener_left = tabs
            .iter()
            .find(|t| t["tabId"] == tab_id)
            .is_none_or(|t| t["url"] == posted.as_str());
        if popup_opened && opener_left {
            break true;
        }
        if Instant::now() >= deadline {
            break false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        happened,
        "the popup or the post did not happen: {:?}; events: {:?}",
        get_tabs(&client).await,
        events.seen
    );
    assert_eq!(
        blocked.hits(),
        Vec::<String>::new(),
        "the blocked site received requests"
    );
    let _ = client.call("close_agent_window", json!({})).await;
    browser.storage_set(&dt, json!({"blocklist": []})).await;
    client.close().await;
    bridge.shutdown().await;
}
