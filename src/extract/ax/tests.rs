use super::*;
use crate::extract::snapshot::build::{backend_ids, dom, e, el, empty, et, t, T};
use crate::extract::snapshot::{Dom, Rect};
use bua_protocol::Checked;
use serde_json::json;

/// The elements of `d` in an 800 × 600 px viewport.
pub(super) fn elements(d: &Dom) -> Vec<AxElement> {
    dom_elements(d, d.viewport_rect(800.0, 600.0))
}

fn node(id: &str, role: &str, name: &str, backend: i64, kids: &[&str]) -> serde_json::Value {
    json!({
        "nodeId": id, "ignored": false, "role": {"type": "role", "value": role},
        "name": {"type": "computedString", "value": name}, "childIds": kids, "backendDOMNodeId": backend,
    })
}

fn with(mut n: serde_json::Value, key: &str, v: serde_json::Value) -> serde_json::Value {
    n[key] = v;
    n
}

fn names(list: &[AxElement]) -> Vec<String> {
    list.iter()
        .map(|e| e.name.clone().unwrap_or_default())
        .collect()
}

#[test]
fn interactive_nodes_in_document_order_without_structure_or_native_options() {
    let mut d = dom(
        "https://a.test/",
        vec![
            e("a", &[("href", "/")], vec![t("Home")]),
            e("button", &[("aria-hidden", "true")], vec![t("Hidden")]),
            e("h2", &[("tabindex", "-1")], vec![t("Skip target")]),
            empty("div", &[("tabindex", "0")]),
            e(
                "select",
                &[("aria-label", "Country")],
                vec![et("option", "France")],
            ),
            empty("input", &[("aria-label", "  Email\n address ")]),
            t("text"),
            e(
                "div",
                &[("role", "option")],
                vec![t("Custom listbox option")],
            ),
        ],
    );
    let email = dom_backend(&d, "input");
    d.input_values.insert(email, "a@b.c".into());
    let all = elements(&d);
    assert_eq!(
        names(&all),
        vec![
            "Home",
            "",
            "Country",
            "Email address",
            "Custom listbox option"
        ]
    );
    assert_eq!(
        all.iter().map(|e| e.role.as_str()).collect::<Vec<_>>(),
        vec!["link", "generic", "combobox", "textbox", "option"]
    );
    assert_eq!(all[3].value.as_deref(), Some("a@b.c"));
    assert_eq!(all[3].backend_node_id, email);
}

/// `body > [button "Before", iframe → (body > button "Inside"), button "After"]`: a same-origin
/// frame's document in the snapshot, as Chrome gives it.
fn snapshot_with_a_frame() -> serde_json::Value {
    let strings = [
        "#document",
        "HTML",
        "BODY",
        "BUTTON",
        "IFRAME",
        "#text",
        "Before",
        "After",
        "Inside",
        "https://a.test/",
        "https://a.test/frame.html",
    ];
    let layout = |nodes: &[i64]| {
        json!({
            "nodeIndex": nodes,
            "styles": nodes.iter().map(|_| json!([])).collect::<Vec<_>>(),
            "bounds": nodes.iter().map(|&i| json!([10, 20 * i, 100, 18])).collect::<Vec<_>>(),
        })
    };
    json!({
        "strings": strings,
        "documents": [
            {
                "documentURL": 9, "baseURL": 9,
                "nodes": {
                    "parentIndex": [-1, 0, 1, 2, 3, 2, 2, 6],
                    "nodeType": [9, 1, 1, 1, 3, 1, 1, 3],
                    "nodeName": [0, 1, 2, 3, 5, 4, 3, 5],
                    "nodeValue": [-1, -1, -1, -1, 6, -1, -1, 7],
                    "backendNodeId": [1, 2, 3, 10, 11, 20, 30, 31],
                    "contentDocumentIndex": {"index": [5], "value": [1]},
                },
                "layout": layout(&[2, 3, 4, 5, 6, 7]),
            },
            {
                "documentURL": 10, "baseURL": 10,
                "nodes": {
                    "parentIndex": [-1, 0, 1, 2, 3],
                    "nodeType": [9, 1, 1, 1, 3],
                    "nodeName": [0, 1, 2, 3, 5],
                    "nodeValue": [-1, -1, -1, -1, 8],
                    "backendNodeId": [50, 51, 52, 53, 54],
                },
                "layout": layout(&[2, 3, 4]),
            },
        ],
    })
}

#[test]
fn frame_trees_are_spliced_at_their_iframe() {
    let d = Dom::from_snapshot(&snapshot_with_a_frame()).unwrap();
    let all = elements(&d);
    assert_eq!(names(&all), vec!["Before", "Inside", "After"]);
    assert_eq!(
        all.iter().map(|e| e.backend_node_id).collect::<Vec<_>>(),
        vec![10, 53, 30]
    );
}

