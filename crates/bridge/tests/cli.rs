//! The `bua-bridge serve` and `bua-bridge call` front ends, as processes (no browser).

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_bua-bridge");

/// A running `bua-bridge serve`; SIGKILLed on drop if still running.
struct Serve {
    child: std::process::Child,
    port: u16,
    token: String,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The message of the error a command printed (`{code, error}`), which must have `code`.
fn error_message<'a>(out: &'a Value, code: &str) -> &'a str {
    assert_eq!(out["code"], code, "{out}");
    out["error"].as_str().unwrap_or_default()
}

fn serve(token_file: &std::path::Path, extra: &[&str]) -> Serve {
    let mut child = Command::new(BIN)
        .args(["serve", "--port", "0", "--token-file"])
        .arg(token_file)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut port = None;
    let mut token = None;
    let deadline = Instant::now() + Duration::from_secs(10);
    while port.is_none() || token.is_none() {
        let line = rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("serve prints its address and token within 10 s");
        if let Some(url) = line.split("listening on ").nth(1) {
            port = url
                .rsplit(':')
                .next()
                .and_then(|p| p.trim().parse::<u16>().ok());
        }
        if line.starts_with("pairing token") {
            token = line.rsplit(": ").next().map(str::to_string);
        }
        if line.starts_with("pair the extension") {
            assert!(line.contains("options page"), "{line}");
        }
    }
    Serve {
        child,
        port: port.expect("port"),
        token: token.expect("token"),
    }
}

fn call(args: &[&str]) -> (bool, Value) {
    let Output { status, stdout, .. } = Command::new(BIN)
        .arg("call")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run call");
    let text = String::from_utf8_lossy(&stdout);
    let value = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("call printed non-JSON {text:?}: {e}"));
    (status.success(), value)
}

#[test]
fn serve_keeps_a_user_only_token_file_and_call_prints_results_and_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let token_file = dir.path().join("bua").join("token");
    // No extension will come: fail at once instead of waiting for one to (re)connect.
    let server = serve(&token_file, &["--extension-wait", "0"]);
    let on_disk = std::fs::read_to_string(&token_file).expect("token file created");
    assert_eq!(on_disk.trim(), server.token);
    assert_eq!(server.token.len(), 64, "256-bit hex token");
    let mode = std::fs::metadata(&token_file)
        .expect("meta")
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);

    let port = server.port.to_string();
    let token_path = token_file.to_str().expect("utf-8 path");
    assert_eq!(
        call(&["ping", "--port", &port, "--token-file", token_path]),
        (
            true,
            json!({"pong": true, "serverVersion": bua_bridge::SERVER_VERSION, "extension": null})
        )
    );
    assert_eq!(
        call(&[
            "ping",
            "{}",
            "--port",
            &port,
            "--token",
            &server.token,
            "--pretty"
        ]),
        (
            true,
            json!({"pong": true, "serverVersion": bua_bridge::SERVER_VERSION, "extension": null})
        )
    );

    // `call <words…>` with the token file, expected to fail (exit code 1); the error it printed.
    let refused = |words: &[&str]| {
        let mut args = words.to_vec();
        args.extend(["--port", &port, "--token-file", token_path]);
        let (ok, out) = call(&args);
        assert!(!ok, "exit code 1 for {words:?}: {out}");
        out
    };
    let out = refused(&["get_tabs"]);
    let message = error_message(&out, "no_extension");
    assert!(message.contains("extension"), "{out}");

    let out = refused(&["open_tab", "{\"url\": 5}"]);
    let message = error_message(&out, "invalid_action");
    assert!(message.contains("url"), "names the field: {out}");

    let out = refused(&["open_tab", "{not json"]);
    assert_eq!(out["code"], "invalid_action", "{out}");

    let (ok, out) = call(&["ping", "--port", &port, "--token", "wrong"]);
    assert!(!ok);
    assert_eq!(out["code"], "unauthorized", "{out}");

    // A second serve on the same port says what is probably there.
    let output = Command::new(BIN)
        .args(["serve", "--port", &port, "--token-file", token_path])
        .stdin(Stdio::null())
        .output()
        .expect("second serve");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "binding 127.0.0.1:{port} (is a bua-bridge already running there?"
        )) && stderr.contains("Address already in use"),
        "{stderr}"
    );

    // A second serve reuses the same token file.
    drop(server);
    let again = serve(&token_file, &[]);
    assert_eq!(again.token, on_disk.trim());
}

