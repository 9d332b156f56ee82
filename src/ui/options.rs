//! The options page (SPEC §10): backend URL and pairing token with a connection test, the blocklist editor, the
//! idle timeout, and the audit log (newest first, 50 rows a page, **Clear** behind a confirmation dialog).
//!
//! "Save and test connection" never opens a second socket to the bridge (one extension connection at a time: a
//! test socket from this page would replace the worker's). It saves the settings, which makes the worker re-pair
//! at once, or, with unchanged settings that are not connected, asks the worker to try again (`reconnect`); then it
//! reports the worker's own handshake result from the `connection` state: acked, rejected (with the fix), or no
//! answer within 10 s.

use super::data::{call, stored};
use super::dom::{self, by_id, set_attr, set_hidden, set_text, Listener};
use super::format::{self, ConnectionView, LogRow, LOG_PAGE_SIZE};
use crate::api::{self as api, HistoryList, Settings, SettingsPatch, UiCommand};
use crate::blocklist::BLOCKLIST_KEY;
use crate::bridge::{ConnectionState, CONNECTION_KEY};
use crate::chrome::storage::{self, ChangeListener};
use crate::error::Result;
use crate::session::history::{HistoryEntry, HISTORY_KEY};
use crate::settings::{BACKEND_URL_KEY, IDLE_SECONDS_KEY, TOKEN_KEY};
use gloo_timers::callback::Timeout;
use serde_json::Value;
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlButtonElement, HtmlDialogElement, HtmlElement, HtmlInputElement};

/// How long "Save and test connection" waits for the worker's handshake (ms).
const TEST_TIMEOUT_MS: u32 = 10_000;

/// A connection test in progress.
struct TestRun {
    url: String,
    /// Whether the worker has (re)started connecting since the test began; results before that are stale.
    fresh: bool,
    _timeout: Timeout,
}

#[derive(Default)]
struct Options {
    settings: Option<Settings>,
    connection: Option<ConnectionState>,
    url_dirty: bool,
    token_dirty: bool,
    idle_dirty: bool,
    test: Option<TestRun>,
    blocklist: Vec<String>,
    block_rows: Vec<Listener>,
    /// Newest first.
    history: Vec<HistoryEntry>,
    page: usize,
    _listeners: Vec<Listener>,
    _storage: Option<ChangeListener>,
}

thread_local! {
    static OPTIONS: RefCell<Options> = RefCell::new(Options::default());
}

