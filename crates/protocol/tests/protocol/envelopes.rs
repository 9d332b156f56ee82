use bua_protocol::*;
use serde_json::{json, Value};

/// The `invalid_action` error `r` must be, its message saying `says`.
fn refused(r: Result<impl std::fmt::Debug, FrameError>, says: &str) -> FrameError {
    let e = frame_err(r);
    assert!(e.error.message.contains(says), "{e}");
    e
}

fn frame_err(r: Result<impl std::fmt::Debug, FrameError>) -> FrameError {
    match r {
        Ok(v) => panic!("expected a FrameError, got {v:?}"),
        Err(e) => {
            assert_eq!(e.error.code, ErrorCode::InvalidAction, "{e}");
            e
        }
    }
}

#[test]
fn spec_request_example_parses_and_round_trips() {
    let text = r#"{"type":"request","id":"5f0c6d1e-8c1a-4a59-9d0b-2f7f7f0e6a11","owner":"cli-1","action":{"type":"click","uid":"e7","tabId":12}}"#;
    let msg = parse_to_extension(text).unwrap();
    let ToExtension::Request(req) = &msg else {
        panic!("{msg:?}")
    };
    assert_eq!(req.id, "5f0c6d1e-8c1a-4a59-9d0b-2f7f7f0e6a11");
    assert_eq!(req.owner.as_deref(), Some("cli-1"));
    assert_eq!(req.action.name(), "click");
    let back: Value = serde_json::from_str(&msg.to_json()).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(text).unwrap());
    assert_eq!(parse_to_extension(&msg.to_json()).unwrap(), msg);
}

