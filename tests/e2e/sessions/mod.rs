//! End-to-end tests of the session model (SPEC §6, §8) in real headless Chromium
//! with the built extension and the real `bua-bridge launch`, driven through the bridge's client API.
//!
//! One browser is shared by the whole area (this module and its submodules: the agent window, the blocklist,
//! the audit log, the worker restart). Tests that only touch their own tabs run concurrently, each on
//! its own host name (`<name>.localhost`, which Chromium resolves to loopback, so every test gets its own
//! domain on the one fixture server). Tests that act on every session (Stop all, idle, omitted `tabId`, the
//! worker restart, the audit-log ring) or read browser-wide state (the focused window, the active tab of the
//! user's window) take [`GATE`] exclusively.

mod blocklist;
mod history;
mod windows;
mod worker_restart;

use crate::support;

use std::time::{Duration, Instant};

use tokio::sync::{RwLockReadGuard, RwLockWriteGuard};

use bua_bridge::devtools::DevTools;
use bua_bridge::BridgeClient;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};
use support::{
    agent_tab, assert_handoff_ended, ended, enter_area, evaluate, event_is, eventually, failure,
    get_tabs, history, note, open_user_tab, session_of, sessions, tab_info, worker_ui, Events,
    FixtureServer, Route, SharedBrowser, LIMIT,
};

/// Shared for tests that touch only their own tabs, exclusive for tests that act on every session.
static GATE: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// The area's browser, [`GATE`] shared: for tests that touch only their own tabs.
async fn shared() -> (
    RwLockReadGuard<'static, ()>,
    SharedBrowser,
    DevTools,
    BridgeClient,
) {
    enter_area("sessions", GATE.read().await).await
}

/// The area's browser, [`GATE`] exclusive: for tests that act on every session or read browser-wide state.
async fn exclusive() -> (
    RwLockWriteGuard<'static, ()>,
    SharedBrowser,
    DevTools,
    BridgeClient,
) {
    enter_area("sessions", GATE.write().await).await
}

/// `add_blocked` / `remove_blocked` (`cmd`) of `domain` through the worker's UI commands; the answer.
async fn blocklist_cmd(
    browser: &support::Browser,
    dt: &DevTools,
    cmd: &str,
    domain: &str,
) -> Value {
    worker_ui(browser, dt, json!({ "cmd": cmd, "domain": domain })).await
}

/// `http://<host>.localhost:<port>/sessions/page.html?<tag>`.
fn page_url(host: &str, tag: &str) -> String {
    format!(
        "http://{host}.localhost:{}/sessions/page.html?{tag}",
        FixtureServer::shared().port()
    )
}

/// One page action on `tab_id` through the whole pipeline: `evaluate` returning the title.
async fn act(client: &BridgeClient, tab_id: i64) -> Result<Value, bua_bridge::Error> {
    evaluate(client, tab_id, "return document.title").await
}

// ---------------------------------------------------------------------------------------------
// Sessions and their end reasons

#[tokio::test]
async fn the_first_action_on_a_tab_starts_one_session_with_one_session_started_event() {
    let (_shared, ref browser, dt, client) = shared().await;
    let mut events = Events::subscribe(&client).await;
    let url = page_url("first", "one");
    let (target, tab) = open_user_tab(&dt, &client, &url).await;
    assert_eq!(tab_info(&client, tab).await.expect("tab")["session"], false);

    let title = act(&client, tab).await.expect("first action");
    assert_eq!(
        title,
        json!({"type": "string", "value": "BUA sessions fixture"})
    );
    let started = events
        .wait(LIMIT, |e| event_is(e, "session_started", tab))
        .await;
    assert_eq!(started["domain"], "first.localhost", "{started}");
    assert_eq!(started["owner"], "user", "{started}");
    assert!(
        started["startedAt"].as_f64().is_some_and(|t| t > 1.6e12),
        "{started}"
    );

    act(&client, tab).await.expect("second action");
    act(&client, tab).await.expect("third action");
    events
        .assert_count(
            Duration::from_millis(500),
            1,
            "one session_started for three actions",
            |e| event_is(e, "session_started", tab),
        )
        .await;

    let info = tab_info(&client, tab).await.expect("tab");
    assert_eq!(
        (info["session"].clone(), info["agentOwned"].clone()),
        (json!(true), json!(false))
    );
    let session = session_of(browser, &dt, tab).await.expect("session listed");
    assert_eq!(session["actionCount"], 3, "{session}");
    assert_eq!(session["domain"], "first.localhost", "{session}");
    assert_eq!(
        session["startedAt"].as_f64(),
        started["startedAt"].as_f64(),
        "{session}"
    );
    dt.close_target(&target).await.expect("close");
}

