//! End-to-end harness: real headless Chromium with the built extension, the real `bua-bridge`,
//! fixture pages from a local HTTP server, all driven through the bridge's client API.
//!
//! The module of `tests/e2e/main.rs`, the one end-to-end test binary (a `[[test]]` of
//! `crates/bridge/Cargo.toml`, so that `CARGO_BIN_EXE_bua-bridge` is set).
//!
//! * [`FixtureServer`] — HTTP on 127.0.0.1 serving a directory plus programmable [`Route`]s
//!   (redirects, slow responses, status codes). It runs on its own thread and runtime, so one server
//!   can be shared by every test of a binary ([`FixtureServer::shared`] serves `tests/fixtures`).
//! * [`Browser`] — runs `bua-bridge launch --headless --port 0 --exit-on-stdin-close
//!   --ephemeral-token --extension <repo>/dist` and parses `READY`. [`Browser::shared`] lends the
//!   browser of an area (a module: `actions`, `sessions`, …) to its tests; [`Browser::launch`] starts a
//!   dedicated one. At most two are alive at once (2 cores). Each is stopped on drop; the last shared
//!   one (kept in a static, never dropped) stops when the test process exits, because `launch` watches
//!   its stdin. So nothing survives a panicking test.
//! * Helpers to reach the extension's service worker through DevTools (storage, evaluation).
//! * [`Agent`] — one agent's steps on an area's fixture pages (`agent.rs`); [`McpStdio`] — a
//!   `bua-bridge mcp` process on JSON-RPC lines (`mcp_stdio.rs`).

#![allow(dead_code)]

mod agent;
mod mcp_stdio;

pub use agent::{uid_of, Agent};
pub use mcp_stdio::McpStdio;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use bua_bridge::devtools::{self, DevTools, TargetInfo};
use bua_bridge::BridgeClient;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// Paths

/// The repository root (two levels above `crates/bridge`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// `<repo>/dist`, the built extension; panics with the fix when it is missing.
pub fn dist_dir() -> PathBuf {
    let dist = repo_root().join("dist");
    if !dist.join("manifest.json").is_file() || !dist.join("background.js").is_file() {
        panic!(
            "the built extension is missing ({} has no manifest.json/background.js): run ./build.sh first",
            dist.display()
        );
    }
    dist
}

/// `<repo>/tests/fixtures`.
pub fn fixtures_dir() -> PathBuf {
    repo_root().join("tests").join("fixtures")
}

/// The `bua-bridge` binary cargo built for this test.
pub fn bridge_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_bua-bridge"))
}

/// Runs `command` to its end and returns its stdout; panics, showing its stdout and stderr, when it cannot
/// be started or exits unsuccessfully (`what` names it in the message).
pub fn stdout_of(command: &mut Command, what: &str) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("run {what}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

// ---------------------------------------------------------------------------------------------
// Fixture HTTP server

pub use bua_bridge::site::Route;
use bua_bridge::site::StaticSite;

/// An HTTP/1.1 server on 127.0.0.1 with a document root and programmable routes: the bridge's
/// [`StaticSite`] on a thread and runtime of its own (independent of any test's runtime).
pub struct FixtureServer {
    site: StaticSite,
}

impl FixtureServer {
    /// Starts a server for `root` on a free port, on its own thread.
    pub fn start(root: impl Into<PathBuf>) -> FixtureServer {
        let site = StaticSite::start_on_own_thread(root).expect("start the fixture server");
        FixtureServer { site }
    }

    /// One server for the whole test binary, serving `tests/fixtures`.
    pub fn shared() -> &'static FixtureServer {
        static SHARED: OnceLock<FixtureServer> = OnceLock::new();
        SHARED.get_or_init(|| FixtureServer::start(fixtures_dir()))
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.site.port()
    }

    /// `http://127.0.0.1:<port><path>` (`path` starts with `/`).
    pub fn url(&self, path: &str) -> String {
        self.site.url(path)
    }

    /// Answers `path` with `route` from now on (overrides a file of the same path).
    pub fn route(&self, path: &str, route: Route) {
        self.site.route(path, route);
    }

    /// Paths requested so far (with query strings), oldest first.
    pub fn hits(&self) -> Vec<String> {
        self.site.hits()
    }
}

