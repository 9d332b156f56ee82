//! End-to-end tests of the browser actions (SPEC §4, §7) in real headless
//! Chromium with the built extension and the real `bua-bridge launch`, on the fixture pages of
//! `tests/fixtures/actions/`, driven through the bridge's client API.
//!
//! One browser is shared by the whole file; every test works on its own agent tab(s), so tests run
//! concurrently. Each test names the behaviour it checks and asserts the values the page reports.

use crate::support;

use std::time::{Duration, Instant};

use base64::Engine;
use bua_bridge::BridgeClient;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};
use support::{eventually, get_tabs, note, Browser, FixtureServer, SharedBrowser};

/// `http://127.0.0.1:<port>/actions/<path>`.
fn url(path: &str) -> String {
    FixtureServer::shared().url(&format!("/actions/{path}"))
}

/// A bridge client acting as one agent.
struct Agent {
    client: BridgeClient,
    /// The area's browser, held for as long as the agent acts on it.
    browser: SharedBrowser,
}

impl Agent {
    async fn new() -> Agent {
        // `Browser::shared` hands the browser out once the extension serves actions steadily.
        let browser = Browser::shared("actions");
        let client = browser.client().await;
        Agent { client, browser }
    }

    /// Calls `method`; panics with the code and message when it fails.
    async fn ok(&self, method: &str, params: Value) -> Value {
        match self.client.call(method, params.clone()).await {
            Ok(v) => v,
            Err(e) => panic!("{method} {params} failed: {} {e}", e.code().as_str()),
        }
    }

    /// Calls `method`, expecting an error; returns its code and message.
    async fn err(&self, method: &str, params: Value) -> (ErrorCode, String) {
        match self.client.call(method, params.clone()).await {
            Ok(v) => panic!("{method} {params} unexpectedly succeeded: {v}"),
            Err(e) => (e.code(), e.to_string()),
        }
    }

    /// Opens `path` in a new agent tab and waits until it has loaded; returns the tab id.
    async fn open(&self, path: &str) -> i64 {
        let opened = self.ok("open_tab", json!({ "url": "about:blank" })).await;
        let tab = opened["tabId"].as_i64().expect("tabId");
        let nav = self
            .ok("navigate", json!({ "tabId": tab, "url": url(path) }))
            .await;
        assert_eq!(nav["url"], url(path));
        tab
    }

    /// `evaluate` → the value.
    async fn eval(&self, tab: i64, expression: &str) -> Value {
        let r = self
            .ok(
                "evaluate",
                json!({ "tabId": tab, "expression": expression }),
            )
            .await;
        r["value"].clone()
    }

    /// `document.getElementById(id).textContent`.
    async fn text_of(&self, tab: i64, id: &str) -> String {
        self.eval(
            tab,
            &format!("return document.getElementById({id:?}).textContent"),
        )
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    /// Polls `text_of` until it equals `want` (pages that update on a timer), or panics after 3 s.
    async fn wait_text(&self, tab: i64, id: &str, want: &str) {
        let deadline = Instant::now() + Duration::from_secs(3);
        loop {
            let last = self.text_of(tab, id).await;
            if last == want {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "#{id} never read {want:?} (last: {last:?})"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn close(&self, tab: i64) {
        let _ = self.client.call("close_tab", json!({ "tabId": tab })).await;
    }

    /// `extract` → the uid of the element with `role` and accessible `name`.
    async fn uid(&self, tab: i64, role: &str, name: &str) -> String {
        let page = self.ok("extract", json!({ "tabId": tab })).await;
        let elements = page["elements"].as_array().cloned().unwrap_or_default();
        elements
            .iter()
            .find(|e| e["role"] == role && e["name"] == name)
            .and_then(|e| e["uid"].as_str())
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("no {role} {name:?} among {elements:?}"))
    }
}

// ------------------------------------------------------------------------------------------------
// Every action, happy path and main error

#[tokio::test]
async fn navigate_go_back_go_forward_reload_wait_for_load_and_report_url_and_title() {
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    let nav = a
        .ok(
            "navigate",
            json!({ "tabId": tab, "url": url("two.html?x=1") }),
        )
        .await;
    assert_eq!(
        nav,
        json!({ "tabId": tab, "url": url("two.html?x=1"), "title": "Page Two", "status": 200, "loaded": true })
    );
    assert_eq!(a.text_of(tab, "query").await, "query=?x=1");

    let back = a.ok("go_back", json!({ "tabId": tab })).await;
    assert_eq!(
        (back["url"].as_str(), back["title"].as_str()),
        (Some(url("index.html").as_str()), Some("Actions Home"))
    );
    assert_eq!(back["loaded"], true, "{back}");
    let forward = a.ok("go_forward", json!({ "tabId": tab })).await;
    assert_eq!(forward["title"], "Page Two");
    assert_eq!(forward["loaded"], true, "{forward}");
    a.eval(tab, "window.marker = 42; return 1").await;
    let reloaded = a.ok("reload", json!({ "tabId": tab })).await;
    assert_eq!(reloaded["url"], url("two.html?x=1"));
    assert_eq!(reloaded["loaded"], true, "{reloaded}");
    assert_eq!(
        a.eval(tab, "return typeof window.marker").await,
        "undefined"
    );

    // Main errors: a URL the browser refuses (port 1 is on its unsafe-port list), no history in that
    // direction, a tab that does not exist. (Unreachable hosts: the next test.)
    let (code, message) = a
        .err(
            "navigate",
            json!({ "tabId": tab, "url": "http://127.0.0.1:1/" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("net::ERR_UNSAFE_PORT"), "{message}");
    assert!(message.contains("Fix the URL"), "{message}");
    let (code, message) = a.err("go_forward", json!({ "tabId": tab })).await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("no next page"), "{message}");
    let (code, _) = a.err("reload", json!({ "tabId": 987_654_321 })).await;
    assert_eq!(code, ErrorCode::TabNotFound);
    a.close(tab).await;
}

/// A URL on this machine's loopback that refuses connections: a port that was just free.
fn closed_port_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    format!("http://127.0.0.1:{port}/nothing-here")
}

#[tokio::test]
async fn an_unknown_or_unreachable_host_fails_navigate_and_open_tab_alike_and_the_tab_stays_usable()
{
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    // The test browser resolves only loopback names (support::OFFLINE_RESOLVER_RULES): a DNS failure.
    let dns = "http://nonexistent.example/page".to_owned();
    let refused = closed_port_url();
    let cases = [
        (
            dns,
            ErrorCode::HostNotFound,
            vec![
                "nonexistent.example could not be found",
                "DNS lookup failed (net::ERR_NAME_NOT_RESOLVED)",
                "Check the host name",
                "do not retry now",
            ],
        ),
        (
            refused,
            ErrorCode::Timeout,
            vec![
                "127.0.0.1 did not answer (net::ERR_CONNECTION_REFUSED)",
                "Check the URL's host and port",
                "retry at most once",
            ],
        ),
    ];
    for (target, want, words) in cases {
        // Not the caller's malformed input: `host_not_found` for a name that does not resolve (retrying
        // will not help), `timeout` for a host that does not answer; with what to do next, and the tab
        // stays usable.
        let (code, message) = a
            .err("navigate", json!({ "tabId": tab, "url": target }))
            .await;
        assert_eq!(code, want, "{message}");
        for w in &words {
            assert!(message.contains(w), "{w:?} not in {message:?}");
        }
        assert!(
            message.contains(&format!("Tab {tab} stays usable")),
            "{message}"
        );
        let error_page = eventually(Duration::from_secs(5), || async {
            let href = a.eval(tab, "return location.href").await;
            (href == "chrome-error://chromewebdata/").then_some(())
        })
        .await;
        assert!(
            error_page.is_some(),
            "the tab shows the browser's error page"
        );
        // The error page is a page: it can be extracted and captured.
        let page = a.ok("extract", json!({ "tabId": tab })).await;
        assert!(
            page["text"].as_str().is_some_and(|t| !t.is_empty()),
            "{page}"
        );
        let shot = a.ok("screenshot", json!({ "tabId": tab })).await;
        assert!(image_bytes(&shot).starts_with(b"\x89PNG"));

        // open_tab of the same URL: the same code and words, and no tab left behind.
        let (code, opened) = a.err("open_tab", json!({ "url": target })).await;
        assert_eq!(code, want, "{opened}");
        let same = message
            .split(" Tab ")
            .next()
            .unwrap_or_default()
            .trim_end_matches('.');
        assert!(
            opened.starts_with(same),
            "open_tab says what navigate says:\n{opened}\n{message}"
        );
        assert!(
            opened.ends_with("the tab opened for it was closed again"),
            "{opened}"
        );
        let left = eventually(Duration::from_secs(5), || async {
            let tabs = get_tabs(&a.client).await.ok()?;
            let others = tabs
                .iter()
                .filter(|t| t["tabId"] != tab && t["url"] == target.as_str());
            (others.count() == 0).then_some(())
        })
        .await;
        assert!(left.is_some(), "a tab on {target} was left open");
    }

    // The tab navigates on from the error page.
    let nav = a
        .ok("navigate", json!({ "tabId": tab, "url": url("two.html") }))
        .await;
    assert_eq!(nav["title"], "Page Two");
    a.close(tab).await;

    // A working open_tab answers once the page loaded (SPEC §4), with the blank first page gone from history.
    let started = Instant::now();
    let opened = a.ok("open_tab", json!({ "url": url("two.html") })).await;
    note(&format!(
        "open_tab (new tab + attach + load) answered in {} ms",
        started.elapsed().as_millis()
    ));
    assert_eq!(opened["loaded"], true, "{opened}");
    let fresh = opened["tabId"].as_i64().expect("tabId");
    let tabs = get_tabs(&a.client).await.expect("get_tabs");
    let listed = tabs.iter().find(|t| t["tabId"] == fresh).expect("listed");
    assert_eq!(listed["url"], url("two.html"), "committed: {listed}");
    let (code, message) = a.err("go_back", json!({ "tabId": fresh })).await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("no previous page"), "{message}");
    a.close(fresh).await;
}

#[tokio::test]
async fn browser_pages_and_data_urls_are_handled_before_they_can_hurt() {
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    // about:version is chrome://version: refused up front (navigating onto it crashes Chromium 156).
    for (method, params) in [
        ("navigate", json!({ "tabId": tab, "url": "about:version" })),
        ("open_tab", json!({ "url": "about:version" })),
    ] {
        let (code, message) = a.err(method, params).await;
        assert_eq!(code, ErrorCode::InvalidAction, "{method}: {message}");
        assert!(message.contains("browser's own pages"), "{message}");
    }
    assert_eq!(a.eval(tab, "return document.title").await, "Actions Home");
    // data: URLs: open_tab opens them; navigate says it cannot instead of reporting the old page.
    let opened = a
        .ok(
            "open_tab",
            json!({ "url": "data:text/html,<title>Data page</title>hi" }),
        )
        .await;
    let data_tab = opened["tabId"].as_i64().expect("tabId");
    let title = eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        let t = tabs.into_iter().find(|t| t["tabId"] == data_tab)?;
        (t["title"] == "Data page").then_some(())
    })
    .await;
    assert!(title.is_some(), "the data: page opened");
    let (code, message) = a
        .err(
            "navigate",
            json!({ "tabId": tab, "url": "data:text/html,<p>x</p>" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("open_tab"), "{message}");
    a.close(data_tab).await;
    a.close(tab).await;
}

#[tokio::test]
async fn tab_actions_list_activate_close_and_close_agent_tabs_and_window() {
    let a = Agent::new().await;
    let one = a.open("index.html").await;
    let two = a.open("two.html").await;
    let tabs = get_tabs(&a.client).await.expect("get_tabs");
    let mine: Vec<&Value> = tabs
        .iter()
        .filter(|t| t["tabId"] == one || t["tabId"] == two)
        .collect();
    assert_eq!(mine.len(), 2, "{tabs:?}");
    assert!(
        mine.iter()
            .all(|t| t["agentOwned"] == true && t["session"] == true),
        "{mine:?}"
    );
    assert!(mine.iter().any(|t| t["title"] == "Page Two"));

    let (code, message) = a.err("open_tab", json!({ "url": "not a url" })).await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");

    let active = a.ok("activate_tab", json!({ "tabId": one })).await;
    assert_eq!(
        active,
        json!({ "tabId": one, "url": url("index.html"), "title": "Actions Home", "active": true })
    );
    let (code, _) = a.err("activate_tab", json!({ "tabId": 987_654_321 })).await;
    assert_eq!(code, ErrorCode::TabNotFound);

    let closed = a.ok("close_tab", json!({ "tabId": one })).await;
    assert_eq!(closed, json!({ "closed": true, "tabId": one }));
    let (code, _) = a.err("close_tab", json!({ "tabId": one })).await;
    assert!(
        matches!(code, ErrorCode::TabNotFound | ErrorCode::SessionNotFound),
        "{code:?}"
    );

    let closed = a.ok("close_agent_tabs", json!({})).await;
    assert_eq!(closed, json!({ "closed": [two] }));
    // Nothing left: the agent window went with its last tab.
    let none = a.ok("close_agent_window", json!({})).await;
    assert_eq!(none, json!({ "closed": false, "windowId": null }));
    let three = a.open("index.html").await;
    let window = a.ok("close_agent_window", json!({})).await;
    assert_eq!(window["closed"], true, "{window}");
    let gone = eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        (!tabs.iter().any(|t| t["tabId"] == three)).then_some(())
    })
    .await;
    assert!(gone.is_some(), "tab {three} survived close_agent_window");
}

