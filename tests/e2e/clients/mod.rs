//! End-to-end tests of the bridge's client side (SPEC §9) in real headless
//! Chromium with the built extension: the v1 bridge's request examples (SPEC §9 is compatible with that
//! bridge; the examples are written out below) sent verbatim by a v1 client,
//! per-client ownership of agent tabs and windows, the event stream, and the CLI subcommands.
//!
//! "Verbatim" means the params of the v1 bridge's documented examples as written, except the three values
//! that only make sense on their author's machine: tab ids (7, 8, 9 → the tab this test opened), URLs
//! (`https://example.com` → the fixture page, whose title is "Example"), and the token the SPEC adds
//! to the v1 hello. The fixture page has the elements the examples name (`#submit` "提交", "登录",
//! `#search`, `#list`, `#username`, `#agree`, `div.g` results, a button at (120, 340)).

mod v1_conformance;

use crate::support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bua_bridge::server::{self, ServerConfig};
use bua_bridge::BridgeClient;
use serde_json::{json, Value};
use support::{bridge_bin, eventually, note, stdout_of, Browser, FixtureServer, V1Client};

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn ping_is_answered_with_no_extension_and_other_methods_get_no_extension() {
    let handle = server::start(ServerConfig::loopback(0, "lonely-token"))
        .await
        .expect("server");
    let mut v1 = V1Client::connect(handle.port(), "lonely-token").await;
    // The v1 bridge's ping example, verbatim.
    let pong = v1.request("ping", json!({})).await;
    assert_eq!(pong["success"], true, "{pong}");
    assert_eq!(pong["result"], json!({"pong": true}));
    for (method, params) in [
        ("list_tabs", json!({})),
        ("new_tab", json!({"url": "https://example.com"})),
        (
            "navigate",
            json!({"url": "https://example.com", "tab_id": 7}),
        ),
        (
            "click",
            json!({"target": {"by": "css", "value": "#submit"}, "tab_id": 7, "timeout": 5000, "new_tab": false}),
        ),
        ("get_tabs", json!({})),
    ] {
        let r = v1.request(method, params).await;
        assert_eq!(r["success"], false, "{method}: {r}");
        assert_eq!(r["code"], "no_extension", "{method}: {r}");
        assert!(
            r["error"].as_str().is_some_and(|e| e.contains("extension")),
            "{r}"
        );
    }
    handle.shutdown().await;
}