/// The shared fixture server listens on 127.0.0.1 only: 127.0.0.2 (another site for Chromium, so another
/// renderer process) reaches it through this forwarder on the same port, started once per test binary.
pub fn second_site() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        let port = FixtureServer::shared().port();
        let listener = std::net::TcpListener::bind(("127.0.0.2", port))
            .unwrap_or_else(|e| panic!("bind 127.0.0.2:{port}: {e}"));
        std::thread::spawn(move || {
            for incoming in listener.incoming().flatten() {
                let Ok(upstream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
                    continue;
                };
                let (Ok(mut down_r), Ok(mut up_w)) = (incoming.try_clone(), upstream.try_clone())
                else {
                    continue;
                };
                let (mut down_w, mut up_r) = (incoming, upstream);
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut down_r, &mut up_w);
                    let _ = up_w.shutdown(std::net::Shutdown::Write);
                });
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut up_r, &mut down_w);
                    let _ = down_w.shutdown(std::net::Shutdown::Write);
                });
            }
        });
    });
}

// ---------------------------------------------------------------------------------------------
// Browser

/// At most two browsers alive at once per test binary (2 cores).
const MAX_BROWSERS: usize = 2;

static SLOTS: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// A browser slot; released on drop. Take one before starting a browser outside [`Browser::launch`].
pub struct Permit;

