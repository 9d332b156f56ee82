use crate::{ok, refused_with};
use bua_protocol::*;
use serde_json::json;
use std::time::Duration;

#[test]
fn spec_click_example_parses_to_uid_locator() {
    let a = ok(json!({"type":"click","uid":"e7","tabId":12}));
    assert_eq!(
        a,
        Action::Click(Click {
            locator: Locator::Uid("e7".into()),
            tab_id: Some(12),
            new_tab: false,
            dialog: DialogPolicy::default()
        })
    );
    assert_eq!(a.name(), "click");
    assert_eq!(a.tab_id(), Some(12));
    assert_eq!(a.locator(), Some(&Locator::uid("e7")));
    assert_eq!(a.to_value(), json!({"type":"click","uid":"e7","tabId":12}));
}

#[test]
fn unknown_field_is_named_with_the_action() {
    refused_with(
        json!({"type":"click","uid":"e7","foo":1}),
        &["click: unknown field `foo`", "expected one of", "tabId"],
    );
}

#[test]
fn snake_case_field_gets_a_camel_case_hint() {
    refused_with(
        json!({"type":"navigate","url":"https://a.example","tab_id":3}),
        &["unknown field `tab_id`", "did you mean `tabId`"],
    );
}

#[test]
fn v1_target_object_is_refused_with_a_hint() {
    refused_with(
        json!({"type":"click","target":{"by":"css","value":"#a"}}),
        &["unknown field `target`", "uid, selector, text or xpath"],
    );
}

#[test]
fn click_needs_exactly_one_locator() {
    refused_with(
        json!({"type":"click"}),
        &["click: exactly one of uid/selector/text/xpath is required"],
    );
    refused_with(
        json!({"type":"click","uid":"e1","selector":"a"}),
        &["click:", "exactly one of", "got uid and selector"],
    );
    refused_with(
        json!({"type":"hover","text":"Next","xpath":"//a"}),
        &["hover:", "got text and xpath"],
    );
}

#[test]
fn index_is_not_allowed_with_uid() {
    refused_with(
        json!({"type":"click","uid":"e3","index":1}),
        &["index: not allowed with uid"],
    );
}

#[test]
fn index_needs_a_selector_text_or_xpath() {
    refused_with(
        json!({"type":"click","index":1}),
        &["index: requires selector, text or xpath"],
    );
}

#[test]
fn index_must_be_a_non_negative_integer() {
    refused_with(
        json!({"type":"click","selector":"a","index":-1}),
        &["index:", "integer"],
    );
    refused_with(
        json!({"type":"click","selector":"a","index":1.5}),
        &["index:"],
    );
    refused_with(
        json!({"type":"click","selector":"a","index":"2"}),
        &["index:", "got a string"],
    );
    assert_eq!(
        ok(json!({"type":"click","selector":"a","index":2})).locator(),
        Some(&Locator::Selector {
            selector: "a".into(),
            index: 2
        })
    );
    // 2.0 is an integer too.
    assert_eq!(
        ok(json!({"type":"click","selector":"a","index":2.0}))
            .locator()
            .map(Locator::index),
        Some(2)
    );
}

#[test]
fn locator_strings_must_not_be_empty_and_uids_must_look_like_uids() {
    refused_with(
        json!({"type":"click","selector":"  "}),
        &["selector: must not be empty"],
    );
    refused_with(
        json!({"type":"click","uid":"button"}),
        &["uid:", "e7", "extract"],
    );
    refused_with(json!({"type":"click","uid":7}), &["uid: must be a string"]);
}

#[test]
fn unknown_action_type_is_named() {
    refused_with(
        json!({"type":"fly"}),
        &["type: unknown action `fly`", "open_tab"],
    );
    refused_with(json!({"uid":"e1"}), &["type: required"]);
    refused_with(json!({"type":7}), &["type: must be a string"]);
    refused_with(json!(["click"]), &["action: expected a JSON object"]);
}

