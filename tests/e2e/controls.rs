//! End-to-end tests of the unattended-run controls (SPEC §10): the allowlist set in the options page refuses
//! every other site before its first request — direct, through a redirect, `window.open` and a form post — and
//! `evaluate` / `upload` switched off there are `not_allowed`; both hold after the service worker restarts.
//! Settings are written through the options page's command (`set_settings`), as its controls do.

use crate::support;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use bua_bridge::BridgeClient;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};
use support::{
    eventually, fixtures_dir, get_tabs, open_user_tab, worker_ui, Browser, BrowserOptions,
    FixtureServer, Route, SharedBrowser, OFFLINE_RESOLVER_RULES,
};

/// The refused site, resolved to 127.0.0.1 by the browser's host-resolver rules.
const REFUSED_HOST: &str = "refused.test";

/// The folder the bridge may read uploads from, with `note.txt` in it.
fn files_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("bua-controls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("files dir");
        std::fs::write(dir.join("note.txt"), b"hello upload").expect("note.txt");
        dir
    })
}

fn browser() -> SharedBrowser {
    Browser::shared_with(
        "controls",
        BrowserOptions {
            extra_args: vec![
                "--files-dir".into(),
                files_dir().display().to_string(),
                format!(
                    "--chrome-arg=--host-resolver-rules=MAP {REFUSED_HOST} 127.0.0.1, {OFFLINE_RESOLVER_RULES}"
                ),
            ],
        },
    )
}

/// One test at a time: the settings are the browser's.
async fn serial() -> tokio::sync::MutexGuard<'static, ()> {
    static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    SERIAL.lock().await
}

/// The options page's `set_settings`; returns the settings it answers with.
async fn set(browser: &Browser, dt: &bua_bridge::devtools::DevTools, patch: Value) -> Value {
    let mut command = json!({"cmd": "set_settings"});
    for (k, v) in patch.as_object().cloned().unwrap_or_default() {
        command[k] = v;
    }
    let settings = worker_ui(browser, dt, command).await;
    assert!(settings.get("error").is_none(), "{settings}");
    settings
}

/// Stops the service worker, wakes it with a person's tab on `wake`, and waits until `client` reaches the
/// extension again.
async fn restart_worker(
    browser: &Browser,
    dt: &bua_bridge::devtools::DevTools,
    client: &BridgeClient,
    wake: &str,
) {
    browser.stop_service_worker(dt, client).await;
    open_user_tab(dt, client, wake).await;
    let back = eventually(Duration::from_secs(15), || async {
        get_tabs(client).await.ok()
    })
    .await;
    assert!(
        back.is_some(),
        "no extension after the restart\n{}",
        browser.logs()
    );
}