#[tokio::test]
async fn click_uses_real_mouse_events_and_reports_the_element() {
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#counter" }))
        .await;
    assert_eq!(
        r,
        json!({ "clicked": { "tag": "button", "role": "button", "id": "counter", "text": "Click me" }, "tabId": tab })
    );
    a.ok("click", json!({ "tabId": tab, "text": "Clicked 1" }))
        .await;
    a.ok(
        "click",
        json!({ "tabId": tab, "xpath": "//button[@id='counter']" }),
    )
    .await;
    assert_eq!(a.text_of(tab, "counter").await, "Clicked 3");
    assert_eq!(a.text_of(tab, "trust").await, "true true true ");

    // A link navigates in the same tab and the click waits for the new page.
    let r = a
        .ok("click", json!({ "tabId": tab, "text": "Go to page two" }))
        .await;
    assert_eq!(r["tabId"], tab);
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    a.ok("go_back", json!({ "tabId": tab })).await;

    let (code, message) = a
        .err("click", json!({ "tabId": tab, "selector": "#missing" }))
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    assert!(message.contains("extract"), "{message}");
    let (code, message) = a
        .err(
            "click",
            json!({ "tabId": tab, "selector": "button", "index": 5 }),
        )
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    assert!(message.contains("index 5 is out of range"), "{message}");
    let (code, message) = a
        .err("click", json!({ "tabId": tab, "selector": "#hidden-p" }))
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    assert!(message.contains("no visible box"), "{message}");
    let (code, message) = a
        .err("click", json!({ "tabId": tab, "selector": "button[" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("not a valid selector"), "{message}");
    a.close(tab).await;
}

#[tokio::test]
async fn click_scrolls_the_page_to_an_element_below_the_fold_and_hit_tests_there() {
    let a = Agent::new().await;
    let tab = a.open("long.html").await;
    assert_eq!(a.eval(tab, "return scrollY").await, 0);
    let r = a
        .ok("click", json!({ "tabId": tab, "text": "Deep button" }))
        .await;
    assert_eq!(r["clicked"]["id"], "deep");
    assert_eq!(a.text_of(tab, "deep").await, "Deep clicked 1");
    assert!(a.eval(tab, "return scrollY").await.as_f64() > Some(1000.0));
    // click_at on the scrolled page: viewport coordinates, the element found under them.
    let centre = a
        .eval(tab, "const r = document.getElementById('deep').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]")
        .await;
    let r = a
        .ok(
            "click_at",
            json!({ "tabId": tab, "x": centre[0], "y": centre[1] }),
        )
        .await;
    assert_eq!(r["clicked"]["id"], "deep");
    assert_eq!(a.text_of(tab, "deep").await, "Deep clicked 2");
    a.close(tab).await;
}

#[tokio::test]
async fn click_at_clicks_the_viewport_point() {
    let a = Agent::new().await;
    let tab = a.open("controls.html").await;
    let r = a
        .ok("click_at", json!({ "tabId": tab, "x": 650, "y": 395 }))
        .await;
    assert_eq!(r["clicked"]["id"], "box");
    assert_eq!(
        (r["x"].as_f64(), r["y"].as_f64()),
        (Some(650.0), Some(395.0))
    );
    assert_eq!(a.text_of(tab, "box").await, "box clicked at 650,395");
    let (code, message) = a
        .err("click_at", json!({ "tabId": tab, "x": 50_000, "y": 10 }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("outside"), "{message}");
    a.close(tab).await;
}

#[tokio::test]
async fn hover_moves_the_mouse_over_the_element() {
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    let r = a
        .ok(
            "hover",
            json!({ "tabId": tab, "selector": "#hover-target" }),
        )
        .await;
    assert_eq!(r["hovered"]["id"], "hover-target");
    assert_eq!(r["tabId"], tab);
    assert_eq!(a.text_of(tab, "hover-target").await, "Hovered!");
    let (code, _) = a
        .err(
            "hover",
            json!({ "tabId": tab, "text": "No such text anywhere" }),
        )
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    a.close(tab).await;
}

#[tokio::test]
async fn type_replaces_or_appends_reads_back_and_submits() {
    let a = Agent::new().await;
    let tab = a.open("controls.html").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#name", "text": "Alice" }),
        )
        .await;
    assert_eq!(r["value"], "Alice");
    assert_eq!(r["element"]["id"], "name");
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#name", "text": " B.", "clear": false }),
        )
        .await;
    assert_eq!(r["value"], "Alice B.");
    // The keys were real: select-all + Backspace for the clear.
    assert!(a
        .text_of(tab, "keys")
        .await
        .contains("ctrl+a(t) Backspace(t)"));
    // Typing into a label types into its control.
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "locator": { "text": "Name" }, "text": "Zed" }),
        )
        .await;
    assert_eq!(r["value"], "Zed");
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#notes", "text": "line one\nline two" }),
        )
        .await;
    assert_eq!(r["value"], "line one\nline two");

    // A field that swallows ctrl+a is still cleared.
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#stubborn", "text": "new" }),
        )
        .await;
    assert_eq!(r["value"], "new");

    let (code, message) = a
        .err(
            "type",
            json!({ "tabId": tab, "selector": "#agree", "text": "x" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("not a text field"), "{message}");

    // submit presses Enter: the GET form goes to two.html?q=…
    a.ok(
        "type",
        json!({ "tabId": tab, "selector": "#name", "text": "find me", "submit": true }),
    )
    .await;
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    assert_eq!(a.text_of(tab, "query").await, "query=?q=find+me&size=s");
    a.close(tab).await;
}

#[tokio::test]
async fn press_key_sends_trusted_keys_with_modifiers_and_waits_for_load() {
    let a = Agent::new().await;
    let tab = a.open("controls.html").await;
    let r = a
        .ok("press_key", json!({ "tabId": tab, "key": "k", "modifiers": ["ctrl", "shift"], "selector": "#notes" }))
        .await;
    assert_eq!(r["key"], "k");
    assert_eq!(r["modifiers"], json!(["ctrl", "shift"]));
    assert_eq!(r["element"]["id"], "notes");
    a.ok("press_key", json!({ "tabId": tab, "key": "Escape" }))
        .await;
    let keys = a.text_of(tab, "keys").await;
    assert!(
        keys.contains("ctrl+shift+K(t)") || keys.contains("ctrl+shift+k(t)"),
        "{keys}"
    );
    assert!(keys.contains("Escape(t)"), "{keys}");

    let (code, message) = a
        .err("press_key", json!({ "tabId": tab, "key": "Hyper" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("KeyboardEvent.key"), "{message}");

    let r = a
        .ok(
            "press_key",
            json!({ "tabId": tab, "key": "Enter", "selector": "#name", "waitLoad": true }),
        )
        .await;
    assert_eq!(r["element"]["id"], "name");
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    assert_eq!(a.text_of(tab, "query").await, "query=?q=prefilled&size=s");
    a.close(tab).await;
}

#[tokio::test]
async fn scroll_moves_the_window_or_a_container_and_reports_the_end() {
    let a = Agent::new().await;
    let tab = a.open("controls.html").await;
    let r = a.ok("scroll", json!({ "tabId": tab, "dy": 300 })).await;
    assert_eq!(
        r,
        json!({ "scrolled": { "dx": 0.0, "dy": 300.0 }, "atEnd": false, "tabId": tab })
    );
    assert_eq!(a.eval(tab, "return scrollY").await, 300);
    let r = a.ok("scroll", json!({ "tabId": tab, "toEnd": true })).await;
    assert_eq!(r["atEnd"], true);
    let r = a
        .ok(
            "scroll",
            json!({ "tabId": tab, "selector": "#list", "dy": 100 }),
        )
        .await;
    assert_eq!(r["scrolled"]["dy"], 100.0);
    assert_eq!(r["atEnd"], false);
    let r = a
        .ok(
            "scroll",
            json!({ "tabId": tab, "selector": "#list", "toEnd": true }),
        )
        .await;
    assert_eq!(r["atEnd"], true);
    assert_eq!(a.eval(tab, "const l = document.getElementById('list'); return l.scrollTop + l.clientHeight >= l.scrollHeight - 1").await, true);
    let (code, _) = a
        .err(
            "scroll",
            json!({ "tabId": tab, "selector": "#nope", "dy": 10 }),
        )
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    a.close(tab).await;
}

#[tokio::test]
async fn a_disabled_button_is_flagged_in_extract_and_its_click_refused() {
    let a = Agent::new().await;
    let tab = a.open("disabled.html").await;
    let page = a
        .ok("extract", json!({ "tabId": tab, "include": ["elements"] }))
        .await;
    let elements = page["elements"].as_array().expect("elements");
    let send = elements
        .iter()
        .find(|e| e["name"] == "Send")
        .unwrap_or_else(|| panic!("{page}"));
    assert_eq!(send["disabled"], true, "{page}");
    let count = elements
        .iter()
        .find(|e| e["name"] == "Count")
        .unwrap_or_else(|| panic!("{page}"));
    assert!(count.get("disabled").is_none(), "{page}");
    let (code, message) = a
        .err("click", json!({ "tabId": tab, "uid": send["uid"] }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("disabled"), "{message}");
    a.ok("click", json!({ "tabId": tab, "uid": count["uid"] }))
        .await;
    assert_eq!(
        a.text_of(tab, "count").await,
        "1",
        "only the enabled button counted"
    );
}

#[tokio::test]
async fn select_option_fires_change_and_refuses_a_disabled_option() {
    let a = Agent::new().await;
    let tab = a.open("controls.html").await;
    let r = a
        .ok(
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "value": "g" }),
        )
        .await;
    assert_eq!(
        r,
        json!({ "selected": [{ "value": "g", "label": "Green" }], "tabId": tab })
    );
    let r = a
        .ok(
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "label": "red" }),
        )
        .await;
    assert_eq!(r["selected"], json!([{ "value": "r", "label": "Red" }]));
    assert_eq!(a.text_of(tab, "log").await, "change:g change:r ");
    let r = a
        .ok(
            "select_option",
            json!({ "tabId": tab, "selector": "#multi", "index": [0, 2] }),
        )
        .await;
    assert_eq!(
        r["selected"],
        json!([{ "value": "1", "label": "One" }, { "value": "3", "label": "Three" }])
    );
    // extract shows what is selected now, as each select's value (SPEC §5 `value`).
    let page = a
        .ok("extract", json!({ "tabId": tab, "include": ["elements"] }))
        .await;
    let values: Vec<&str> = page["elements"]
        .as_array()
        .expect("elements")
        .iter()
        .filter(|e| e["role"] == "combobox" || e["role"] == "listbox")
        .filter_map(|e| e["value"].as_str())
        .collect();
    assert!(values.contains(&"Red"), "{page}");
    assert!(values.contains(&"One, Three"), "{page}");

    let (code, message) = a
        .err(
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "value": "b" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("disabled"), "{message}");
    assert_eq!(
        a.eval(tab, "return document.getElementById('color').value")
            .await,
        "r"
    );
    let (code, message) = a
        .err(
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "value": "purple" }),
        )
        .await;
    assert_eq!(code, ErrorCode::ElementNotFound);
    assert!(message.contains("\"Green\" (\"g\")"), "{message}");
    let (code, _) = a
        .err(
            "select_option",
            json!({ "tabId": tab, "selector": "#name", "value": "x" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    a.close(tab).await;
}

#[tokio::test]
async fn check_toggles_checkboxes_and_radios_with_real_clicks() {
    let a = Agent::new().await;
    let tab = a.open("controls.html").await;
    let r = a
        .ok("check", json!({ "tabId": tab, "text": "I agree" }))
        .await;
    assert_eq!(r["checked"], true);
    assert_eq!(r["element"]["id"], "agree");
    assert_eq!(
        a.eval(tab, "return document.getElementById('agree').checked")
            .await,
        true
    );
    let r = a
        .ok(
            "check",
            json!({ "tabId": tab, "selector": "#agree", "checked": false }),
        )
        .await;
    assert_eq!(r["checked"], false);
    let r = a
        .ok("check", json!({ "tabId": tab, "selector": "#large" }))
        .await;
    assert_eq!(
        (r["checked"].as_bool(), r["element"]["id"].as_str()),
        (Some(true), Some("large"))
    );
    assert_eq!(
        a.eval(tab, "return document.getElementById('small').checked")
            .await,
        false
    );

    let (code, message) = a
        .err("check", json!({ "tabId": tab, "selector": "#name" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("not a checkbox"), "{message}");
    let (code, _) = a
        .err(
            "check",
            json!({ "tabId": tab, "selector": "#large", "checked": false }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    a.close(tab).await;
}

#[tokio::test]
async fn set_value_reaches_controls_typing_cannot_and_fires_input_and_change() {
    let a = Agent::new().await;
    let tab = a.open("controls.html").await;
    let r = a
        .ok(
            "set_value",
            json!({ "tabId": tab, "selector": "#when", "value": "2024-05-06" }),
        )
        .await;
    assert_eq!(r["value"], "2024-05-06");
    assert_eq!(r["element"]["type"], "date");
    assert_eq!(a.text_of(tab, "log").await, "date-input date-change ");
    let r = a
        .ok(
            "set_value",
            json!({ "tabId": tab, "selector": "#vol", "value": "7" }),
        )
        .await;
    assert_eq!(r["value"], "7");
    let (code, message) = a
        .err(
            "set_value",
            json!({ "tabId": tab, "selector": "#agree", "value": "on" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("use check"), "{message}");
    a.close(tab).await;
}

#[tokio::test]
async fn wait_for_sees_late_elements_text_and_hiding_and_times_out() {
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    let r = a
        .ok(
            "wait_for",
            json!({ "tabId": tab, "selector": "#late", "timeoutMs": 5000 }),
        )
        .await;
    assert_eq!(r["found"], true);
    assert!(r["elapsedMs"].as_u64().is_some());
    let r = a
        .ok(
            "wait_for",
            json!({ "tabId": tab, "textContains": "Late button" }),
        )
        .await;
    assert_eq!(r["found"], true);
    let r = a
        .ok(
            "wait_for",
            json!({ "tabId": tab, "selector": "#hidden-p", "state": "hidden" }),
        )
        .await;
    assert_eq!(r["found"], true);
    let r = a
        .ok(
            "wait_for",
            json!({ "tabId": tab, "selector": "#hidden-p", "state": "attached" }),
        )
        .await;
    assert_eq!(r["found"], true);

    let started = Instant::now();
    let (code, message) = a
        .err(
            "wait_for",
            json!({ "tabId": tab, "selector": "#never", "timeoutMs": 400 }),
        )
        .await;
    assert_eq!(code, ErrorCode::Timeout);
    assert!(message.contains("400 ms"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(2));
    a.close(tab).await;
}

#[tokio::test]
async fn extract_uids_drive_actions_and_go_stale_after_navigation() {
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    let uid = a.uid(tab, "button", "Click me").await;
    let r = a.ok("click", json!({ "tabId": tab, "uid": uid })).await;
    assert_eq!(r["clicked"]["id"], "counter");
    assert_eq!(a.text_of(tab, "counter").await, "Clicked 1");
    a.ok("navigate", json!({ "tabId": tab, "url": url("two.html") }))
        .await;
    let (code, message) = a.err("click", json!({ "tabId": tab, "uid": uid })).await;
    assert_eq!(code, ErrorCode::ElementStale);
    assert!(message.contains("extract"), "{message}");
    // A uid beyond the last extract's was never given out: said plainly, with the range it listed.
    let page = a.ok("extract", json!({ "tabId": tab })).await;
    let n = page["elements"].as_array().map_or(0, Vec::len);
    assert!(n > 0, "{page}");
    let (code, message) = a.err("click", json!({ "tabId": tab, "uid": "e999" })).await;
    assert_eq!(code, ErrorCode::ElementStale);
    assert!(
        message.contains(&format!(
            "uid e999 was not in tab {tab}'s last extract, which listed e0…e{}",
            n - 1
        )),
        "{message}"
    );
    assert!(!message.contains("navigated"), "{message}");
    a.close(tab).await;
}

#[tokio::test]
async fn scrape_returns_items_with_absolute_links_and_waits_for_them() {
    let a = Agent::new().await;
    let tab = a.open("scrape.html").await;
    let r = a
        .ok(
            "scrape",
            json!({ "tabId": tab, "item": ".result", "fields": { "title": "h3", "url": "a@href", "desc": ".desc", "img": "img@src" } }),
        )
        .await;
    assert_eq!(r["count"], 3);
    let items = r["items"].as_array().expect("items");
    assert_eq!(
        items[0],
        json!({ "title": "First result", "url": FixtureServer::shared().url("/actions/two.html?r=1"), "desc": "One description", "img": null })
    );
    assert_eq!(items[1]["url"], url("two.html?r=2"));
    assert_eq!(items[1]["img"], url("img/pic.png"));
    assert_eq!(items[2]["url"], "https://example.com/x");
    let r = a
        .ok(
            "scrape",
            json!({ "tabId": tab, "item": ".result h3", "limit": 2 }),
        )
        .await;
    assert_eq!(
        r["items"],
        json!([{ "text": "First result" }, { "text": "Second result" }])
    );
    let r = a
        .ok(
            "scrape",
            json!({ "tabId": tab, "item": ".late-item", "timeoutMs": 3000 }),
        )
        .await;
    assert_eq!(r["items"], json!([{ "text": "arrived" }]));
    let r = a
        .ok(
            "scrape",
            json!({ "tabId": tab, "item": ".none", "timeoutMs": 300 }),
        )
        .await;
    assert_eq!(r["count"], 0);

    let (code, message) = a
        .err("scrape", json!({ "tabId": tab, "item": "div[" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("not a valid CSS selector"), "{message}");
    a.close(tab).await;
}

fn image_bytes(r: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(r["data"].as_str().expect("data"))
        .expect("base64")
}

#[tokio::test]
async fn screenshot_captures_a_tab_in_the_minimized_agent_window() {
    let a = Agent::new().await;
    let tab = a.open("long.html").await;
    let state = get_tabs(&a.client)
        .await
        .expect("get_tabs")
        .into_iter()
        .find(|t| t["tabId"] == tab)
        .map(|t| t["windowState"].clone());
    note(&format!("screenshot tab window state: {state:?}"));
    // The viewport may change size while the screenshot runs (the window is restored from minimized
    // for the capture; the browser's "is being debugged" bar comes and goes as other tests attach and
    // detach): the page records every size it has from just before the capture to just after it, and
    // the image must be the viewport at one of those moments.
    a.eval(
        tab,
        "window.__sizes = [[innerWidth, innerHeight]]; \
         addEventListener('resize', () => __sizes.push([innerWidth, innerHeight])); return 0",
    )
    .await;
    let r = a.ok("screenshot", json!({ "tabId": tab })).await;
    let sizes = a.eval(tab, "return __sizes").await;
    assert_eq!(r["mime"], "image/png");
    let png = image_bytes(&r);
    assert!(png.starts_with(b"\x89PNG"));
    let shot = json!([r["width"], r["height"]]);
    assert!(
        sizes.as_array().is_some_and(|s| s.contains(&shot)),
        "the {shot} screenshot is not the viewport at any moment of the capture: {sizes}"
    );

    let r = a
        .ok(
            "screenshot",
            json!({ "tabId": tab, "fullPage": true, "format": "jpeg", "quality": 50 }),
        )
        .await;
    assert_eq!(r["mime"], "image/jpeg");
    assert!(image_bytes(&r).starts_with(&[0xFF, 0xD8]));
    assert_eq!(
        r["height"].as_u64(),
        Some(2004),
        "four 500px blocks + borders"
    );
    let r = a
        .ok("screenshot", json!({ "tabId": tab, "maxWidth": 200 }))
        .await;
    assert_eq!(r["width"].as_u64(), Some(200));

    let (code, _) = a.err("screenshot", json!({ "tabId": 987_654_321 })).await;
    assert_eq!(code, ErrorCode::TabNotFound);
    a.close(tab).await;
}

#[tokio::test]
async fn screenshot_of_a_background_tab_right_after_open_tab_is_quick_and_focuses_nothing() {
    let a = Agent::new().await;
    // The agent's first tab opens its (minimized) agent window; every later open_tab is a background tab.
    let first = a.open("index.html").await;
    let browser = &Browser::shared("actions");
    let dt = browser.devtools().await;
    let window_of = |tab: i64| {
        format!(
            "chrome.tabs.get({tab}).then(t => chrome.windows.get(t.windowId)).then(w => \
             ({{ focused: w.focused, state: w.state }}))"
        )
    };
    for i in 0..10 {
        let page = format!("{}?n={i}", url("long.html"));
        let opened = a.ok("open_tab", json!({ "url": page })).await;
        let tab = opened["tabId"].as_i64().expect("tabId");
        let listed = support::tab_info(&a.client, tab).await.expect("listed");
        assert_eq!(
            listed["active"], false,
            "open_tab opened a background tab: {listed}"
        );
        let started = Instant::now();
        let r = a.ok("screenshot", json!({ "tabId": tab })).await;
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(2),
            "screenshot {i} of a background tab took {} ms",
            took.as_millis()
        );
        assert!(image_bytes(&r).starts_with(b"\x89PNG"));
        // It is that page: its full height is long.html's (four 500 px blocks + borders), not index.html's.
        let started = Instant::now();
        let full = a
            .ok("screenshot", json!({ "tabId": tab, "fullPage": true }))
            .await;
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(
            full["height"].as_u64(),
            Some(2004),
            "{i}: {}",
            full["height"]
        );
        if i == 0 {
            note(&format!(
                "screenshot of a background tab right after open_tab: {} ms",
                took.as_millis()
            ));
        }
        let window = browser.eval_in_worker(&dt, &window_of(tab)).await;
        assert_eq!(
            window,
            json!({ "focused": false, "state": "minimized" }),
            "{i}: the agent window stays unfocused and minimized"
        );
        a.close(tab).await;
    }
    a.close(first).await;
}

/// An HTTP server on 127.0.0.1 that accepts connections and never answers (holds them for a minute).
fn silent_server_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
            if held.len() > 16 {
                break;
            }
        }
        std::thread::sleep(Duration::from_secs(60));
    });
    format!("http://127.0.0.1:{port}/never")
}

#[tokio::test]
async fn a_tab_left_by_a_navigate_timeout_answers_extract_evaluate_and_screenshot_at_once() {
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    let target = silent_server_url();
    let (code, message) = a
        .err("navigate", json!({ "tabId": tab, "url": target }))
        .await;
    assert_eq!(code, ErrorCode::Timeout, "{message}");
    assert!(
        message.contains("timed out (net::ERR_TIMED_OUT)"),
        "{message}"
    );
    assert!(
        message.ends_with(&format!(
            "; the load was stopped. Tab {tab} stays usable, on the page it showed before: navigate it \
             elsewhere or go on"
        )),
        "{message}"
    );
    for (method, params) in [
        ("extract", json!({ "tabId": tab })),
        (
            "evaluate",
            json!({ "tabId": tab, "expression": "return 6 * 7" }),
        ),
        ("screenshot", json!({ "tabId": tab })),
    ] {
        let started = Instant::now();
        let r = a.ok(method, params).await;
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(2),
            "{method} after the navigate timeout took {} ms",
            took.as_millis()
        );
        match method {
            "extract" => assert_eq!(
                (r["url"].as_str(), r["title"].as_str()),
                (Some(url("index.html").as_str()), Some("Actions Home")),
                "the tab shows the page it had: {r}"
            ),
            "evaluate" => assert_eq!(r["value"], 42, "{r}"),
            _ => assert!(image_bytes(&r).starts_with(b"\x89PNG")),
        }
    }
    // The stopped load left the tab on the page it showed; it navigates on as usual.
    let nav = a
        .ok("navigate", json!({ "tabId": tab, "url": url("two.html") }))
        .await;
    assert_eq!(nav["title"], "Page Two");
    a.close(tab).await;
}

#[tokio::test]
async fn navigate_and_open_tab_report_the_http_status() {
    let a = Agent::new().await;
    let missing = url("no-such-page.html");
    let opened = a.ok("open_tab", json!({ "url": missing })).await;
    let tab = opened["tabId"].as_i64().expect("tabId");
    assert_eq!(opened["status"], 404, "{opened}");
    let nav = a
        .ok("navigate", json!({ "tabId": tab, "url": url("two.html") }))
        .await;
    assert_eq!(
        (nav["status"].clone(), nav["title"].clone()),
        (json!(200), json!("Page Two"))
    );
    let nav = a
        .ok("navigate", json!({ "tabId": tab, "url": missing }))
        .await;
    assert_eq!(nav["status"], 404, "{nav}");
    let nav = a
        .ok("navigate", json!({ "tabId": tab, "url": "about:blank" }))
        .await;
    assert!(
        nav.get("status").is_none(),
        "no HTTP response, no status: {nav}"
    );
    a.close(tab).await;
}

#[tokio::test]
async fn attach_fails_on_chrome_pages_but_an_open_devtools_client_is_fine() {
    let a = Agent::new().await;
    let browser = &Browser::shared("actions");
    let dt = browser.devtools().await;
    // A tab whose page another DevTools client (this harness) is attached to still works.
    let tab = a.open("index.html?devtools").await;
    let target = dt
        .find_target("page", |u| u == url("index.html?devtools"))
        .await
        .expect("targets")
        .expect("the tab's target");
    let session = dt.attach(&target.id).await.expect("attach DevTools");
    a.ok("navigate", json!({ "tabId": tab, "url": url("two.html") }))
        .await;
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    dt.detach(&session).await;
    a.close(tab).await;

    // chrome:// pages cannot be automated: debugger_attach_failed with Chrome's reason.
    // In a window of its own: in the browser's last-focused window it could land in another test's agent window.
    let page = support::open_page_in_own_window(&dt, "chrome://version/").await;
    let chrome_tab = eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        tabs.into_iter()
            .find(|t| {
                t["url"]
                    .as_str()
                    .is_some_and(|u| u.starts_with("chrome://version"))
            })
            .and_then(|t| t["tabId"].as_i64())
    })
    .await
    .expect("the chrome://version tab");
    let (code, message) = a
        .err(
            "evaluate",
            json!({ "tabId": chrome_tab, "expression": "return 1" }),
        )
        .await;
    assert_eq!(code, ErrorCode::DebuggerAttachFailed, "{message}");
    assert!(message.contains("chrome://"), "{message}");
    let _ = dt.close_target(&page).await;
}

// ------------------------------------------------------------------------------------------------
// evaluate exactly as SPEC §7

#[tokio::test]
async fn evaluate_returns_values_descriptions_truncation_and_errors_per_spec() {
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    let eval = |expression: &str| {
        a.ok(
            "evaluate",
            json!({ "tabId": tab, "expression": expression }),
        )
    };
    assert_eq!(
        eval("return document.title").await,
        json!({ "type": "string", "value": "Actions Home" })
    );
    assert_eq!(
        eval("document.title").await,
        json!({ "type": "undefined", "value": null })
    );
    assert_eq!(
        eval("return document.getElementById('counter')").await,
        json!({ "type": "object", "description": "button#counter" })
    );
    assert_eq!(
        eval("return new Map([[1, 2]])").await,
        json!({ "type": "object", "description": "Map(1)" })
    );
    assert_eq!(
        eval("return { a: [1, 'x', null], b: true }").await,
        json!({ "type": "object", "value": { "a": [1, "x", null], "b": true } })
    );
    assert_eq!(
        eval("return Promise.resolve(7)").await,
        json!({ "type": "number", "value": 7 })
    );
    let big = eval("return 'x'.repeat(100 * 1024)").await;
    assert_eq!(big["type"], "string");
    assert_eq!(big["truncated"], true);
    let preview = big["preview"].as_str().expect("preview");
    // The JSON string is 102 402 chars with its quotes; the first 8 192 are kept.
    assert!(
        preview.ends_with("…[truncated 94210 chars]"),
        "{}",
        &preview[preview.len() - 40..]
    );
    assert_eq!(preview.len(), 8192 + "…[truncated 94210 chars]".len());

    let (code, message) = a
        .err(
            "evaluate",
            json!({ "tabId": tab, "expression": "throw new Error('boom here')" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("Error: boom here"), "{message}");
    let (code, message) = a
        .err(
            "evaluate",
            json!({ "tabId": tab, "expression": "return nope.x" }),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction);
    assert!(message.contains("nope is not defined"), "{message}");
    // Something CDP cannot serialise (`return window`) is the caller's mistake, with what to return.
    for expression in ["return window", "const o = {}; o.self = o; return o"] {
        let (code, message) = a
            .err(
                "evaluate",
                json!({ "tabId": tab, "expression": expression }),
            )
            .await;
        assert_eq!(code, ErrorCode::InvalidAction, "{expression}: {message}");
        assert!(message.contains("return plain JSON data"), "{message}");
        assert!(!message.contains("CDP"), "{message}");
    }

    assert_eq!(
        eval("return navigator.webdriver").await,
        json!({ "type": "boolean", "value": false })
    );
    // And on a freshly loaded document too (the script is installed for new documents).
    a.ok("navigate", json!({ "tabId": tab, "url": url("two.html") }))
        .await;
    assert_eq!(
        eval("return navigator.webdriver").await,
        json!({ "type": "boolean", "value": false })
    );
    a.close(tab).await;
}

#[tokio::test]
async fn evaluate_stops_an_endless_loop_and_the_tab_stays_usable() {
    let a = Agent::new().await;
    let tab = a.open("two.html").await;
    let started = Instant::now();
    let (code, message) = a
        .err(
            "evaluate",
            json!({ "tabId": tab, "expression": "while (true) {}" }),
        )
        .await;
    assert_eq!(code, ErrorCode::Timeout, "{message}");
    assert!(
        started.elapsed() < Duration::from_secs(12),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(a.eval(tab, "return document.title").await, "Page Two");
    a.ok("click", json!({ "tabId": tab, "text": "Back home" }))
        .await;
    assert_eq!(a.eval(tab, "return document.title").await, "Actions Home");
    a.close(tab).await;
}

// ------------------------------------------------------------------------------------------------
// The kinds of page agents fail on in the field

#[tokio::test]
async fn controlled_input_keeps_typed_text_and_enables_save() {
    let a = Agent::new().await;
    let tab = a.open("controlled.html").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#username", "text": "neo" }),
        )
        .await;
    assert_eq!(r["value"], "neo");
    // Several renders later the state still has it, so the value survives and Save is enabled.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(a.text_of(tab, "state").await, "state=\"neo\"");
    assert_eq!(
        a.eval(tab, "return document.getElementById('username').value")
            .await,
        "neo"
    );
    assert_eq!(
        a.eval(tab, "return document.getElementById('save').disabled")
            .await,
        false
    );
    a.ok("click", json!({ "tabId": tab, "text": "Save" })).await;
    a.wait_text(tab, "saved", "saved:neo").await;
    a.close(tab).await;
}

#[tokio::test]
async fn model_driven_contenteditable_editor_gets_the_text() {
    let a = Agent::new().await;
    let tab = a.open("editor.html").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#editor", "text": "Hello world" }),
        )
        .await;
    assert_eq!(r["value"], "Hello world");
    assert_eq!(a.text_of(tab, "model").await, "model=\"Hello world\"");
    let r = a
        .ok("type", json!({ "tabId": tab, "uid": a.uid(tab, "textbox", "Message body").await, "text": "!", "clear": false }))
        .await;
    assert_eq!(r["value"], "Hello world!");
    assert_eq!(a.text_of(tab, "model").await, "model=\"Hello world!\"");
    a.close(tab).await;
}

#[tokio::test]
async fn typing_the_password_leaves_the_focus_stealing_email_intact() {
    let a = Agent::new().await;
    let tab = a.open("login.html").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#password", "text": "s3cret!" }),
        )
        .await;
    // The read-back value of a password field is masked, as extract shows it (SPEC §5).
    assert_eq!(r["value"], "•••••••");
    let page = a.ok("extract", json!({ "tabId": tab })).await;
    let field = page["elements"]
        .as_array()
        .and_then(|all| all.iter().find(|e| e["name"] == "Password").cloned())
        .expect("the password field is listed");
    assert_eq!(
        field["value"], r["value"],
        "type and extract agree: {field}"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        a.eval(tab, "return [document.getElementById('email').value, document.getElementById('password').value]").await,
        json!(["user@example.com", "s3cret!"])
    );
    // And the page got its focus back afterwards (the lock is lifted).
    assert_eq!(
        a.eval(tab, "return document.activeElement.id").await,
        "email"
    );
    // set_value reads back masked too; the e-mail field is not masked.
    let r = a
        .ok(
            "set_value",
            json!({ "tabId": tab, "selector": "#password", "value": "abc" }),
        )
        .await;
    assert_eq!(r["value"], "•••");
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "selector": "#email", "text": "me@example.com" }),
        )
        .await;
    assert_eq!(r["value"], "me@example.com");
    a.close(tab).await;
}