#[test]
fn wait_for_timeout_is_capped_and_defaulted() {
    refused_with(
        json!({"type":"wait_for","selector":"#x","timeoutMs":30001}),
        &["timeoutMs: must be ≤ 30000"],
    );
    refused_with(
        json!({"type":"wait_for","selector":"#x","timeoutMs":-5}),
        &["timeoutMs:"],
    );
    let a = ok(json!({"type":"wait_for","selector":"#x"}));
    let Action::WaitFor(w) = &a else {
        panic!("{a:?}")
    };
    assert_eq!(w.timeout_ms, 5000);
    assert_eq!(w.state, WaitState::Visible);
    assert_eq!(a.timeout(), Duration::from_millis(7000));
    let a = ok(json!({"type":"wait_for","textContains":"Done","state":"hidden","timeoutMs":30000}));
    assert_eq!(a.timeout(), Duration::from_secs(32));
    assert_eq!(a.locator(), None);
}

#[test]
fn wait_for_needs_a_locator_or_text_contains_but_not_both() {
    refused_with(
        json!({"type":"wait_for"}),
        &["wait_for:", "uid/selector/text/xpath/textContains"],
    );
    refused_with(
        json!({"type":"wait_for","selector":"a","textContains":"x"}),
        &["textContains: not allowed together with `selector`"],
    );
    refused_with(
        json!({"type":"wait_for","selector":"a","state":"gone"}),
        &["state: unknown state `gone`"],
    );
}

#[test]
fn find_takes_exactly_one_of_text_or_regex() {
    let a = ok(json!({"type":"find","text":"Pro","limit":5,"tabId":3}));
    assert_eq!(
        a,
        Action::Find(Find {
            pattern: FindPattern::Text("Pro".into()),
            limit: Some(5),
            tab_id: Some(3)
        })
    );
    assert_eq!(
        a.to_value(),
        json!({"type":"find","text":"Pro","limit":5,"tabId":3})
    );
    let a = ok(json!({"type":"find","regex":"a|b"}));
    assert_eq!(a.to_value(), json!({"type":"find","regex":"a|b"}));
    refused_with(
        json!({"type":"find"}),
        &["find: exactly one of text/regex is required"],
    );
    refused_with(
        json!({"type":"find","text":"a","regex":"b"}),
        &["find: text: not allowed together with `regex`"],
    );
    refused_with(json!({"type":"find","text":""}), &["find: text:"]);
    refused_with(
        json!({"type":"find","text":"a","limit":0}),
        &["find: limit:"],
    );
}

#[test]
fn urls_must_be_absolute_with_a_supported_scheme() {
    refused_with(json!({"type":"open_tab"}), &["open_tab: url: required"]);
    refused_with(
        json!({"type":"open_tab","url":"example.com"}),
        &["url:", "not an absolute URL", "https://example.com"],
    );
    refused_with(
        json!({"type":"navigate","url":"chrome://settings"}),
        &["navigate: url: scheme `chrome`"],
    );
    refused_with(
        json!({"type":"navigate","url":"javascript:alert(1)"}),
        &["url: scheme `javascript`"],
    );
    refused_with(json!({"type":"navigate","url":"http://"}), &["url:"]);
    let a = ok(json!({"type":"open_tab","url":"https://example.com/a?b=1","focus":true}));
    assert_eq!(
        a,
        Action::OpenTab(OpenTab {
            url: "https://example.com/a?b=1".into(),
            focus: true,
            load_wait_ms: None,
        })
    );
    assert_eq!(a.target_url(), Some("https://example.com/a?b=1"));
    assert_eq!(a.timeout(), Duration::from_secs(30));
    ok(json!({"type":"open_tab","url":"about:blank"}));
    ok(json!({"type":"navigate","url":"file:///tmp/x.html"}));
}

#[test]
fn tab_id_must_be_a_non_negative_integer() {
    refused_with(json!({"type":"extract","tabId":-1}), &["extract: tabId:"]);
    refused_with(
        json!({"type":"extract","tabId":"12"}),
        &["tabId:", "got a string"],
    );
    refused_with(json!({"type":"extract","tabId":1.5}), &["tabId:"]);
    refused_with(json!({"type":"extract","tabId":4294967296u64}), &["tabId:"]);
    assert_eq!(ok(json!({"type":"extract","tabId":0})).tab_id(), Some(0));
}