#[test]
fn visible_means_in_the_viewport_and_inputs_carry_their_type_and_form() {
    let d = dom(
        "https://a.test/",
        vec![el(
            "form",
            vec![
                empty(
                    "input",
                    &[("type", "PASSWORD"), ("autocomplete", "current-password")],
                ),
                e("button", &[("style", "top:5000")], vec![t("Far")]),
            ],
        )],
    );
    let all = elements(&d);
    assert_eq!(all[0].role, "textbox");
    assert_eq!(all[0].visible, Some(true));
    assert_eq!(all[0].input_type.as_deref(), Some("password"));
    assert_eq!(all[0].autocomplete.as_deref(), Some("current-password"));
    assert_eq!(all[0].form, Some(dom_backend(&d, "form")));
    assert!(all[0].rendered);
    assert_eq!(all[1].name.as_deref(), Some("Far"));
    assert_eq!(all[1].visible, Some(false));
    assert!(all[1].rendered);
}

#[test]
fn what_a_scroller_clips_away_is_not_in_the_viewport_though_its_box_is() {
    fn button(name: &'static str) -> T {
        et("button", name)
    }
    let d = dom(
        "https://a.test/",
        vec![e(
            "div",
            &[("style", "height:50;overflow:hidden")],
            vec![
                button("One"),
                button("Two"),
                button("Three"),
                button("Four"),
            ],
        )],
    );
    let all = elements(&d);
    let clip = d
        .nodes
        .iter()
        .find_map(|n| n.layout.as_ref().filter(|_| n.tag() == Some("div")))
        .map(|l| l.bounds)
        .unwrap();
    let boxes: Vec<Rect> = d
        .nodes
        .iter()
        .filter(|n| n.tag() == Some("button"))
        .filter_map(|n| n.layout.as_ref().map(|l| l.bounds))
        .collect();
    // The test DOM stacks boxes 20 px apart: the first two buttons start inside the 50 px box.
    let want: Vec<Option<bool>> = boxes.iter().map(|b| Some(b.intersects(&clip))).collect();
    assert_eq!(
        want.iter().filter(|v| **v == Some(true)).count(),
        2,
        "{boxes:?} {clip:?}"
    );
    assert_eq!(all.iter().map(|e| e.visible).collect::<Vec<_>>(), want);
    // Every box is inside the 800×600 viewport, and the clipped ones are still reachable (a scroll).
    assert!(all.iter().all(|e| !e.hidden));
}

fn dom_backend(d: &Dom, tag: &str) -> i64 {
    d.nodes
        .iter()
        .find(|n| n.tag() == Some(tag))
        .map(|n| n.backend_node_id)
        .unwrap()
}

#[test]
fn over_the_cap_visible_elements_come_first_and_order_is_kept() {
    let all: Vec<AxElement> = (0..5000)
        .map(|i| AxElement {
            role: "button".into(),
            name: Some(format!("b{i}")),
            visible: Some(i < 3 || (4000..4010).contains(&i)),
            backend_node_id: i,
            ..AxElement::default()
        })
        .collect();
    let list = select(&all, MAX_ELEMENTS);
    assert_eq!(list.total, 5000);
    assert!(list.truncated);
    assert_eq!(list.elements.len(), 200);
    let ids: Vec<i64> = list.elements.iter().map(|e| e.backend_node_id).collect();
    assert_eq!(&ids[..3], &[0, 1, 2]);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "document order");
    assert!(
        (4000..4010).all(|i| ids.contains(&i)),
        "every visible one is kept"
    );
    assert_eq!(ids[3], 3, "then the earliest others");
    let few = select(&all[..10], MAX_ELEMENTS);
    assert_eq!(
        (few.total, few.truncated, few.elements.len()),
        (10, false, 10)
    );
}

