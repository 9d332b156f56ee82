//! `evaluate {expression}` (SPEC §7).
//!
//! The expression is wrapped as `(() => { … })()` (so the agent must `return`) and run with
//! `Runtime.evaluate` (`awaitPromise`, `userGesture`, 10 s). The result is
//! `{type, value}` when JSON-serialisable, `{type, description}` when not (DOM node, function, Map, …),
//! `{type, truncated:true, preview}` when its JSON is over 8 KB. A thrown exception is `invalid_action`
//! with the JS message. Dialogs raised meanwhile are answered ([`dialogs::answering`]).
//!
//! `returnByValue: true` alone cannot tell a DOM node or a Map from `{}` (CDP serialises both as `{}`,
//! without a subtype), so the value stays in the page first; plain objects and arrays are then fetched by
//! value (`Runtime.callFunctionOn` with `returnByValue: true`), everything else is described.

use super::ctx::Ctx;
use super::dialogs;
use super::handler::{Handler, OpenDialog, Traits};
use super::page::{self, RemoteObject};
use crate::cdp::commands::RuntimeEvaluate;
use crate::cdp::{self, Failure, Target};
use crate::error::{Error, Result};
use bua_protocol::{truncate_at_char_boundary, Evaluate, EvaluateResult, EVALUATE_MAX_BYTES};
use serde_json::Value;

/// The CDP time limit of one evaluate, ms (SPEC §7).
pub const EVALUATE_TIMEOUT_MS: u32 = 10_000;

/// When V8 terminates a script that is still running synchronously (an endless loop would otherwise hang the
/// tab for good), ms.
const TERMINATE_AFTER_MS: u32 = EVALUATE_TIMEOUT_MS - 500;

/// `(() => {\n<expression>\n})()`: line breaks keep a trailing `//` comment from eating the `}`.
pub fn wrap(expression: &str) -> String {
    format!("(() => {{\n{expression}\n}})()")
}

/// How an evaluated value is returned.
#[derive(Debug, PartialEq)]
pub enum Plan {
    /// Final already.
    Done(EvaluateResult),
    /// A plain object or array held in the page: fetch it by value.
    FetchByValue(String),
}

/// Decides the result shape from the `RemoteObject` of the evaluation (pure; SPEC §7).
pub fn plan(object: &RemoteObject) -> Plan {
    let kind = object.kind.clone();
    let described = |description: Option<&str>| {
        let mut d = description.unwrap_or(&kind).to_owned();
        cap(&mut d);
        Plan::Done(EvaluateResult::Described {
            r#type: kind.clone(),
            description: d,
        })
    };
    if let Some(u) = &object.unserializable {
        return described(Some(u));
    }
    match kind.as_str() {
        "undefined" => Plan::Done(EvaluateResult::Value {
            r#type: kind.clone(),
            value: Value::Null,
        }),
        "string" | "number" | "boolean" => Plan::Done(EvaluateResult::from_json(
            kind.clone(),
            object.value.clone().unwrap_or(Value::Null),
        )),
        "object" => match (object.subtype.as_deref(), &object.object_id) {
            (Some("null"), _) => Plan::Done(EvaluateResult::Value {
                r#type: kind.clone(),
                value: Value::Null,
            }),
            (None | Some("array"), Some(id)) => Plan::FetchByValue(id.clone()),
            (None | Some("array"), None) => Plan::Done(EvaluateResult::from_json(
                kind.clone(),
                object.value.clone().unwrap_or(Value::Null),
            )),
            _ => described(object.description.as_deref()),
        },
        _ => described(object.description.as_deref()),
    }
}

/// Cuts a description to 8 KB with the SPEC §7 marker.
fn cap(description: &mut String) {
    let total = description.chars().count();
    if truncate_at_char_boundary(description, EVALUATE_MAX_BYTES) {
        let cut = total - description.chars().count();
        description.push_str(&format!("…[truncated {cut} chars]"));
    }
}

/// `evaluate {expression, frame?}`: in the tab's main frame, or in the frame `frame` names (SPEC §5
/// "Frames": a uid runs in its element's frame, `f<k>` in the cross-origin frame extract's markdown names so).
///
/// Errors: `invalid_action` (the expression threw or does not parse; the message is the JS one),
/// `timeout` (not settled within 10 s), `element_stale` (the frame is not on the page any more).
impl Handler for Evaluate {
    type Output = EvaluateResult;
    const TRAITS: Traits = Traits::PAGE.with_open_dialog(OpenDialog::Answer);

