//! `Runtime` commands: evaluating scripts and calling functions in the page, object groups, bindings; and
//! the `Runtime` types their answers carry (`RemoteObject`, `ExceptionDetails`).

use crate::cdp::command::Empty;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

command!(
    /// `Runtime.enable`.
    pub struct RuntimeEnable => "Runtime.enable", Empty
);

command!(
    /// `Runtime.evaluate` in the main frame's main world.
    #[derive(Default)]
    pub struct RuntimeEvaluate {
        /// The expression.
        pub expression: String,
        /// Object group of the result (released with [`RuntimeReleaseObjectGroup`]).
        #[serde(skip_serializing_if = "Option::is_none")]
        pub object_group: Option<String>,
        /// Answer the result as JSON instead of a reference.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub return_by_value: Option<bool>,
        /// Do not pause on exceptions or report them to the console.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub silent: Option<bool>,
        /// Wait for a promise result to settle.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub await_promise: Option<bool>,
        /// Run as if the user had interacted (transient activation).
        #[serde(skip_serializing_if = "Option::is_none")]
        pub user_gesture: Option<bool>,
        /// Evaluate as the DevTools console would.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub repl_mode: Option<bool>,
        /// Terminate the script after this many ms.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub timeout: Option<u32>,
    } => "Runtime.evaluate", ScriptResult
);

command!(
    /// `Runtime.callFunctionOn` with `this` = `object_id`.
    pub struct RuntimeCallFunctionOn {
        /// `this`.
        pub object_id: String,
        /// A JavaScript function declaration.
        pub function_declaration: String,
        /// Its arguments.
        pub arguments: Vec<CallArgument>,
        /// Answer the result as JSON instead of a reference.
        pub return_by_value: bool,
        /// Object group of the result.
        pub object_group: String,
        /// Do not pause on exceptions or report them to the console.
        pub silent: bool,
        /// Wait for a promise result to settle.
        pub await_promise: bool,
    } => "Runtime.callFunctionOn", ScriptResult
);

/// A `Runtime.CallArgument`: a JSON value or an object held in the page.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CallArgument {
    /// Passed by value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// A `Runtime.RemoteObjectId`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<String>,
}

command!(
    /// `Runtime.releaseObjectGroup`.
    pub struct RuntimeReleaseObjectGroup {
        /// The group.
        pub object_group: String,
    } => "Runtime.releaseObjectGroup", Empty
);

/// The answer of [`RuntimeEvaluate`] and [`RuntimeCallFunctionOn`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ScriptResult {
    /// The result (meaningless when `exception_details` is set).
    #[serde(default)]
    pub result: RemoteObject,
    /// Present when the script threw.
    #[serde(default)]
    pub exception_details: Option<ExceptionDetails>,
}

/// A `Runtime.RemoteObject` (the fields the actions read).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteObject {
    /// `object`, `function`, `string`, `number`, `boolean`, `undefined`, `symbol`, `bigint`.
    #[serde(rename = "type", default = "undefined")]
    pub kind: String,
    /// `node`, `array`, `null`, `map`, … for objects.
    #[serde(default)]
    pub subtype: Option<String>,
    /// CDP's description (`"button#save"`, `"Map(2)"`, …).
    #[serde(default)]
    pub description: Option<String>,
    /// Present for primitives (and for by-value results); a JSON `null` value is `Some(Null)`.
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Value>,
    /// `NaN`, `Infinity`, `-0`, `10n`: values JSON cannot carry.
    #[serde(default, rename = "unserializableValue")]
    pub unserializable: Option<String>,
    /// Present for objects held in the page.
    #[serde(default)]
    pub object_id: Option<String>,
}

impl Default for RemoteObject {
    fn default() -> Self {
        RemoteObject {
            kind: undefined(),
            subtype: None,
            description: None,
            value: None,
            unserializable: None,
            object_id: None,
        }
    }
}

impl RemoteObject {
    /// Parses a CDP `RemoteObject` JSON object; a malformed one reads as `undefined`.
    pub fn from_json(v: &Value) -> RemoteObject {
        RemoteObject::deserialize(v).unwrap_or_default()
    }

    /// Whether the object is a DOM node.
    pub fn is_node(&self) -> bool {
        self.subtype.as_deref() == Some("node")
    }
}

fn undefined() -> String {
    "undefined".to_owned()
}

/// A field that is present (even as `null`) is `Some`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A `Runtime.ExceptionDetails` (the fields the actions and the console journal read).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionDetails {
    /// CDP's one-line text (`"Uncaught"`, a syntax error message).
    #[serde(default)]
    pub text: Option<String>,
    /// The thrown value.
    #[serde(default)]
    pub exception: Option<RemoteObject>,
    /// The script that threw.
    #[serde(default)]
    pub url: Option<String>,
    /// Where in it, 0-based.
    #[serde(default)]
    pub line_number: Option<i64>,
    /// The stack when it threw.
    #[serde(default)]
    pub stack_trace: Option<StackTrace>,
}

/// A `Runtime.StackTrace` (its call frames, innermost first).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StackTrace {
    /// The frames.
    #[serde(default)]
    pub call_frames: Vec<CallFrame>,
}

/// A `Runtime.CallFrame` (where it runs).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CallFrame {
    /// The script's URL (empty for inline and evaluated code).
    #[serde(default)]
    pub url: Option<String>,
    /// The line, 0-based.
    #[serde(default)]
    pub line_number: Option<i64>,
}

command!(
    /// `Runtime.addBinding`: `globalThis[name](payload)` in the page sends a `Runtime.bindingCalled` event; the
    /// binding stays across navigations of the target until removed.
    pub struct RuntimeAddBinding {
        /// The global function's name.
        pub name: String,
    } => "Runtime.addBinding", Empty
);

command!(
    /// `Runtime.removeBinding`: stops the `Runtime.bindingCalled` events of [`RuntimeAddBinding`].
    pub struct RuntimeRemoveBinding {
        /// The global function's name.
        pub name: String,
    } => "Runtime.removeBinding", Empty
);