#[tokio::test]
async fn buttons_in_open_and_closed_shadow_roots_are_clicked() {
    let a = Agent::new().await;
    let tab = a.open("shadow.html").await;
    a.ok(
        "click",
        json!({ "tabId": tab, "text": "Open shadow button" }),
    )
    .await;
    let closed = a.uid(tab, "button", "Closed shadow button").await;
    let r = a.ok("click", json!({ "tabId": tab, "uid": closed })).await;
    assert_eq!(r["clicked"]["id"], "closed-btn");
    assert_eq!(a.text_of(tab, "result").await, "open(true) closed(true) ");
    a.close(tab).await;
}

#[tokio::test]
async fn same_origin_iframe_input_and_button_work_by_uid() {
    let a = Agent::new().await;
    let tab = a.open("frame_outer.html").await;
    let city = a.uid(tab, "textbox", "City").await;
    let go = a.uid(tab, "button", "Go").await;
    let r = a
        .ok(
            "type",
            json!({ "tabId": tab, "uid": city, "text": "Paris" }),
        )
        .await;
    assert_eq!(r["value"], "Paris");
    a.ok("click", json!({ "tabId": tab, "uid": go })).await;
    assert_eq!(
        a.eval(tab, "return document.getElementById('inner').contentDocument.getElementById('out').textContent").await,
        "went to Paris"
    );
    a.close(tab).await;
}

