//! v1-bridge compatibility for clients (SPEC §9): the v1 method names and parameters
//! (`seeds/002`) as aliases of the v4 actions, and the v1 result shape of `list_tabs`.
//!
//! * methods: `list_tabs` → `get_tabs`, `new_tab` → `open_tab` (`url` defaults to `about:blank`),
//!   `close_auto_tabs` → `close_agent_tabs`, `run_script` → `evaluate` (`code` is an expression
//!   whose value is returned), `clear` → `type` with empty text;
//! * params: snake_case names (`tab_id`, `new_tab`, `wait_load`, …) → their camelCase v4 names;
//!   `target: {by: css|text|xpath, value, index}` → the locator; `timeout` → `timeoutMs`
//!   (`scrape`, `wait_for`; dropped elsewhere: v4 actions have fixed timeouts); scroll's `smooth`
//!   is dropped; scrape's legacy `title`/`link`/`desc` → `fields`.
//!
//! v4 requests go through unchanged, so a v4 client still gets the v4 validation messages.

use crate::action::{action_fields, action_names, Action};
use crate::error::ErrorBody;
use crate::wire::{kind, snake_to_camel};
use serde_json::{Map, Value};

/// The v4 action a v1 method name stands for (`list_tabs` → `get_tabs`, …); v4 names map to
/// themselves; `None` for anything else.
pub fn v4_method(method: &str) -> Option<&'static str> {
    match method {
        "list_tabs" => Some("get_tabs"),
        "new_tab" => Some("open_tab"),
        "close_auto_tabs" => Some("close_agent_tabs"),
        "run_script" => Some("evaluate"),
        "clear" => Some("type"),
        other => action_names().iter().copied().find(|n| *n == other),
    }
}

fn invalid(msg: String) -> ErrorBody {
    ErrorBody::invalid(msg)
}

/// Turns a client's `method` + `params` (v4 or v1 spelling) into a validated v4 [`Action`].
/// Errors are `invalid_action` naming the field (`params: target.by: …`, `click: uid: …`).
pub fn client_action(method: &str, params: &Value) -> Result<Action, ErrorBody> {
    let Some(name) = v4_method(method) else {
        return Err(invalid(format!(
            "method: unknown method `{method}`; expected ping, one of {}, or a v1 name (list_tabs, new_tab, close_auto_tabs, run_script, clear)",
            action_names().join(", ")
        )));
    };
    let mut p = match params {
        Value::Object(m) => m.clone(),
        Value::Null => Map::new(),
        other => {
            return Err(invalid(format!(
                "params: must be an object, got {}",
                kind(other)
            )))
        }
    };
    if p.contains_key("type") {
        return Err(invalid(
            "params: unknown field `type` (the action type is the method)".into(),
        ));
    }
    let allowed = action_fields(name);

    // Method-specific v1 shapes.
    match method {
        "list_tabs" => p.clear(),
        "new_tab" if matches!(p.get("url"), None | Some(Value::Null)) => {
            p.insert("url".into(), Value::String("about:blank".into()));
        }
        "run_script" => {
            if let Some(code) = p.remove("code") {
                let Value::String(code) = code else {
                    return Err(invalid(format!(
                        "params: code: must be a string, got {}",
                        kind(&code)
                    )));
                };
                let body = code.trim().trim_end_matches(';').trim_end();
                if body.is_empty() {
                    return Err(invalid("params: code: must not be empty".into()));
                }
                // The expression's value is returned (v1 semantics); the newline keeps a
                // trailing `// comment` from swallowing the parenthesis.
                p.insert(
                    "expression".into(),
                    Value::String(format!("return (\n{body}\n);")),
                );
            }
        }
        "clear" => {
            p.insert("text".into(), Value::String(String::new()));
            p.insert("clear".into(), Value::Bool(true));
        }
        _ => {}
    }
    if name == "scrape" {
        legacy_scrape_fields(&mut p)?;
    }
    if let Some(timeout) = p.remove("timeout") {
        if allowed.contains(&"timeoutMs") && !p.contains_key("timeoutMs") {
            p.insert("timeoutMs".into(), timeout);
        }
    }
    if name == "scroll" {
        p.remove("smooth");
    }
    if let Some(target) = p.remove("target") {
        if allowed.contains(&"locator") && !p.contains_key("locator") {
            p.insert("locator".into(), target_to_locator(&target)?);
        } else {
            return Err(invalid(format!("{name}: unknown field `target`")));
        }
    }
    // snake_case → camelCase for the action's own fields.
    let snake: Vec<String> = p.keys().filter(|k| k.contains('_')).cloned().collect();
    for key in snake {
        let camel = snake_to_camel(&key);
        if allowed.contains(&camel.as_str()) && !p.contains_key(&camel) {
            if let Some(v) = p.remove(&key) {
                p.insert(camel, v);
            }
        }
    }
    p.insert("type".into(), Value::String(name.into()));
    Action::from_value(&Value::Object(p))
}

