//! The popup (SPEC §10): the connection state, the active sessions each with **Stop**, a red **Stop all** (no
//! confirmation: pressing it is the decision) and **Show** for the agent window, all live while the popup is open.
//!
//! Rows are keyed by `tabId` and updated in place, so a live update never takes the keyboard focus away from a
//! button; a row that disappears hands focus to the next row's Stop (or to Stop all).

use super::data::{call, stored};
use super::dom::{self, by_id, set_attr, set_hidden, set_text, Listener, PageListeners};
use super::format::{ConnectionView, SessionRow};
use crate::actions::handoff::{self, Answer, PendingHandoff};
use crate::api::{SessionList, UiCommand};
use crate::bridge::{ConnectionState, CONNECTION_KEY};
use crate::chrome::storage;
use crate::error::Result;
use crate::session::model::Session;
use crate::windows::{WindowMap, WINDOW_KEY};
use gloo_timers::callback::{Interval, Timeout};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlButtonElement, HtmlElement};

/// Storage key of the session table (see [`crate::session`]).
const SESSIONS_KEY: &str = "activeSessions";

/// The DOM of one session row.
struct RowEls {
    li: Element,
    domain: Element,
    badge: Element,
    meta: Element,
    stop: HtmlButtonElement,
    _click: Listener,
}

#[derive(Default)]
struct Popup {
    sessions: Vec<Session>,
    windows: WindowMap,
    rows: BTreeMap<i64, RowEls>,
    handoffs: Vec<PendingHandoff>,
    _handoff_clicks: Vec<Listener>,
    _listeners: Option<PageListeners>,
    _tick: Option<Interval>,
    status_clear: Option<Timeout>,
}

thread_local! {
    static POPUP: RefCell<Popup> = RefCell::new(Popup::default());
}

/// Fills the popup in and keeps it live.
pub async fn run() -> Result<()> {
    let listeners = vec![
        dom::on_async("stop-all", "click", |_| stop_all())?,
        dom::on_async("show-agent", "click", |_| show_agent_window())?,
        dom::on_async("open-options", "click", |_| open_options())?,
        dom::on_async("fatal-options", "click", |_| open_options())?,
    ];
    let listeners = PageListeners::new(listeners, on_storage_changed);
    POPUP.with(|p| p.borrow_mut()._listeners = Some(listeners));

    render_connection(stored::<ConnectionState>(CONNECTION_KEY).await.as_ref());
    // Asking the worker also wakes it (and with it the bridge connection) if Chrome had stopped it.
    match call::<SessionList>(&UiCommand::ListSessions).await {
        Ok(list) => POPUP.with(|p| {
            let mut p = p.borrow_mut();
            p.sessions = list.sessions;
            p.windows = list.agent_windows;
        }),
        Err(e) => status(&format!("Cannot list the sessions: {e}"), true),
    }
    render_sessions()?;
    render_controls().await;
    let pending = stored::<Vec<PendingHandoff>>(handoff::PENDING_KEY).await;
    render_handoffs(pending.unwrap_or_default());
    let tick = Interval::new(1_000, || {
        if let Err(e) = render_sessions() {
            crate::log::warn(&format!("popup: {e}"));
        }
    });
    POPUP.with(|p| p.borrow_mut()._tick = Some(tick));
    // The skeleton says "Loading" to assistive technology until the first render.
    let app: HtmlElement = by_id("app")?;
    set_attr(&app, "aria-busy", None);
    Ok(())
}

/// The unattended-run controls in force (SPEC §10), one line under the connection; hidden when none is.
async fn render_controls() {
    let Ok(settings) = call::<crate::api::Settings>(&UiCommand::GetSettings).await else {
        return;
    };
    let Ok(line) = by_id::<HtmlElement>("controls") else {
        return;
    };
    let summary = super::format::controls_summary(&settings);
    set_text(&line, summary.as_deref().unwrap_or_default());
    set_hidden(&line, summary.is_none());
}

fn on_storage_changed(changes: &wasm_bindgen::JsValue) {
    if let Some(state) = storage::changed::<ConnectionState>(changes, CONNECTION_KEY) {
        render_connection(state.as_ref());
    }
    let controls = [
        crate::controls::ALLOWLIST_KEY,
        crate::controls::NO_EVALUATE_KEY,
        crate::controls::NO_UPLOAD_KEY,
        crate::controls::BRIDGE_CONTROLS_KEY,
    ];
    if controls.iter().any(|k| {
        js_sys::Reflect::has(changes, &wasm_bindgen::JsValue::from_str(k)).unwrap_or(false)
    }) {
        wasm_bindgen_futures::spawn_local(render_controls());
    }
    if let Some(pending) = storage::changed::<Vec<PendingHandoff>>(changes, handoff::PENDING_KEY) {
        render_handoffs(pending.unwrap_or_default());
    }
    let sessions = storage::changed::<Vec<Session>>(changes, SESSIONS_KEY);
    let windows = storage::changed::<WindowMap>(changes, WINDOW_KEY);
    if sessions.is_none() && windows.is_none() {
        return;
    }
    POPUP.with(|p| {
        let mut p = p.borrow_mut();
        if let Some(s) = sessions {
            p.sessions = s.unwrap_or_default();
        }
        if let Some(w) = windows {
            p.windows = w.unwrap_or_default();
        }
    });
    if let Err(e) = render_sessions() {
        crate::log::warn(&format!("popup: {e}"));
    }
}