impl Permit {
    /// Waits for a free slot (blocking). While none is free, the shared browser is stopped as soon as no
    /// test holds it ([`Browser::shared`] starts it again for the next one).
    pub fn acquire() -> Permit {
        let (count, freed) = &SLOTS;
        loop {
            {
                let mut n = lock(count);
                if *n < MAX_BROWSERS {
                    *n += 1;
                    return Permit;
                }
            }
            // Outside the slot lock: stopping a browser gives its permit back, which takes that lock.
            if !SharedSlot::stop_if_idle() {
                // Woken by a freed permit; the timeout re-checks the shared browser, which a test may have
                // let go of meanwhile.
                let n = lock(count);
                if *n >= MAX_BROWSERS {
                    let _ = freed.wait_timeout(n, Duration::from_millis(200));
                }
            }
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let (count, freed) = &SLOTS;
        *lock(count) -= 1;
        freed.notify_all();
    }
}

/// Chromium host-resolver rules for tests: loopback names resolve, everything else is NOTFOUND at once.
pub const OFFLINE_RESOLVER_RULES: &str =
    "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.0.0.2";

/// Options of [`Browser::launch`].
#[derive(Debug, Clone, Default)]
pub struct BrowserOptions {
    /// Extra arguments for `bua-bridge launch`.
    pub extra_args: Vec<String>,
}

/// A `bua-bridge launch` process with its Chromium.
pub struct Browser {
    child: Mutex<Option<Child>>,
    stdin: Mutex<Option<ChildStdin>>,
    log: Arc<Mutex<Vec<String>>>,
    /// The bridge port on 127.0.0.1.
    pub port: u16,
    /// The pairing token.
    pub token: String,
    /// The extension id.
    pub extension_id: String,
    /// DevTools WebSocket URL of the browser.
    pub devtools_url: String,
    /// DevTools port.
    pub devtools_port: u16,
    /// Chromium's main pid (= its process group).
    pub browser_pid: i32,
    /// The temporary profile.
    pub profile_dir: PathBuf,
    /// Where the browser saves downloads (`launch`'s DEVTOOLS line).
    pub download_dir: PathBuf,
    /// Time from spawning `bua-bridge launch` to its READY line.
    pub ready_after: Duration,
    _permit: Permit,
}

impl Browser {
    /// Starts a dedicated browser (waits for a free slot first). Panics with the launch log if
    /// READY does not come within 30 s.
    pub fn launch(opts: BrowserOptions) -> Browser {
        let dist = dist_dir();
        let permit = Permit::acquire();
        let mut command = Command::new(bridge_bin());
        command
            .arg("launch")
            .arg("--headless")
            .args(["--port", "0"])
            .arg("--exit-on-stdin-close")
            .arg("--ephemeral-token")
            .arg("--extension")
            .arg(&dist)
            // Fixtures and the corpus are served on 127.0.0.1: every other host fails at once instead of
            // waiting on a DNS lookup this offline machine never answers (saved pages reference dozens).
            .arg(format!(
                "--chrome-arg=--host-resolver-rules={OFFLINE_RESOLVER_RULES}"
            ))
            .args(&opts.extra_args)
            .env(
                "BUA_LOG",
                std::env::var("BUA_LOG").unwrap_or_else(|_| "info".into()),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let started = Instant::now();
        let mut child = command.spawn().expect("spawn bua-bridge launch");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let stdin = child.stdin.take();
        let log: Arc<Mutex<Vec<String>>> = Arc::default();

        let (ready_tx, ready_rx) = mpsc::channel::<String>();
        let (devtools_tx, devtools_rx) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("READY ") {
                    let _ = ready_tx.send(line.clone());
                }
                eprintln!("[launch stdout] {line}");
            }
        });
        let stderr_log = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if line.starts_with("DEVTOOLS ") {
                    let _ = devtools_tx.send(line.clone());
                }
                if std::env::var_os("BUA_TEST_VERBOSE").is_some() {
                    eprintln!("[launch] {line}");
                }
                lock(&stderr_log).push(line);
            }
        });
        let ready = match ready_rx.recv_timeout(Duration::from_secs(30)) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "bua-bridge launch printed no READY line within 30 s; its log:\n{}",
                    lock(&log).join("\n")
                );
            }
        };
        let ready_after = started.elapsed();
        let devtools = devtools_rx
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_default();
        let fields = key_values(&ready);
        let dt = key_values(&devtools);
        Browser {
            child: Mutex::new(Some(child)),
            stdin: Mutex::new(stdin),
            log,
            port: fields
                .get("port")
                .and_then(|p| p.parse().ok())
                .expect("READY port"),
            token: fields.get("token").cloned().expect("READY token"),
            extension_id: fields
                .get("extension_id")
                .cloned()
                .expect("READY extension_id"),
            devtools_url: dt.get("ws").cloned().unwrap_or_default(),
            devtools_port: dt.get("port").and_then(|p| p.parse().ok()).unwrap_or(0),
            browser_pid: dt
                .get("browser_pid")
                .and_then(|p| p.parse().ok())
                .unwrap_or(0),
            profile_dir: dt.get("profile").map(PathBuf::from).unwrap_or_default(),
            download_dir: dt.get("downloads").map(PathBuf::from).unwrap_or_default(),
            ready_after,
            _permit: permit,
        }
    }

    /// The browser of `area` (a module of this binary: `"actions"`, `"sessions"`, …), lent to the calling test
    /// until the returned [`SharedBrowser`] drops: hold it for the whole test. The tests of one area share one
    /// browser and run concurrently on it; tests of another area wait until none of this one holds it, and then
    /// get a fresh browser of their own. So each area's tests see only the tabs, sessions, windows and settings
    /// they made themselves, as when every area was a test binary of its own with one browser. `launch` prints
    /// READY once the extension acknowledged the pairing, and the extension keeps that connection when the
    /// settings `launch` wrote arrive again (it reconnects only on a changed URL or token), so the first action
    /// of a test finds it serving. Blocks while another area holds the browser.
    pub fn shared(area: &'static str) -> SharedBrowser {
        Browser::shared_with(area, BrowserOptions::default())
    }

    /// [`Browser::shared`] for an area whose browser is launched with `opts`.
    pub fn shared_with(area: &'static str, opts: BrowserOptions) -> SharedBrowser {
        SharedSlot::lend(area, opts)
    }

    /// The bridge's `ws://` URL.
    pub fn bridge_url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    /// A new client connected to this browser's bridge.
    pub async fn client(&self) -> BridgeClient {
        BridgeClient::connect(self.port, &self.token)
            .await
            .unwrap_or_else(|e| panic!("client connect failed: {e}\nlaunch log:\n{}", self.logs()))
    }

    /// A new DevTools connection to this browser.
    pub async fn devtools(&self) -> DevTools {
        DevTools::connect(&self.devtools_url)
            .await
            .unwrap_or_else(|e| panic!("DevTools connect to {:?} failed: {e}", self.devtools_url))
    }

    /// The `launch` process's stderr so far.
    pub fn logs(&self) -> String {
        lock(&self.log).join("\n")
    }

    /// Sends SIGTERM to `launch` and waits (up to 20 s) for it to exit; `None` if already stopped.
    pub fn terminate(&self) -> Option<ExitStatus> {
        let mut child = lock(&self.child).take()?;
        let pid = nix::unistd::Pid::from_raw(child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                _ => {
                    let _ = child.kill();
                    return child.wait().ok();
                }
            }
        }
    }

    /// Closes `launch`'s stdin (it then shuts down) and waits for it.
    pub fn close_stdin(&self) -> Option<ExitStatus> {
        lock(&self.stdin).take();
        let mut child = lock(&self.child).take()?;
        child.wait().ok()
    }

    // -- the extension's service worker through DevTools --

    /// The extension's service worker target, waiting up to `limit` for it to (re)start.
    pub async fn service_worker(&self, dt: &DevTools, limit: Duration) -> TargetInfo {
        let url = devtools::service_worker_url(&self.extension_id);
        dt.wait_for_target("service_worker", |u| u == url, limit)
            .await
            .unwrap_or_else(|e| panic!("no service worker {url}: {e}"))
    }

    /// Evaluates `expression` (may be a promise) in the service worker.
    pub async fn eval_in_worker(&self, dt: &DevTools, expression: &str) -> Value {
        let worker = self.service_worker(dt, Duration::from_secs(10)).await;
        dt.evaluate_in_target(&worker.id, expression)
            .await
            .unwrap_or_else(|e| panic!("evaluate in the service worker failed: {e}"))
    }

    /// `chrome.storage.local.get(key)[key]`.
    pub async fn storage_get(&self, dt: &DevTools, key: &str) -> Value {
        let js = format!(
            "chrome.storage.local.get({k}).then(r => r[{k}] === undefined ? null : r[{k}])",
            k = devtools::js_string(key)
        );
        self.eval_in_worker(dt, &js).await
    }

    /// `chrome.storage.local.set(items)`.
    pub async fn storage_set(&self, dt: &DevTools, items: Value) {
        let js = format!("chrome.storage.local.set({items}).then(() => true)");
        self.eval_in_worker(dt, &js).await;
    }

    /// Polls `connection` in extension storage until `pred` holds (returns it) or `limit` passes (panics).
    pub async fn wait_connection_state(
        &self,
        dt: &DevTools,
        limit: Duration,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let state = self.storage_get(dt, "connection").await;
            if pred(&state) {
                return state;
            }
            if Instant::now() >= deadline {
                panic!("connection state did not reach the expected value in {limit:?}; last: {state}\nlaunch log:\n{}", self.logs());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.terminate();
    }
}