#[test]
fn request_with_a_bad_action_keeps_the_id_for_the_answer() {
    let e = frame_err(parse_to_extension(
        r#"{"type":"request","id":"r1","action":{"type":"click","foo":1}}"#,
    ));
    assert_eq!(e.id.as_deref(), Some("r1"));
    assert!(
        e.error.message.contains("click: unknown field `foo`"),
        "{e}"
    );
    let resp = e.to_response().unwrap();
    assert_eq!(
        FromExtension::Response(resp).to_value(),
        json!({"type":"response","id":"r1","error":{"code":"invalid_action","message":e.error.message}})
    );
    let e = frame_err(parse_to_extension(r#"{"type":"request","id":"r2"}"#));
    assert_eq!(e.id.as_deref(), Some("r2"));
    assert!(e.error.message.contains("request: action: required"), "{e}");
}

#[test]
fn malformed_frames_are_refused_naming_what_is_wrong() {
    let e = frame_err(parse_to_extension("{not json"));
    assert!(e.error.message.starts_with("frame: not valid JSON"), "{e}");
    assert_eq!(e.id, None);
    refused(parse_to_extension("[1,2]"), "must be a JSON object");
    let e = refused(
        parse_to_extension(r#"{"type":"dance","id":"x"}"#),
        "type: unknown message type `dance`",
    );
    assert_eq!(e.id.as_deref(), Some("x"));
    refused(parse_from_extension(r#"{"id":"x"}"#), "type: required");
    refused(
        parse_from_extension(r#"{"type":"ping","extra":true}"#),
        "ping: unknown field `extra`",
    );
    refused(
        parse_to_extension(r#"{"type":"request","id":7,"action":{"type":"get_tabs"}}"#),
        "request: id: must be a string",
    );
}

#[test]
fn frames_over_16_mib_are_refused() {
    let big = format!(
        r#"{{"type":"response","id":"r","result":"{}"}}"#,
        "a".repeat(MAX_FRAME_BYTES)
    );
    refused(parse_from_extension(&big), "16 MiB");
    refused(parse_client_request(&big), "16 MiB");
}

#[test]
fn hello_ack_reject_examples_parse() {
    let h = parse_from_extension(
        r#"{"type":"hello","role":"extension","protocolVersion":4,"extensionVersion":"0.1.0","name":"chrome-main","token":"t0k"}"#,
    )
    .unwrap();
    assert_eq!(
        h,
        FromExtension::Hello(Hello::extension("0.1.0", "chrome-main", Some("t0k".into())))
    );
    let c = parse_hello(r#"{"type":"hello","role":"client","name":"bridge-client","token":"t"}"#)
        .unwrap();
    assert_eq!(c.role, Role::Client);
    assert_eq!(c.protocol_version, None);
    assert!(c
        .check_version(MIN_PROTOCOL_VERSION, PROTOCOL_VERSION)
        .is_ok());
    refused(parse_hello(r#"{"type":"ping"}"#), "expected `hello`");
    refused(
        parse_hello(r#"{"type":"hello","role":"admin"}"#),
        "hello: role: unknown role `admin`",
    );

    let ack = parse_to_extension(
        r#"{"type":"ack","protocolVersion":4,"serverVersion":"0.1.0","clientId":"cli-9"}"#,
    )
    .unwrap();
    assert_eq!(
        ack,
        ToExtension::Ack(Ack {
            protocol_version: 4,
            server_version: "0.1.0".into(),
            client_id: Some("cli-9".into()),
            controls: None,
        })
    );
    let ext_ack = ToExtension::Ack(Ack {
        protocol_version: 4,
        server_version: "0.1.0".into(),
        client_id: None,
        controls: None,
    });
    assert_eq!(
        ext_ack.to_value(),
        json!({"type":"ack","protocolVersion":4,"serverVersion":"0.1.0"})
    );

    let rej = parse_to_extension(
        r#"{"type":"reject","error":{"code":"unauthorized","message":"wrong token"}}"#,
    )
    .unwrap();
    assert_eq!(
        rej,
        ToExtension::Reject(Reject {
            error: ErrorBody::new(ErrorCode::Unauthorized, "wrong token")
        })
    );
    refused(
        parse_to_extension(r#"{"type":"reject","error":{"code":"nope","message":"x"}}"#),
        "reject: error: code: unknown error code `nope`",
    );
}

#[test]
fn protocol_versions_outside_the_range_are_mismatches() {
    let mut h = Hello::extension("0.1.0", "chrome", None);
    assert!(h.check_version(4, 4).is_ok());
    let e = h.check_version(5, 5).unwrap_err();
    assert_eq!(e.code, ErrorCode::ProtocolVersionMismatch);
    assert!(e.message.contains("upgrade the extension"), "{e}");
    h.protocol_version = Some(6);
    let e = h.check_version(4, 5).unwrap_err();
    assert!(e.message.contains("upgrade bua-bridge"), "{e}");
    h.protocol_version = None;
    assert_eq!(
        h.check_version(4, 4).unwrap_err().code,
        ErrorCode::ProtocolVersionMismatch
    );
}

#[test]
fn response_carries_exactly_one_of_result_and_error() {
    let ok = parse_from_extension(r#"{"type":"response","id":"a","result":{"tabs":[]}}"#).unwrap();
    assert_eq!(
        ok,
        FromExtension::Response(Response::ok("a", json!({"tabs":[]})))
    );
    let err = parse_from_extension(r#"{"type":"response","id":"a","error":{"code":"element_stale","message":"call extract again"}}"#).unwrap();
    let FromExtension::Response(r) = err else {
        panic!()
    };
    assert_eq!(
        r.clone().into_result().unwrap_err().code,
        ErrorCode::ElementStale
    );
    assert_eq!(
        FromExtension::Response(r).to_value(),
        json!({"type":"response","id":"a","error":{"code":"element_stale","message":"call extract again"}})
    );
    let e = refused(
        parse_from_extension(r#"{"type":"response","id":"a"}"#),
        "response: exactly one of result/error is required",
    );
    assert_eq!(e.id.as_deref(), Some("a"));
    refused(
        parse_from_extension(
            r#"{"type":"response","id":"a","result":1,"error":{"code":"timeout","message":"m"}}"#,
        ),
        "got both",
    );
    // `"result": null` is a result.
    let n = parse_from_extension(r#"{"type":"response","id":"a","result":null}"#).unwrap();
    assert_eq!(n, FromExtension::Response(Response::ok("a", Value::Null)));
    assert_eq!(
        n.to_value(),
        json!({"type":"response","id":"a","result":null})
    );
}

#[test]
fn events_parse_tolerating_new_fields() {
    let text = r#"{"type":"event","event":{"type":"session_ended","tabId":12,"domain":"example.com","reason":"user_stopped","startedAt":1700000000000,"endedAt":1700000005000.5,"actionCount":3,"futureField":1}}"#;
    let FromExtension::Event { event } = parse_from_extension(text).unwrap() else {
        panic!()
    };
    assert_eq!(
        event,
        Event::SessionEnded {
            tab_id: 12,
            domain: "example.com".into(),
            reason: EndReason::UserStopped,
            started_at: 1.7e12,
            ended_at: 1700000005000.5,
            action_count: 3
        }
    );
    assert_eq!(event.tab_id(), Some(12));
    let v = FromExtension::Event {
        event: event.clone(),
    }
    .to_value();
    assert_eq!(v["event"]["reason"], "user_stopped");
    assert_eq!(v["event"]["actionCount"], 3);
    assert!(v["event"].get("futureField").is_none());

    refused(
        parse_from_extension(
            r#"{"type":"event","event":{"type":"session_ended","tabId":1,"domain":"a","reason":"expired","startedAt":1,"endedAt":2,"actionCount":0}}"#,
        ),
        "session_ended: reason: unknown end reason `expired`",
    );
    refused(
        parse_from_extension(r#"{"type":"event","event":{"type":"permission_denied"}}"#),
        "event: type: unknown event `permission_denied`",
    );

    let blocked = Event::DomainBlocked {
        domain: "bank.example".into(),
        url: None,
        tab_id: Some(4),
    };
    assert_eq!(
        blocked.to_value(),
        json!({"type":"domain_blocked","domain":"bank.example","tabId":4})
    );
    let gs = Event::GlobalStop {
        at: 1.5,
        session_count: 2,
    };
    assert_eq!(
        gs.to_value(),
        json!({"type":"global_stop","at":1.5,"sessionCount":2})
    );
    assert_eq!(Event::from_value(&gs.to_value()).unwrap(), gs);
    let st = Event::SessionStarted {
        tab_id: 3,
        domain: "a.example".into(),
        started_at: 10.0,
        owner: "agent".into(),
    };
    assert_eq!(serde_json::from_value::<Event>(st.to_value()).unwrap(), st);
    assert_eq!(EndReason::all().len(), 7);
}

#[test]
fn bridge_error_frame_and_ping_pong() {
    let e = ToExtension::Error {
        id: None,
        error: ErrorBody::invalid("frame: not valid JSON"),
    };
    assert_eq!(
        e.to_value(),
        json!({"type":"error","error":{"code":"invalid_action","message":"frame: not valid JSON"}})
    );
    assert_eq!(parse_to_extension(&e.to_json()).unwrap(), e);
    assert_eq!(ToExtension::Pong.to_json(), r#"{"type":"pong"}"#);
    assert_eq!(FromExtension::Ping.to_json(), r#"{"type":"ping"}"#);
    assert_eq!(
        parse_from_extension(r#"{"type":"ping"}"#).unwrap(),
        FromExtension::Ping
    );
    assert_eq!(
        parse_to_extension(r#"{"type":"pong"}"#).unwrap(),
        ToExtension::Pong
    );
}

#[test]
fn client_request_defaults_params_and_maps_to_an_action() {
    let r = parse_client_request(
        r#"{"id":"abc-123","method":"navigate","params":{"url":"https://example.com"}}"#,
    )
    .unwrap();
    assert_eq!(r.method, "navigate");
    assert_eq!(
        r.to_action().unwrap(),
        Action::Navigate(Navigate {
            url: "https://example.com".into(),
            tab_id: None,
            dialog: DialogPolicy::default(),
            load_wait_ms: None,
        })
    );
    let p = parse_client_request(r#"{"id":"p1","method":"ping"}"#).unwrap();
    assert_eq!(p.params, json!({}));
    let p = parse_client_request(r#"{"id":"p1","method":"ping","params":null}"#).unwrap();
    assert_eq!(p.params, json!({}));
    let e = refused(
        parse_client_request(r#"{"id":"p1","method":"ping","params":[1]}"#),
        "request: params: must be an object",
    );
    assert_eq!(e.id.as_deref(), Some("p1"));
    refused(
        parse_client_request(r#"{"method":"ping"}"#),
        "request: id: required",
    );
    refused(
        parse_client_request(r#"{"id":"1","method":"ping","extra":1}"#),
        "request: unknown field `extra`",
    );
    let bad = ClientRequest::new("x", "click", json!({"type":"hover"}));
    assert!(bad
        .to_action()
        .unwrap_err()
        .message
        .contains("params: unknown field `type`"));
}

#[test]
fn client_response_has_the_v1_shape() {
    let ok = ClientResponse::ok("abc-123", json!({"tabId":7}));
    assert_eq!(
        ok.to_value(),
        json!({"id":"abc-123","success":true,"result":{"tabId":7}})
    );
    let err = ClientResponse::err(
        "abc-123",
        ErrorBody::new(ErrorCode::NoExtension, "no extension connected"),
    );
    assert_eq!(
        err.to_value(),
        json!({"id":"abc-123","success":false,"error":"no extension connected","code":"no_extension"})
    );
    assert_eq!(
        serde_json::from_value::<ClientResponse>(err.to_value()).unwrap(),
        err
    );
    assert_eq!(
        parse_to_client(&ok.to_json()).unwrap(),
        ToClient::Response(ok.clone())
    );
    assert_eq!(
        err.clone().into_result().unwrap_err().code,
        ErrorCode::NoExtension
    );
    let ack = ToClient::Ack(Ack {
        protocol_version: 4,
        server_version: "1".into(),
        client_id: Some("cli-2".into()),
        controls: None,
    });
    assert_eq!(
        ack.to_value(),
        json!({"type":"ack","protocolVersion":4,"serverVersion":"1","clientId":"cli-2"})
    );
    assert_eq!(parse_to_client(&ack.to_json()).unwrap(), ack);
    let ev = ToClient::Event(Event::TabClosed { tab_id: 3 });
    assert_eq!(
        ev.to_value(),
        json!({"type":"event","event":{"type":"tab_closed","tabId":3}})
    );
    assert_eq!(parse_to_client(&ev.to_json()).unwrap(), ev);
}

#[test]
fn error_codes_are_snake_case_with_advice() {
    assert_eq!(ErrorCode::all().len(), 15);
    for c in ErrorCode::all() {
        assert_eq!(serde_json::to_value(c).unwrap(), json!(c.as_str()));
        assert_eq!(ErrorCode::from_wire(c.as_str()), Some(*c));
        assert_eq!(c.to_string(), c.as_str());
        assert!(c.advice().len() > 20, "{c}");
    }
    assert_eq!(
        ErrorBody::invalid("x: bad").to_string(),
        "invalid_action: x: bad"
    );
}

#[test]
fn results_serialize_in_camel_case() {
    let w = CloseAgentWindowResult {
        closed: false,
        window_id: None,
    };
    assert_eq!(
        serde_json::to_value(&w).unwrap(),
        json!({"closed":false,"windowId":null})
    );
    let el = ElementInfo {
        tag: "input".into(),
        r#type: Some("checkbox".into()),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&el).unwrap(),
        json!({"tag":"input","type":"checkbox"})
    );
    let t = TabInfo {
        tab_id: 1,
        window_id: 2,
        window_state: "minimized".into(),
        url: "u".into(),
        title: "t".into(),
        active: true,
        agent_owned: true,
        agent_owner: Some("mcp-1-ab12".into()),
        session: false,
    };
    assert_eq!(
        serde_json::to_value(&t).unwrap(),
        json!({"tabId":1,"windowId":2,"windowState":"minimized","url":"u","title":"t","active":true,"agentOwned":true,"agentOwner":"mcp-1-ab12","session":false})
    );
    let x = ExtractResult {
        url: "u".into(),
        title: "t".into(),
        text: Some("x".into()),
        markdown: Some("# t".into()),
        elements: Some(vec![ExtractElement {
            uid: "e0".into(),
            role: "button".into(),
            name: Some("Go".into()),
            visible: Some(true),
            ..Default::default()
        }]),
        obstacle: Some(Obstacle {
            r#type: ObstacleType::AuthWall,
            confidence: Confidence::Low,
            message: "m".into(),
        }),
        truncated: Truncated::default(),
        total_elements: 1,
        page: None,
        pages: None,
        dialog: None,
        dialogs: Vec::new(),
    };
    let v = serde_json::to_value(&x).unwrap();
    assert_eq!(v["totalElements"], 1);
    assert_eq!(
        v["obstacle"],
        json!({"type":"auth_wall","confidence":"low","message":"m"})
    );
    assert_eq!(
        v["truncated"],
        json!({"text":false,"markdown":false,"elements":false})
    );
    assert_eq!(
        v["elements"][0],
        json!({"uid":"e0","role":"button","name":"Go","visible":true})
    );
    assert_eq!(serde_json::from_value::<ExtractResult>(v).unwrap(), x);
    let s = ScrollResult {
        scrolled: ScrollDelta { dx: 0.0, dy: 800.0 },
        at_end: false,
        element: None,
        tab_id: 7,
    };
    assert_eq!(
        serde_json::to_value(&s).unwrap(),
        json!({"scrolled":{"dx":0.0,"dy":800.0},"atEnd":false,"tabId":7})
    );
}

#[test]
fn evaluate_results_are_untagged_and_truncated_over_8_kib() {
    let v = EvaluateResult::from_json("string", json!("Example"));
    assert_eq!(
        serde_json::to_value(&v).unwrap(),
        json!({"type":"string","value":"Example"})
    );
    let big = "é".repeat(10_000); // 20 000 bytes of value
    let t = EvaluateResult::from_json("string", json!(big));
    let EvaluateResult::Truncated {
        truncated, preview, ..
    } = &t
    else {
        panic!("{t:?}")
    };
    assert!(truncated);
    assert!(
        preview.ends_with("chars]"),
        "{}",
        &preview[preview.len() - 40..]
    );
    let json_len_chars = serde_json::to_string(&big).unwrap().chars().count();
    let kept = preview.split("…[truncated").next().unwrap();
    assert!(kept.len() <= EVALUATE_MAX_BYTES);
    let n = json_len_chars - kept.chars().count();
    assert!(preview.ends_with(&format!("…[truncated {n} chars]")), "{n}");
    let d: EvaluateResult =
        serde_json::from_value(json!({"type":"object","description":"HTMLDivElement"})).unwrap();
    assert_eq!(
        d,
        EvaluateResult::Described {
            r#type: "object".into(),
            description: "HTMLDivElement".into()
        }
    );
    let back: EvaluateResult = serde_json::from_value(serde_json::to_value(&t).unwrap()).unwrap();
    assert_eq!(back, t);
    let mut s = String::from("aé");
    assert!(truncate_at_char_boundary(&mut s, 2));
    assert_eq!(s, "a");
}

#[test]
fn handoff_events_round_trip_and_refuse_an_unknown_outcome() {
    for event in [
        Event::HandoffStarted {
            tab_id: 12,
            domain: "example.com".into(),
            reason: "sign in".into(),
            started_at: 1.7e12,
        },
        Event::HandoffEnded {
            tab_id: 12,
            domain: "example.com".into(),
            outcome: HandoffOutcome::Page,
            started_at: 1.7e12,
            ended_at: 1.7e12 + 4200.0,
        },
    ] {
        let v = event.to_value();
        assert_eq!(Event::from_value(&v).unwrap(), event, "{v}");
        assert_eq!(event.tab_id(), Some(12));
    }
    let v = serde_json::json!({"type":"handoff_ended","tabId":1,"domain":"a","outcome":"gave_up","startedAt":1,"endedAt":2});
    let e = Event::from_value(&v).unwrap_err();
    assert!(
        e.message.contains("unknown handoff outcome `gave_up`"),
        "{}",
        e.message
    );
}

#[test]
fn a_file_chunk_round_trips_and_an_upload_request_names_its_staged_bytes() {
    let chunk = ToExtension::FileChunk(FileChunk {
        upload: "r1".into(),
        file: 1,
        name: "cv.pdf".into(),
        mime: "application/pdf".into(),
        size: 3,
        data: "QUJD".into(),
    });
    let text = chunk.to_json();
    assert!(
        text.starts_with(r#"{"type":"file_chunk","upload":"r1","file":1"#),
        "{text}"
    );
    assert_eq!(parse_to_extension(&text).unwrap(), chunk);
    refused(
        parse_to_extension(
            r#"{"type":"file_chunk","upload":"r1","name":"a","mime":"","data":"","extra":1}"#,
        ),
        "extra",
    );

    let upload = json!({"type": "upload", "selector": "#cv", "files": ["cv.pdf"], "staged": "r1", "tabId": 4});
    let frame = json!({"type": "request", "id": "r1", "action": upload});
    let ToExtension::Request(req) = parse_to_extension(&frame.to_string()).unwrap() else {
        panic!("not a request")
    };
    let Action::Upload(u) = &req.action else {
        panic!("not an upload")
    };
    assert_eq!(
        (u.staged.as_deref(), u.files.as_slice()),
        (Some("r1"), &["cv.pdf".to_string()][..])
    );
    assert_eq!(req.action.to_value(), upload);
    // `staged` is the bridge's: it is not part of the schema agents see.
    assert!(!json_schema().to_string().contains("staged"));
    let extract = json!({"type": "extract", "include": ["markdown", "elements"], "refs": true});
    match Action::from_value(&extract).expect("extract with refs") {
        Action::Extract(e) => assert!(e.refs),
        other => panic!("{other:?}"),
    }
    assert!(!json_schema().to_string().contains("\"refs\""));
}
