//! `navigate`, `go_back`, `go_forward`, `reload` and `open_tab`'s load (SPEC §4; `src/actions/navigation.rs`): what
//! they report, unreachable hosts, browser pages, HTTP status, and how long they wait for `load`.

use std::time::{Duration, Instant};

use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use super::{image_bytes, own_result, url, Agent};
use crate::support::{self, eventually, get_tabs, note, FixtureServer};

#[tokio::test]
async fn navigate_go_back_go_forward_reload_wait_for_load_and_report_url_and_title() {
    let (a, tab) = Agent::with_page("index.html").await;
    let nav = a
        .act(tab, "navigate", json!({ "url": url("two.html?x=1") }))
        .await;
    assert_eq!(
        own_result(&nav),
        json!({ "tabId": tab, "url": url("two.html?x=1"), "title": "Page Two", "status": 200, "loaded": true })
    );
    // The new page's view comes with it.
    assert!(
        nav["view"]["markdown"]
            .as_str()
            .unwrap_or_default()
            .contains("query=?x=1"),
        "{nav}"
    );
    assert_eq!(a.text_of(tab, "query").await, "query=?x=1");

    let back = a.act(tab, "go_back", json!({})).await;
    assert_eq!(
        (back["url"].as_str(), back["title"].as_str()),
        (Some(url("index.html").as_str()), Some("Actions Home"))
    );
    assert_eq!(back["loaded"], true, "{back}");
    let forward = a.act(tab, "go_forward", json!({})).await;
    assert_eq!(forward["title"], "Page Two");
    assert_eq!(forward["loaded"], true, "{forward}");
    a.eval(tab, "window.marker = 42; return 1").await;
    let reloaded = a.act(tab, "reload", json!({})).await;
    assert_eq!(reloaded["url"], url("two.html?x=1"));
    assert_eq!(reloaded["loaded"], true, "{reloaded}");
    assert_eq!(
        a.eval(tab, "return typeof window.marker").await,
        "undefined"
    );

    // Main errors: a URL the browser refuses (port 1 is on its unsafe-port list), no history in that
    // direction, a tab that does not exist. (Unreachable hosts: the next test.)
    let (code, message) = a
        .act_err(tab, "navigate", json!({ "url": "http://127.0.0.1:1/" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("net::ERR_UNSAFE_PORT"), "{message}");
    assert!(message.contains("Fix the URL"), "{message}");
    let (code, message) = a.act_err(tab, "go_forward", json!({})).await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("no next page"), "{message}");
    let (code, _) = a.act_err(987_654_321, "reload", json!({})).await;
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
    let (a, tab) = Agent::with_page("index.html").await;
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
        let (code, message) = a.act_err(tab, "navigate", json!({ "url": target })).await;
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
        let page = a.act(tab, "extract", json!({})).await;
        assert!(
            page["text"].as_str().is_some_and(|t| !t.is_empty()),
            "{page}"
        );
        let shot = a.act(tab, "screenshot", json!({})).await;
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
        .act(tab, "navigate", json!({ "url": url("two.html") }))
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
    let (code, message) = a.act_err(fresh, "go_back", json!({})).await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("no previous page"), "{message}");
    a.close(fresh).await;
}

#[tokio::test]
async fn browser_pages_and_data_urls_are_handled_before_they_can_hurt() {
    let (a, tab) = Agent::with_page("index.html").await;
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
        .act_err(tab, "navigate", json!({ "url": "data:text/html,<p>x</p>" }))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(message.contains("open_tab"), "{message}");
    a.close(data_tab).await;
    a.close(tab).await;
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
    let (a, tab) = Agent::with_page("index.html").await;
    let target = silent_server_url();
    let (code, message) = a.act_err(tab, "navigate", json!({ "url": target })).await;
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
        .act(tab, "navigate", json!({ "url": url("two.html") }))
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
        .act(tab, "navigate", json!({ "url": url("two.html") }))
        .await;
    assert_eq!(
        (nav["status"].clone(), nav["title"].clone()),
        (json!(200), json!("Page Two"))
    );
    let nav = a.act(tab, "navigate", json!({ "url": missing })).await;
    assert_eq!(nav["status"], 404, "{nav}");
    let nav = a
        .act(tab, "navigate", json!({ "url": "about:blank" }))
        .await;
    assert!(
        nav.get("status").is_none(),
        "no HTTP response, no status: {nav}"
    );
    a.close(tab).await;
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
    // A page that loads: loaded true.
    let (tab, nav) = a.open_navigated("two.html").await;
    assert_eq!(nav["loaded"], true, "{nav}");
    assert_eq!(load_state(&a, tab).await.0, "complete");

    // The stalled page: at DOMContentLoaded plus the default 5 s for load, then loaded false.
    let stalled = stalled_site().url("/stalled.html");
    let started = Instant::now();
    let nav = a.act(tab, "navigate", json!({ "url": stalled })).await;
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
    let page = a.act(tab, "extract", json!({})).await;
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
    let page = a.act(tab, "extract", json!({})).await;
    let markdown = page["markdown"].as_str().unwrap_or_default();
    assert!(markdown.contains("Its text is all here"), "{markdown}");

    let started = Instant::now();
    let reloaded = a.act(tab, "reload", json!({ "loadWaitMs": 1000 })).await;
    within(started.elapsed(), "reload");
    assert_eq!(reloaded["loaded"], false, "{reloaded}");
    assert_eq!(reloaded["title"], "Stalled", "{reloaded}");

    // Enter in the form submits it to the stalled page again (`?q=sent`).
    let started = Instant::now();
    let pressed = a
        .act(
            tab,
            "press_key",
            json!({ "key": "Enter",
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
    let page = a.act(tab, "extract", json!({})).await;
    assert!(page["markdown"]
        .as_str()
        .unwrap_or_default()
        .contains("Its text is all here"));
    a.close(tab).await;
}
