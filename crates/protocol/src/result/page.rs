//! The results of the actions that read or wait on the page: wait_for, find, scrape, screenshot,
//! evaluate, handoff, upload, drag, console, network, pdf and downloads.

use super::extract::{truncate_at_char_boundary, Obstacle};
use super::input::ElementInfo;
use crate::action::TabId;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `wait_for` → `{found, elapsedMs, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitForResult {
    /// Whether the state was reached (false only with a non-failing policy; not found in time → `timeout`).
    pub found: bool,
    /// ms waited.
    pub elapsed_ms: u64,
    /// The tab.
    pub tab_id: TabId,
}

/// One line `find` found: as the agent text writes it (a long one cut around the match), and its uids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundLine {
    /// The line.
    pub line: String,
    /// The uids it names: a markdown line's links, an element line's element.
    pub uids: Vec<String>,
}

/// `find` → `{count, lines:[{line, uids}], tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FindResult {
    /// How many lines matched in all.
    pub count: u32,
    /// The first of them, in page order (at most `limit`).
    pub lines: Vec<FoundLine>,
    /// The tab.
    pub tab_id: TabId,
}

/// `scrape` → `{count, items:[{…}], tabId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrapeResult {
    /// `items.len()`.
    pub count: u32,
    /// One object per item: field name → string (or `null` when the field's selector matched nothing).
    pub items: Vec<Map<String, Value>>,
    /// The tab.
    pub tab_id: TabId,
}

/// `screenshot` → `{mime, data, width, height}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScreenshotResult {
    /// `image/png` or `image/jpeg`.
    pub mime: String,
    /// Base64 (standard alphabet, padded) image bytes.
    pub data: String,
    /// Image width, px.
    pub width: u32,
    /// Image height, px.
    pub height: u32,
}

/// The largest serialised `evaluate` value returned whole, bytes (SPEC §7).
pub const EVALUATE_MAX_BYTES: usize = 8 * 1024;

/// `evaluate`'s result (SPEC §7), untagged:
/// `{type, value}` (JSON-serialisable), `{type, description}` (DOM node, function, Map, …),
/// `{type, truncated:true, preview}` (serialised value over 8 KB; `preview` ends with `…[truncated N chars]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EvaluateResult {
    /// A JSON-serialisable value.
    Value {
        /// CDP `RemoteObject.type`: `string`, `number`, `boolean`, `object`, `undefined`, …
        r#type: String,
        /// The value.
        value: Value,
    },
    /// A value that is not JSON-serialisable.
    Described {
        /// CDP `RemoteObject.type`.
        r#type: String,
        /// CDP `RemoteObject.description`, e.g. `"HTMLDivElement"`.
        description: String,
    },
    /// A value whose JSON is over 8 KB.
    Truncated {
        /// CDP `RemoteObject.type`.
        r#type: String,
        /// Always true.
        truncated: bool,
        /// The first 8 KB of the JSON, then `…[truncated N chars]`.
        preview: String,
    },
}

impl EvaluateResult {
    /// Builds the result for a by-value CDP result: `{type, value}`, or `{type, truncated, preview}`
    /// when the value's JSON is over [`EVALUATE_MAX_BYTES`] (N = chars cut).
    pub fn from_json(r#type: impl Into<String>, value: Value) -> Self {
        let r#type = r#type.into();
        let json = value.to_string();
        if json.len() <= EVALUATE_MAX_BYTES {
            return EvaluateResult::Value { r#type, value };
        }
        let mut preview = json.clone();
        truncate_at_char_boundary(&mut preview, EVALUATE_MAX_BYTES);
        let cut = json[preview.len()..].chars().count();
        preview.push_str(&format!("…[truncated {cut} chars]"));
        EvaluateResult::Truncated {
            r#type,
            truncated: true,
            preview,
        }
    }
}

/// How a `handoff` ended (SPEC §4): the result's `by` (`page`, `user`, `cancelled`), and in the
/// `handoff_ended` event and the audit log also `timeout` and `session_ended`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandoffOutcome {
    /// The obstacle seen when the handoff began no longer fires (the page navigated on, the challenge cleared).
    Page,
    /// The person pressed Done.
    User,
    /// The person pressed Cancel.
    Cancelled,
    /// `waitMs` ran out (the action fails with `timeout`).
    Timeout,
    /// The tab's session ended (Stop, Stop all, tab closed): the action fails with the session's error.
    SessionEnded,
}

const HANDOFF_OUTCOMES: [HandoffOutcome; 5] = [
    HandoffOutcome::Page,
    HandoffOutcome::User,
    HandoffOutcome::Cancelled,
    HandoffOutcome::Timeout,
    HandoffOutcome::SessionEnded,
];

impl HandoffOutcome {
    /// The wire spelling, e.g. `"page"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            HandoffOutcome::Page => "page",
            HandoffOutcome::User => "user",
            HandoffOutcome::Cancelled => "cancelled",
            HandoffOutcome::Timeout => "timeout",
            HandoffOutcome::SessionEnded => "session_ended",
        }
    }

    /// Parses the wire spelling.
    pub fn from_wire(s: &str) -> Option<HandoffOutcome> {
        HANDOFF_OUTCOMES.iter().copied().find(|o| o.as_str() == s)
    }
}