fn refused_by_allowlist(result: Result<Value, bua_bridge::Error>, what: &str) {
    match result {
        Err(e) => {
            assert_eq!(e.code(), ErrorCode::DomainBlocked, "{what}: {e}");
            assert!(
                e.to_string().contains("not on the allowlist"),
                "{what}: {e}"
            );
        }
        Ok(v) => panic!("{what} was not refused: {v}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_allowlist_refuses_other_sites_before_their_first_request_even_after_a_worker_restart()
{
    let _serial = serial().await;
    let browser = &browser();
    let dt = browser.devtools().await;
    let refused = FixtureServer::start(fixtures_dir());
    let refused_base = format!("http://{REFUSED_HOST}:{}", refused.port());
    let site = FixtureServer::shared();
    site.route(
        "/controls/opener.html",
        Route::Html(format!(
            r#"<!doctype html><title>opener</title>
<form id="f" method="post" action="{refused_base}/posted"><input name="q" value="1"></form>
<button id="go" onclick="window.open('{refused_base}/popup'); document.getElementById('f').submit()">Go</button>"#
        )),
    );
    site.route(
        "/controls/redirect",
        Route::Redirect {
            status: 302,
            location: format!("{refused_base}/redirected"),
        },
    );
    let settings = set(browser, &dt, json!({"allowlist": [" 127.0.0.1 "]})).await;
    assert_eq!(settings["allowlist"], json!(["127.0.0.1"]), "{settings}");
    let client = BridgeClient::connect_as(browser.port, &browser.token, Some("allowlist-agent"))
        .await
        .expect("client");

    // An allowed site opens; another is refused by the action-level check.
    let opened = client
        .call(
            "open_tab",
            json!({"url": site.url("/controls/opener.html")}),
        )
        .await
        .expect("open_tab on the allowed site");
    let tab_id = opened["tabId"].as_i64().expect("tabId");
    refused_by_allowlist(
        client
            .call("open_tab", json!({"url": format!("{refused_base}/direct")}))
            .await,
        "open_tab",
    );
    // The browser-level rules cover the agent tab and what its page opens.
    let covered = eventually(Duration::from_secs(5), || async {
        let rules = browser
            .eval_in_worker(&dt, "chrome.declarativeNetRequest.getSessionRules()")
            .await;
        rules
            .as_array()
            .is_some_and(|r| {
                r.iter().any(|rule| {
                    rule["condition"]["excludedRequestDomains"] == json!(["127.0.0.1"])
                        && rule["condition"]["tabIds"]
                            .as_array()
                            .is_some_and(|t| t.contains(&json!(tab_id)))
                })
            })
            .then_some(())
    })
    .await;
    assert!(covered.is_some(), "no allowlist rule covers tab {tab_id}");

    // A real click: window.open and a form post to the refused site.
    let mut events = support::Events::subscribe(&client).await;
    let _ = client
        .call("click", json!({"selector": "#go", "tabId": tab_id}))
        .await;
    let popup = format!("{refused_base}/popup");
    let posted = format!("{refused_base}/posted");
    let deadline = Instant::now() + Duration::from_secs(10);
    let happened = loop {
        let tabs = get_tabs(&client).await.unwrap_or_default();
        events.pull();
        // The popup is the agent's tab: its session may already have ended on the refused site and closed it.
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

    // A redirect from the allowed site to the refused one, in a fresh agent tab.
    let tab2 = client
        .call(
            "open_tab",
            json!({"url": site.url("/controls/opener.html")}),
        )
        .await
        .expect("open_tab")["tabId"]
        .as_i64()
        .expect("tabId");
    let redirected = client
        .call(
            "navigate",
            json!({"url": site.url("/controls/redirect"), "tabId": tab2}),
        )
        .await;
    assert!(
        redirected.is_err(),
        "the redirect was followed: {redirected:?}"
    );

    // After the service worker restarts, the allowlist still holds.
    restart_worker(
        browser,
        &dt,
        &client,
        &site.url("/controls/opener.html?waker"),
    )
    .await;
    let settings = worker_ui(browser, &dt, json!({"cmd": "get_settings"})).await;
    assert_eq!(settings["allowlist"], json!(["127.0.0.1"]), "{settings}");
    refused_by_allowlist(
        client
            .call("open_tab", json!({"url": format!("{refused_base}/after")}))
            .await,
        "open_tab after the restart",
    );

    assert_eq!(
        refused.hits(),
        Vec::<String>::new(),
        "the refused site received requests"
    );
    set(browser, &dt, json!({"allowlist": []})).await;
    let _ = client.call("close_agent_tabs", json!({})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evaluate_and_upload_switched_off_in_the_options_are_not_allowed_even_after_a_worker_restart(
) {
    let _serial = serial().await;
    let browser = &browser();
    let dt = browser.devtools().await;
    let page = FixtureServer::shared().url("/observe/upload.html");
    let settings = set(browser, &dt, json!({"noEvaluate": true, "noUpload": true})).await;
    assert_eq!(
        (&settings["noEvaluate"], &settings["noUpload"]),
        (&json!(true), &json!(true))
    );
    let client = BridgeClient::connect_as(browser.port, &browser.token, Some("switches-agent"))
        .await
        .expect("client");
    let tab = client
        .call("open_tab", json!({"url": page}))
        .await
        .expect("open_tab")["tabId"]
        .as_i64()
        .expect("tabId");
    let note = files_dir().join("note.txt").display().to_string();
    let refused = |r: Result<Value, bua_bridge::Error>, what: &str| match r {
        Err(e) => {
            assert_eq!(e.code(), ErrorCode::NotAllowed, "{what}: {e}");
            assert!(
                e.to_string()
                    .contains(&format!("{what} is turned off: the person switched it off")),
                "{e}"
            );
        }
        Ok(v) => panic!("{what} ran: {v}"),
    };
    let evaluate = json!({"tabId": tab, "expression": "document.title = 'ran'; return 1"});
    let upload = json!({"tabId": tab, "selector": "#single", "files": [note]});
    refused(client.call("evaluate", evaluate.clone()).await, "evaluate");
    refused(client.call("upload", upload.clone()).await, "upload");

    restart_worker(browser, &dt, &client, &format!("{page}?waker")).await;
    refused(client.call("evaluate", evaluate.clone()).await, "evaluate");
    refused(client.call("upload", upload).await, "upload");

    // Switched on again: nothing had run in the page (its title and file input are untouched).
    set(
        browser,
        &dt,
        json!({"noEvaluate": false, "noUpload": false}),
    )
    .await;
    let seen = client
        .call(
            "evaluate",
            json!({"tabId": tab, "expression": "return document.title + ' ' + document.getElementById('single').files.length"}),
        )
        .await
        .expect("evaluate on again");
    assert_ne!(seen["value"], json!("ran 0"), "{seen}");
    assert!(
        seen["value"]
            .as_str()
            .is_some_and(|v| v.ends_with(" 0") && !v.starts_with("ran")),
        "{seen}"
    );
    let _ = client.call("close_agent_tabs", json!({})).await;
}
