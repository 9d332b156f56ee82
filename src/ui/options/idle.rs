//! The idle timeout section of the options page.

use super::state::{input, render_settings, show_result, OPTIONS};
use crate::api::{Settings, SettingsPatch, UiCommand};
use crate::ui::data::call;
use crate::ui::dom::set_attr;
use crate::ui::format;

pub(super) async fn save_idle() {
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
