//! Small typed helpers over the CDP `Runtime` domain for the action handlers: evaluate a page-side
//! snippet, call a function on a resolved object, read `RemoteObject`s, and keep every object an action
//! creates in one object group that is released when the action ends.
//!
//! Page-side snippets are Rust string constants next to the handler that uses them; arguments cross
//! into the page as `Runtime.callFunctionOn` arguments (or JSON literals), never spliced as source.

use crate::cdp::commands::{
    CallArgument, DomResolveNode, ExceptionDetails, PageGetFrameTree, PageGetLayoutMetrics,
    RuntimeCallFunctionOn, RuntimeEvaluate, RuntimeReleaseObjectGroup, ScriptResult,
};
use crate::cdp::{self, CdpError, Failure, Target};
use crate::error::{Error, Result};
use serde_json::Value;

pub use crate::cdp::commands::RemoteObject;

/// The `Runtime` object group of everything an action resolves; released by [`release`].
pub const GROUP: &str = "bua-action";

thread_local! {
    /// Tabs whose page may hold objects of [`GROUP`] (see [`group_of`]).
    static HOLDING: std::cell::RefCell<std::collections::HashSet<i64>> = Default::default();
}

/// [`GROUP`], for a command that may leave objects of it in `tab_id`'s page: [`release`] then knows it has
/// something to release, and most reads (an `extract`, a `wait_for`) save its round trip.
pub fn group_of(tab_id: i64) -> String {
    HOLDING.with(|h| h.borrow_mut().insert(tab_id));
    GROUP.to_owned()
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
    fn to_cdp(&self) -> CallArgument {
        match self {
            Arg::Value(v) => CallArgument {
                value: Some(v.clone()),
                object_id: None,
            },
            Arg::Object(id) => CallArgument {
                value: None,
                object_id: Some(id.clone()),
            },
        }
    }
}

/// Evaluates `expression` in the main frame's main world, keeping the result in the page
/// ([`GROUP`]). `Ok(Err(message))` when it threw.
pub async fn eval_object(
    target: impl Into<Target>,
    expression: &str,
) -> Result<Outcome<RemoteObject>> {
    let target = target.into();
    let params = RuntimeEvaluate {
        expression: expression.to_owned(),
        object_group: Some(group_of(target.tab_id)),
        silent: Some(true),
        await_promise: Some(true),
        ..Default::default()
    };
    let response = evaluate_retrying(target, &params, cdp::COMMAND_TIMEOUT_MS).await?;
    Ok(outcome(&response))
}

/// Whether `error` says the page's JavaScript context went away under the command (the page navigated or a
/// frame was replaced).
pub fn context_gone(error: &CdpError) -> bool {
    error.failure == Failure::ContextGone
}

/// `Runtime.evaluate` in the page's current main context; while a navigation swaps the context, tries again
/// (3 times, 150 ms apart) instead of failing.
async fn evaluate_retrying(
    target: impl Into<Target>,
    params: &RuntimeEvaluate,
    timeout_ms: u32,
) -> Result<ScriptResult> {
    let target = target.into();
    let mut attempt = 0;
    loop {
        match cdp::send_with_timeout(&target, params, timeout_ms).await {
            Err(e) if context_gone(&e) && attempt < 3 => {
                attempt += 1;
                cdp::sleep(150).await;
            }
            other => return Ok(other?),
        }
    }
}

/// Evaluates `expression` and returns its JSON value; an exception is [`Error::Internal`].
pub async fn eval_value(target: impl Into<Target>, expression: &str) -> Result<Value> {
    eval_value_with_timeout(target, expression, cdp::COMMAND_TIMEOUT_MS).await
}

/// [`eval_value`] with a CDP timeout in ms (polling loops use short ones).
pub async fn eval_value_with_timeout(
    target: impl Into<Target>,
    expression: &str,
    timeout_ms: u32,
) -> Result<Value> {
    let params = RuntimeEvaluate {
        expression: expression.to_owned(),
        return_by_value: Some(true),
        silent: Some(true),
        await_promise: Some(true),
        ..Default::default()
    };
    let response = evaluate_retrying(target, &params, timeout_ms).await?;
    by_value(outcome(&response)).map_err(|m| Error::Internal(format!("page script failed: {m}")))
}

/// Calls `function` with `this` = `object_id` and returns its JSON value. `Ok(Err(message))` when it
/// threw.
pub async fn call_checked(
    target: impl Into<Target>,
    object_id: &str,
    function: &str,
    args: &[Arg],
) -> Result<Outcome<Value>> {
    let called = call_function(target, object_id, function, args, true).await?;
    Ok(by_value(called))
}

/// [`call_checked`] where an exception is a bug of ours: [`Error::Internal`].
pub async fn call_value(
    target: impl Into<Target>,
    object_id: &str,
    function: &str,
    args: &[Arg],
) -> Result<Value> {
    call_checked(target, object_id, function, args)
        .await?
        .map_err(|m| Error::Internal(format!("page script failed: {m}")))
}