#[test]
fn serve_stops_cleanly_on_sigterm_and_sigint() {
    let dir = tempfile::tempdir().expect("tempdir");
    for signal in [
        nix::sys::signal::Signal::SIGTERM,
        nix::sys::signal::Signal::SIGINT,
    ] {
        let mut server = serve(&dir.path().join("token"), &["--extension-wait", "0"]);
        let pid = nix::unistd::Pid::from_raw(server.child.id() as i32);
        nix::sys::signal::kill(pid, signal).expect("signal");
        let deadline = Instant::now() + Duration::from_secs(5);
        let status = loop {
            if let Some(status) = server.child.try_wait().expect("wait") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "serve did not stop within 5 s of {signal}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{signal}: {status:?}");
    }
}

#[test]
fn serve_refuses_a_malformed_extension_id() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = Command::new(BIN)
        .args([
            "serve",
            "--port",
            "0",
            "--extension-id",
            "not-an-id",
            "--token-file",
        ])
        .arg(dir.path().join("token"))
        .stdin(Stdio::null())
        .output()
        .expect("run serve");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("32 letters a-p"));
}

#[test]
fn without_a_bridge_client_commands_say_where_they_looked_and_how_to_start_one() {
    // Port 9 (discard) on loopback: nothing listens.
    for args in [
        &["call", "ping", "--port", "9", "--token", "x"][..],
        &["tabs", "--url", "ws://127.0.0.1:9", "--token", "x"],
        &["open", "https://example.com", "--port", "9", "--token", "x"],
    ] {
        let output = Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let out: Value = serde_json::from_slice(&output.stdout).expect("error JSON");
        let message = error_message(&out, "bridge_unreachable");
        assert!(
            message.starts_with("no bridge at ws://127.0.0.1:9 (")
                && message.contains("start it with `bua-bridge serve` (or `bua-bridge launch`)"),
            "{message}"
        );
    }
    // A URL that is not a WebSocket URL is the user's mistake, named as such.
    let (ok, out) = call(&["ping", "--url", "http://127.0.0.1:9", "--token", "x"]);
    assert!(!ok);
    let message = error_message(&out, "invalid_action");
    assert!(message.starts_with("--url: "), "{out}");
}

