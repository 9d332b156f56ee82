//! The popup and the options page (SPEC §10): the two surfaces through which the user stays in control.
//!
//! `popup/popup.html` and `options/options.html` are hand-written skeletons (every section, label and button is
//! in the HTML, so nothing moves when data arrives); their three-line loaders instantiate the same wasm module as
//! the service worker and call [`popup_main`] / [`options_main`], which fill the skeleton in and wire it up.
//!
//! * Data comes from the worker through [`data::call`] (`chrome.runtime.sendMessage`, the commands of
//!   [`crate::api`]) and from `chrome.storage.local` directly (`connection`, `activeSessions`,
//!   `buaWindowId`, `blocklist`, `sessionHistory`, settings); `chrome.storage.onChanged` keeps both pages live.
//! * [`format`] turns that data into the strings the user reads and is tested natively; [`dom`] is the small
//!   DOM helper; [`popup`] and [`options`] own the page state.

pub mod data;
pub mod dom;
pub mod format;
pub mod options;
pub mod popup;

use crate::error::Error;
use wasm_bindgen::prelude::*;

/// Entry point of `popup/popup.html`.
#[wasm_bindgen]
pub fn popup_main() {
    wasm_bindgen_futures::spawn_local(async {
        if let Err(e) = popup::run().await {
            page_failed(&e);
        }
    });
}

/// Entry point of `options/options.html`.
#[wasm_bindgen]
pub fn options_main() {
    wasm_bindgen_futures::spawn_local(async {
        if let Err(e) = options::run().await {
            page_failed(&e);
        }
    });
}

/// Shows a page that could not start (an HTML/Rust mismatch or no extension context): the reason in place of
/// the page, announced to assistive technology.
fn page_failed(error: &Error) {
    crate::log::warn(&format!("the page could not start: {error}"));
    let Ok(document) = dom::document() else {
        return;
    };
    if let Some(body) = document.body() {
        body.set_text_content(None);
        if let Ok(p) = dom::el("p") {
            let p = p
                .class("page-error")
                .attr("role", "alert")
                .text(&format!(
                    "BUA Browser Bridge could not load this page: {error}"
                ))
                .build();
            let _ = body.append_child(&p);
        }
    }
}