#[tokio::test]
async fn the_seeds_v1_examples_get_v1_shaped_results() {
    let browser = &Browser::shared("clients");
    let fixtures = FixtureServer::shared();
    let page = fixtures.url("/clients/v1.html");
    let mut v1 = V1Client::connect(browser.port, &browser.token).await;
    let started = Instant::now();

    // new_tab {url} → {tab_id, url, title, active}
    let tab = v1.ok("new_tab", json!({"url": page})).await;
    let tab_id = tab["tab_id"].as_i64().expect("tab_id");
    assert_eq!(tab["url"], page.as_str(), "{tab}");
    assert_eq!(tab["title"], "Example", "{tab}");
    assert_eq!(tab["active"], true, "{tab}");
    assert!(tab["window_id"].is_i64(), "{tab}");

    // list_tabs {} → {tabs:[{tab_id, url, title, active, window_id}]}
    let tabs = v1.ok("list_tabs", json!({})).await;
    let listed = tabs["tabs"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["tab_id"] == tab_id))
        .cloned()
        .unwrap_or_else(|| panic!("tab {tab_id} not in {tabs}"));
    for key in ["tab_id", "url", "title", "active", "window_id"] {
        assert!(listed.get(key).is_some(), "{key} missing: {listed}");
    }
    assert!(listed.get("tabId").is_none(), "v1 keys only: {listed}");
    assert_eq!(listed["url"], page.as_str());
    assert_eq!(listed["window_id"], tab["window_id"]);

    // activate_tab {tab_id} → {tab_id, url, title, active}
    let r = v1.ok("activate_tab", json!({"tab_id": tab_id})).await;
    assert_eq!(r["tab_id"], tab_id);
    assert_eq!(r["active"], true);
    assert_eq!(r["title"], "Example");

    // navigate {url, tab_id} → {tab_id, url, title}
    let r = v1
        .ok("navigate", json!({"url": page, "tab_id": tab_id}))
        .await;
    assert_eq!(r["tab_id"], tab_id);
    assert_eq!(r["url"], page.as_str());
    assert_eq!(r["title"], "Example");

    // click {target, tab_id, timeout, new_tab} → {clicked:{tag, id, text}, tab_id}
    let r = v1
        .ok(
            "click",
            json!({"target": {"by": "css", "value": "#submit"}, "tab_id": tab_id, "timeout": 5000, "new_tab": false}),
        )
        .await;
    assert_eq!(r["tab_id"], tab_id);
    assert_eq!(r["clicked"]["tag"], "button");
    assert_eq!(r["clicked"]["id"], "submit");
    assert_eq!(r["clicked"]["text"], "提交");
    // The legacy form {"selector": "#submit"} (no tab_id: this client's own agent tab is used).
    let r = v1.ok("click", json!({ "selector": "#submit" })).await;
    assert_eq!(r["tab_id"], tab_id, "{r}");
    assert_eq!(r["clicked"]["id"], "submit");
    // target by text and by xpath.
    let r = v1
        .ok(
            "click",
            json!({"target": { "by": "text", "value": "登录" }, "tab_id": tab_id}),
        )
        .await;
    assert_eq!(r["clicked"]["id"], "login", "{r}");
    let r = v1
        .ok(
            "click",
            json!({"target": { "by": "xpath", "value": "//button[@id='submit']" }, "tab_id": tab_id}),
        )
        .await;
    assert_eq!(r["clicked"]["id"], "submit", "{r}");

    // click_at {x, y, tab_id} → {clicked, x, y, tab_id}
    let r = v1
        .ok("click_at", json!({ "x": 120, "y": 340, "tab_id": tab_id }))
        .await;
    assert_eq!(r["clicked"]["tag"], "button", "{r}");
    assert_eq!(r["clicked"]["text"], "提交", "{r}");
    assert_eq!(r["x"].as_f64(), Some(120.0));
    assert_eq!(r["y"].as_f64(), Some(340.0));
    assert_eq!(r["tab_id"], tab_id);

    // press_key {key, modifiers, target, tab_id} → {key, modifiers, element:{tag}, tab_id}
    let r = v1
        .ok(
            "press_key",
            json!({"key": "Enter", "modifiers": ["ctrl", "shift"], "target": {"by": "css", "value": "#search"}, "tab_id": tab_id}),
        )
        .await;
    assert_eq!(r["key"], "Enter");
    assert_eq!(r["modifiers"], json!(["ctrl", "shift"]));
    assert_eq!(r["element"]["tag"], "input", "{r}");
    assert_eq!(r["tab_id"], tab_id);

    // run_script {code, tab_id} → {result, tab_id}
    let r = v1.run_script(tab_id, "Array.from(document.querySelectorAll('a')).slice(0, 3).map(a => ({ text: a.textContent.trim(), href: a.href }))").await;
    assert_eq!(r["tab_id"], tab_id);
    assert_eq!(
        r["result"],
        json!([
            {"text": "Example link", "href": fixtures.url("/clients/one.html")},
            {"text": "Second link", "href": "https://example.com/"},
            {"text": "Third link", "href": fixtures.url("/clients/two.html")},
        ])
    );
    // v1 serialisation rules: a DOM element → {__element, id, class, text}; BigInt → string.
    let r = v1
        .run_script(
            tab_id,
            "[document.querySelector('#submit'), 10n ** 20n, null]",
        )
        .await;
    assert_eq!(
        r["result"],
        json!([{"__element": "button", "id": "submit", "class": null, "text": "提交"}, "100000000000000000000", null])
    );

    // scrape {item, fields, timeout, tab_id} → {count, items, tab_id}
    let r = v1
        .ok(
            "scrape",
            json!({"item": "div.g", "fields": {"title": "h3", "url": "a@href", "description": ".VwiC3b"}, "timeout": 5000, "tab_id": tab_id}),
        )
        .await;
    let expected_items = json!([
        {"title": "Example", "url": fixtures.url("/clients/one.html"), "description": "First result"},
        {"title": "Second", "url": "https://example.com/", "description": "Second result"},
        {"title": "Third", "url": fixtures.url("/clients/two.html"), "description": "Third result"},
    ]);
    assert_eq!(r["count"], 3, "{r}");
    assert_eq!(r["items"], expected_items);
    assert_eq!(r["tab_id"], tab_id);
    // scrape with the legacy title / link / desc fields.
    let r = v1
        .ok(
            "scrape",
            json!({"item": "div.g", "title": "h3", "link": "a@href", "desc": ".VwiC3b", "tab_id": tab_id}),
        )
        .await;
    assert_eq!(r["items"], expected_items);

    // scroll {dx, dy, target, smooth, tab_id} → {scrolled:{dx, dy}, tab_id}
    let r = v1
        .ok(
            "scroll",
            json!({"dx": 0, "dy": 800, "target": {"by": "css", "value": "#list"}, "smooth": true, "tab_id": tab_id}),
        )
        .await;
    assert_eq!(r["scrolled"]["dy"].as_f64(), Some(800.0), "{r}");
    assert_eq!(r["scrolled"]["dx"].as_f64(), Some(0.0), "{r}");
    assert_eq!(r["tab_id"], tab_id);

    // set_value {target, value, tab_id} → {element:{tag, type}, value, tab_id}
    let r = v1
        .ok(
            "set_value",
            json!({"target": {"by": "css", "value": "#username"}, "value": "alice", "tab_id": tab_id}),
        )
        .await;
    assert_eq!(r["element"]["tag"], "input", "{r}");
    assert_eq!(r["element"]["type"], "text", "{r}");
    assert_eq!(r["value"], "alice");
    assert_eq!(r["tab_id"], tab_id);

    // check {target, checked, tab_id} → {checked, tab_id}
    let r = v1
        .ok(
            "check",
            json!({"target": {"by": "css", "value": "#agree"}, "checked": true, "tab_id": tab_id}),
        )
        .await;
    assert_eq!(r["checked"], true, "{r}");
    assert_eq!(r["tab_id"], tab_id);

    // select_option (the v1 bridge's examples end inside it): the same target form with a value.
    let r = v1
        .ok(
            "select_option",
            json!({"target": {"by": "css", "value": "#city"}, "value": "sh", "tab_id": tab_id}),
        )
        .await;
    assert_eq!(
        r["selected"],
        json!([{"value": "sh", "label": "上海"}]),
        "{r}"
    );
    assert_eq!(r["tab_id"], tab_id);

    // Everything above really happened in the page, in order.
    let r = v1
        .run_script(tab_id, "document.getElementById('log').textContent")
        .await;
    assert_eq!(
        r["result"],
        "click:submit;click:submit;click:login;click:submit;click:at;key:Enter+ctrl+shift;change:alice;agree:true;city:sh;"
    );

    // close_tab {tab_id} → {closed:true, tab_id}
    let r = v1.ok("close_tab", json!({ "tab_id": tab_id })).await;
    assert_eq!(r["closed"], true);
    assert_eq!(r["tab_id"], tab_id);
    // close_agent_window {} → {closed, window_id} (its last tab is gone, so is the window).
    let r = v1.ok("close_agent_window", json!({})).await;
    assert_eq!(
        keys(&r),
        keys(&json!({"closed": 0, "window_id": 0, "windowId": 0})),
        "{r}"
    );
    // The window normally went with its last tab; if the extension had not forgotten it yet,
    // this call closes exactly that window.
    if r["closed"] == true {
        assert_eq!(r["window_id"], tab["window_id"], "{r}");
    } else {
        assert_eq!(r["window_id"], Value::Null, "{r}");
    }
    // close_auto_tabs {} → {closed:[…]}
    assert_eq!(
        v1.ok("close_auto_tabs", json!({})).await,
        json!({"closed": []})
    );
    // An unknown tab id is an error with a code, in the v1 failure envelope.
    let r = v1.request("close_tab", json!({"tab_id": 7})).await;
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(
        keys(&r),
        keys(&json!({"id": 0, "success": 0, "error": 0, "code": 0}))
    );
    assert_eq!(r["code"], "tab_not_found", "{r}");
    note(&format!(
        "v1 example suite (27 requests): {:.1} s",
        started.elapsed().as_secs_f64()
    ));
}

