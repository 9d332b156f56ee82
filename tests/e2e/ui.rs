//! End-to-end tests of the popup and the options page (SPEC §10) in real headless Chromium with the
//! built extension and the real `bua-bridge launch`.
//!
//! The pages are opened as tabs (`chrome-extension://<id>/popup/popup.html`, `…/options/options.html`) and
//! driven like a user would: real mouse clicks and key presses through DevTools `Input.*`, text through
//! `Input.insertText`. Sessions are made through the bridge's client API on `<name>.localhost` hosts (Chromium
//! resolves them to the loopback fixture server) and on `example.test`, which the test serves itself through
//! DevTools `Fetch` interception (no DNS, no network).
//!
//! Every test has its own browser: Stop all and the blocklist act on every session of a browser.
//! Screenshots go to `target/ui-screenshots/`; with `BUA_UPDATE_DOCS=1` also to `docs/popup.png` and
//! `docs/options.png` (the README shows those).

use crate::support;

use std::time::{Duration, Instant};

use base64::Engine;
use bua_bridge::devtools::{js_string, DevTools};
use bua_bridge::server::{self, ServerConfig};
use bua_bridge::BridgeClient;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};
use support::{
    ended, evaluate, eventually, failure, get_tabs, note, open_user_tab, worker_ui, Browser,
    BrowserOptions, Events, FixtureServer, LIMIT,
};
use tokio::sync::broadcast;

/// `http://<host>.localhost:<port>/ui/page.html?<tag>`.
fn site(host: &str, tag: &str) -> String {
    format!(
        "http://{host}.localhost:{}/ui/page.html?{tag}",
        FixtureServer::shared().port()
    )
}

fn popup_url(browser: &Browser) -> String {
    format!(
        "chrome-extension://{}/popup/popup.html",
        browser.extension_id
    )
}

fn options_url(browser: &Browser) -> String {
    format!(
        "chrome-extension://{}/options/options.html",
        browser.extension_id
    )
}

// ---------------------------------------------------------------------------------------------
// Tabs and sessions

/// One page action through the whole pipeline (starts the tab's session if none).
async fn act(client: &BridgeClient, tab_id: i64) -> Result<Value, bua_bridge::Error> {
    evaluate(client, tab_id, "return location.hostname").await
}

/// Opens `url` as the user would (a DevTools page target) and starts a session on it with `actions` actions.
async fn user_session(
    dt: &DevTools,
    client: &BridgeClient,
    url: &str,
    actions: u32,
) -> (String, i64) {
    let (target, tab) = open_user_tab(dt, client, url).await;
    for _ in 0..actions {
        act(client, tab).await.expect("evaluate on the user tab");
    }
    (target, tab)
}

/// `open_tab` (an agent tab in the agent window) plus `actions - 1` more actions.
async fn agent_session(client: &BridgeClient, url: &str, actions: u32) -> i64 {
    let opened = client
        .call("open_tab", json!({"url": url}))
        .await
        .expect("open_tab");
    let tab = opened["tabId"].as_i64().expect("tabId");
    for _ in 1..actions {
        act(client, tab).await.expect("evaluate on the agent tab");
    }
    tab
}

