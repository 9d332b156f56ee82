//! v1-bridge aliases on the client side (SPEC §9).

use bua_protocol::*;
use serde_json::json;

fn act(method: &str, params: serde_json::Value) -> Action {
    match ClientRequest::new("1", method, params.clone()).to_action() {
        Ok(a) => a,
        Err(e) => panic!("{method} {params}: {e}"),
    }
}

/// The error `method` with `params` is refused with.
fn refused(method: &str, params: serde_json::Value) -> ErrorBody {
    match ClientRequest::new("1", method, params.clone()).to_action() {
        Ok(a) => panic!("{method} {params}: accepted as {a:?}"),
        Err(e) => e,
    }
}

#[test]
fn v1_method_names_map_to_v4_actions() {
    assert_eq!(act("list_tabs", json!({})), Action::GetTabs);
    assert_eq!(
        act("new_tab", json!({"url": "https://example.com"})),
        Action::OpenTab(OpenTab {
            url: "https://example.com".into(),
            focus: false,
            load_wait_ms: None,
        })
    );
    assert_eq!(
        act("new_tab", json!({})),
        Action::OpenTab(OpenTab {
            url: "about:blank".into(),
            focus: false,
            load_wait_ms: None,
        })
    );
    assert_eq!(
        act("close_auto_tabs", json!({"owner": "mcp-1234-abcd"})),
        Action::CloseAgentTabs(OwnerOnly {
            owner: Some("mcp-1234-abcd".into())
        })
    );
    assert_eq!(v4_method("run_script"), Some("evaluate"));
    assert_eq!(v4_method("click"), Some("click"));
    assert_eq!(v4_method("fly"), None);
}

#[test]
fn run_script_returns_the_value_of_its_expression() {
    let a = act(
        "run_script",
        json!({"code": "document.title;  ", "tab_id": 7}),
    );
    assert_eq!(
        a,
        Action::Evaluate(Evaluate {
            expression: format!("return {V1_SERIALIZE}(\ndocument.title\n);"),
            tab_id: Some(7),
            frame: None,
            dialog: DialogPolicy::default()
        })
    );
    let e = refused("run_script", json!({"code": 5}));
    assert!(e.message.contains("params: code: must be a string"), "{e}");
}

#[test]
fn v1_target_and_snake_case_params_are_accepted() {
    let a = act(
        "click",
        json!({"target": {"by": "css", "value": "#submit", "index": 1}, "tab_id": 7, "timeout": 5000, "new_tab": true}),
    );
    assert_eq!(
        a,
        Action::Click(Click {
            locator: Locator::Selector {
                selector: "#submit".into(),
                index: 1
            },
            tab_id: Some(7),
            new_tab: true,
            dialog: DialogPolicy::default()
        })
    );
    let a = act("click", json!({"target": {"value": "#x"}}));
    assert_eq!(a.locator(), Some(&Locator::selector("#x")));
    let a = act(
        "press_key",
        json!({"key": "Enter", "modifiers": ["ctrl"], "target": {"by": "text", "value": "Search"}, "wait_load": true}),
    );
    let Action::PressKey(p) = a else { panic!() };
    assert!(p.wait_load);
    assert_eq!(p.locator, Some(Locator::text("Search")));
    let a = act(
        "scroll",
        json!({"dx": 0, "dy": 800, "target": {"by": "xpath", "value": "//div"}, "smooth": true}),
    );
    assert_eq!(a.locator(), Some(&Locator::xpath("//div")));
    let a = act(
        "select_option",
        json!({"target": {"value": "select", "index": 1}, "index": 2}),
    );
    let Action::SelectOption(s) = a else { panic!() };
    assert_eq!(
        s.locator,
        Locator::Selector {
            selector: "select".into(),
            index: 1
        }
    );
    assert_eq!(s.choice, OptionChoice::Index(vec![2]));
    let a = act("clear", json!({"target": {"value": "#q"}}));
    assert_eq!(
        a,
        Action::Type(TypeText {
            locator: Locator::selector("#q"),
            text: String::new(),
            secret: None,
            secret_origins: None,
            clear: true,
            submit: false,
            tab_id: None,
            dialog: DialogPolicy::default()
        })
    );
    let e = refused("click", json!({"target": {"by": "id", "value": "x"}}));
    assert!(e.message.contains("params: target.by: unknown `id`"), "{e}");
    let e = refused("click", json!({"target": {"by": "css"}}));
    assert!(e.message.contains("params: target.value: required"), "{e}");
}

