//! The service worker stopped or restarted mid-session (SPEC §6): what survives and what ends.

use super::*;

#[tokio::test]
async fn after_the_service_worker_is_stopped_mid_session_the_session_continues_on_the_same_tab() {
    let (_exclusive, ref browser, dt, client) = exclusive().await;
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

/// A reloaded (or updated) extension starts with an empty `chrome.storage.session` while `activeSessions`
/// survives in `chrome.storage.local`. `chrome.runtime.reload()` itself cannot be used here: Chromium disables
/// a command-line-loaded extension on reload (`unsupportedDeveloperExtension`). So the test recreates exactly
/// what the new instance finds: it clears `storage.session` and restarts the worker.
#[tokio::test]
async fn a_worker_start_after_an_extension_reload_ends_untrusted_sessions_and_vanished_tabs() {
    let (_exclusive, ref browser, dt, client) = exclusive().await;
    let mut events = Events::subscribe(&client).await;
    worker_ui(browser, &dt, json!({"cmd": "stop_all"})).await;
    let (target, user) = open_user_tab(&dt, &client, &page_url("reload", "x")).await;
    act(&client, user).await.expect("action");
    let agent = open_agent_tab(&client, "reload-agent", "x").await;
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

/// Actions in flight when the worker stops (SPEC §9): one that only reads may be sent again; one that may
/// have happened says its outcome is unknown, so an agent looks before it clicks twice or opens a second tab.
#[tokio::test]
async fn actions_in_flight_when_the_worker_stops_say_whether_to_send_them_again() {
    let (_exclusive, ref browser, dt, client) = exclusive().await;
    let (first, tab) = open_user_tab(&dt, &client, &page_url("inflight", "a")).await;
    let (second, other) = open_user_tab(&dt, &client, &page_url("inflight", "b")).await;
    act(&client, tab)
        .await
        .expect("a first action starts the session");
    act(&client, other)
        .await
        .expect("a first action starts the session");
    // An evaluate that is still running, and a wait_for that can only time out.
    let writing = evaluate(
        &client,
        tab,
        "document.title = 'ran'; return new Promise(r => setTimeout(() => r(1), 8000))",
    );
    let reading = client.call(
        "wait_for",
        json!({"tabId": other, "textContains": "never on this page", "timeoutMs": 8000}),
    );
    let stop = async {
        // Both requests reach the extension before its worker is stopped.
        tokio::time::sleep(Duration::from_millis(700)).await;
        browser.stop_service_worker(&dt, &client).await
    };
    let (wrote, read, _) = tokio::join!(writing, reading, stop);

    let wrote = wrote.expect_err("the evaluate got no answer");
    assert_eq!(wrote.code(), ErrorCode::NoExtension, "{wrote}");
    let message = wrote.to_string();
    assert!(
        message.contains("whether evaluate happened is unknown")
            && message.contains("before doing it again"),
        "{message}"
    );
    assert!(!message.contains("send the action again"), "{message}");
    let read = read.expect_err("the wait_for got no answer");
    assert_eq!(read.code(), ErrorCode::NoExtension, "{read}");
    assert!(read.to_string().contains("send the action again"), "{read}");

    // It did happen: the page says so once the worker is back (a browser event wakes it).
    let (waker, _) = open_user_tab(&dt, &client, &page_url("inflight-waker", "x")).await;
    let title = eventually(Duration::from_secs(15), || async {
        evaluate(&client, tab, "return document.title").await.ok()
    })
    .await
    .expect("the tab answers after the restart");
    assert_eq!(title["value"], "ran");
    dt.close_target(&first).await.expect("close");
    dt.close_target(&second).await.expect("close");
    dt.close_target(&waker).await.expect("close");
}

/// A dialog that opened while the extension was not attached to the tab (its worker stopped, or before the
/// first action): the debugger cannot answer it, and the Page domain waits for it. An action says so at once
/// instead of a CDP timeout, and `navigate` (which closes such a dialog) gets the tab back.
#[tokio::test]
async fn a_dialog_left_open_before_the_attach_is_named_and_navigate_frees_the_tab() {
    let (_shared, _browser, dt, client) = shared().await;
    let (target, tab) = open_user_tab(&dt, &client, &page_url("held", "x")).await;
    // Another debugger client makes the page alert while ours is not attached.
    dt.evaluate_in_target(&target, "setTimeout(() => alert('left open'), 100); 1")
        .await
        .expect("evaluate");
    tokio::time::sleep(Duration::from_millis(500)).await;

    let started = Instant::now();
    let read = client.call("extract", json!({"tabId": tab})).await;
    let error = read.expect_err("the page is held by the dialog");
    assert_eq!(error.code(), ErrorCode::ElementObstructed, "{error}");
    assert!(
        error
            .to_string()
            .contains("does not answer: a JavaScript dialog"),
        "{error}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "answered after {:?}",
        started.elapsed()
    );

    let url = page_url("held", "after");
    let nav = client
        .call("navigate", json!({"tabId": tab, "url": url}))
        .await
        .expect("navigate closes the dialog");
    assert_eq!(nav["url"], url);
    let title = act(&client, tab).await.expect("the tab works again");
    assert_eq!(title["value"], "BUA sessions fixture");
    dt.close_target(&target).await.expect("close");
}