#[tokio::test]
async fn closing_a_tab_ends_its_session_as_tab_closed() {
    let (_shared, ref browser, dt, client) = shared().await;
    let mut events = Events::subscribe(&client).await;
    let (target, tab) = open_user_tab(&dt, &client, &page_url("closing", "x")).await;
    act(&client, tab).await.expect("action");
    act(&client, tab).await.expect("action");
    dt.close_target(&target)
        .await
        .expect("the user closes the tab");
    events.wait(LIMIT, |e| event_is(e, "tab_closed", tab)).await;
    let end = events.wait(LIMIT, |e| ended(e, tab, "tab_closed")).await;
    assert_eq!(end["actionCount"], 2, "{end}");
    assert_eq!(end["domain"], "closing.localhost", "{end}");
    let (started, ended_at) = (
        end["startedAt"].as_f64().unwrap_or(0.0),
        end["endedAt"].as_f64().unwrap_or(0.0),
    );
    assert!(ended_at >= started && started > 0.0, "{end}");
    assert!(session_of(browser, &dt, tab).await.is_none());
    failure(act(&client, tab).await, ErrorCode::TabNotFound);
}

#[tokio::test]
async fn a_detach_from_outside_ends_the_session_as_user_stopped_and_the_next_action_reattaches() {
    let (_shared, ref browser, dt, client) = shared().await;
    let mut events = Events::subscribe(&client).await;
    let (target, tab) = open_user_tab(&dt, &client, &page_url("detach", "x")).await;
    act(&client, tab).await.expect("action");
    events
        .wait(LIMIT, |e| event_is(e, "session_started", tab))
        .await;

    // Chrome really detaches, then reports it the way the infobar's Cancel does (debugger.onDetach).
    browser
        .eval_in_worker(
            &dt,
            &format!(
                "chrome.debugger.detach({{tabId: {tab}}}).then(() => buaReady).then(() => bua.on_debugger_detach({{tabId: {tab}}}, 'canceled_by_user'))"
            ),
        )
        .await;
    let end = events.wait(LIMIT, |e| ended(e, tab, "user_stopped")).await;
    assert_eq!(end["actionCount"], 1, "{end}");
    assert_eq!(
        tab_info(&client, tab).await.expect("the user's tab stays")["session"],
        false
    );

    // The v3 hang bug: the next action must re-attach (not trust a stale "attached" flag) and work.
    let started = Instant::now();
    let title = client
        .call_timeout(
            "evaluate",
            json!({"tabId": tab, "expression": "return document.title"}),
            Duration::from_secs(5),
        )
        .await
        .expect("the next action re-attaches and works");
    assert_eq!(title["value"], "BUA sessions fixture");
    note(&format!(
        "action after an outside detach answered in {} ms",
        started.elapsed().as_millis()
    ));
    events
        .assert_count(
            Duration::from_millis(300),
            2,
            "a new session after user_stopped",
            |e| event_is(e, "session_started", tab),
        )
        .await;

    // The popup's per-session Stop goes through the same path.
    let stopped = worker_ui(browser, &dt, json!({"cmd": "stop_session", "tabId": tab})).await;
    assert_eq!(stopped, json!({"stopped": true}));
    events
        .assert_count(
            Duration::from_millis(300),
            2,
            "user_stopped by the detach, then by Stop",
            |e| ended(e, tab, "user_stopped"),
        )
        .await;
    assert_eq!(
        act(&client, tab).await.expect("works again")["value"],
        "BUA sessions fixture"
    );
    dt.close_target(&target).await.expect("close");
}