/// Runs `bua-bridge <args>` with its stdout a pipe whose reader is already gone; returns the exit
/// code and stderr.
fn run_with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let output = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_closed_stdout_ends_the_process_quietly() {
    // `bua-bridge schema | head -c 1`: the reader is gone before the first write.
    let (code, stderr) = run_with_closed_stdout(&["schema"]);
    assert_eq!(code, Some(141), "128 + SIGPIPE; stderr: {stderr}");
    assert!(stderr.is_empty(), "no panic, no message: {stderr}");

    let dir = tempfile::tempdir().expect("tempdir");
    let server = serve(&dir.path().join("token"), &["--extension-wait", "0"]);
    let port = server.port.to_string();
    // A result, an error from the bridge, and a local error: all end quietly.
    for args in [
        &["call", "ping", "--port", &port, "--token", &server.token][..],
        &["tabs", "--port", &port, "--token", &server.token],
        &[
            "call",
            "open_tab",
            "[1]",
            "--port",
            &port,
            "--token",
            &server.token,
        ],
    ] {
        let (code, stderr) = run_with_closed_stdout(args);
        assert_eq!(code, Some(141), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
    // `serve` keeps serving when its banner cannot be printed.
    let mut child = Command::new(BIN)
        .args(["serve", "--port", "0", "--token-file"])
        .arg(dir.path().join("token"))
        .stdin(Stdio::null())
        .stdout({
            let (reader, writer) = std::io::pipe().expect("pipe");
            drop(reader);
            writer
        })
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "serve is still running"
    );
    let _ = child.kill();
    let output = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn call_params_and_unknown_subcommands_are_explained() {
    // Bad params are refused before connecting (port 9: nothing listens), naming the problem.
    let (ok, out) = call(&["open_tab", "{url: 1}", "--port", "9", "--token", "x"]);
    assert!(!ok);
    let message = error_message(&out, "invalid_action");
    assert!(
        message.starts_with("params: not valid JSON (key must be a string at line 1 column 2)")
            && message.contains("single quotes"),
        "{message}"
    );
    let (ok, out) = call(&[
        "open_tab",
        "\"https://x.example\"",
        "--port",
        "9",
        "--token",
        "x",
    ]);
    assert!(!ok);
    let message = error_message(&out, "invalid_action");
    assert!(
        message.starts_with("params: expected a JSON object, got a string"),
        "{out}"
    );
    // A malformed --owner is refused before connecting, naming where it came from.
    let output = Command::new(BIN)
        .args(["tabs", "--port", "9", "--token", "x"])
        .env("BUA_OWNER", "two\nlines")
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(1));
    let out: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let message = error_message(&out, "invalid_action");
    assert!(
        message.starts_with("BUA_OWNER: the owner contains a control character"),
        "{out}"
    );
    // An unknown subcommand: the error, the nearest name, and the list of subcommands.
    let output = Command::new(BIN).arg("tab").output().expect("run");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    for part in [
        "unrecognized subcommand 'tab'",
        "similar subcommand exists: 'tabs'",
        // The list of subcommands.
        "Commands:",
        "  screenshot ",
    ] {
        assert!(stderr.contains(part), "{part}: {stderr}");
    }
}

#[test]
fn a_newcomer_without_a_token_is_told_to_start_the_bridge_first() {
    let home = tempfile::tempdir().expect("tempdir");
    let token_file = home.path().join(".config").join("bua").join("token");
    let tabs = |port: &str| {
        let output = Command::new(BIN)
            .args(["tabs", "--port", port])
            .env("HOME", home.path())
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::null())
            .output()
            .expect("run");
        assert_eq!(output.status.code(), Some(1));
        serde_json::from_slice::<Value>(&output.stdout).expect("JSON")
    };
    // No bridge and no token: the bridge is the first thing to fix.
    let out = tabs("9");
    assert_eq!(out["code"], "bridge_unreachable", "{out}");
    // A bridge (with its token elsewhere) but no token file here: say which file and who makes it.
    let dir = tempfile::tempdir().expect("tempdir");
    let server = serve(&dir.path().join("token"), &["--extension-wait", "0"]);
    let out = tabs(&server.port.to_string());
    assert_eq!(out["code"], "unauthorized", "{out}");
    assert_eq!(
        out["error"],
        format!(
            "no pairing token: {} does not exist; `bua-bridge serve` creates it (or pass --token or --token-file)",
            token_file.display()
        )
    );
}

