//! The exported JSON Schema: complete, deterministic, and in agreement with the validator.

use bua_protocol::*;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// The compiled schema, shared by the tests.
pub fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| match jsonschema::draft7::new(&json_schema()) {
        Ok(v) => v,
        Err(e) => panic!("the schema does not compile: {e}"),
    })
}

/// The MCP tool's flat schema, compiled once.
pub fn tool_validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| match jsonschema::draft7::new(&tool_input_schema()) {
        Ok(v) => v,
        Err(e) => panic!("the tool schema does not compile: {e}"),
    })
}

#[test]
fn schema_is_a_draft7_object_schema_with_one_branch_per_action() {
    let s = json_schema();
    assert_eq!(s["$schema"], "http://json-schema.org/draft-07/schema#");
    assert_eq!(s["type"], "object");
    let branches = s["oneOf"].as_array().unwrap();
    assert_eq!(branches.len(), action_names().len());
    for (b, name) in branches.iter().zip(action_names()) {
        assert_eq!(b["title"], *name);
        assert_eq!(b["properties"]["type"]["const"], *name);
        assert_eq!(b["additionalProperties"], false);
        assert_eq!(b["required"][0], "type");
    }
    assert_eq!(
        s["properties"]["type"]["enum"].as_array().unwrap().len(),
        34
    );
    assert!(
        !s.to_string().contains("$ref"),
        "no $refs: agent tools want a self-contained schema"
    );
}

#[test]
fn schema_is_deterministic() {
    assert_eq!(json_schema().to_string(), json_schema().to_string());
}

