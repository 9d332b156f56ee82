//! An agent's steps through the bridge's client API, shared by the areas that drive fixture pages as one
//! agent would: call an action and expect it to succeed or fail, open a fixture page, read the page back.

use std::time::{Duration, Instant};

use bua_bridge::BridgeClient;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use super::{eventually, Browser, FixtureServer, SharedBrowser};

/// The uid of the first element of an `extract` result with this role and accessible name.
pub fn uid_of(result: &Value, role: &str, name: &str) -> String {
    result["elements"]
        .as_array()
        .and_then(|els| {
            els.iter()
                .find(|e| e["role"] == role && e["name"] == name)
                .and_then(|e| e["uid"].as_str())
        })
        .unwrap_or_else(|| panic!("no {role} {name:?} in {:#}", result["elements"]))
        .to_string()
}

/// A bridge client acting as one agent on the fixture pages of one area (`tests/fixtures/<area>/`).
pub struct Agent {
    pub client: BridgeClient,
    /// The area's browser, held for as long as the agent acts on it.
    pub browser: SharedBrowser,
    area: &'static str,
}

impl Agent {
    /// An agent on `browser` (the area's, from `Browser::shared`), whose pages are `tests/fixtures/<area>/`.
    pub async fn on(browser: SharedBrowser, area: &'static str) -> Agent {
        let client = browser.client().await;
        Agent {
            client,
            browser,
            area,
        }
    }

    /// An agent on the shared browser of `area` for a test that must have it to itself: waits for `serial`
    /// (the area's lock) and holds it until the returned guard drops.
    pub async fn alone(
        serial: &'static tokio::sync::Mutex<()>,
        area: &'static str,
    ) -> (tokio::sync::MutexGuard<'static, ()>, Agent) {
        let turn = serial.lock().await;
        (turn, Agent::on(Browser::shared(area), area).await)
    }

    /// `http://127.0.0.1:<port>/<area>/<path>`.
    pub fn url(&self, path: &str) -> String {
        FixtureServer::shared().url(&format!("/{}/{path}", self.area))
    }

    /// Calls `method`; panics with the code and message when it fails.
    pub async fn ok(&self, method: &str, params: Value) -> Value {
        match self.client.call(method, params.clone()).await {
            Ok(v) => v,
            Err(e) => panic!("{method} {params} failed: {} {e}", e.code().as_str()),
        }
    }

    /// Calls `method`, expecting an error; returns its code and message.
    pub async fn err(&self, method: &str, params: Value) -> (ErrorCode, String) {
        match self.client.call(method, params.clone()).await {
            Ok(v) => panic!("{method} {params} unexpectedly succeeded: {v}"),
            Err(e) => (e.code(), e.to_string()),
        }
    }

    /// Calls `method` on `tab` with `params` (an object, `tabId` added); panics when it fails.
    pub async fn act(&self, tab: i64, method: &str, mut params: Value) -> Value {
        params["tabId"] = json!(tab);
        self.ok(method, params).await
    }

    /// Calls `method` on `tab` with `params` (an object, `tabId` added), expecting an error; returns its code
    /// and message.
    pub async fn act_err(&self, tab: i64, method: &str, mut params: Value) -> (ErrorCode, String) {
        params["tabId"] = json!(tab);
        self.err(method, params).await
    }

    /// `click` on the element `selector` finds in `tab`; panics when it fails.
    pub async fn click(&self, tab: i64, selector: &str) -> Value {
        self.act(tab, "click", json!({ "selector": selector }))
            .await
    }

    /// Opens `path` in a new agent tab and waits until it has loaded (the session attaches on about:blank
    /// first, so the page's whole load is seen); returns the tab id.
    pub async fn open(&self, path: &str) -> i64 {
        self.open_navigated(path).await.0
    }

    /// [`Agent::open`], with what its `navigate` answered (`loaded`, the new page's `view`: SPEC §4).
    pub async fn open_navigated(&self, path: &str) -> (i64, Value) {
        let opened = self.ok("open_tab", json!({ "url": "about:blank" })).await;
        let tab = opened["tabId"].as_i64().expect("tabId");
        let url = self.url(path);
        let nav = self.act(tab, "navigate", json!({ "url": url })).await;
        assert_eq!(nav["url"], url);
        (tab, nav)
    }

    /// Opens `path` with `open_tab` itself (the page loads while the session attaches, no `navigate` and so
    /// no view of it); returns the tab id.
    pub async fn open_tab(&self, path: &str) -> i64 {
        let opened = self.ok("open_tab", json!({ "url": self.url(path) })).await;
        opened["tabId"].as_i64().expect("tabId")
    }

    /// `extract` of `tab` (SPEC §5); panics when it fails.
    pub async fn extract(&self, tab: i64) -> Value {
        self.act(tab, "extract", json!({})).await
    }

    /// The `extract` of `tab` the MCP server asks for (SPEC §9): markdown and elements, links named by uid
    /// (`refs`), no text.
    pub async fn extract_with_refs(&self, tab: i64) -> Value {
        let params = json!({ "include": ["markdown", "elements"], "refs": true });
        self.act(tab, "extract", params).await
    }

    /// `evaluate` → the value.
    pub async fn eval(&self, tab: i64, expression: &str) -> Value {
        let r = self
            .act(tab, "evaluate", json!({ "expression": expression }))
            .await;
        r["value"].clone()
    }

    /// Polls `expression` until it returns something other than null/undefined (5 s at most).
    pub async fn eval_until(&self, tab: i64, expression: &str) -> Value {
        eventually(Duration::from_secs(5), || async {
            let v = self.eval(tab, expression).await;
            (!v.is_null()).then_some(v)
        })
        .await
        .unwrap_or_else(|| panic!("{expression} stayed null"))
    }

    /// `document.getElementById(id).textContent`.
    pub async fn text_of(&self, tab: i64, id: &str) -> String {
        self.eval(
            tab,
            &format!("return document.getElementById({id:?}).textContent"),
        )
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }

    /// Polls `text_of` until it equals `want` (pages that update on a timer), or panics after 3 s.
    pub async fn wait_text(&self, tab: i64, id: &str, want: &str) {
        let deadline = Instant::now() + Duration::from_secs(3);
        loop {
            let last = self.text_of(tab, id).await;
            if last == want {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "#{id} never read {want:?} (last: {last:?})"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn close(&self, tab: i64) {
        let _ = self.client.call("close_tab", json!({ "tabId": tab })).await;
    }

    /// `extract` → the uid of the element with `role` and accessible `name`.
    pub async fn uid(&self, tab: i64, role: &str, name: &str) -> String {
        uid_of(&self.extract(tab).await, role, name)
    }
}