#[test]
fn null_reads_as_omitted_for_optional_fields() {
    let a = ok(json!({"type":"click","uid":"e1","tabId":null,"newTab":null,"selector":null}));
    assert_eq!(
        a,
        Action::Click(Click {
            locator: Locator::uid("e1"),
            tab_id: None,
            new_tab: false,
            dialog: DialogPolicy::default()
        })
    );
    refused_with(json!({"type":"open_tab","url":null}), &["url: required"]);
}

#[test]
fn activate_tab_requires_tab_id() {
    refused_with(
        json!({"type":"activate_tab"}),
        &["activate_tab: tabId: required"],
    );
    let mut a = ok(json!({"type":"activate_tab","tabId":9}));
    assert_eq!(a.tab_id(), Some(9));
    a.set_tab_id(10);
    assert_eq!(a.tab_id(), Some(10));
    assert_eq!(a.timeout(), Duration::from_secs(5));
}

#[test]
fn get_tabs_takes_no_fields() {
    assert_eq!(ok(json!({"type":"get_tabs"})), Action::GetTabs);
    refused_with(
        json!({"type":"get_tabs","tabId":1}),
        &["get_tabs: unknown field `tabId`", "takes no fields"],
    );
}

#[test]
fn set_tab_id_fills_an_omitted_tab_and_ignores_actions_without_one() {
    let mut a = ok(json!({"type":"extract"}));
    assert_eq!(a.tab_id(), None);
    assert!(a.takes_tab_id());
    a.set_tab_id(33);
    assert_eq!(a.to_value(), json!({"type":"extract","tabId":33}));
    let mut o = ok(json!({"type":"open_tab","url":"https://a.example"}));
    assert!(!o.takes_tab_id());
    o.set_tab_id(5);
    assert_eq!(o.tab_id(), None);
    assert_eq!(
        o.to_value(),
        json!({"type":"open_tab","url":"https://a.example"})
    );
}

#[test]
fn owner_of_close_agent_actions() {
    let a = ok(json!({"type":"close_agent_tabs","owner":"cli-1"}));
    assert_eq!(a.owner(), Some("cli-1"));
    assert_eq!(ok(json!({"type":"close_agent_window"})).owner(), None);
    refused_with(
        json!({"type":"close_agent_window","owner":""}),
        &["owner: must not be empty"],
    );
    assert_eq!(a.timeout(), Duration::from_secs(10));
}

#[test]
fn type_uses_text_as_the_text_to_type_and_a_nested_text_locator() {
    let a = ok(json!({"type":"type","selector":"#q","text":"hello"}));
    assert_eq!(
        a,
        Action::Type(TypeText {
            locator: Locator::selector("#q"),
            text: "hello".into(),
            secret: None,
            secret_origins: None,
            clear: true,
            submit: false,
            tab_id: None,
            dialog: DialogPolicy::default()
        })
    );
    refused_with(
        json!({"type":"type","text":"hello"}),
        &["type: exactly one of uid/selector/xpath (or locator: {text}) is required"],
    );
    refused_with(json!({"type":"type","uid":"e2"}), &["type: text: required"]);
    let nested = ok(
        json!({"type":"type","locator":{"text":"Email","index":1},"text":"a@b.c","clear":false,"submit":true}),
    );
    let Action::Type(t) = &nested else { panic!() };
    assert_eq!(
        t.locator,
        Locator::Text {
            text: "Email".into(),
            index: 1
        }
    );
    assert!(!t.clear && t.submit);
    // A text locator is written nested, so it round-trips.
    assert_eq!(
        nested.to_value(),
        json!({"type":"type","locator":{"text":"Email","index":1},"text":"a@b.c","clear":false,"submit":true})
    );
    assert_eq!(nested.timeout(), Duration::from_secs(15));
}

