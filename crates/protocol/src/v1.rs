//! v1-bridge compatibility for clients (SPEC §9): the v1 method names and parameters
//! (the v1 bridge's) as aliases of the v4 actions, and the v1 result shapes.
//!
//! * methods: `list_tabs` → `get_tabs`, `new_tab` → `open_tab` (`url` defaults to `about:blank`),
//!   `close_auto_tabs` → `close_agent_tabs`, `run_script` → `evaluate` (`code` is an expression
//!   whose value is returned, serialised by the v1 rules), `clear` → `type` with empty text;
//! * params: snake_case names (`tab_id`, `new_tab`, `wait_load`, …) → their camelCase v4 names;
//!   `target: {by: css|text|xpath, value, index}` → the locator; `timeout` → `timeoutMs`
//!   (`scrape`, `wait_for`; dropped elsewhere: v4 actions have fixed timeouts); scroll's `smooth`
//!   is dropped; scrape's legacy `title`/`link`/`desc` → `fields`.
//! * results ([`client_result_for`]): the v1-only methods answer in their v1 shape for every
//!   client (`list_tabs` → `{tabs:[{tab_id, window_id, …}]}`, `new_tab` → `{tab_id, url, title,
//!   active, …}`, `run_script` → `{result, tab_id?}`); the methods v1 and v4 share (`navigate`,
//!   `click`, `close_tab`, …) answer a [`ClientDialect::V1`] client with the v4 result plus the v1
//!   snake_case keys (`tab_id` next to `tabId`), and a [`ClientDialect::V4`] client with the v4
//!   result unchanged.
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
                // The expression's value is returned (v1 semantics), serialised by the v1
                // rules; the newline keeps a trailing `// comment` from swallowing the parenthesis.
                p.insert(
                    "expression".into(),
                    Value::String(format!("return {V1_SERIALIZE}(\n{body}\n);")),
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

/// The v1 serialiser `run_script` wraps its expression in (the v1 bridge's serialisation rules): a function
/// applied to the expression's value (a promise is awaited) that returns plain JSON —
/// `null`/`undefined` → `null`; strings and booleans as is; numbers as is unless they are not
/// finite or are integers beyond 2^53 (→ their string); `BigInt` → its string; a DOM element →
/// `{__element: tag, id, class, text}` (text ≤ 200 chars); other nodes → `{__node, text}`;
/// arrays, `NodeList`s, `HTMLCollection`s and `Set`s → arrays; `Map`s → arrays of `[key, value]`;
/// a cycle → `"[Circular]"`; deeper than 32 levels → `"[Too deep]"`; functions → `"[Function name]"`.
pub const V1_SERIALIZE: &str = r#"((v) => { const seen = new WeakSet(); const ser = (x, d) => { if (x === null || x === undefined) return null; const t = typeof x; if (t === 'string' || t === 'boolean') return x; if (t === 'number') return (Number.isFinite(x) && !(Number.isInteger(x) && !Number.isSafeInteger(x))) ? x : String(x); if (t === 'bigint' || t === 'symbol') return String(x); if (t === 'function') return '[Function' + (x.name ? ' ' + x.name : '') + ']'; if (typeof Element !== 'undefined' && x instanceof Element) { const c = typeof x.className === 'string' ? x.className : x.getAttribute('class'); return {__element: x.tagName.toLowerCase(), id: x.id || null, class: c || null, text: String(x.innerText ?? x.textContent ?? '').trim().slice(0, 200)}; } if (typeof Node !== 'undefined' && x instanceof Node) return {__node: x.nodeName.toLowerCase(), text: String(x.textContent ?? '').trim().slice(0, 200)}; if (seen.has(x)) return '[Circular]'; if (d > 32) return '[Too deep]'; seen.add(x); try { if (x instanceof Date) return isNaN(x) ? null : x.toISOString(); if (Array.isArray(x) || x instanceof Set || (typeof NodeList !== 'undefined' && x instanceof NodeList) || (typeof HTMLCollection !== 'undefined' && x instanceof HTMLCollection)) return Array.from(x, (e) => ser(e, d + 1)); if (x instanceof Map) return Array.from(x, ([k, e]) => [ser(k, d + 1), ser(e, d + 1)]); if (typeof x.toJSON === 'function') return ser(x.toJSON(), d + 1); const o = {}; for (const k of Object.keys(x)) o[k] = ser(x[k], d + 1); return o; } finally { seen.delete(x); } }; return Promise.resolve(v).then((r) => ser(r, 0)); })"#;

/// Which result shapes a client reads (SPEC §9): decided once per connection, from its `hello`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientDialect {
    /// A v1-bridge client: its `hello` carries no `protocolVersion` (the v1 hello, SPEC §2).
    /// Results of the methods v1 and v4 share gain the v1 snake_case keys (`tab_id`,
    /// `window_id`, `at_end`, …) next to the v4 camelCase ones, so both kinds of reader work.
    V1,
    /// A client that declared `protocolVersion` 4: v4 results exactly as SPEC §4 gives them.
    V4,
}

