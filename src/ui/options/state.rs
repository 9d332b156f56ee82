//! What the sections of the options page share: the page state, the field lookup, the result lines, and the
//! saved settings put into their fields.

use crate::api::Settings;
use crate::bridge::ConnectionState;
use crate::error::Result;
use crate::session::history::HistoryEntry;
use crate::ui::dom::{by_id, set_text, Listener, PageListeners};
use crate::ui::format;
use gloo_timers::callback::Timeout;
use std::cell::RefCell;
use web_sys::{Element, HtmlInputElement};

/// A connection test in progress.
pub(super) struct TestRun {
    /// The URL under test.
    pub(super) url: String,
    /// Whether the worker has (re)started connecting since the test began; results before that are stale.
    pub(super) fresh: bool,
    /// Ends the test as unanswered when it fires; dropped with the test.
    pub(super) _timeout: Timeout,
}

/// The page's state: what was saved, the worker's connection, which fields the user is editing (a change in
/// storage does not overwrite them), the test running, the blocklist and the audit log as shown.
#[derive(Default)]
pub(super) struct Options {
    pub(super) settings: Option<Settings>,
    pub(super) connection: Option<ConnectionState>,
    pub(super) url_dirty: bool,
    pub(super) token_dirty: bool,
    pub(super) idle_dirty: bool,
    /// The unattended-runs fields are being edited.
    pub(super) unattended_dirty: bool,
    pub(super) test: Option<TestRun>,
    pub(super) blocklist: Vec<String>,
    pub(super) block_rows: Vec<Listener>,
    /// Newest first.
    pub(super) history: Vec<HistoryEntry>,
    pub(super) page: usize,
    pub(super) _listeners: Option<PageListeners>,
}

thread_local! {
    pub(super) static OPTIONS: RefCell<Options> = RefCell::new(Options::default());
}

/// The `<input>` with id `id`.
pub(super) fn input(id: &str) -> Result<HtmlInputElement> {
    by_id(id)
}

/// Puts the saved settings into fields the user is not editing.
pub(super) fn render_settings() {
    let (settings, url_dirty, token_dirty, idle_dirty, unattended_dirty) = OPTIONS.with(|o| {
        let o = o.borrow();
        let dirty = (o.url_dirty, o.token_dirty, o.idle_dirty, o.unattended_dirty);
        (o.settings.clone(), dirty.0, dirty.1, dirty.2, dirty.3)
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
        if !unattended_dirty {
            // The unattended-run controls (SPEC §10).
            input("allow-input")?.set_value(&settings.allowlist.join(", "));
            input("no-evaluate")?.set_checked(settings.no_evaluate);
            input("no-upload")?.set_checked(settings.no_upload);
        }
        Ok(())
    })();
    if let Err(e) = result {
        crate::log::warn(&format!("options: {e}"));
    }
}

/// Shows a result line (`tone`: `""`, `"ok"`, `"busy"` or `"error"`) in the live region `id`.
pub(super) fn show_result(id: &str, text: &str, tone: &str) {
    if let Ok(el) = by_id::<Element>(id) {
        el.set_class_name(&format!("result {tone}"));
        set_text(&el, text);
    }
}
