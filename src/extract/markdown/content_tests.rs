//! What is content (SPEC §5 `markdown`): tables of links that are data, a list's own search form.

use super::*;
use crate::extract::snapshot::build::{dom, e, el, empty, et, t, T};

const URL: &str = "https://admin.test/admin/";

fn md(kids: Vec<T>) -> String {
    to_markdown(&dom(URL, kids)).text
}

const STORY: &str =
    "A long paragraph of the page that is what the reader came for, with many words in it.";

fn link(href: &'static str, text: &'static str) -> T {
    e("a", &[("href", href)], vec![t(text)])
}

/// A row of Django admin's index: the model, its "Add" and "Change" links.
fn model_row(header: &'static str, model: &'static str) -> T {
    el(
        "tr",
        vec![
            e(
                header,
                &[("scope", "row")],
                vec![link("/admin/auth/user/", model)],
            ),
            el("td", vec![link("/admin/auth/user/add/", "Add")]),
            el("td", vec![link("/admin/auth/user/", "Change")]),
        ],
    )
}

#[test]
fn a_data_table_of_links_is_a_table_and_a_menu_laid_out_in_one_is_not_content() {
    let app = |header: &'static str, caption: Option<&'static str>| {
        let mut parts = Vec::new();
        if let Some(c) = caption {
            parts.push(el("caption", vec![link("/admin/auth/", c)]));
        }
        parts.push(el(
            "tbody",
            vec![model_row(header, "Groups"), model_row(header, "Users")],
        ));
        e("div", &[("class", "module")], vec![el("table", parts)])
    };
    let got = md(vec![
        el("p", vec![t(STORY)]),
        app("th", Some("Authentication and Authorization")),
    ]);
    assert_eq!(
        got,
        format!(
            "{STORY}\n\n[Authentication and Authorization](https://admin.test/admin/auth/)\n\n\
             | [Groups](https://admin.test/admin/auth/user/) | [Add](https://admin.test/admin/auth/user/add/) | [Change](https://admin.test/admin/auth/user/) |\n\
             | --- | --- | --- |\n\
             | [Users](https://admin.test/admin/auth/user/) | [Add](https://admin.test/admin/auth/user/add/) | [Change](https://admin.test/admin/auth/user/) |"
        )
    );
    // The same links in a table without header cells, caption or header rows: a menu's layout.
    assert_eq!(md(vec![el("p", vec![t(STORY)]), app("td", None)]), STORY);
}

#[test]
fn a_search_forms_result_count_stays_in_the_content_and_the_sites_search_box_does_not() {
    let search = |count: &'static str| {
        e(
            "form",
            &[("role", "search")],
            vec![el(
                "div",
                vec![
                    empty("input", &[("type", "text"), ("name", "q")]),
                    e(
                        "span",
                        &[("class", "small quiet")],
                        vec![t(count), link("/admin/auth/user/?", "7 total"), t(")")],
                    ),
                ],
            )],
        )
    };
    let got = md(vec![
        e("div", &[("id", "header")], vec![search("Site search (")]),
        el(
            "main",
            vec![
                et("h1", "Select user to change"),
                search("2 results ("),
                el("p", vec![t(STORY)]),
            ],
        ),
    ]);
    assert_eq!(
        got,
        format!(
            "# Select user to change\n\n2 results ([7 total](https://admin.test/admin/auth/user/?))\n\n{STORY}"
        )
    );
}
