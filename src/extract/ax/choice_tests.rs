//! What an agent needs to choose (SPEC §5): options, names by accname's order, names from the text beside
//! a field, and the context of elements whose role and name repeat.

use super::tests::elements;
use super::*;
use crate::extract::snapshot::build::{dom, e, el, empty, et, t, T};
use crate::extract::snapshot::Rect;

fn named(list: &[AxElement], role: &str) -> Vec<(Option<String>, Option<String>)> {
    list.iter()
        .filter(|e| e.role == role)
        .map(|e| (e.name.clone(), e.context.clone()))
        .collect()
}

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

fn option(label: &'static str) -> T {
    et("option", label)
}

#[test]
fn a_select_lists_its_first_options_and_counts_them_all() {
    let mut countries: Vec<T> = vec![e(
        "optgroup",
        &[("label", "Europe")],
        vec![option("France"), option("Germany")],
    )];
    countries.extend((0..30).map(|_| option("Elsewhere")));
    let mut d = dom(
        "https://a.test/",
        vec![
            e("select", &[("aria-label", "Country")], countries),
            e(
                "select",
                &[("aria-label", "Groups"), ("multiple", "")],
                vec![
                    option("editors"),
                    e("option", &[("label", "publishers")], vec![t("ignored")]),
                    option("reviewers"),
                ],
            ),
            empty("input", &[("list", "fruits"), ("aria-label", "Fruit")]),
            e(
                "datalist",
                &[("id", "fruits")],
                vec![empty("option", &[("value", "Apple")])],
            ),
            empty("input", &[("aria-label", "Plain")]),
        ],
    );
    let editors = d
        .nodes
        .iter()
        .find(|n| {
            n.tag() == Some("option") && n.children.len() == 1 && {
                d.nodes[n.children[0]].text() == Some("editors")
            }
        })
        .unwrap()
        .backend_node_id;
    d.selected_options.insert(editors);
    let all = elements(&d);
    let by_name = |name: &str| {
        all.iter()
            .find(|e| e.name.as_deref() == Some(name))
            .unwrap()
    };
    let country = by_name("Country");
    assert_eq!(country.option_count, 32);
    assert_eq!(country.options.len(), options::MAX_OPTIONS);
    assert_eq!(&country.options[..3], ["France", "Germany", "Elsewhere"]);
    let groups = by_name("Groups");
    assert_eq!(groups.role, "listbox");
    assert_eq!(groups.options, ["editors", "publishers", "reviewers"]);
    assert_eq!(
        (groups.option_count, groups.value.as_deref()),
        (3, Some("editors"))
    );
    let fruit = by_name("Fruit");
    assert_eq!(
        (fruit.role.as_str(), fruit.options.as_slice()),
        ("combobox", &["Apple".to_string()][..])
    );
    assert_eq!(by_name("Plain").option_count, 0);
}

#[test]
fn an_aria_list_box_lists_the_options_it_hides_and_its_shown_options_say_they_are_selected() {
    let d = dom(
        "https://a.test/",
        vec![
            empty(
                "input",
                &[
                    ("role", "combobox"),
                    ("aria-label", "City"),
                    ("aria-controls", "cities"),
                ],
            ),
            e(
                "ul",
                &[
                    ("id", "cities"),
                    ("role", "listbox"),
                    ("style", "display:none"),
                ],
                vec![
                    e("li", &[("role", "option")], vec![t("Paris")]),
                    e(
                        "li",
                        &[("role", "option"), ("aria-selected", "true")],
                        vec![t("Lyon")],
                    ),
                ],
            ),
            e(
                "div",
                &[("role", "listbox"), ("aria-label", "Shown")],
                vec![
                    e(
                        "div",
                        &[("role", "option"), ("aria-selected", "true")],
                        vec![t("Red")],
                    ),
                    e("div", &[("role", "option")], vec![t("Blue")]),
                ],
            ),
        ],
    );
    let all = elements(&d);
    let city = &all[0];
    assert_eq!(
        (city.options.clone(), city.option_count),
        (vec!["Paris".into(), "Lyon".into()], 2)
    );
    let shown = all
        .iter()
        .find(|e| e.name.as_deref() == Some("Shown"))
        .unwrap();
    assert!(
        shown.options.is_empty(),
        "its options are elements of their own"
    );
    let options: Vec<(Option<&str>, bool)> = all
        .iter()
        .filter(|e| e.role == "option")
        .map(|e| (e.name.as_deref(), e.selected))
        .collect();
    assert_eq!(options, vec![(Some("Red"), true), (Some("Blue"), false)]);
}