#[test]
fn v1_scrape_legacy_fields_and_timeout() {
    let a = act(
        "scrape",
        json!({"item": "div.g", "title": "h3", "link": "a@href", "desc": ".VwiC3b", "timeout": 3000}),
    );
    let Action::Scrape(s) = a else { panic!() };
    let fields = s.fields.unwrap();
    assert_eq!(fields.get("title").map(String::as_str), Some("h3"));
    assert_eq!(fields.get("url").map(String::as_str), Some("a@href"));
    assert_eq!(
        fields.get("description").map(String::as_str),
        Some(".VwiC3b")
    );
    assert_eq!(s.timeout_ms, Some(3000));
}

#[test]
fn unknown_methods_are_refused_by_name() {
    let e = refused("teleport", json!({}));
    assert_eq!(e.code, ErrorCode::InvalidAction);
    assert!(
        e.message.contains("method: unknown method `teleport`"),
        "{e}"
    );
}

#[test]
fn list_tabs_answers_in_the_v1_shape() {
    let r = ClientRequest::new("1", "list_tabs", json!({}));
    let v4 = json!({"tabs": [{"tabId": 7, "windowId": 1, "windowState": "normal", "url": "u", "title": "t", "active": true, "agentOwned": false, "session": false}]});
    assert_eq!(
        r.shape_result(v4.clone()),
        json!({"tabs": [{"tab_id": 7, "window_id": 1, "window_state": "normal", "url": "u", "title": "t", "active": true, "agent_owned": false, "session": false}]})
    );
    assert_eq!(
        ClientRequest::new("1", "get_tabs", json!({})).shape_result(v4.clone()),
        v4
    );
}

#[test]
fn v1_only_methods_answer_in_their_v1_shape_for_every_dialect() {
    for dialect in [ClientDialect::V1, ClientDialect::V4] {
        let new_tab = ClientRequest::new("1", "new_tab", json!({"url": "https://example.com"}));
        assert_eq!(
            new_tab.shape_result_for(
                json!({"tabId": 8, "windowId": 2, "domain": "example.com", "url": "https://example.com/", "title": "Example", "active": true}),
                dialect
            ),
            json!({"tab_id": 8, "window_id": 2, "domain": "example.com", "url": "https://example.com/", "title": "Example", "active": true})
        );
        let run = ClientRequest::new("1", "run_script", json!({"code": "1+1", "tab_id": 7}));
        assert_eq!(
            run.shape_result_for(
                json!({"type": "object", "value": [{"text": "Example"}]}),
                dialect
            ),
            json!({"result": [{"text": "Example"}], "tab_id": 7})
        );
        let run = ClientRequest::new("1", "run_script", json!({"code": "undefined"}));
        assert_eq!(
            run.shape_result_for(json!({"type": "undefined"}), dialect),
            json!({"result": null})
        );
        assert_eq!(
            run.shape_result_for(json!({"type": "string", "truncated": true, "preview": "\"aaa…[truncated 9 chars]"}), dialect),
            json!({"result": "\"aaa…[truncated 9 chars]", "truncated": true})
        );
        let close = ClientRequest::new("1", "close_auto_tabs", json!({}));
        assert_eq!(
            close.shape_result_for(json!({"closed": [7, 9]}), dialect),
            json!({"closed": [7, 9]})
        );
    }
}