    async fn run(&self, ctx: &Ctx) -> Result<EvaluateResult> {
        let (expression, frame) = (self.expression.as_str(), self.frame.as_deref());
        let target = match frame {
            None => Target::tab(ctx.tab_id),
            Some(f) if f.starts_with('e') => crate::extract::resolve_uid(ctx.tab_id, f)?.0,
            Some(f) => crate::extract::resolve_frame(ctx.tab_id, f)?,
        };
        dialogs::answering(
            ctx.tab_id,
            dialogs::Policy::default(),
            run(&target, expression),
        )
        .await
    }
}

async fn run(target: &Target, expression: &str) -> Result<EvaluateResult> {
    let tab_id = target.tab_id;
    let started = page::now_ms();
    let command = RuntimeEvaluate {
        expression: wrap(expression),
        object_group: Some(page::group_of(tab_id)),
        return_by_value: Some(false),
        await_promise: Some(true),
        user_gesture: Some(true),
        repl_mode: Some(false),
        // Stops a synchronous endless loop in the page itself (else the tab would hang for good).
        timeout: Some(TERMINATE_AFTER_MS),
        ..Default::default()
    };
    let response = cdp::send_with_timeout(target, &command, EVALUATE_TIMEOUT_MS)
        .await
        .map_err(|e| match e.failure {
            Failure::Timeout => too_slow(),
            // V8 terminated the script at the `timeout` above; CDP reports that as a bare "Internal error".
            f if !f.is_target_gone()
                && page::now_ms() - started >= f64::from(TERMINATE_AFTER_MS) =>
            {
                too_slow()
            }
            Failure::ContextGone => Error::ElementStale(format!(
                "tab {tab_id}'s page navigated while the expression ran, so its result is lost; call extract \
                 to see the new page"
            )),
            _ => e.into(),
        })?;
    let object = page::outcome(&response).map_err(thrown)?;
    match plan(&object) {
        Plan::Done(result) => Ok(result),
        Plan::FetchByValue(object_id) => {
            match page::call_checked(target, &object_id, "function() { return this; }", &[])
                .await
                .map_err(not_json)?
            {
                Ok(value) => Ok(EvaluateResult::from_json(object.kind, value)),
                // Cyclic or too deep for JSON: describe it instead.
                Err(_) => {
                    let mut description = object
                        .description
                        .clone()
                        .unwrap_or_else(|| object.kind.clone());
                    cap(&mut description);
                    Ok(EvaluateResult::Described {
                        r#type: object.kind,
                        description,
                    })
                }
            }
        }
    }
}

/// CDP refuses to serialise the returned object (`window`, a graph too deep or cyclic: "Object reference
/// chain is too long", "Object couldn't be returned by value"): the expression's mistake, `invalid_action`.
/// Other failures (a detach, a closed tab) keep their code.
fn not_json(error: Error) -> Error {
    match error {
        Error::Internal(message) => Error::InvalidAction(format!(
            "the expression returned an object that cannot be turned into JSON ({}); return plain JSON data \
             instead (strings, numbers, booleans, arrays, plain objects), e.g. map DOM nodes to their text: \
             `return [...document.querySelectorAll('h2')].map(e => e.innerText)`",
            cdp_reason(&message)
        )),
        other => other,
    }
}

/// The CDP error text of a failed command's message (`"CDP Runtime.callFunctionOn failed on tab 3: Object
/// reference chain is too long"` → `"Object reference chain is too long"`).
fn cdp_reason(message: &str) -> &str {
    message
        .split_once(": ")
        .map_or(message, |(_, reason)| reason)
        .trim()
}

fn too_slow() -> Error {
    Error::Timeout(format!(
        "the expression did not finish within {} s (a promise that never settles, or a long loop); make it \
         return sooner",
        EVALUATE_TIMEOUT_MS / 1000
    ))
}