fn tab_ids(tabs: &[Value], window_id: &Value) -> BTreeSet<i64> {
    tabs.iter()
        .filter(|t| &t["windowId"] == window_id)
        .filter_map(|t| t["tabId"].as_i64())
        .collect()
}

async fn all_tabs(client: &BridgeClient) -> Vec<Value> {
    support::get_tabs(client).await.expect("get_tabs")
}

#[tokio::test]
async fn two_clients_close_only_their_own_agent_tabs_and_windows() {
    let browser = &Browser::shared("clients");
    let page = FixtureServer::shared().url("/clients/mcp.html");
    let a = browser.client().await;
    let b = browser.client().await;
    assert_ne!(a.client_id(), b.client_id());

    // Both open two tabs at once: A with the v1 name, B with the v4 one.
    let open_a = || a.call("new_tab", json!({ "url": page }));
    let open_b = || b.call("open_tab", json!({ "url": page }));
    let (a1, a2, b1, b2) = tokio::join!(open_a(), open_a(), open_b(), open_b());
    let (a1, a2, b1, b2) = (
        a1.expect("a1"),
        a2.expect("a2"),
        b1.expect("b1"),
        b2.expect("b2"),
    );
    let a_tabs: BTreeSet<i64> = [&a1, &a2]
        .iter()
        .map(|r| r["tab_id"].as_i64().expect("v1 tab_id"))
        .collect();
    let b_tabs: BTreeSet<i64> = [&b1, &b2]
        .iter()
        .map(|r| r["tabId"].as_i64().expect("v4 tabId"))
        .collect();
    assert_eq!(a_tabs.len(), 2);
    assert_eq!(b_tabs.len(), 2);
    // Each owner has its own agent window.
    let wa = a1["window_id"].clone();
    let wb = b1["windowId"].clone();
    assert_eq!(a2["window_id"], wa, "A's tabs share A's window");
    assert_eq!(b2["windowId"], wb, "B's tabs share B's window");
    assert_ne!(wa, wb, "owners get separate agent windows");
    let tabs = all_tabs(&a).await;
    assert_eq!(tab_ids(&tabs, &wa), a_tabs);
    assert_eq!(tab_ids(&tabs, &wb), b_tabs);
    for t in tabs
        .iter()
        .filter(|t| t["windowId"] == wa || t["windowId"] == wb)
    {
        assert_eq!(t["agentOwned"], true, "{t}");
        assert_eq!(t["windowState"], "minimized", "{t}");
    }

    // A's close_auto_tabs closes exactly A's tabs.
    let closed = closed_tab_ids(&a.call("close_auto_tabs", json!({})).await.expect("close"));
    assert_eq!(closed, a_tabs);
    let tabs = all_tabs(&b).await;
    let alive: BTreeSet<i64> = tabs.iter().filter_map(|t| t["tabId"].as_i64()).collect();
    assert!(a_tabs.is_disjoint(&alive), "A's tabs are gone");
    assert!(b_tabs.is_subset(&alive), "B's tabs are untouched");

    // A opens a tab again, then closes its own window: B's window and tabs stay.
    let a3 = a
        .call("open_tab", json!({ "url": page }))
        .await
        .expect("a3");
    let wa3 = a3["windowId"].clone();
    assert_ne!(wa3, wb);
    let r = a
        .call("close_agent_window", json!({}))
        .await
        .expect("close A's window");
    assert_eq!(r, json!({"closed": true, "windowId": wa3}));
    let tabs = all_tabs(&b).await;
    assert!(tab_ids(&tabs, &wa3).is_empty(), "A's window is gone");
    assert_eq!(tab_ids(&tabs, &wb), b_tabs, "B's window keeps its tabs");
    // A's window is already closed: nothing more to close.
    let r = a
        .call("close_agent_window", json!({}))
        .await
        .expect("again");
    assert_eq!(r, json!({"closed": false, "windowId": null}));

    let r = b.call("close_agent_window", json!({})).await.expect("B");
    assert_eq!(r, json!({"closed": true, "windowId": wb}));
    let tabs = all_tabs(&b).await;
    let alive: BTreeSet<i64> = tabs.iter().filter_map(|t| t["tabId"].as_i64()).collect();
    assert!(
        b_tabs.is_disjoint(&alive),
        "B's tabs closed with B's window"
    );
}

