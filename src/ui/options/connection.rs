//! The connection section of the options page: the bridge status line, the token field's Show/Hide, and
//! "Save and test connection", which never opens a socket of its own ([`super`] says why).

use super::state::{input, show_result, TestRun, OPTIONS};
use crate::api::{self as api, Settings, SettingsPatch, UiCommand};
use crate::bridge::ConnectionState;
use crate::error::Result;
use crate::ui::data::call;
use crate::ui::dom::{by_id, set_attr, set_text};
use crate::ui::format::ConnectionView;
use gloo_timers::callback::Timeout;
use serde_json::Value;
use web_sys::{Element, HtmlButtonElement, HtmlElement};

/// How long "Save and test connection" waits for the worker's handshake (ms).
const TEST_TIMEOUT_MS: u32 = 10_000;

pub(super) fn render_connection() {
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

pub(super) fn toggle_token() {
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

pub(super) async fn test_connection() {
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
pub(super) fn check_test() {
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