#[tokio::test]
async fn cookie_banner_obstructs_the_click_until_accepted() {
    let a = Agent::new().await;
    let tab = a.open("banner.html").await;
    let (code, message) = a
        .err("click", json!({ "tabId": tab, "selector": "#buy" }))
        .await;
    assert_eq!(code, ErrorCode::ElementObstructed);
    assert!(message.contains("cookie-banner"), "{message}");
    assert!(message.contains("fixed"), "{message}");
    assert_eq!(a.text_of(tab, "bought").await, "");
    a.ok("click", json!({ "tabId": tab, "text": "Accept all" }))
        .await;
    a.ok("click", json!({ "tabId": tab, "selector": "#buy" }))
        .await;
    assert_eq!(a.text_of(tab, "bought").await, "bought");
    a.close(tab).await;
}

#[tokio::test]
async fn row_below_the_fold_of_an_inner_scroller_is_clicked_by_uid() {
    let a = Agent::new().await;
    let tab = a.open("scroller.html").await;
    let uid = a.uid(tab, "button", "Open order 77").await;
    assert_eq!(
        a.eval(tab, "return document.getElementById('rows').scrollTop")
            .await,
        0
    );
    a.ok("click", json!({ "tabId": tab, "uid": uid })).await;
    assert_eq!(a.text_of(tab, "picked").await, "opened 77");
    a.close(tab).await;
}