#[tokio::test]
async fn stop_all_ends_every_session_as_global_stop_and_the_bridge_sees_global_stop_first() {
    let (_exclusive, ref browser, dt, client) = exclusive().await;
    let mut events = Events::subscribe(&client).await;
    let (t1, a) = open_user_tab(&dt, &client, &page_url("stopall-a", "x")).await;
    let (t2, b) = open_user_tab(&dt, &client, &page_url("stopall-b", "x")).await;
    let agent = open_agent_tab(&client, "stopall-agent", "x").await;
    act(&client, a).await.expect("action");
    act(&client, b).await.expect("action");
    let count = sessions(browser, &dt).await.len();
    assert!(count >= 3, "three sessions at least, got {count}");

    // The popup's Show restores and focuses the agent window (only when the user asks).
    let window = tab_info(&client, agent).await.expect("agent tab")["windowId"].clone();
    let shown = worker_ui(
        browser,
        &dt,
        json!({"cmd": "show_agent_window", "owner": client.client_id()}),
    )
    .await;
    assert_eq!(shown, json!({"shown": [window]}));
    let state = browser
        .eval_in_worker(
            &dt,
            &format!("chrome.windows.get({window}).then(w => w.state)"),
        )
        .await;
    assert_eq!(state, "normal", "shown");
    let listed = worker_ui(browser, &dt, json!({"cmd": "list_sessions"})).await;
    assert_eq!(
        listed["agentWindows"][client.client_id()],
        window,
        "{listed}"
    );

    let answer = worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    assert_eq!(answer, json!({"stopped": count}));
    let global = events.wait(LIMIT, |e| e["type"] == "global_stop").await;
    assert_eq!(global["sessionCount"], count, "{global}");
    for tab in [a, b, agent] {
        events.wait(LIMIT, |e| ended(e, tab, "global_stop")).await;
    }
    let order: Vec<&str> = events
        .seen
        .iter()
        .filter(|e| e["type"] == "global_stop" || e["reason"] == "global_stop")
        .filter_map(|e| e["type"].as_str())
        .collect();
    assert_eq!(
        order.first(),
        Some(&"global_stop"),
        "global_stop before the session_ended: {order:?}"
    );
    assert_eq!(order.len(), count + 1, "{order:?}");
    assert!(sessions(browser, &dt).await.is_empty());
    events
        .wait(LIMIT, |e| event_is(e, "tab_closed", agent))
        .await;
    assert!(
        tab_info(&client, agent).await.is_none(),
        "the agent tab is closed"
    );
    for t in [t1, t2] {
        dt.close_target(&t).await.expect("close");
    }
}

#[tokio::test]
async fn idle_states_end_every_session_as_screen_locked_or_system_idle() {
    let (_exclusive, ref browser, dt, client) = exclusive().await;
    let mut events = Events::subscribe(&client).await;
    let (target, tab) = open_user_tab(&dt, &client, &page_url("idle", "x")).await;
    let (target2, tab2) = open_user_tab(&dt, &client, &page_url("idle2", "x")).await;
    let idle = |state: &str| {
        format!(
            "buaReady.then(() => bua.on_idle_state_changed({}))",
            json!(state)
        )
    };

    act(&client, tab).await.expect("action");
    act(&client, tab2).await.expect("action");
    let n = browser.eval_in_worker(&dt, &idle("active")).await;
    assert_eq!(n, json!(0), "active ends nothing");
    let n = browser.eval_in_worker(&dt, &idle("locked")).await;
    assert!(n.as_u64().is_some_and(|n| n >= 2), "{n}");
    events.wait(LIMIT, |e| ended(e, tab, "screen_locked")).await;
    events
        .wait(LIMIT, |e| ended(e, tab2, "screen_locked"))
        .await;
    assert!(sessions(browser, &dt).await.is_empty());

    act(&client, tab).await.expect("action after unlock");
    let n = browser.eval_in_worker(&dt, &idle("idle")).await;
    assert!(n.as_u64().is_some_and(|n| n >= 1), "{n}");
    events.wait(LIMIT, |e| ended(e, tab, "system_idle")).await;
    let entries = history(browser, &dt).await;
    let reasons: Vec<&Value> = entries
        .iter()
        .filter(|h| h["tabId"] == tab && h["event"] == "end")
        .map(|h| &h["reason"])
        .collect();
    assert_eq!(
        reasons,
        vec![&json!("system_idle"), &json!("screen_locked")],
        "newest first"
    );

    // The detection interval follows the setting (at least 15 s).
    let set = worker_ui(
        browser,
        &dt,
        json!({"cmd": "set_settings", "idleTimeoutSeconds": 60}),
    )
    .await;
    assert_eq!(set["idleTimeoutSeconds"], 60, "{set}");
    let refused = worker_ui(
        browser,
        &dt,
        json!({"cmd": "set_settings", "idleTimeoutSeconds": 5}),
    )
    .await;
    assert_eq!(refused["error"]["code"], "invalid_action", "{refused}");
    dt.close_target(&target).await.expect("close");
    dt.close_target(&target2).await.expect("close");
}

