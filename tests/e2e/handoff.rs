//! End-to-end tests of `handoff` (SPEC §4): the agent hands a tab to the person and gets it back by itself.
//!
//! Real headless Chromium with the built extension and the real `bua-bridge launch`; the fixture pages are
//! `tests/fixtures/handoff/` on `<name>.localhost`. The person is played through a DevTools session of its
//! own on the page (not the extension's debugger), and the popup is `popup/popup.html` opened as a tab. The
//! tests share one browser; Stop all, which ends every session of a browser, has a browser of its own.

use crate::support;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bua_bridge::devtools::DevTools;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};
use support::{
    agent_tab, assert_handoff_ended, enter_area, eventually, failure, history,
    open_page_in_own_window, worker_ui, Browser, BrowserOptions, Events, FixtureServer, LIMIT,
};

/// The tests on the shared browser run one at a time: each handoff focuses a window, and a test asserts
/// which window has the focus.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// `http://<host>.localhost:<port>/handoff/<page>`.
fn fixture(host: &str, page: &str) -> String {
    format!(
        "http://{host}.localhost:{}/handoff/{page}",
        FixtureServer::shared().port()
    )
}

/// `[state, focused]` of the tab's window, read with `chrome.windows.get` in the worker.
async fn window_of(browser: &Browser, dt: &DevTools, tab_id: i64) -> (String, bool) {
    let v = browser
        .eval_in_worker(
            dt,
            &format!(
                "chrome.tabs.get({tab_id}).then(t => chrome.windows.get(t.windowId)).then(w => [w.state, w.focused])"
            ),
        )
        .await;
    (
        v[0].as_str().unwrap_or_default().to_owned(),
        v[1].as_bool().unwrap_or(false),
    )
}

/// A DevTools session on the page target whose URL starts with `url`: the person's own hands.
async fn person(dt: &DevTools, url: &str) -> String {
    let prefix = url.to_owned();
    let target = dt
        .wait_for_target("page", move |u| u.starts_with(&prefix), LIMIT)
        .await
        .unwrap_or_else(|e| panic!("no page {url}: {e}"));
    dt.attach(&target.id).await.expect("attach to the page")
}

async fn eval(dt: &DevTools, session: &str, js: &str) -> Value {
    dt.evaluate(session, js)
        .await
        .unwrap_or_else(|e| panic!("evaluate `{js}`: {e}"))
}

/// The popup, opened as a tab, once its Rust has rendered; returns its DevTools session.
async fn popup(browser: &Browser, dt: &DevTools) -> String {
    let url = format!(
        "chrome-extension://{}/popup/popup.html",
        browser.extension_id
    );
    let target = open_page_in_own_window(dt, &url).await;
    let session = dt.attach(&target).await.expect("attach to the popup");
    until(dt, &session, "!!document.getElementById('app') && !document.getElementById('app').hasAttribute('aria-busy')").await;
    session
}

/// Polls `js` in `session` until it is `true` or [`LIMIT`] passes (panics).
async fn until(dt: &DevTools, session: &str, js: &str) {
    let held = eventually(LIMIT, || async {
        (dt.evaluate(session, js).await.ok()? == json!(true)).then_some(())
    })
    .await;
    assert!(held.is_some(), "`{js}` never held");
}

/// The popup's request text for `tab_id` ("" when none is shown).
fn request_js(tab_id: i64) -> String {
    format!(
        "(document.querySelector('#handoff-list li[data-tab=\"{tab_id}\"] .h-text') || {{textContent: ''}}).textContent"
    )
}

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