#[test]
fn big_pages_read_their_elements_from_the_dom() {
    let d = dom(
        "https://a.test/",
        vec![
            e(
                "a",
                &[("href", "/x")],
                vec![t("Home "), empty("img", &[("alt", "icon")])],
            ),
            et("a", "No href"),
            e("label", &[("for", "q")], vec![t("Query")]),
            empty("input", &[("id", "q"), ("type", "search")]),
            el(
                "label",
                vec![t("Email"), empty("input", &[("type", "email")])],
            ),
            empty(
                "input",
                &[("type", "password"), ("placeholder", "Password")],
            ),
            empty("input", &[("type", "submit")]),
            empty("input", &[("type", "hidden")]),
            e(
                "div",
                &[("role", "button"), ("aria-label", "Close dialog")],
                vec![t("x")],
            ),
            e("span", &[("id", "lbl")], vec![t("Named by id")]),
            empty("div", &[("tabindex", "0"), ("aria-labelledby", "lbl")]),
            empty(
                "div",
                &[("contenteditable", "true"), ("aria-label", "Editor")],
            ),
            e(
                "div",
                &[("aria-hidden", "true")],
                vec![et("button", "Hidden")],
            ),
            e("button", &[("style", "display:none")], vec![t("Gone")]),
            el("select", vec![et("option", "One")]),
            e("button", &[("style", "top:5000")], vec![t("Far")]),
        ],
    );
    let got = elements(&d);
    let pairs: Vec<(&str, Option<&str>)> = got
        .iter()
        .map(|e| (e.role.as_str(), e.name.as_deref()))
        .collect();
    assert_eq!(
        pairs,
        vec![
            ("link", Some("Home icon")),
            ("searchbox", Some("Query")),
            ("textbox", Some("Email")),
            ("textbox", Some("Password")),
            ("button", Some("Submit")),
            ("button", Some("Close dialog")),
            ("generic", Some("Named by id")),
            ("textbox", Some("Editor")),
            ("combobox", None),
            ("button", Some("Far")),
        ]
    );
    assert_eq!(got[3].input_type.as_deref(), Some("password"));
    assert_eq!(got[0].visible, Some(true));
    assert_eq!(got[9].visible, Some(false));
    assert_eq!(got[8].value, None, "no option is selected");
}

#[test]
fn disabled_controls_and_those_of_a_disabled_fieldset_are_flagged() {
    let d = dom(
        "https://x.test/",
        vec![
            e("button", &[("disabled", "")], vec![t("Off")]),
            et("button", "On"),
            e(
                "fieldset",
                &[("disabled", "")],
                vec![empty("input", &[("aria-label", "Inside")])],
            ),
            e(
                "div",
                &[("role", "button"), ("aria-disabled", "true")],
                vec![t("Aria off")],
            ),
            e("a", &[("href", "/x"), ("disabled", "")], vec![t("A link")]),
        ],
    );
    let got = elements(&d);
    let flags: Vec<(&str, bool)> = got
        .iter()
        .map(|e| (e.name.as_deref().unwrap_or(""), e.disabled))
        .collect();
    assert_eq!(
        flags,
        [
            ("Off", true),
            ("On", false),
            ("Inside", true),
            ("Aria off", true),
            // `disabled` means nothing on a link.
            ("A link", false),
        ]
    );
}

#[test]
fn menu_buttons_disclosures_and_toggles_carry_their_expanded_and_pressed_states() {
    let d = dom(
        "https://x.test/",
        vec![
            e("button", &[("aria-expanded", "false")], vec![t("Account")]),
            e("button", &[("aria-expanded", "TRUE")], vec![t("Sort")]),
            e(
                "details",
                &[("open", "")],
                vec![e("summary", &[], vec![t("Open filters")])],
            ),
            e(
                "details",
                &[],
                vec![e("summary", &[], vec![t("Shut filters")])],
            ),
            e("button", &[("aria-pressed", "true")], vec![t("Bold")]),
            e("button", &[("aria-pressed", "false")], vec![t("Italic")]),
            e("button", &[], vec![t("Plain")]),
        ],
    );
    let got = elements(&d);
    let states: Vec<(&str, Option<bool>, bool)> = got
        .iter()
        .map(|e| (e.name.as_deref().unwrap_or(""), e.expanded, e.pressed))
        .collect();
    assert_eq!(
        states,
        [
            ("Account", Some(false), false),
            ("Sort", Some(true), false),
            ("Open filters", Some(true), false),
            ("Shut filters", Some(false), false),
            ("Bold", None, true),
            ("Italic", None, false),
            ("Plain", None, false),
        ]
    );
}

#[test]
fn a_select_has_the_text_of_its_selected_options_as_value() {
    let option = |text: &'static str| et("option", text);
    let mut d = dom(
        "https://x.test/",
        vec![
            el("select", vec![option("France"), option("  Germany ")]),
            e(
                "select",
                &[("multiple", "")],
                vec![el("optgroup", vec![option("S"), option("M"), option("L")])],
            ),
        ],
    );
    let options = backend_ids(&d, "option");
    // As `DOMSnapshot` reports the live selection (`optionSelected`).
    d.selected_options
        .extend([options[1], options[2], options[4]]);
    let got = elements(&d);
    let values: Vec<(&str, Option<&str>)> = got
        .iter()
        .map(|e| (e.role.as_str(), e.value.as_deref()))
        .collect();
    assert_eq!(
        values,
        [("combobox", Some("Germany")), ("listbox", Some("S, L"))]
    );
}