#[test]
fn names_follow_accnames_order_and_a_labels_icon_names_the_field_by_its_aria_label() {
    let d = dom(
        "https://a.test/",
        vec![
            e("span", &[("id", "ext")], vec![t("Labelled by")]),
            empty(
                "input",
                &[
                    ("aria-labelledby", "ext"),
                    ("aria-label", "Label"),
                    ("title", "Title"),
                ],
            ),
            empty(
                "input",
                &[
                    ("title", "Type to filter the list"),
                    ("placeholder", "Filter"),
                ],
            ),
            // Django's SelectFilter2: the filter box's `<label>` holds only an icon with an aria-label.
            e(
                "label",
                &[("for", "id_groups_input")],
                vec![empty(
                    "span",
                    &[(
                        "aria-label",
                        "Type into this box to filter down the list of available groups.",
                    )],
                )],
            ),
            empty(
                "input",
                &[("id", "id_groups_input"), ("placeholder", "Filter")],
            ),
            el(
                "button",
                vec![
                    e("span", &[("aria-hidden", "true")], vec![t("×")]),
                    t("Close"),
                ],
            ),
            e("a", &[("href", "/share")], vec![t("\u{e001}"), t(" Share")]),
            e(
                "a",
                &[("href", "#")],
                vec![empty(
                    "span",
                    &[("class", "date-icon"), ("title", "Choose a Date")],
                )],
            ),
        ],
    );
    let names: Vec<Option<String>> = elements(&d).into_iter().map(|e| e.name).collect();
    assert_eq!(
        names,
        vec![
            s("Labelled by"),
            s("Type to filter the list"),
            s("Type into this box to filter down the list of available groups."),
            s("Close"),
            s("Share"),
            s("Choose a Date"),
        ]
    );
}

/// Django admin's split date and time widgets, as its user page has them (an orphan `<label>` beside a
/// `<p class="datetime">` with "Date:" and "Time:" before their boxes, "Today" and "Now" links after).
fn datetime_row(label: &'static str) -> T {
    e(
        "div",
        &[("class", "form-row")],
        vec![
            et("label", label),
            e(
                "p",
                &[("class", "datetime")],
                vec![
                    t("Date: "),
                    empty("input", &[("type", "text"), ("class", "vDateField")]),
                    el("span", vec![e("a", &[("href", "#")], vec![t("Today")])]),
                    empty("br", &[]),
                    t("Time: "),
                    empty("input", &[("type", "text"), ("class", "vTimeField")]),
                    el("span", vec![e("a", &[("href", "#")], vec![t("Now")])]),
                ],
            ),
        ],
    )
}

#[test]
fn a_field_without_a_name_takes_the_text_before_it_on_its_line_and_repeats_say_their_row() {
    let d = dom(
        "https://a.test/",
        vec![
            et("h2", "Important dates"),
            datetime_row("Last login:"),
            datetime_row("Date joined:"),
            el(
                "p",
                vec![t("Find: "), empty("input", &[("type", "search")])],
            ),
            // Text another control owns is not a name: a button's, a label's that names its field.
            el("p", vec![et("button", "Go"), empty("input", &[])]),
            el(
                "p",
                vec![
                    e("label", &[("for", "x")], vec![t("Mine")]),
                    empty("input", &[("id", "x")]),
                    empty("input", &[]),
                ],
            ),
        ],
    );
    let all = elements(&d);
    assert_eq!(
        named(&all, "textbox"),
        vec![
            (s("Date"), s("Last login")),
            (s("Time"), s("Last login")),
            (s("Date"), s("Date joined")),
            (s("Time"), s("Date joined")),
            (None, None),
            (s("Mine"), None),
            (None, None),
        ]
    );
    assert_eq!(named(&all, "searchbox"), vec![(s("Find"), None)]);
}

#[test]
fn a_label_drawn_after_its_field_names_it_when_no_text_comes_before_on_its_line() {
    // A "floating" label: the page's style puts it over the field; unstyled it stands right after it.
    let row = |label: &'static str| {
        el(
            "div",
            vec![empty("input", &[("type", "text")]), et("label", label)],
        )
    };
    let mut d = dom("https://a.test/", vec![row("First Name"), row("Last Name")]);
    // On the field's line, just right of it (the builder stacks every box below the one before).
    for (input, label) in [(0, "First Name"), (1, "Last Name")] {
        let field = d
            .nodes
            .iter()
            .filter(|n| n.tag() == Some("input"))
            .nth(input)
            .unwrap();
        let mut b = field.layout.as_ref().unwrap().bounds;
        b.width = 200.0;
        let text = d
            .nodes
            .iter()
            .position(|n| n.text() == Some(label))
            .unwrap();
        let field_id = d.nodes.iter().position(|n| std::ptr::eq(n, field)).unwrap();
        d.nodes[field_id].layout.as_mut().unwrap().bounds = b;
        d.nodes[text].layout.as_mut().unwrap().bounds = Rect {
            x: 205.0,
            width: 80.0,
            ..b
        };
    }
    let all = elements(&d);
    assert_eq!(
        named(&all, "textbox"),
        vec![(s("First Name"), None), (s("Last Name"), None)]
    );
}