/// The one shared browser: which area it belongs to and how many of that area's tests hold it.
struct SharedSlot {
    area: Option<&'static str>,
    browser: Option<Arc<Browser>>,
    /// Tests of `area` holding (or waiting for the launch of) the browser.
    users: usize,
}

static SHARED: (Mutex<SharedSlot>, Condvar) = (
    Mutex::new(SharedSlot {
        area: None,
        browser: None,
        users: 0,
    }),
    Condvar::new(),
);

impl SharedSlot {
    fn lend(area: &'static str, opts: BrowserOptions) -> SharedBrowser {
        let (slot, changed) = &SHARED;
        let mut s = lock(slot);
        loop {
            if s.users == 0 || s.area == Some(area) {
                if s.area == Some(area) {
                    if let Some(browser) = &s.browser {
                        let browser = browser.clone();
                        s.users += 1;
                        return SharedBrowser { browser };
                    }
                }
                if s.users == 0 {
                    break;
                }
                // Another test of this area is launching it.
            }
            s = changed.wait(s).unwrap_or_else(|p| p.into_inner());
        }
        // Free, or idle with another area's browser: this area gets a fresh one.
        let previous = s.browser.take();
        s.area = Some(area);
        s.users = 1;
        drop(s);
        drop(previous);
        let launching = Launching;
        let browser = Arc::new(Browser::launch(opts));
        std::mem::forget(launching);
        let mut s = lock(slot);
        s.browser = Some(browser.clone());
        changed.notify_all();
        SharedBrowser { browser }
    }

    /// Stops the shared browser when no test holds it; whether it did.
    fn stop_if_idle() -> bool {
        let (slot, _) = &SHARED;
        let idle = {
            let mut s = lock(slot);
            if s.users > 0 {
                return false;
            }
            s.area = None;
            s.browser.take()
        };
        idle.is_some()
    }
}

