//! The unattended-runs section of the options page (SPEC §10): the allowlist (sites separated by commas or spaces;
//! empty: any site) and the switches that refuse `evaluate` and `upload`, saved together.

use super::state::{input, render_settings, show_result, OPTIONS};
use crate::api::{Settings, SettingsPatch, UiCommand};
use crate::ui::data::call;

/// The allowlist as typed: entries split at line breaks, commas and spaces.
pub(super) fn typed_entries(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|e| !e.is_empty())
        .map(str::to_owned)
        .collect()
}

pub(super) async fn save_unattended() {
    let (Ok(list), Ok(no_eval), Ok(no_upload)) = (
        input("allow-input"),
        input("no-evaluate"),
        input("no-upload"),
    ) else {
        return;
    };
    let patch = SettingsPatch {
        allowlist: Some(typed_entries(&list.value())),
        no_evaluate: Some(no_eval.checked()),
        no_upload: Some(no_upload.checked()),
        ..Default::default()
    };
    match call::<Settings>(&UiCommand::SetSettings(patch)).await {
        Ok(s) => {
            let said = match s.allowlist.is_empty() {
                true => "Saved: agents may open any site not blocked.".to_owned(),
                false => format!("Saved: agents may open only {}.", s.allowlist.join(", ")),
            };
            OPTIONS.with(|o| {
                let mut o = o.borrow_mut();
                o.settings = Some(s);
                o.unattended_dirty = false;
            });
            render_settings();
            show_result("unattended-result", &said, "ok");
        }
        Err(e) => show_result("unattended-result", &e.to_string(), "error"),
    }
}

#[cfg(test)]
mod tests {
    use crate::ui::options::unattended::typed_entries;

    #[test]
    fn typed_entries_split_at_lines_commas_and_spaces() {
        assert_eq!(
            typed_entries(" shop.test,\nmail.test  docs.test\n\n"),
            vec!["shop.test", "mail.test", "docs.test"]
        );
        assert!(typed_entries(" \n ").is_empty());
    }
}
