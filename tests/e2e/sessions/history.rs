//! The audit log (SPEC §6; `src/session/history.rs`): a ring of the newest 1000 entries.

use super::*;

#[tokio::test]
async fn a_thousand_start_end_cycles_leave_exactly_the_newest_thousand_history_entries() {
    let (_exclusive, ref browser, dt, client) = exclusive().await;
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