/// Frees the slot when a launch for it panics, so the other tests fail on their own instead of waiting.
struct Launching;

impl Drop for Launching {
    fn drop(&mut self) {
        let (slot, changed) = &SHARED;
        let mut s = lock(slot);
        s.users = 0;
        s.area = None;
        changed.notify_all();
    }
}

/// The browser of an area, lent to one test by [`Browser::shared`]; given back on drop.
pub struct SharedBrowser {
    browser: Arc<Browser>,
}

impl std::ops::Deref for SharedBrowser {
    type Target = Browser;

    fn deref(&self) -> &Browser {
        &self.browser
    }
}

impl Drop for SharedBrowser {
    fn drop(&mut self) {
        let (slot, changed) = &SHARED;
        lock(slot).users -= 1;
        changed.notify_all();
        // A test waiting for a permit may now stop this browser.
        SLOTS.1.notify_all();
    }
}

/// Area `name`'s shared browser for a test once it holds `gate` (the lock that orders it among the area's
/// tests): `(gate, browser, a DevTools connection, a bridge client)`. Bound in that order, the gate is
/// released last.
pub async fn enter_area<G>(
    name: &'static str,
    gate: G,
) -> (G, SharedBrowser, DevTools, BridgeClient) {
    let browser = Browser::shared(name);
    let dt = browser.devtools().await;
    let client = browser.client().await;
    (gate, browser, dt, client)
}

/// Parses `WORD k=v k=v …` into a map.
fn key_values(line: &str) -> HashMap<String, String> {
    line.split_whitespace()
        .skip(1)
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Processes

/// Pids of live processes in process group `pgid` or whose command line mentions `needle`.
pub fn processes_matching(pgid: i32, needle: &str) -> Vec<i32> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // Fields after the command name: state ppid pgrp …
        let after = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest)
            .unwrap_or_default();
        let fields: Vec<&str> = after.split_whitespace().collect();
        let state = fields.first().copied().unwrap_or("");
        if state == "Z" || state == "X" {
            continue; // zombies hold no resources and vanish with their parent
        }
        let in_group = pgid > 0 && fields.get(2).and_then(|g| g.parse::<i32>().ok()) == Some(pgid);
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let mentions = !needle.is_empty() && String::from_utf8_lossy(&cmdline).contains(needle);
        if in_group || mentions {
            found.push(pid);
        }
    }
    found
}

