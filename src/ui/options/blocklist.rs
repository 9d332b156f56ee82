//! The blocklist section of the options page: the preview of what an entry blocks, adding, and the list
//! with a Remove button per entry.

use super::state::{input, show_result, OPTIONS};
use crate::api::UiCommand;
use crate::error::Result;
use crate::ui::data::call;
use crate::ui::dom::{self, by_id, set_attr, set_hidden, set_text, Listener};
use crate::ui::format;
use serde_json::Value;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlButtonElement, HtmlElement};

pub(super) fn render_block_preview() {
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

pub(super) async fn add_blocked() {
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

pub(super) fn render_blocklist() -> Result<()> {
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