/// Whether `method` is a v1-only name (`list_tabs`, `new_tab`, `close_auto_tabs`, `run_script`,
/// `clear`): these answer in their v1 result shape whatever the client's dialect.
pub fn is_v1_method(method: &str) -> bool {
    matches!(
        method,
        "list_tabs" | "new_tab" | "close_auto_tabs" | "run_script" | "clear"
    )
}

/// Reshapes a v4 result for a v1 method: `list_tabs` answers `{tabs:[{tab_id, window_id, url,
/// title, active, …}]}` (snake_case keys); every other method's result is returned as is.
/// Same as [`client_result_for`] with no params and [`ClientDialect::V4`].
pub fn client_result(method: &str, result: Value) -> Value {
    client_result_for(method, &Value::Null, result, ClientDialect::V4)
}

/// The result a client gets for `method` called with `params`, from the v4 `result` (SPEC §9,
/// the v1 bridge's result shapes):
///
/// * `list_tabs` → `{tabs:[{tab_id, window_id, window_state, url, title, active, agent_owned, session}]}`;
/// * `new_tab` → the `open_tab` result with snake_case keys: `{tab_id, window_id, domain}`, plus
///   `url`, `title`, `active` when the bridge added them (it looks the tab up after opening it);
/// * `run_script` → `{result: <the expression's value>, tab_id?}` (`tab_id` when the request
///   named it or the extension reported it); a value over 8 KB gives `{result: <preview>,
///   truncated: true, …}`; a value that could not be serialised gives its description;
/// * `clear` and `close_auto_tabs` → snake_case keys (`{element, value, tab_id}`, `{closed}`);
/// * any other method: unchanged for [`ClientDialect::V4`]; for [`ClientDialect::V1`] the
///   top-level camelCase keys also appear in snake_case (`{clicked, tabId, tab_id}`).
pub fn client_result_for(
    method: &str,
    params: &Value,
    result: Value,
    dialect: ClientDialect,
) -> Value {
    match method {
        "list_tabs" => match result {
            Value::Object(mut m) => {
                if let Some(Value::Array(tabs)) = m.remove("tabs") {
                    let tabs = tabs.into_iter().map(snake_keys).collect();
                    m.insert("tabs".into(), Value::Array(tabs));
                }
                Value::Object(m)
            }
            other => other,
        },
        "new_tab" | "clear" | "close_auto_tabs" => snake_keys(result),
        "run_script" => run_script_result(params, result),
        _ => match dialect {
            ClientDialect::V4 => result,
            ClientDialect::V1 => with_snake_aliases(result),
        },
    }
}

/// `{type, value}` / `{type, description}` / `{type, truncated, preview}` → `{result, tab_id?}`.
fn run_script_result(params: &Value, result: Value) -> Value {
    let Value::Object(mut m) = result else {
        return result;
    };
    let mut out = Map::new();
    let value = if let Some(v) = m.remove("value") {
        v
    } else if m.get("truncated").and_then(Value::as_bool) == Some(true) {
        out.insert("truncated".into(), Value::Bool(true));
        m.remove("preview").unwrap_or(Value::Null)
    } else if let Some(d) = m.remove("description") {
        d
    } else {
        // `undefined` (no value at all) reads as null, as in v1.
        Value::Null
    };
    out.insert("result".into(), value);
    let tab = m
        .remove("tabId")
        .or_else(|| m.remove("tab_id"))
        .or_else(|| params.get("tab_id").cloned())
        .or_else(|| params.get("tabId").cloned())
        .filter(|v| !v.is_null());
    if let Some(tab) = tab {
        out.insert("tab_id".into(), tab);
    }
    Value::Object(out)
}

/// An object's top-level keys in snake_case (`tabId` → `tab_id`); other values unchanged.
fn snake_keys(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| (camel_to_snake(&k), v))
                .collect(),
        ),
        other => other,
    }
}

/// An object with each camelCase top-level key also present in snake_case (both kept).
fn with_snake_aliases(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut out = m.clone();
            for (k, v) in m {
                let snake = camel_to_snake(&k);
                if snake != k && !out.contains_key(&snake) {
                    out.insert(snake, v);
                }
            }
            Value::Object(out)
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
