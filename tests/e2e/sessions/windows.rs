//! The agent window (SPEC §6; `src/windows.rs`): one minimized window per agent that never takes the focus,
//! `open_tab {focus}`, and the same headed under Xvfb (a Chromium and an X server each, [`HEADED`]).

use super::*;

use bua_bridge::devtools::TargetInfo;

#[tokio::test]
async fn open_tab_uses_one_minimized_agent_window_that_never_takes_focus_and_closes_with_its_last_tab(
) {
    // Exclusive: it compares the browser's last-focused window before and after, and every test beside it
    // that opens a user tab or an agent window can change which window that is.
    let (_exclusive, ref browser, dt, client) = exclusive().await;
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

/// `{title, color, windowId}` of the tab group `tab` is in, or null when it is in none.
async fn group_of(browser: &SharedBrowser, dt: &DevTools, tab: i64) -> Value {
    browser
        .eval_in_worker(
            dt,
            &format!(
                "chrome.tabs.get({tab}).then(t => t.groupId < 0 ? null : chrome.tabGroups.get(t.groupId)\
                 .then(g => ({{id: g.id, title: g.title, color: g.color, windowId: g.windowId}})))"
            ),
        )
        .await
}

/// `open_tab` of a `groups.localhost` page for `client`; the tab id.
async fn open_in_group(client: &BridgeClient, tag: &str) -> i64 {
    let url = page_url("groups", tag);
    client
        .call("open_tab", json!({ "url": url }))
        .await
        .expect("open_tab")["tabId"]
        .as_i64()
        .expect("tabId")
}

/// How many tab groups are titled `title`.
async fn groups_titled(browser: &SharedBrowser, dt: &DevTools, title: &str) -> usize {
    let n = browser
        .eval_in_worker(
            dt,
            &format!("chrome.tabGroups.query({{title: {title:?}}}).then(gs => gs.length)"),
        )
        .await;
    n.as_u64().unwrap_or(u64::MAX) as usize
}

#[tokio::test]
async fn each_agents_tabs_sit_in_one_group_named_for_it_which_goes_with_its_tabs() {
    let (_shared, ref browser, dt, a) = shared().await;
    let b = browser.client().await;
    let (a1, a2) = (open_in_group(&a, "a1").await, open_in_group(&a, "a2").await);
    let b1 = open_in_group(&b, "b1").await;
    let (ga1, ga2, gb1) = (
        group_of(browser, &dt, a1).await,
        group_of(browser, &dt, a2).await,
        group_of(browser, &dt, b1).await,
    );
    // Each agent's tabs: one group in its agent window, titled with its owner name.
    assert_eq!(ga1, ga2, "one group for A's tabs");
    assert_eq!(ga1["title"], a.client_id(), "{ga1}");
    assert_eq!(gb1["title"], b.client_id(), "{gb1}");
    assert_ne!(ga1["id"], gb1["id"]);
    assert_ne!(
        ga1["color"], gb1["color"],
        "one colour per agent: {ga1} {gb1}"
    );
    assert_ne!(
        ga1["windowId"], gb1["windowId"],
        "each in its own agent window"
    );
    assert_eq!(groups_titled(browser, &dt, a.client_id()).await, 1);

    // A's group goes with A's tabs; B's stays.
    let closed = a.call("close_agent_tabs", json!({})).await.expect("close");
    assert_eq!(closed["closed"], json!([a1, a2]), "{closed}");
    let gone = eventually(LIMIT, || async {
        (groups_titled(browser, &dt, a.client_id()).await == 0).then_some(())
    })
    .await;
    assert!(gone.is_some(), "A's group outlived its tabs");
    assert_eq!(group_of(browser, &dt, b1).await, gb1);
    b.call("close_agent_tabs", json!({}))
        .await
        .expect("close B");
    let gone = eventually(LIMIT, || async {
        (groups_titled(browser, &dt, b.client_id()).await == 0).then_some(())
    })
    .await;
    assert!(gone.is_some(), "B's group outlived its tabs");
}

#[tokio::test]
async fn open_tab_with_focus_opens_in_the_users_window() {
    // Exclusive: it focuses a window and asserts its tab is the active one there; a user tab another test
    // opened meanwhile would change both.
    let (_exclusive, ref browser, dt, client) = exclusive().await;
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
async fn navigate_without_a_tab_and_without_any_session_opens_an_agent_tab() {
    let (_exclusive, ref browser, dt, client) = exclusive().await;
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

/// A [`Headed`] browser with a bridge client, a DevTools connection and the extension's worker target;
/// `None` (noted: the headed `check` was skipped) when Xvfb is not installed.
async fn connect_headed(check: &str) -> Option<(Headed, BridgeClient, DevTools, TargetInfo)> {
    let Some(headed) = tokio::task::spawn_blocking(Headed::start)
        .await
        .expect("join")
    else {
        note(&format!(
            "Xvfb not installed: the headed {check} check was skipped"
        ));
        return None;
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
    Some((headed, client, dt, worker))
}

/// `open_tab` of `url` in the headed browser, retried until its extension answers: the tab and its window.
async fn open_headed_tab(client: &BridgeClient, url: &str) -> (i64, i64) {
    let opened = eventually(LIMIT, || async {
        client.call("open_tab", json!({ "url": url })).await.ok()
    })
    .await
    .expect("open_tab in the headed browser");
    let tab = opened["tabId"].as_i64().expect("tabId");
    (tab, opened["windowId"].as_i64().expect("windowId"))
}

/// `<windowId>/<focused>` of the user's window (`chrome.windows.getLastFocused`), read in the worker.
const FOCUS_JS: &str = "chrome.windows.getLastFocused().then(w => w.id + '/' + w.focused)";

/// The user's window still has the focus it had (`before`, [`FOCUS_JS`]).
async fn assert_focus_kept(dt: &DevTools, worker: &TargetInfo, before: &Value) {
    let after = dt
        .evaluate_in_target(&worker.id, FOCUS_JS)
        .await
        .expect("focus");
    assert_eq!(
        &after, before,
        "the user's window kept the focus throughout"
    );
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
    let Some((headed, client, dt, worker)) = connect_headed("agent-window").await else {
        return;
    };
    let focused_before = eventually(LIMIT, || async {
        dt.evaluate_in_target(&worker.id, FOCUS_JS).await.ok()
    })
    .await
    .expect("the user's window");
    let (tab, window) = open_headed_tab(&client, &page_url("headed", "x")).await;
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
    assert_focus_kept(&dt, &worker, &focused_before).await;
    let click = client
        .call("click", json!({"tabId": tab, "selector": "#next"}))
        .await
        .expect("click in the minimized window");
    assert_eq!(click["clicked"]["tag"], "a", "{click}");
    drop(headed);
}

/// SPEC §4 `handoff`, headed: the minimized agent window is restored and focused for the person, the handoff
/// returns by itself when the sign-in leads to the account page, and the window is minimized again.
#[tokio::test]
async fn headed_under_xvfb_a_handoff_shows_the_minimized_agent_window_and_minimizes_it_again() {
    let _one = HEADED.lock().await;
    let Some((_headed, client, dt, worker)) = connect_headed("handoff").await else {
        return;
    };
    let login = format!(
        "http://headed-signin.localhost:{}/handoff/login.html",
        support::FixtureServer::shared().port()
    );
    let (tab, window) = open_headed_tab(&client, &login).await;
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
    assert_handoff_ended(&result, true, "page", "Your account · Example Shop");
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
    let Some((headed, client, dt, worker)) = connect_headed("cross-origin frames").await else {
        return;
    };
    support::second_site();
    let focused_before = eventually(LIMIT, || async {
        dt.evaluate_in_target(&worker.id, FOCUS_JS).await.ok()
    })
    .await
    .expect("the user's window");
    let url = FixtureServer::shared().url("/frames/top.html");
    let (tab, window) = open_headed_tab(&client, &url).await;
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
    assert_focus_kept(&dt, &worker, &focused_before).await;
    drop(headed);
}