#[tokio::test]
async fn target_blank_link_opens_in_the_same_tab_unless_new_tab() {
    let a = Agent::new().await;
    let tab = a.open("index.html").await;
    // A `_blank` link opens its tab in the window of the page that has it, here this client's own agent
    // window (one per owner, SPEC §6): the test counts that window's tabs, never the whole browser's, which
    // the tests running beside it open and close at any moment.
    let window_tabs = || async {
        let tabs = get_tabs(&a.client).await.expect("get_tabs");
        let window = tabs
            .iter()
            .find(|t| t["tabId"] == tab)
            .map(|t| t["windowId"].clone())
            .expect("the tab is listed");
        tabs.into_iter()
            .filter(|t| t["windowId"] == window)
            .filter_map(|t| t["tabId"].as_i64())
            .collect::<Vec<i64>>()
    };
    assert_eq!(
        window_tabs().await,
        vec![tab],
        "the agent window holds one tab"
    );
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#blank" }))
        .await;
    assert_eq!(r["tabId"], tab);
    assert_eq!(a.eval(tab, "return location.search").await, "?from=blank");
    assert_eq!(
        window_tabs().await,
        vec![tab],
        "no tab opened for the click"
    );
    a.ok("go_back", json!({ "tabId": tab })).await;
    // The page's own target survives the click.
    assert_eq!(
        a.eval(tab, "return document.getElementById('blank').target")
            .await,
        "_blank"
    );

    let r = a
        .ok(
            "click",
            json!({ "tabId": tab, "selector": "#blank", "newTab": true }),
        )
        .await;
    let new_tab = r["tabId"].as_i64().expect("tabId");
    assert_ne!(new_tab, tab);
    assert_eq!(a.eval(tab, "return document.title").await, "Actions Home");
    let opened = eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        tabs.into_iter()
            .find(|t| t["tabId"] == new_tab && t["url"] == url("two.html?from=blank"))
    })
    .await
    .expect("the new tab");
    assert_eq!(opened["agentOwned"], true);
    a.close(new_tab).await;
    a.close(tab).await;
}