/// `target: {by: css|text|xpath (default css), value, index?}` → a nested locator.
fn target_to_locator(target: &Value) -> Result<Value, ErrorBody> {
    let Value::Object(t) = target else {
        return Err(invalid(format!(
            "params: target: must be an object {{by, value, index}}, got {}",
            kind(target)
        )));
    };
    if let Some(extra) = t
        .keys()
        .find(|k| !matches!(k.as_str(), "by" | "value" | "index"))
    {
        return Err(invalid(format!(
            "params: target: unknown field `{extra}`; expected by, value, index"
        )));
    }
    let key = match t.get("by") {
        None | Some(Value::Null) => "selector",
        Some(Value::String(by)) => match by.as_str() {
            "css" => "selector",
            "text" => "text",
            "xpath" => "xpath",
            other => {
                return Err(invalid(format!(
                    "params: target.by: unknown `{other}` (use css, text or xpath)"
                )))
            }
        },
        Some(other) => {
            return Err(invalid(format!(
                "params: target.by: must be a string, got {}",
                kind(other)
            )))
        }
    };
    let value = match t.get("value") {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => return Err(invalid("params: target.value: required".into())),
        Some(other) => {
            return Err(invalid(format!(
                "params: target.value: must be a string, got {}",
                kind(other)
            )))
        }
    };
    let mut loc = Map::new();
    loc.insert(key.into(), Value::String(value));
    if let Some(index) = t.get("index").filter(|v| !v.is_null()) {
        loc.insert("index".into(), index.clone());
    }
    Ok(Value::Object(loc))
}

/// v1 scrape: `title` / `link` / `desc` → `fields {title, url, description}`, unless `fields` is given.
fn legacy_scrape_fields(p: &mut Map<String, Value>) -> Result<(), ErrorBody> {
    let legacy = [("title", "title"), ("link", "url"), ("desc", "description")];
    let mut fields = Map::new();
    for (old, new) in legacy {
        if let Some(v) = p.remove(old) {
            match v {
                Value::String(s) => {
                    fields.insert(new.into(), Value::String(s));
                }
                Value::Null => {}
                other => {
                    return Err(invalid(format!(
                        "params: {old}: must be a string, got {}",
                        kind(&other)
                    )))
                }
            }
        }
    }
    if !fields.is_empty() && !p.contains_key("fields") {
        p.insert("fields".into(), Value::Object(fields));
    }
    Ok(())
}

/// Reshapes a v4 result for a v1 method: `list_tabs` answers `{tabs:[{tab_id, window_id, url,
/// title, active, …}]}` (snake_case keys); every other method's result is returned as is.
pub fn client_result(method: &str, result: Value) -> Value {
    if method != "list_tabs" {
        return result;
    }
    match result {
        Value::Object(mut m) => {
            if let Some(Value::Array(tabs)) = m.remove("tabs") {
                let tabs = tabs
                    .into_iter()
                    .map(|t| match t {
                        Value::Object(tab) => Value::Object(
                            tab.into_iter()
                                .map(|(k, v)| (camel_to_snake(&k), v))
                                .collect(),
                        ),
                        other => other,
                    })
                    .collect();
                m.insert("tabs".into(), Value::Array(tabs));
            }
            Value::Object(m)
        }
        other => other,
    }
}

fn camel_to_snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for ch in s.chars() {
        if ch.is_ascii_uppercase() {
            out.push('_');
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}
