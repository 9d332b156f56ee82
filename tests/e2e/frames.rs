//! End-to-end tests of cross-origin frames (SPEC §5 "Frames") in real headless Chromium with the built
//! extension and the real bridge: a page on 127.0.0.1 holds a frame from 127.0.0.2, which holds a frame from
//! localhost — three sites, so three renderer processes and three CDP targets. `extract` must read all
//! three levels, and every element action by uid must have its effect in the frame's own page.

use crate::support;

use std::time::Duration;

use serde_json::{json, Value};
use support::{eventually, second_site, uid_of, Agent, FixtureServer};

/// The tests share one browser; one page of three processes at a time keeps the 2 cores usable.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The extract of `tab` once it shows the innermost frame's text (10 s at most; `None`: it never did).
async fn three_levels_read(a: &Agent, tab: i64) -> Option<Value> {
    eventually(Duration::from_secs(10), || async {
        // A read that meets Chrome detaching the tab's debugger (a frame leaving for an unknown scheme)
        // fails as `session_not_found` (it says so); the next read attaches again.
        let r = a
            .client
            .call("extract", json!({ "tabId": tab }))
            .await
            .ok()?;
        let md = r["markdown"].as_str().unwrap_or("").to_owned();
        md.contains("Leaf level text").then_some(r)
    })
    .await
}

/// Opens the three-level page in an agent tab (the minimized agent window) and waits until the innermost
/// frame has loaded; returns the tab id, that extract and the fixture server's port (the three sites' port).
async fn three_levels_extracted(a: &Agent) -> (i64, Value, u16) {
    second_site();
    let tab = a.open_tab("top.html").await;
    let Some(r) = three_levels_read(a, tab).await else {
        panic!(
            "the leaf frame never showed in extract:\n{:#}",
            a.extract(tab).await
        );
    };
    (tab, r, FixtureServer::shared().port())
}

/// The frame id the markdown's marker line gives the frame from `origin` (`frame f1: http://…`).
fn frame_id(markdown: &str, origin: &str) -> String {
    markdown
        .lines()
        .find_map(|l| {
            let rest = l.strip_prefix("frame ")?;
            let (id, at) = rest.split_once(": ")?;
            (at == origin).then(|| id.to_owned())
        })
        .unwrap_or_else(|| panic!("no frame marker for {origin} in:\n{markdown}"))
}

/// `evaluate` of `expression` in `frame` (a frame id or a uid inside the frame; `None`: the page) → the value.
async fn eval_in(a: &Agent, tab: i64, frame: Option<&str>, expression: &str) -> Value {
    let mut params = json!({ "expression": expression });
    if let Some(f) = frame {
        params["frame"] = json!(f);
    }
    a.act(tab, "evaluate", params).await["value"].clone()
}

/// `window.state()` of the frame `frame` (`None`: the page): `[clicks, field, choice, checked, hovered,
/// scrollTop]`.
async fn state(a: &Agent, tab: i64, frame: Option<&str>) -> Value {
    eval_in(a, tab, frame, "return window.state()").await
}

#[tokio::test]
async fn extract_reads_three_levels_of_cross_origin_frames_in_document_order() {
    let (_serial, a) = Agent::alone(&SERIAL, "frames").await;
    let (tab, r, port) = three_levels_extracted(&a).await;
    let md = r["markdown"].as_str().expect("markdown");
    let mid = format!(
        "frame {}: http://127.0.0.2:{port}",
        frame_id(md, &format!("http://127.0.0.2:{port}"))
    );
    let leaf = format!(
        "frame {}: http://localhost:{port}",
        frame_id(md, &format!("http://localhost:{port}"))
    );
    let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("{s:?} not in:\n{md}"));
    let order = [
        at("Top level text"),
        at(&mid),
        at("Middle level text"),
        at(&leaf),
        at("Leaf level text"),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?} in:\n{md}");
    let names: Vec<&str> = r["elements"]
        .as_array()
        .expect("elements")
        .iter()
        .filter_map(|e| e["name"].as_str())
        .collect();
    let pos = |n: &str| {
        names
            .iter()
            .position(|x| *x == n)
            .unwrap_or_else(|| panic!("{n:?} not in {names:?}"))
    };
    for level in ["Top", "Middle", "Leaf"] {
        for control in ["button", "field", "choice", "check", "hover", "inner"] {
            pos(&format!("{level} {control}"));
        }
    }
    assert!(pos("Top inner") < pos("Middle button") && pos("Middle inner") < pos("Leaf button"));
    a.close(tab).await;
}

