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

use base64::Engine;
use serde_json::Value;

pub(crate) use crate::support::Agent;
use crate::support::{Browser, FixtureServer};

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

impl Agent {
    /// An agent on the area's browser (`Browser::shared` hands it out once the extension serves actions
    /// steadily).
    async fn new() -> Agent {
        Agent::on(Browser::shared("actions"), "actions").await
    }

    /// An agent on the area's browser with a tab on `page` ([`Agent::open`]), as most tests start.
    async fn with_page(page: &str) -> (Agent, i64) {
        let a = Agent::new().await;
        let tab = a.open(page).await;
        (a, tab)
    }
}
