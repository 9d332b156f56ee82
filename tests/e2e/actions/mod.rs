//! End-to-end tests of the browser actions (SPEC §4, §7) in real headless
//! Chromium with the built extension and the real `bua-bridge launch`, on the fixture pages of
//! `tests/fixtures/actions/`, driven through the bridge's client API.
//!
//! One module per action family, as `src/actions/` has them. One browser is shared by the whole area
//! (`Browser::shared("actions")`); every test works on its own agent tab(s), so tests run concurrently. Each
//! test names the behaviour it checks and asserts the values the page reports.

mod changes;
mod dialogs;
mod dispatcher;
mod downloads;
mod evaluate;
mod fill;
mod find;
mod forms;
mod input;
mod keyboard;
mod locator;
mod navigation;
mod outcomes;
mod scrape;
mod screenshot;
mod scroll;
mod tabs;
mod wait;

use std::time::{Duration, Instant};

use base64::Engine;
use bua_bridge::BridgeClient;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use crate::support::{Browser, FixtureServer, SharedBrowser};

/// `http://127.0.0.1:<port>/actions/<path>`.
fn url(path: &str) -> String {
    FixtureServer::shared().url(&format!("/actions/{path}"))
}

/// `r` without what the action changed in the agent's view (`changes`, `view`: SPEC §4), for tests that
/// compare the action's own result.
fn own_result(r: &Value) -> Value {
    let mut r = r.clone();
    if let Value::Object(m) = &mut r {
        m.remove("changes");
        m.remove("view");
    }
    r
}

fn image_bytes(r: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(r["data"].as_str().expect("data"))
        .expect("base64")
}

/// A bridge client acting as one agent.
struct Agent {
    client: BridgeClient,
    /// The area's browser, held for as long as the agent acts on it.
    browser: SharedBrowser,
}

impl Agent {
    async fn new() -> Agent {
        // `Browser::shared` hands the browser out once the extension serves actions steadily.
        let browser = Browser::shared("actions");
        let client = browser.client().await;
        Agent { client, browser }
    }

    /// Calls `method`; panics with the code and message when it fails.
    async fn ok(&self, method: &str, params: Value) -> Value {
        match self.client.call(method, params.clone()).await {
            Ok(v) => v,
            Err(e) => panic!("{method} {params} failed: {} {e}", e.code().as_str()),
        }
    }

    /// Calls `method`, expecting an error; returns its code and message.
    async fn err(&self, method: &str, params: Value) -> (ErrorCode, String) {
        match self.client.call(method, params.clone()).await {
            Ok(v) => panic!("{method} {params} unexpectedly succeeded: {v}"),
            Err(e) => (e.code(), e.to_string()),
        }
    }

    /// Opens `path` in a new agent tab and waits until it has loaded; returns the tab id.
    async fn open(&self, path: &str) -> i64 {
        let opened = self.ok("open_tab", json!({ "url": "about:blank" })).await;
        let tab = opened["tabId"].as_i64().expect("tabId");
        let nav = self
            .ok("navigate", json!({ "tabId": tab, "url": url(path) }))
            .await;
        assert_eq!(nav["url"], url(path));
        tab
    }

    /// `evaluate` → the value.
    async fn eval(&self, tab: i64, expression: &str) -> Value {
        let r = self
            .ok(
                "evaluate",
                json!({ "tabId": tab, "expression": expression }),
            )
            .await;
        r["value"].clone()
    }

    /// `document.getElementById(id).textContent`.
    async fn text_of(&self, tab: i64, id: &str) -> String {
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
    async fn wait_text(&self, tab: i64, id: &str, want: &str) {
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

    async fn close(&self, tab: i64) {
        let _ = self.client.call("close_tab", json!({ "tabId": tab })).await;
    }

    /// `extract` → the uid of the element with `role` and accessible `name`.
    async fn uid(&self, tab: i64, role: &str, name: &str) -> String {
        let page = self.ok("extract", json!({ "tabId": tab })).await;
        let elements = page["elements"].as_array().cloned().unwrap_or_default();
        elements
            .iter()
            .find(|e| e["role"] == role && e["name"] == name)
            .and_then(|e| e["uid"].as_str())
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("no {role} {name:?} among {elements:?}"))
    }
}
