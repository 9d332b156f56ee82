//! End-to-end tests of the session model (SPEC §6, §8) in real headless Chromium
//! with the built extension and the real `bua-bridge launch`, driven through the bridge's client API.
//!
//! One browser is shared by the whole file. Tests that only touch their own tabs run concurrently, each on
//! its own host name (`<name>.localhost`, which Chromium resolves to loopback, so every test gets its own
//! domain on the one fixture server). Tests that act on every session (Stop all, idle, omitted `tabId`, the
//! worker restart, the audit-log ring) or read browser-wide state (the focused window, the active tab of the
//! user's window) take [`GATE`] exclusively.

use crate::support;

use std::time::{Duration, Instant};

use bua_bridge::devtools::DevTools;
use bua_bridge::BridgeClient;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};
use support::{
    ended, evaluate, event_is, eventually, get_tabs, history, note, open_user_tab, session_of,
    sessions, tab_info, worker_ui, Browser, Events, FixtureServer, Route, LIMIT,
};

/// Shared for tests that touch only their own tabs, exclusive for tests that act on every session.
static GATE: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

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
// Sessions, the agent window, the blocklist, the end reasons

#[tokio::test]
async fn the_first_action_on_a_tab_starts_one_session_with_one_session_started_event() {
    let _shared = GATE.read().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
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
    let starts = events
        .settle(Duration::from_millis(500), |e| {
            event_is(e, "session_started", tab)
        })
        .await;
    assert_eq!(
        starts.len(),
        1,
        "one session_started for three actions: {starts:?}"
    );

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
async fn open_tab_uses_one_minimized_agent_window_that_never_takes_focus_and_closes_with_its_last_tab(
) {
    // Exclusive: it compares the browser's last-focused window before and after, and every test beside it
    // that opens a user tab or an agent window can change which window that is.
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    let focus_js = "chrome.windows.getLastFocused().then(w => ({id: w.id, focused: w.focused}))";
    let focused_before = browser.eval_in_worker(&dt, focus_js).await;

    let first = client
        .call("open_tab", json!({"url": page_url("agent", "a")}))
        .await
        .expect("open_tab");
    let second = client
        .call("open_tab", json!({"url": page_url("agent", "b")}))
        .await
        .expect("second open_tab");
    let (tab_a, tab_b) = (
        first["tabId"].as_i64().expect("tabId"),
        second["tabId"].as_i64().expect("tabId"),
    );
    let window = first["windowId"].as_i64().expect("windowId");
    assert_eq!(first["domain"], "agent.localhost", "{first}");
    assert_eq!(
        second["windowId"], window,
        "two open_tabs share the agent window: {first} {second}"
    );
    assert_ne!(tab_a, tab_b);

    let state = browser
        .eval_in_worker(
            &dt,
            &format!("chrome.windows.get({window}, {{populate: true}}).then(w => ({{state: w.state, focused: w.focused, tabs: w.tabs.length}}))"),
        )
        .await;
    assert_eq!(
        state,
        json!({"state": "minimized", "focused": false, "tabs": 2}),
        "agent window"
    );
    let focused_after = browser.eval_in_worker(&dt, focus_js).await;
    assert_eq!(
        focused_after, focused_before,
        "the user's focused window stays focused"
    );
    assert_ne!(focused_after["id"], window, "{focused_after}");

    let stored = browser.storage_get(&dt, "buaWindowId").await;
    assert_eq!(
        stored[client.client_id()],
        window,
        "persisted per owner: {stored}"
    );
    for tab in [tab_a, tab_b] {
        let started = events
            .wait(LIMIT, |e| event_is(e, "session_started", tab))
            .await;
        assert_eq!(
            (started["owner"].clone(), started["domain"].clone()),
            (json!("agent"), json!("agent.localhost"))
        );
        let info = tab_info(&client, tab).await.expect("agent tab listed");
        assert_eq!(info["agentOwned"], true, "{info}");
        assert_eq!(info["session"], true, "{info}");
        assert_eq!(info["windowState"], "minimized", "{info}");
    }

    // The agent tab works like any other (actions run although the window is minimized).
    assert_eq!(
        act(&client, tab_a).await.expect("action")["value"],
        "BUA sessions fixture"
    );

    for tab in [tab_a, tab_b] {
        let closed = client
            .call("close_tab", json!({"tabId": tab}))
            .await
            .expect("close_tab");
        assert_eq!(closed, json!({"closed": true, "tabId": tab}));
        events.wait(LIMIT, |e| event_is(e, "tab_closed", tab)).await;
        events.wait(LIMIT, |e| ended(e, tab, "tab_closed")).await;
    }
    let gone = eventually(LIMIT, || async {
        let exists = browser
            .eval_in_worker(
                &dt,
                &format!("chrome.windows.get({window}).then(() => true, () => false)"),
            )
            .await;
        let stored = browser.storage_get(&dt, "buaWindowId").await;
        (exists == json!(false) && stored.get(client.client_id()).is_none()).then_some(())
    })
    .await;
    assert!(
        gone.is_some(),
        "the agent window closes with its last tab and is forgotten"
    );

    // The next open_tab creates a new agent window lazily.
    let third = client
        .call("open_tab", json!({"url": page_url("agent", "c")}))
        .await
        .expect("open_tab after the window closed");
    assert_ne!(third["windowId"], window, "{third}");
    let closed = client
        .call("close_agent_window", json!({}))
        .await
        .expect("close_agent_window");
    assert_eq!(
        closed,
        json!({"closed": true, "windowId": third["windowId"]})
    );
    let tab_c = third["tabId"].as_i64().expect("tabId");
    events.wait(LIMIT, |e| ended(e, tab_c, "tab_closed")).await;
}

#[tokio::test]
async fn open_tab_with_focus_opens_in_the_users_window() {
    // Exclusive: it focuses a window and asserts its tab is the active one there; a user tab another test
    // opened meanwhile would change both.
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    // The test's own user window, focused as a person would: the "user's focused window" of SPEC §6.
    let (home, home_tab) = open_user_tab(&dt, &client, &page_url("focus", "home")).await;
    let user_window = tab_info(&client, home_tab).await.expect("home tab")["windowId"].clone();
    browser
        .eval_in_worker(
            &dt,
            &format!("chrome.windows.update({user_window}, {{focused: true}}).then(() => true)"),
        )
        .await;
    let opened = client
        .call(
            "open_tab",
            json!({"url": page_url("focus", "x"), "focus": true}),
        )
        .await
        .expect("open_tab focus");
    assert_eq!(opened["windowId"], user_window, "{opened}");
    let tab = opened["tabId"].as_i64().expect("tabId");
    let info = tab_info(&client, tab).await.expect("listed");
    assert_eq!(
        (info["active"].clone(), info["agentOwned"].clone()),
        (json!(true), json!(true)),
        "{info}"
    );
    client
        .call("close_tab", json!({"tabId": tab}))
        .await
        .expect("close");
    dt.close_target(&home).await.expect("close");
}

#[tokio::test]
async fn an_action_on_a_blocked_domain_is_refused_with_an_event_and_no_session() {
    let _shared = GATE.read().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    let added = worker_ui(
        browser,
        &dt,
        json!({"cmd": "add_blocked", "domain": "HTTPS://Refused.localhost:1/x"}),
    )
    .await;
    assert!(
        added["blocklist"]
            .as_array()
            .is_some_and(|l| l.contains(&json!("refused.localhost"))),
        "normalised on the way in: {added}"
    );
    let invalid = worker_ui(
        browser,
        &dt,
        json!({"cmd": "add_blocked", "domain": "not a domain"}),
    )
    .await;
    assert_eq!(invalid["error"]["code"], "invalid_action", "{invalid}");

    let url = page_url("sub.refused", "blocked");
    let (target, tab) = open_user_tab(&dt, &client, &url).await;
    let err = act(&client, tab).await.expect_err("refused");
    assert_eq!(err.code(), ErrorCode::DomainBlocked, "{err}");
    assert!(err.to_string().contains("refused.localhost"), "{err}");
    let event = events
        .wait(LIMIT, |e| {
            e["type"] == "domain_blocked" && e["tabId"] == tab
        })
        .await;
    assert_eq!(
        event,
        json!({"type": "domain_blocked", "domain": "refused.localhost", "url": url, "tabId": tab})
    );

    // open_tab and navigate onto a blocked target are refused before anything opens.
    let err = client
        .call("open_tab", json!({"url": page_url("refused", "open")}))
        .await
        .expect_err("refused");
    assert_eq!(err.code(), ErrorCode::DomainBlocked, "{err}");
    let (ok_target, ok_tab) = open_user_tab(&dt, &client, &page_url("allowed", "nav")).await;
    let err = client
        .call(
            "navigate",
            json!({"tabId": ok_tab, "url": page_url("refused", "nav")}),
        )
        .await
        .expect_err("refused");
    assert_eq!(err.code(), ErrorCode::DomainBlocked, "{err}");

    let starts = events
        .settle(Duration::from_millis(300), |e| {
            e["type"] == "session_started" && (e["tabId"] == tab || e["tabId"] == ok_tab)
        })
        .await;
    assert!(
        starts.is_empty(),
        "no session for refused actions: {starts:?}"
    );
    assert!(session_of(browser, &dt, tab).await.is_none());
    let refused_open = page_url("refused", "open");
    let opened = get_tabs(&client)
        .await
        .expect("tabs")
        .into_iter()
        .any(|t| t["url"] == refused_open.as_str() || t["title"] == refused_open.as_str());
    assert!(!opened, "open_tab opened nothing");
    let blocked_events = events
        .settle(Duration::ZERO, |e| {
            e["type"] == "domain_blocked" && e["domain"] == "refused.localhost"
        })
        .await;
    assert_eq!(
        blocked_events.len(),
        3,
        "one event per refusal: {blocked_events:?}"
    );

    worker_ui(
        browser,
        &dt,
        json!({"cmd": "remove_blocked", "domain": "refused.localhost"}),
    )
    .await;
    assert_eq!(
        act(&client, tab).await.expect("allowed again")["value"],
        "BUA sessions fixture"
    );
    dt.close_target(&target).await.expect("close");
    dt.close_target(&ok_target).await.expect("close");
}

#[tokio::test]
async fn adding_a_domain_to_the_blocklist_ends_its_sessions_as_domain_blocked() {
    // Exclusive: it writes the blocklist key directly, past the extension's write lock.
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    let (t1, victim) = open_user_tab(&dt, &client, &page_url("victim", "1")).await;
    let (t2, sub) = open_user_tab(&dt, &client, &page_url("www.victim", "2")).await;
    let (t3, bystander) = open_user_tab(&dt, &client, &page_url("notvictim", "3")).await;
    let agent = client
        .call("open_tab", json!({"url": page_url("victim", "agent")}))
        .await
        .expect("open_tab")["tabId"]
        .as_i64()
        .expect("tabId");
    for tab in [victim, sub, bystander, agent] {
        act(&client, tab).await.expect("action");
    }

    // Whoever writes the list (here the test, straight into storage, unnormalised), the storage change
    // listener ends the sessions on the newly blocked domain and its subdomains.
    let mut list = browser.storage_get(&dt, "blocklist").await;
    if !list.is_array() {
        list = json!([]);
    }
    list.as_array_mut()
        .expect("array")
        .push(json!("*.Victim.localhost"));
    browser.storage_set(&dt, json!({ "blocklist": list })).await;
    for tab in [victim, sub, agent] {
        let end = events
            .wait(LIMIT, |e| ended(e, tab, "domain_blocked"))
            .await;
        // The agent tab's session counts its open_tab too.
        let count = if tab == agent { 2 } else { 1 };
        assert_eq!(end["actionCount"], count, "{end}");
        events
            .wait(LIMIT, |e| {
                e["type"] == "domain_blocked"
                    && e["tabId"] == tab
                    && e["domain"] == "victim.localhost"
            })
            .await;
    }
    // The agent's own tab is closed by the cleanup; the user's tabs stay open, without a session.
    events
        .wait(LIMIT, |e| event_is(e, "tab_closed", agent))
        .await;
    assert!(tab_info(&client, agent).await.is_none(), "agent tab closed");
    assert_eq!(
        tab_info(&client, victim).await.expect("user tab stays")["session"],
        false
    );
    let bystanders = events
        .settle(Duration::from_millis(300), |e| {
            event_is(e, "session_ended", bystander)
        })
        .await;
    assert!(
        bystanders.is_empty(),
        "notvictim.localhost is not victim.localhost: {bystanders:?}"
    );
    assert!(session_of(browser, &dt, bystander).await.is_some());
    let entries = history(browser, &dt).await;
    assert!(
        entries.iter().any(|h| h["event"] == "end"
            && h["tabId"] == victim
            && h["reason"] == "domain_blocked"),
        "the audit log has the END"
    );

    worker_ui(
        browser,
        &dt,
        json!({"cmd": "remove_blocked", "domain": "victim.localhost"}),
    )
    .await;
    for t in [t1, t2, t3] {
        dt.close_target(&t).await.expect("close");
    }
}

#[tokio::test]
async fn a_session_tab_redirected_onto_a_blocked_host_is_ended() {
    let _shared = GATE.read().await;
    let browser = &Browser::shared("sessions");
    let fixtures = FixtureServer::shared();
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    let blocked_target = page_url("redirect-target", "landed");
    fixtures.route(
        "/sessions/redirect-to-blocked",
        Route::Redirect {
            status: 302,
            location: blocked_target.clone(),
        },
    );
    worker_ui(
        browser,
        &dt,
        json!({"cmd": "add_blocked", "domain": "redirect-target.localhost"}),
    )
    .await;
    let (target, tab) = open_user_tab(&dt, &client, &page_url("redirect-source", "start")).await;
    act(&client, tab).await.expect("session on an allowed page");
    events
        .wait(LIMIT, |e| event_is(e, "session_started", tab))
        .await;

    // The page itself navigates to a URL that answers 302 onto the blocked host.
    let session = dt.attach(&target).await.expect("attach");
    let redirect = format!(
        "http://redirect-source.localhost:{}/sessions/redirect-to-blocked",
        fixtures.port()
    );
    dt.evaluate(
        &session,
        &format!("location.href = {}; true", json!(redirect)),
    )
    .await
    .expect("navigate");
    dt.detach(&session).await;

    let end = events
        .wait(LIMIT, |e| ended(e, tab, "domain_blocked"))
        .await;
    assert_eq!(end["domain"], "redirect-source.localhost", "{end}");
    let blocked = events
        .wait(LIMIT, |e| {
            e["type"] == "domain_blocked" && e["tabId"] == tab
        })
        .await;
    assert_eq!(blocked["domain"], "redirect-target.localhost", "{blocked}");
    assert!(
        blocked["url"]
            .as_str()
            .is_some_and(|u| u.starts_with(&blocked_target)),
        "{blocked}"
    );
    assert!(fixtures
        .hits()
        .iter()
        .any(|h| h == "/sessions/redirect-to-blocked"));
    // The tab now sits on the blocked host: the next action is refused and starts nothing.
    let err = act(&client, tab).await.expect_err("refused");
    assert_eq!(err.code(), ErrorCode::DomainBlocked, "{err}");
    assert!(session_of(browser, &dt, tab).await.is_none());
    worker_ui(
        browser,
        &dt,
        json!({"cmd": "remove_blocked", "domain": "redirect-target.localhost"}),
    )
    .await;
    dt.close_target(&target).await.expect("close");
}

#[tokio::test]
async fn closing_a_tab_ends_its_session_as_tab_closed() {
    let _shared = GATE.read().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
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
    let err = act(&client, tab).await.expect_err("gone");
    assert_eq!(err.code(), ErrorCode::TabNotFound, "{err}");
}

#[tokio::test]
async fn a_detach_from_outside_ends_the_session_as_user_stopped_and_the_next_action_reattaches() {
    let _shared = GATE.read().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
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
    let restarts = events
        .settle(Duration::from_millis(300), |e| {
            event_is(e, "session_started", tab)
        })
        .await;
    assert_eq!(
        restarts.len(),
        2,
        "a new session after user_stopped: {restarts:?}"
    );

    // The popup's per-session Stop goes through the same path.
    let stopped = worker_ui(browser, &dt, json!({"cmd": "stop_session", "tabId": tab})).await;
    assert_eq!(stopped, json!({"stopped": true}));
    let ends = events
        .settle(Duration::from_millis(300), |e| {
            ended(e, tab, "user_stopped")
        })
        .await;
    assert_eq!(ends.len(), 2, "{ends:?}");
    assert_eq!(
        act(&client, tab).await.expect("works again")["value"],
        "BUA sessions fixture"
    );
    dt.close_target(&target).await.expect("close");
}

#[tokio::test]
async fn stop_all_ends_every_session_as_global_stop_and_the_bridge_sees_global_stop_first() {
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    let (t1, a) = open_user_tab(&dt, &client, &page_url("stopall-a", "x")).await;
    let (t2, b) = open_user_tab(&dt, &client, &page_url("stopall-b", "x")).await;
    let agent = client
        .call("open_tab", json!({"url": page_url("stopall-agent", "x")}))
        .await
        .expect("open_tab")["tabId"]
        .as_i64()
        .expect("tabId");
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
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
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
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    let omitted = json!({"expression": "return location.hostname"});

    let err = client
        .call("evaluate", omitted.clone())
        .await
        .expect_err("nothing to act on");
    assert_eq!(err.code(), ErrorCode::SessionNotFound, "{err}");

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
    let err = client
        .call("evaluate", omitted.clone())
        .await
        .expect_err("ambiguous");
    assert_eq!(err.code(), ErrorCode::SessionNotFound, "{err}");
    let message = err.to_string();
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
    let _shared = GATE.read().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
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
    let err = result.expect_err("the in-flight action fails");
    assert_eq!(err.code(), ErrorCode::SessionNotFound, "{err}");
    assert!(err.to_string().contains("user_stopped"), "{err}");
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
    let _shared = GATE.read().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
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
    let _shared = GATE.read().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    let target = support::open_page_in_own_window(&dt, "chrome://version/").await;
    let tab = support::tab_id_of(&client, "chrome://version/").await;

    let err = act(&client, tab).await.expect_err("cannot attach");
    assert_eq!(err.code(), ErrorCode::DebuggerAttachFailed, "{err}");
    assert!(err.to_string().contains("chrome://"), "{err}");

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
    let err = act(&client, tab).await.expect_err("still cannot attach");
    assert_eq!(err.code(), ErrorCode::DebuggerAttachFailed, "{err}");
    let left = eventually(LIMIT, || async {
        session_of(browser, &dt, tab).await.is_none().then_some(())
    })
    .await;
    assert!(left.is_some(), "no session after the second try");
    dt.close_target(&target).await.expect("close");
}

#[tokio::test]
async fn navigate_without_a_tab_and_without_any_session_opens_an_agent_tab() {
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    let url = page_url("nav-agent", "x");
    let result = client
        .call("navigate", json!({"url": url}))
        .await
        .expect("navigate opens a tab");
    assert_eq!(result["url"], url.as_str(), "{result}");
    assert_eq!(result["title"], "BUA sessions fixture", "{result}");
    let tab = result["tabId"].as_i64().expect("tabId");
    let info = tab_info(&client, tab).await.expect("listed");
    assert_eq!(info["agentOwned"], true, "{info}");
    assert_eq!(
        info["windowState"], "minimized",
        "in the agent window: {info}"
    );
    let session = session_of(browser, &dt, tab).await.expect("session");
    assert_eq!(
        (session["owner"].clone(), session["domain"].clone()),
        (json!("agent"), json!("nav-agent.localhost"))
    );
    assert_eq!(session["actionCount"], 1, "{session}");
    let closed = client
        .call("close_agent_tabs", json!({}))
        .await
        .expect("close_agent_tabs");
    assert_eq!(closed, json!({"closed": [tab]}));
}

/// A reloaded (or updated) extension starts with an empty `chrome.storage.session` while `activeSessions`
/// survives in `chrome.storage.local`. `chrome.runtime.reload()` itself cannot be used here: Chromium disables
/// a command-line-loaded extension on reload (`unsupportedDeveloperExtension`). So the test recreates exactly
/// what the new instance finds: it clears `storage.session` and restarts the worker.
#[tokio::test]
async fn a_worker_start_after_an_extension_reload_ends_untrusted_sessions_and_vanished_tabs() {
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    let (target, user) = open_user_tab(&dt, &client, &page_url("reload", "x")).await;
    act(&client, user).await.expect("action");
    let agent = client
        .call("open_tab", json!({"url": page_url("reload-agent", "x")}))
        .await
        .expect("open_tab")["tabId"]
        .as_i64()
        .expect("tabId");
    // A session whose tab vanished while no worker ran (written straight into storage).
    let ghost: i64 = 2e9 as i64;
    let mut stored = browser.storage_get(&dt, "activeSessions").await;
    stored.as_array_mut().expect("sessions").push(json!({
        "tabId": ghost, "domain": "ghost.localhost", "startedAt": 1.0, "lastActionAt": 1.0,
        "actionCount": 4, "owner": "user"
    }));
    browser
        .storage_set(&dt, json!({ "activeSessions": stored }))
        .await;

    browser
        .eval_in_worker(&dt, "chrome.storage.session.clear().then(() => true)")
        .await;
    browser.stop_service_worker(&dt, &client).await;
    let (waker, _) = open_user_tab(&dt, &client, &page_url("reload-waker", "x")).await;

    // The new instance reconnects; its reconcile events go out as soon as it can send them.
    let end = events
        .wait(Duration::from_secs(20), |e| {
            ended(e, user, "extension_reload")
        })
        .await;
    assert_eq!(end["actionCount"], 1, "{end}");
    events
        .wait(LIMIT, |e| ended(e, agent, "extension_reload"))
        .await;
    let ghost_end = events.wait(LIMIT, |e| ended(e, ghost, "tab_closed")).await;
    assert_eq!(ghost_end["actionCount"], 4, "{ghost_end}");
    assert!(sessions(browser, &dt).await.is_empty());
    let agent_gone = eventually(LIMIT, || async {
        tab_info(&client, agent).await.is_none().then_some(())
    })
    .await;
    assert!(
        agent_gone.is_some(),
        "the agent tab is closed by the cleanup"
    );
    let entries = history(browser, &dt).await;
    for (tab, reason) in [
        (user, "extension_reload"),
        (agent, "extension_reload"),
        (ghost, "tab_closed"),
    ] {
        assert!(
            entries
                .iter()
                .any(|h| h["tabId"] == tab && h["reason"] == reason),
            "audit log END for tab {tab} ({reason})"
        );
    }
    // The user's tab is usable again, with a new session.
    let title = act(&client, user).await.expect("works after the reload");
    assert_eq!(title["value"], "BUA sessions fixture");
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    dt.close_target(&target).await.expect("close");
    dt.close_target(&waker).await.expect("close");
}

// ---------------------------------------------------------------------------------------------
// A service-worker restart mid-session

#[tokio::test]
async fn after_the_service_worker_is_stopped_mid_session_the_session_continues_on_the_same_tab() {
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let (target, tab) = open_user_tab(&dt, &client, &page_url("restart", "x")).await;
    act(&client, tab).await.expect("action 1");
    act(&client, tab).await.expect("action 2");
    let before = session_of(browser, &dt, tab).await.expect("session");
    assert_eq!(before["actionCount"], 2);
    let history_before = history(browser, &dt).await;

    browser.stop_service_worker(&dt, &client).await;

    // A browser event wakes it; it reconnects and reconciles.
    let (waker, _) = open_user_tab(&dt, &client, &page_url("restart-waker", "x")).await;
    let title = eventually(Duration::from_secs(15), || async {
        act(&client, tab).await.ok()
    })
    .await
    .unwrap_or_else(|| {
        panic!(
            "the action after the restart never worked\n{}",
            browser.logs()
        )
    });
    assert_eq!(title["value"], "BUA sessions fixture");

    let after = session_of(browser, &dt, tab)
        .await
        .expect("the session survived");
    assert_eq!(
        after["startedAt"], before["startedAt"],
        "the same session: {after}"
    );
    assert_eq!(after["actionCount"], 3, "the count continues: {after}");
    let history_after = history(browser, &dt).await;
    let mine: Vec<&Value> = history_after.iter().filter(|e| e["tabId"] == tab).collect();
    assert_eq!(mine.len(), 1, "one START for the tab, no END: {mine:?}");
    assert_eq!(mine[0]["event"], "start");
    assert_eq!(
        history_after, history_before,
        "no entry added, lost or duplicated by the restart"
    );

    dt.close_target(&target).await.expect("close");
    dt.close_target(&waker).await.expect("close");
}

// ---------------------------------------------------------------------------------------------
// The audit-log ring

#[tokio::test]
async fn a_thousand_start_end_cycles_leave_exactly_the_newest_thousand_history_entries() {
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    // Tabs closed by earlier tests may still be ending their sessions: clear once everything is quiet.
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    let cleared = eventually(LIMIT, || async {
        let answer = worker_ui(browser, &dt, json!({"cmd": "clear_history"})).await;
        assert_eq!(answer, json!({"cleared": true}));
        tokio::time::sleep(Duration::from_millis(300)).await;
        history(browser, &dt).await.is_empty().then_some(())
    })
    .await;
    assert!(cleared.is_some(), "the audit log could be cleared");

    // Four tabs, 250 cycles each, concurrently: action (START) then the popup's Stop (END).
    const TABS: usize = 4;
    const CYCLES: usize = 1000;
    let mut targets = Vec::new();
    let mut tabs = Vec::new();
    for i in 0..TABS {
        let (t, tab) = open_user_tab(&dt, &client, &page_url(&format!("ring{i}"), "x")).await;
        targets.push(t);
        tabs.push(tab);
    }
    let worker = browser.service_worker(&dt, LIMIT).await;
    let sw = dt.attach(&worker.id).await.expect("attach to the worker");
    // The worker's console warnings (slow actions name their slow stage) are reported with the numbers.
    let mut console = dt.events();
    dt.send("Runtime.enable", json!({}), Some(&sw))
        .await
        .expect("Runtime.enable");
    let started = Instant::now();
    let runs = tabs.iter().map(|&tab| {
        let (client, dt, sw) = (&client, &dt, &sw);
        async move {
            for cycle in 0..CYCLES / TABS {
                let t0 = Instant::now();
                if let Err(e) = act(client, tab).await {
                    panic!(
                        "tab {tab} cycle {cycle}: action failed after {:?}: {e}",
                        t0.elapsed()
                    );
                }
                let stop = json!({"cmd": "stop_session", "tabId": tab});
                let r = dt
                    .evaluate(sw, &format!("buaReady.then(() => bua.on_message({stop}))"))
                    .await
                    .expect("stop");
                assert_eq!(r, json!({"stopped": true}));
            }
        }
    });
    futures_util::future::join_all(runs).await;
    let elapsed = started.elapsed();
    dt.detach(&sw).await;
    let mut slow = 0;
    loop {
        let e = match console.try_recv() {
            Ok(e) => e,
            Err(tokio::sync::broadcast::error::TryRecvError::Lagged(_)) => continue,
            Err(_) => break,
        };
        if e.method == "Runtime.consoleAPICalled" && e.params["type"] == "warning" {
            let text = e
                .params
                .pointer("/args/0/value")
                .and_then(Value::as_str)
                .unwrap_or("");
            if text.contains("slow ") {
                slow += 1;
                if slow <= 10 {
                    note(&format!("worker: {text}"));
                }
            }
        }
    }
    note(&format!("{slow} slow actions (≥ 3 s) during the cycles"));
    note(&format!(
        "{CYCLES} session start/end cycles through the bridge in {} ms ({:.1} ms per cycle, {TABS} tabs concurrently)",
        elapsed.as_millis(),
        elapsed.as_secs_f64() * 1000.0 / CYCLES as f64
    ));

    let entries = history(browser, &dt).await;
    assert_eq!(
        entries.len(),
        1000,
        "exactly the newest 1000 of {} entries",
        2 * CYCLES
    );
    let stored = browser.storage_get(&dt, "sessionHistory").await;
    assert_eq!(stored.as_array().map(Vec::len), Some(1000));
    assert_eq!(
        entries[0]["event"], "end",
        "the newest entry is a Stop: {}",
        entries[0]
    );
    assert!(entries
        .iter()
        .all(|e| e["event"] == "start" || e["reason"] == "user_stopped"));
    // Per tab (whose cycles ran one after another), newest first and strictly alternating END/START: no entry
    // lost, duplicated or out of order. Only a tab's oldest kept entry may be an END whose START fell off.
    let mut per_tab = std::collections::HashMap::<i64, Vec<&Value>>::new();
    for e in &entries {
        per_tab
            .entry(e["tabId"].as_i64().unwrap_or(-1))
            .or_default()
            .push(e);
    }
    assert_eq!(per_tab.len(), TABS, "{:?}", per_tab.keys());
    let mut dangling = 0;
    for (tab, seq) in &per_tab {
        assert!(
            seq.windows(2)
                .all(|w| w[0]["at"].as_f64() >= w[1]["at"].as_f64()),
            "tab {tab}: newest first"
        );
        let kinds: Vec<&str> = seq
            .iter()
            .map(|e| e["event"].as_str().unwrap_or(""))
            .collect();
        let body = if kinds.len() % 2 == 1 {
            dangling += 1;
            assert_eq!(kinds.last(), Some(&"end"), "tab {tab}: {kinds:?}");
            &kinds[..kinds.len() - 1]
        } else {
            &kinds[..]
        };
        assert!(
            body.chunks(2).all(|c| c == ["end", "start"]),
            "tab {tab}: alternating END/START expected, got {kinds:?}"
        );
    }
    let starts = entries.iter().filter(|e| e["event"] == "start").count();
    assert_eq!(
        2 * starts + dangling,
        1000,
        "{starts} START/END pairs plus {dangling} ENDs whose START fell off"
    );
    for t in targets {
        dt.close_target(&t).await.expect("close");
    }
}

// ---------------------------------------------------------------------------------------------
// SPEC §6: the agent window headed, under Xvfb

/// Held by each headed test: one headed browser (a Chromium and an X server) at a time on the 2 cores.
static HEADED: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A headed `bua-bridge launch` on its own Xvfb display (the harness's browsers are headless).
struct Headed {
    xvfb: std::process::Child,
    wm: Option<std::process::Child>,
    launch: std::process::Child,
    _stdin: Option<std::process::ChildStdin>,
    port: u16,
    token: String,
    devtools_url: String,
    /// A browser of the harness's two (stopped above in `drop`, given back after it).
    _permit: support::Permit,
}

impl Headed {
    /// Starts Xvfb on a free display and a headed launch on it; `None` (with a note) when Xvfb is missing.
    fn start() -> Option<Headed> {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let xvfb_bin = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())?;
        // Without a window manager there is no minimized state to test (see below).
        let display = (90..200).find(|n| {
            !std::path::Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
                && !std::path::Path::new(&format!("/tmp/.X{n}-lock")).exists()
        })?;
        let permit = support::Permit::acquire();
        let mut xvfb = Command::new(xvfb_bin)
            .args([
                format!(":{display}").as_str(),
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb");
        let socket = format!("/tmp/.X11-unix/X{display}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while !std::path::Path::new(&socket).exists() {
            if Instant::now() > deadline {
                let _ = xvfb.kill();
                let _ = xvfb.wait();
                panic!("Xvfb :{display} did not come up");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // A window manager: without one an X11 window cannot be minimized (iconified) at all.
        let wm = ["/usr/bin/openbox", "/usr/local/bin/openbox"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .map(|bin| {
                let child = Command::new(bin)
                    .env("DISPLAY", format!(":{display}"))
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("start openbox");
                std::thread::sleep(Duration::from_millis(700));
                child
            });
        let mut launch = Command::new(support::bridge_bin())
            .args([
                "launch",
                "--port",
                "0",
                "--exit-on-stdin-close",
                "--ephemeral-token",
                "--extension",
            ])
            .arg(support::dist_dir())
            // As for the headless browsers: loopback names and 127.0.0.2 resolve, nothing waits on DNS.
            .arg(format!(
                "--chrome-arg=--host-resolver-rules={}",
                support::OFFLINE_RESOLVER_RULES
            ))
            .env("DISPLAY", format!(":{display}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn a headed bua-bridge launch");
        let stdin = launch.stdin.take();
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        let out = launch.stdout.take().expect("stdout");
        let err = launch.stderr.take().expect("stderr");
        let tx2 = tx.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
                if line.starts_with("DEVTOOLS ") {
                    let _ = tx2.send(line);
                }
            }
        });
        let field = |line: &str, key: &str| {
            line.split_whitespace()
                .find_map(|kv| kv.strip_prefix(&format!("{key}=")).map(str::to_owned))
        };
        let (mut port, mut token, mut devtools_url) = (None, None, None);
        let deadline = Instant::now() + Duration::from_secs(40);
        while port.is_none() || devtools_url.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = rx.recv_timeout(left) else {
                let _ = launch.kill();
                let _ = xvfb.kill();
                panic!("the headed launch printed no READY/DEVTOOLS line");
            };
            if line.starts_with("READY ") {
                port = field(&line, "port").and_then(|p| p.parse::<u16>().ok());
                token = field(&line, "token");
            } else if line.starts_with("DEVTOOLS ") {
                devtools_url = field(&line, "ws");
            }
        }
        Some(Headed {
            xvfb,
            wm,
            launch,
            _stdin: stdin,
            port: port.unwrap_or_default(),
            token: token.unwrap_or_default(),
            devtools_url: devtools_url.unwrap_or_default(),
            _permit: permit,
        })
    }
}

impl Drop for Headed {
    fn drop(&mut self) {
        let pid = nix::unistd::Pid::from_raw(self.launch.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let deadline = Instant::now() + Duration::from_secs(20);
        while matches!(self.launch.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.launch.kill();
        let _ = self.launch.wait();
        if let Some(wm) = self.wm.as_mut() {
            let _ = wm.kill();
            let _ = wm.wait();
        }
        let _ = self.xvfb.kill();
        let _ = self.xvfb.wait();
    }
}

#[tokio::test]
async fn headed_under_xvfb_a_page_in_the_minimized_agent_window_still_answers_actions_extract_and_screenshot(
) {
    // Its own browser (headed), so it does not need the gate; it is one of the harness's two (`Headed::start`).
    let _one = HEADED.lock().await;
    let Some(headed) = tokio::task::spawn_blocking(Headed::start)
        .await
        .expect("join")
    else {
        note("Xvfb not installed: the headed agent-window check was skipped");
        return;
    };
    let client = BridgeClient::connect(headed.port, &headed.token)
        .await
        .expect("client");
    let dt = DevTools::connect(&headed.devtools_url)
        .await
        .expect("devtools");
    let worker_url = bua_bridge::devtools::service_worker_url("obbcebjpclnphmijagoggibdnbknjkao");
    let worker = dt
        .wait_for_target("service_worker", |u| u == worker_url, LIMIT)
        .await
        .expect("worker");
    let focus_js = "chrome.windows.getLastFocused().then(w => w.id + '/' + w.focused)";
    let focused_before = eventually(LIMIT, || async {
        dt.evaluate_in_target(&worker.id, focus_js).await.ok()
    })
    .await
    .expect("the user's window");
    let opened = eventually(LIMIT, || async {
        client
            .call("open_tab", json!({"url": page_url("headed", "x")}))
            .await
            .ok()
    })
    .await
    .expect("open_tab in the headed browser");
    let tab = opened["tabId"].as_i64().expect("tabId");
    let window = opened["windowId"].as_i64().expect("windowId");
    let state = dt
        .evaluate_in_target(
            &worker.id,
            &format!("chrome.windows.get({window}).then(w => w.state + '/' + w.focused)"),
        )
        .await
        .expect("window state");
    note(&format!("headed agent window: {state}"));
    assert_eq!(state, "minimized/false");

    let eval = |expression: &'static str| {
        let client = &client;
        async move {
            client
                .call("evaluate", json!({"tabId": tab, "expression": expression}))
                .await
        }
    };
    let page = eval("return document.visibilityState + '/' + document.hasFocus()")
        .await
        .expect("evaluate in the minimized window");
    note(&format!(
        "page in the minimized agent window: visibility/focus = {}",
        page["value"]
    ));
    let timer = eval(
        "const t0 = performance.now(); return new Promise(r => setTimeout(() => r(Math.round(performance.now() - t0)), 100))",
    )
    .await
    .expect("timer");
    note(&format!(
        "a 100 ms setTimeout took {} ms there",
        timer["value"]
    ));
    assert!(
        timer["value"].as_f64().is_some_and(|ms| ms < 1500.0),
        "{timer}"
    );
    let raf = eval(
        "return new Promise(r => { const t = setTimeout(() => r('no frame'), 3000); requestAnimationFrame(() => { clearTimeout(t); r('frame'); }); })",
    )
    .await
    .expect("rAF");
    note(&format!("requestAnimationFrame there: {}", raf["value"]));

    let extract = client
        .call("extract", json!({"tabId": tab}))
        .await
        .expect("extract in the minimized window");
    assert_eq!(extract["title"], "BUA sessions fixture", "{extract}");
    let started = Instant::now();
    let shot = client
        .call("screenshot", json!({"tabId": tab}))
        .await
        .expect("screenshot in the minimized window");
    note(&format!(
        "screenshot in the minimized window: {}x{} in {} ms",
        shot["width"],
        shot["height"],
        started.elapsed().as_millis()
    ));
    assert!(
        shot["width"].as_u64().is_some_and(|w| w > 0),
        "{}",
        shot["mime"]
    );
    let shots = 5;
    let started = Instant::now();
    for _ in 0..shots {
        client
            .call(
                "screenshot",
                json!({"tabId": tab, "format": "jpeg", "quality": 50}),
            )
            .await
            .expect("every screenshot in the minimized window");
    }
    note(&format!(
        "{shots} more screenshots there: {} ms each",
        started.elapsed().as_millis() / shots
    ));
    let after = eventually(LIMIT, || async {
        let state = dt
            .evaluate_in_target(
                &worker.id,
                &format!("chrome.windows.get({window}).then(w => w.state + '/' + w.focused)"),
            )
            .await
            .ok()?;
        (state == "minimized/false").then_some(state)
    })
    .await;
    assert!(
        after.is_some(),
        "the agent window is minimized again after the captures"
    );
    let focused_after = dt
        .evaluate_in_target(&worker.id, focus_js)
        .await
        .expect("focus");
    assert_eq!(
        focused_after, focused_before,
        "the user's window kept the focus throughout"
    );
    let click = client
        .call("click", json!({"tabId": tab, "selector": "#next"}))
        .await
        .expect("click in the minimized window");
    assert_eq!(click["clicked"]["tag"], "a", "{click}");
    drop(headed);
}

// ---------------------------------------------------------------------------------------------
// What the agent is told after the user (or the blocklist) ended its session (SPEC §8: messages say what to do next)

/// `open_tab` on `page_url(host, tag)` by `client`: the new agent tab.
async fn open_agent_tab(client: &BridgeClient, host: &str, tag: &str) -> i64 {
    let opened = client
        .call("open_tab", json!({"url": page_url(host, tag)}))
        .await
        .expect("open_tab");
    opened["tabId"].as_i64().expect("tabId")
}

#[tokio::test]
async fn after_stop_all_idle_or_a_block_the_agents_next_action_is_told_so_and_open_tab_counts() {
    let _exclusive = GATE.write().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
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
    let err = act(&client, tab).await.expect_err("stopped");
    assert_eq!(err.code(), ErrorCode::TabNotFound, "{err}");
    let message = err.to_string();
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
    let err = client
        .call("evaluate", json!({"expression": "return 1"}))
        .await
        .expect_err("nothing left");
    assert_eq!(err.code(), ErrorCode::SessionNotFound, "{err}");
    let message = err.to_string();
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
    let err = act(&client, tab).await.expect_err("locked");
    assert_eq!(err.code(), ErrorCode::TabNotFound, "{err}");
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("tab {tab}: this session ended at ")),
        "{message}"
    );
    assert!(message.contains("the user locked the screen"), "{message}");
    assert!(!message.contains("the user stopped"), "{message}");

    // The blocklist ends a session: the next action names the blocked domain.
    let tab = open_agent_tab(&client, "told-block", "x").await;
    act(&client, tab).await.expect("action");
    worker_ui(
        browser,
        &dt,
        json!({"cmd": "add_blocked", "domain": "told-block.localhost"}),
    )
    .await;
    events
        .wait(LIMIT, |e| ended(e, tab, "domain_blocked"))
        .await;
    let err = act(&client, tab).await.expect_err("blocked");
    assert_eq!(err.code(), ErrorCode::TabNotFound, "{err}");
    let message = err.to_string();
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
    worker_ui(
        browser,
        &dt,
        json!({"cmd": "remove_blocked", "domain": "told-block.localhost"}),
    )
    .await;
    client
        .call("close_agent_tabs", json!({}))
        .await
        .expect("close_agent_tabs");
}

#[tokio::test]
async fn clicking_a_link_onto_a_blocked_domain_is_domain_blocked_naming_it() {
    let _shared = GATE.read().await;
    let browser = &Browser::shared("sessions");
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    worker_ui(
        browser,
        &dt,
        json!({"cmd": "add_blocked", "domain": "link-blocked.localhost"}),
    )
    .await;
    let tab = open_agent_tab(&client, "link-from", "x").await;
    let target = page_url("link-blocked", "landed");
    evaluate(
        &client,
        tab,
        &format!(
            "document.body.insertAdjacentHTML('afterbegin', '<a id=\"go\" href=\"{target}\">Go</a>'); return 1"
        ),
    )
    .await
    .expect("add the link");
    let err = client
        .call("click", json!({"tabId": tab, "selector": "#go"}))
        .await
        .expect_err("blocked");
    assert_eq!(err.code(), ErrorCode::DomainBlocked, "{err}");
    let message = err.to_string();
    assert!(message.contains("link-blocked.localhost"), "{message}");
    let end = events
        .wait(LIMIT, |e| ended(e, tab, "domain_blocked"))
        .await;
    assert_eq!(end["domain"], "link-from.localhost", "{end}");
    let blocked = events
        .settle(Duration::from_millis(300), |e| {
            e["type"] == "domain_blocked" && e["tabId"] == tab
        })
        .await;
    assert_eq!(blocked.len(), 1, "one domain_blocked event: {blocked:?}");
    // The agent's own tab was closed with its session; naming it again says why.
    let err = act(&client, tab).await.expect_err("gone");
    assert_eq!(err.code(), ErrorCode::TabNotFound, "{err}");
    assert!(err.to_string().contains("link-blocked.localhost"), "{err}");
    worker_ui(
        browser,
        &dt,
        json!({"cmd": "remove_blocked", "domain": "link-blocked.localhost"}),
    )
    .await;
}

/// SPEC §4 `handoff`, headed: the minimized agent window is restored and focused for the person, the handoff
/// returns by itself when the sign-in leads to the account page, and the window is minimized again.
#[tokio::test]
async fn headed_under_xvfb_a_handoff_shows_the_minimized_agent_window_and_minimizes_it_again() {
    let _one = HEADED.lock().await;
    let Some(headed) = tokio::task::spawn_blocking(Headed::start)
        .await
        .expect("join")
    else {
        note("Xvfb not installed: the headed handoff check was skipped");
        return;
    };
    let client = BridgeClient::connect(headed.port, &headed.token)
        .await
        .expect("client");
    let dt = DevTools::connect(&headed.devtools_url)
        .await
        .expect("devtools");
    let worker_url = bua_bridge::devtools::service_worker_url("obbcebjpclnphmijagoggibdnbknjkao");
    let worker = dt
        .wait_for_target("service_worker", |u| u == worker_url, LIMIT)
        .await
        .expect("worker");
    let login = format!(
        "http://headed-signin.localhost:{}/handoff/login.html",
        support::FixtureServer::shared().port()
    );
    let opened = eventually(LIMIT, || async {
        client.call("open_tab", json!({"url": login})).await.ok()
    })
    .await
    .expect("open_tab in the headed browser");
    let tab = opened["tabId"].as_i64().expect("tabId");
    let window = opened["windowId"].as_i64().expect("windowId");
    let state_js = format!("chrome.windows.get({window}).then(w => w.state + '/' + w.focused)");
    let state = || async { dt.evaluate_in_target(&worker.id, &state_js).await.ok() };
    assert_eq!(state().await, Some(json!("minimized/false")));

    let handoff = client.call("handoff", json!({"tabId": tab, "reason": "sign in"}));
    let the_person = async {
        let shown = eventually(LIMIT, || async {
            state().await.filter(|s| s == "normal/true")
        })
        .await;
        assert!(shown.is_some(), "restored and focused: {:?}", state().await);
        let prefix = login.clone();
        let target = dt
            .wait_for_target("page", move |u| u.starts_with(&prefix), LIMIT)
            .await
            .expect("the sign-in page");
        let session = dt.attach(&target.id).await.expect("attach");
        dt.evaluate(
            &session,
            "document.getElementById('email').value = 'ada@example.com'; \
             document.getElementById('password').value = 'correct horse'; \
             document.getElementById('signin').requestSubmit(); true",
        )
        .await
        .expect("sign in");
    };
    let (result, ()) = tokio::join!(handoff, the_person);
    let result = result.expect("handoff");
    assert_eq!(
        (result["resolved"].as_bool(), result["by"].as_str()),
        (Some(true), Some("page")),
        "{result}"
    );
    assert_eq!(result["title"], "Your account · Example Shop");
    let after = state().await;
    note(&format!("headed agent window after the handoff: {after:?}"));
    assert_eq!(
        after
            .as_ref()
            .and_then(Value::as_str)
            .map(|s| s.starts_with("minimized/")),
        Some(true),
        "{after:?}"
    );
}

/// SPEC §5 "Frames" and §6, headed: in a tab `open_tab` put in the minimized agent window, a click by uid on
/// a button of each of three cross-origin levels (127.0.0.1 → 127.0.0.2 → localhost, three renderer
/// processes) is reported done and has its effect in that frame's own page; the window stays minimized and
/// the user's window keeps the focus.
#[tokio::test]
async fn headed_under_xvfb_clicks_by_uid_land_in_every_cross_origin_frame_of_the_minimized_agent_window(
) {
    let _one = HEADED.lock().await;
    let Some(headed) = tokio::task::spawn_blocking(Headed::start)
        .await
        .expect("join")
    else {
        note("Xvfb not installed: the headed cross-origin frames check was skipped");
        return;
    };
    support::second_site();
    let client = BridgeClient::connect(headed.port, &headed.token)
        .await
        .expect("client");
    let dt = DevTools::connect(&headed.devtools_url)
        .await
        .expect("devtools");
    let worker_url = bua_bridge::devtools::service_worker_url("obbcebjpclnphmijagoggibdnbknjkao");
    let worker = dt
        .wait_for_target("service_worker", |u| u == worker_url, LIMIT)
        .await
        .expect("worker");
    let focus_js = "chrome.windows.getLastFocused().then(w => w.id + '/' + w.focused)";
    let focused_before = eventually(LIMIT, || async {
        dt.evaluate_in_target(&worker.id, focus_js).await.ok()
    })
    .await
    .expect("the user's window");
    let url = FixtureServer::shared().url("/frames/top.html");
    let opened = eventually(LIMIT, || async {
        client.call("open_tab", json!({"url": url})).await.ok()
    })
    .await
    .expect("open_tab in the headed browser");
    let tab = opened["tabId"].as_i64().expect("tabId");
    let window = opened["windowId"].as_i64().expect("windowId");
    let state_js = format!("chrome.windows.get({window}).then(w => w.state + '/' + w.focused)");
    let state = || async { dt.evaluate_in_target(&worker.id, &state_js).await.ok() };
    assert_eq!(state().await, Some(json!("minimized/false")));

    let extract = eventually(LIMIT, || async {
        let r = client.call("extract", json!({"tabId": tab})).await.ok()?;
        r["markdown"]
            .as_str()?
            .contains("Leaf level text")
            .then_some(r)
    })
    .await
    .expect("extract reads the innermost frame");
    let port = FixtureServer::shared().port();
    for (level, host) in [
        ("Top", "127.0.0.1"),
        ("Middle", "127.0.0.2"),
        ("Leaf", "localhost"),
    ] {
        let name = format!("{level} button");
        let uid = extract["elements"]
            .as_array()
            .and_then(|els| {
                els.iter()
                    .find(|e| e["role"] == "button" && e["name"] == name.as_str())
            })
            .and_then(|e| e["uid"].as_str())
            .unwrap_or_else(|| panic!("no button {name:?} in {:#}", extract["elements"]))
            .to_owned();
        client
            .call("click", json!({"tabId": tab, "uid": uid}))
            .await
            .unwrap_or_else(|e| panic!("click {name:?} in the minimized window: {e}"));
        // Read the frame's own page: `evaluate` runs in the frame of the uid (the page itself for Top).
        let mut read = json!({
            "tabId": tab,
            "expression": "return [window.clicks || 0, document.getElementById('b').textContent, \
                           location.host, document.visibilityState]",
        });
        if level != "Top" {
            read["frame"] = json!(uid);
        }
        let got = client
            .call("evaluate", read)
            .await
            .unwrap_or_else(|e| panic!("evaluate in the {level} frame: {e}"))["value"]
            .clone();
        note(&format!("headed {level} frame after the click: {got}"));
        assert_eq!(
            got[0],
            json!(1),
            "{level}: the click was reported done: {got}"
        );
        assert_eq!(got[1], json!(format!("{level} button clicked")), "{got}");
        assert_eq!(
            state().await,
            Some(json!("minimized/false")),
            "{level}: the agent window is minimized after the click"
        );
        assert_eq!(
            got[2],
            json!(format!("{host}:{port}")),
            "{level}: its own site"
        );
    }
    let focused_after = dt
        .evaluate_in_target(&worker.id, focus_js)
        .await
        .expect("focus");
    assert_eq!(
        focused_after, focused_before,
        "the user's window kept the focus throughout"
    );
    drop(headed);
}