#[tokio::test]
async fn an_omitted_tab_id_is_resolved_by_the_session_rules_or_names_the_candidates() {
    let (_exclusive, ref browser, dt, client) = exclusive().await;
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    let omitted = json!({"expression": "return location.hostname"});

    failure(
        client.call("evaluate", omitted.clone()).await,
        ErrorCode::SessionNotFound,
    );

    // One user session: it is the only candidate.
    let (t1, one) = open_user_tab(&dt, &client, &page_url("omit-one", "x")).await;
    act(&client, one).await.expect("action");
    let r = client
        .call("evaluate", omitted.clone())
        .await
        .expect("the only session");
    assert_eq!(r["value"], "omit-one.localhost");

    // Two user sessions: session_not_found naming both tabs.
    let (t2, two) = open_user_tab(&dt, &client, &page_url("omit-two", "x")).await;
    act(&client, two).await.expect("action");
    let message = failure(
        client.call("evaluate", omitted.clone()).await,
        ErrorCode::SessionNotFound,
    );
    assert!(
        message.contains(&format!("tab {one}")) && message.contains(&format!("tab {two}")),
        "{message}"
    );

    // An agent tab is always a safe target: it wins over the user sessions.
    let opened = client
        .call("open_tab", json!({"url": page_url("omit-agent", "x")}))
        .await
        .expect("open_tab");
    let r = eventually(LIMIT, || async {
        let r = client.call("evaluate", omitted.clone()).await.ok()?;
        (r["value"] == "omit-agent.localhost").then_some(r)
    })
    .await;
    assert!(r.is_some(), "the agent tab {opened} was picked");
    client
        .call("close_agent_tabs", json!({}))
        .await
        .expect("close_agent_tabs");
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    for t in [t1, t2] {
        dt.close_target(&t).await.expect("close");
    }
}

#[tokio::test]
async fn an_action_in_flight_fails_with_session_not_found_when_its_session_ends() {
    let (_shared, ref browser, dt, client) = shared().await;
    let (target, tab) = open_user_tab(&dt, &client, &page_url("inflight", "x")).await;
    act(&client, tab).await.expect("action");
    let slow = client.call(
        "evaluate",
        json!({"tabId": tab, "expression": "return new Promise(r => setTimeout(() => r('late'), 8000))"}),
    );
    let stop = async {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let started = Instant::now();
        let answer = worker_ui(browser, &dt, json!({"cmd": "stop_session", "tabId": tab})).await;
        (answer, started)
    };
    let (result, (answer, stopped_at)) = tokio::join!(slow, stop);
    assert_eq!(answer, json!({"stopped": true}));
    let message = failure(result, ErrorCode::SessionNotFound);
    assert!(message.contains("user_stopped"), "{message}");
    let after = stopped_at.elapsed();
    note(&format!(
        "in-flight action failed {} ms after the Stop",
        after.as_millis()
    ));
    assert!(
        after < Duration::from_secs(3),
        "failed at once, not after the 8 s promise: {after:?}"
    );
    assert_eq!(
        act(&client, tab).await.expect("works again")["value"],
        "BUA sessions fixture"
    );
    dt.close_target(&target).await.expect("close");
}