#[test]
fn nested_locator_follows_the_same_rules() {
    refused_with(
        json!({"type":"click","locator":{"uid":"e1","index":2}}),
        &["click: locator: index: not allowed with uid"],
    );
    refused_with(
        json!({"type":"click","locator":{}}),
        &["click: locator: exactly one of"],
    );
    refused_with(
        json!({"type":"click","locator":{"css":"a"}}),
        &["click: locator: unknown field `css`"],
    );
    refused_with(
        json!({"type":"click","uid":"e1","locator":{"uid":"e2"}}),
        &["locator: not allowed together with `uid`"],
    );
    refused_with(
        json!({"type":"click","locator":"a.b"}),
        &["click: locator: expected a JSON object"],
    );
    assert_eq!(
        ok(json!({"type":"click","locator":{"selector":"a.b"}})).to_value(),
        json!({"type":"click","selector":"a.b"})
    );
}

#[test]
fn select_option_takes_exactly_one_of_value_label_index() {
    let a = ok(json!({"type":"select_option","uid":"e4","value":"fr"}));
    let Action::SelectOption(s) = &a else {
        panic!()
    };
    assert_eq!(s.choice, OptionChoice::Value(vec!["fr".into()]));
    let a = ok(json!({"type":"select_option","selector":"select","index":[0,2]}));
    let Action::SelectOption(s) = &a else {
        panic!()
    };
    assert_eq!(s.choice, OptionChoice::Index(vec![0, 2]));
    assert_eq!(s.locator, Locator::selector("select"));
    refused_with(
        json!({"type":"select_option","uid":"e4"}),
        &["select_option: exactly one of value/label/index is required"],
    );
    refused_with(
        json!({"type":"select_option","uid":"e4","value":"a","label":"A"}),
        &["exactly one of value/label/index is allowed, got value and label"],
    );
    refused_with(
        json!({"type":"select_option","uid":"e4","label":[]}),
        &["label: must not be an empty array"],
    );
    refused_with(
        json!({"type":"select_option","uid":"e4","index":[-1]}),
        &["index:"],
    );
    refused_with(
        json!({"type":"select_option","uid":"e4","value":[1]}),
        &["value: must be a string"],
    );
    // The n-th matching <select> goes in the nested locator.
    let n = ok(
        json!({"type":"select_option","locator":{"selector":"select","index":1},"label":["A","B"]}),
    );
    assert_eq!(
        n.locator(),
        Some(&Locator::Selector {
            selector: "select".into(),
            index: 1
        })
    );
    assert_eq!(
        n.to_value(),
        json!({"type":"select_option","locator":{"selector":"select","index":1},"label":["A","B"]})
    );
}

#[test]
fn scroll_takes_an_amount_or_to_end() {
    refused_with(json!({"type":"scroll"}), &["scroll: give dx and/or dy"]);
    refused_with(
        json!({"type":"scroll","dy":10,"toEnd":true}),
        &["toEnd: not allowed together with dx/dy"],
    );
    refused_with(
        json!({"type":"scroll","dy":"down"}),
        &["dy: must be a number"],
    );
    let a = ok(json!({"type":"scroll","dy":-800,"selector":"#list"}));
    assert_eq!(
        a,
        Action::Scroll(Scroll {
            dx: None,
            dy: Some(-800.0),
            to_end: false,
            locator: Some(Locator::selector("#list")),
            tab_id: None
        })
    );
    ok(json!({"type":"scroll","toEnd":true}));
}

