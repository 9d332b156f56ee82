//! What each attached tab logged and requested since the debugger attached (SPEC §4 `console`, `network`):
//! bounded per-tab buffers fed by CDP events ([`record`], called by [`super::events::dispatch`]).
//!
//! * Console: `Runtime.consoleAPICalled`, `Runtime.exceptionThrown` (uncaught errors) and `Log.entryAdded`
//!   (the browser's own messages: failed loads, interventions), each as level, text and `url:line`.
//! * Network: `Network.requestWillBeSent` opens an entry, `responseReceived` adds the status and type,
//!   `loadingFinished` / `loadingFailed` the size, duration or failure; a redirect ends the hop's entry with
//!   its 3xx status and opens one for the next hop. Bodies are never read.
//!
//! Each buffer keeps the newest [`CAPACITY`] entries; older ones are dropped and counted. Every entry gets a
//! cursor `n` from one counter per tab, so an agent passes the `next` of a result as `since` to read only
//! what is new. The buffers are pure data (no `web-sys`), tested natively.

use super::commands::{RemoteObject, StackTrace};
use super::event::{Event, RequestWillBeSent};
use bua_protocol::{ConsoleEntry, ConsoleLevel, NetworkEntry};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

/// Entries kept per tab and kind (console, network).
pub const CAPACITY: usize = 500;
/// The longest console text kept, chars.
pub const MAX_TEXT_CHARS: usize = 2_000;
/// The longest URL kept, chars.
pub const MAX_URL_CHARS: usize = 500;

/// A request of the network buffer, with what its later events need.
#[derive(Clone, Debug)]
struct Request {
    id: String,
    /// `Network.MonotonicTime` of the request, s.
    started: f64,
    /// It finished or failed.
    done: bool,
    entry: NetworkEntry,
}

/// One tab's buffers.
#[derive(Debug, Default)]
pub struct Journal {
    next: u64,
    console: VecDeque<ConsoleEntry>,
    console_dropped: u64,
    requests: VecDeque<Request>,
    network_dropped: u64,
}