/// Closing the tab while a long action runs on it: the action fails at once with `tab_not_found` ("the tab was
/// closed"), not `session_not_found` with "call the action again" advice (SPEC §8: no message means "retry as
/// is"), whichever the extension notices first: the failed CDP command or `tabs.onRemoved`.
#[tokio::test]
async fn closing_the_tab_mid_action_fails_wait_for_navigate_and_evaluate_with_tab_not_found() {
    let (_shared, ref browser, dt, client) = shared().await;
    // Another connection of the same agent: another agent's close_tab would be refused (SPEC §6).
    let closer = BridgeClient::connect_as(browser.port, &browser.token, Some(client.owner()))
        .await
        .expect("closer");
    let mut events = Events::subscribe(&client).await;
    FixtureServer::shared().route(
        "/sessions/slow-close",
        Route::Slow {
            delay: Duration::from_secs(8),
            body: "<title>late</title>".into(),
        },
    );
    let slow_url = format!(
        "http://closing-mid.localhost:{}/sessions/slow-close",
        FixtureServer::shared().port()
    );

    // wait_for on an agent tab, closed by the agent's other connection's close_tab.
    let opened = client
        .call("open_tab", json!({"url": page_url("closing-mid", "wait")}))
        .await
        .expect("open_tab");
    let agent_tab = opened["tabId"].as_i64().expect("tabId");
    let wait = client.call(
        "wait_for",
        json!({"tabId": agent_tab, "textContains": "never on the page", "timeoutMs": 15000}),
    );
    let close = async {
        tokio::time::sleep(Duration::from_millis(700)).await;
        let started = Instant::now();
        closer
            .call("close_tab", json!({"tabId": agent_tab}))
            .await
            .expect("close_tab");
        started
    };
    let (result, closed_at) = tokio::join!(wait, close);
    let err = result.expect_err("wait_for fails with the tab");
    assert_eq!(err.code(), ErrorCode::TabNotFound, "wait_for: {err}");
    assert!(err.to_string().contains("was closed"), "{err}");
    assert!(!err.to_string().contains("again"), "no retry advice: {err}");
    assert!(closed_at.elapsed() < Duration::from_secs(3), "at once");
    events
        .wait(LIMIT, |e| ended(e, agent_tab, "tab_closed"))
        .await;

    // navigate (waiting for a response that takes 8 s) and evaluate (an 8 s promise) on user tabs the user
    // closes.
    let long_actions = [
        ("navigate", json!({"url": slow_url})),
        (
            "evaluate",
            json!({"expression": "return new Promise(r => setTimeout(() => r('late'), 8000))"}),
        ),
    ];
    for (method, params) in long_actions {
        let (target, tab) = open_user_tab(&dt, &client, &page_url("closing-mid", method)).await;
        act(&client, tab).await.expect("action");
        let mut params = params;
        params["tabId"] = json!(tab);
        let action = client.call(method, params);
        let close = async {
            tokio::time::sleep(Duration::from_millis(700)).await;
            let started = Instant::now();
            dt.close_target(&target)
                .await
                .expect("the user closes the tab");
            started
        };
        let (result, closed_at) = tokio::join!(action, close);
        let err = result.expect_err("the action fails with the tab");
        assert_eq!(err.code(), ErrorCode::TabNotFound, "{method}: {err}");
        assert!(
            err.to_string().contains(&format!("tab {tab} was closed")),
            "{err}"
        );
        let after = closed_at.elapsed();
        note(&format!(
            "{method} failed {} ms after its tab closed",
            after.as_millis()
        ));
        assert!(
            after < Duration::from_secs(3),
            "{method}: at once, {after:?}"
        );
        events.wait(LIMIT, |e| ended(e, tab, "tab_closed")).await;
    }
}

/// An action on a page the debugger cannot attach to (`chrome://`) fails with `debugger_attach_failed` and
/// leaves no session behind: the one it started ends through the normal cleanup (`session_ended`, audit
/// log), so `list_sessions`, `get_tabs` and the popup do not show a dead session.
#[tokio::test]
async fn a_failed_attach_ends_the_session_it_started() {
    let (_shared, ref browser, dt, client) = shared().await;
    let mut events = Events::subscribe(&client).await;
    let target = support::open_page_in_own_window(&dt, "chrome://version/").await;
    let tab = support::tab_id_of(&client, "chrome://version/").await;

    let message = failure(act(&client, tab).await, ErrorCode::DebuggerAttachFailed);
    assert!(message.contains("chrome://"), "{message}");

    events
        .wait(LIMIT, |e| event_is(e, "session_started", tab))
        .await;
    let end = events
        .wait(LIMIT, |e| event_is(e, "session_ended", tab))
        .await;
    assert_eq!(
        (end["reason"].clone(), end["actionCount"].clone()),
        (json!("domain_blocked"), json!(0)),
        "{end}"
    );
    assert!(
        session_of(browser, &dt, tab).await.is_none(),
        "no session listed"
    );
    let info = tab_info(&client, tab)
        .await
        .expect("the user's tab stays open");
    assert_eq!(info["session"], false, "{info}");
    let log = history(browser, &dt).await;
    let ours: Vec<&Value> = log.iter().filter(|e| e["tabId"] == tab).collect();
    assert_eq!(
        ours.iter()
            .map(|e| e["event"].as_str().unwrap_or_default())
            .collect::<Vec<_>>(),
        vec!["end", "start"],
        "{ours:?}"
    );

    // Again: the same error, and again nothing left.
    failure(act(&client, tab).await, ErrorCode::DebuggerAttachFailed);
    let left = eventually(LIMIT, || async {
        session_of(browser, &dt, tab).await.is_none().then_some(())
    })
    .await;
    assert!(left.is_some(), "no session after the second try");
    dt.close_target(&target).await.expect("close");
}