fn thrown(message: String) -> Error {
    if message.contains("Execution was terminated") {
        return too_slow();
    }
    Error::InvalidAction(format!(
        "the expression threw: {message} (fix the expression; remember it runs as a function body, so use \
         `return`)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> RemoteObject {
        RemoteObject::from_json(&v)
    }

    #[test]
    fn an_object_cdp_cannot_serialise_is_the_callers_mistake() {
        let e = not_json(Error::Internal(
            "CDP Runtime.callFunctionOn failed on tab 3: Object reference chain is too long".into(),
        ));
        assert_eq!(e.code(), bua_protocol::ErrorCode::InvalidAction);
        let m = e.to_string();
        assert!(m.contains("(Object reference chain is too long)"), "{m}");
        assert!(m.contains("return plain JSON data"), "{m}");
        assert!(!m.contains("CDP"), "{m}");
        let gone = Error::SessionNotFound("detached".into());
        assert_eq!(not_json(gone.clone()), gone);
    }

    #[test]
    fn wrap_puts_the_body_on_its_own_lines() {
        assert_eq!(wrap("return 1 // done"), "(() => {\nreturn 1 // done\n})()");
    }

    #[test]
    fn strings_are_values() {
        let p = plan(&obj(json!({"type": "string", "value": "Hello"})));
        assert_eq!(
            p,
            Plan::Done(EvaluateResult::Value {
                r#type: "string".into(),
                value: json!("Hello")
            })
        );
    }

    #[test]
    fn undefined_is_a_value_of_type_undefined() {
        let p = plan(&obj(json!({"type": "undefined"})));
        assert_eq!(
            p,
            Plan::Done(EvaluateResult::Value {
                r#type: "undefined".into(),
                value: Value::Null
            })
        );
    }

    #[test]
    fn nodes_maps_and_functions_are_described() {
        for (v, d) in [
            (
                json!({"type": "object", "subtype": "node", "description": "div#x", "objectId": "1"}),
                "div#x",
            ),
            (
                json!({"type": "object", "subtype": "map", "description": "Map(1)", "objectId": "2"}),
                "Map(1)",
            ),
            (
                json!({"type": "function", "description": "() => 1", "objectId": "3"}),
                "() => 1",
            ),
        ] {
            match plan(&obj(v)) {
                Plan::Done(EvaluateResult::Described { description, .. }) => {
                    assert_eq!(description, d)
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn unserializable_numbers_are_described() {
        match plan(&obj(
            json!({"type": "number", "unserializableValue": "NaN", "description": "NaN"}),
        )) {
            Plan::Done(EvaluateResult::Described {
                r#type,
                description,
            }) => {
                assert_eq!((r#type.as_str(), description.as_str()), ("number", "NaN"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn plain_objects_and_arrays_are_fetched_by_value() {
        assert_eq!(
            plan(&obj(
                json!({"type": "object", "description": "Object", "objectId": "9"})
            )),
            Plan::FetchByValue("9".into())
        );
        assert_eq!(
            plan(&obj(
                json!({"type": "object", "subtype": "array", "description": "Array(2)", "objectId": "8"})
            )),
            Plan::FetchByValue("8".into())
        );
    }

    #[test]
    fn null_is_a_value() {
        assert_eq!(
            plan(&obj(
                json!({"type": "object", "subtype": "null", "value": null})
            )),
            Plan::Done(EvaluateResult::Value {
                r#type: "object".into(),
                value: Value::Null
            })
        );
    }

    #[test]
    fn a_100_kb_string_is_truncated_with_the_marker() {
        let big = "x".repeat(100 * 1024);
        match plan(&obj(json!({"type": "string", "value": big}))) {
            Plan::Done(EvaluateResult::Truncated {
                truncated, preview, ..
            }) => {
                assert!(truncated);
                // JSON of the string is 102_402 chars (quotes included); 8192 kept.
                assert!(
                    preview.ends_with("…[truncated 94210 chars]"),
                    "{}",
                    &preview[preview.len() - 40..]
                );
                assert!(preview.starts_with("\"xxx"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn long_descriptions_are_capped() {
        let src = format!("function f() {{ {} }}", "a;".repeat(10_000));
        match plan(&obj(json!({"type": "function", "description": src}))) {
            Plan::Done(EvaluateResult::Described { description, .. }) => {
                assert!(description.contains("…[truncated "));
                assert!(description.len() < EVALUATE_MAX_BYTES + 40);
            }
            other => panic!("{other:?}"),
        }
    }
}