/// Polls `f` every 100 ms until it returns `Some` or `limit` passes.
pub async fn eventually<T, F, Fut>(limit: Duration, mut f: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = f().await {
            return Some(v);
        }
        if Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `get_tabs` through `client`, returning the `tabs` array.
pub async fn get_tabs(client: &BridgeClient) -> Result<Vec<Value>, bua_bridge::Error> {
    let result = client.call("get_tabs", json!({})).await?;
    Ok(result
        .get("tabs")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default())
}

/// The message of the error `result` (an action's answer) must be, with code `code`; panics when it
/// succeeded or failed with another code.
pub fn failure(result: Result<Value, bua_bridge::Error>, code: bua_protocol::ErrorCode) -> String {
    match result {
        Ok(v) => panic!("expected {code:?}, got {v}"),
        Err(e) => {
            assert_eq!(e.code(), code, "{e}");
            e.to_string()
        }
    }
}

/// Asserts how a `handoff` answer says it ended (SPEC §8): `resolved`, `by` whom (`page`, `user`, …) and
/// the `title` of the page it ended on.
pub fn assert_handoff_ended(result: &Value, resolved: bool, by: &str, title: &str) {
    assert_eq!(
        (result["resolved"].as_bool(), result["by"].as_str()),
        (Some(resolved), Some(by)),
        "{result}"
    );
    assert_eq!(result["title"], title, "{result}");
}

/// Writes a line to stderr that shows up in test output (for measured numbers).
/// An MCP success's text with its page boundary (SPEC §9 "Boundaries") checked and taken off: the
/// opening line names an origin and a 12-hex-digit nonce, the closing marker repeats that nonce. A
/// text without a boundary (an error, a screenshot's metadata) is returned as is.
pub fn inside_boundary(text: &str) -> String {
    if !text.starts_with("<<<page ") {
        return text.to_string();
    }
    let (_, nonce, inner) = bua_protocol::text::boundary::unwrap(text)
        .unwrap_or_else(|| panic!("a broken page boundary: {text}"));
    assert!(
        nonce.len() == 12 && nonce.chars().all(|c| c.is_ascii_hexdigit()),
        "nonce {nonce:?}"
    );
    inner.to_string()
}

pub fn note(line: &str) {
    let _ = writeln!(std::io::stderr(), "[measure] {line}");
}

// ---------------------------------------------------------------------------------------------
// Bridge events, tabs and sessions (shared by the session-model and UI tests)

/// How long the helpers below wait for a tab, an event or a state.
pub const LIMIT: Duration = Duration::from_secs(10);

/// The events a client receives after `subscribe_events`, with everything seen so far kept for assertions.
pub struct Events {
    rx: tokio::sync::broadcast::Receiver<Value>,
    /// Every event received so far, oldest first.
    pub seen: Vec<Value>,
}

impl Events {
    /// Subscribes `client` to the extension's events (`subscribe_events` → `{"subscribed": true}`).
    pub async fn subscribe(client: &BridgeClient) -> Events {
        let rx = client.events();
        let answer = client
            .call("subscribe_events", json!({}))
            .await
            .expect("subscribe_events");
        assert_eq!(answer, json!({"subscribed": true}));
        Events {
            rx,
            seen: Vec::new(),
        }
    }

    /// Moves the events that arrived into `seen`.
    pub fn pull(&mut self) {
        while let Ok(e) = self.rx.try_recv() {
            self.seen.push(e);
        }
    }

    /// The first event (seen before or arriving within `limit`) for which `pred` holds; panics with every
    /// event seen when none comes.
    pub async fn wait(&mut self, limit: Duration, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            self.pull();
            if let Some(e) = self.seen.iter().find(|e| pred(e)) {
                return e.clone();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                panic!(
                    "no matching event within {limit:?}; seen: {}",
                    serde_json::to_string_pretty(&self.seen).unwrap_or_default()
                );
            }
            if let Ok(Ok(e)) = tokio::time::timeout(left, self.rx.recv()).await {
                self.seen.push(e);
            }
        }
    }

    /// Collects for `dur`, then returns every event seen so far for which `pred` holds.
    pub async fn settle(&mut self, dur: Duration, pred: impl Fn(&Value) -> bool) -> Vec<Value> {
        tokio::time::sleep(dur).await;
        self.pull();
        self.seen.iter().filter(|e| pred(e)).cloned().collect()
    }

    /// [`Events::settle`], asserting that exactly `count` of the events satisfy `pred` (`why`: what that count
    /// means, for the failure message).
    pub async fn assert_count(
        &mut self,
        dur: Duration,
        count: usize,
        why: &str,
        pred: impl Fn(&Value) -> bool,
    ) {
        let found = self.settle(dur, pred).await;
        assert_eq!(found.len(), count, "{why}: {found:?}");
    }
}

/// Whether `event` is a `kind` event (`session_started`, `tab_closed`, …) about `tab_id`.
pub fn event_is(event: &Value, kind: &str, tab_id: i64) -> bool {
    event["type"] == kind && event["tabId"] == tab_id
}

/// Whether `event` is the `session_ended` of `tab_id` for `reason` (`tab_closed`, `user_stopped`, …).
pub fn ended(event: &Value, tab_id: i64, reason: &str) -> bool {
    event_is(event, "session_ended", tab_id) && event["reason"] == reason
}

/// The id of the tab showing `url`, as `get_tabs` lists it (waits up to [`LIMIT`] for it to appear).
pub async fn tab_id_of(client: &BridgeClient, url: &str) -> i64 {
    eventually(LIMIT, || async {
        get_tabs(client)
            .await
            .ok()?
            .into_iter()
            .find(|t| t["url"] == url)
            .and_then(|t| t["tabId"].as_i64())
    })
    .await
    .unwrap_or_else(|| panic!("no tab with {url} in get_tabs"))
}