#[tokio::test]
async fn dialogs_are_answered_during_evaluate_and_reported() {
    let a = Agent::new().await;
    let tab = a.open("dialogs.html").await;
    let r = a
        .ok("evaluate", json!({ "tabId": tab, "expression": "return [alert('hi'), confirm('sure?'), prompt('name?', 'x')]" }))
        .await;
    assert_eq!(
        r,
        json!({ "type": "object", "value": [null, false, null], "dialogs": [
            { "type": "alert", "message": "hi", "answer": "accepted" },
            { "type": "confirm", "message": "sure?", "answer": "dismissed" },
            { "type": "prompt", "message": "name?", "answer": "dismissed" },
        ] })
    );
    // An alert raised by a click is answered at once: the click returns, and the page ran on.
    let started = Instant::now();
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#alert-btn" }))
        .await;
    assert_eq!(r["clicked"]["id"], "alert-btn");
    assert_eq!(
        r["dialogs"],
        json!([{ "type": "alert", "message": "Saved!", "answer": "accepted" }])
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(a.text_of(tab, "after").await, "after alert");
    a.close(tab).await;
}

#[tokio::test]
async fn a_confirm_from_a_click_is_dismissed_by_default_and_accepted_when_asked() {
    let a = Agent::new().await;
    let tab = a.open("dialogs.html").await;
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#delete-btn" }))
        .await;
    assert_eq!(
        r["dialogs"],
        json!([{ "type": "confirm", "message": "Delete?", "answer": "dismissed" }])
    );
    assert_eq!(a.text_of(tab, "confirmed").await, "false");
    let r = a
        .ok(
            "click",
            json!({ "tabId": tab, "selector": "#delete-btn", "dialog": "accept" }),
        )
        .await;
    assert_eq!(r["dialogs"][0]["answer"], "accepted");
    assert_eq!(a.text_of(tab, "confirmed").await, "true");
    // An action that raises no dialog reports none.
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#confirmed" }))
        .await;
    assert!(r.get("dialogs").is_none(), "{r}");
    a.close(tab).await;
}

#[tokio::test]
async fn a_prompt_gets_the_prompt_text() {
    let a = Agent::new().await;
    let tab = a.open("dialogs.html").await;
    let r = a
        .ok(
            "click",
            json!({ "tabId": tab, "selector": "#name-btn", "promptText": "Ada Lovelace" }),
        )
        .await;
    assert_eq!(
        r["dialogs"],
        json!([{ "type": "prompt", "message": "Your name?", "answer": "accepted", "promptText": "Ada Lovelace" }])
    );
    assert_eq!(a.text_of(tab, "named").await, "Ada Lovelace");
    // Accepted without a text: the prompt's default, as OK would give.
    let r = a
        .ok(
            "click",
            json!({ "tabId": tab, "selector": "#name-btn", "dialog": "accept" }),
        )
        .await;
    assert_eq!(r["dialogs"][0]["promptText"], "anonymous");
    assert_eq!(a.text_of(tab, "named").await, "anonymous");
    a.close(tab).await;
}

#[tokio::test]
async fn an_alert_opened_between_actions_is_answered_and_reported_by_the_next_one() {
    let a = Agent::new().await;
    let tab = a.open("dialogs.html").await;
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#timer-btn" }))
        .await;
    assert!(r.get("dialogs").is_none(), "{r}");
    // The page retitles itself just before its alert: once the tab says so, the alert is open.
    eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        tabs.into_iter()
            .find(|t| t["tabId"] == tab && t["title"] == "Alerting")
    })
    .await
    .expect("the timer's alert opened");
    let started = Instant::now();
    let r = a.ok("extract", json!({ "tabId": tab })).await;
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(
        r["dialogs"],
        json!([{ "type": "alert", "message": "Timer!", "answer": "accepted" }])
    );
    assert_eq!(r["title"], "Dialogs");
    assert!(r.get("dialog").is_none(), "{r}");
    a.close(tab).await;
}

