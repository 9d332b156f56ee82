//! The blocklist (SPEC §6; `src/blocklist.rs`): a blocked domain is refused, and ends the sessions on it.

use super::*;

#[tokio::test]
async fn an_action_on_a_blocked_domain_is_refused_with_an_event_and_no_session() {
    let (_shared, ref browser, dt, client) = shared().await;
    let mut events = Events::subscribe(&client).await;
    let added = blocklist_cmd(browser, &dt, "add_blocked", "HTTPS://Refused.localhost:1/x").await;
    assert!(
        added["blocklist"]
            .as_array()
            .is_some_and(|l| l.contains(&json!("refused.localhost"))),
        "normalised on the way in: {added}"
    );
    let invalid = blocklist_cmd(browser, &dt, "add_blocked", "not a domain").await;
    assert_eq!(invalid["error"]["code"], "invalid_action", "{invalid}");

    let url = page_url("sub.refused", "blocked");
    let (target, tab) = open_user_tab(&dt, &client, &url).await;
    let message = failure(act(&client, tab).await, ErrorCode::DomainBlocked);
    assert!(message.contains("refused.localhost"), "{message}");
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
    failure(
        client
            .call("open_tab", json!({"url": page_url("refused", "open")}))
            .await,
        ErrorCode::DomainBlocked,
    );
    let (ok_target, ok_tab) = open_user_tab(&dt, &client, &page_url("allowed", "nav")).await;
    failure(
        client
            .call(
                "navigate",
                json!({"tabId": ok_tab, "url": page_url("refused", "nav")}),
            )
            .await,
        ErrorCode::DomainBlocked,
    );

    events
        .assert_count(
            Duration::from_millis(300),
            0,
            "no session for refused actions",
            |e| e["type"] == "session_started" && (e["tabId"] == tab || e["tabId"] == ok_tab),
        )
        .await;
    assert!(session_of(browser, &dt, tab).await.is_none());
    let refused_open = page_url("refused", "open");
    let opened = get_tabs(&client)
        .await
        .expect("tabs")
        .into_iter()
        .any(|t| t["url"] == refused_open.as_str() || t["title"] == refused_open.as_str());
    assert!(!opened, "open_tab opened nothing");
    events
        .assert_count(Duration::ZERO, 3, "one event per refusal", |e| {
            e["type"] == "domain_blocked" && e["domain"] == "refused.localhost"
        })
        .await;

    blocklist_cmd(browser, &dt, "remove_blocked", "refused.localhost").await;
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
    let (_exclusive, ref browser, dt, client) = exclusive().await;
    let mut events = Events::subscribe(&client).await;
    let (t1, victim) = open_user_tab(&dt, &client, &page_url("victim", "1")).await;
    let (t2, sub) = open_user_tab(&dt, &client, &page_url("www.victim", "2")).await;
    let (t3, bystander) = open_user_tab(&dt, &client, &page_url("notvictim", "3")).await;
    let agent = open_agent_tab(&client, "victim", "agent").await;
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
    events
        .assert_count(
            Duration::from_millis(300),
            0,
            "notvictim.localhost is not victim.localhost",
            |e| event_is(e, "session_ended", bystander),
        )
        .await;
    assert!(session_of(browser, &dt, bystander).await.is_some());
    let entries = history(browser, &dt).await;
    assert!(
        entries.iter().any(|h| h["event"] == "end"
            && h["tabId"] == victim
            && h["reason"] == "domain_blocked"),
        "the audit log has the END"
    );

    blocklist_cmd(browser, &dt, "remove_blocked", "victim.localhost").await;
    for t in [t1, t2, t3] {
        dt.close_target(&t).await.expect("close");
    }
}

#[tokio::test]
async fn a_session_tab_redirected_onto_a_blocked_host_is_ended() {
    let (_shared, ref browser, dt, client) = shared().await;
    let fixtures = FixtureServer::shared();
    let mut events = Events::subscribe(&client).await;
    let blocked_target = page_url("redirect-target", "landed");
    fixtures.route(
        "/sessions/redirect-to-blocked",
        Route::Redirect {
            status: 302,
            location: blocked_target.clone(),
        },
    );
    blocklist_cmd(browser, &dt, "add_blocked", "redirect-target.localhost").await;
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
    failure(act(&client, tab).await, ErrorCode::DomainBlocked);
    assert!(session_of(browser, &dt, tab).await.is_none());
    blocklist_cmd(browser, &dt, "remove_blocked", "redirect-target.localhost").await;
    dt.close_target(&target).await.expect("close");
}

#[tokio::test]
async fn clicking_a_link_onto_a_blocked_domain_is_domain_blocked_naming_it() {
    let (_shared, ref browser, dt, client) = shared().await;
    let mut events = Events::subscribe(&client).await;
    blocklist_cmd(browser, &dt, "add_blocked", "link-blocked.localhost").await;
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
    let message = failure(
        client
            .call("click", json!({"tabId": tab, "selector": "#go"}))
            .await,
        ErrorCode::DomainBlocked,
    );
    assert!(message.contains("link-blocked.localhost"), "{message}");
    let end = events
        .wait(LIMIT, |e| ended(e, tab, "domain_blocked"))
        .await;
    assert_eq!(end["domain"], "link-from.localhost", "{end}");
    events
        .assert_count(
            Duration::from_millis(300),
            1,
            "one domain_blocked event",
            |e| e["type"] == "domain_blocked" && e["tabId"] == tab,
        )
        .await;
    // The agent's own tab was closed with its session; naming it again says why.
    let message = failure(act(&client, tab).await, ErrorCode::TabNotFound);
    assert!(message.contains("link-blocked.localhost"), "{message}");
    blocklist_cmd(browser, &dt, "remove_blocked", "link-blocked.localhost").await;
}