/// `tab_id`'s entry of `get_tabs`, if it is open.
pub async fn tab_info(client: &BridgeClient, tab_id: i64) -> Option<Value> {
    get_tabs(client)
        .await
        .ok()?
        .into_iter()
        .find(|t| t["tabId"] == tab_id)
}

/// Opens `url` in a new window of its own (`Target.createTarget {newWindow: true}`) and returns its `targetId`.
/// A plain `Target.createTarget` opens the tab in the browser's last-focused window, which in a shared browser
/// can be another test's agent window: the tab would count as that agent's, and land among the tabs it asserts on.
pub async fn open_page_in_own_window(dt: &DevTools, url: &str) -> String {
    let result = dt
        .send(
            "Target.createTarget",
            json!({"url": url, "newWindow": true}),
            None,
        )
        .await
        .unwrap_or_else(|e| panic!("Target.createTarget {url}: {e}"));
    result["targetId"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("Target.createTarget answered without targetId: {result}"))
}

/// Opens `url` as a user tab (a DevTools page target, as if the user had), in a window of its own (see
/// [`open_page_in_own_window`]), and returns `(targetId, tabId)`.
pub async fn open_user_tab(dt: &DevTools, client: &BridgeClient, url: &str) -> (String, i64) {
    let target = open_page_in_own_window(dt, url).await;
    let tab_id = tab_id_of(client, url).await;
    (target, tab_id)
}

/// `open_tab` of `url` (an agent tab, in the agent window); returns the tab id.
pub async fn agent_tab(client: &BridgeClient, url: &str) -> i64 {
    let opened = client
        .call("open_tab", json!({ "url": url }))
        .await
        .expect("open_tab");
    opened["tabId"].as_i64().expect("tabId")
}

/// `evaluate` of `expression` on `tab_id` through the whole pipeline (starts the tab's session if none).
pub async fn evaluate(
    client: &BridgeClient,
    tab_id: i64,
    expression: &str,
) -> Result<Value, bua_bridge::Error> {
    client
        .call(
            "evaluate",
            json!({"tabId": tab_id, "expression": expression}),
        )
        .await
}

/// A popup/options command straight to the worker's `on_message` (SPEC §10, `session::api`), e.g.
/// `{"cmd": "list_sessions"}`; returns its answer.
pub async fn worker_ui(browser: &Browser, dt: &DevTools, command: Value) -> Value {
    browser
        .eval_in_worker(
            dt,
            &format!("buaReady.then(() => bua.on_message({command}))"),
        )
        .await
}

