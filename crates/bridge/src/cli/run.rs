//! Running a client subcommand against the bridge: one request, sent again across a takeover when
//! that is safe (SPEC §9), or the event stream followed until a count, a time or the bridge's end.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{json, Value};

use super::connection::Connection;
use super::failure::Failure;
use super::render::{fail, print_line, render, succeed, to_text};
use super::request::Request;
use crate::client::{after_connection_lost, BridgeClient};
use crate::error::{Error, Result};

/// Connects, sends one request, prints its rendered result; exit status 0, or 1 with the error JSON.
pub async fn run(conn: &Connection, request: Request, pretty: bool) -> ExitCode {
    let client = match conn.connect().await {
        Ok(c) => c,
        Err(f) => return fail(&f, pretty),
    };
    let (client, answer) = call_across_takeover(conn, client, &request).await;
    // Close before printing: the bridge sees a clean close, not a reset, when the process exits.
    if let Some(client) = client {
        client.close().await;
    }
    match answer {
        Ok(result) => match render(&result, &request.output, pretty) {
            Ok(text) => succeed(&text),
            Err(f) => fail(&f, pretty),
        },
        Err(e) => fail(&Failure::from(e), pretty),
    }
}

/// Sends `request` on `client`; when the bridge goes away before answering and sending it again is
/// safe ([`after_connection_lost`]), connects again — to the bridge that took the port over, for up
/// to 5 s — and sends it again (SPEC §9, "Takeover"). Returns the client last used (none when the
/// reconnect failed) and the answer.
async fn call_across_takeover(
    conn: &Connection,
    mut client: BridgeClient,
    request: &Request,
) -> (Option<BridgeClient>, Result<Value>) {
    const WINDOW: Duration = Duration::from_secs(5);
    for _ in 0..3 {
        let answer = client.call(&request.method, request.params.clone()).await;
        let lost = match answer {
            Err(e @ (Error::Closed(_) | Error::NotSent(_))) => e,
            other => return (Some(client), other),
        };
        if let Err(e) = after_connection_lost(&request.method, lost) {
            return (Some(client), Err(e));
        }
        let deadline = tokio::time::Instant::now() + WINDOW;
        client = loop {
            match conn.connect_client().await {
                Ok(c) => break c,
                Err(e) if e.is_bridge_gone() && tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => return (None, Err(e)),
            }
        };
    }
    let answer = client.call(&request.method, request.params.clone()).await;
    (Some(client), answer)
}

/// `events`: subscribes and prints each forwarded event as one JSON line (with `"dropped": N`
/// when the bridge dropped older events), until `count` events were printed, `limit` passed, the
/// bridge closed, or the process is interrupted. Exit status 0 unless subscribing failed or the
/// bridge went away (then a `bridge_unreachable` failure, status 1).
pub async fn follow_events(
    conn: &Connection,
    count: Option<u64>,
    limit: Option<Duration>,
    pretty: bool,
) -> ExitCode {
    let client = match conn.connect().await {
        Ok(c) => c,
        Err(f) => return fail(&f, pretty),
    };
    let code = print_events(&client, count, limit, pretty).await;
    client.close().await;
    code
}

/// The failure `events` ends with when the connection to the bridge ends (`why`: the client's words):
/// code `bridge_unreachable`, since no bridge answers any more.
fn bridge_gone(why: &str) -> Failure {
    Failure {
        code: crate::error::BRIDGE_UNREACHABLE.into(),
        message: format!(
            "{why}: the bridge stopped, so no more events will come; start it again (`bua-bridge serve` or \
             `bua-bridge launch`) and run `bua-bridge events` again"
        ),
    }
}

/// The loop of [`follow_events`] on a connected client.
async fn print_events(
    client: &BridgeClient,
    count: Option<u64>,
    limit: Option<Duration>,
    pretty: bool,
) -> ExitCode {
    let mut events = client.forwarded_events();
    if let Err(e) = client.call("subscribe_events", json!({})).await {
        return fail(&Failure::from(e), pretty);
    }
    // Tell a watching script that the subscription is live (stderr keeps stdout pure JSON lines).
    let _ = writeln!(
        std::io::stderr(),
        "bua-bridge: following events as {}",
        client.client_id()
    );
    let deadline = limit.map(|l| tokio::time::Instant::now() + l);
    let mut printed = 0u64;
    loop {
        if count.is_some_and(|c| printed >= c) {
            return ExitCode::SUCCESS;
        }
        let next = async {
            match deadline {
                Some(d) => tokio::time::timeout_at(d, events.recv()).await.ok(),
                None => Some(events.recv().await),
            }
        };
        let received = tokio::select! {
            r = next => r,
            why = client.closed() => return fail(&bridge_gone(&why), pretty),
            _ = tokio::signal::ctrl_c() => return ExitCode::SUCCESS,
        };
        let line = match received {
            None => return ExitCode::SUCCESS, // time is up
            Some(Ok(e)) => {
                let mut frame = e.event;
                if e.dropped > 0 {
                    if let Value::Object(m) = &mut frame {
                        m.insert("dropped".into(), json!(e.dropped));
                    }
                }
                frame
            }
            Some(Err(tokio::sync::broadcast::error::RecvError::Lagged(n))) => {
                json!({"type": "dropped", "dropped": n})
            }
            Some(Err(tokio::sync::broadcast::error::RecvError::Closed)) => {
                return fail(&bridge_gone("the bridge closed the connection"), pretty)
            }
        };
        if let Err(code) = print_line(&to_text(&line, pretty)) {
            return code; // stdout closed (e.g. `| head`)
        }
        printed += 1;
    }
}