#[tokio::test]
async fn every_element_action_by_uid_lands_in_its_frame_at_every_level() {
    let (_serial, a) = Agent::alone(&SERIAL, "frames").await;
    let (tab, r, port) = three_levels_extracted(&a).await;
    let md = r["markdown"].as_str().expect("markdown").to_owned();
    let frames = [
        ("Top", None),
        (
            "Middle",
            Some(frame_id(&md, &format!("http://127.0.0.2:{port}"))),
        ),
        (
            "Leaf",
            Some(frame_id(&md, &format!("http://localhost:{port}"))),
        ),
    ];
    for (level, frame) in &frames {
        let by = |role: &str, name: &str| uid_of(&r, role, &format!("{level} {name}"));
        a.act(tab, "click", json!({ "uid": by("button", "button") }))
            .await;
        let typed = format!("{level} typed");
        a.act(
            tab,
            "type",
            json!({ "uid": by("textbox", "field"), "text": typed }),
        )
        .await;
        let choice = by("combobox", "choice");
        a.act(
            tab,
            "select_option",
            json!({ "uid": choice, "value": "two" }),
        )
        .await;
        a.act(tab, "check", json!({ "uid": by("checkbox", "check") }))
            .await;
        a.act(tab, "hover", json!({ "uid": by("link", "hover") }))
            .await;
        a.act(
            tab,
            "scroll",
            json!({ "uid": by("button", "inner"), "dy": 100 }),
        )
        .await;
        assert_eq!(
            state(&a, tab, frame.as_deref()).await,
            json!([1, format!("{level} typed"), "two", true, true, 100]),
            "{level}"
        );
    }
    // evaluate in a chosen frame runs there: by frame id and by a uid inside it.
    for (level, frame) in &frames[1..] {
        let href = eval_in(&a, tab, frame.as_deref(), "return location.href").await;
        let want = match *level {
            "Middle" => format!("http://127.0.0.2:{port}/frames/middle.html"),
            _ => format!("http://localhost:{port}/frames/leaf.html"),
        };
        assert_eq!(href, json!(want));
        let button = uid_of(&r, "button", &format!("{level} button"));
        let by_uid = eval_in(&a, tab, Some(&button), "return location.href").await;
        assert_eq!(by_uid, json!(want));
    }
    a.close(tab).await;
}

#[tokio::test]
async fn a_frame_navigating_to_an_unknown_scheme_does_not_end_the_session() {
    let (_serial, a) = Agent::alone(&SERIAL, "frames").await;
    let mut events = support::Events::subscribe(&a.client).await;
    let (tab, r, port) = three_levels_extracted(&a).await;
    let md = r["markdown"].as_str().expect("markdown").to_owned();
    let leaf = frame_id(&md, &format!("http://localhost:{port}"));
    // Chrome detaches the whole tab's debugger for this (reason target_closed) although the tab stays.
    let leave =
        "setTimeout(() => { location.href = 'bua-unknown-scheme://nowhere'; }, 0); return 1";
    eval_in(&a, tab, Some(&leaf), leave).await;
    // The next actions work on the same tab, in the page and in its frames.
    let r = three_levels_read(&a, tab)
        .await
        .expect("extract reads the three levels again");
    let md = r["markdown"].as_str().expect("markdown").to_owned();
    let mid = frame_id(&md, &format!("http://127.0.0.2:{port}"));
    let href = eval_in(&a, tab, Some(&mid), "return location.href").await;
    assert_eq!(
        href,
        json!(format!("http://127.0.0.2:{port}/frames/middle.html"))
    );
    // A click is reported done only when the page got it. (While Chrome handles the unknown scheme it may
    // ignore input to the tab; then the click must say so, never claim success.)
    for (level, frame) in [("Top", None), ("Middle", Some(mid.as_str()))] {
        let clicked = a
            .client
            .call(
                "click",
                json!({ "tabId": tab, "uid": uid_of(&r, "button", &format!("{level} button")) }),
            )
            .await;
        let got = state(&a, tab, frame).await[0].clone();
        match clicked {
            Ok(_) => assert_eq!(got, json!(1), "{level}: click reported done"),
            Err(e) => {
                assert_eq!(e.code().as_str(), "element_obstructed", "{level}: {e}");
                assert_eq!(got, json!(0), "{level}: click reported failed");
            }
        }
    }
    events
        .assert_count(Duration::ZERO, 0, "the session ended", |e| {
            support::ended(e, tab, "user_stopped")
        })
        .await;
    a.close(tab).await;
}
