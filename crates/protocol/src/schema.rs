//! JSON Schema of the action union as it appears on the wire (SPEC §9 `bua-bridge schema`, the
//! MCP tool's `inputSchema`).
//!
//! Every branch comes from the action table of `action.rs`: the description is the action's doc
//! comment, each property comes from its field's codec with the field's doc comment as the
//! description, and the cross-field rules JSON Schema can state — exactly one locator, `index`
//! not with `uid`, `dx`/`dy` or `toEnd`, one of `value`/`label`/`index`, `quality` only with
//! jpeg — come from the locator and the parameter struct's rules. [`Action::from_value`] stays
//! the authority (it also checks URLs and uids); every action it accepts, serialised
//! canonically, validates against this schema (tested).
//!
//! [`Action::from_value`]: crate::Action::from_value

use crate::action::{action_names, spec_named, specs, Spec, MAX_WAIT_TIMEOUT_MS};
use crate::field::{described, doc_text, tidy};
use crate::locator::{locator_rules, Loc};
use crate::wire::TYPE_KEY;
use serde_json::{json, Map, Value};

/// The wire key of the nested locator.
const LOCATOR_KEY: &str = "locator";

/// The wire key of an action's dialog answer (`promptText` goes with it).
const DIALOG_KEY: &str = "dialog";

