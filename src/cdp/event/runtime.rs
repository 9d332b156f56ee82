//! The params of the `Runtime` events the extension reads, and of `Log.entryAdded`, the browser's side of the
//! console (both feed the console journal, SPEC §4 `console`).

use crate::cdp::commands::{ExceptionDetails, RemoteObject, StackTrace};
use serde::Deserialize;

/// `Runtime.bindingCalled`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct BindingCalled {
    /// The binding's name.
    pub name: String,
    /// What the page passed.
    pub payload: String,
}

/// `Runtime.consoleAPICalled`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct ConsoleApiCalled {
    /// `log`, `warning`, `error`, `debug`, `info`, …
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The call's arguments.
    pub args: Vec<RemoteObject>,
    /// When, ms since the epoch.
    pub timestamp: Option<f64>,
    /// Where it was called.
    pub stack_trace: Option<StackTrace>,
}

/// `Runtime.exceptionThrown`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct ExceptionThrown {
    /// When, ms since the epoch.
    pub timestamp: Option<f64>,
    /// What was thrown, where.
    pub exception_details: ExceptionDetails,
}

/// `Log.entryAdded`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct LogEntryAdded {
    /// The entry.
    pub entry: LogEntry,
}

/// A `Log.LogEntry`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct LogEntry {
    /// `verbose`, `info`, `warning` or `error`.
    pub level: Option<String>,
    /// The message.
    pub text: Option<String>,
    /// The resource it is about.
    pub url: Option<String>,
    /// The line in it, 0-based.
    pub line_number: Option<i64>,
    /// When, ms since the epoch.
    pub timestamp: Option<f64>,
}