#[test]
fn shared_methods_gain_snake_case_keys_only_for_v1_clients() {
    let r = ClientRequest::new("1", "click", json!({"selector": "#submit"}));
    let v4 = json!({"clicked": {"tag": "button", "id": "submit"}, "tabId": 7});
    assert_eq!(r.shape_result_for(v4.clone(), ClientDialect::V4), v4);
    assert_eq!(
        r.shape_result_for(v4.clone(), ClientDialect::V1),
        json!({"clicked": {"tag": "button", "id": "submit"}, "tabId": 7, "tab_id": 7})
    );
    let w = ClientRequest::new("1", "close_agent_window", json!({}));
    assert_eq!(
        w.shape_result_for(
            json!({"closed": false, "windowId": null}),
            ClientDialect::V1
        ),
        json!({"closed": false, "windowId": null, "window_id": null})
    );
    // Values inside results (scrape items) keep their keys.
    let s = ClientRequest::new("1", "scrape", json!({"item": "li"}));
    assert_eq!(
        s.shape_result_for(
            json!({"count": 1, "items": [{"myField": "x"}], "tabId": 3}),
            ClientDialect::V1
        ),
        json!({"count": 1, "items": [{"myField": "x"}], "tabId": 3, "tab_id": 3})
    );
}

#[test]
fn forwarded_events_may_carry_a_dropped_counter() {
    let text = r#"{"type":"event","event":{"type":"tab_closed","tabId":3},"dropped":5}"#;
    let parsed = parse_to_client(text).unwrap();
    assert_eq!(
        parsed,
        ToClient::EventAfterDrop {
            event: Event::TabClosed { tab_id: 3 },
            dropped: 5
        }
    );
    assert_eq!(parse_to_client(&parsed.to_json()).unwrap(), parsed);
    let zero = r#"{"type":"event","event":{"type":"tab_closed","tabId":3},"dropped":0}"#;
    assert_eq!(
        parse_to_client(zero).unwrap(),
        ToClient::Event(Event::TabClosed { tab_id: 3 })
    );
    assert!(parse_to_client(
        r#"{"type":"event","event":{"type":"tab_closed","tabId":3},"dropped":-1}"#
    )
    .is_err());
}

#[test]
fn v1_get_value_takes_a_target_or_the_legacy_selector() {
    let by = |by: &str, value: &str| {
        act(
            "get_value",
            json!({"target": {"by": by, "value": value}, "tab_id": 7}),
        )
    };
    let expected = |locator| {
        Action::GetValue(GetValue {
            locator,
            tab_id: Some(7),
        })
    };
    assert_eq!(
        by("css", "#username"),
        expected(Locator::selector("#username"))
    );
    assert_eq!(
        by("text", "City"),
        expected(Locator::Text {
            text: "City".into(),
            index: 0
        })
    );
    assert_eq!(
        by("xpath", "//textarea"),
        expected(Locator::Xpath {
            xpath: "//textarea".into(),
            index: 0
        })
    );
    assert_eq!(
        act("get_value", json!({"selector": "#username", "tab_id": 7})),
        expected(Locator::selector("#username"))
    );
    let e = refused("get_value", json!({"tab_id": 7}));
    assert!(e.message.contains("get_value: exactly one of"), "{e}");
}

#[test]
fn get_value_results_are_one_value_or_an_array_per_multi_select() {
    let element = ElementInfo {
        tag: "select".into(),
        role: None,
        name: None,
        id: None,
        text: None,
        r#type: None,
    };
    let single = GetValueResult {
        element: element.clone(),
        value: FormValue::One("sh".into()),
        label: Some(FormValue::One("上海".into())),
        checked: None,
        options: vec![],
        tab_id: 7,
    };
    assert_eq!(
        serde_json::to_value(&single).unwrap(),
        json!({"element": {"tag": "select"}, "value": "sh", "label": "上海", "tabId": 7})
    );
    let listed = GetValueResult {
        options: vec![SelectedOption {
            value: "sh".into(),
            label: "上海".into(),
        }],
        ..single.clone()
    };
    assert_eq!(
        serde_json::to_value(&listed).unwrap()["options"],
        json!([{"value": "sh", "label": "上海"}])
    );
    let multi = GetValueResult {
        value: FormValue::Many(vec!["a".into(), "b".into()]),
        label: Some(FormValue::Many(vec!["A".into(), "B".into()])),
        ..single
    };
    let v = serde_json::to_value(&multi).unwrap();
    assert_eq!(v["value"], json!(["a", "b"]));
    assert_eq!(serde_json::from_value::<GetValueResult>(v).unwrap(), multi);
}