#[tokio::test]
async fn subscribe_events_delivers_session_events_in_order_and_a_silent_subscriber_blocks_nothing()
{
    let browser = &Browser::shared("clients");
    let page = FixtureServer::shared().url("/clients/mcp.html");
    let subscriber = browser.client().await;
    let mut events = subscriber.forwarded_events();
    assert_eq!(
        subscriber
            .call("subscribe_events", json!({}))
            .await
            .expect("subscribe"),
        json!({"subscribed": true})
    );
    // A subscriber that never reads its socket.
    let mut silent = V1Client::connect(browser.port, &browser.token).await;
    let ack = silent.request("subscribe_events", json!({})).await;
    assert_eq!(ack["result"], json!({"subscribed": true}));

    let worker = browser.client().await;
    let mut opened = Vec::new();
    let mut worst = Duration::ZERO;
    for _ in 0..3 {
        let started = Instant::now();
        let tab = worker
            .call("open_tab", json!({ "url": page }))
            .await
            .expect("open");
        let tab_id = tab["tabId"].as_i64().expect("tabId");
        worker
            .call(
                "evaluate",
                json!({"expression": "return document.title", "tabId": tab_id}),
            )
            .await
            .expect("evaluate");
        worker
            .call("close_tab", json!({ "tabId": tab_id }))
            .await
            .expect("close");
        worst = worst.max(started.elapsed());
        opened.push(tab_id);
    }
    note(&format!(
        "open_tab + evaluate + close_tab with a silent subscriber: worst {:.0} ms",
        worst.as_secs_f64() * 1000.0
    ));

    // Collect until each of our tabs has its session_ended.
    let mut seen: Vec<Value> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(15);
    let done = |seen: &[Value]| {
        opened.iter().all(|t| {
            seen.iter()
                .any(|e| e["type"] == "session_ended" && e["tabId"] == *t)
        })
    };
    while !done(&seen) {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, events.recv()).await {
            Ok(Ok(e)) => {
                assert_eq!(e.dropped, 0, "a reading subscriber loses nothing");
                seen.push(e.event);
            }
            Ok(Err(e)) => panic!("event channel: {e}"),
            Err(_) => panic!("missing session events for {opened:?}; got {seen:?}"),
        }
    }
    for tab_id in &opened {
        let ours: Vec<&Value> = seen
            .iter()
            .filter(|e| {
                e["tabId"] == *tab_id
                    && e["type"]
                        .as_str()
                        .is_some_and(|t| t.starts_with("session_"))
            })
            .collect();
        let types: Vec<&str> = ours.iter().filter_map(|e| e["type"].as_str()).collect();
        assert_eq!(
            types,
            ["session_started", "session_ended"],
            "tab {tab_id}: {ours:?}"
        );
        assert_eq!(ours[0]["owner"], "agent", "{:?}", ours[0]);
        assert_eq!(ours[0]["domain"], "127.0.0.1");
        assert_eq!(ours[1]["reason"], "tab_closed", "{:?}", ours[1]);
        assert_eq!(ours[1]["startedAt"], ours[0]["startedAt"]);
        assert!(
            ours[1]["actionCount"].as_u64().is_some_and(|n| n >= 1),
            "{:?}",
            ours[1]
        );
    }
    // The tabs' sessions came in the order the tabs were opened.
    let starts: Vec<i64> = seen
        .iter()
        .filter(|e| e["type"] == "session_started")
        .filter_map(|e| e["tabId"].as_i64())
        .filter(|t| opened.contains(t))
        .collect();
    assert_eq!(starts, opened);
    // The silent subscriber's connection is still served (its socket buffers hold these few events).
    let pong = silent.request("ping", json!({})).await;
    assert_eq!(pong["result"], json!({"pong": true}));
}