fn render_connection(state: Option<&ConnectionState>) {
    let view = ConnectionView::of(state);
    let result: Result<()> = (|| {
        let conn: HtmlElement = by_id("conn")?;
        conn.set_class_name(&format!("conn {}", view.tone));
        set_text(&by_id::<Element>("conn-title")?, &view.headline);
        set_text(&by_id::<Element>("conn-detail")?, &view.detail);
        let fatal: HtmlElement = by_id("fatal")?;
        set_hidden(&fatal, view.fix.is_none());
        set_text(
            &by_id::<Element>("fatal-fix")?,
            view.fix.as_deref().unwrap_or_default(),
        );
        Ok(())
    })();
    if let Err(e) = result {
        crate::log::warn(&format!("popup: {e}"));
    }
}

/// Brings the session list, the count and the buttons in line with the state.
fn render_sessions() -> Result<()> {
    let now = js_sys::Date::now();
    let (sessions, has_window) = POPUP.with(|p| {
        let p = p.borrow();
        (p.sessions.clone(), !p.windows.is_empty())
    });
    let list: Element = by_id("session-list")?;
    let empty: HtmlElement = by_id("no-sessions")?;
    set_hidden(&empty, !sessions.is_empty());
    set_text(
        &by_id::<Element>("session-count")?,
        &sessions.len().to_string(),
    );
    let show: HtmlButtonElement = by_id("show-agent")?;
    show.set_disabled(!has_window);
    set_attr(
        &show,
        "title",
        Some(if has_window {
            "Restore and focus the agent's window"
        } else {
            "The agent has no window open"
        }),
    );

    // Remove the rows of ended sessions, moving the focus off a removed button first.
    let live: Vec<i64> = sessions.iter().map(|s| s.tab_id).collect();
    let gone: Vec<RowEls> = POPUP.with(|p| {
        let mut p = p.borrow_mut();
        let ended: Vec<i64> = p
            .rows
            .keys()
            .copied()
            .filter(|id| !live.contains(id))
            .collect();
        ended
            .into_iter()
            .filter_map(|id| p.rows.remove(&id))
            .collect()
    });
    let active = dom::document()?.active_element();
    for row in gone {
        if active.as_ref() == Some(row.stop.unchecked_ref::<Element>()) {
            focus_after_removal(&row.li);
        }
        row.li.remove();
    }

    let mut previous: Option<Element> = None;
    for session in &sessions {
        let view = SessionRow::of(session, now);
        let exists = POPUP.with(|p| p.borrow().rows.contains_key(&view.tab_id));
        if !exists {
            let row = build_row(view.tab_id)?;
            POPUP.with(|p| p.borrow_mut().rows.insert(view.tab_id, row));
        }
        POPUP.with(|p| -> Result<()> {
            let p = p.borrow();
            let Some(row) = p.rows.get(&view.tab_id) else {
                return Ok(());
            };
            set_text(&row.domain, &view.domain);
            set_attr(&row.domain, "title", Some(&view.domain));
            set_text(&row.badge, view.owner);
            row.badge.set_class_name(&format!("badge {}", view.owner));
            set_text(&row.meta, &view.meta);
            set_attr(&row.stop, "aria-label", Some(&view.stop_label));
            // Keep the DOM order equal to the session order (oldest first); a row in place is not touched, so
            // its button keeps the focus.
            let attached = row.li.parent_node().is_some();
            if !attached || row.li.previous_element_sibling() != previous {
                let before = match &previous {
                    Some(p) => p.next_sibling(),
                    None => list.first_child(),
                };
                let _ = list.insert_before(&row.li, before.as_ref());
            }
            previous = Some(row.li.clone());
            Ok(())
        })?;
    }
    Ok(())
}

fn build_row(tab_id: i64) -> Result<RowEls> {
    let domain = dom::el("span")?.class("s-domain").build();
    let badge = dom::el("span")?.class("badge").build();
    let meta = dom::el("span")?.class("s-meta").build();
    let stop: HtmlButtonElement = dom::el("button")?
        .class("btn small")
        .attr("type", "button")
        .text("Stop")
        .build()
        .unchecked_into();
    let text = dom::el("div")?
        .class("s-text")
        .child(
            dom::el("div")?
                .class("s-line")
                .child(&domain)
                .child(&badge)
                .build(),
        )
        .child(&meta)
        .build();
    let li = dom::el("li")?
        .class("session")
        .attr("data-tab", &tab_id.to_string())
        .child(&text)
        .child(&stop)
        .build();
    let button = stop.clone();
    let click = Listener::new(&stop, "click", move |_| {
        let button = button.clone();
        wasm_bindgen_futures::spawn_local(async move {
            button.set_disabled(true);
            set_text(&button, "Stopping…");
            let answer = call::<Value>(&UiCommand::StopSession { tab_id }).await;
            if let Err(e) = answer {
                status(&format!("Could not stop tab {tab_id}: {e}"), true);
                button.set_disabled(false);
                set_text(&button, "Stop");
            }
        });
    });
    Ok(RowEls {
        li,
        domain,
        badge,
        meta,
        stop,
        _click: click,
    })
}

