//! Small typed helpers over the CDP `Runtime` domain for the action handlers: evaluate a page-side
//! snippet, call a function on a resolved object, read `RemoteObject`s, and keep every object an action
//! creates in one object group that is released when the action ends.
//!
//! Page-side snippets are Rust string constants next to the handler that uses them; arguments cross
//! into the page as `Runtime.callFunctionOn` arguments (or JSON literals), never spliced as source.

use crate::cdp;
use crate::error::{Error, Result};
use serde_json::{json, Value};

/// The `Runtime` object group of everything an action resolves; released by [`release`].
pub const GROUP: &str = "bua-action";

/// A CDP `Runtime.RemoteObject` (the fields the actions read).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RemoteObject {
    /// `object`, `function`, `string`, `number`, `boolean`, `undefined`, `symbol`, `bigint`.
    pub kind: String,
    /// `node`, `array`, `null`, `map`, … for objects.
    pub subtype: Option<String>,
    /// CDP's description (`"button#save"`, `"Map(2)"`, …).
    pub description: Option<String>,
    /// Present for primitives (and for by-value results).
    pub value: Option<Value>,
    /// `NaN`, `Infinity`, `-0`, `10n`: values JSON cannot carry.
    pub unserializable: Option<String>,
    /// Present for objects held in the page.
    pub object_id: Option<String>,
}

impl RemoteObject {
    /// Parses a CDP `RemoteObject` JSON object.
    pub fn from_json(v: &Value) -> RemoteObject {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        RemoteObject {
            kind: s("type").unwrap_or_else(|| "undefined".to_owned()),
            subtype: s("subtype"),
            description: s("description"),
            value: v.get("value").cloned(),
            unserializable: s("unserializableValue"),
            object_id: s("objectId"),
        }
    }

    /// Whether the object is a DOM node.
    pub fn is_node(&self) -> bool {
        self.subtype.as_deref() == Some("node")
    }
}

/// What a page-side call produced: a value, or the exception it threw (its message).
pub type Outcome<T> = std::result::Result<T, String>;

/// An argument of [`call`]: a JSON value or an object held in the page.
#[derive(Clone, Debug)]
pub enum Arg {
    /// Passed by value.
    Value(Value),
    /// A `Runtime.RemoteObjectId`.
    Object(String),
}

impl Arg {
    fn to_cdp(&self) -> Value {
        match self {
            Arg::Value(v) => json!({ "value": v }),
            Arg::Object(id) => json!({ "objectId": id }),
        }
    }
}

/// Evaluates `expression` in the main frame's main world, keeping the result in the page
/// ([`GROUP`]). `Ok(Err(message))` when it threw.
pub async fn eval_object(tab_id: i64, expression: &str) -> Result<Outcome<RemoteObject>> {
    let params = json!({
        "expression": expression,
        "objectGroup": GROUP,
        "silent": true,
        "awaitPromise": true,
    });
    let response = evaluate_retrying(tab_id, params, cdp::COMMAND_TIMEOUT_MS).await?;
    Ok(outcome(&response))
}

/// CDP messages that mean the JavaScript context went away under the command (the page navigated or a
/// frame was replaced).
const CONTEXT_GONE: [&str; 5] = [
    "Cannot find context with specified id",
    "Could not find object with given id",
    "Execution context was destroyed",
    "Cannot find default execution context",
    "Inspected target navigated or closed",
];

/// Whether `error` says the page's JavaScript context went away (see [`CONTEXT_GONE`]).
pub fn context_gone(error: &Error) -> bool {
    matches!(error, Error::Internal(m) if CONTEXT_GONE.iter().any(|p| m.contains(p)))
}

/// `Runtime.evaluate` in the page's current main context; while a navigation swaps the context, tries again
/// (3 times, 150 ms apart) instead of failing.
async fn evaluate_retrying(tab_id: i64, params: Value, timeout_ms: u32) -> Result<Value> {
    let mut attempt = 0;
    loop {
        match cdp::send_with_timeout(tab_id, "Runtime.evaluate", params.clone(), timeout_ms).await {
            Err(e) if context_gone(&e) && attempt < 3 => {
                attempt += 1;
                cdp::sleep(150).await;
            }
            other => return other,
        }
    }
}