#[test]
fn schema_has_descriptions_and_camel_case_properties() {
    let s = json_schema();
    let branch = |n: &str| {
        s["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["title"] == n)
            .cloned()
            .unwrap()
    };
    let click = branch("click");
    for p in [
        "uid", "selector", "text", "xpath", "index", "tabId", "newTab",
    ] {
        assert!(click["properties"].get(p).is_some(), "click.{p}");
    }
    // The nested locator is shown only where a flat key is taken by a parameter.
    assert!(click["properties"].get("locator").is_none());
    assert!(branch("type")["properties"].get("locator").is_some());
    assert!(branch("select_option")["properties"]
        .get("locator")
        .is_some());
    assert!(click["description"].as_str().unwrap().contains("Click"));
    let wait = branch("wait_for");
    assert_eq!(wait["properties"]["timeoutMs"]["maximum"], 30000);
    assert_eq!(
        wait["properties"]["state"]["enum"],
        json!(["visible", "attached", "hidden"])
    );
    let typ = branch("type");
    assert_eq!(typ["properties"]["text"]["type"], "string");
    // text, or the name of the person's secret instead (SPEC §4 "Secrets").
    assert_eq!(typ["properties"]["secret"]["type"], "string");
    let shot = branch("screenshot");
    assert_eq!(shot["properties"]["format"]["enum"], json!(["png", "jpeg"]));
    assert_eq!(branch("activate_tab")["required"], json!(["type", "tabId"]));
}

fn spec_examples() -> Vec<Value> {
    vec![
        json!({"type":"click","uid":"e7","tabId":12}),
        json!({"type":"open_tab","url":"https://example.com"}),
        json!({"type":"open_tab","url":"https://example.com","focus":true}),
        json!({"type":"navigate","url":"https://example.com","tabId":7}),
        json!({"type":"get_tabs"}),
        json!({"type":"activate_tab","tabId":7}),
        json!({"type":"close_agent_tabs","owner":"mcp-1234-abcd"}),
        json!({"type":"close_agent_window"}),
        json!({"type":"click","selector":"#submit","newTab":false}),
        json!({"type":"click","text":"Sign in","index":1}),
        json!({"type":"click_at","x":120,"y":340,"tabId":7}),
        json!({"type":"hover","xpath":"//button[@id='submit']"}),
        json!({"type":"type","uid":"e3","text":"alice","clear":true,"submit":true}),
        json!({"type":"type","locator":{"text":"Email"},"text":"a@b.c"}),
        json!({"type":"press_key","key":"Enter","modifiers":["ctrl","shift"],"selector":"#search","waitLoad":true}),
        json!({"type":"scroll","dx":0,"dy":800,"selector":"#list"}),
        json!({"type":"scroll","toEnd":true}),
        json!({"type":"select_option","uid":"e9","value":["a","b"]}),
        json!({"type":"select_option","selector":"select","index":2}),
        json!({"type":"check","selector":"#agree","checked":true}),
        json!({"type":"fill","fields":[{"uid":"e3","value":"Ada"},{"selector":"#c","value":["a","b"]},{"uid":"e7","value":true}]}),
        json!({"type":"set_value","selector":"#username","value":"alice"}),
        json!({"type":"get_value","text":"City","tabId":7}),
        json!({"type":"wait_for","textContains":"Done","state":"visible","timeoutMs":5000}),
        json!({"type":"extract","tabId":7}),
        json!({"type":"find","text":"Pro plan","limit":5}),
        json!({"type":"find","regex":"order #\\d+"}),
        json!({"type":"evaluate","expression":"return document.title"}),
        json!({"type":"scrape","item":"div.g","fields":{"title":"h3","url":"a@href"},"limit":10,"timeoutMs":5000}),
        json!({"type":"screenshot","fullPage":true,"format":"jpeg","quality":80,"maxWidth":1280}),
    ]
}

#[test]
fn schema_accepts_the_spec_examples() {
    for ex in spec_examples() {
        let errors: Vec<String> = validator()
            .iter_errors(&ex)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{ex}: {errors:?}");
        assert!(Action::from_value(&ex).is_ok(), "{ex}");
    }
}

#[test]
fn schema_refuses_what_the_validator_refuses() {
    let bad = [
        json!({"type":"click","uid":"e1","selector":"a"}),
        json!({"type":"click"}),
        json!({"type":"click","uid":"e1","index":1}),
        json!({"type":"click","index":1}),
        json!({"type":"click","uid":"e1","foo":1}),
        json!({"type":"click","uid":"button"}),
        json!({"type":"fly"}),
        json!({"uid":"e1"}),
        json!({"type":"wait_for","selector":"a","timeoutMs":30001}),
        json!({"type":"wait_for","selector":"a","textContains":"b"}),
        json!({"type":"scroll"}),
        json!({"type":"scroll","dy":1,"toEnd":true}),
        json!({"type":"screenshot","quality":50}),
        json!({"type":"select_option","uid":"e1"}),
        json!({"type":"select_option","uid":"e1","value":"a","label":"b"}),
        json!({"type":"activate_tab"}),
        json!({"type":"type","selector":"a"}),
        json!({"type":"press_key","key":"a","modifiers":["ctrl","ctrl"]}),
        json!({"type":"scrape","item":"li","fields":{}}),
        json!({"type":"select_option","uid":"e1","value":[]}),
        json!({"type":"select_option","uid":"e1","index":[-1]}),
        json!({"type":"fill","fields":[]}),
        json!({"type":"find"}),
        json!({"type":"find","text":"a","regex":"b"}),
        json!({"type":"fill","fields":[{"uid":"e1"}]}),
    ];
    for ex in bad {
        assert!(!validator().is_valid(&ex), "schema accepts {ex}");
        assert!(Action::from_value(&ex).is_err(), "validator accepts {ex}");
    }
}

#[allow(dead_code)]
fn _unused(_: Value) {}

#[test]
fn tool_input_schema_is_flat_and_accepts_every_spec_example() {
    let flat = bua_protocol::tool_input_schema();
    for combinator in ["oneOf", "anyOf", "allOf", "not"] {
        assert!(
            flat.get(combinator).is_none(),
            "top-level {combinator} in the tool schema"
        );
    }
    assert_eq!(flat["type"], "object");
    assert_eq!(flat["required"], json!(["type"]));
    // Every parameter of every action is a property of the flat schema.
    for branch in json_schema()["oneOf"].as_array().unwrap() {
        for key in branch["properties"].as_object().unwrap().keys() {
            assert!(flat["properties"].get(key).is_some(), "{key} missing");
        }
    }
    // `text` means a locator in click and the text to type in type: both shapes are allowed.
    assert!(
        flat["properties"]["text"]["anyOf"].is_array()
            || flat["properties"]["text"]["type"] == "string"
    );
    let described = flat["properties"]["type"]["description"].as_str().unwrap();
    assert!(
        described.contains("click(locator, newTab?, tabId?)"),
        "{described}"
    );
    assert!(
        described.contains("open_tab(focus?, loadWaitMs?, url)"),
        "{described}"
    );
    let validator = tool_validator();
    for ex in spec_examples() {
        let errors: Vec<String> = validator.iter_errors(&ex).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{ex}: {errors:?}");
    }
    assert!(!validator.is_valid(&json!({"type":"fly"})));
    assert!(!validator.is_valid(&json!({"type":"click","bogus":1})));
    // Self-contained without `$ref` (several MCP clients cannot resolve one), so the nested locator
    // is written out once, as `locator`; drag's `from` and `to` point to it in words.
    let text = flat.to_string();
    assert!(
        !text.contains("$ref") && !text.contains("$schema"),
        "{text}"
    );
    assert_eq!(
        text.matches("\"xpath\":{").count(),
        2,
        "flat xpath and locator's: {text}"
    );
    assert_eq!(
        flat["properties"]["locator"]["properties"]["uid"]["pattern"],
        "^e[0-9]+$"
    );
    for key in ["from", "to"] {
        assert_eq!(flat["properties"][key]["type"], "object", "{key}");
        // The field texts are in `help` (SPEC §9 "Tool definition").
        let described = bua_protocol::action_help("drag").unwrap_or_default();
        assert!(
            described.contains(&format!("- {key} (")) && described.contains("as `locator`"),
            "{key}: {described}"
        );
    }
    for ex in [
        json!({"type":"drag","from":{"uid":"e1"},"to":{"x":10,"y":20}}),
        json!({"type":"drag","from":{"selector":"#a","index":1},"to":{"text":"Bin"}}),
        json!({"type":"wait_for","selector":"#a","timeoutMs":30000}),
        json!({"type":"scrape","item":"li","timeoutMs":30000}),
        json!({"type":"downloads","waitMs":30000}),
        json!({"type":"handoff","tabId":1,"reason":"sign in","waitMs":3600000}),
    ] {
        let errors: Vec<String> = validator.iter_errors(&ex).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{ex}: {errors:?}");
        assert!(Action::from_value(&ex).is_ok(), "{ex}");
    }
}

/// The one-line summary of `name` in the tool schema's `type` description.
fn summary(name: &str) -> String {
    let schema = tool_input_schema();
    let text = schema["properties"]["type"]["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    text.lines()
        .find(|l| l.starts_with(&format!("{name}(")))
        .unwrap_or_default()
        .split(':')
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn the_tool_summary_says_which_locators_are_optional() {
    assert_eq!(
        summary("press_key"),
        "press_key(locator?, key, loadWaitMs?, modifiers?, tabId?, waitLoad?)"
    );
    assert_eq!(
        summary("scroll"),
        "scroll(locator?, dx?, dy?, tabId?, toEnd?)"
    );
    assert_eq!(summary("click"), "click(locator, newTab?, tabId?)");
    assert_eq!(
        summary("type"),
        "type(locator, clear?, secret?, submit?, tabId?, text?)"
    );
    assert_eq!(
        summary("select_option"),
        "select_option(locator, index?, label?, tabId?, value?)"
    );
    assert_eq!(
        summary("wait_for"),
        "wait_for(locator or textContains, state?, tabId?, timeoutMs?)"
    );
    assert_eq!(summary("extract"), "extract(include?, page?, tabId?)");
    // Every parameter is still a property of the flat schema.
    let schema = tool_input_schema();
    for key in ["textContains", "index", "locator", "uid", "text"] {
        assert!(schema["properties"].get(key).is_some(), "{key}");
    }
}

#[test]
fn the_tool_schema_describes_tab_id_once() {
    // One text for every action's `tabId`, so the flattened tool schema does not run several together.
    let tool = tool_input_schema();
    assert_eq!(
        tool["properties"]["tabId"]["description"],
        "From open_tab or get_tabs. Omitted: the agent's own tab.",
        "{}",
        tool["properties"]["tabId"]
    );
    assert!(tool["properties"]["tabId"].get("anyOf").is_none());
}