/// Runs `bua-bridge <args>` with `env` added (and BUA_* cleared otherwise); returns (exit code,
/// stdout JSON or Null, stderr).
fn run_with_env(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, Value, String) {
    let mut command = Command::new(BIN);
    command.args(args).stdin(Stdio::null());
    for key in ["BUA_PORT", "BUA_URL", "BUA_TOKEN", "BUA_OWNER"] {
        command.env_remove(key);
    }
    command.envs(env.iter().copied());
    let output = command.output().expect("run");
    let stdout = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (
        output.status.code(),
        stdout,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

// After `launch --port 0` every command used to need `--port N --token T`; the `BUA_*` variables carry them.
#[test]
fn bua_port_url_and_token_reach_the_bridge_and_flags_still_win() {
    let dir = tempfile::tempdir().expect("tempdir");
    let token_file = dir.path().join("token");
    let server = serve(&token_file, &["--extension-wait", "0"]);
    let port = server.port.to_string();
    let url = format!("ws://127.0.0.1:{port}");
    let token_path = token_file.to_str().expect("utf-8 path");
    // A v4 client's ping also names the bridge's version and the extension it serves (none here).
    let pong = (
        Some(0),
        json!({"pong": true, "serverVersion": bua_bridge::SERVER_VERSION, "extension": null}),
    );
    let ok = |args: &[&str], env: &[(&str, &str)]| {
        let (code, out, _) = run_with_env(args, env);
        (code, out)
    };
    assert_eq!(
        ok(
            &["call", "ping"],
            &[("BUA_PORT", &port), ("BUA_TOKEN", &server.token)]
        ),
        pong
    );
    assert_eq!(
        ok(
            &["call", "ping"],
            &[("BUA_URL", &url), ("BUA_TOKEN", &server.token)]
        ),
        pong
    );
    // The friendly subcommands read them too (no extension: the bridge answers no_extension).
    let (code, out) = ok(
        &["tabs"],
        &[("BUA_PORT", &port), ("BUA_TOKEN", &server.token)],
    );
    assert_eq!(
        (code, &out["code"]),
        (Some(1), &json!("no_extension")),
        "{out}"
    );
    // A flag on the command line beats the environment: --token-file over $BUA_TOKEN, --port
    // over $BUA_URL.
    assert_eq!(
        ok(
            &["call", "ping", "--token-file", token_path],
            &[("BUA_PORT", &port), ("BUA_TOKEN", "wrong-token")]
        ),
        pong
    );
    assert_eq!(
        ok(
            &["call", "ping", "--port", &port],
            &[
                ("BUA_URL", "ws://127.0.0.1:9"),
                ("BUA_TOKEN", &server.token)
            ]
        ),
        pong
    );
    let (code, out) = ok(
        &["call", "ping"],
        &[("BUA_PORT", &port), ("BUA_TOKEN", "wrong-token")],
    );
    assert_eq!(
        (code, &out["code"]),
        (Some(1), &json!("unauthorized")),
        "{out}"
    );
    // Both token flags on the command line are still a conflict.
    let (code, _, stderr) = run_with_env(
        &["call", "ping", "--token", "t", "--token-file", token_path],
        &[],
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--token and --token-file cannot be used together"),
        "{stderr}"
    );
    // --help names the variables, never the token's value.
    for sub in ["tabs", "mcp", "call"] {
        let help = Command::new(BIN)
            .args([sub, "--help"])
            .env("BUA_TOKEN", "secret-token-value")
            .output()
            .expect("help");
        let help = String::from_utf8_lossy(&help.stdout);
        for name in ["[env: BUA_PORT=", "[env: BUA_URL=", "[env: BUA_TOKEN]"] {
            assert!(help.contains(name), "{sub} --help lacks {name}: {help}");
        }
        assert!(!help.contains("secret-token-value"), "{help}");
    }
}

// The bridge used to log "Connection reset without closing handshake" for most CLI calls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cli_call_ends_with_the_closing_handshake() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port().to_string();
    // A fake bridge: ack, pong, then report how the client ended the connection.
    let bridge = tokio::spawn(async move {
        let (stream, _) = listener.accept().await.expect("accept");
        let mut ws = tokio_tungstenite::accept_async(stream)
            .await
            .expect("upgrade");
        let mut ended = String::from("nothing");
        while let Some(message) = ws.next().await {
            match message {
                Ok(Message::Text(text)) => {
                    let frame: Value = serde_json::from_str(text.as_str()).expect("JSON");
                    let reply = if frame["type"] == "hello" {
                        json!({"type": "ack", "protocolVersion": 4, "serverVersion": "fake", "clientId": "cli-fake0001"})
                    } else {
                        json!({"id": frame["id"], "success": true, "result": {"pong": true}})
                    };
                    ws.send(Message::text(reply.to_string()))
                        .await
                        .expect("send");
                }
                Ok(Message::Close(frame)) => {
                    ended = format!("close {}", frame.map_or(0, |f| u16::from(f.code)));
                    // Let tungstenite answer the close before the stream ends.
                    while let Some(Ok(_)) = ws.next().await {}
                    break;
                }
                Ok(_) => {}
                Err(e) => {
                    ended = format!("error: {e}");
                    break;
                }
            }
        }
        ended
    });
    let args = ["call", "ping", "--port", &port, "--token", "t"].map(String::from);
    let (code, out, stderr) = tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run_with_env(&args, &[])
    })
    .await
    .expect("join");
    assert_eq!((code, out), (Some(0), json!({"pong": true})), "{stderr}");
    let ended = tokio::time::timeout(Duration::from_secs(5), bridge)
        .await
        .expect("the fake bridge sees the end")
        .expect("join");
    assert_eq!(ended, "close 1000");
}