// ---------------------------------------------------------------------------------------------
// CLI

struct Cli {
    port: u16,
    token: String,
    /// `--owner`; `None`: the CLI's default owner (`cli`; `$BUA_OWNER` is cleared). Tests running at
    /// once in the shared browser use different owners, so one's `close_agent_tabs` spares the other.
    owner: Option<&'static str>,
}

impl Cli {
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(bridge_bin());
        c.args(args)
            .args(["--port", &self.port.to_string(), "--token", &self.token])
            .env_remove("BUA_OWNER")
            .stdin(Stdio::null());
        if let Some(owner) = self.owner {
            c.args(["--owner", owner]);
        }
        c
    }

    /// Runs the CLI; returns (exit code, stdout).
    fn run(&self, args: &[&str]) -> (i32, String) {
        let out = self.command(args).output().expect("run bua-bridge");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).trim_end().to_string(),
        )
    }

    /// Runs the CLI, expects exit 0 and JSON on stdout.
    fn json(&self, args: &[&str]) -> Value {
        let (code, out) = self.run(args);
        assert_eq!(code, 0, "{args:?} → {out}");
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {out}"))
    }
}

fn help(args: &[&str]) -> String {
    stdout_of(
        Command::new(bridge_bin()).args(args),
        &format!("bua-bridge {args:?}"),
    )
}

