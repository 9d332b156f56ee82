//! Where an extract's time goes: its CDP commands timed raw and through the extension's
//! `chrome.debugger`, one by one and pipelined as the extension sends them.

use std::time::Duration;

use bua_bridge::devtools::DevTools;
use bua_extension::extract::{page, snapshot};
use serde_json::{json, Value};

use super::bench::Bench;
use super::results::{CommandTiming, Profile};
use crate::stats;
use crate::BenchError;

impl Bench {
    /// The CDP commands of one extract, `runs` times raw and `runs` times through the extension's
    /// `chrome.debugger` (evaluated in its service worker on the same tab): their medians.
    pub(super) async fn profile(
        &mut self,
        runs: usize,
        dom_nodes: u64,
    ) -> Result<Profile, BenchError> {
        // The extension takes its elements from the DOM snapshot on every page (SPEC §5): no AX tree.
        let uses_ax = false;
        let commands = [
            (
                "Runtime.evaluate",
                json!({"expression": page::page_info_expression(), "returnByValue": true}),
            ),
            ("DOMSnapshot.captureSnapshot", snapshot_params()),
        ];
        let (dt, worker_session) = self.attach_worker().await?;
        let list = Value::Array(commands.iter().map(|(m, p)| json!([m, p])).collect());
        // One run of every command through chrome.debugger, as the extension sends them.
        let script = format!(
            "(async () => {{ const t = {{tabId: {tab}}}; const out = []; \
             for (const [m, p] of {list}) {{ const t0 = performance.now(); \
             const r = await chrome.debugger.sendCommand(t, m, p); const t1 = performance.now(); \
             const s = JSON.stringify(r); out.push([t1 - t0, performance.now() - t1, s.length]); }} \
             return out; }})()",
            tab = self.tab_id
        );
        let n = commands.len();
        let (mut raw, mut dbg, mut json_ms) = (
            vec![Vec::new(); n],
            vec![Vec::new(); n],
            vec![Vec::new(); n],
        );
        let mut bytes = vec![0usize; n];
        // The same commands as the extension pipelines them (src/extract/mod.rs `extract`).
        let pipelined_script = format!(
            "(async () => {{ const t = {{tabId: {tab}}}; const t0 = performance.now(); \
             const send = (m, p) => chrome.debugger.sendCommand(t, m, p).then(r => JSON.stringify(r).length); \
             const info = send('Runtime.evaluate', {info}); \
             const snap = send('DOMSnapshot.captureSnapshot', {snap}); \
             await Promise.all([info, snap]); return performance.now() - t0; }})()",
            tab = self.tab_id,
            info = json!({"expression": page::page_info_expression(), "returnByValue": true}),
            snap = snapshot_params(),
        );
        let mut pipelined = Vec::new();
        let mut outcome = Ok(());
        for _ in 0..runs {
            for (k, (method, params)) in commands.iter().enumerate() {
                match self
                    .raw
                    .call(method, params.clone(), Some(&self.session), false)
                    .await
                {
                    Ok(r) => {
                        raw[k].push(r.ms);
                        bytes[k] = r.bytes;
                    }
                    Err(e) => outcome = Err(e),
                }
            }
            match worker_value(&dt, &worker_session, &script).await {
                Ok(v) => {
                    let rows = v.as_array().cloned().unwrap_or_default();
                    for (k, row) in rows.iter().enumerate().take(n) {
                        let at = |i: usize| row.get(i).and_then(Value::as_f64).unwrap_or(0.0);
                        dbg[k].push(at(0));
                        json_ms[k].push(at(1));
                    }
                }
                Err(e) => outcome = Err(e),
            }
            match worker_value(&dt, &worker_session, &pipelined_script).await {
                Ok(v) => pipelined.extend(v.as_f64()),
                Err(e) => outcome = Err(e),
            }
            if outcome.is_err() {
                break;
            }
        }
        dt.detach(&worker_session).await;
        outcome?;
        Ok(Profile {
            commands: commands
                .iter()
                .enumerate()
                .map(|(k, (method, _))| CommandTiming {
                    method: method.to_string(),
                    raw_ms: stats::median(&raw[k]).unwrap_or(0.0),
                    debugger_ms: stats::median(&dbg[k]).unwrap_or(0.0),
                    stringify_ms: stats::median(&json_ms[k]).unwrap_or(0.0),
                    bytes: bytes[k],
                })
                .collect(),
            uses_ax,
            dom_nodes,
            pipelined_ms: stats::median(&pipelined),
        })
    }
}

/// Evaluates `script` in the service worker's flat CDP session (awaiting a promise) and returns its
/// JSON value (`null` when it has none); the profile's timing scripts run this way.
async fn worker_value(dt: &DevTools, session: &str, script: &str) -> Result<Value, BenchError> {
    let answer = dt
        .send_timeout(
            "Runtime.evaluate",
            json!({"expression": script, "awaitPromise": true, "returnByValue": true}),
            Some(session),
            Duration::from_secs(120),
        )
        .await?;
    Ok(answer
        .pointer("/result/value")
        .cloned()
        .unwrap_or(Value::Null))
}

/// The extension's own `DOMSnapshot.captureSnapshot` params as JSON (what it sends through `chrome.debugger`).
fn snapshot_params() -> Value {
    serde_json::to_value(snapshot::capture_params()).unwrap_or_default()
}
