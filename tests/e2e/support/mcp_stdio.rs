//! `bua-bridge mcp` run as an MCP host runs it: a child process spoken to in JSON-RPC, one message a line
//! on its stdin and stdout.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStderr, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::bridge_bin;

/// How long a request may wait for its answer.
const ANSWER_LIMIT: Duration = Duration::from_secs(30);

/// A `bua-bridge mcp` process. Dropped, it is ended as a host ends it (stdin closed), killed after 5 s.
pub struct McpStdio {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    next_id: i64,
}

impl McpStdio {
    /// Spawns `bua-bridge mcp <args>`, its log going to `stderr`; its stdout is read on a thread of its own.
    pub fn spawn(args: &[&str], stderr: Stdio) -> McpStdio {
        McpStdio::spawn_bin(&bridge_bin(), args, stderr)
    }

    /// [`McpStdio::spawn`] of the binary `bin` (a release build's, say).
    pub fn spawn_bin(bin: &std::path::Path, args: &[&str], stderr: Stdio) -> McpStdio {
        let mut child = Command::new(bin)
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("spawn bua-bridge mcp");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        McpStdio {
            child,
            stdin,
            lines,
            next_id: 1,
        }
    }

    /// Says `initialize` as client `name`, then `notifications/initialized`; returns the `initialize`
    /// answer, whose server must be `bua-bridge`.
    pub fn initialize(&mut self, name: &str) -> Value {
        let init = self.call(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": name, "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "bua-bridge", "{init}");
        self.notify("notifications/initialized");
        init
    }

    /// The process's stderr, when it was spawned with `Stdio::piped()` (once).
    pub fn take_stderr(&mut self) -> Option<ChildStderr> {
        self.child.stderr.take()
    }

    fn write(&mut self, v: Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{v}").expect("write");
        stdin.flush().expect("flush");
    }

    pub fn notify(&mut self, method: &str) {
        self.write(json!({"jsonrpc": "2.0", "method": method}));
    }

    /// Sends request `method` without waiting; returns its id for [`McpStdio::answer`].
    pub fn send(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The answer to request `id` (other lines skipped); panics after 30 s.
    pub fn answer(&mut self, id: i64) -> Value {
        let deadline = Instant::now() + ANSWER_LIMIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!(
                    "no answer to request {id} within {} s",
                    ANSWER_LIMIT.as_secs()
                )
            });
            let v: Value = serde_json::from_str(&line).expect("JSON-RPC line");
            if v["id"] == id {
                return v;
            }
        }
    }

    /// Sends request `method` and waits for its answer.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        self.answer(id)
    }

    /// Sends a `browser` tool call without waiting; [`McpStdio::result`] reads its answer.
    pub fn send_browser(&mut self, arguments: Value) -> i64 {
        self.send(
            "tools/call",
            json!({"name": "browser", "arguments": arguments}),
        )
    }

    /// The answer of tool call `id`: (isError, the text of its first block as the server sent it,
    /// page content inside its boundary, SPEC §9 "Boundaries").
    pub fn result_raw(&mut self, id: i64) -> (bool, String) {
        let call = self.answer(id);
        let text = call["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no text block: {call}"))
            .to_string();
        (call["result"]["isError"] == true, text)
    }

    /// The answer of tool call `id`: (isError, the text of its first block, a success's page
    /// content taken out of its boundary).
    pub fn result(&mut self, id: i64) -> (bool, String) {
        let (is_error, text) = self.result_raw(id);
        (is_error, super::inside_boundary(&text))
    }

    /// Calls the browser tool and returns (isError, text inside the boundary).
    pub fn browser(&mut self, arguments: Value) -> (bool, String) {
        let id = self.send_browser(arguments);
        self.result(id)
    }

    /// Calls the browser tool and returns (isError, text as sent, boundary and all).
    pub fn browser_raw(&mut self, arguments: Value) -> (bool, String) {
        let id = self.send_browser(arguments);
        self.result_raw(id)
    }

    /// Closes stdin, as an MCP host does to end the server; whether it exited within `limit`.
    fn close(&mut self, limit: Duration) -> bool {
        self.stdin.take();
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// Ends the process the way an MCP host does: closes stdin; panics unless it exits within 5 s.
    pub fn exit(mut self) {
        assert!(
            self.close(Duration::from_secs(5)),
            "bua-bridge mcp did not exit within 5 s of its stdin closing"
        );
    }

    /// Kills the process at once (SIGKILL): its in-process bridge goes with it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for McpStdio {
    fn drop(&mut self) {
        if !self.close(Duration::from_secs(5)) {
            self.kill();
        }
    }
}
