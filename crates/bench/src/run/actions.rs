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

    let mut runs = vec![
        ActionRun {
            name: "click (uid)".into(),
            bare: "3 × Input.dispatchMouseEvent".into(),
            ..ActionRun::default()
        },
        ActionRun {
            name: "type (uid)".into(),
            bare: "DOM.focus + 10 × Input.dispatchKeyEvent".into(),
            ..ActionRun::default()
        },
        ActionRun {
            name: "evaluate `return 1`".into(),
            bare: "Runtime.evaluate".into(),
            ..ActionRun::default()
        },
        ActionRun {
            name: "get_tabs".into(),
            bare: "Target.getTargets".into(),
            ..ActionRun::default()
        },
    ];
    let warmup = 5;
    for i in 0..warmup + opts.action_runs {
        let record = i >= warmup;
        for (k, run) in runs.iter_mut().enumerate() {
            let (bridge_ms, bare_ms) = match k {
                0 => {
                    let t = Instant::now();
                    bench
                        .client
                        .call("click", json!({"uid": click_uid, "tabId": bench.tab_id}))
                        .await?;
                    let bridge = ms_since(t);
                    let t = Instant::now();
                    for (kind, buttons) in
                        [("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 1)]
                    {
                        let mut p = json!({"type": kind, "x": x, "y": y, "button": if buttons == 0 { "none" } else { "left" }});
                        if kind != "mouseMoved" {
                            p["clickCount"] = json!(1);
                        }
                        bench
                            .raw
                            .call("Input.dispatchMouseEvent", p, Some(&s), false)
                            .await?;
                    }
                    (bridge, ms_since(t))
                }
                1 => {
                    let t = Instant::now();
                    bench
                        .client
                        .call(
                            "type",
                            json!({"uid": input_uid, "text": "hello", "tabId": bench.tab_id}),
                        )
                        .await?;
                    let bridge = ms_since(t);
                    let t = Instant::now();
                    bench
                        .raw
                        .call(
                            "DOM.focus",
                            json!({"objectId": input_object}),
                            Some(&s),
                            false,
                        )
                        .await?;
                    // A key per character, as `type` presses them (SPEC §4).
                    for c in "hello".chars() {
                        let code = format!("Key{}", c.to_ascii_uppercase());
                        let key_code = c.to_ascii_uppercase() as u32;
                        for kind in ["keyDown", "keyUp"] {
                            let mut p = json!({"type": kind, "key": c.to_string(), "code": code,
                                "windowsVirtualKeyCode": key_code});
                            if kind == "keyDown" {
                                p["text"] = json!(c.to_string());
                            }
                            bench
                                .raw
                                .call("Input.dispatchKeyEvent", p, Some(&s), false)
                                .await?;
                        }
                    }
                    (bridge, ms_since(t))
                }
                2 => {
                    let t = Instant::now();
                    bench
                        .client
                        .call(
                            "evaluate",
                            json!({"expression": "return 1", "tabId": bench.tab_id}),
                        )
                        .await?;
                    let bridge = ms_since(t);
                    let t = Instant::now();
                    bench
                        .raw
                        .call(
                            "Runtime.evaluate",
                            json!({"expression": evaluate::wrap("return 1"), "returnByValue": true, "awaitPromise": true}),
                            Some(&s),
                            false,
                        )
                        .await?;
                    (bridge, ms_since(t))
                }
                _ => {
                    let t = Instant::now();
                    bench.client.call("get_tabs", json!({})).await?;
                    let bridge = ms_since(t);
                    let t = Instant::now();
                    bench
                        .raw
                        .call("Target.getTargets", json!({}), None, false)
                        .await?;
                    (bridge, ms_since(t))
                }
            };
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