/// The strict schema branch of one action.
fn action_schema(spec: &Spec) -> Value {
    let loc = (spec.loc)();
    let taken = (spec.taken)();
    let mut props = Map::new();
    props.insert(TYPE_KEY.into(), json!({ "const": spec.name }));
    for (key, schema) in (spec.properties)() {
        let schema = match spec.doc_overrides.iter().find(|(k, _)| *k == key) {
            Some((_, doc)) => described(schema, doc),
            None => schema,
        };
        props.insert(key.into(), schema);
    }
    let mut required = vec![TYPE_KEY];
    required.extend((spec.required)());
    let mut rules = locator_rules(loc, &taken);
    rules.extend((spec.rules)());

    let mut out = Map::new();
    out.insert("title".into(), Value::String(spec.name.into()));
    let description = doc_text(spec.doc);
    if !description.is_empty() {
        out.insert("description".into(), Value::String(description));
    }
    out.insert(TYPE_KEY.into(), json!("object"));
    out.insert("properties".into(), Value::Object(props));
    out.insert("required".into(), json!(required));
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

/// The JSON Schema (draft-07) of one `browser` action as it appears on the wire: a top-level
/// `"type":"object"` (as MCP `inputSchema` requires) whose `oneOf` has one branch per action of
/// SPEC §4, each with `"type": {"const": "<action>"}`, camelCase properties with descriptions,
/// `additionalProperties: false` and the locator rules. No `$ref`s. Deterministic output.
pub fn json_schema() -> Value {
    let names = action_names();
    let one_of: Vec<Value> = specs().iter().map(action_schema).collect();
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
/// `anyOf` or `allOf` at the top level, and no `$ref`.
///
/// Why: several MCP hosts (Anthropic's API behind Claude Desktop and Claude Code among them) refuse a tool
/// whose `input_schema` combines schemas at the top level, so the strict union cannot be the tool's input;
/// and several MCP clients cannot resolve a `$ref` into `$defs`/`definitions`, so the nested locator is
/// written out where it is used. Here every parameter of every action is one property (a parameter whose
/// shape differs between actions, such as select_option's `index`, becomes a property-level `anyOf`), `type`
/// lists the actions and `help`, and its description gives each action's parameters (`?` = optional, `locator` =
/// exactly one of uid/selector/text/xpath). Every agent pays for this schema in its context, so it leaves out
/// what the text already says or `help` gives (SPEC §9 "Tool definition"): the properties' descriptions (but
/// `tabId`'s), `minLength: 1`, and the nested locator's
/// exactly-one rules (see [`compact`]). It has no `$schema` either: every keyword left means the same in
/// draft-07 and in 2020-12 (the MCP default). The extension still validates every action with
/// [`crate::Action::from_value`], which names the offending field.
pub fn tool_input_schema() -> Value {
    let flat = flatten();
    let mut properties = Map::new();
    let lines: Vec<String> = flat.lines.iter().map(|(_, l)| l.clone()).collect();
    let mut names: Vec<&str> = action_names().to_vec();
    names.push(HELP_TYPE);
    properties.insert(
        "type".into(),
        json!({
            "type": "string",
            "enum": names,
            "description": format!("The action. Parameters (?: optional, booleans default false; locator: exactly one of uid, selector, text, xpath, plus index ≥ 0 not with uid):\n{}\nAlso dialog?, promptText? on {}.\n{HELP_TYPE}(action?): an action's parameters in detail, or (no action) every error code and what to do.", lines.join("\n"), flat.answering.join(", ")),
        }),
    );
    let mut variants = flat.variants;
    for key in flat.order {
        let mut property = merged(variants.remove(&key).unwrap_or_default());
        // Field texts are in `help` (SPEC §9 "Tool definition"); only tabId's stays, it is on every line.
        if key != "tabId" {
            if let Value::Object(m) = &mut property {
                m.remove("description");
            }
        }
        properties.insert(key, property);
    }
    // The nested locator is written out once, as `locator`; elsewhere (drag's `from` and `to`) it
    // is a plain object.
    if let Some(shape) = properties.get(LOCATOR_KEY).map(undescribed) {
        for (key, property) in properties.iter_mut() {
            if key != LOCATOR_KEY {
                refer_to(property, &shape);
            }
        }
    }
    properties.insert(HELP_ACTION_KEY.into(), json!({"type": "string"}));
    json!({
        "type": "object",
        "properties": properties,
        "required": ["type"],
        "additionalProperties": false
    })
}

/// The pseudo-action an agent sends for details (`{"type":"help","action":"click"}`): answered by
/// the MCP server from this table ([`crate::action_help`]), never sent to the extension (SPEC §9).
pub const HELP_TYPE: &str = "help";

/// The key of `help` that names the action to explain.
pub const HELP_ACTION_KEY: &str = "action";

/// Every action's one-line summary, in table order: `(name, "click(locator, newTab?, tabId?): Click …")`.
/// The tool schema's `type` description, `bua-bridge actions` and the skill file all show these lines.
pub fn action_summaries() -> Vec<(&'static str, String)> {
    flatten().lines
}

/// The strict schema branch of the action named `name` (its `oneOf` branch in [`json_schema`]).
pub(crate) fn strict_branch(name: &str) -> Option<Value> {
    spec_named(name).map(action_schema)
}

/// The strict union flattened: each action's summary line, and every property's shapes across actions.
struct Flat {
    lines: Vec<(&'static str, String)>,
    order: Vec<String>,
    variants: std::collections::BTreeMap<String, Vec<Value>>,
    answering: Vec<&'static str>,
}

fn flatten() -> Flat {
    let mut flat = Flat {
        lines: Vec::new(),
        order: Vec::new(),
        variants: Default::default(),
        answering: Vec::new(),
    };
    for spec in specs() {
        let branch = action_schema(spec);
        let name = spec.name;
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
        let loc = (spec.loc)();
        let has_locator = loc != Loc::None;
        let taken = (spec.taken)();
        let mut params = Vec::new();
        if props.contains_key(DIALOG_KEY) {
            flat.answering.push(name);
        }
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
            // `dialog`/`promptText` are named once below, not on every line.
            let is_dialog_key = key == DIALOG_KEY || key == "promptText";
            if !is_locator_key && !is_dialog_key {
                params.push(if required.contains(&key.as_str()) {
                    key.clone()
                } else {
                    format!("{key}?")
                });
            }
            let seen = flat.variants.entry(key.clone()).or_default();
            if seen.is_empty() {
                flat.order.push(key.clone());
            }
            let mut schema = schema.clone();
            compact(&mut schema, true);
            if !seen.contains(&schema) {
                seen.push(schema);
            }
        }
        let what = branch["description"].as_str().unwrap_or_default();
        flat.lines
            .push((name, format!("{name}({}): {what}", params.join(", "))));
    }
    flat
}

/// Leaves out of a property's schema what the tool schema's text already says, without refusing
/// anything the strict schema accepts: descriptions below the property itself (`top` is the
/// property), `minLength: 1` (no agent sends an empty selector), and a nested object's `oneOf` and
/// `dependencies` (the nested locator's exactly-one and index-not-with-uid rules, which the `type`
/// description states for every locator).
fn compact(v: &mut Value, top: bool) {
    match v {
        Value::Object(m) => {
            if !top {
                m.remove("description");
            }
            if m.get("minLength") == Some(&json!(1)) {
                m.remove("minLength");
            }
            if m.contains_key("properties") {
                m.remove("oneOf");
                m.remove("dependencies");
            }
            for (key, sub) in m.iter_mut() {
                if key == "properties" {
                    if let Value::Object(props) = sub {
                        props.values_mut().for_each(|p| compact(p, false));
                    }
                } else {
                    compact(sub, false);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| compact(x, false)),
        _ => {}
    }
}

/// One property from the shapes it has in several actions: one shape as it is; several as an
/// `anyOf` of the distinct shapes (an alternative that is itself only an `anyOf` gives its members)
/// under the actions' descriptions, each said once.
fn merged(schemas: Vec<Value>) -> Value {
    if let [one] = schemas.as_slice() {
        return one.clone();
    }
    let mut descriptions: Vec<Value> = Vec::new();
    let mut shapes: Vec<Value> = Vec::new();
    for mut schema in schemas {
        if let Value::Object(m) = &mut schema {
            if let Some(d) = m.remove("description") {
                if !descriptions.contains(&d) {
                    descriptions.push(d);
                }
            }
        }
        let members = match schema {
            Value::Object(mut m) if m.len() == 1 && m.contains_key("anyOf") => {
                match m.remove("anyOf") {
                    Some(Value::Array(members)) => members,
                    _ => Vec::new(),
                }
            }
            other => vec![other],
        };
        for member in members {
            if !shapes.contains(&member) {
                shapes.push(member);
            }
        }
    }
    let description = descriptions
        .iter()
        .filter_map(Value::as_str)
        .collect::<Vec<_>>()
        .join(" / ");
    let mut out = match shapes.len() {
        1 => shapes.remove(0),
        _ => json!({ "anyOf": shapes }),
    };
    if let Value::Object(m) = &mut out {
        if !description.is_empty() {
            m.insert("description".into(), Value::String(description));
        }
    }
    out
}

/// `schema` without its description.
fn undescribed(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Value::Object(m) = &mut schema {
        m.remove("description");
    }
    schema
}

/// Replaces every subschema of `v` that is `shape` (but for its description) by a plain object
/// schema, keeping the description; an `anyOf` of objects that then holds a plain object becomes one.
fn refer_to(v: &mut Value, shape: &Value) {
    if undescribed(v) == *shape {
        let description = v.get("description").cloned();
        *v = json!({"type": "object"});
        if let Some(d) = description {
            v["description"] = d;
        }
        return;
    }
    match v {
        Value::Object(m) => {
            m.values_mut().for_each(|sub| refer_to(sub, shape));
            // An `anyOf` of objects one of which is now any object is any object (drag's `to`: a
            // locator or a point {x, y}, which its description names).
            let plain = json!({"type": "object"});
            let any_object = m
                .get("anyOf")
                .and_then(Value::as_array)
                .is_some_and(|alts| {
                    alts.contains(&plain) && alts.iter().all(|a| a["type"] == "object")
                });
            if any_object {
                m.remove("anyOf");
                m.insert("type".into(), json!("object"));
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|sub| refer_to(sub, shape)),
        _ => {}
    }
}
