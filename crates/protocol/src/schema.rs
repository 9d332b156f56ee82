//! JSON Schema of the action union as it appears on the wire (SPEC §9 `bua-bridge schema`, the
//! MCP tool's `inputSchema`).
//!
//! The per-action parameter shapes are `schemars`-derived from the wire-shape structs below (their
//! doc comments become the descriptions an agent reads); the cross-field rules that JSON Schema
//! can state — exactly one locator, `index` not with `uid`, `dx`/`dy` or `toEnd`, one of
//! `value`/`label`/`index`, `quality` only with jpeg — are added on top. [`Action::from_value`]
//! stays the authority (it also checks URLs and uids); every action it accepts, serialised
//! canonically, validates against this schema (tested).
//!
//! [`Action::from_value`]: crate::Action::from_value

#![allow(dead_code)] // the wire structs exist only for their derived schemas

use crate::action::{
    action_fields, action_names, ImageFormat, Modifier, WaitState, MAX_WAIT_TIMEOUT_MS,
};
use schemars::gen::SchemaSettings;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Open a URL in a new tab. By default the tab opens in the agent's own minimized window, so the user's
/// browsing is not disturbed; the result's tabId is the tab to pass to every later action.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OpenTabW {
    /// Absolute URL (http, https, file, about or data).
    #[schemars(url)]
    url: String,
    /// Open in the user's focused window instead of the agent window. Only when the user asked to see it. Default false.
    focus: Option<bool>,
}

/// Navigate a tab to a URL and wait for the load. Clears the tab's uids (call extract again).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct NavigateW {
    /// Absolute URL (http, https, file, about or data).
    #[schemars(url)]
    url: String,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Parameters of actions that only take a tab.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TabOnlyW {
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Bring a tab to the front and focus its window.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ActivateTabW {
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: i64,
}

/// Parameters of close_agent_tabs / close_agent_window.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OwnerOnlyW {
    /// Only this agent owner's tabs/window (a bridge client id). Omitted: the caller's own.
    #[schemars(length(min = 1))]
    owner: Option<String>,
}

/// List every tab: tabId, windowId, windowState, url, title, active, agentOwned, session.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoParamsW {}

/// Click an element (real mouse events at its centre, after scrolling it into view).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ClickW {
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
    /// Open a clicked link in a new agent tab (the result's tabId is the new tab). Default false: same tab.
    new_tab: Option<bool>,
}