#[test]
fn checkbox_like_roles_carry_their_checked_state_from_the_ax_tree() {
    // A leaf (backend id = node id) whose `checked` property is the AX value `{type: kind, value}`.
    let checked = |id: &str, role: &str, name: &str, kind: &str, value: serde_json::Value| {
        let backend = id.parse().unwrap_or_default();
        let property = json!([{"name": "checked", "value": {"type": kind, "value": value}}]);
        with(node(id, role, name, backend, &[]), "properties", property)
    };
    let nodes = json!([
        node(
            "1",
            "RootWebArea",
            "",
            1,
            &["2", "3", "4", "5", "6", "7", "8", "9"]
        ),
        checked("2", "checkbox", "On", "tristate", json!("true")),
        checked("3", "checkbox", "Off", "tristate", json!("false")),
        checked("4", "checkbox", "Some", "tristate", json!("mixed")),
        checked("5", "switch", "Wifi", "booleanOrUndefined", json!(true)),
        node("6", "radio", "No property", 6, &[]),
        checked("7", "menuitemradio", "Small", "tristate", json!("true")),
        checked("8", "button", "Pressed", "tristate", json!("true")),
        node("9", "link", "Home", 9, &[]),
    ]);
    // Each node as the one node of an `Accessibility.getPartialAXTree` answer, as `extract` reads it.
    let got: Vec<Option<Checked>> = nodes.as_array().unwrap()[1..]
        .iter()
        .map(|n| {
            AxTree::from_response_json(&json!({ "nodes": [n] }).to_string())
                .unwrap()
                .first_checked()
        })
        .collect();
    assert_eq!(
        got,
        vec![
            Some(Checked::True),
            Some(Checked::False),
            Some(Checked::Mixed),
            Some(Checked::True),
            Some(Checked::False),
            Some(Checked::True),
            None,
            None,
        ]
    );
}

#[test]
fn big_pages_read_checked_from_the_live_input_state_and_aria_checked() {
    let mut d = dom(
        "https://a.test/",
        vec![
            empty("input", &[("type", "checkbox"), ("id", "on")]),
            empty("input", &[("type", "checkbox"), ("checked", "")]),
            empty("input", &[("type", "RADIO"), ("id", "r")]),
            empty(
                "input",
                &[("type", "checkbox"), ("role", "switch"), ("id", "sw")],
            ),
            e(
                "div",
                &[("role", "checkbox"), ("aria-checked", "mixed")],
                vec![t("Tri")],
            ),
            e("div", &[("role", "menuitemcheckbox")], vec![t("Bare")]),
            e(
                "div",
                &[("role", "switch"), ("aria-checked", "TRUE")],
                vec![t("Aria on")],
            ),
            empty("input", &[("type", "text"), ("checked", "")]),
            e("button", &[("aria-checked", "true")], vec![t("Go")]),
        ],
    );
    let backend_of_id = |d: &Dom, id: &str| {
        d.nodes
            .iter()
            .find(|n| n.attr("id") == Some(id))
            .map(|n| n.backend_node_id)
            .unwrap()
    };
    // The live state decides, not the `checked` attribute (the page may have toggled it since).
    for id in ["on", "r", "sw"] {
        let b = backend_of_id(&d, id);
        d.checked_inputs.insert(b);
    }
    let all = elements(&d);
    let got: Vec<(&str, Option<Checked>)> =
        all.iter().map(|e| (e.role.as_str(), e.checked)).collect();
    assert_eq!(
        got,
        vec![
            ("checkbox", Some(Checked::True)),
            ("checkbox", Some(Checked::False)),
            ("radio", Some(Checked::True)),
            ("switch", Some(Checked::True)),
            ("checkbox", Some(Checked::Mixed)),
            ("menuitemcheckbox", Some(Checked::False)),
            ("switch", Some(Checked::True)),
            ("textbox", None),
            ("button", None),
        ]
    );
}

#[test]
fn text_a_person_cannot_see_is_no_part_of_a_name() {
    let d = dom(
        "https://x.test/",
        vec![
            e(
                "button",
                &[],
                vec![
                    t("Buy now"),
                    e("span", &[("style", "opacity:0")], vec![t(" and obey")]),
                ],
            ),
            e(
                "a",
                &[("href", "/more")],
                vec![
                    t("Read more"),
                    e("span", &[("style", "font-size:1px")], vec![t(" tiny")]),
                ],
            ),
        ],
    );
    assert_eq!(names(&elements(&d)), ["Buy now", "Read more"]);
}
