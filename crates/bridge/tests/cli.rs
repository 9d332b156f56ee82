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
    let server = serve(&token_file, &[]);
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
        (true, json!({"pong": true}))
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
        (true, json!({"pong": true}))
    );

    let (ok, out) = call(&["get_tabs", "--port", &port, "--token-file", token_path]);
    assert!(!ok, "exit code 1 without an extension");
    assert_eq!(out["code"], "no_extension", "{out}");
    assert!(
        out["error"]
            .as_str()
            .is_some_and(|m| m.contains("extension")),
        "{out}"
    );

    let (ok, out) = call(&[
        "open_tab",
        "{\"url\": 5}",
        "--port",
        &port,
        "--token-file",
        token_path,
    ]);
    assert!(!ok);
    assert_eq!(out["code"], "invalid_action", "{out}");
    assert!(
        out["error"].as_str().is_some_and(|m| m.contains("url")),
        "names the field: {out}"
    );

    let (ok, out) = call(&[
        "open_tab",
        "{not json",
        "--port",
        &port,
        "--token-file",
        token_path,
    ]);
    assert!(!ok);
    assert_eq!(out["code"], "invalid_action", "{out}");

    let (ok, out) = call(&["ping", "--port", &port, "--token", "wrong"]);
    assert!(!ok);
    assert_eq!(out["code"], "unauthorized", "{out}");

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
        let mut server = serve(&dir.path().join("token"), &[]);
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
fn call_without_a_bridge_fails_with_json() {
    // Port 9 (discard) on loopback: nothing listens.
    let (ok, out) = call(&["ping", "--port", "9", "--token", "x"]);
    assert!(!ok);
    assert_eq!(out["code"], "internal_error", "{out}");
    assert!(
        out["error"]
            .as_str()
            .is_some_and(|m| m.contains("cannot reach bua-bridge")),
        "{out}"
    );
}