/// Evaluates `expression` and returns its JSON value; an exception is [`Error::Internal`].
pub async fn eval_value(tab_id: i64, expression: &str) -> Result<Value> {
    eval_value_with_timeout(tab_id, expression, cdp::COMMAND_TIMEOUT_MS).await
}

/// [`eval_value`] with a CDP timeout in ms (polling loops use short ones).
pub async fn eval_value_with_timeout(
    tab_id: i64,
    expression: &str,
    timeout_ms: u32,
) -> Result<Value> {
    let params = json!({
        "expression": expression,
        "returnByValue": true,
        "silent": true,
        "awaitPromise": true,
    });
    let response = evaluate_retrying(tab_id, params, timeout_ms).await?;
    by_value(outcome(&response)).map_err(|m| Error::Internal(format!("page script failed: {m}")))
}

/// Calls `function` (a JS function declaration) with `this` = `object_id`, keeping the result in the
/// page. `Ok(Err(message))` when it threw.
pub async fn call_object(
    tab_id: i64,
    object_id: &str,
    function: &str,
    args: &[Arg],
) -> Result<Outcome<RemoteObject>> {
    let response = call_raw(tab_id, object_id, function, args, false).await?;
    Ok(outcome(&response))
}

/// Calls `function` with `this` = `object_id` and returns its JSON value. `Ok(Err(message))` when it
/// threw.
pub async fn call_checked(
    tab_id: i64,
    object_id: &str,
    function: &str,
    args: &[Arg],
) -> Result<Outcome<Value>> {
    let response = call_raw(tab_id, object_id, function, args, true).await?;
    Ok(by_value(outcome(&response)))
}

/// [`call_checked`] where an exception is a bug of ours: [`Error::Internal`].
pub async fn call_value(
    tab_id: i64,
    object_id: &str,
    function: &str,
    args: &[Arg],
) -> Result<Value> {
    call_checked(tab_id, object_id, function, args)
        .await?
        .map_err(|m| Error::Internal(format!("page script failed: {m}")))
}

async fn call_raw(
    tab_id: i64,
    object_id: &str,
    function: &str,
    args: &[Arg],
    by_value: bool,
) -> Result<Value> {
    let arguments: Vec<Value> = args.iter().map(Arg::to_cdp).collect();
    cdp::send(
        tab_id,
        "Runtime.callFunctionOn",
        json!({
            "objectId": object_id,
            "functionDeclaration": function,
            "arguments": arguments,
            "returnByValue": by_value,
            "objectGroup": GROUP,
            "silent": true,
            "awaitPromise": true,
        }),
    )
    .await
    .map_err(|e| {
        if context_gone(&e) {
            page_changed(tab_id)
        } else {
            e
        }
    })
}

/// `element_stale` for an element whose page navigated or re-rendered while an action used it.
pub fn page_changed(tab_id: i64) -> Error {
    Error::ElementStale(format!(
        "tab {tab_id}'s page navigated or re-rendered during the action, so the element is gone; call \
         extract (or wait_for the element) and try again"
    ))
}

/// The result of `Runtime.evaluate` / `Runtime.callFunctionOn`: the object, or the exception message.
pub fn outcome(response: &Value) -> Outcome<RemoteObject> {
    if let Some(details) = response.get("exceptionDetails") {
        return Err(exception_message(details));
    }
    Ok(RemoteObject::from_json(
        response.get("result").unwrap_or(&Value::Null),
    ))
}

fn by_value(outcome: Outcome<RemoteObject>) -> Outcome<Value> {
    outcome.map(|o| o.value.unwrap_or(Value::Null))
}

/// The message of a CDP `ExceptionDetails`: the thrown error's first description line
/// (`"TypeError: x is not a function"`), else its text.
pub fn exception_message(details: &Value) -> String {
    let exception = details.get("exception");
    if let Some(desc) = exception
        .and_then(|e| e.get("description"))
        .and_then(Value::as_str)
    {
        // The description carries the stack after the first line.
        let first = desc.lines().next().unwrap_or(desc).trim();
        if !first.is_empty() {
            return first.to_owned();
        }
    }
    if let Some(v) = exception.and_then(|e| e.get("value")) {
        if !v.is_null() {
            return format!(
                "Uncaught {}",
                v.as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| v.to_string())
            );
        }
    }
    details
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or("the page script threw")
        .to_owned()
}