/// Calls `function` (a JS function declaration) with `this` = `object_id`: its result, as JSON with
/// `by_value`, else kept in the page. `Ok(Err(message))` when it threw.
pub async fn call_function(
    target: impl Into<Target>,
    object_id: &str,
    function: &str,
    args: &[Arg],
    by_value: bool,
) -> Result<Outcome<RemoteObject>> {
    let target = target.into();
    let command = RuntimeCallFunctionOn {
        object_id: object_id.to_owned(),
        function_declaration: function.to_owned(),
        arguments: args.iter().map(Arg::to_cdp).collect(),
        return_by_value: by_value,
        object_group: group_of(target.tab_id),
        silent: true,
        await_promise: true,
    };
    let response = cdp::send(&target, &command).await.map_err(|e| {
        if context_gone(&e) {
            page_changed(target.tab_id)
        } else {
            Error::from(e)
        }
    })?;
    Ok(outcome(&response))
}

/// `element_stale` for an element whose page navigated or re-rendered while an action used it.
pub fn page_changed(tab_id: i64) -> Error {
    Error::ElementStale(format!(
        "tab {tab_id}'s page navigated or re-rendered during the action, so the element is gone; call \
         extract (or wait_for the element) and try again"
    ))
}

/// The result of `Runtime.evaluate` / `Runtime.callFunctionOn`: the object, or the exception message.
pub fn outcome(response: &ScriptResult) -> Outcome<RemoteObject> {
    if let Some(details) = &response.exception_details {
        return Err(exception_message(details));
    }
    Ok(response.result.clone())
}

fn by_value(outcome: Outcome<RemoteObject>) -> Outcome<Value> {
    outcome.map(|o| o.value.unwrap_or(Value::Null))
}

/// The message of a CDP `ExceptionDetails`: the thrown error's first description line
/// (`"TypeError: x is not a function"`), else its text.
pub fn exception_message(details: &ExceptionDetails) -> String {
    let exception = details.exception.as_ref();
    if let Some(desc) = exception.and_then(|e| e.description.as_deref()) {
        // The description carries the stack after the first line.
        let first = desc.lines().next().unwrap_or(desc).trim();
        if !first.is_empty() {
            return first.to_owned();
        }
    }
    if let Some(v) = exception.and_then(|e| e.value.as_ref()) {
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
        .text
        .as_deref()
        .unwrap_or("the page script threw")
        .to_owned()
}

/// Resolves a `backendNodeId` into an object in [`GROUP`]; `None` when the node is gone.
pub async fn resolve_backend(
    target: impl Into<Target>,
    backend_node_id: i64,
) -> Result<Option<String>> {
    let target = target.into();
    let command = DomResolveNode {
        backend_node_id,
        object_group: group_of(target.tab_id),
    };
    match cdp::send(&target, &command).await {
        Ok(resolved) => Ok(resolved.object.object_id),
        Err(e) if e.failure.is_target_gone() || e.failure == Failure::Timeout => Err(e.into()),
        Err(_) => Ok(None),
    }
}

/// Releases every object the action created (best effort: the page may have navigated away); nothing
/// to send when no command of the action asked for [`group_of`].
pub async fn release(tab_id: i64) {
    if !HOLDING.with(|h| h.borrow_mut().remove(&tab_id)) {
        return;
    }
    let command = RuntimeReleaseObjectGroup {
        object_group: GROUP.to_owned(),
    };
    let _ = cdp::send_with_timeout(tab_id, &command, 2_000).await;
}

/// The id of the tab's main frame (`Page.getFrameTree`).
pub async fn main_frame_id(tab_id: i64) -> Result<String> {
    let tree = cdp::send(tab_id, &PageGetFrameTree {}).await?;
    Ok(tree.frame_tree.frame.id)
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
pub async fn viewport(target: impl Into<Target>) -> Result<Viewport> {
    let m = cdp::send(target, &PageGetLayoutMetrics {}).await?;
    let css = m.css_layout_viewport;
    match (css.client_width, css.client_height) {
        (Some(width), Some(height)) => Ok(Viewport {
            width,
            height,
            page_x: css.page_x.unwrap_or(0.0),
            page_y: css.page_y.unwrap_or(0.0),
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
    use serde::de::DeserializeOwned;
    use serde_json::json;

    /// A CDP answer as the typed response it deserialises into.
    fn cdp<T: DeserializeOwned>(v: Value) -> T {
        serde_json::from_value(v).expect("a CDP answer")
    }

    #[test]
    fn exception_message_takes_the_first_line_of_the_description() {
        let details = json!({
            "text": "Uncaught",
            "exception": {"type": "object", "subtype": "error",
                          "description": "Error: boom\n    at <anonymous>:1:7"}
        });
        assert_eq!(exception_message(&cdp(details)), "Error: boom");
    }

    #[test]
    fn exception_message_of_a_thrown_string() {
        let details = json!({"text": "Uncaught", "exception": {"type": "string", "value": "nope"}});
        assert_eq!(exception_message(&cdp(details)), "Uncaught nope");
    }

    #[test]
    fn exception_message_falls_back_to_the_text() {
        let details = json!({"text": "SyntaxError: Unexpected token"});
        assert_eq!(
            exception_message(&cdp(details)),
            "SyntaxError: Unexpected token"
        );
    }

    #[test]
    fn outcome_reads_a_node() {
        let r = json!({"result": {"type": "object", "subtype": "node", "className": "HTMLDivElement",
                                   "description": "div#x", "objectId": "1.2.3"}});
        let o = outcome(&cdp(r)).unwrap();
        assert!(o.is_node());
        assert_eq!(o.object_id.as_deref(), Some("1.2.3"));
        assert_eq!(o.description.as_deref(), Some("div#x"));
    }

    #[test]
    fn js_str_quotes_and_escapes() {
        assert_eq!(js_str("a\"b\n"), "\"a\\\"b\\n\"");
    }
}