/// Fills the options page in and keeps it live.
pub async fn run() -> Result<()> {
    let dirty = |field: fn(&mut Options) -> &mut bool| {
        move |_| OPTIONS.with(|o| *field(&mut o.borrow_mut()) = true)
    };
    let listeners = vec![
        on_submit("conn-form", test_connection)?,
        on_submit("block-form", add_blocked)?,
        on_submit("idle-form", save_idle)?,
        Listener::new(
            &by_id::<HtmlElement>("backend-url")?,
            "input",
            dirty(|o| &mut o.url_dirty),
        ),
        Listener::new(
            &by_id::<HtmlElement>("token")?,
            "input",
            dirty(|o| &mut o.token_dirty),
        ),
        Listener::new(
            &by_id::<HtmlElement>("idle-minutes")?,
            "input",
            dirty(|o| &mut o.idle_dirty),
        ),
        Listener::new(&by_id::<HtmlElement>("block-input")?, "input", |_| {
            render_block_preview()
        }),
        Listener::new(&by_id::<HtmlElement>("token-toggle")?, "click", |_| {
            toggle_token()
        }),
        Listener::new(&by_id::<HtmlElement>("log-newer")?, "click", |_| {
            turn_page(-1)
        }),
        Listener::new(&by_id::<HtmlElement>("log-older")?, "click", |_| {
            turn_page(1)
        }),
        Listener::new(&by_id::<HtmlElement>("log-clear")?, "click", |_| {
            ask_clear()
        }),
        dom::on_async("clear-dialog", "close", |_| clear_closed())?,
    ];
    let storage = storage::on_changed(on_storage_changed);
    OPTIONS.with(|o| {
        let mut o = o.borrow_mut();
        o._listeners = listeners;
        o._storage = Some(storage);
    });

    let connection = stored::<ConnectionState>(CONNECTION_KEY).await;
    OPTIONS.with(|o| o.borrow_mut().connection = connection);
    render_connection();
    match call::<Settings>(&UiCommand::GetSettings).await {
        Ok(s) => {
            OPTIONS.with(|o| o.borrow_mut().settings = Some(s));
            render_settings();
        }
        Err(e) => show_result(
            "conn-result",
            &format!("Cannot read the settings: {e}"),
            "error",
        ),
    }
    match call::<Value>(&UiCommand::GetBlocklist).await {
        Ok(v) => {
            let list = serde_json::from_value(v["blocklist"].clone()).unwrap_or_default();
            OPTIONS.with(|o| o.borrow_mut().blocklist = list);
        }
        Err(e) => show_result(
            "block-preview",
            &format!("Cannot read the blocklist: {e}"),
            "error",
        ),
    }
    render_blocklist()?;
    match call::<HistoryList>(&UiCommand::GetHistory).await {
        Ok(h) => OPTIONS.with(|o| o.borrow_mut().history = h.entries),
        Err(e) => show_result(
            "log-status",
            &format!("Cannot read the audit log: {e}"),
            "error",
        ),
    }
    render_log()?;
    let app: HtmlElement = by_id("app")?;
    set_attr(&app, "aria-busy", None);
    Ok(())
}