/// Resolves a `backendNodeId` into an object in [`GROUP`]; `None` when the node is gone.
pub async fn resolve_backend(tab_id: i64, backend_node_id: i64) -> Result<Option<String>> {
    let response = cdp::send(
        tab_id,
        "DOM.resolveNode",
        json!({ "backendNodeId": backend_node_id, "objectGroup": GROUP }),
    )
    .await;
    match response {
        Ok(v) => Ok(v
            .pointer("/object/objectId")
            .and_then(Value::as_str)
            .map(str::to_owned)),
        Err(Error::Internal(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Releases every object the action created (best effort: the page may have navigated away).
pub async fn release(tab_id: i64) {
    let _ = cdp::send_with_timeout(
        tab_id,
        "Runtime.releaseObjectGroup",
        json!({ "objectGroup": GROUP }),
        2_000,
    )
    .await;
}

/// The id of the tab's main frame (`Page.getFrameTree`).
pub async fn main_frame_id(tab_id: i64) -> Result<String> {
    let tree = cdp::send(tab_id, "Page.getFrameTree", json!({})).await?;
    tree.pointer("/frameTree/frame/id")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| Error::Internal("Page.getFrameTree: no main frame".into()))
}

/// The main frame's layout viewport (`Page.getLayoutMetrics` `cssLayoutViewport`), CSS px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Visible width.
    pub width: f64,
    /// Visible height.
    pub height: f64,
    /// Horizontal scroll offset of the document.
    pub page_x: f64,
    /// Vertical scroll offset of the document.
    pub page_y: f64,
}

impl Viewport {
    /// `(width, height)`.
    pub fn size(&self) -> (f64, f64) {
        (self.width, self.height)
    }
}

/// The tab's [`Viewport`] now.
pub async fn viewport(tab_id: i64) -> Result<Viewport> {
    let m = cdp::send(tab_id, "Page.getLayoutMetrics", json!({})).await?;
    let num = |p: &str| m.pointer(p).and_then(Value::as_f64);
    match (
        num("/cssLayoutViewport/clientWidth"),
        num("/cssLayoutViewport/clientHeight"),
    ) {
        (Some(width), Some(height)) => Ok(Viewport {
            width,
            height,
            page_x: num("/cssLayoutViewport/pageX").unwrap_or(0.0),
            page_y: num("/cssLayoutViewport/pageY").unwrap_or(0.0),
        }),
        _ => Err(Error::Internal(
            "Page.getLayoutMetrics: no cssLayoutViewport".into(),
        )),
    }
}

/// Milliseconds since the epoch (the worker's clock), for deadlines.
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0)
    }
}

/// A JS string literal for `s` (JSON strings are valid JS string literals).
pub fn js_str(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exception_message_takes_the_first_line_of_the_description() {
        let details = json!({
            "text": "Uncaught",
            "exception": {"type": "object", "subtype": "error",
                          "description": "Error: boom\n    at <anonymous>:1:7"}
        });
        assert_eq!(exception_message(&details), "Error: boom");
    }

    #[test]
    fn exception_message_of_a_thrown_string() {
        let details = json!({"text": "Uncaught", "exception": {"type": "string", "value": "nope"}});
        assert_eq!(exception_message(&details), "Uncaught nope");
    }

    #[test]
    fn exception_message_falls_back_to_the_text() {
        let details = json!({"text": "SyntaxError: Unexpected token"});
        assert_eq!(exception_message(&details), "SyntaxError: Unexpected token");
    }

    #[test]
    fn outcome_reads_a_node() {
        let r = json!({"result": {"type": "object", "subtype": "node", "className": "HTMLDivElement",
                                   "description": "div#x", "objectId": "1.2.3"}});
        let o = outcome(&r).unwrap();
        assert!(o.is_node());
        assert_eq!(o.object_id.as_deref(), Some("1.2.3"));
        assert_eq!(o.description.as_deref(), Some("div#x"));
    }

    #[test]
    fn js_str_quotes_and_escapes() {
        assert_eq!(js_str("a\"b\n"), "\"a\\\"b\\n\"");
    }
}