#[test]
fn press_key_modifiers_are_checked() {
    let a =
        ok(json!({"type":"press_key","key":"a","modifiers":["Control","shift"],"waitLoad":true}));
    let Action::PressKey(p) = &a else { panic!() };
    assert_eq!(p.modifiers, vec![Modifier::Ctrl, Modifier::Shift]);
    assert!(p.wait_load);
    assert_eq!(
        a.to_value(),
        json!({"type":"press_key","key":"a","modifiers":["ctrl","shift"],"waitLoad":true})
    );
    refused_with(
        json!({"type":"press_key","key":"a","modifiers":["hyper"]}),
        &["modifiers: unknown modifier `hyper`"],
    );
    refused_with(
        json!({"type":"press_key","key":"a","modifiers":["ctrl","control"]}),
        &["modifiers: `ctrl` given twice"],
    );
    refused_with(
        json!({"type":"press_key","key":"a","modifiers":"ctrl"}),
        &["modifiers: must be an array"],
    );
    refused_with(
        json!({"type":"press_key","key":""}),
        &["press_key: key: must not be empty"],
    );
    assert_eq!(Modifier::Ctrl.cdp_bit() | Modifier::Shift.cdp_bit(), 10);
}

#[test]
fn screenshot_quality_only_with_jpeg() {
    refused_with(
        json!({"type":"screenshot","quality":80}),
        &["quality: only with format"],
    );
    refused_with(
        json!({"type":"screenshot","format":"jpeg","quality":101}),
        &["quality: must be ≤ 100"],
    );
    refused_with(
        json!({"type":"screenshot","format":"gif"}),
        &["format: unknown format `gif`"],
    );
    refused_with(json!({"type":"screenshot","maxWidth":0}), &["maxWidth:"]);
    let a = ok(
        json!({"type":"screenshot","format":"jpeg","quality":70,"fullPage":true,"maxWidth":800}),
    );
    assert_eq!(
        a,
        Action::Screenshot(Screenshot {
            tab_id: None,
            full_page: true,
            format: ImageFormat::Jpeg,
            quality: Some(70),
            max_width: Some(800),
            locator: None,
        })
    );
    assert_eq!(a.timeout(), Duration::from_secs(15));
}

#[test]
fn scrape_fields_limit_and_timeout() {
    let a = ok(
        json!({"type":"scrape","item":"div.g","fields":{"title":"h3","url":"a@href"},"limit":10,"timeoutMs":8000}),
    );
    assert_eq!(a.timeout(), Duration::from_secs(10));
    assert_eq!(
        ok(json!({"type":"scrape","item":"li"})).timeout(),
        Duration::from_secs(7)
    );
    refused_with(json!({"type":"scrape"}), &["scrape: item: required"]);
    refused_with(
        json!({"type":"scrape","item":"li","fields":{}}),
        &["fields: must name at least one field"],
    );
    refused_with(
        json!({"type":"scrape","item":"li","fields":{"t":3}}),
        &["fields.t: must be a string"],
    );
    refused_with(json!({"type":"scrape","item":"li","limit":0}), &["limit:"]);
    refused_with(
        json!({"type":"scrape","item":"li","timeoutMs":60000}),
        &["timeoutMs: must be ≤ 30000"],
    );
    assert_eq!(split_field_spec("a@href"), ("a", Some("href")));
    assert_eq!(split_field_spec("h3"), ("h3", None));
    assert_eq!(split_field_spec("@data-id"), ("", Some("data-id")));
    assert_eq!(
        split_field_spec("a[title=\"x@y\"]"),
        ("a[title=\"x@y\"]", None)
    );
}

#[test]
fn check_and_type_defaults() {
    let Action::Check(c) = ok(json!({"type":"check","text":"I agree"})) else {
        panic!()
    };
    assert!(c.checked);
    assert_eq!(c.locator, Locator::text("I agree"));
    let Action::Check(c) = ok(json!({"type":"check","xpath":"//input","index":1,"checked":false}))
    else {
        panic!()
    };
    assert!(!c.checked);
    refused_with(
        json!({"type":"check","uid":"e1","checked":"yes"}),
        &["checked: must be true or false"],
    );
}

#[test]
fn click_at_coordinates_are_finite_and_non_negative() {
    let a = ok(json!({"type":"click_at","x":120,"y":340.5}));
    assert_eq!(
        a,
        Action::ClickAt(ClickAt {
            x: 120.0,
            y: 340.5,
            tab_id: None,
            dialog: DialogPolicy::default()
        })
    );
    refused_with(json!({"type":"click_at","x":-1,"y":2}), &["click_at: x:"]);
    refused_with(json!({"type":"click_at","x":1}), &["y: required"]);
}