/// Serves `http://example.test/*` from the test through DevTools `Fetch` on the browser target (every tab's
/// requests), so Chromium never looks the name up. The returned task answers paused requests until aborted.
async fn serve_example_test(browser: &Browser) -> tokio::task::JoinHandle<()> {
    let dt = browser.devtools().await;
    let mut events = dt.events();
    dt.send(
        "Fetch.enable",
        json!({"patterns": [{"urlPattern": "http://example.test/*", "requestStage": "Request"}]}),
        None,
    )
    .await
    .expect("Fetch.enable on the browser target");
    tokio::spawn(async move {
        loop {
            let event = match events.recv().await {
                Ok(e) => e,
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return,
            };
            if event.method != "Fetch.requestPaused" {
                continue;
            }
            let html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>example.test</title></head>\
                        <body><h1>example.test</h1><p>Served by the UI test through DevTools Fetch.</p></body></html>";
            let _ = dt
                .send(
                    "Fetch.fulfillRequest",
                    json!({"requestId": event.params["requestId"], "responseCode": 200,
                           "responseHeaders": [{"name": "Content-Type", "value": "text/html; charset=utf-8"}],
                           "body": base64::engine::general_purpose::STANDARD.encode(html)}),
                    event.session_id.as_deref(),
                )
                .await;
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Driving a page like a user

/// An extension page opened as a tab, attached through DevTools.
struct Page<'a> {
    dt: &'a DevTools,
    target: String,
    session: String,
    /// Viewport in CSS px.
    width: u32,
    height: u32,
}

impl<'a> Page<'a> {
    /// Opens `url` in a `width`×`height` viewport and waits until the page's Rust has rendered (`#app` is no
    /// longer `aria-busy`).
    async fn open(dt: &'a DevTools, url: &str, width: u32, height: u32) -> Page<'a> {
        // In a window of its own: a tab Chrome opens in the focused window may be the agent window's (after
        // Show), and a tab opened from an agent tab joins that agent (SPEC §4 `openedTab`).
        let target = support::open_page_in_own_window(dt, "about:blank").await;
        Page::attach(dt, target, Some(url), width, height).await
    }

    /// Attaches to an open page target (navigating it to `url` first if given) and waits for the page.
    async fn attach(
        dt: &'a DevTools,
        target: String,
        url: Option<&str>,
        width: u32,
        height: u32,
    ) -> Page<'a> {
        let session = dt.attach(&target).await.expect("attach");
        let page = Page {
            dt,
            target,
            session,
            width,
            height,
        };
        page.viewport(height).await;
        // Headless tabs are never "focused"; keyboard focus and :focus-visible need it.
        page.cdp(
            "Emulation.setFocusEmulationEnabled",
            json!({"enabled": true}),
        )
        .await;
        page.cdp("Page.enable", json!({})).await;
        if let Some(url) = url {
            page.cdp("Page.navigate", json!({"url": url})).await;
        }
        page.wait_until(
            "document.readyState === 'complete' && !!document.getElementById('app') \
             && !document.getElementById('app').hasAttribute('aria-busy')",
        )
        .await;
        page
    }

    async fn cdp(&self, method: &str, params: Value) -> Value {
        self.dt
            .send(method, params, Some(&self.session))
            .await
            .unwrap_or_else(|e| panic!("{method} failed: {e}"))
    }

    async fn eval(&self, js: &str) -> Value {
        self.dt
            .evaluate(&self.session, js)
            .await
            .unwrap_or_else(|e| panic!("evaluate `{js}` failed: {e}"))
    }

    /// Polls `js` until it is truthy (returns its value) or [`LIMIT`] passes (panics with the page's text).
    async fn wait_until(&self, js: &str) -> Value {
        let found = eventually(LIMIT, || async {
            let v = self.dt.evaluate(&self.session, js).await.ok()?;
            let truthy = !(v.is_null()
                || v == json!(false)
                || v == json!(0)
                || v == json!("")
                || v == json!([]));
            truthy.then_some(v)
        })
        .await;
        match found {
            Some(v) => v,
            None => {
                let text = self
                    .dt
                    .evaluate(
                        &self.session,
                        "document.body ? document.body.innerText : ''",
                    )
                    .await
                    .unwrap_or_default();
                panic!(
                    "`{js}` never held; the page reads:\n{}",
                    text.as_str().unwrap_or("")
                )
            }
        }
    }

    /// The trimmed text of the first element matching `selector` ("" when none).
    async fn text(&self, selector: &str) -> String {
        let js = format!(
            "(document.querySelector({s}) || {{textContent: ''}}).textContent.trim()",
            s = js_string(selector)
        );
        self.eval(&js)
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// A real click (mouse moved, pressed, released) at the centre of the element matching `selector`.
    async fn click(&self, selector: &str) {
        let js = format!(
            "(() => {{ const e = document.querySelector({s}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            s = js_string(selector)
        );
        let point = self.eval(&js).await;
        let (x, y) = match (point[0].as_f64(), point[1].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => panic!("nothing to click at {selector}"),
        };
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.cdp(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )
            .await;
        }
    }

    /// Clicks into the field, selects its text and types `text` over it.
    async fn type_into(&self, selector: &str, text: &str) {
        self.click(selector).await;
        self.eval(&format!(
            "document.querySelector({}).select()",
            js_string(selector)
        ))
        .await;
        self.cdp("Input.insertText", json!({"text": text})).await;
    }

    /// Presses and releases a key: `Tab`, `Shift+Tab`, `Enter`, `Escape` or `Space`.
    async fn key(&self, key: &str) {
        let (key, code, vk, text, modifiers) = match key {
            "Tab" => ("Tab", "Tab", 9, "", 0),
            "Shift+Tab" => ("Tab", "Tab", 9, "", 8),
            "Enter" => ("Enter", "Enter", 13, "\r", 0),
            "Escape" => ("Escape", "Escape", 27, "", 0),
            "Space" => (" ", "Space", 32, " ", 0),
            other => panic!("no key {other}"),
        };
        let mut down = json!({"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk,
                              "nativeVirtualKeyCode": vk, "modifiers": modifiers});
        if text.is_empty() {
            down["type"] = json!("rawKeyDown");
        } else {
            down["text"] = json!(text);
            down["unmodifiedText"] = json!(text);
        }
        self.cdp("Input.dispatchKeyEvent", down).await;
        self.cdp(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk,
                   "nativeVirtualKeyCode": vk, "modifiers": modifiers}),
        )
        .await;
    }

    /// The cumulative layout shift since the page loaded (sum of `layout-shift` entries without recent input).
    async fn layout_shift(&self) -> f64 {
        self.eval(
            "new Promise(done => { \
               new PerformanceObserver(list => done(list.getEntries().filter(e => !e.hadRecentInput) \
                 .reduce((sum, e) => sum + e.value, 0))).observe({type: 'layout-shift', buffered: true}); \
               setTimeout(() => done(0), 500); })",
        )
        .await
        .as_f64()
        .unwrap_or(f64::NAN)
    }

    /// `id` (or tag) of the focused element.
    async fn focused(&self) -> String {
        self.eval("(() => { const a = document.activeElement; return a ? (a.id || a.tagName.toLowerCase()) : ''; })()")
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Puts the keyboard at the top of the page (a click on the page title, which is not focusable), as when
    /// the page has just opened.
    async fn focus_top(&self) {
        self.eval("document.activeElement && document.activeElement.blur()")
            .await;
        self.click("h1").await;
    }

    /// Moves the mouse off every control (no hover styles in screenshots).
    async fn mouse_away(&self) {
        self.cdp(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": 1, "y": 1}),
        )
        .await;
    }

    /// Presses Tab until the element with id `id` has the focus; returns the ids passed on the way.
    async fn tab_to(&self, id: &str) -> Vec<String> {
        let mut path = Vec::new();
        for _ in 0..40 {
            self.key("Tab").await;
            let now = self.focused().await;
            path.push(now.clone());
            if now == id {
                return path;
            }
        }
        panic!("Tab never reached #{id}; focus went through {path:?}");
    }

    /// The interactive AX nodes (role, name) and those of them without a name.
    async fn ax_controls(&self) -> (Vec<(String, String)>, Vec<String>) {
        const CONTROLS: [&str; 14] = [
            "button",
            "link",
            "textbox",
            "searchbox",
            "checkbox",
            "radio",
            "combobox",
            "listbox",
            "spinbutton",
            "slider",
            "switch",
            "menuitem",
            "tab",
            "dialog",
        ];
        let tree = self.cdp("Accessibility.getFullAXTree", json!({})).await;
        let mut controls = Vec::new();
        let mut unnamed = Vec::new();
        for node in tree["nodes"].as_array().cloned().unwrap_or_default() {
            if node["ignored"] == true {
                continue;
            }
            let role = node["role"]["value"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            if !CONTROLS.contains(&role.as_str()) {
                continue;
            }
            let name = node["name"]["value"]
                .as_str()
                .unwrap_or_default()
                .trim()
                .to_string();
            if name.is_empty() {
                unnamed.push(format!(
                    "{role} (backend node {})",
                    node["backendDOMNodeId"]
                ));
            }
            controls.push((role, name));
        }
        (controls, unnamed)
    }

    /// The options page's connection result once it says `Refused…` (after Save and test).
    async fn refused_line(&self) -> Value {
        self.wait_until(
            "(t => t.startsWith('Refused') && t)(document.getElementById('conn-result').textContent)",
        )
        .await
    }

    /// The interactive AX nodes (role, name), none of them without a name and `expected` among the names.
    async fn named_controls(&self, expected: &[&str]) -> Vec<(String, String)> {
        let (controls, unnamed) = self.ax_controls().await;
        assert!(
            unnamed.is_empty(),
            "controls without a name: {unnamed:?} of {controls:?}"
        );
        let names: Vec<&str> = controls.iter().map(|(_, n)| n.as_str()).collect();
        for expected in expected {
            assert!(
                names.contains(expected),
                "no control named {expected:?}: {names:?}"
            );
        }
        controls
    }

    async fn viewport(&self, height: u32) {
        self.cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": self.width, "height": height, "deviceScaleFactor": 2, "mobile": false}),
        )
        .await;
    }

    /// A PNG of the whole page (2× device pixels, the viewport grown to the page so no scrollbar shows) written
    /// to `target/ui-screenshots/<name>` and, for a `docs` shot with `BUA_UPDATE_DOCS=1`, to `docs/<name>`; a
    /// dark-scheme twin goes to `target/ui-screenshots/<stem>-dark.png`. Returns the page size in CSS px.
    async fn screenshot(&self, name: &str, docs: bool) -> (f64, f64) {
        // A background tab paints no frames, and a capture waits for one.
        self.cdp("Page.bringToFront", json!({})).await;
        self.mouse_away().await;
        let height = self
            .eval("Math.ceil(document.body.getBoundingClientRect().height)")
            .await
            .as_f64()
            .unwrap_or(600.0);
        self.viewport(height as u32).await;
        let root = support::repo_root();
        let shots = root.join("target").join("ui-screenshots");
        std::fs::create_dir_all(&shots).expect("screenshot dir");
        let png = self.capture(height).await;
        std::fs::write(shots.join(name), &png).expect("write screenshot");
        if docs && std::env::var_os("BUA_UPDATE_DOCS").is_some() {
            std::fs::write(root.join("docs").join(name), &png).expect("write docs screenshot");
        }
        note(&format!(
            "screenshot {name}: {}×{height} CSS px, {} bytes",
            self.width,
            png.len()
        ));
        let dark = [json!({"name": "prefers-color-scheme", "value": "dark"})];
        self.cdp("Emulation.setEmulatedMedia", json!({"features": dark}))
            .await;
        let png = self.capture(height).await;
        let stem = name.trim_end_matches(".png");
        std::fs::write(shots.join(format!("{stem}-dark.png")), &png).expect("write screenshot");
        self.cdp("Emulation.setEmulatedMedia", json!({"features": []}))
            .await;
        self.viewport(self.height).await;
        (f64::from(self.width), height)
    }

    async fn capture(&self, height: f64) -> Vec<u8> {
        // Let the last live update paint and the focus ring settle.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let shot = self
            .cdp(
                "Page.captureScreenshot",
                json!({"format": "png",
                       "clip": {"x": 0, "y": 0, "width": self.width, "height": height, "scale": 1}}),
            )
            .await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or_default())
            .expect("PNG base64");
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        png
    }

    async fn close(self) {
        self.dt.detach(&self.session).await;
        let _ = self.dt.close_target(&self.target).await;
    }
}

// ---------------------------------------------------------------------------------------------
// Popup

/// The popup, open while sessions start: they appear live; one Stop ends only its tab's session
/// (`user_stopped`); Show restores the agent window; Stop all, reached and pressed with the keyboard only, ends
/// every session (`global_stop` first, as the bridge sees it). Screenshot with two sessions; no unnamed control.
#[tokio::test]
async fn popup_stops_one_session_then_all_with_the_keyboard() {
    let browser = Browser::launch(BrowserOptions::default());
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;

    let popup = Page::open(&dt, &popup_url(&browser), 360, 560).await;
    popup
        .wait_until("document.getElementById('conn-title').textContent === 'Connected'")
        .await;
    assert_eq!(popup.text("#conn-detail").await, browser.bridge_url());
    assert_eq!(popup.text("#session-count").await, "0");
    assert!(
        popup
            .eval("!document.getElementById('no-sessions').hidden")
            .await
            == json!(true),
        "the empty state shows"
    );

    // Three sessions start while the popup is open.
    let shop = agent_session(&client, &site("shop", "agent"), 3).await;
    let (_docs_target, docs) = user_session(&dt, &client, &site("docs", "user"), 2).await;
    let (_mail_target, mail) = user_session(&dt, &client, &site("mail", "user"), 1).await;
    popup
        .wait_until("document.querySelectorAll('#session-list li').length === 3")
        .await;
    assert_eq!(popup.text("#session-count").await, "3");
    let row = |tab: i64, part: &str| format!("li[data-tab=\"{tab}\"] {part}");
    assert_eq!(popup.text(&row(shop, ".s-domain")).await, "shop.localhost");
    assert_eq!(popup.text(&row(shop, ".badge")).await, "agent");
    assert_eq!(popup.text(&row(docs, ".badge")).await, "user");
    let meta = popup.text(&row(docs, ".s-meta")).await;
    assert!(
        meta.starts_with(&format!("tab {docs} · ")) && meta.ends_with(" · 2 actions"),
        "{meta}"
    );
    assert!(
        popup
            .eval("!document.getElementById('show-agent').disabled")
            .await
            == json!(true),
        "Show is enabled once the agent has a window"
    );

    // Stop on the mail session only.
    popup.click(&row(mail, "button")).await;
    let end = events
        .wait(LIMIT, |e| {
            e["type"] == "session_ended" && e["tabId"] == mail
        })
        .await;
    assert_eq!(end["reason"], "user_stopped", "{end}");
    assert_eq!(end["domain"], "mail.localhost", "{end}");
    popup
        .wait_until("document.querySelectorAll('#session-list li').length === 2")
        .await;
    events
        .assert_count(
            Duration::from_millis(500),
            0,
            "Stop ended other sessions too",
            |e| e["type"] == "session_ended" && (e["tabId"] == shop || e["tabId"] == docs),
        )
        .await;
    let left: Vec<i64> = worker_ui(&browser, &dt, json!({"cmd": "list_sessions"})).await
        ["sessions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|s| s["tabId"].as_i64())
        .collect();
    assert_eq!(left, vec![shop, docs]);

    // Show restores the minimized agent window.
    let agent_state = |tabs: Vec<Value>| {
        tabs.into_iter()
            .find(|t| t["tabId"] == shop)
            .map(|t| t["windowState"].as_str().unwrap_or_default().to_string())
    };
    assert_eq!(
        agent_state(get_tabs(&client).await.expect("tabs")).as_deref(),
        Some("minimized")
    );
    popup.click("#show-agent").await;
    let restored = eventually(LIMIT, || async {
        agent_state(get_tabs(&client).await.ok()?).filter(|s| s != "minimized")
    })
    .await;
    assert_eq!(
        restored.as_deref(),
        Some("normal"),
        "Show restores the agent window"
    );

    // A popup opened now gets its data before its first visible paint: nothing moves.
    let second = Page::open(&dt, &popup_url(&browser), 360, 560).await;
    assert_eq!(
        second
            .eval("document.querySelectorAll('#session-list li').length")
            .await,
        json!(2),
        "{}",
        second
            .eval("document.getElementById('session-list').innerText")
            .await
    );
    let shift = second.layout_shift().await;
    note(&format!(
        "popup layout shift at load with 2 sessions: {shift}"
    ));
    assert!(shift < 0.001, "the popup moved while loading: CLS {shift}");
    second.close().await;

    // Two sessions: the screenshot of the README; and every control has an accessible name.
    popup
        .eval("document.activeElement && document.activeElement.blur()")
        .await;
    let (w, _) = popup.screenshot("popup.png", true).await;
    assert_eq!(w, 360.0);
    popup
        .named_controls(&[
            "Settings",
            "Show agent window",
            "Stop all",
            &format!("Stop the session on shop.localhost (tab {shop})"),
            &format!("Stop the session on docs.localhost (tab {docs})"),
        ])
        .await;

    // Keyboard only: Tab from the top of the page to Stop all, then Enter. No confirmation.
    popup.focus_top().await;
    let path = popup.tab_to("stop-all").await;
    note(&format!("popup Tab order: {path:?}"));
    assert_eq!(
        path.first().map(String::as_str),
        Some("open-options"),
        "{path:?}"
    );
    let stop_buttons = path.iter().filter(|p| p.as_str() == "button").count();
    assert_eq!(
        stop_buttons, 2,
        "each session's Stop is in the Tab order: {path:?}"
    );
    popup.key("Enter").await;
    let stop = events.wait(LIMIT, |e| e["type"] == "global_stop").await;
    assert_eq!(stop["sessionCount"], 2, "{stop}");
    for tab in [shop, docs] {
        events.wait(LIMIT, |e| ended(e, tab, "global_stop")).await;
    }
    // global_stop reaches the bridge before the per-session ends (SPEC §10).
    let order: Vec<&str> = events
        .seen
        .iter()
        .filter(|e| {
            e["type"] == "global_stop"
                || ended(e, shop, "global_stop")
                || ended(e, docs, "global_stop")
        })
        .filter_map(|e| e["type"].as_str())
        .collect();
    assert_eq!(order, ["global_stop", "session_ended", "session_ended"]);
    popup
        .wait_until("!document.getElementById('no-sessions').hidden && document.querySelectorAll('#session-list li').length === 0")
        .await;
    popup
        .wait_until("document.getElementById('status').textContent === 'Stopped 2 sessions'")
        .await;
    assert_eq!(popup.text("#session-count").await, "0");
    assert_eq!(
        popup.focused().await,
        "stop-all",
        "the focus stays on Stop all"
    );
    popup.close().await;
}

// ---------------------------------------------------------------------------------------------
// Options

/// The rows of the audit log table as `[when, event, event class, domain, tab, detail]`.
async fn log_rows(page: &Page<'_>) -> Vec<Vec<String>> {
    let rows = page
        .eval(
            "Array.from(document.querySelectorAll('#log-body tr')).map(tr => [\
               tr.querySelector('.when').textContent, tr.querySelector('.event').textContent,\
               tr.querySelector('.event').className, tr.querySelector('.domain').textContent,\
               tr.querySelector('.tab').textContent, tr.querySelector('.detail').textContent])",
        )
        .await;
    serde_json::from_value(rows).expect("rows")
}

/// The options page with a scripted history: the blocklist (validation and normalisation shown while typing)
/// ends the example.test session at once and its next action fails with `domain_blocked`; the audit log shows
/// START/END rows newest first with reason, duration and count, pages through 1000 rows, and is cleared
/// (keyboard only) after its confirmation dialog. Screenshot with a filled log; no unnamed control.
#[tokio::test]
async fn options_blocklist_idle_timeout_and_audit_log() {
    let browser = Browser::launch(BrowserOptions::default());
    let dt = browser.devtools().await;
    let client = browser.client().await;
    let mut events = Events::subscribe(&client).await;
    let interceptor = serve_example_test(&browser).await;

    let options = Page::open(&dt, &options_url(&browser), 960, 900).await;
    options_show_the_connection_and_an_empty_log(&options, &browser).await;
    let history = script_a_session_history(&browser, &dt, &client, &mut events).await;
    the_blocklist_validates_normalises_and_blocks(
        &options,
        &browser,
        &dt,
        &client,
        &mut events,
        history.example,
    )
    .await;
    the_idle_timeout_is_set_in_minutes(&options, &browser, &dt).await;
    the_log_lists_the_history_newest_first(&options, &history).await;
    a_second_options_page_does_not_move_while_loading(&browser, &dt).await;
    every_control_is_named(&options).await;
    a_thousand_entries_are_paged_fifty_at_a_time(&options, &browser, &dt).await;
    the_log_is_cleared_with_the_keyboard_after_its_confirmation(&options, &browser, &dt).await;
    removing_the_entry_unblocks_the_domain(&options, &browser, &dt, &client, history.example).await;
    interceptor.abort();
    options.close().await;
}

/// The sessions the scripted history made (tab ids) and how the shop's ended.
struct ScriptedHistory {
    shop: i64,
    shop_end: Value,
    docs: i64,
    news: i64,
    maps: i64,
    example: i64,
}

/// The page shows the connection it pairs with, and an empty log.
async fn options_show_the_connection_and_an_empty_log(options: &Page<'_>, browser: &Browser) {
    options
        .wait_until("document.getElementById('conn-title').textContent === 'Connected'")
        .await;
    assert_eq!(
        options
            .eval("document.getElementById('backend-url').value")
            .await,
        json!(browser.bridge_url())
    );
    assert_eq!(
        options.eval("document.getElementById('token').value").await,
        json!(browser.token)
    );
    assert_eq!(options.text("#log-count").await, "0 entries");
    assert_eq!(options.text("#log-range").await, "No entries");
}

/// A scripted session history, with the page open (the log fills live).
async fn script_a_session_history(
    browser: &Browser,
    dt: &DevTools,
    client: &BridgeClient,
    events: &mut Events,
) -> ScriptedHistory {
    let shop = agent_session(client, &site("shop", "log"), 3).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    client
        .call("close_tab", json!({"tabId": shop}))
        .await
        .expect("close_tab");
    let shop_end = events.wait(LIMIT, |e| ended(e, shop, "tab_closed")).await;

    let (_docs_target, docs) = user_session(dt, client, &site("docs", "log"), 2).await;
    worker_ui(browser, dt, json!({"cmd": "stop_session", "tabId": docs})).await;
    let docs_end = events.wait(LIMIT, |e| ended(e, docs, "user_stopped")).await;
    assert_eq!(docs_end["actionCount"], 2, "{docs_end}");

    let (_news_target, news) = user_session(dt, client, &site("news", "log"), 1).await;
    let maps = agent_session(client, &site("maps", "log"), 2).await;
    worker_ui(browser, dt, json!({"cmd": "stop_all"})).await;
    events.wait(LIMIT, |e| ended(e, news, "global_stop")).await;
    events.wait(LIMIT, |e| ended(e, maps, "global_stop")).await;

    let example_url = "http://example.test/inbox";
    let (_example_target, example) = user_session(dt, client, example_url, 4).await;
    assert_eq!(
        act(client, example).await.expect("example.test answers")["value"],
        "example.test",
        "example.test is served through Fetch"
    );
    ScriptedHistory {
        shop,
        shop_end,
        docs,
        news,
        maps,
        example,
    }
}

/// The blocklist: validation and normalisation are shown while typing.
async fn the_blocklist_validates_normalises_and_blocks(
    options: &Page<'_>,
    browser: &Browser,
    dt: &DevTools,
    client: &BridgeClient,
    events: &mut Events,
    example: i64,
) {
    options.type_into("#block-input", "not a domain").await;
    let preview = options.text("#block-preview").await;
    assert!(preview.contains("is not a domain"), "{preview}");
    assert_eq!(
        options
            .eval("document.getElementById('block-input').getAttribute('aria-invalid')")
            .await,
        json!("true")
    );
    options
        .type_into("#block-input", "HTTPS://Example.TEST:8443/inbox")
        .await;
    assert_eq!(
        options.text("#block-preview").await,
        "Will block example.test and all its subdomains"
    );
    options.click("#block-add").await;
    let blocked_end = events
        .wait(LIMIT, |e| ended(e, example, "domain_blocked"))
        .await;
    assert_eq!(blocked_end["actionCount"], 5, "{blocked_end}");
    options
        .wait_until(
            "document.querySelector('#block-list .block-domain')?.textContent === 'example.test'",
        )
        .await;
    options
        .wait_until(
            "document.getElementById('block-preview').textContent === 'Blocked example.test: its sessions were ended.'",
        )
        .await;
    assert_eq!(options.text("#block-count").await, "1");
    assert_eq!(
        browser.storage_get(dt, "blocklist").await,
        json!(["example.test"])
    );
    // The next action there fails with domain_blocked, and so does an agent's open_tab onto it.
    failure(act(client, example).await, ErrorCode::DomainBlocked);
    failure(
        client
            .call("open_tab", json!({"url": "http://sub.example.test/x"}))
            .await,
        ErrorCode::DomainBlocked,
    );
}

/// The idle timeout, in minutes.
async fn the_idle_timeout_is_set_in_minutes(options: &Page<'_>, browser: &Browser, dt: &DevTools) {
    options.type_into("#idle-minutes", "0.1").await;
    options.key("Enter").await;
    options
        .wait_until("document.getElementById('idle-result').textContent.startsWith('Use 0.25')")
        .await;
    options.type_into("#idle-minutes", "45").await;
    options.key("Enter").await;
    options
        .wait_until(
            "document.getElementById('idle-result').textContent === 'Saved: sessions end after 45 min without input.'",
        )
        .await;
    assert_eq!(
        browser.storage_get(dt, "idleTimeoutSeconds").await,
        json!(2700)
    );
}

/// The audit log: 10 rows, newest first, START and END coloured differently, END with the details.
async fn the_log_lists_the_history_newest_first(options: &Page<'_>, history: &ScriptedHistory) {
    options
        .wait_until("document.querySelectorAll('#log-body tr').length === 10")
        .await;
    let rows = log_rows(options).await;
    let expected: Vec<(&str, &str, i64)> = vec![
        ("END", "example.test", history.example),
        ("START", "example.test", history.example),
        ("END", "maps.localhost", history.maps),
        ("END", "news.localhost", history.news),
        ("START", "maps.localhost", history.maps),
        ("START", "news.localhost", history.news),
        ("END", "docs.localhost", history.docs),
        ("START", "docs.localhost", history.docs),
        ("END", "shop.localhost", history.shop),
        ("START", "shop.localhost", history.shop),
    ];
    let got: Vec<(&str, &str, String)> = rows
        .iter()
        .map(|r| (r[1].as_str(), r[3].as_str(), r[4].clone()))
        .collect();
    let want: Vec<(&str, &str, String)> = expected
        .iter()
        .map(|(e, d, t)| (*e, *d, format!("tab {t}")))
        .collect();
    // Stop all ends its two sessions in either order.
    let (mut got_sorted, mut want_sorted) = (got.clone(), want.clone());
    got_sorted[2..4].sort();
    want_sorted[2..4].sort();
    assert_eq!(got_sorted, want_sorted, "rows: {rows:#?}");
    assert_eq!(
        rows[0][5].split(" · ").next(),
        Some("domain blocked"),
        "{:?}",
        rows[0]
    );
    assert!(rows[0][5].ends_with(" · 5 actions"), "{:?}", rows[0]);
    assert_eq!(rows[1][5], "your tab");
    let docs_row = &rows[6];
    assert!(
        docs_row[5].starts_with("stopped by you · ") && docs_row[5].ends_with(" · 2 actions"),
        "{docs_row:?}"
    );
    let shop_row = &rows[8];
    let shop_count = history.shop_end["actionCount"].as_u64().expect("count");
    let parts: Vec<&str> = shop_row[5].split(" · ").collect();
    assert_eq!(parts.len(), 3, "{shop_row:?}");
    assert_eq!(parts[0], "tab closed");
    let secs: f64 = parts[1]
        .trim_end_matches(" s")
        .parse()
        .unwrap_or_else(|_| panic!("duration in seconds: {shop_row:?}"));
    let shop_ms = history.shop_end["endedAt"].as_f64().unwrap_or(0.0)
        - history.shop_end["startedAt"].as_f64().unwrap_or(0.0);
    assert!(
        (secs * 1000.0 - shop_ms).abs() <= 100.0,
        "{secs} s vs {shop_ms} ms"
    );
    assert!(secs >= 1.2, "{secs}");
    assert_eq!(
        parts[2],
        if shop_count == 1 {
            "1 action".to_string()
        } else {
            format!("{shop_count} actions")
        }
    );
    assert!(rows[9][5].starts_with("agent tab · cli-"), "{:?}", rows[9]);
    assert!(rows
        .iter()
        .all(|r| r[2] == format!("event {}", r[1].to_lowercase())));
    let colours = options
        .eval(
            "[getComputedStyle(document.querySelector('.event.start')).color, \
              getComputedStyle(document.querySelector('.event.end')).color]",
        )
        .await;
    assert_ne!(
        colours[0], colours[1],
        "START and END look different: {colours}"
    );
    assert_eq!(options.text("#log-count").await, "10 entries");
    assert_eq!(options.text("#log-range").await, "1–10 of 10");
}

/// An options page opened now gets its data before its first visible paint: nothing moves.
async fn a_second_options_page_does_not_move_while_loading(browser: &Browser, dt: &DevTools) {
    let second = Page::open(dt, &options_url(browser), 960, 900).await;
    assert_eq!(
        second
            .eval("document.querySelectorAll('#log-body tr').length")
            .await,
        json!(10)
    );
    let shift = second.layout_shift().await;
    note(&format!(
        "options layout shift at load with 10 log rows: {shift}"
    ));
    assert!(
        shift < 0.001,
        "the options page moved while loading: CLS {shift}"
    );
    second.close().await;
}

/// A screenshot of the filled log; every control of the page has an accessible name.
async fn every_control_is_named(options: &Page<'_>) {
    options
        .eval("document.activeElement && document.activeElement.blur()")
        .await;
    options.screenshot("options.png", true).await;
    options
        .named_controls(&[
            "Backend URL",
            "Pairing token",
            "Save and test connection",
            "Domain to block",
            "Add",
            "Remove example.test from the blocklist",
            "End every session after",
            "Clear…",
        ])
        .await;
}

/// 1000 entries (the cap) are paged 50 at a time. They are written to storage directly (the page shows
/// what storage holds; the worker keeps its own cached copy of the ring, which Clear empties too).
async fn a_thousand_entries_are_paged_fifty_at_a_time(
    options: &Page<'_>,
    browser: &Browser,
    dt: &DevTools,
) {
    let ring: Vec<Value> = (0..1000)
        .map(|i| {
            let at = 1.764e12 + f64::from(i) * 1000.0;
            if i % 2 == 0 {
                json!({"event": "start", "at": at, "tabId": 100 + i / 2, "domain": format!("s{}.example", i / 2), "owner": "user"})
            } else {
                json!({"event": "end", "at": at, "tabId": 100 + i / 2, "domain": format!("s{}.example", i / 2), "owner": "user",
                       "reason": "tab_closed", "durationMs": 1000.0, "actionCount": 1})
            }
        })
        .collect();
    let shown = Instant::now();
    browser
        .storage_set(dt, json!({"sessionHistory": ring}))
        .await;
    options
        .wait_until("document.getElementById('log-range').textContent === '1–50 of 1000'")
        .await;
    note(&format!(
        "options: 1000-entry log stored → first page rendered in {} ms",
        shown.elapsed().as_millis()
    ));
    assert_eq!(
        options
            .eval("document.querySelectorAll('#log-body tr').length")
            .await,
        json!(50)
    );
    let first = log_rows(options).await;
    assert_eq!(
        (first[0][1].as_str(), first[0][4].as_str()),
        ("END", "tab 599")
    );
    options.click("#log-older").await;
    options
        .wait_until("document.getElementById('log-range').textContent === '51–100 of 1000'")
        .await;
    assert_eq!(log_rows(options).await[0][4], "tab 574");
    options.click("#log-newer").await;
    options
        .wait_until("document.getElementById('log-range').textContent === '1–50 of 1000'")
        .await;
}

/// Keyboard only: Tab to Clear…, Enter opens the confirmation with the focus on Cancel; Escape keeps the log.
async fn the_log_is_cleared_with_the_keyboard_after_its_confirmation(
    options: &Page<'_>,
    browser: &Browser,
    dt: &DevTools,
) {
    options.focus_top().await;
    let path = options.tab_to("log-clear").await;
    note(&format!("options Tab order: {path:?}"));
    options.key("Enter").await;
    options
        .wait_until("document.getElementById('clear-dialog').open")
        .await;
    assert_eq!(options.focused().await, "clear-cancel");
    assert_eq!(
        options.text("#clear-desc").await,
        "All 1000 entries of the audit log will be removed. This cannot be undone."
    );
    let dialog_controls = options.named_controls(&[]).await;
    assert!(
        dialog_controls.contains(&("dialog".to_string(), "Clear the audit log?".to_string())),
        "{dialog_controls:?}"
    );
    options.key("Escape").await;
    options
        .wait_until("!document.getElementById('clear-dialog').open")
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(options.text("#log-count").await, "1000 entries");
    let kept = browser.storage_get(dt, "sessionHistory").await;
    assert_eq!(
        kept.as_array().map(Vec::len),
        Some(1000),
        "Escape cancels: nothing cleared"
    );
    // The focus returns to Clear….
    options
        .wait_until("document.activeElement && document.activeElement.id === 'log-clear'")
        .await;
    // Again, and this time confirm: Tab to "Clear log", Enter.
    options.key("Enter").await;
    options
        .wait_until("document.getElementById('clear-dialog').open")
        .await;
    options.key("Tab").await;
    assert_eq!(options.focused().await, "clear-confirm");
    options.key("Enter").await;
    options
        .wait_until("document.getElementById('log-count').textContent === '0 entries'")
        .await;
    options
        .wait_until(
            "document.getElementById('log-status').textContent === 'The audit log was cleared.'",
        )
        .await;
    assert_eq!(
        options.eval("[document.getElementById('log-table').hidden, document.getElementById('log-empty').hidden]").await,
        json!([true, false])
    );
    let history = worker_ui(browser, dt, json!({"cmd": "get_history"})).await;
    assert_eq!(history, json!({"entries": []}));
}

/// Removing the entry unblocks the domain.
async fn removing_the_entry_unblocks_the_domain(
    options: &Page<'_>,
    browser: &Browser,
    dt: &DevTools,
    client: &BridgeClient,
    example: i64,
) {
    options
        .click("#block-list button[data-entry=\"example.test\"]")
        .await;
    options
        .wait_until("document.getElementById('block-count').textContent === '0'")
        .await;
    assert_eq!(browser.storage_get(dt, "blocklist").await, json!([]));
    act(client, example)
        .await
        .expect("example.test is allowed again");
}

// ---------------------------------------------------------------------------------------------
// The fatal state

/// A rejected handshake shows in the popup as fatal with the reason and the fix ("Re-pair" for a wrong token,
/// "Update the extension" for a version mismatch) and a button that opens the options page, where "Save and
/// test connection" repairs it and reports the worker's handshake result; the popup follows live.
#[tokio::test]
async fn popup_shows_the_fatal_state_and_its_fix_when_the_bridge_rejects_the_handshake() {
    let browser = Browser::launch(BrowserOptions::default());
    let dt = browser.devtools().await;
    let popup = Page::open(&dt, &popup_url(&browser), 360, 560).await;
    popup
        .wait_until("document.getElementById('conn-title').textContent === 'Connected'")
        .await;
    assert_eq!(
        popup.eval("document.getElementById('fatal').hidden").await,
        json!(true)
    );

    // A wrong token: the bridge rejects the extension as unauthorized.
    browser
        .storage_set(&dt, json!({"token": "0000wrong"}))
        .await;
    popup
        .wait_until("document.getElementById('conn-title').textContent === 'Pairing rejected'")
        .await;
    assert_eq!(
        popup
            .eval("document.getElementById('conn').className")
            .await,
        json!("conn error")
    );
    assert_eq!(
        popup.eval("document.getElementById('fatal').hidden").await,
        json!(false)
    );
    let fix = popup.text("#fatal-fix").await;
    assert!(fix.starts_with("Re-pair"), "{fix}");
    assert!(popup.text("#conn-detail").await.contains("token"));
    popup.named_controls(&[]).await;

    // "Open options" opens the options page.
    popup.click("#fatal-options").await;
    let url = options_url(&browser);
    let target = dt
        .wait_for_target("page", |u| u == url, LIMIT)
        .await
        .expect("the options page opened");
    let options = Page::attach(&dt, target.id, None, 960, 900).await;
    assert_eq!(
        options.eval("document.getElementById('token').value").await,
        json!("0000wrong")
    );
    assert_eq!(options.text("#conn-title").await, "Pairing rejected");
    // One clear message, not the bridge's advice and ours joined mid-sentence: the reason, then the fix, each
    // a whole sentence, said once.
    let detail = options.text("#conn-detail").await;
    assert!(
        detail.starts_with(
            "Wrong pairing token. Re-pair: copy the token printed by `bua-bridge serve`"
        ),
        "{detail}"
    );
    assert!(
        detail.ends_with("then press Save and test connection."),
        "{detail}"
    );
    assert_eq!(detail.matches("token printed by").count(), 1, "{detail}");
    assert!(!detail.contains("extension's options"), "{detail}");
    // Save and test with a wrong token: the result line points to that message instead of repeating it.
    options.type_into("#token", "0000wrong2").await;
    options.click("#test-conn").await;
    let refused = options.refused_line().await;
    assert_eq!(
        refused,
        json!("Refused: pairing rejected. The reason and what to do are shown above.")
    );
    let page_text = options.eval("document.body.innerText").await;
    assert_eq!(
        page_text
            .as_str()
            .unwrap_or_default()
            .matches("Re-pair")
            .count(),
        1,
        "the fix is shown once: {page_text}"
    );

    // A URL that is not a WebSocket URL is refused before anything is saved.
    options
        .type_into("#backend-url", "http://127.0.0.1:1")
        .await;
    options.key("Enter").await;
    options
        .wait_until(
            "document.getElementById('conn-result').textContent.includes('is not a WebSocket URL')",
        )
        .await;
    assert_eq!(
        options
            .eval("document.getElementById('backend-url').getAttribute('aria-invalid')")
            .await,
        json!("true")
    );
    assert_eq!(
        browser.storage_get(&dt, "backendUrl").await,
        json!(browser.bridge_url())
    );

    // Re-pair: the right token, Save and test → the worker's handshake is acked.
    options
        .type_into("#backend-url", &browser.bridge_url())
        .await;
    options.type_into("#token", &browser.token).await;
    options.click("#test-conn").await;
    let result = options
        .wait_until("(t => t.startsWith('Connected') && t)(document.getElementById('conn-result').textContent)")
        .await;
    assert_eq!(
        result,
        json!(format!(
            "Connected: the bridge at {} accepted the pairing.",
            browser.bridge_url()
        ))
    );
    popup
        .wait_until("document.getElementById('conn-title').textContent === 'Connected' && document.getElementById('fatal').hidden")
        .await;

    // A bridge that requires protocol 5: version mismatch, "Update the extension".
    let mut config = ServerConfig::loopback(0, browser.token.clone());
    config.extension_id = Some(browser.extension_id.clone());
    config.min_protocol_version = 5;
    let strict = server::start(config).await.expect("strict bridge");
    options.type_into("#backend-url", &strict.url()).await;
    options.key("Enter").await;
    let refused = options.refused_line().await;
    assert_eq!(
        refused,
        json!("Refused: version mismatch. The reason and what to do are shown above.")
    );
    let detail = options.text("#conn-detail").await;
    assert!(detail.starts_with("Protocol version"), "{detail}");
    assert!(detail.contains("Update the extension"), "{detail}");
    popup
        .wait_until("document.getElementById('conn-title').textContent === 'Version mismatch'")
        .await;
    assert!(popup
        .text("#fatal-fix")
        .await
        .starts_with("Update the extension"));
    popup.screenshot("popup-fatal.png", false).await;

    // Testing again with unchanged settings tries again, even after a fatal reject.
    let attempts = strict.stats().upgrade_requests;
    options
        .eval("document.getElementById('conn-result').textContent = ''")
        .await;
    options.click("#test-conn").await;
    options
        .wait_until("document.getElementById('conn-result').textContent.startsWith('Refused')")
        .await;
    assert_eq!(strict.stats().upgrade_requests, attempts + 1);
    strict.shutdown().await;

    // Nobody listening: no answer within 10 s is reported as such.
    let free = std::net::TcpListener::bind("127.0.0.1:0").expect("port");
    let silent = format!("ws://127.0.0.1:{}", free.local_addr().expect("addr").port());
    drop(free);
    options.type_into("#backend-url", &silent).await;
    options.click("#test-conn").await;
    let waited = Instant::now();
    let result = eventually(Duration::from_secs(15), || async {
        let t = options.text("#conn-result").await;
        t.starts_with("No answer").then_some(t)
    })
    .await
    .expect("a no-answer result");
    assert!(
        waited.elapsed() >= Duration::from_secs(8),
        "{:?}",
        waited.elapsed()
    );
    assert!(result.contains(&silent), "{result}");
    assert_eq!(popup.text("#conn-title").await, "Connecting…");

    // And back.
    options
        .type_into("#backend-url", &browser.bridge_url())
        .await;
    options.click("#test-conn").await;
    options
        .wait_until("document.getElementById('conn-result').textContent.startsWith('Connected')")
        .await;
    popup
        .wait_until("document.getElementById('conn-title').textContent === 'Connected'")
        .await;
    let client = browser.client().await;
    get_tabs(&client).await.expect("the extension serves again");
    options.close().await;
    popup.close().await;
}