/// Runs `f` on the form's submit (Enter in a field, or its submit button), without navigating.
fn on_submit<Fut>(form: &str, f: impl Fn() -> Fut + 'static) -> Result<Listener>
where
    Fut: std::future::Future<Output = ()> + 'static,
{
    dom::on_async(form, "submit", move |event| {
        event.prevent_default();
        f()
    })
}

fn input(id: &str) -> Result<HtmlInputElement> {
    by_id(id)
}

fn on_storage_changed(changes: &JsValue) {
    if let Some(state) = storage::changed::<ConnectionState>(changes, CONNECTION_KEY) {
        OPTIONS.with(|o| o.borrow_mut().connection = state);
        render_connection();
        check_test();
    }
    let url = storage::changed::<String>(changes, BACKEND_URL_KEY);
    let token = storage::changed::<String>(changes, TOKEN_KEY);
    let idle = storage::changed::<u32>(changes, IDLE_SECONDS_KEY);
    if url.is_some() || token.is_some() || idle.is_some() {
        OPTIONS.with(|o| {
            let mut o = o.borrow_mut();
            if let Some(s) = o.settings.as_mut() {
                if let Some(u) = url {
                    s.backend_url =
                        u.unwrap_or_else(|| crate::settings::DEFAULT_BACKEND_URL.into());
                }
                if let Some(t) = token {
                    s.token = t.unwrap_or_default();
                }
                if let Some(i) = idle {
                    s.idle_timeout_seconds = i.unwrap_or(crate::settings::DEFAULT_IDLE_SECONDS);
                }
            }
        });
        render_settings();
    }
    if let Some(list) = storage::changed::<Vec<String>>(changes, BLOCKLIST_KEY) {
        OPTIONS.with(|o| o.borrow_mut().blocklist = list.unwrap_or_default());
        if let Err(e) = render_blocklist() {
            crate::log::warn(&format!("options: {e}"));
        }
    }
    if let Some(ring) = storage::changed::<Vec<HistoryEntry>>(changes, HISTORY_KEY) {
        let newest_first = crate::session::history::newest_first(&ring.unwrap_or_default());
        OPTIONS.with(|o| o.borrow_mut().history = newest_first);
        if let Err(e) = render_log() {
            crate::log::warn(&format!("options: {e}"));
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Connection

fn render_connection() {
    let view = OPTIONS.with(|o| ConnectionView::of(o.borrow().connection.as_ref()));
    let result: Result<()> = (|| {
        let conn: HtmlElement = by_id("conn")?;
        conn.set_class_name(&format!("conn {}", view.tone));
        set_text(&by_id::<Element>("conn-title")?, &view.headline);
        set_text(&by_id::<Element>("conn-detail")?, &view.message());
        Ok(())
    })();
    if let Err(e) = result {
        crate::log::warn(&format!("options: {e}"));
    }
}

/// Puts the saved settings into fields the user is not editing.
fn render_settings() {
    let (settings, url_dirty, token_dirty, idle_dirty) = OPTIONS.with(|o| {
        let o = o.borrow();
        (o.settings.clone(), o.url_dirty, o.token_dirty, o.idle_dirty)
    });
    let Some(settings) = settings else { return };
    let result: Result<()> = (|| {
        if !url_dirty {
            input("backend-url")?.set_value(&settings.backend_url);
        }
        if !token_dirty {
            input("token")?.set_value(&settings.token);
        }
        if !idle_dirty {
            input("idle-minutes")?.set_value(&format::idle_minutes(settings.idle_timeout_seconds));
        }
        Ok(())
    })();
    if let Err(e) = result {
        crate::log::warn(&format!("options: {e}"));
    }
}

fn toggle_token() {
    let result: Result<()> = (|| {
        let token = input("token")?;
        let button: HtmlButtonElement = by_id("token-toggle")?;
        let reveal = token.type_() == "password";
        token.set_type(if reveal { "text" } else { "password" });
        set_text(&button, if reveal { "Hide" } else { "Show" });
        Ok(())
    })();
    if let Err(e) = result {
        crate::log::warn(&format!("options: {e}"));
    }
}

/// Shows a result line (`tone`: `""`, `"ok"`, `"busy"` or `"error"`) in the live region `id`.
fn show_result(id: &str, text: &str, tone: &str) {
    if let Ok(el) = by_id::<Element>(id) {
        el.set_class_name(&format!("result {tone}"));
        set_text(&el, text);
    }
}

async fn test_connection() {
    let (Ok(url_input), Ok(token_input)) = (input("backend-url"), input("token")) else {
        return;
    };
    let url = url_input.value().trim().to_owned();
    let token = token_input.value().trim().to_owned();
    let patch = SettingsPatch {
        backend_url: Some(url.clone()),
        token: Some(token.clone()),
        ..Default::default()
    };
    if let Err(e) = api::validate_settings(&patch) {
        set_attr(&url_input, "aria-invalid", Some("true"));
        show_result("conn-result", &e.to_string(), "error");
        let _ = url_input.focus();
        return;
    }
    set_attr(&url_input, "aria-invalid", None);
    let (saved, connection) = OPTIONS.with(|o| {
        let o = o.borrow();
        (o.settings.clone(), o.connection.clone())
    });
    let changed = saved
        .as_ref()
        .is_none_or(|s| s.backend_url != url || s.token != token);
    if !changed {
        if let Some(ConnectionState::Connected { url: current }) = &connection {
            if *current == url {
                show_result(
                    "conn-result",
                    &format!("Connected: the bridge at {url} accepted the pairing."),
                    "ok",
                );
                return;
            }
        }
    }
    // A state already "connecting" to this URL will not be announced again: results from now on are fresh.
    let fresh = matches!(&connection, Some(ConnectionState::Connecting { url: u }) if *u == url);
    let timeout = Timeout::new(TEST_TIMEOUT_MS, test_timed_out);
    OPTIONS.with(|o| {
        o.borrow_mut().test = Some(TestRun {
            url: url.clone(),
            fresh,
            _timeout: timeout,
        })
    });
    show_result(
        "conn-result",
        &format!("Testing: connecting to {url}…"),
        "busy",
    );
    let sent = if changed {
        call::<Settings>(&UiCommand::SetSettings(patch))
            .await
            .map(|s| {
                OPTIONS.with(|o| {
                    let mut o = o.borrow_mut();
                    o.settings = Some(s);
                    o.url_dirty = false;
                    o.token_dirty = false;
                });
            })
    } else {
        call::<Value>(&UiCommand::Reconnect).await.map(|_| ())
    };
    if let Err(e) = sent {
        OPTIONS.with(|o| o.borrow_mut().test = None);
        show_result("conn-result", &format!("Could not save: {e}"), "error");
    }
}

/// Reports the test's outcome once the worker's connection state has moved on since the test began.
fn check_test() {
    let outcome = OPTIONS.with(|o| {
        let mut o = o.borrow_mut();
        let state = o.connection.clone();
        let test = o.test.as_mut()?;
        let outcome = match state {
            Some(ConnectionState::Connecting { url }) if url == test.url => {
                test.fresh = true;
                None
            }
            Some(ConnectionState::Connected { url }) if test.fresh && url == test.url => Some((
                format!("Connected: the bridge at {url} accepted the pairing."),
                "ok",
            )),
            // The reason and the fix are in the status line above (render_connection): said once.
            Some(state @ ConnectionState::Fatal { .. }) if test.fresh => Some((
                format!(
                    "Refused: {}. The reason and what to do are shown above.",
                    ConnectionView::of(Some(&state)).headline.to_lowercase()
                ),
                "error",
            )),
            _ => None,
        };
        if outcome.is_some() {
            o.test = None;
        }
        outcome
    });
    if let Some((text, tone)) = outcome {
        show_result("conn-result", &text, tone);
    }
}

fn test_timed_out() {
    let url = OPTIONS.with(|o| o.borrow_mut().test.take().map(|t| t.url));
    if let Some(url) = url {
        show_result(
            "conn-result",
            &format!(
                "No answer from {url} within {} s. Is `bua-bridge serve` running there? The extension keeps trying.",
                TEST_TIMEOUT_MS / 1000
            ),
            "error",
        );
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Blocklist

fn render_block_preview() {
    let Ok(field) = input("block-input") else {
        return;
    };
    let list = OPTIONS.with(|o| o.borrow().blocklist.clone());
    match format::blocklist_preview(&field.value(), &list) {
        Ok(text) => {
            set_attr(&field, "aria-invalid", None);
            show_result("block-preview", &text, "");
        }
        Err(reason) => {
            set_attr(&field, "aria-invalid", Some("true"));
            show_result("block-preview", &reason, "error");
        }
    }
}

async fn add_blocked() {
    let Ok(field) = input("block-input") else {
        return;
    };
    let raw = field.value();
    let list = OPTIONS.with(|o| o.borrow().blocklist.clone());
    let entry = match format::blocklist_preview(&raw, &list) {
        Ok(text) if text.is_empty() => {
            show_result(
                "block-preview",
                "Type a domain such as example.com",
                "error",
            );
            let _ = field.focus();
            return;
        }
        Ok(_) => crate::blocklist::normalize_entry(&raw).unwrap_or_default(),
        Err(reason) => {
            set_attr(&field, "aria-invalid", Some("true"));
            show_result("block-preview", &reason, "error");
            let _ = field.focus();
            return;
        }
    };
    match call::<Value>(&UiCommand::AddBlocked { domain: raw }).await {
        Ok(v) => {
            let list = serde_json::from_value(v["blocklist"].clone()).unwrap_or_default();
            OPTIONS.with(|o| o.borrow_mut().blocklist = list);
            field.set_value("");
            set_attr(&field, "aria-invalid", None);
            show_result(
                "block-preview",
                &format!("Blocked {entry}: its sessions were ended."),
                "ok",
            );
            if let Err(e) = render_blocklist() {
                crate::log::warn(&format!("options: {e}"));
            }
        }
        Err(e) => show_result("block-preview", &e.to_string(), "error"),
    }
}

fn render_blocklist() -> Result<()> {
    let list = OPTIONS.with(|o| o.borrow().blocklist.clone());
    let ul: Element = by_id("block-list")?;
    set_hidden(&by_id::<HtmlElement>("block-empty")?, !list.is_empty());
    set_text(&by_id::<Element>("block-count")?, &list.len().to_string());
    // Which entry's Remove had the focus, to give it back after the rebuild.
    let focused = dom::document()?
        .active_element()
        .and_then(|a| a.get_attribute("data-entry"));
    let mut listeners = Vec::with_capacity(list.len());
    ul.set_text_content(None);
    for entry in &list {
        let remove: HtmlButtonElement = dom::el("button")?
            .class("btn small")
            .attr("type", "button")
            .attr("data-entry", entry)
            .attr("aria-label", &format!("Remove {entry} from the blocklist"))
            .text("Remove")
            .build()
            .unchecked_into();
        let li = dom::el("li")?
            .class("block-item")
            .child(dom::el("span")?.class("block-domain").text(entry).build())
            .child(&remove)
            .build();
        ul.append_child(&li)
            .map_err(|e| crate::Error::from_js("appendChild", &e))?;
        let domain = entry.clone();
        listeners.push(Listener::new(&remove, "click", move |_| {
            let domain = domain.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match call::<Value>(&UiCommand::RemoveBlocked {
                    domain: domain.clone(),
                })
                .await
                {
                    Ok(v) => {
                        let list =
                            serde_json::from_value(v["blocklist"].clone()).unwrap_or_default();
                        OPTIONS.with(|o| o.borrow_mut().blocklist = list);
                        show_result("block-preview", &format!("Unblocked {domain}."), "ok");
                        if let Err(e) = render_blocklist() {
                            crate::log::warn(&format!("options: {e}"));
                        }
                        if let Ok(field) = input("block-input") {
                            let _ = field.focus();
                        }
                    }
                    Err(e) => show_result("block-preview", &e.to_string(), "error"),
                }
            });
        }));
        if focused.as_deref() == Some(entry.as_str()) {
            let _ = remove.focus();
        }
    }
    OPTIONS.with(|o| o.borrow_mut().block_rows = listeners);
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------------
// Idle timeout

async fn save_idle() {
    let Ok(field) = input("idle-minutes") else {
        return;
    };
    let seconds = match format::parse_idle_minutes(&field.value()) {
        Ok(s) => s,
        Err(reason) => {
            set_attr(&field, "aria-invalid", Some("true"));
            show_result("idle-result", &reason, "error");
            let _ = field.focus();
            return;
        }
    };
    set_attr(&field, "aria-invalid", None);
    let patch = SettingsPatch {
        idle_timeout_seconds: Some(seconds),
        ..Default::default()
    };
    match call::<Settings>(&UiCommand::SetSettings(patch)).await {
        Ok(s) => {
            OPTIONS.with(|o| {
                let mut o = o.borrow_mut();
                o.settings = Some(s);
                o.idle_dirty = false;
            });
            render_settings();
            show_result(
                "idle-result",
                &format!(
                    "Saved: sessions end after {} without input.",
                    format::duration(f64::from(seconds) * 1000.0)
                ),
                "ok",
            );
        }
        Err(e) => show_result("idle-result", &e.to_string(), "error"),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Audit log

fn turn_page(delta: isize) {
    OPTIONS.with(|o| {
        let mut o = o.borrow_mut();
        o.page = o.page.saturating_add_signed(delta);
    });
    if let Err(e) = render_log() {
        crate::log::warn(&format!("options: {e}"));
    }
}

fn render_log() -> Result<()> {
    let now = js_sys::Date::now();
    let (rows, view) = OPTIONS.with(|o| {
        let mut o = o.borrow_mut();
        let view = format::page(o.history.len(), o.page, LOG_PAGE_SIZE);
        o.page = view.page;
        let rows: Vec<LogRow> = o.history[view.start..view.end]
            .iter()
            .map(|e| LogRow::of(e, now, dom::tz_offset_min(e.at)))
            .collect();
        (rows, view)
    });
    let total = OPTIONS.with(|o| o.borrow().history.len());
    let body: Element = by_id("log-body")?;
    body.set_text_content(None);
    for row in &rows {
        let event = dom::el("span")?
            .class(&format!("event {}", row.event_class))
            .text(row.event)
            .build();
        let tr = dom::el("tr")?
            .child(
                dom::el("td")?
                    .class("when")
                    .child(
                        dom::el("time")?
                            .attr("title", &row.timestamp)
                            .attr("datetime", &row.timestamp.replacen(' ', "T", 1))
                            .text(&row.when)
                            .build(),
                    )
                    .build(),
            )
            .child(dom::el("td")?.child(event).build())
            .child(
                dom::el("td")?
                    .class("where")
                    .child(dom::el("span")?.class("domain").text(&row.domain).build())
                    .child(dom::el("span")?.class("tab").text(&row.tab).build())
                    .build(),
            )
            .child(dom::el("td")?.class("detail").text(&row.detail).build())
            .build();
        body.append_child(&tr)
            .map_err(|e| crate::Error::from_js("appendChild", &e))?;
    }
    set_hidden(&by_id::<HtmlElement>("log-empty")?, total != 0);
    set_hidden(&by_id::<HtmlElement>("log-table")?, total == 0);
    set_text(
        &by_id::<Element>("log-count")?,
        &match total {
            1 => "1 entry".to_owned(),
            n => format!("{n} entries"),
        },
    );
    set_text(&by_id::<Element>("log-range")?, &view.label);
    by_id::<HtmlButtonElement>("log-newer")?.set_disabled(!view.has_newer);
    by_id::<HtmlButtonElement>("log-older")?.set_disabled(!view.has_older);
    by_id::<HtmlButtonElement>("log-clear")?.set_disabled(total == 0);
    Ok(())
}

fn ask_clear() {
    let result: Result<()> = (|| {
        let total = OPTIONS.with(|o| o.borrow().history.len());
        set_text(
            &by_id::<Element>("clear-desc")?,
            &format!(
                "All {} of the audit log will be removed. This cannot be undone.",
                if total == 1 {
                    "1 entry".to_owned()
                } else {
                    format!("{total} entries")
                }
            ),
        );
        let dialog: HtmlDialogElement = by_id("clear-dialog")?;
        dialog.set_return_value("");
        dialog
            .show_modal()
            .map_err(|e| crate::Error::from_js("dialog.showModal", &e))?;
        // The safe choice has the focus: Enter right away cancels.
        let _ = by_id::<HtmlElement>("clear-cancel")?.focus();
        Ok(())
    })();
    if let Err(e) = result {
        show_result("log-status", &e.to_string(), "error");
    }
}

async fn clear_closed() {
    let Ok(dialog) = by_id::<HtmlDialogElement>("clear-dialog") else {
        return;
    };
    if dialog.return_value() != "confirm" {
        if let Ok(b) = by_id::<HtmlElement>("log-clear") {
            let _ = b.focus();
        }
        return;
    }
    match call::<Value>(&UiCommand::ClearHistory).await {
        Ok(_) => {
            OPTIONS.with(|o| {
                let mut o = o.borrow_mut();
                o.history.clear();
                o.page = 0;
            });
            show_result("log-status", "The audit log was cleared.", "ok");
            if let Err(e) = render_log() {
                crate::log::warn(&format!("options: {e}"));
            }
        }
        Err(e) => show_result("log-status", &format!("Could not clear: {e}"), "error"),
    }
    // Clear is disabled now; keep the focus in the log section.
    if let Ok(h) = by_id::<HtmlElement>("log-h") {
        let _ = h.focus();
    }
}
