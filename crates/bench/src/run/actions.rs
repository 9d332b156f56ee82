//! Action round trips: click, type, evaluate and get_tabs through a bridge client against their bare
//! CDP commands on the same tab, interleaved.

use std::time::Instant;

use bua_extension::actions::evaluate;
use serde_json::{json, Value};

use super::bench::{ms_since, progress, uid_of, Bench};
use super::options::Options;
use super::results::{ActionRun, Results};
use crate::BenchError;

/// Action round trips on the actions page; returns the click uid.
/// A bare CDP command: method, params, the session it goes to (`None`: the browser).
type BareCommand = (&'static str, Value, Option<String>);

/// One action as measured: through the bridge (method, params), and as its bare CDP commands.
struct Pair {
    name: &'static str,
    bare_label: &'static str,
    bridge: (&'static str, Value),
    bare: Vec<BareCommand>,
}

pub(super) async fn actions(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<String, BenchError> {
    progress(&format!("actions: {} round trips each", opts.action_runs));
    bench.load("/actions.html").await?;
    let (_, extract) = bench.extract().await?;
    let click_uid = uid_of(&extract, "Bench click")
        .ok_or_else(|| BenchError::Unexpected("no 'Bench click' element in extract".into()))?;
    let input_uid = uid_of(&extract, "Bench input")
        .ok_or_else(|| BenchError::Unexpected("no 'Bench input' element in extract".into()))?;
    let s = bench.session.clone();
    let centre = bench
        .raw
        .eval(
            &s,
            "(() => { const r = document.getElementById('bench-click').getBoundingClientRect(); \
             return [Math.floor(r.left + r.width / 2), Math.floor(r.top + r.height / 2)]; })()",
        )
        .await?;
    let x = centre.get(0).and_then(Value::as_f64).unwrap_or(0.0);
    let y = centre.get(1).and_then(Value::as_f64).unwrap_or(0.0);
    let input_object = bench
        .raw
        .result(
            "Runtime.evaluate",
            json!({"expression": "document.getElementById('bench-input')"}),
            Some(&s),
        )
        .await?
        .pointer("/result/objectId")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| BenchError::Unexpected("no objectId for #bench-input".into()))?;

    // Each action twice: through the bridge, and as the bare CDP commands it needs on the same tab.
    let tab = bench.tab_id;
    let session = Some(s.clone());
    let mouse = |kind: &str| {
        let mut p = json!({"type": kind, "x": x, "y": y, "button": if kind == "mouseMoved" { "none" } else { "left" }});
        if kind != "mouseMoved" {
            p["clickCount"] = json!(1);
        }
        ("Input.dispatchMouseEvent", p, session.clone())
    };
    let table = [
        Pair {
            name: "click (uid)",
            bare_label: "3 × Input.dispatchMouseEvent",
            bridge: ("click", json!({"uid": click_uid, "tabId": tab})),
            bare: vec![
                mouse("mouseMoved"),
                mouse("mousePressed"),
                mouse("mouseReleased"),
            ],
        },
        Pair {
            name: "type (uid)",
            bare_label: "DOM.focus + 10 × Input.dispatchKeyEvent",
            bridge: (
                "type",
                json!({"uid": input_uid, "text": "hello", "tabId": tab}),
            ),
            // A key per character, as `type` presses them (SPEC §4).
            bare: std::iter::once((
                "DOM.focus",
                json!({"objectId": input_object}),
                session.clone(),
            ))
            .chain("hello".chars().flat_map(|c| {
                let (code, key_code) = (format!("Key{}", c.to_ascii_uppercase()), c.to_ascii_uppercase() as u32);
                ["keyDown", "keyUp"].map(|kind| {
                    let mut p = json!({"type": kind, "key": c.to_string(), "code": code, "windowsVirtualKeyCode": key_code});
                    if kind == "keyDown" {
                        p["text"] = json!(c.to_string());
                    }
                    ("Input.dispatchKeyEvent", p, session.clone())
                })
            }))
            .collect(),
        },
        Pair {
            name: "evaluate `return 1`",
            bare_label: "Runtime.evaluate",
            bridge: ("evaluate", json!({"expression": "return 1", "tabId": tab})),
            bare: vec![(
                "Runtime.evaluate",
                json!({"expression": evaluate::wrap("return 1"), "returnByValue": true, "awaitPromise": true}),
                session.clone(),
            )],
        },
        Pair {
            name: "get_tabs",
            bare_label: "Target.getTargets",
            bridge: ("get_tabs", json!({})),
            bare: vec![("Target.getTargets", json!({}), None)],
        },
    ];
    let mut runs: Vec<ActionRun> = table
        .iter()
        .map(|pair| ActionRun {
            name: pair.name.into(),
            bare: pair.bare_label.into(),
            ..ActionRun::default()
        })
        .collect();
    let warmup = 5;
    for i in 0..warmup + opts.action_runs {
        let record = i >= warmup;
        for (run, pair) in runs.iter_mut().zip(&table) {
            let (method, params) = &pair.bridge;
            let t = Instant::now();
            bench.client.call(method, params.clone()).await?;
            let bridge_ms = ms_since(t);
            let t = Instant::now();
            for (method, params, session) in &pair.bare {
                bench
                    .raw
                    .call(method, params.clone(), session.as_deref(), false)
                    .await?;
            }
            let bare_ms = ms_since(t);
            if record {
                run.bridge_ms.push(bridge_ms);
                run.bare_ms.push(bare_ms);
            }
        }
    }
    let clicks = bench
        .raw
        .eval(&s, "+document.getElementById('count').value")
        .await?
        .as_u64()
        .unwrap_or(0);
    let expected = 2 * (warmup + opts.action_runs) as u64;
    if clicks != expected {
        results.failures.push(format!(
            "actions: the page counted {clicks} clicks, expected {expected} (bridge + bare)"
        ));
    }
    results.actions = runs;
    Ok(click_uid)
}