// ---------------------------------------------------------------------------------------------
// What the agent is told after the user (or the blocklist) ended its session (SPEC §8: messages say what to do next)

/// `open_tab` on `page_url(host, tag)` by `client`: the new agent tab.
async fn open_agent_tab(client: &BridgeClient, host: &str, tag: &str) -> i64 {
    agent_tab(client, &page_url(host, tag)).await
}

#[tokio::test]
async fn after_stop_all_idle_or_a_block_the_agents_next_action_is_told_so_and_open_tab_counts() {
    let (_exclusive, ref browser, dt, client) = exclusive().await;
    let mut events = Events::subscribe(&client).await;
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;

    // open_tab is the first action of the session it starts.
    let tab = open_agent_tab(&client, "told-stop", "x").await;
    let session = session_of(browser, &dt, tab).await.expect("session");
    assert_eq!(session["actionCount"], 1, "open_tab counts: {session}");
    act(&client, tab).await.expect("action");
    let session = session_of(browser, &dt, tab).await.expect("session");
    assert_eq!(session["actionCount"], 2, "open_tab + evaluate: {session}");

    // Stop all: the agent tab closes; the next action naming it is still tab_not_found, saying why first.
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    let end = events.wait(LIMIT, |e| ended(e, tab, "global_stop")).await;
    assert_eq!(end["actionCount"], 2, "{end}");
    let message = failure(act(&client, tab).await, ErrorCode::TabNotFound);
    assert!(
        message.starts_with(&format!(
            "tab {tab}: the user stopped this session (Stop all) at "
        )),
        "{message}"
    );
    assert!(
        message.contains("stop your plan and report to the user; do not reopen it"),
        "{message}"
    );
    assert!(!message.contains("call get_tabs"), "{message}");
    // An omitted tabId: this agent's tabs were all stopped by the user.
    let message = failure(
        client
            .call("evaluate", json!({"expression": "return 1"}))
            .await,
        ErrorCode::SessionNotFound,
    );
    assert!(
        message.contains("the user stopped this session (Stop all)"),
        "{message}"
    );
    assert!(!message.contains("call open_tab first"), "{message}");

    // A new open_tab is the agent's own decision: its session works, and an omitted tabId finds it.
    let tab = open_agent_tab(&client, "told-lock", "x").await;
    let r = client
        .call(
            "evaluate",
            json!({"expression": "return location.hostname"}),
        )
        .await
        .expect("the new tab");
    assert_eq!(r["value"], "told-lock.localhost");

    // The screen locks: different words (the user is away), same code.
    browser
        .eval_in_worker(
            &dt,
            "buaReady.then(() => bua.on_idle_state_changed('locked'))",
        )
        .await;
    events.wait(LIMIT, |e| ended(e, tab, "screen_locked")).await;
    let message = failure(act(&client, tab).await, ErrorCode::TabNotFound);
    assert!(
        message.starts_with(&format!("tab {tab}: this session ended at ")),
        "{message}"
    );
    assert!(message.contains("the user locked the screen"), "{message}");
    assert!(!message.contains("the user stopped"), "{message}");

    // The blocklist ends a session: the next action names the blocked domain.
    let tab = open_agent_tab(&client, "told-block", "x").await;
    act(&client, tab).await.expect("action");
    blocklist_cmd(browser, &dt, "add_blocked", "told-block.localhost").await;
    events
        .wait(LIMIT, |e| ended(e, tab, "domain_blocked"))
        .await;
    let message = failure(act(&client, tab).await, ErrorCode::TabNotFound);
    assert!(
        message.contains(
            "told-block.localhost is a blocked domain (blocklist entry `told-block.localhost`)"
        ),
        "{message}"
    );
    assert!(
        message.contains("do not retry it on another tab"),
        "{message}"
    );
    blocklist_cmd(browser, &dt, "remove_blocked", "told-block.localhost").await;
    client
        .call("close_agent_tabs", json!({}))
        .await
        .expect("close_agent_tabs");
}
