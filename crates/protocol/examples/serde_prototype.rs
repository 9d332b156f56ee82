//! A prototype, not the product: three actions (`click`, `scroll`, `wait_for`) defined with serde and
//! schemars derives instead of the crate's `params!` codecs, to compare the refusal messages agents
//! read. Run: `cargo run -p bua-protocol --example serde_prototype`. It prints, for each bad input,
//! the crate's message ([`Action::from_value`]) and serde's.

use bua_protocol::Action;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

/// The element, flat: exactly one of four keys (serde cannot say "exactly one" but by an untagged enum).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Locator {
    Uid {
        uid: String,
    },
    Selector {
        selector: String,
        index: Option<u32>,
    },
    Text {
        text: String,
        index: Option<u32>,
    },
    Xpath {
        xpath: String,
        index: Option<u32>,
    },
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[allow(dead_code)]
enum Proto {
    Click {
        #[serde(flatten)]
        locator: Locator,
        #[serde(rename = "tabId")]
        tab_id: Option<u32>,
        #[serde(rename = "newTab", default)]
        new_tab: bool,
    },
    Scroll {
        dx: Option<f64>,
        dy: Option<f64>,
        #[serde(rename = "toEnd", default)]
        to_end: bool,
        #[serde(rename = "tabId")]
        tab_id: Option<u32>,
    },
    WaitFor {
        #[serde(rename = "textContains")]
        text_contains: Option<String>,
        #[serde(rename = "timeoutMs")]
        #[schemars(range(max = 30000))]
        timeout_ms: Option<u64>,
        #[serde(rename = "tabId")]
        tab_id: Option<u32>,
    },
}

fn main() {
    let cases: Vec<Value> = vec![
        json!({"type": "click", "uid": "e1", "foo": 1}),
        json!({"type": "click"}),
        json!({"type": "click", "uid": "e1", "selector": "a"}),
        json!({"type": "click", "uid": "e1", "tabId": "12"}),
        json!({"type": "click", "uid": "e1", "index": 1}),
        json!({"type": "scroll", "dx": "down"}),
        json!({"type": "scroll", "dy": 100, "toEnd": true}),
        json!({"type": "wait_for", "textContains": "Done", "timeoutMs": 99999}),
        json!({"type": "wait_for", "textContains": "Done", "state": "gone"}),
        json!({"type": "fly"}),
    ];
    for v in cases {
        let ours = match Action::from_value(&v) {
            Ok(a) => format!("accepted: {}", a.to_json()),
            Err(e) => e.message,
        };
        let serde = match serde_json::from_value::<Proto>(v.clone()) {
            Ok(p) => format!("accepted: {p:?}"),
            Err(e) => e.to_string(),
        };
        println!("{v}\n  crate: {ours}\n  serde: {serde}\n");
    }
}