#[tokio::test]
async fn cli_subcommands_drive_the_launched_browser() {
    let browser = &Browser::shared("clients");
    let fixtures = FixtureServer::shared();
    let counter = fixtures.url("/clients/mcp.html");
    let v1_page = fixtures.url("/clients/v1.html");
    let cli = Cli {
        port: browser.port,
        token: browser.token.clone(),
        owner: Some("cli-suite"),
    };
    let started = Instant::now();

    // `events` follows the stream while the other subcommands run.
    let mut follower = cli
        .command(&["events"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("events");
    let lines: Arc<Mutex<Vec<String>>> = Arc::default();
    let stdout = follower.stdout.take().expect("stdout");
    let collected = lines.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            collected
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(line);
        }
    });
    let stderr = follower.stderr.take().expect("stderr");
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("following events") {
                let _ = ready_tx.send(());
            }
        }
    });
    ready_rx
        .recv_timeout(Duration::from_secs(10))
        .expect("`events` subscribed");

    // open → {tabId, windowId, domain}
    let opened = cli.json(&["open", &counter]);
    let tab_id = opened["tabId"].as_i64().expect("tabId");
    let tab = tab_id.to_string();
    assert_eq!(opened["domain"], "127.0.0.1");
    // tabs → get_tabs
    let tabs = cli.json(&["tabs"]);
    assert!(
        tabs["tabs"].as_array().is_some_and(|t| t
            .iter()
            .any(|t| t["tabId"] == tab_id && t["agentOwned"] == true)),
        "{tabs}"
    );
    // navigate waits for the load.
    let nav = cli.json(&["navigate", &counter, "--tab", &tab]);
    assert_eq!(nav["title"], "BUA MCP fixture");
    // extract (JSON), --elements, --elements --pretty, --markdown, --agent
    let page = cli.json(&["extract", "--tab", &tab]);
    assert_eq!(page["url"], counter.as_str());
    assert!(page["text"]
        .as_str()
        .is_some_and(|t| t.contains("Clicks so far")));
    let elements = cli.json(&["extract", "--elements", "--tab", &tab]);
    let uid_of = |name: &str| {
        elements["elements"]
            .as_array()
            .and_then(|e| e.iter().find(|e| e["name"] == name))
            .and_then(|e| e["uid"].as_str())
            .unwrap_or_else(|| panic!("no element named {name}: {elements}"))
            .to_string()
    };
    let (count_uid, name_uid) = (uid_of("Count"), uid_of("Name"));
    let (code, pretty) = cli.run(&["extract", "--elements", "--pretty", "--tab", &tab]);
    assert_eq!(code, 0);
    assert!(
        pretty
            .lines()
            .any(|l| l.starts_with(&count_uid) && l.contains("button") && l.contains("\"Count\"")),
        "{pretty}"
    );
    let (code, markdown) = cli.run(&["extract", "--markdown", "--tab", &tab]);
    assert_eq!(code, 0);
    assert!(markdown.starts_with("# Counter"), "{markdown}");
    // --agent: what the MCP server gives an agent (header, markdown, one line per element).
    let (code, raw) = cli.run(&["extract", "--agent", "--tab", &tab]);
    assert_eq!(code, 0);
    // Inside the page boundary, as MCP has it (SPEC §9 "Boundaries").
    let origin = bua_protocol::text::boundary::origin_of(&counter);
    assert!(
        raw.starts_with(&format!("<<<page {origin} nonce=")),
        "{raw}"
    );
    let agent = support::inside_boundary(raw.trim_end());
    assert!(
        agent.starts_with(&format!(
            "url: {counter}\ntitle: BUA MCP fixture\nelements: 4\n"
        )),
        "{agent}"
    );
    assert!(
        agent.contains(&format!(
            "\n=== elements ===\n{count_uid} button \"Count\"\n"
        )),
        "{agent}"
    );
    assert!(
        agent.contains("[page two](e2 /clients/mcp.html?page=2)"),
        "the markdown names the link by uid: {agent}"
    );
    assert!(!agent.contains("=== text ==="), "{agent}");
    // click <uid>, type <uid> <text>, eval
    let clicked = cli.json(&["click", &count_uid, "--tab", &tab]);
    assert_eq!(clicked["clicked"]["id"], "inc");
    let typed = cli.json(&["type", &name_uid, "alice", "--tab", &tab]);
    assert_eq!(typed["value"], "alice");
    let typed = cli.json(&[
        "type",
        "--selector",
        "#name",
        " smith",
        "--no-clear",
        "--tab",
        &tab,
    ]);
    assert_eq!(typed["value"], "alice smith");
    let value = cli.json(&[
        "eval",
        "return document.querySelector('#count').textContent + '/' + document.querySelector('#name').value",
        "--tab",
        &tab,
    ]);
    assert_eq!(value, json!({"type": "string", "value": "1/alice smith"}));
    // screenshot -o file.png
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("page.png");
    let shot = cli.json(&[
        "screenshot",
        "-o",
        file.to_str().expect("path"),
        "--tab",
        &tab,
    ]);
    let bytes = std::fs::read(&file).expect("screenshot file");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(shot["bytes"], bytes.len());
    assert_eq!(shot["mime"], "image/png");
    // click --selector / --text on another page; a stale uid fails with exit 1 and its code.
    let nav = cli.json(&["navigate", &v1_page, "--tab", &tab]);
    assert_eq!(nav["title"], "Example");
    assert_eq!(
        cli.json(&["click", "--selector", "#submit", "--tab", &tab])["clicked"]["id"],
        "submit"
    );
    assert_eq!(
        cli.json(&["click", "--text", "登录", "--tab", &tab])["clicked"]["id"],
        "login"
    );
    let (code, out) = cli.run(&["click", &count_uid, "--tab", &tab]);
    assert_eq!(code, 1, "{out}");
    let err: Value = serde_json::from_str(&out).expect("error JSON");
    assert_eq!(err["code"], "element_stale", "{err}");
    let (code, out) = cli.run(&["eval", "throw new Error('boom')", "--tab", &tab]);
    assert_eq!(code, 1);
    let err: Value = serde_json::from_str(&out).expect("error JSON");
    assert_eq!(err["code"], "invalid_action");
    assert!(
        err["error"].as_str().is_some_and(|e| e.contains("boom")),
        "{err}"
    );
    let (code, out) = cli.run(&["open", "not a url"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("\"invalid_action\"") && out.contains("url"),
        "{out}"
    );
    // --pretty indents.
    let (code, out) = cli.run(&["call", "list_tabs", "{}", "--pretty"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("{\n  \"tabs\": ["), "{out}");
    assert!(
        out.contains("\"tab_id\""),
        "list_tabs answers in the v1 shape: {out}"
    );
    // call close_tab ends the session; `events` printed its start and end, in order.
    let closed = cli.json(&["call", "close_tab", &json!({"tabId": tab_id}).to_string()]);
    assert_eq!(closed, json!({"closed": true, "tabId": tab_id}));
    let ours = eventually(Duration::from_secs(10), || {
        let lines = lines.lock().unwrap_or_else(|p| p.into_inner()).clone();
        async move {
            let ours: Vec<Value> = lines
                .iter()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter(|e| e["tabId"] == tab_id)
                .collect();
            ours.iter()
                .any(|e| e["type"] == "session_ended")
                .then_some(ours)
        }
    })
    .await
    .unwrap_or_else(|| {
        panic!(
            "`events` did not print our session's end: {:?}",
            lines.lock()
        )
    });
    let types: Vec<&str> = ours.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(types.first(), Some(&"session_started"), "{types:?}");
    assert!(types.contains(&"session_ended"), "{types:?}");
    // SIGINT ends `events` with status 0.
    let pid = nix::unistd::Pid::from_raw(follower.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).expect("SIGINT");
    let status = follower.wait().expect("events exits");
    assert_eq!(status.code(), Some(0));
    note(&format!(
        "CLI suite (20 invocations): {:.1} s",
        started.elapsed().as_secs_f64()
    ));
}

#[tokio::test]
async fn cli_invocations_are_one_agent_with_one_window_that_close_agent_tabs_reaches() {
    let browser = &Browser::shared("clients");
    let page = FixtureServer::shared().url("/clients/mcp.html");
    let cli = Cli {
        port: browser.port,
        token: browser.token.clone(),
        owner: None,
    };
    // Two `open` runs, two connections: one agent window.
    let first = cli.json(&["open", &page]);
    let second = cli.json(&["open", &page]);
    let window = first["windowId"].clone();
    assert!(window.is_i64(), "{first}");
    assert_eq!(
        second["windowId"], window,
        "both CLI tabs share the CLI's agent window"
    );
    let ours: BTreeSet<i64> = [&first, &second]
        .iter()
        .filter_map(|r| r["tabId"].as_i64())
        .collect();
    assert_eq!(ours.len(), 2);
    let observer = browser.client().await;
    assert_eq!(tab_ids(&all_tabs(&observer).await, &window), ours);

    // `screenshot -o x.jpg` writes a JPEG; a contradicting --format is refused, nothing written.
    let dir = tempfile::tempdir().expect("tempdir");
    let jpg = dir.path().join("page.jpg");
    let jpg_arg = jpg.to_str().expect("path");
    let tab = first["tabId"].to_string();
    let shot = cli.json(&["screenshot", "-o", jpg_arg, "--tab", &tab]);
    let bytes = std::fs::read(&jpg).expect("the file");
    assert_eq!(bytes[..3], [0xFF, 0xD8, 0xFF], "JPEG signature");
    assert_eq!(shot["mime"], "image/jpeg");
    assert_eq!(shot["bytes"], bytes.len());
    let other = dir.path().join("other.jpg");
    let (code, out) = cli.run(&[
        "screenshot",
        "-o",
        other.to_str().expect("path"),
        "--format",
        "png",
        "--tab",
        &tab,
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("\"invalid_action\"") && out.contains("conflicts"),
        "{out}"
    );
    assert!(!other.exists());

    // A later run finds the CLI's own tab without --tab.
    let page_now = cli.json(&["eval", "return location.href"]);
    assert_eq!(page_now["value"], page.as_str(), "{page_now}");

    // `call close_agent_tabs` from yet another run closes both tabs, and the window goes with them.
    let closed = closed_tab_ids(&cli.json(&["call", "close_agent_tabs"]));
    assert_eq!(closed, ours);
    let gone = eventually(Duration::from_secs(10), || {
        let observer = &observer;
        let window = window.clone();
        async move {
            let tabs = all_tabs(observer).await;
            let windows: BTreeSet<String> =
                tabs.iter().map(|t| t["windowId"].to_string()).collect();
            (!windows.contains(&window.to_string())).then_some(())
        }
    })
    .await;
    assert!(
        gone.is_some(),
        "the CLI's agent window closed with its tabs"
    );
}

#[test]
fn cli_help_lists_examples_and_schema_prints_the_action_schema() {
    let top = help(&["--help"]);
    assert!(top.contains("Examples:"), "{top}");
    for sub in [
        "tabs",
        "open",
        "navigate",
        "extract",
        "click",
        "type",
        "eval",
        "screenshot",
        "events",
        "call",
        "schema",
        "mcp",
    ] {
        assert!(
            top.contains(&format!("  {sub} ")),
            "top-level help lists {sub}"
        );
        let text = help(&[sub, "--help"]);
        assert!(
            text.contains("Example"),
            "`{sub} --help` has examples:\n{text}"
        );
        assert!(text.contains(&format!("bua-bridge {sub}")), "{text}");
    }
    let printed = stdout_of(
        Command::new(bridge_bin()).arg("schema"),
        "bua-bridge schema",
    );
    let printed: Value = serde_json::from_str(&printed).expect("JSON");
    assert_eq!(printed, bua_protocol::tool_input_schema());
}

/// The tab ids of a `close_agent_tabs` / `close_auto_tabs` result (`{closed: [tabId…]}`).
fn closed_tab_ids(result: &Value) -> BTreeSet<i64> {
    result["closed"]
        .as_array()
        .expect("closed")
        .iter()
        .filter_map(Value::as_i64)
        .collect()
}