#[tokio::test]
async fn beforeunload_guard_does_not_wedge_navigate_or_close_tab() {
    let a = Agent::new().await;
    let tab = a.open("guard.html").await;
    // Typing gives the page the user activation a beforeunload prompt needs.
    a.ok(
        "type",
        json!({ "tabId": tab, "selector": "#draft", "text": "unsaved" }),
    )
    .await;
    let started = Instant::now();
    let r = a
        .ok("navigate", json!({ "tabId": tab, "url": url("two.html") }))
        .await;
    assert_eq!(r["title"], "Page Two");
    assert_eq!(r["dialogs"][0]["type"], "beforeunload");
    assert_eq!(r["dialogs"][0]["answer"], "accepted");
    assert!(started.elapsed() < Duration::from_secs(5));

    a.ok(
        "navigate",
        json!({ "tabId": tab, "url": url("guard.html") }),
    )
    .await;
    a.ok(
        "type",
        json!({ "tabId": tab, "selector": "#draft", "text": "unsaved" }),
    )
    .await;
    let started = Instant::now();
    let r = a.ok("close_tab", json!({ "tabId": tab })).await;
    assert_eq!(r["closed"], true);
    assert_eq!(r["tabId"], tab);
    assert_eq!(r["dialogs"][0]["type"], "beforeunload");
    assert!(started.elapsed() < Duration::from_secs(5));
    let tabs = get_tabs(&a.client).await.expect("get_tabs");
    assert!(!tabs.iter().any(|t| t["tabId"] == tab), "{tabs:?}");
}

#[tokio::test]
async fn a_dialog_on_a_tab_the_user_is_using_is_left_to_the_user_and_extract_says_so() {
    let a = Agent::new().await;
    let dt = a.browser.devtools().await;
    let page = url("dialogs.html?user");
    let (target, tab) = support::open_user_tab(&dt, &a.client, &page).await;
    let listed = support::tab_info(&a.client, tab).await.expect("listed");
    assert_eq!(listed["agentOwned"], false);
    a.ok("click", json!({ "tabId": tab, "selector": "#timer-btn" }))
        .await;
    eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        tabs.into_iter()
            .find(|t| t["tabId"] == tab && t["title"] == "Alerting")
    })
    .await
    .expect("the timer's alert opened");
    let r = a.ok("extract", json!({ "tabId": tab })).await;
    assert_eq!(r["dialog"], json!({ "type": "alert", "message": "Timer!" }));
    assert_eq!(r["url"], page.as_str());
    assert!(
        r.get("dialogs").is_none() && r.get("markdown").is_none(),
        "{r}"
    );
    let (code, message) = a
        .err("click", json!({ "tabId": tab, "selector": "#delete-btn" }))
        .await;
    assert_eq!(code, ErrorCode::ElementObstructed);
    assert!(message.contains("alert(\"Timer!\")"), "{message}");
    // evaluate answers it (the default: accepted) and reports it; the page runs on.
    let r = a
        .ok(
            "evaluate",
            json!({ "tabId": tab, "expression": "return document.title" }),
        )
        .await;
    assert_eq!(r["value"], "Dialogs");
    assert_eq!(r["dialogs"][0]["message"], "Timer!");
    let _ = dt.close_target(&target).await;
}

#[tokio::test]
async fn a_click_reports_the_page_it_navigated_to_and_the_tab_it_opened() {
    let a = Agent::new().await;
    let tab = a.open("dialogs.html").await;
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#two" }))
        .await;
    assert_eq!(
        r["navigated"],
        json!({ "url": url("two.html?from=dialogs"), "title": "Page Two" })
    );
    assert_eq!(a.eval(tab, "return location.search").await, "?from=dialogs");
    a.ok("go_back", json!({ "tabId": tab })).await;
    let r = a
        .ok(
            "click",
            json!({ "tabId": tab, "selector": "#blank", "newTab": true }),
        )
        .await;
    let opened = r["openedTab"]["tabId"].as_i64().expect("openedTab");
    assert_eq!(r["openedTab"]["url"], url("two.html?from=blank"));
    assert_eq!(r["tabId"], opened);
    assert!(r.get("navigated").is_none(), "the clicked tab stayed: {r}");
    // A page script's window.open is reported too, and the new tab is the agent's.
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#popup-btn" }))
        .await;
    let popup = r["openedTab"]["tabId"].as_i64().expect("openedTab");
    assert_eq!(r["openedTab"]["url"], url("two.html?from=popup"));
    assert_eq!(r["tabId"], tab);
    let listed = eventually(Duration::from_secs(5), || async {
        let tabs = get_tabs(&a.client).await.ok()?;
        tabs.into_iter()
            .find(|t| t["tabId"] == popup && t["session"] == true)
    })
    .await
    .expect("the popup's session");
    assert_eq!(listed["agentOwned"], true);
    assert_eq!(a.eval(popup, "return location.search").await, "?from=popup");
    for t in [popup, opened, tab] {
        a.close(t).await;
    }
}

#[tokio::test]
async fn a_downloading_click_reports_the_download_and_downloads_waits_for_it() {
    // Chromium saves into the machine's download folder and renames a file whose name is taken there:
    // names unique to this run keep the reported names exact.
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let (export_name, csv_name) = (format!("export-{run}.txt"), format!("report-{run}.csv"));
    let server = FixtureServer::shared();
    let body: String = (0..3000).map(|i| format!("row {i}\n")).collect();
    let csv_body = std::fs::read_to_string(support::fixtures_dir().join("actions/report.csv"))
        .expect("report.csv");
    server.route(
        &format!("/actions/{csv_name}"),
        support::Route::Response {
            status: 200,
            content_type: "text/csv".into(),
            body: csv_body.clone(),
            headers: Vec::new(),
        },
    );
    server.route(
        "/actions/export",
        support::Route::Response {
            status: 200,
            content_type: "text/plain".into(),
            body: body.clone(),
            headers: vec![(
                "Content-Disposition".into(),
                format!("attachment; filename=\"{export_name}\""),
            )],
        },
    );
    let a = Agent::new().await;
    let tab = a.open("dialogs.html").await;
    let started = Instant::now();
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#export" }))
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let export = &r["downloads"][0];
    assert_eq!(export["filename"], export_name.as_str(), "{r}");
    assert!(
        r.get("navigated").is_none(),
        "a download is no navigation: {r}"
    );
    a.eval(
        tab,
        &format!("document.getElementById('csv').href = {csv_name:?}; return 1"),
    )
    .await;
    let r = a
        .ok("click", json!({ "tabId": tab, "selector": "#csv" }))
        .await;
    let csv = &r["downloads"][0];
    assert_eq!(csv["filename"], csv_name.as_str(), "{r}");
    let listed = a
        .ok("downloads", json!({ "tabId": tab, "waitMs": 10000 }))
        .await;
    let listed = listed["downloads"].as_array().cloned().unwrap_or_default();
    assert_eq!(listed.len(), 2, "{listed:?}");
    let find = |id: &Value| {
        listed
            .iter()
            .find(|d| d["id"] == *id)
            .cloned()
            .expect("listed")
    };
    let e = find(&export["id"]);
    assert_eq!(e["state"], "complete", "{e}");
    assert_eq!(e["bytes"], body.len());
    assert_eq!(e["url"], url("export"));
    assert_eq!(e["tabId"], tab);
    let c = find(&csv["id"]);
    assert_eq!(c["state"], "complete", "{c}");
    assert_eq!(c["bytes"], csv_body.len());
    assert_eq!(c["mime"], "text/csv");
    // Another agent does not see them.
    let other = Agent::new().await;
    let theirs = other.ok("downloads", json!({})).await;
    assert_eq!(theirs["downloads"], json!([]));
    a.close(tab).await;
}