#[test]
fn repeated_names_are_told_apart_by_row_legend_or_heading_and_unique_ones_get_no_context() {
    // Trac's permission table: one checkbox per action, named by its action, in a row per subject.
    let perm = |action: &'static str| {
        el(
            "label",
            vec![empty("input", &[("type", "checkbox")]), et("span", action)],
        )
    };
    let d = dom(
        "https://a.test/",
        vec![
            el(
                "table",
                vec![el(
                    "tbody",
                    vec![
                        el(
                            "tr",
                            vec![
                                et("td", "authenticated"),
                                el("td", vec![perm("WIKI_CREATE")]),
                            ],
                        ),
                        el(
                            "tr",
                            vec![
                                et("td", "developer"),
                                el("td", vec![perm("WIKI_CREATE"), perm("WIKI_MODIFY")]),
                            ],
                        ),
                    ],
                )],
            ),
            el(
                "fieldset",
                vec![
                    et("legend", "Shipping"),
                    empty("input", &[("placeholder", "Name")]),
                ],
            ),
            el(
                "fieldset",
                vec![
                    et("legend", "Billing"),
                    empty("input", &[("placeholder", "Name")]),
                ],
            ),
            et("h3", "Comments"),
            e("a", &[("href", "/reply/1")], vec![t("Reply")]),
            et("h3", "Trackbacks"),
            e("a", &[("href", "/reply/2")], vec![t("Reply")]),
        ],
    );
    let all = elements(&d);
    assert_eq!(
        named(&all, "checkbox"),
        vec![
            (s("WIKI_CREATE"), s("authenticated")),
            (s("WIKI_CREATE"), s("developer")),
            (s("WIKI_MODIFY"), None),
        ]
    );
    assert_eq!(
        named(&all, "textbox"),
        vec![(s("Name"), s("Shipping")), (s("Name"), s("Billing"))]
    );
    assert_eq!(
        named(&all, "link"),
        vec![(s("Reply"), s("Comments")), (s("Reply"), s("Trackbacks"))]
    );
}

#[test]
fn a_context_is_kept_only_among_the_elements_the_agent_text_lists() {
    let mut list: Vec<AxElement> = ["A", "B", "C", "D", "D"]
        .iter()
        .map(|c| AxElement {
            role: "link".into(),
            name: s("Change"),
            context: s(c),
            ..AxElement::default()
        })
        .collect();
    let mut one_listed = list.clone();
    prune_contexts(&mut one_listed, &[true, false, false, false, false]);
    assert!(one_listed.iter().all(|e| e.context.is_none()));
    prune_contexts(&mut list, &[true, false, true, true, true]);
    let got: Vec<Option<String>> = list.into_iter().map(|e| e.context).collect();
    // A context two share tells neither apart.
    assert_eq!(got, vec![s("A"), None, s("C"), None, None]);
}

#[test]
fn a_caption_every_repeat_shares_is_passed_over_for_one_that_tells_them_apart() {
    // Django's change list filters: "All", "Yes", "No" under each filter's summary.
    let filter = |title: &'static str, q: &'static str| {
        e(
            "details",
            &[("open", "")],
            vec![
                et("summary", title),
                el(
                    "ul",
                    vec![
                        el("li", vec![e("a", &[("href", "?")], vec![t("All")])]),
                        el("li", vec![e("a", &[("href", q)], vec![t("Yes")])]),
                    ],
                ),
            ],
        )
    };
    let d = dom(
        "https://a.test/",
        vec![
            filter("By staff status", "?s=1"),
            filter("By active", "?a=1"),
        ],
    );
    let yes: Vec<Option<String>> = elements(&d)
        .into_iter()
        .filter(|e| e.name.as_deref() == Some("Yes"))
        .map(|e| e.context)
        .collect();
    assert_eq!(yes, vec![s("By staff status"), s("By active")]);
}