/// Moves the focus from a row about to be removed to the next row's Stop, else the previous one's, else Stop all.
fn focus_after_removal(li: &Element) {
    let sibling = li
        .next_element_sibling()
        .or_else(|| li.previous_element_sibling());
    let target = sibling
        .and_then(|s| s.query_selector("button").ok().flatten())
        .or_else(|| by_id::<Element>("stop-all").ok());
    if let Some(t) = target.and_then(|t| t.dyn_into::<HtmlElement>().ok()) {
        let _ = t.focus();
    }
}

async fn stop_all() {
    match call::<Value>(&UiCommand::StopAll).await {
        Ok(v) => {
            let n = v.get("stopped").and_then(Value::as_u64).unwrap_or(0);
            status(
                &match n {
                    0 => "Stopped: no session was active".to_owned(),
                    1 => "Stopped 1 session".to_owned(),
                    n => format!("Stopped {n} sessions"),
                },
                false,
            );
        }
        Err(e) => status(&format!("Stop all failed: {e}"), true),
    }
}

async fn show_agent_window() {
    match call::<Value>(&UiCommand::ShowAgentWindow { owner: None }).await {
        Ok(v) if v["shown"].as_array().is_some_and(|a| !a.is_empty()) => {}
        Ok(_) => status("The agent has no window open", false),
        Err(e) => status(&format!("Cannot show the agent window: {e}"), true),
    }
}

async fn open_options() {
    if let Err(e) = crate::chrome::runtime::open_options_page().await {
        status(&format!("Cannot open the options page: {e}"), true);
    }
}

/// Shows a one-line message in the status bar for 6 s (errors in red), announced by its live region.
fn status(text: &str, error: bool) {
    let Ok(el) = by_id::<Element>("status") else {
        return;
    };
    el.set_class_name(if error { "status error" } else { "status" });
    set_text(&el, text);
    let clear = Timeout::new(6_000, move || {
        if let Ok(el) = by_id::<Element>("status") {
            set_text(&el, "");
        }
    });
    POPUP.with(|p| p.borrow_mut().status_clear = Some(clear));
}

/// Shows the handoffs waiting for the person at the top, each with Done and Cancel (SPEC §10). The list is
/// rebuilt only when it changes, so a live update of the same list keeps the keyboard focus.
fn render_handoffs(pending: Vec<PendingHandoff>) {
    if POPUP.with(|p| p.borrow().handoffs == pending) && !pending.is_empty() {
        return;
    }
    let result: Result<Vec<Listener>> = (|| {
        let section: HtmlElement = by_id("handoffs")?;
        let list: Element = by_id("handoff-list")?;
        list.set_text_content(None);
        set_hidden(&section, pending.is_empty());
        let mut clicks = Vec::new();
        for h in &pending {
            let text = handoff::request_text(&h.domain, &h.reason);
            let done = handoff_button("Done", "btn primary small", &format!("Done: {text}"))?;
            let cancel = handoff_button("Cancel", "btn small", &format!("Cancel: {text}"))?;
            let li = dom::el("li")?
                .class("handoff")
                .attr("data-tab", &h.tab_id.to_string())
                .child(dom::el("p")?.class("h-text").text(&text).build())
                .child(
                    dom::el("div")?
                        .class("h-actions")
                        .child(&done)
                        .child(&cancel)
                        .build(),
                )
                .build();
            list.append_child(&li)
                .map_err(|e| crate::Error::from_js("appendChild", &e))?;
            clicks.push(on_answer(&done, h.tab_id, Answer::Done));
            clicks.push(on_answer(&cancel, h.tab_id, Answer::Cancel));
        }
        Ok(clicks)
    })();
    match result {
        Ok(clicks) => POPUP.with(|p| {
            let mut p = p.borrow_mut();
            p.handoffs = pending;
            p._handoff_clicks = clicks;
        }),
        Err(e) => crate::log::warn(&format!("popup: {e}")),
    }
}

fn handoff_button(label: &str, class: &str, aria: &str) -> Result<HtmlButtonElement> {
    Ok(dom::el("button")?
        .class(class)
        .attr("type", "button")
        .attr("aria-label", aria)
        .text(label)
        .build()
        .unchecked_into())
}

fn on_answer(button: &HtmlButtonElement, tab_id: i64, answer: Answer) -> Listener {
    let b = button.clone();
    Listener::new(button, "click", move |_| {
        let b = b.clone();
        wasm_bindgen_futures::spawn_local(async move {
            b.set_disabled(true);
            let answered = call::<Value>(&UiCommand::AnswerHandoff { tab_id, answer }).await;
            match answered {
                Ok(v) if v["answered"] == true => {}
                Ok(_) => status("That request has already ended", false),
                Err(e) => {
                    status(&format!("Could not answer the request: {e}"), true);
                    b.set_disabled(false);
                }
            }
        });
    })
}