/// A view of a buffer: the matching entries, the dropped count and the next cursor.
#[derive(Debug, PartialEq)]
pub struct Page<T> {
    /// The kept entries that match, oldest first.
    pub entries: Vec<T>,
    /// Entries dropped since the attach.
    pub dropped: u64,
    /// The cursor for `since` next time.
    pub next: u64,
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// `url:line` (1-based) of a CDP location (`lineNumber` is 0-based in `Runtime`, and in `Log`).
fn source(url: Option<&str>, line: Option<i64>) -> Option<String> {
    let url = url.filter(|u| !u.is_empty())?;
    Some(match line {
        Some(l) => format!("{}:{}", cut(url, MAX_URL_CHARS), l + 1),
        None => cut(url, MAX_URL_CHARS),
    })
}

/// The first call frame's `url:line` of a `Runtime.StackTrace`.
fn top_frame(stack: Option<&StackTrace>) -> Option<String> {
    let frame = stack?.call_frames.first()?;
    source(frame.url.as_deref(), frame.line_number)
}

/// How a console argument (`Runtime.RemoteObject`) reads: a string as is, a primitive as JSON, an object
/// by CDP's description (`Array(3)`, `HTMLDivElement`, an error's message and stack).
fn arg_text(arg: &RemoteObject) -> String {
    if let Some(v) = &arg.value {
        return match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
    }
    if let Some(u) = &arg.unserializable {
        return u.clone();
    }
    if let Some(d) = &arg.description {
        return d.clone();
    }
    arg.kind.clone()
}

impl Journal {
    fn cursor(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    fn push_console(&mut self, level: ConsoleLevel, text: &str, source: Option<String>, at: f64) {
        let n = self.cursor();
        if self.console.len() == CAPACITY {
            self.console.pop_front();
            self.console_dropped += 1;
        }
        self.console.push_back(ConsoleEntry {
            n,
            level,
            text: cut(text, MAX_TEXT_CHARS),
            source,
            at,
        });
    }

    fn open_request(&mut self, sent: &RequestWillBeSent) {
        let n = self.cursor();
        if self.requests.len() == CAPACITY {
            self.requests.pop_front();
            self.network_dropped += 1;
        }
        self.requests.push_back(Request {
            id: sent.request_id.clone(),
            started: sent.timestamp.unwrap_or(0.0),
            done: false,
            entry: NetworkEntry {
                n,
                method: sent.request.method.as_deref().unwrap_or("GET").to_owned(),
                url: cut(sent.request.url.as_deref().unwrap_or(""), MAX_URL_CHARS),
                status: None,
                kind: sent.kind.clone(),
                size: None,
                duration_ms: None,
                failure: None,
            },
        });
    }

    /// The newest open entry of request `id`.
    fn request(&mut self, id: &str) -> Option<&mut Request> {
        self.requests.iter_mut().rev().find(|r| r.id == id)
    }

    /// Ends the newest open entry of request `id` at `at` (`Network.MonotonicTime`, s).
    fn end(&mut self, id: &str, at: Option<f64>) -> Option<&mut NetworkEntry> {
        let r = self.request(id)?;
        r.done = true;
        if let Some(at) = at.filter(|_| r.started > 0.0) {
            r.entry.duration_ms = Some(((at - r.started) * 1000.0).max(0.0).round());
        }
        Some(&mut r.entry)
    }

    /// Takes one CDP event into the buffers (others are ignored). `now` is the wall clock in ms, for
    /// events without a time of their own.
    pub fn record(&mut self, event: &Event, now: f64) {
        match event {
            Event::ConsoleApiCalled(called) => {
                let kind = called.kind.as_deref().unwrap_or("log");
                let text: Vec<String> = called.args.iter().map(arg_text).collect();
                let at = called.timestamp.unwrap_or(now);
                let source = top_frame(called.stack_trace.as_ref());
                self.push_console(ConsoleLevel::from_cdp(kind), &text.join(" "), source, at);
            }
            Event::ExceptionThrown(thrown) => {
                let details = &thrown.exception_details;
                let described = details
                    .exception
                    .as_ref()
                    .and_then(|e| e.description.as_deref())
                    .and_then(|d| d.lines().next());
                let text = match (described, details.text.as_deref()) {
                    (Some(d), Some(t)) if t != "Uncaught" => format!("{t} {d}"),
                    (Some(d), _) => format!("Uncaught {d}"),
                    (None, Some(t)) => t.to_owned(),
                    (None, None) => "Uncaught exception".to_owned(),
                };
                let source = top_frame(details.stack_trace.as_ref())
                    .or_else(|| source(details.url.as_deref(), details.line_number));
                let at = thrown.timestamp.unwrap_or(now);
                self.push_console(ConsoleLevel::Error, &text, source, at);
            }
            Event::LogEntryAdded(added) => {
                let entry = &added.entry;
                let level = ConsoleLevel::from_cdp(entry.level.as_deref().unwrap_or("info"));
                let source = source(entry.url.as_deref(), entry.line_number);
                let at = entry.timestamp.unwrap_or(now);
                let text = entry.text.as_deref().unwrap_or("");
                self.push_console(level, text, source, at);
            }
            Event::RequestWillBeSent(sent) => {
                if let Some(redirect) = &sent.redirect_response {
                    let status = redirect.status;
                    if let Some(entry) = self.end(&sent.request_id, sent.timestamp) {
                        entry.status = status.and_then(|s| u16::try_from(s).ok());
                    }
                }
                self.open_request(sent);
            }
            Event::ResponseReceived(received) => {
                let status = received
                    .response
                    .as_ref()
                    .and_then(|r| r.status)
                    .and_then(|s| u16::try_from(s).ok());
                if let Some(r) = self.request(&received.request_id) {
                    r.entry.status = status;
                    if received.kind.is_some() {
                        r.entry.kind = received.kind.clone();
                    }
                }
            }
            Event::LoadingFinished(finished) => {
                let size = finished.encoded_data_length;
                if let Some(entry) = self.end(&finished.request_id, finished.timestamp) {
                    entry.size = size.map(|s| s.max(0.0) as u64);
                }
            }
            Event::LoadingFailed(failed) => {
                let failure = failed
                    .error_text
                    .as_deref()
                    .filter(|t| !t.is_empty())
                    .unwrap_or("failed")
                    .to_owned();
                if let Some(entry) = self.end(&failed.request_id, failed.timestamp) {
                    entry.failure = Some(failure);
                    if entry.kind.is_none() {
                        entry.kind = failed.kind.clone();
                    }
                }
            }
            _ => {}
        }
    }

    /// The cursor of the newest entry: what the page does from now on comes after it
    /// ([`Journal::open_since`]).
    pub fn mark(&self) -> u64 {
        self.next
    }

    /// How many requests the page sent after `mark` are still open (neither finished nor failed), long-lived
    /// streams aside: an `EventSource` or a `WebSocket` stays open for good.
    pub fn open_since(&self, mark: u64) -> usize {
        self.requests
            .iter()
            .filter(|r| r.entry.n > mark && !r.done)
            .filter(|r| !matches!(r.entry.kind.as_deref(), Some("EventSource" | "WebSocket")))
            .count()
    }

    /// The console entries after `since` at `level` or more severe.
    pub fn console(&self, level: Option<ConsoleLevel>, since: Option<u64>) -> Page<ConsoleEntry> {
        let entries = self
            .console
            .iter()
            .filter(|e| since.is_none_or(|s| e.n > s) && level.is_none_or(|l| e.level >= l))
            .cloned()
            .collect();
        Page {
            entries,
            dropped: self.console_dropped,
            next: self.next,
        }
    }

    /// The requests after `since` whose URL contains `filter` (case-insensitive).
    pub fn network(&self, filter: Option<&str>, since: Option<u64>) -> Page<NetworkEntry> {
        let filter = filter.map(str::to_lowercase);
        let entries = self
            .requests
            .iter()
            .map(|r| &r.entry)
            .filter(|e| {
                since.is_none_or(|s| e.n > s)
                    && filter
                        .as_deref()
                        .is_none_or(|f| e.url.to_lowercase().contains(f))
            })
            .cloned()
            .collect();
        Page {
            entries,
            dropped: self.network_dropped,
            next: self.next,
        }
    }
}

/// The events [`record`] keeps (the rest need not be looked at).
pub fn is_journal_event(event: &Event) -> bool {
    matches!(
        event,
        Event::ConsoleApiCalled(_)
            | Event::ExceptionThrown(_)
            | Event::LogEntryAdded(_)
            | Event::RequestWillBeSent(_)
            | Event::ResponseReceived(_)
            | Event::LoadingFinished(_)
            | Event::LoadingFailed(_)
    )
}

thread_local! {
    static JOURNALS: RefCell<HashMap<i64, Journal>> = RefCell::new(HashMap::new());
}

/// Takes one CDP event of `tab_id` into its buffers (callers skip the others with [`is_journal_event`],
/// so they need not read the clock for them).
pub fn record(tab_id: i64, event: &Event, now: f64) {
    JOURNALS.with(|j| j.borrow_mut().entry(tab_id).or_default().record(event, now));
}

/// Starts empty buffers for `tab_id` (a new attachment).
pub fn reset(tab_id: i64) {
    JOURNALS.with(|j| j.borrow_mut().insert(tab_id, Journal::default()));
}

/// Drops the buffers of `tab_id` (its debugger went away).
pub fn drop_tab(tab_id: i64) {
    JOURNALS.with(|j| j.borrow_mut().remove(&tab_id));
}

/// Reads `tab_id`'s buffers (empty ones when it has none).
pub fn with<T>(tab_id: i64, read: impl FnOnce(&Journal) -> T) -> T {
    JOURNALS.with(|j| match j.borrow().get(&tab_id) {
        Some(journal) => read(journal),
        None => read(&Journal::default()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The event `variant` with `params` decoded into its payload.
    fn event<T: serde::de::DeserializeOwned>(variant: fn(T) -> Event, params: Value) -> Event {
        variant(serde_json::from_value(params).expect("params of the event's shape"))
    }

    fn log(j: &mut Journal, kind: &str, text: &str) {
        j.record(
            &event(
                Event::ConsoleApiCalled,
                json!({"type": kind, "args": [{"type": "string", "value": text}], "timestamp": 1.0,
                    "stackTrace": {"callFrames": [{"url": "http://x/app.js", "lineNumber": 9}]}}),
            ),
            0.0,
        );
    }

    #[test]
    fn console_keeps_the_newest_entries_and_counts_the_dropped() {
        let mut j = Journal::default();
        for i in 0..(CAPACITY + 20) {
            log(&mut j, "log", &format!("line {i}"));
        }
        let page = j.console(None, None);
        assert_eq!(page.entries.len(), CAPACITY);
        assert_eq!(page.dropped, 20);
        assert_eq!(page.entries[0].text, "line 20");
        assert_eq!(
            page.entries[0].source.as_deref(),
            Some("http://x/app.js:10")
        );
        assert_eq!(page.next, (CAPACITY + 20) as u64);
        assert!(j.console(None, Some(page.next)).entries.is_empty());
    }

    #[test]
    fn console_filters_by_level_and_reads_exceptions() {
        let mut j = Journal::default();
        log(&mut j, "log", "hello");
        log(&mut j, "warning", "careful");
        j.record(
&event(
            Event::ExceptionThrown,
            json!({"timestamp": 2.0, "exceptionDetails": {"text": "Uncaught", "url": "http://x/a.js",
                    "lineNumber": 2, "exception": {"type": "object", "description": "Error: boom\n    at f"}}})),
            0.0,
        );
        let errors = j.console(Some(ConsoleLevel::Error), None).entries;
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].text, "Uncaught Error: boom");
        assert_eq!(errors[0].source.as_deref(), Some("http://x/a.js:3"));
        assert_eq!(
            j.console(Some(ConsoleLevel::Warning), None).entries.len(),
            2
        );
    }

    #[test]
    fn network_follows_a_request_to_its_status_size_and_failure() {
        let mut j = Journal::default();
        for e in [
            event(
                Event::RequestWillBeSent,
                json!({"requestId": "1", "timestamp": 10.0,
                "type": "Fetch", "request": {"method": "GET", "url": "http://x/missing"}}),
            ),
            event(
                Event::ResponseReceived,
                json!({"requestId": "1", "type": "Fetch", "response": {"status": 404}}),
            ),
            event(
                Event::LoadingFinished,
                json!({"requestId": "1", "timestamp": 10.25, "encodedDataLength": 120}),
            ),
            event(
                Event::RequestWillBeSent,
                json!({"requestId": "2", "timestamp": 11.0,
                "type": "XHR", "request": {"method": "POST", "url": "http://127.0.0.1:1/x"}}),
            ),
            event(
                Event::LoadingFailed,
                json!({"requestId": "2", "timestamp": 11.5,
                "type": "XHR", "errorText": "net::ERR_CONNECTION_REFUSED"}),
            ),
        ] {
            j.record(&e, 0.0);
        }
        let page = j.network(None, None);
        assert_eq!(page.entries.len(), 2);
        // Both ended; a request sent after a mark is open until it does.
        assert_eq!(j.open_since(0), 0);
        let mark = j.mark();
        j.record(
            &event(
                Event::RequestWillBeSent,
                json!({"requestId": "3", "timestamp": 12.0, "type": "Fetch",
                       "request": {"method": "GET", "url": "http://x/more"}}),
            ),
            0.0,
        );
        assert_eq!((j.open_since(0), j.open_since(mark)), (1, 1));
        j.record(
            &event(
                Event::LoadingFinished,
                json!({"requestId": "3", "timestamp": 12.5, "encodedDataLength": 9}),
            ),
            0.0,
        );
        assert_eq!(j.open_since(mark), 0);
        let missing = &page.entries[0];
        assert_eq!(
            (missing.status, missing.size, missing.duration_ms),
            (Some(404), Some(120), Some(250.0))
        );
        assert_eq!(missing.kind.as_deref(), Some("Fetch"));
        let failed = &page.entries[1];
        assert_eq!(
            failed.failure.as_deref(),
            Some("net::ERR_CONNECTION_REFUSED")
        );
        assert_eq!((failed.method.as_str(), failed.status), ("POST", None));
        assert_eq!(j.network(Some("MISSING"), None).entries.len(), 1);
    }
}