async fn sign_in(dt: &DevTools, session: &str) {
    eval(
        dt,
        session,
        "document.getElementById('email').value = 'ada@example.com'; \
         document.getElementById('password').value = 'correct horse'; \
         document.getElementById('signin').requestSubmit(); true",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sign_in_handoff_shows_the_tab_and_returns_when_the_account_page_loads() {
    let (_serial, ref browser, dt, client) = enter_area("handoff", SERIAL.lock().await).await;
    let mut events = Events::subscribe(&client).await;
    let login = fixture("signin", "login.html");
    let tab = agent_tab(&client, &login).await;
    assert_eq!(window_of(browser, &dt, tab).await.0, "minimized");
    let popup = popup(browser, &dt).await;

    let handoff = client.call("handoff", json!({"tabId": tab, "reason": "sign in"}));
    let the_person = async {
        let shown = eventually(LIMIT, || async {
            let w = window_of(browser, &dt, tab).await;
            (w == ("normal".to_owned(), true)).then_some(w)
        })
        .await;
        assert!(
            shown.is_some(),
            "the agent window is restored and focused: {:?}",
            window_of(browser, &dt, tab).await
        );
        until(
            &dt,
            &popup,
            &format!(
                "{} === 'The agent needs you on signin.localhost: sign in'",
                request_js(tab)
            ),
        )
        .await;
        let page = person(&dt, &login).await;
        sign_in(&dt, &page).await;
    };
    let (result, ()) = tokio::join!(handoff, the_person);
    let returned_at = now_ms();
    let result = result.expect("handoff");
    assert_handoff_ended(&result, true, "page", "Your account · Example Shop");
    assert!(
        result["url"]
            .as_str()
            .unwrap_or_default()
            .contains("/handoff/account.html?email="),
        "{result}"
    );
    assert!(result.get("obstacle").is_none(), "{result}");
    let account = person(&dt, &fixture("signin", "account.html")).await;
    let loaded = eval(&dt, &account, "performance.timing.loadEventEnd")
        .await
        .as_f64()
        .unwrap_or(0.0);
    support::note(&format!(
        "handoff returned {:.0} ms after the account page's load event",
        returned_at - loaded
    ));
    assert!(
        loaded > 0.0 && returned_at - loaded < 1000.0,
        "handoff returned {} ms after the account page loaded",
        returned_at - loaded
    );
    assert_eq!(
        window_of(browser, &dt, tab).await.0,
        "minimized",
        "the agent window is minimized again"
    );
    until(&dt, &popup, "document.getElementById('handoffs').hidden && document.querySelectorAll('#handoff-list li').length === 0").await;

    // Audited: the events reach the bridge (and its log), the history has a HANDOFF row.
    let started = events
        .wait(LIMIT, |e| {
            e["type"] == "handoff_started" && e["tabId"] == tab
        })
        .await;
    assert_eq!(
        (started["reason"].as_str(), started["domain"].as_str()),
        (Some("sign in"), Some("signin.localhost"))
    );
    let ended = events
        .wait(LIMIT, |e| e["type"] == "handoff_ended" && e["tabId"] == tab)
        .await;
    assert_eq!(ended["outcome"], "page", "{ended}");
    let logged = eventually(LIMIT, || async {
        let log = browser.logs();
        (log.contains("handoff_started") && log.contains("handoff_ended")).then_some(())
    })
    .await;
    assert!(logged.is_some(), "the bridge logs both events");
    let row = eventually(LIMIT, || async {
        history(browser, &dt)
            .await
            .into_iter()
            .find(|e| e["event"] == "handoff" && e["tabId"] == tab)
    })
    .await
    .expect("a HANDOFF row");
    assert_eq!(
        (row["outcome"].as_str(), row["request"].as_str()),
        (Some("page"), Some("sign in")),
        "{row}"
    );
    assert!(row["durationMs"].as_f64().is_some_and(|d| d > 0.0), "{row}");

    // The options page's audit log shows it.
    let options = open_page_in_own_window(
        &dt,
        &format!(
            "chrome-extension://{}/options/options.html",
            browser.extension_id
        ),
    )
    .await;
    let options = dt.attach(&options).await.expect("attach options");
    until(
        &dt,
        &options,
        "[...document.querySelectorAll('#log-body tr')].some(r => r.querySelector('.event.handoff')?.textContent === 'HANDOFF' \
         && r.querySelector('.detail').textContent.startsWith('\u{201c}sign in\u{201d} · page cleared'))",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_that_gives_way_to_the_site_ends_the_handoff_by_page() {
    let (_serial, ref browser, dt, client) = enter_area("handoff", SERIAL.lock().await).await;
    let url = fixture("challenge", "challenge.html");
    let tab = agent_tab(&client, &url).await;
    let handoff = client.call(
        "handoff",
        json!({"tabId": tab, "reason": "solve the check"}),
    );
    let the_person = async {
        let page = person(&dt, &url).await;
        // The click comes once the handoff watches (its notification is up and the tab listed).
        let listed = eventually(LIMIT, || async {
            let v = browser.storage_get(&dt, "pendingHandoffs").await;
            v.as_array()
                .is_some_and(|a| a.iter().any(|h| h["tabId"] == tab))
                .then_some(())
        })
        .await;
        assert!(listed.is_some(), "the handoff is listed for the popup");
        let started = Instant::now();
        eval(
            &dt,
            &page,
            "document.getElementById('verify').click(); true",
        )
        .await;
        started
    };
    let (result, clicked) = tokio::join!(handoff, the_person);
    let result = result.expect("handoff");
    assert_handoff_ended(&result, true, "page", "Teapots · Example Shop");
    assert!(
        clicked.elapsed() < Duration::from_secs(2),
        "{:?} after the click",
        clicked.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn done_cancel_and_the_wait_running_out_end_a_handoff_without_an_obstacle() {
    let (_serial, ref browser, dt, client) = enter_area("handoff", SERIAL.lock().await).await;
    let tab = agent_tab(&client, &fixture("plain", "account.html")).await;
    let popup = popup(browser, &dt).await;
    for (button, by, resolved) in [("Done", "user", true), ("Cancel", "cancelled", false)] {
        let handoff = client.call(
            "handoff",
            json!({"tabId": tab, "reason": "confirm the payment"}),
        );
        let press = async {
            until(
                &dt,
                &popup,
                &format!(
                    "{} === 'The agent needs you on plain.localhost: confirm the payment'",
                    request_js(tab)
                ),
            )
            .await;
            eval(
                &dt,
                &popup,
                &format!("[...document.querySelectorAll('#handoff-list li[data-tab=\"{tab}\"] button')].find(b => b.textContent === '{button}').click(); true"),
            )
            .await;
        };
        let (result, ()) = tokio::join!(handoff, press);
        let result = result.expect("handoff");
        assert_handoff_ended(&result, resolved, by, "Your account · Example Shop");
    }
    // A page without an obstacle is not watched: nothing ends it but the person or the wait.
    let started = Instant::now();
    failure(
        client
            .call(
                "handoff",
                json!({"tabId": tab, "reason": "sign in", "waitMs": 800}),
            )
            .await,
        ErrorCode::Timeout,
    );
    assert!(
        started.elapsed() >= Duration::from_millis(800),
        "{:?}",
        started.elapsed()
    );
    let outcomes = eventually(LIMIT, || async {
        let rows: Vec<String> = history(browser, &dt)
            .await
            .into_iter()
            .filter(|e| e["event"] == "handoff" && e["tabId"] == tab)
            .filter_map(|e| e["outcome"].as_str().map(str::to_owned))
            .collect();
        (rows.len() == 3).then_some(rows)
    })
    .await;
    assert_eq!(
        outcomes,
        Some(vec![
            "timeout".to_owned(),
            "cancelled".to_owned(),
            "user".to_owned()
        ])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_handoffs_on_two_tabs_are_both_shown_and_both_resolve() {
    let (_serial, ref browser, dt, client) = enter_area("handoff", SERIAL.lock().await).await;
    let (a_url, b_url) = (
        fixture("first", "login.html"),
        fixture("second", "login.html"),
    );
    let a = agent_tab(&client, &a_url).await;
    let b = agent_tab(&client, &b_url).await;
    let popup = popup(browser, &dt).await;
    let first = client.call("handoff", json!({"tabId": a, "reason": "sign in"}));
    let second = client.call("handoff", json!({"tabId": b, "reason": "sign in again"}));
    let the_person = async {
        until(
            &dt,
            &popup,
            &format!("{} !== '' && {} !== ''", request_js(a), request_js(b)),
        )
        .await;
        for url in [&a_url, &b_url] {
            let page = person(&dt, url).await;
            sign_in(&dt, &page).await;
        }
    };
    let (first, second, ()) = tokio::join!(first, second, the_person);
    for result in [
        first.expect("first handoff"),
        second.expect("second handoff"),
    ] {
        assert_handoff_ended(&result, true, "page", "Your account · Example Shop");
    }
    assert_eq!(window_of(browser, &dt, a).await.0, "minimized");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_all_during_a_handoff_ends_it_with_the_sessions_error() {
    let browser = Browser::launch(BrowserOptions::default());
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    let tab = agent_tab(&client, &fixture("stopped", "login.html")).await;
    let handoff = client.call("handoff", json!({"tabId": tab, "reason": "sign in"}));
    let stop = async {
        let listed = eventually(LIMIT, || async {
            let v = browser.storage_get(&dt, "pendingHandoffs").await;
            v.as_array().is_some_and(|a| !a.is_empty()).then_some(())
        })
        .await;
        assert!(listed.is_some(), "the handoff is listed");
        worker_ui(&browser, &dt, json!({"cmd": "stop_all"})).await
    };
    let (result, stopped) = tokio::join!(handoff, stop);
    assert_eq!(stopped["stopped"], 1, "{stopped}");
    let err = result.expect_err("Stop all ends the handoff");
    assert!(
        matches!(
            err.code(),
            ErrorCode::SessionNotFound | ErrorCode::TabNotFound
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("global_stop") || err.to_string().contains("Stop all"),
        "{err}"
    );
    let ended = events
        .wait(LIMIT, |e| e["type"] == "handoff_ended" && e["tabId"] == tab)
        .await;
    assert_eq!(ended["outcome"], "session_ended", "{ended}");
    let pending = browser.storage_get(&dt, "pendingHandoffs").await;
    assert_eq!(pending, json!([]), "the popup no longer lists it");
}