/// Click at a viewport point.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ClickAtW {
    /// Viewport x, CSS px.
    #[schemars(range(min = 0))]
    x: f64,
    /// Viewport y, CSS px.
    #[schemars(range(min = 0))]
    y: f64,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Move the mouse over an element.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct HoverW {
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Type text into an element (focus, optionally clear, insert; frameworks see real input events).
/// Here `text` is the text to type: to find the field by its visible text use `locator: {"text": "…"}`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TypeW {
    /// The text to type.
    text: String,
    /// Select all and delete first. Default true.
    clear: Option<bool>,
    /// Press Enter after typing. Default false.
    submit: Option<bool>,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Press a key (KeyboardEvent.key), optionally with modifiers, optionally focusing an element first.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PressKeyW {
    /// KeyboardEvent.key: "Enter", "Escape", "Tab", "ArrowDown", "a", …
    #[schemars(length(min = 1))]
    key: String,
    /// Held modifiers.
    modifiers: Option<Vec<Modifier>>,
    /// Wait for the page to load after the key (e.g. Enter submits a form). Default false.
    wait_load: Option<bool>,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Scroll the page (or the located container) by dx/dy px, or to the end.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ScrollW {
    /// Horizontal px (negative: left).
    dx: Option<f64>,
    /// Vertical px (negative: up).
    dy: Option<f64>,
    /// Scroll to the end (bottom). Not with dx/dy.
    to_end: Option<bool>,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// One string or a non-empty array of strings.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
enum StringsW {
    One(String),
    #[schemars(length(min = 1))]
    Many(Vec<String>),
}

/// One index or a non-empty array of indexes.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
enum IndexesW {
    #[schemars(range(min = 0))]
    One(u32),
    #[schemars(length(min = 1))]
    Many(Vec<u32>),
}

/// Select option(s) of a <select> by value, label or index (arrays for multi-select); fires input + change.
/// Here `index` is the option index: to pick the n-th matching <select> use `locator: {"selector": "…", "index": n}`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SelectOptionW {
    /// Option value(s).
    value: Option<StringsW>,
    /// Option label(s) (visible text).
    label: Option<StringsW>,
    /// 0-based option index(es).
    index: Option<IndexesW>,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Check or uncheck a checkbox, radio or switch.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CheckW {
    /// The wanted state. Default true.
    checked: Option<bool>,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Set a control's value directly and fire input + change (for controls typing cannot reach).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SetValueW {
    /// The value.
    value: String,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Wait until an element (locator) or some text (textContains) reaches a state; not found in time → timeout.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WaitForW {
    /// Visible text to wait for (instead of a locator).
    #[schemars(length(min = 1))]
    text_contains: Option<String>,
    /// visible (default), attached or hidden.
    state: Option<WaitState>,
    /// ms to wait. Default 5000, at most 30000.
    #[schemars(range(min = 0, max = 30000))]
    timeout_ms: Option<u64>,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Read the page: url, title, text, markdown (read this first), elements [{uid, role, name}] to act on by uid,
/// and obstacle (auth_wall / captcha / access_denied; high confidence = stop and report).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ExtractW {
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Run JavaScript in the page: the expression is a function body, so it must `return` its value.
/// A thrown error comes back as invalid_action with the JS message.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct EvaluateW {
    /// Function body, e.g. "return document.title".
    #[schemars(length(min = 1))]
    expression: String,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Extract repeated items with CSS selectors only (no script): one object per `item` match.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ScrapeW {
    /// CSS selector of each item's container.
    #[schemars(length(min = 1))]
    item: String,
    /// Output field → "selector" (text) or "selector@attr" (attribute; a@href is absolute) inside the item.
    #[schemars(length(min = 1))]
    fields: Option<BTreeMap<String, String>>,
    /// At most this many items.
    #[schemars(range(min = 1))]
    limit: Option<u32>,
    /// ms to wait for the first item. Default 5000, at most 30000.
    #[schemars(range(min = 0, max = 30000))]
    timeout_ms: Option<u64>,
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
}

/// Capture the viewport (or the full page) as a base64 image.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ScreenshotW {
    /// The tab to act on: a tabId from open_tab or get_tabs. Omitted: the agent's own tab (activate_tab requires it).
    #[schemars(range(min = 0, max = 2147483647))]
    tab_id: Option<i64>,
    /// The whole page instead of the viewport. Default false.
    full_page: Option<bool>,
    /// png (default) or jpeg.
    format: Option<ImageFormat>,
    /// JPEG quality 0–100 (jpeg only).
    #[schemars(range(min = 0, max = 100))]
    quality: Option<u8>,
    /// Scale down to at most this width, px.
    #[schemars(range(min = 1))]
    max_width: Option<u32>,
}

/// How a locator can be written for an action.
#[derive(Clone, Copy, PartialEq)]
enum Loc {
    /// No locator.
    None,
    /// Exactly one locator.
    Required,
    /// At most one locator.
    Optional,
    /// Exactly one locator or `textContains` (wait_for).
    OrTextContains,
}

fn settings() -> SchemaSettings {
    SchemaSettings::draft07().with(|s| {
        s.option_add_null_type = false;
        s.option_nullable = false;
        s.inline_subschemas = true;
    })
}

fn derived<T: JsonSchema>() -> Map<String, Value> {
    let root = settings().into_generator().into_root_schema_for::<T>();
    match serde_json::to_value(root) {
        Ok(Value::Object(mut m)) => {
            m.remove("$schema");
            m.remove("title");
            m.remove("definitions");
            m
        }
        _ => Map::new(),
    }
}

fn required(keys: &[&str]) -> Value {
    json!({ "required": keys })
}

/// The locator properties (flat form) for an action that uses `taken` keys for its own params.
fn locator_props(taken: &[&str]) -> Vec<(&'static str, Value)> {
    let mut props = vec![(
        "uid",
        json!({"type": "string", "pattern": "^e[0-9]+$",
               "description": "Element uid from the latest extract of this tab (e.g. \"e7\"); preferred. Not with index."}),
    )];
    if !taken.contains(&"selector") {
        props.push((
            "selector",
            json!({"type": "string", "minLength": 1, "description": "CSS selector."}),
        ));
    }
    if !taken.contains(&"text") {
        props.push((
            "text",
            json!({"type": "string", "minLength": 1,
                   "description": "Visible text of the element (exact match first, then substring; deepest element first)."}),
        ));
    }
    props.push((
        "xpath",
        json!({"type": "string", "minLength": 1, "description": "XPath expression."}),
    ));
    if !taken.contains(&"index") {
        props.push((
            "index",
            json!({"type": "integer", "minimum": 0,
                   "description": "0-based index among the matches of selector/text/xpath. Default 0."}),
        ));
    }
    // The nested form is accepted everywhere, but shown only where a flat key is taken by a
    // parameter (type: text, select_option: index), to keep the schema short for agents.
    if !taken.is_empty() {
        props.push(("locator", nested_locator()));
    }
    props
}

fn nested_locator() -> Value {
    json!({
        "type": "object",
        "description": "The element, nested form (exactly one of uid/selector/text/xpath, plus index): needed for a text locator in type and for the element's index in select_option.",
        "properties": {
            "uid": {"type": "string", "pattern": "^e[0-9]+$"},
            "selector": {"type": "string", "minLength": 1},
            "text": {"type": "string", "minLength": 1},
            "xpath": {"type": "string", "minLength": 1},
            "index": {"type": "integer", "minimum": 0}
        },
        "additionalProperties": false,
        "oneOf": [required(&["uid"]), required(&["selector"]), required(&["text"]), required(&["xpath"])],
        "dependencies": {"uid": {"not": required(&["index"])}}
    })
}

/// The rules that tie the locator fields together.
fn locator_rules(loc: Loc, taken: &[&str]) -> Vec<Value> {
    let keys: Vec<&str> = ["uid", "selector", "text", "xpath", "locator"]
        .into_iter()
        .filter(|k| !taken.contains(k) && (*k != "locator" || !taken.is_empty()))
        .collect();
    let mut alternatives: Vec<Value> = keys.iter().map(|k| required(&[k])).collect();
    let mut rules = Vec::new();
    match loc {
        Loc::None => return rules,
        Loc::Required => rules.push(json!({ "oneOf": alternatives })),
        Loc::OrTextContains => {
            alternatives.push(required(&["textContains"]));
            rules.push(json!({ "oneOf": alternatives }));
        }
        Loc::Optional => {
            let none = json!({"not": {"anyOf": alternatives.clone()}});
            alternatives.push(none);
            rules.push(json!({ "oneOf": alternatives }));
        }
    }
    if !taken.contains(&"index") {
        let with_index: Vec<Value> = ["selector", "text", "xpath"]
            .into_iter()
            .filter(|k| !taken.contains(k))
            .map(|k| required(&[k]))
            .collect();
        rules.push(json!({"dependencies": {
            "uid": {"not": required(&["index"])},
            "index": {"anyOf": with_index}
        }}));
    }
    rules
}

/// How the action `name` takes a locator (SPEC §4).
fn locator_kind(name: &str) -> Loc {
    match name {
        "click" | "hover" | "type" | "select_option" | "check" | "set_value" => Loc::Required,
        "press_key" | "scroll" => Loc::Optional,
        "wait_for" => Loc::OrTextContains,
        _ => Loc::None,
    }
}

fn action_schema(name: &str) -> Value {
    let loc = locator_kind(name);
    let mut schema = match name {
        "open_tab" => derived::<OpenTabW>(),
        "navigate" => derived::<NavigateW>(),
        "go_back" | "go_forward" | "reload" | "close_tab" => derived::<TabOnlyW>(),
        "get_tabs" => derived::<NoParamsW>(),
        "activate_tab" => derived::<ActivateTabW>(),
        "close_agent_tabs" | "close_agent_window" => derived::<OwnerOnlyW>(),
        "click" => derived::<ClickW>(),
        "click_at" => derived::<ClickAtW>(),
        "hover" => derived::<HoverW>(),
        "type" => derived::<TypeW>(),
        "press_key" => derived::<PressKeyW>(),
        "scroll" => derived::<ScrollW>(),
        "select_option" => derived::<SelectOptionW>(),
        "check" => derived::<CheckW>(),
        "set_value" => derived::<SetValueW>(),
        "wait_for" => derived::<WaitForW>(),
        "extract" => derived::<ExtractW>(),
        "evaluate" => derived::<EvaluateW>(),
        "scrape" => derived::<ScrapeW>(),
        _ => derived::<ScreenshotW>(),
    };
    let taken = crate::action::taken_keys(name);
    let description = match name {
        "go_back" => "Go back in the tab's history and wait for the load.",
        "go_forward" => "Go forward in the tab's history and wait for the load.",
        "reload" => "Reload the tab and wait for the load.",
        "close_tab" => "Close a tab.",
        "close_agent_tabs" => {
            "Close the tabs the agent opened (only `owner`'s when given, else the caller's)."
        }
        "close_agent_window" => {
            "Close the agent's own window with its tabs; call it when the task is done."
        }
        _ => "",
    };
    if !description.is_empty() {
        schema.insert("description".into(), Value::String(description.into()));
    }

    let mut props = match schema.remove("properties") {
        Some(Value::Object(p)) => p,
        _ => Map::new(),
    };
    if loc != Loc::None {
        for (k, v) in locator_props(taken) {
            props.insert(k.into(), v);
        }
    }
    if name == "select_option" {
        // One value or a non-empty array of them (schemars drops `length` on untagged variants).
        for (key, item) in [
            ("value", json!({"type": "string"})),
            ("label", json!({"type": "string"})),
            ("index", json!({"type": "integer", "minimum": 0})),
        ] {
            if let Some(Value::Object(p)) = props.get_mut(key) {
                p.insert(
                    "anyOf".into(),
                    json!([item.clone(), {"type": "array", "items": item, "minItems": 1}]),
                );
            }
        }
        if let Some(Value::Object(index)) = props.get_mut("index") {
            index.insert(
                "description".into(),
                json!("0-based option index(es) (not the element's index)."),
            );
        }
    }
    if name == "press_key" {
        if let Some(Value::Object(m)) = props.get_mut("modifiers") {
            m.insert("uniqueItems".into(), Value::Bool(true));
        }
    }
    if name == "scrape" {
        if let Some(Value::Object(m)) = props.get_mut("fields") {
            m.remove("minLength");
            m.insert("minProperties".into(), json!(1));
        }
    }
    props.insert("type".into(), json!({"const": name}));

    let mut req = vec![Value::String("type".into())];
    if let Some(Value::Array(r)) = schema.remove("required") {
        req.extend(r);
    }

    let mut rules = locator_rules(loc, taken);
    match name {
        "scroll" => {
            let to_end = json!({"properties": {"toEnd": {"const": true}}, "required": ["toEnd"]});
            let amount = json!({"anyOf": [required(&["dx"]), required(&["dy"])]});
            rules.push(json!({"oneOf": [
                {"allOf": [amount.clone(), {"not": to_end.clone()}]},
                {"allOf": [to_end, {"not": amount}]}
            ]}));
        }
        "select_option" => {
            rules.push(json!({"oneOf": [required(&["value"]), required(&["label"]), required(&["index"])]}));
        }
        "screenshot" => {
            rules.push(json!({"dependencies": {
                "quality": {"properties": {"format": {"const": "jpeg"}}, "required": ["format"]}
            }}));
        }
        _ => {}
    }

    // Keep the property order of the wire fields (serde_json's map is sorted anyway unless
    // preserve_order is on; either way the output is deterministic).
    let mut ordered = Map::new();
    ordered.insert("type".into(), props.remove("type").unwrap_or(Value::Null));
    for field in action_fields(name) {
        if let Some(v) = props.remove(*field) {
            ordered.insert((*field).into(), v);
        }
    }
    ordered.extend(props);

    let mut out = Map::new();
    out.insert("title".into(), Value::String(name.into()));
    if let Some(d) = schema.remove("description") {
        out.insert("description".into(), d);
    }
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(ordered));
    out.insert("required".into(), Value::Array(req));
    out.insert("additionalProperties".into(), Value::Bool(false));
    match rules.len() {
        0 => {}
        1 => {
            if let Some(Value::Object(rule)) = rules.pop() {
                out.extend(rule);
            }
        }
        _ => {
            out.insert("allOf".into(), Value::Array(rules));
        }
    }
    let mut out = Value::Object(out);
    tidy(&mut out);
    out
}

/// Makes schemars' output read better for an agent, without changing what it accepts:
/// integral `range` bounds as integers (`30000`, not `30000.0`), no Rust numeric `format`s
/// (`int64`, `uint32`, …), and a string enum whose variants carry doc comments (a `oneOf` of
/// one-value enums) as one `enum`.
fn tidy(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if matches!(m.get("format").and_then(Value::as_str), Some(f) if f.starts_with("int") || f.starts_with("uint") || f == "double" || f == "float")
            {
                m.remove("format");
            }
            for key in ["minimum", "maximum"] {
                if let Some(f) = m
                    .get(key)
                    .and_then(Value::as_f64)
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                {
                    m.insert(key.into(), Value::from(f as i64));
                }
            }
            let one_value_enums = m.get("oneOf").and_then(Value::as_array).and_then(|alts| {
                alts.iter()
                    .map(
                        |alt| match alt.get("enum").and_then(Value::as_array).map(Vec::as_slice) {
                            Some([one]) if alt.get("type") == Some(&json!("string")) => {
                                Some(one.clone())
                            }
                            _ => None,
                        },
                    )
                    .collect::<Option<Vec<Value>>>()
            });
            if let Some(values) = one_value_enums {
                m.remove("oneOf");
                m.insert("type".into(), json!("string"));
                m.insert("enum".into(), Value::Array(values));
            }
            m.values_mut().for_each(tidy);
        }
        Value::Array(a) => a.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// The JSON Schema (draft-07) of one `browser` action as it appears on the wire: a top-level
/// `"type":"object"` (as MCP `inputSchema` requires) whose `oneOf` has one branch per action of
/// SPEC §4, each with `"type": {"const": "<action>"}`, camelCase properties with descriptions,
/// `additionalProperties: false` and the locator rules. No `$ref`s. Deterministic output.
pub fn json_schema() -> Value {
    let names = action_names();
    let one_of: Vec<Value> = names.iter().map(|n| action_schema(n)).collect();
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "browser",
        "description": format!(
            "One browser action per call (multi-step work = several calls). Keep the tabId returned by open_tab \
             and pass it to every later action. Elements are addressed by exactly one of uid (from the latest \
             extract, preferred), selector (CSS), text (visible text) or xpath, plus index (0-based, not with uid). \
             wait_for and scrape wait at most {MAX_WAIT_TIMEOUT_MS} ms."
        ),
        "type": "object",
        "properties": {"type": {"type": "string", "enum": names, "description": "The action."}},
        "required": ["type"],
        "oneOf": one_of
    })
}

/// The MCP tool's `inputSchema`: [`json_schema`] flattened into one object schema with no `oneOf`,
/// `anyOf` or `allOf` at the top level.
///
/// Why: several MCP hosts (Anthropic's API behind Claude Desktop and Claude Code among them) refuse a tool
/// whose `input_schema` combines schemas at the top level, so the strict union cannot be the tool's input.
/// Here every parameter of every action is one property (a parameter whose meaning differs between actions,
/// such as `text`, becomes a property-level `anyOf`), `type` lists the actions, and its description gives
/// each action's parameters (`?` = optional, `locator` = exactly one of uid/selector/text/xpath). The
/// extension still validates every action with [`crate::Action::from_value`], which names the offending field.
pub fn tool_input_schema() -> Value {
    let strict = json_schema();
    let mut order: Vec<String> = Vec::new();
    let mut variants: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
    let mut lines = Vec::new();
    for branch in strict["oneOf"].as_array().into_iter().flatten() {
        let name = branch["properties"]["type"]["const"]
            .as_str()
            .unwrap_or_default();
        let props = branch["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let required: Vec<&str> = branch["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let loc = locator_kind(name);
        let has_locator = loc != Loc::None;
        let taken = crate::action::taken_keys(name);
        let mut params = Vec::new();
        match loc {
            Loc::None => {}
            Loc::Required => params.push("locator".to_owned()),
            Loc::Optional => params.push("locator?".to_owned()),
            Loc::OrTextContains => params.push("locator or textContains".to_owned()),
        }
        for (key, schema) in &props {
            if key == "type" {
                continue;
            }
            // A key the action takes for itself (type's `text`, select_option's `index`) is
            // listed as its own parameter; the locator then goes nested.
            let is_locator_key = (has_locator
                && matches!(
                    key.as_str(),
                    "uid" | "selector" | "text" | "xpath" | "index" | "locator"
                )
                && !taken.contains(&key.as_str()))
                || (loc == Loc::OrTextContains && key == "textContains");
            if !is_locator_key {
                params.push(if required.contains(&key.as_str()) {
                    key.clone()
                } else {
                    format!("{key}?")
                });
            }
            let seen = variants.entry(key.clone()).or_default();
            if seen.is_empty() {
                order.push(key.clone());
            }
            if !seen.contains(schema) {
                seen.push(schema.clone());
            }
        }
        let what = branch["description"].as_str().unwrap_or_default();
        lines.push(format!("{name}({}): {what}", params.join(", ")));
    }
    let mut properties = Map::new();
    properties.insert(
        "type".into(),
        json!({
            "type": "string",
            "enum": action_names(),
            "description": format!("The action. Parameters per action (? = optional; locator = exactly one of uid, selector, text, xpath, plus index ≥ 0 not with uid):\n{}", lines.join("\n")),
        }),
    );
    for key in order {
        let mut schemas = variants.remove(&key).unwrap_or_default();
        let property = if schemas.len() == 1 {
            schemas.remove(0)
        } else {
            let description = schemas
                .iter()
                .filter_map(|s| s["description"].as_str())
                .collect::<Vec<_>>()
                .join(" / ");
            json!({ "description": description, "anyOf": schemas })
        };
        properties.insert(key, property);
    }
    json!({
        "$schema": strict["$schema"],
        "title": strict["title"],
        "description": strict["description"],
        "type": "object",
        "properties": properties,
        "required": ["type"],
        "additionalProperties": false
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
            "press_key(locator?, key, modifiers?, tabId?, waitLoad?)"
        );
        assert_eq!(
            summary("scroll"),
            "scroll(locator?, dx?, dy?, tabId?, toEnd?)"
        );
        assert_eq!(summary("click"), "click(locator, newTab?, tabId?)");
        assert_eq!(
            summary("type"),
            "type(locator, clear?, submit?, tabId?, text)"
        );
        assert_eq!(
            summary("select_option"),
            "select_option(locator, index?, label?, tabId?, value?)"
        );
        assert_eq!(
            summary("wait_for"),
            "wait_for(locator or textContains, state?, tabId?, timeoutMs?)"
        );
        assert_eq!(summary("extract"), "extract(tabId?)");
        // Every parameter is still a property of the flat schema.
        let schema = tool_input_schema();
        for key in ["textContains", "index", "locator", "uid", "text"] {
            assert!(schema["properties"].get(key).is_some(), "{key}");
        }
    }
}
