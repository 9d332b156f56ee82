use super::*;
use crate::tasks::text::{has_word, is_checked, normalize, Role, Target};

const PLAYWRIGHT: &str = r#"### Snapshot
```yaml
- generic [ref=e1]:
  - main [ref=e13]:
    - generic [ref=e17]:
      - generic [ref=e18]: "Username:"
      - textbox "Username:" [active] [ref=e19]
    - 'button "Toggle theme (current theme: auto)" [ref=e8] [cursor=pointer]'
    - table [ref=e30]:
      - row "bob bob@example.org" [ref=e31]:
        - cell [ref=e32]:
          - checkbox "Select" [ref=e33]
        - cell "bob" [ref=e34]
      - row "bobby bobby@example.org" [ref=e35]:
        - cell [ref=e36]:
          - checkbox "Select" [checked] [ref=e37]
        - cell "bobby" [ref=e38]
```"#;

const DEVTOOLS: &str = r#"## Latest page snapshot
uid=1_0 RootWebArea "Log in | Django site admin" url="http://127.0.0.1:1/admin/login/"
  uid=1_7 main
    uid=1_8 form
      uid=1_9 "Username:"
      uid=1_10 textbox "Username:" focusable focused required
      uid=1_13 button "Log in"
      uid=1_14 listbox "Available groups"
        uid=1_15 option "editors"
        uid=1_16 option "publishers"
"#;

const OURS: &str = r#"url: http://127.0.0.1:1/admin/auth/user/
title: Select user to change
=== markdown ===
| Username | Email |
| --- | --- |
| [alice](e12 /admin/auth/user/2/change/) | alice@example.org |
Date joined:
=== elements ===
e3 textbox "Search"
e4 button "Search"
e9 checkbox "Select this object for an action - bob" checked
e10 checkbox "Select this object for an action - bobby"
e20 textbox ""
e21 textbox ""
e30 Home
e31 reviewers
"#;

#[test]
fn playwright_targets_are_found_by_role_name_and_row() {
    let page = parse(Tool::Playwright, PLAYWRIGHT);
    let user = page.find(&Target::new(Role::Textbox, "Username")).unwrap();
    assert_eq!(user.id, "e19");
    let theme = page
        .find(&Target::new(Role::Button, "Toggle theme"))
        .unwrap();
    assert_eq!(theme.id, "e8");
    let bob = page
        .find(&Target::new(Role::Checkbox, "Select").in_row("bob"))
        .unwrap();
    assert_eq!(bob.id, "e33");
    let bobby = page
        .find(&Target::new(Role::Checkbox, "Select").in_row("bobby"))
        .unwrap();
    assert_eq!(bobby.id, "e37");
    assert!(is_checked(bobby) && !is_checked(bob));
}

#[test]
fn devtools_targets_and_list_box_options_are_found() {
    let page = parse(Tool::DevTools, DEVTOOLS);
    assert_eq!(
        page.find(&Target::new(Role::Button, "Log in")).unwrap().id,
        "1_13"
    );
    let list = page
        .find(&Target::new(Role::Listbox, "Available groups"))
        .unwrap()
        .clone();
    assert_eq!(page.option_in(&list, "publishers").unwrap().id, "1_16");
    assert!(page.option_in(&list, "reviewers").is_none());
    assert!(page.shows("log in | django"));
}

#[test]
fn ours_elements_markdown_links_and_unnamed_fields_after_a_text() {
    let page = parse(Tool::Ours, OURS);
    for (role, name, id) in [
        (Role::Link, "alice", "e12"),
        (Role::Link, "Home", "e30"),
        (Role::Link, "reviewers", "e31"),
        (Role::Textbox, "Search", "e3"),
    ] {
        assert_eq!(
            page.find(&Target::new(role, name)).unwrap().id,
            id,
            "{name}"
        );
    }
    let bob = Target::new(Role::Checkbox, "Select this object for an action - bob");
    assert_eq!(page.find(&bob).unwrap().id, "e9");
    assert!(is_checked(page.find(&bob).unwrap()));
    // "Date joined:" follows e12 in the markdown: the unnamed fields after it are e20 and e21.
    let time = Target::new(Role::Textbox, "").after("Date joined").second();
    assert_eq!(page.find(&time).unwrap().id, "e21");
    let above = Target::new(Role::Checkbox, "").before(Role::Checkbox, "bobby");
    assert_eq!(page.find(&above).unwrap().id, "e9");
}

#[test]
fn names_compare_without_case_colons_or_curly_quotes() {
    assert_eq!(normalize("Yes, I’m sure"), normalize("yes, i'm SURE"));
    assert_eq!(normalize("Username:"), "username");
    assert!(has_word("bob bob@example.org", "bob"));
    assert!(!has_word("bobby", "bob"));
}

#[test]
fn a_tree_without_rows_places_a_checkbox_by_the_row_text_before_it() {
    let page = parse(
        Tool::DevTools,
        r#"uid=1_1 "authenticated"
uid=1_2 checkbox "WIKI_CREATE"
uid=1_3 "WIKI_CREATE"
uid=1_4 "developer"
uid=1_5 checkbox "TICKET_MODIFY"
uid=1_6 "TICKET_MODIFY"
uid=1_7 checkbox "WIKI_CREATE"
uid=1_8 "WIKI_CREATE"
"#,
    );
    let target = Target::new(Role::Checkbox, "WIKI_CREATE").in_row("developer");
    assert_eq!(page.find(&target).unwrap().id, "1_7");
    // Ours lists the same checkboxes apart from the text: their names do not say the row, their context
    // does.
    let ours = parse(
        Tool::Ours,
        "=== markdown ===\ndeveloper\n=== elements ===\ne1 checkbox \"WIKI_CREATE\"\ne2 textbox\n",
    );
    assert!(ours.find(&target).is_none());
    assert_eq!(ours.find(&Target::new(Role::Textbox, "")).unwrap().id, "e2");
    let ours = parse(
        Tool::Ours,
        "=== elements ===\ne1 checkbox \"WIKI_CREATE\" (in \"authenticated\")\n\
         e2 checkbox \"WIKI_CREATE\" (in \"developer\")\ne3 textbox \"Date\" (in \"Date joined\")\n",
    );
    assert_eq!(ours.find(&target).unwrap().id, "e2");
    assert_eq!(
        ours.find(&Target::new(Role::Textbox, "Date")).unwrap().name,
        "Date"
    );
}
