use super::*;
use bua_protocol::{Checked, Truncated};

fn el(uid: &str, role: &str, name: &str) -> ExtractElement {
    ExtractElement {
        uid: uid.into(),
        role: role.into(),
        name: Some(name.into()),
        value: None,
        visible: Some(true),
        checked: None,
        in_markdown: false,
        disabled: false,
        hidden: false,
        same_as: None,
        ..Default::default()
    }
}

fn view(markdown: &str, elements: Vec<ExtractElement>) -> ExtractResult {
    ExtractResult {
        url: "http://a.test/".into(),
        title: "A".into(),
        text: None,
        markdown: Some(markdown.into()),
        total_elements: elements.len() as u32,
        page: None,
        pages: None,
        elements: Some(elements),
        obstacle: None,
        truncated: Truncated::default(),
        dialog: None,
        dialogs: Vec::new(),
    }
}

fn page(extra_lines: usize) -> String {
    (0..extra_lines)
        .map(|i| {
            format!("Paragraph {i} of a long page that says a lot about nothing in particular.")
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[test]
fn nothing_changed_is_an_empty_change() {
    let a = view("# Title\n\nHello", vec![el("e0", "button", "Save")]);
    let d = diff(&a, &a.clone()).unwrap();
    assert!(d.is_empty());
    assert_eq!(serde_json::to_string(&d).unwrap(), "{}");
}

#[test]
fn a_validation_message_and_a_new_button_are_named() {
    let body = page(20);
    let a = view(
        &body,
        vec![el("e0", "textbox", "Email"), el("e1", "button", "Send")],
    );
    let b = view(
        &format!("{body}\n\nPlease enter a valid email address."),
        vec![
            el("e0", "textbox", "Email"),
            el("e1", "button", "Send"),
            el("e7", "button", "Dismiss"),
        ],
    );
    let d = diff(&a, &b).unwrap();
    assert_eq!(d.text_added, vec!["Please enter a valid email address."]);
    assert!(d.text_removed.is_empty());
    assert_eq!(d.added.len(), 1);
    assert_eq!(d.added[0].uid, "e7");
    assert!(d.changed.is_empty() && d.removed.is_empty());
}

#[test]
fn state_changes_and_removals_by_uid() {
    let mut box_ = el("e2", "checkbox", "Remember me");
    box_.checked = Some(Checked::False);
    let a = view("x", vec![box_.clone(), el("e3", "link", "Old")]);
    let mut ticked = box_.clone();
    ticked.checked = Some(Checked::True);
    ticked.visible = None; // scrolled away: no change
    let b = view("x", vec![ticked]);
    let d = diff(&a, &b).unwrap();
    assert_eq!(d.changed.len(), 1);
    assert_eq!(d.changed[0].checked, Some(Checked::True));
    assert_eq!(d.removed, vec!["e3"]);
    // A menu button that opened, a toggle pressed.
    let mut menu = el("e5", "button", "Account");
    menu.expanded = Some(false);
    let bold = el("e6", "button", "Bold");
    let a = view("x", vec![menu.clone(), bold.clone()]);
    menu.expanded = Some(true);
    let b = view(
        "x",
        vec![
            menu,
            ExtractElement {
                pressed: true,
                ..bold
            },
        ],
    );
    let d = diff(&a, &b).unwrap();
    let states: Vec<_> = d
        .changed
        .iter()
        .map(|e| (e.uid.as_str(), e.expanded, e.pressed))
        .collect();
    assert_eq!(states, [("e5", Some(true), false), ("e6", None, true)]);
}

#[test]
fn hidden_now_is_removed_and_shown_now_is_added() {
    let mut menu = el("e4", "menuitem", "Delete");
    menu.hidden = true;
    let a = view("x", vec![menu.clone()]);
    let mut open = menu.clone();
    open.hidden = false;
    let b = view("x", vec![open]);
    assert_eq!(diff(&a, &b).unwrap().added[0].uid, "e4");
    assert_eq!(diff(&b, &a).unwrap().removed, vec!["e4"]);
}

#[test]
fn lines_count_as_a_multiset() {
    let (added, removed) = line_diff("a\n\nb\n\na", "b\n\na\n\nc\n\na\n\na");
    assert_eq!(added, vec!["c", "a"]);
    assert!(removed.is_empty());
    let (added, removed) = line_diff("2 results (7 total)\n\nrow", "row\n\n1 result (7 total)");
    assert_eq!(added, vec!["1 result (7 total)"]);
    assert_eq!(removed, vec!["2 results (7 total)"]);
}

#[test]
fn a_new_page_is_not_worth_a_diff() {
    let a = view(&page(30), vec![el("e0", "link", "One")]);
    let other: String = (0..30)
        .map(|i| format!("Another text {i} entirely, about other things than the first page."))
        .collect::<Vec<_>>()
        .join("\n\n");
    let b = view(&other, vec![el("e9", "link", "Two")]);
    assert_eq!(diff(&a, &b), None);
}

#[test]
fn a_route_change_says_url_and_title() {
    let a = view("x", vec![]);
    let mut b = view("x", vec![]);
    b.url = "http://a.test/#/users".into();
    b.title = "Users".into();
    let d = diff(&a, &b).unwrap();
    assert_eq!(d.url.as_deref(), Some("http://a.test/#/users"));
    assert_eq!(d.title.as_deref(), Some("Users"));
}

#[test]
fn a_list_box_a_filter_narrowed_is_changed() {
    let mut list = el("e5", "listbox", "Available permissions");
    list.options = vec!["add_user".into(), "change_user".into(), "add_group".into()];
    list.option_count = Some(3);
    let a = view("x", vec![list.clone()]);
    let mut narrowed = list;
    narrowed.options.truncate(2);
    narrowed.option_count = Some(2);
    let d = diff(&a, &view("x", vec![narrowed])).unwrap();
    assert_eq!(d.changed.len(), 1);
    assert_eq!(d.changed[0].option_count, Some(2));
}
