//! The audit log section of the options page: newest first, 50 rows a page, **Clear** behind a confirmation
//! dialog.

use super::state::{show_result, OPTIONS};
use crate::api::UiCommand;
use crate::error::Result;
use crate::ui::data::call;
use crate::ui::dom::{self, by_id, set_hidden, set_text};
use crate::ui::format::{self, LogRow, LOG_PAGE_SIZE};
use serde_json::Value;
use web_sys::{Element, HtmlButtonElement, HtmlDialogElement, HtmlElement};

pub(super) fn turn_page(delta: isize) {
    OPTIONS.with(|o| {
        let mut o = o.borrow_mut();
        o.page = o.page.saturating_add_signed(delta);
    });
    if let Err(e) = render_log() {
        crate::log::warn(&format!("options: {e}"));
    }
}

pub(super) fn render_log() -> Result<()> {
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

pub(super) fn ask_clear() {
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

pub(super) async fn clear_closed() {
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