/// The active sessions (`list_sessions`).
pub async fn sessions(browser: &Browser, dt: &DevTools) -> Vec<Value> {
    worker_ui(browser, dt, json!({"cmd": "list_sessions"})).await["sessions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The active session of `tab_id`, if any.
pub async fn session_of(browser: &Browser, dt: &DevTools, tab_id: i64) -> Option<Value> {
    sessions(browser, dt)
        .await
        .into_iter()
        .find(|s| s["tabId"] == tab_id)
}

/// The audit log (`get_history`), newest first.
pub async fn history(browser: &Browser, dt: &DevTools) -> Vec<Value> {
    worker_ui(browser, dt, json!({"cmd": "get_history"})).await["entries"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

impl Browser {
    /// Stops the extension's service worker (closes its DevTools target) and waits up to [`LIMIT`] until
    /// the bridge has seen it go (`client`'s `get_tabs` fails with `no_extension`); returns the stopped
    /// worker's target. Panics with the launch log when the bridge never notices.
    pub async fn stop_service_worker(&self, dt: &DevTools, client: &BridgeClient) -> TargetInfo {
        let worker = self.service_worker(dt, LIMIT).await;
        dt.close_target(&worker.id)
            .await
            .expect("stop the service worker");
        let gone = eventually(LIMIT, || async {
            match get_tabs(client).await {
                Err(e) if e.code() == bua_protocol::ErrorCode::NoExtension => Some(()),
                _ => None,
            }
        })
        .await;
        assert!(
            gone.is_some(),
            "the bridge never saw the service worker stop\n{}",
            self.logs()
        );
        worker
    }
}

// ---------------------------------------------------------------------------------------------
// Raw WebSocket frames

/// The next text frame of a raw WebSocket (a fake extension, a v1 client) parsed as JSON, skipping pings
/// and binary frames. Panics when none comes within `limit`, the socket closes, or the text is not JSON.
pub async fn next_json_frame<S>(ws: &mut S, limit: Duration) -> Value
where
    S: futures_util::StreamExt<
            Item = Result<
                tokio_tungstenite::tungstenite::Message,
                tokio_tungstenite::tungstenite::Error,
            >,
        > + Unpin,
{
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let message = tokio::time::timeout(limit, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no frame within {limit:?}"))
            .expect("the socket is open")
            .expect("a frame");
        match message {
            Message::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON"),
            Message::Close(f) => panic!("closed: {f:?}"),
            _ => continue,
        }
    }
}

/// A raw WebSocket to the bridge (no TLS: it listens on 127.0.0.1).
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A raw v1-bridge client (SPEC §9): the v1 client hello (no `protocolVersion`) plus the pairing
/// token SPEC §2 adds, then raw `{"id","method","params"}` frames and whole response envelopes.
pub struct V1Client {
    ws: Ws,
    next: u64,
    /// The id the bridge gave it (`ack.clientId`): its agent owner.
    pub client_id: String,
}

impl V1Client {
    /// Connects to the bridge on `port`, says the v1 hello with `token` and waits for its `ack`.
    pub async fn connect(port: u16, token: &str) -> V1Client {
        use futures_util::SinkExt;
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}"))
            .await
            .expect("upgrade");
        let hello =
            json!({"type": "hello", "role": "client", "name": "bridge-client", "token": token});
        ws.send(tokio_tungstenite::tungstenite::Message::text(
            hello.to_string(),
        ))
        .await
        .expect("hello");
        let mut client = V1Client {
            ws,
            next: 0,
            client_id: String::new(),
        };
        let ack = client.next_frame().await;
        assert_eq!(ack["type"], "ack", "{ack}");
        client.client_id = ack["clientId"].as_str().unwrap_or_default().to_owned();
        client
    }

    /// The next frame (within 40 s: a v1 request may wait out its own timeouts).
    pub async fn next_frame(&mut self) -> Value {
        next_json_frame(&mut self.ws, Duration::from_secs(40)).await
    }

    /// Sends one whole request frame and returns the response envelope with its `id`.
    pub async fn send_frame(&mut self, frame: Value) -> Value {
        use futures_util::SinkExt;
        let id = frame["id"].clone();
        self.ws
            .send(tokio_tungstenite::tungstenite::Message::text(
                frame.to_string(),
            ))
            .await
            .expect("send");
        loop {
            let v = self.next_frame().await;
            if v["id"] == id {
                return v;
            }
        }
    }

    /// Sends `{"id","method","params"}` and returns the whole response envelope.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = format!("abc-{}", self.next);
        self.send_frame(json!({"id": id, "method": method, "params": params}))
            .await
    }

    /// `run_script {code, tab_id}`, which must succeed; returns its `{result, tab_id}`.
    pub async fn run_script(&mut self, tab_id: i64, code: &str) -> Value {
        self.ok("run_script", json!({ "code": code, "tab_id": tab_id }))
            .await
    }

    /// A request that must succeed (`success: true`, no `code`); returns its `result`.
    pub async fn ok(&mut self, method: &str, params: Value) -> Value {
        let r = self.request(method, params.clone()).await;
        assert_eq!(r["success"], true, "{method} {params} → {r}");
        assert!(r.get("code").is_none(), "{r}");
        r["result"].clone()
    }
}

impl Browser {
    /// A dedicated browser ([`Browser::launch`]) whose extension has connected to its bridge (within 5 s),
    /// with a DevTools connection to it.
    pub async fn launch_connected(opts: BrowserOptions) -> (Browser, DevTools) {
        let browser = Browser::launch(opts);
        let dt = browser.devtools().await;
        browser
            .wait_connection_state(&dt, Duration::from_secs(5), |s| s["state"] == "connected")
            .await;
        (browser, dt)
    }

    /// The configuration of a second bridge this browser's extension may pair with: the same token and
    /// pinned extension id, any free port on 127.0.0.1.
    pub fn second_bridge_config(&self) -> bua_bridge::server::ServerConfig {
        let mut config = bua_bridge::server::ServerConfig::loopback(0, self.token.clone());
        config.extension_id = Some(self.extension_id.clone());
        config
    }
}