// ------------------------------------------------------------------------------------------------
// Volume and concurrency

/// One mixed action of the soak tests: `(method, params)` for step `i` on `tab`.
fn mixed_action(i: usize, tab: i64) -> (&'static str, Value) {
    match i % 10 {
        0 => ("click", json!({ "tabId": tab, "selector": "#name" })),
        1 => (
            "type",
            json!({ "tabId": tab, "selector": "#name", "text": format!("v{i}") }),
        ),
        2 => (
            "evaluate",
            json!({ "tabId": tab, "expression": "return document.getElementById('name').value" }),
        ),
        3 => (
            "select_option",
            json!({ "tabId": tab, "selector": "#color", "index": [i % 2] }),
        ),
        4 => (
            "check",
            json!({ "tabId": tab, "selector": "#agree", "checked": i.is_multiple_of(4) }),
        ),
        5 => (
            "scroll",
            json!({ "tabId": tab, "selector": "#list", "dy": if i % 20 == 5 { 50 } else { -50 } }),
        ),
        6 => ("hover", json!({ "tabId": tab, "text": "Name" })),
        7 => (
            "press_key",
            json!({ "tabId": tab, "key": "ArrowLeft", "selector": "#name" }),
        ),
        8 => (
            "wait_for",
            json!({ "tabId": tab, "selector": "#list", "timeoutMs": 1000 }),
        ),
        _ => ("scrape", json!({ "tabId": tab, "item": "#color option" })),
    }
}

#[tokio::test]
async fn five_hundred_sequential_mixed_actions_on_one_tab_all_succeed() {
    let a = Agent::new().await;
    let tab = a.open("controls.html").await;
    let started = Instant::now();
    let mut per_method: std::collections::BTreeMap<&str, (u32, Duration, Duration)> =
        Default::default();
    for i in 0..500 {
        let (method, params) = mixed_action(i, tab);
        let t = Instant::now();
        let r = a.ok(method, params).await;
        if method == "type" {
            assert_eq!(r["value"], format!("v{i}"));
        }
        let took = t.elapsed();
        let entry = per_method.entry(method).or_default();
        entry.0 += 1;
        entry.1 += took;
        entry.2 = entry.2.max(took);
    }
    let total = started.elapsed();
    let breakdown: Vec<String> = per_method
        .iter()
        .map(|(m, (n, sum, max))| {
            format!(
                "{m} {:.0}/{:.0}",
                sum.as_secs_f64() * 1000.0 / f64::from(*n),
                max.as_secs_f64() * 1000.0
            )
        })
        .collect();
    note(&format!(
        "500 sequential mixed actions: {:.1} s total, {:.1} ms mean; per action mean/max ms: {}",
        total.as_secs_f64(),
        total.as_secs_f64() * 1000.0 / 500.0,
        breakdown.join(", ")
    ));
    a.close(tab).await;
}

#[tokio::test]
async fn four_clients_on_four_agent_tabs_work_concurrently() {
    let started = Instant::now();
    let mut workers = Vec::new();
    for w in 0..4 {
        workers.push(tokio::spawn(async move {
            let a = Agent::new().await;
            let tab = a.open("controls.html").await;
            for i in 0..40 {
                let (method, params) = mixed_action(i + w, tab);
                let r = a.ok(method, params).await;
                if method == "type" {
                    assert_eq!(r["value"], format!("v{}", i + w));
                }
            }
            let closed = a.ok("close_agent_tabs", json!({})).await;
            assert_eq!(
                closed["closed"],
                json!([tab]),
                "each client closes only its own tab"
            );
            tab
        }));
    }
    let mut tabs = Vec::new();
    for w in workers {
        tabs.push(w.await.expect("worker"));
    }
    tabs.sort();
    tabs.dedup();
    assert_eq!(tabs.len(), 4);
    note(&format!(
        "4 clients × 40 mixed actions on 4 agent tabs: {:.1} s",
        started.elapsed().as_secs_f64()
    ));
}

/// A page whose one image never answers (the request is held open): its text is all there after
/// `DOMContentLoaded`, its `load` event never comes.
const STALLED_PAGE: &str = r#"<!doctype html><title>Stalled</title>
<h1>A page that never finishes loading</h1>
<p>Its text is all here; its one image never arrives.</p>
<img src="/never.png" alt="">
<form action="/stalled.html"><input name="q" value="sent"></form>"#;

/// A site of its own for [`STALLED_PAGE`]: each open copy holds one of the browser's six connections to its
/// host until the tab leaves it, which must not starve the shared fixture server.
fn stalled_site() -> &'static FixtureServer {
    static SITE: std::sync::OnceLock<FixtureServer> = std::sync::OnceLock::new();
    SITE.get_or_init(|| {
        let site = FixtureServer::start(support::fixtures_dir());
        site.route(
            "/never.png",
            support::Route::Slow {
                delay: Duration::from_secs(3600),
                body: String::new(),
            },
        );
        site.route("/stalled.html", support::Route::Html(STALLED_PAGE.into()));
        site
    })
}

/// What the page itself says of its load: `document.readyState` and the query of its URL.
async fn load_state(a: &Agent, tab: i64) -> (Value, Value) {
    let v = a
        .eval(tab, "return [document.readyState, location.search]")
        .await;
    (v[0].clone(), v[1].clone())
}

#[tokio::test]
async fn navigate_answers_at_dom_content_loaded_plus_5_s_when_an_image_never_loads() {
    let a = Agent::new().await;
    let opened = a.ok("open_tab", json!({ "url": "about:blank" })).await;
    let tab = opened["tabId"].as_i64().expect("tabId");
    // A page that loads: loaded true.
    let nav = a
        .ok("navigate", json!({ "tabId": tab, "url": url("two.html") }))
        .await;
    assert_eq!(nav["loaded"], true, "{nav}");
    assert_eq!(load_state(&a, tab).await.0, "complete");

    // The stalled page: at DOMContentLoaded plus the default 5 s for load, then loaded false.
    let stalled = stalled_site().url("/stalled.html");
    let started = Instant::now();
    let nav = a
        .ok("navigate", json!({ "tabId": tab, "url": stalled }))
        .await;
    let took = started.elapsed();
    note(&format!(
        "navigate to a page whose image never answers: {} ms",
        took.as_millis()
    ));
    assert!(took < Duration::from_secs(7), "took {took:?}");
    assert!(
        took >= Duration::from_millis(4_900),
        "waited for load: {took:?}"
    );
    assert_eq!(nav["loaded"], false, "{nav}");
    assert_eq!(nav["title"], "Stalled", "{nav}");
    assert_eq!(nav["status"], 200, "{nav}");
    assert_eq!(load_state(&a, tab).await.0, "interactive");
    let page = a.ok("extract", json!({ "tabId": tab })).await;
    let markdown = page["markdown"].as_str().unwrap_or_default();
    assert!(markdown.contains("Its text is all here"), "{markdown}");
    a.close(tab).await;
}

#[tokio::test]
async fn open_tab_reload_and_press_key_wait_load_wait_for_load_at_most_load_wait_ms() {
    let a = Agent::new().await;
    let stalled = stalled_site().url("/stalled.html");
    let within = |took: Duration, what: &str| {
        assert!(took < Duration::from_secs(7), "{what} took {took:?}");
        assert!(
            took >= Duration::from_millis(1_000),
            "{what} waited loadWaitMs: {took:?}"
        );
    };

    let started = Instant::now();
    let opened = a
        .ok("open_tab", json!({ "url": stalled, "loadWaitMs": 1000 }))
        .await;
    within(started.elapsed(), "open_tab");
    assert_eq!(opened["loaded"], false, "{opened}");
    let tab = opened["tabId"].as_i64().expect("tabId");
    assert_eq!(load_state(&a, tab).await.0, "interactive");
    let page = a.ok("extract", json!({ "tabId": tab })).await;
    let markdown = page["markdown"].as_str().unwrap_or_default();
    assert!(markdown.contains("Its text is all here"), "{markdown}");

    let started = Instant::now();
    let reloaded = a
        .ok("reload", json!({ "tabId": tab, "loadWaitMs": 1000 }))
        .await;
    within(started.elapsed(), "reload");
    assert_eq!(reloaded["loaded"], false, "{reloaded}");
    assert_eq!(reloaded["title"], "Stalled", "{reloaded}");

    // Enter in the form submits it to the stalled page again (`?q=sent`).
    let started = Instant::now();
    let pressed = a
        .ok(
            "press_key",
            json!({
                "tabId": tab,
                "key": "Enter",
                "locator": {"selector": "input[name=q]"},
                "waitLoad": true,
                "loadWaitMs": 1000,
            }),
        )
        .await;
    within(started.elapsed(), "press_key");
    assert_eq!(pressed["loaded"], false, "{pressed}");
    assert_eq!(
        load_state(&a, tab).await,
        (json!("interactive"), json!("?q=sent"))
    );
    let page = a.ok("extract", json!({ "tabId": tab })).await;
    assert!(page["markdown"]
        .as_str()
        .unwrap_or_default()
        .contains("Its text is all here"));
    a.close(tab).await;
}