#[test]
fn evaluate_needs_an_expression() {
    refused_with(
        json!({"type":"evaluate"}),
        &["evaluate: expression: required"],
    );
    let a = ok(json!({"type":"evaluate","expression":"return document.title","tabId":3}));
    assert_eq!(a.timeout(), Duration::from_secs(12));
}

#[test]
fn timeouts_follow_the_spec_table() {
    let cases = [
        (json!({"type":"navigate","url":"https://a.example"}), 30),
        (json!({"type":"go_back"}), 30),
        (json!({"type":"reload"}), 30),
        (json!({"type":"get_tabs"}), 5),
        (json!({"type":"close_tab"}), 10),
        (json!({"type":"click","uid":"e1"}), 10),
        (json!({"type":"click_at","x":1,"y":1}), 10),
        (json!({"type":"hover","uid":"e1"}), 10),
        (json!({"type":"press_key","key":"Enter"}), 15),
        (json!({"type":"scroll","dy":1}), 10),
        (json!({"type":"select_option","uid":"e1","value":"a"}), 10),
        (json!({"type":"check","uid":"e1"}), 10),
        (
            json!({"type":"fill","fields":[{"uid":"e1","value":"a"}]}),
            30,
        ),
        (json!({"type":"set_value","uid":"e1","value":"a"}), 10),
        (json!({"type":"get_value","selector":"#username"}), 10),
        (json!({"type":"extract"}), 20),
        (json!({"type":"screenshot"}), 15),
    ];
    for (v, secs) in cases {
        assert_eq!(ok(v.clone()).timeout(), Duration::from_secs(secs), "{v}");
    }
}

#[test]
fn action_names_cover_the_spec_table_in_order() {
    let names = action_names();
    assert_eq!(names.len(), 34);
    assert_eq!(names[0], "open_tab");
    assert_eq!(names[18], "fill");
    assert_eq!(names[23], "find");
    assert_eq!(names[26], "screenshot");
    assert_eq!(names[33], "downloads");
    for n in [
        "go_forward",
        "close_agent_window",
        "click_at",
        "type",
        "wait_for",
        "scrape",
        "get_value",
        "handoff",
    ] {
        assert!(names.contains(&n), "{n}");
    }
}

