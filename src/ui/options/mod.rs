//! The options page (SPEC §10): backend URL and pairing token with a connection test, the blocklist editor, the
//! unattended-run controls (allowlist, evaluate and upload switches), the idle timeout, and the audit log (newest first, 50 rows a page, **Clear** behind a confirmation dialog).
//!
//! "Save and test connection" never opens a second socket to the bridge (one extension connection at a time: a
//! test socket from this page would replace the worker's). It saves the settings, which makes the worker re-pair
//! at once, or, with unchanged settings that are not connected, asks the worker to try again (`reconnect`); then it
//! reports the worker's own handshake result from the `connection` state: acked, rejected (with the fix), or no
//! answer within 10 s.

use super::data::{call, stored};
use super::dom::{self, by_id, set_attr, Listener, PageListeners};
use crate::api::{HistoryList, Settings, UiCommand};
use crate::blocklist::BLOCKLIST_KEY;
use crate::bridge::{ConnectionState, CONNECTION_KEY};
use crate::chrome::storage;
use crate::error::Result;
use crate::session::history::{HistoryEntry, HISTORY_KEY};
use crate::settings::{BACKEND_URL_KEY, IDLE_SECONDS_KEY, TOKEN_KEY};
use serde_json::Value;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

mod audit;
mod blocklist;
mod connection;
mod idle;
mod state;
mod unattended;

use audit::{ask_clear, clear_closed, render_log, turn_page};
use blocklist::{add_blocked, render_block_preview, render_blocklist};
use connection::{check_test, render_connection, test_connection, toggle_token};
use idle::save_idle;
use state::{render_settings, show_result, Options, OPTIONS};
use unattended::save_unattended;

/// Fills the options page in and keeps it live.
pub async fn run() -> Result<()> {
    let dirty = |field: fn(&mut Options) -> &mut bool| {
        move |_| OPTIONS.with(|o| *field(&mut o.borrow_mut()) = true)
    };
    let listeners = vec![
        on_submit("conn-form", test_connection)?,
        on_submit("block-form", add_blocked)?,
        on_submit("idle-form", save_idle)?,
        on_submit("unattended-form", save_unattended)?,
        Listener::new(
            &by_id::<HtmlElement>("unattended-form")?,
            "input",
            dirty(|o| &mut o.unattended_dirty),
        ),
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
    let listeners = PageListeners::new(listeners, on_storage_changed);
    OPTIONS.with(|o| o.borrow_mut()._listeners = Some(listeners));

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

fn on_storage_changed(changes: &JsValue) {
    if let Some(state) = storage::changed::<ConnectionState>(changes, CONNECTION_KEY) {
        OPTIONS.with(|o| o.borrow_mut().connection = state);
        render_connection();
        check_test();
    }
    let url = storage::changed::<String>(changes, BACKEND_URL_KEY);
    let token = storage::changed::<String>(changes, TOKEN_KEY);
    let idle = storage::changed::<u32>(changes, IDLE_SECONDS_KEY);
    // The unattended-run controls (SPEC §10), whoever changed them: read them again.
    let unattended = [
        crate::controls::ALLOWLIST_KEY,
        crate::controls::NO_EVALUATE_KEY,
        crate::controls::NO_UPLOAD_KEY,
    ]
    .iter()
    .any(|k| js_sys::Reflect::has(changes, &JsValue::from_str(k)).unwrap_or(false));
    if unattended {
        wasm_bindgen_futures::spawn_local(async {
            if let Ok(s) = call::<Settings>(&UiCommand::GetSettings).await {
                OPTIONS.with(|o| o.borrow_mut().settings = Some(s));
                render_settings();
            }
        });
    }
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
