//! What an action changed, as text for a model (SPEC §9): the `changes` and `view` outcomes of an action's
//! result (SPEC §4) written the way the agent text of `extract` writes a page ([`super`]).
//!
//! ```text
//! changes: 1 added, 1 changed, 1 removed; text: 1 line added, 1 removed
//! + e45 button "Delete"
//! ~ e7 checkbox "Remember me" checked
//! - e12
//! === text added ===
//! Please enter a valid email address.
//! === text removed ===
//! 2 results (7 total)
//! ```
//!
//! `changes: none` says the action changed nothing the agent sees. A `view` (after a navigation, or a change
//! too big for a diff) is the new page's agent text under `=== page ===`.

use super::{element_line, extract_text};
use crate::changes::Changes;
use crate::result::ExtractResult;
use serde_json::Value;

/// Splits the `changes` / `view` outcomes off an action's result JSON and returns their text (`None` when
/// the result has neither, or they are not of the documented shape: they then stay in the JSON).
pub fn take_view_text(result: &mut Value) -> Option<String> {
    let map = result.as_object_mut()?;
    if let Some(view) = map.get("view") {
        let view: ExtractResult = serde_json::from_value(view.clone()).ok()?;
        map.remove("view");
        map.remove("changes");
        return Some(format!("=== page ===\n{}", extract_text(&view)));
    }
    let changes: Changes = serde_json::from_value(map.get("changes")?.clone()).ok()?;
    map.remove("changes");
    Some(changes_text(&changes))
}

/// The agent text of a [`Changes`] (module doc for the layout).
pub fn changes_text(c: &Changes) -> String {
    if c.is_empty() {
        return "changes: none (the page looks the same)".to_owned();
    }
    let mut counts = Vec::new();
    for (n, what) in [
        (c.added.len(), "added"),
        (c.changed.len(), "changed"),
        (c.removed.len(), "removed"),
    ] {
        if n > 0 {
            counts.push(format!("{n} {what}"));
        }
    }
    let mut head = format!("changes: {}", counts.join(", "));
    if counts.is_empty() {
        head = "changes:".to_owned();
    }
    let text: Vec<String> = [
        (c.text_added.len(), "added"),
        (c.text_removed.len(), "removed"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} line{} {what}", if n == 1 { "" } else { "s" }))
    .collect();
    if !text.is_empty() {
        head.push_str(if counts.is_empty() {
            " text: "
        } else {
            "; text: "
        });
        head.push_str(&text.join(", "));
    }
    let mut out = head;
    if let Some(url) = &c.url {
        out.push_str(&format!("\nurl: {url}"));
    }
    if let Some(title) = &c.title {
        out.push_str(&format!("\ntitle: {title}"));
    }
    for e in &c.added {
        out.push_str(&format!("\n+ {}", element_line(e)));
    }
    for e in &c.changed {
        out.push_str(&format!("\n~ {}", element_line(e)));
    }
    if !c.removed.is_empty() {
        out.push_str(&format!("\n- {}", c.removed.join(" ")));
    }
    for (lines, what) in [(&c.text_added, "added"), (&c.text_removed, "removed")] {
        if !lines.is_empty() {
            out.push_str(&format!("\n=== text {what} ==="));
            for l in lines {
                out.push('\n');
                out.push_str(l);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{Checked, ExtractElement};
    use serde_json::json;

    fn el(uid: &str, role: &str, name: &str) -> ExtractElement {
        serde_json::from_value(json!({"uid": uid, "role": role, "name": name})).unwrap()
    }

    #[test]
    fn a_change_reads_as_lines() {
        let mut ticked = el("e7", "checkbox", "Remember me");
        ticked.checked = Some(Checked::True);
        let c = Changes {
            added: vec![el("e45", "button", "Delete")],
            changed: vec![ticked],
            removed: vec!["e12".into(), "e13".into()],
            text_added: vec!["Please enter a valid email address.".into()],
            text_removed: vec!["2 results (7 total)".into()],
            ..Changes::default()
        };
        assert_eq!(
            changes_text(&c),
            "changes: 1 added, 1 changed, 2 removed; text: 1 line added, 1 line removed\n\
             + e45 button \"Delete\"\n~ e7 checkbox \"Remember me\" checked\n- e12 e13\n\
             === text added ===\nPlease enter a valid email address.\n\
             === text removed ===\n2 results (7 total)"
        );
    }

    #[test]
    fn no_change_says_so() {
        let mut r = json!({"clicked": {"tag": "button"}, "changes": {}});
        assert_eq!(
            take_view_text(&mut r).unwrap(),
            "changes: none (the page looks the same)"
        );
        assert_eq!(r, json!({"clicked": {"tag": "button"}}));
    }

    #[test]
    fn a_view_is_the_page_text_and_a_result_without_either_is_left_alone() {
        let mut r = json!({"url": "http://a.test/", "view": {
            "url": "http://a.test/", "title": "A", "markdown": "# Hi",
            "elements": [{"uid": "e0", "role": "button", "name": "Go"}],
            "truncated": {"text": false, "markdown": false, "elements": false},
            "totalElements": 1}});
        let text = take_view_text(&mut r).unwrap();
        assert!(
            text.starts_with("=== page ===\nurl: http://a.test/\ntitle: A\n"),
            "{text}"
        );
        assert!(
            text.contains("# Hi") && text.contains("e0 button \"Go\""),
            "{text}"
        );
        assert_eq!(r, json!({"url": "http://a.test/"}));
        let mut plain = json!({"tabId": 1});
        assert_eq!(take_view_text(&mut plain), None);
    }
}