#[test]
fn serde_deserialize_goes_through_validation() {
    let a: Action =
        serde_json::from_str(r#"{"type":"hover","selector":"nav a","index":3}"#).unwrap();
    assert_eq!(
        a.locator(),
        Some(&Locator::Selector {
            selector: "nav a".into(),
            index: 3
        })
    );
    let e = serde_json::from_str::<Action>(r#"{"type":"hover"}"#).unwrap_err();
    assert!(e.to_string().contains("hover: exactly one of"), "{e}");
    let a: Action = r#"{"type":"get_tabs"}"#.parse().unwrap();
    assert_eq!(a, Action::GetTabs);
}

#[test]
fn locator_display_is_readable() {
    assert_eq!(Locator::uid("e7").to_string(), "uid e7");
    assert_eq!(
        Locator::Selector {
            selector: "a.next".into(),
            index: 1
        }
        .to_string(),
        "selector \"a.next\" [1]"
    );
    assert!(is_uid("e0") && is_uid("e123") && !is_uid("e") && !is_uid("e1a") && !is_uid("x1"));
}

#[test]
fn extract_include_selects_parts_and_absent_means_all() {
    let a = ok(json!({"type":"extract","include":["markdown","elements"]}));
    let Action::Extract(p) = &a else { panic!() };
    assert!(p.wants(ExtractPart::Markdown) && p.wants(ExtractPart::Elements));
    assert!(!p.wants(ExtractPart::Text));
    assert_eq!(
        a.to_value(),
        json!({"type":"extract","include":["markdown","elements"]})
    );
    let Action::Extract(all) = ok(json!({"type":"extract","tabId":3})) else {
        panic!()
    };
    assert!(all.include.is_empty());
    for part in [
        ExtractPart::Markdown,
        ExtractPart::Elements,
        ExtractPart::Text,
    ] {
        assert!(all.wants(part), "{part:?}");
    }
    refused_with(
        json!({"type":"extract","include":["html"]}),
        &["include: unknown part `html` (use markdown, elements or text)"],
    );
    refused_with(
        json!({"type":"extract","include":"text"}),
        &["include: must be an array"],
    );
}

#[test]
fn handoff_takes_a_tab_a_one_line_reason_and_waits_ten_minutes_by_default() {
    let a = ok(json!({"type":"handoff","tabId":7,"reason":"sign in"}));
    let Action::Handoff(h) = &a else {
        panic!("{a:?}")
    };
    assert_eq!(
        (h.tab_id, h.reason.as_str(), h.wait_ms),
        (7, "sign in", 600_000)
    );
    assert_eq!(a.timeout(), Duration::from_millis(600_000) + TIMEOUT_GRACE);
    assert_eq!(
        a.to_value(),
        json!({"type":"handoff","tabId":7,"reason":"sign in"})
    );
    let a = ok(json!({"type":"handoff","tabId":7,"reason":"2FA code","waitMs":3_600_000}));
    assert_eq!(
        a.timeout(),
        Duration::from_millis(3_600_000) + TIMEOUT_GRACE
    );
    for (v, want) in [
        (
            json!({"type":"handoff","reason":"sign in"}),
            "tabId: required",
        ),
        (json!({"type":"handoff","tabId":7}), "reason"),
        (
            json!({"type":"handoff","tabId":7,"reason":"a\nb"}),
            "one line",
        ),
        (
            json!({"type":"handoff","tabId":7,"reason":"x".repeat(201)}),
            "at most 200",
        ),
        (
            json!({"type":"handoff","tabId":7,"reason":"x","waitMs":3_600_001}),
            "waitMs",
        ),
    ] {
        let e = Action::from_value(&v).unwrap_err();
        assert!(e.message.contains(want), "{v}: {}", e.message);
    }
}

#[test]
fn dialog_and_prompt_text_say_how_triggered_dialogs_are_answered() {
    let a = ok(json!({"type":"click","uid":"e1","dialog":"accept","promptText":"Ada"}));
    let policy = a.dialog();
    assert_eq!(policy.answer, Some(DialogAnswer::Accept));
    assert_eq!(policy.prompt_text.as_deref(), Some("Ada"));
    assert_eq!(
        a.to_value(),
        json!({"type":"click","uid":"e1","dialog":"accept","promptText":"Ada"})
    );
    // The default: alert and beforeunload accepted, confirm and prompt dismissed.
    let default = ok(json!({"type":"evaluate","expression":"return 1"})).dialog();
    assert!(default.accepts("alert") && default.accepts("beforeunload"));
    assert!(!default.accepts("confirm") && !default.accepts("prompt"));
    // A prompt text alone accepts prompts and leaves the rest at the default.
    let text = ok(json!({"type":"navigate","url":"https://a.test/","promptText":"x"})).dialog();
    assert!(text.accepts("prompt") && !text.accepts("confirm"));
    assert!(!ok(json!({"type":"close_tab","dialog":"dismiss"}))
        .dialog()
        .accepts("alert"));
    // Actions that trigger no dialogs take none.
    assert_eq!(
        ok(json!({"type":"extract"})).dialog(),
        DialogPolicy::default()
    );
    refused_with(
        json!({"type":"click","uid":"e1","dialog":"ok"}),
        &["dialog: unknown dialog answer `ok` (use accept or dismiss)"],
    );
    refused_with(
        json!({"type":"click","uid":"e1","dialog":"dismiss","promptText":"x"}),
        &["promptText: not allowed with dialog: \"dismiss\""],
    );
    refused_with(
        json!({"type":"extract","dialog":"accept"}),
        &["unknown field `dialog`"],
    );
}

#[test]
fn downloads_waits_at_most_30_s_and_its_timeout_follows_wait_ms() {
    let a = ok(json!({"type":"downloads","waitMs":5000}));
    assert_eq!(a.timeout(), Duration::from_millis(7_000));
    assert_eq!(
        ok(json!({"type":"downloads"})).timeout(),
        Duration::from_secs(2)
    );
    refused_with(json!({"type":"downloads","waitMs":30001}), &["waitMs"]);
}

#[test]
fn keyword_fields_read_their_words_and_aliases_and_write_the_canonical_word() {
    // A keyword with a default (`state`, `format`): omitted or at the default, it is not written.
    for (input, canonical) in [
        (
            json!({"type":"screenshot","format":"png"}),
            json!({"type":"screenshot"}),
        ),
        (
            json!({"type":"screenshot","format":"jpg"}),
            json!({"type":"screenshot","format":"jpeg"}),
        ),
        (
            json!({"type":"wait_for","selector":"a","state":"visible"}),
            json!({"type":"wait_for","selector":"a"}),
        ),
        (
            json!({"type":"wait_for","selector":"a","state":"hidden"}),
            json!({"type":"wait_for","selector":"a","state":"hidden"}),
        ),
        // An optional keyword without a default (`level`): written whenever given.
        (json!({"type":"console"}), json!({"type":"console"})),
        (
            json!({"type":"console","level":"debug"}),
            json!({"type":"console","level":"debug"}),
        ),
        (
            json!({"type":"console","level":"warn"}),
            json!({"type":"console","level":"warning"}),
        ),
        (
            json!({"type":"console","level":"info"}),
            json!({"type":"console","level":"log"}),
        ),
        (
            json!({"type":"click","uid":"e1","dialog":"accept"}),
            json!({"type":"click","uid":"e1","dialog":"accept"}),
        ),
        (
            json!({"type":"extract","include":["text","markdown"]}),
            json!({"type":"extract","include":["text","markdown"]}),
        ),
    ] {
        assert_eq!(ok(input.clone()).to_value(), canonical, "{input}");
    }
    // Modifiers alone are read in any case, with their aliases.
    assert_eq!(
        ok(json!({"type":"press_key","key":"a","modifiers":["OPTION","Cmd","CTRL"]})).to_value(),
        json!({"type":"press_key","key":"a","modifiers":["alt","meta","ctrl"]})
    );
    refused_with(
        json!({"type":"press_key","key":"a","modifiers":["cmd","Command"]}),
        &["modifiers: `meta` given twice"],
    );
    assert_eq!(Modifier::parse("Control"), Some(Modifier::Ctrl));
    assert_eq!(Modifier::parse("hyper"), None);
    for (input, message) in [
        (
            json!({"type":"screenshot","format":"JPEG"}),
            "format: unknown format `JPEG` (use png or jpeg)",
        ),
        (
            json!({"type":"screenshot","format":"gif"}),
            "format: unknown format `gif` (use png or jpeg)",
        ),
        (
            json!({"type":"console","level":"Warn"}),
            "level: unknown level `Warn` (use debug, log, warning or error)",
        ),
        (
            json!({"type":"console","level":"fatal"}),
            "level: unknown level `fatal` (use debug, log, warning or error)",
        ),
        (
            json!({"type":"wait_for","selector":"a","state":"Visible"}),
            "state: unknown state `Visible` (use visible, attached or hidden)",
        ),
        (
            json!({"type":"click","uid":"e1","dialog":"ok"}),
            "dialog: unknown dialog answer `ok` (use accept or dismiss)",
        ),
        (
            json!({"type":"extract","include":["html"]}),
            "include: unknown part `html` (use markdown, elements or text)",
        ),
        (
            json!({"type":"press_key","key":"a","modifiers":["hyper"]}),
            "modifiers: unknown modifier `hyper` (use alt, ctrl, shift, meta)",
        ),
        (json!({"type":"console","level":3}), "level:"),
    ] {
        refused_with(input, &[message]);
    }
}