/// `handoff` → `{resolved, by, url, title, obstacle?}`: `resolved` is false only for `by: "cancelled"`;
/// `obstacle` is what the classifier sees on the page now, if anything (SPEC §5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HandoffResult {
    /// The person finished (the page cleared or they pressed Done).
    pub resolved: bool,
    /// `page`, `user` or `cancelled`.
    pub by: HandoffOutcome,
    /// The tab's URL now.
    pub url: String,
    /// The tab's title now.
    pub title: String,
    /// The obstacle on the page now, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obstacle: Option<Obstacle>,
    /// The tab.
    pub tab_id: TabId,
}

/// One file `upload` put into the input, as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadedFile {
    /// `File.name` (the path's last component).
    pub name: String,
    /// `File.size`, bytes.
    pub size: u64,
    /// `File.type` (from the file name's extension; empty when unknown).
    pub mime: String,
}

/// `upload` → `{element, files, chooser, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadResult {
    /// The file input that took the files.
    pub element: ElementInfo,
    /// The input's files afterwards, in order.
    pub files: Vec<UploadedFile>,
    /// Whether the located control opened a file chooser (intercepted) rather than being the input.
    pub chooser: bool,
    /// The tab.
    pub tab_id: TabId,
}

/// `drag` → `{from, to?, x, y, html5, tabId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DragResult {
    /// The dragged element.
    pub from: ElementInfo,
    /// The element dropped on, when `to` was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<ElementInfo>,
    /// The drop point, viewport CSS px.
    pub x: f64,
    /// The drop point, viewport CSS px.
    pub y: f64,
    /// Whether the page started an HTML5 drag (`draggable`), finished with drag events.
    pub html5: bool,
    /// The tab.
    pub tab_id: TabId,
}

/// One console message or uncaught error of `console`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsoleEntry {
    /// Its cursor: increasing per tab, shared with `network` (pass the result's `next` as `since`).
    pub n: u64,
    /// `debug` / `log` / `warning` / `error`.
    pub level: crate::action::ConsoleLevel,
    /// The message (arguments joined by spaces; an exception's first line), at most 2,000 chars.
    pub text: String,
    /// `url:line` (1-based) of the code that logged it, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Wall-clock time, ms since the Unix epoch.
    pub at: f64,
}

/// `console` → `{entries, dropped, next, tabId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsoleResult {
    /// The kept entries that match, oldest first.
    pub entries: Vec<ConsoleEntry>,
    /// Entries dropped since the session attached because the buffer was full (all levels).
    pub dropped: u64,
    /// The cursor to pass as `since` next time for only newer entries.
    pub next: u64,
    /// The tab.
    pub tab_id: TabId,
}

/// One request of `network` (bodies are not kept).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkEntry {
    /// Its cursor (see [`ConsoleEntry::n`]).
    pub n: u64,
    /// `GET`, `POST`, …
    pub method: String,
    /// The URL (cut at 500 chars).
    pub url: String,
    /// The HTTP status, once a response arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// CDP's resource type: `Document`, `Script`, `Fetch`, `XHR`, `Image`, …
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub kind: Option<String>,
    /// Bytes received over the network (encoded), once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// From the request to its end, ms, once finished or failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
    /// Why it failed (`net::ERR_CONNECTION_REFUSED`, `net::ERR_ABORTED`), when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// `network` → `{requests, dropped, next, tabId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkResult {
    /// The kept requests that match, oldest first.
    pub requests: Vec<NetworkEntry>,
    /// Requests dropped since the session attached because the buffer was full.
    pub dropped: u64,
    /// The cursor to pass as `since` next time for only newer requests.
    pub next: u64,
    /// The tab.
    pub tab_id: TabId,
}

/// `pdf` → `{mime, data, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PdfResult {
    /// `application/pdf`.
    pub mime: String,
    /// Base64 (standard alphabet, padded) PDF bytes.
    pub data: String,
    /// The tab.
    pub tab_id: TabId,
}

/// One download of `downloads` (`chrome.downloads.DownloadItem`, SPEC §4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadInfo {
    /// The `chrome.downloads` id.
    pub id: i64,
    /// The tab it started from.
    pub tab_id: TabId,
    /// The URL downloaded (after redirects).
    pub url: String,
    /// The file's name (without its folder), once the browser chose it.
    pub filename: String,
    /// The MIME type of the response.
    pub mime: String,
    /// Bytes received so far.
    pub bytes: u64,
    /// The expected size in bytes, when the server sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_bytes: Option<u64>,
    /// `in_progress`, `complete` or `interrupted`.
    pub state: String,
    /// Why it was interrupted (`chrome.downloads.InterruptReason`, e.g. `NETWORK_FAILED`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `downloads` → `{downloads:[…]}`, oldest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DownloadsResult {
    /// The agent's downloads.
    pub downloads: Vec<DownloadInfo>,
}
