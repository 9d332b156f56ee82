//! End-to-end tests of `bua-bridge mcp` (SPEC §9): a real MCP client — the official
//! Python MCP SDK, which `./build.sh test` installs into a venv under `target/` — starts `bua-bridge mcp` against a
//! `launch`ed headless Chromium with the built extension, lists the one `browser` tool, and runs
//! open_tab → extract → click(uid) → evaluate on a fixture page; an invalid action is a tool error.
//! A second test speaks raw JSON-RPC to `bua-bridge mcp` with no bridge running and checks that it
//! starts one in-process.

use crate::support;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bua_bridge::BridgeClient;
use serde_json::{json, Value};
use support::{
    bridge_bin, inside_boundary, note, repo_root, stdout_of, Browser, FixtureServer, McpStdio,
};

/// The Python of `<repo>/target/mcp-venv`, where `./build.sh test` (or `./build.sh prereqs test`) installs the
/// pinned MCP SDK once. The test never installs anything itself; without the venv it says how to make it.
fn mcp_python() -> PathBuf {
    let venv = repo_root().join("target").join("mcp-venv");
    let python = venv.join("bin").join("python");
    let has_mcp = Command::new(&python)
        .args(["-c", "import mcp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        has_mcp,
        "the Python MCP SDK is missing: {} has no `mcp` package. Run `./build.sh prereqs test` (it makes the \
         venv with the pinned SDK; `./build.sh test` does it too), then run this test again",
        venv.display()
    );
    python
}

fn schema_output() -> Value {
    let printed = stdout_of(
        Command::new(bridge_bin()).arg("schema"),
        "bua-bridge schema",
    );
    serde_json::from_str(&printed).expect("schema is JSON")
}

/// The first text block of a step, as sent.
fn raw_text_of(step: &Value) -> String {
    step["content"]
        .as_array()
        .and_then(|c| c.iter().find(|i| i["type"] == "text"))
        .and_then(|i| i["text"].as_str())
        .unwrap_or_else(|| panic!("no text block in {step}"))
        .to_string()
}

/// The first text block of a step, page content taken out of its boundary (SPEC §9 "Boundaries").
fn text_of(step: &Value) -> String {
    inside_boundary(&raw_text_of(step))
}

fn text_json(step: &Value) -> Value {
    let text = text_of(step);
    // An action's changes follow its JSON as text (SPEC §9).
    let json = text.split('\n').next().unwrap_or_default();
    serde_json::from_str(json).unwrap_or_else(|e| panic!("text is not JSON ({e}): {text}"))
}

#[test]
fn the_python_mcp_sdk_lists_one_browser_tool_and_drives_a_fixture_page() {
    let python = mcp_python();
    let browser = &Browser::shared("mcp");
    let page = FixtureServer::shared().url("/clients/mcp.html");
    let started = Instant::now();
    let output = Command::new(&python)
        .arg(repo_root().join("tests").join("mcp_client.py"))
        .arg(bridge_bin())
        .arg(browser.port.to_string())
        .arg(&browser.token)
        .arg(&page)
        .stdin(Stdio::null())
        .output()
        .expect("run the MCP client");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the MCP client failed:\n{stderr}\nlaunch log:\n{}",
        browser.logs()
    );
    note(&format!(
        "Python MCP session (spawn, initialize, 13 tool calls, exit): {:.2} s",
        started.elapsed().as_secs_f64()
    ));
    let report: Value = serde_json::from_slice(&output.stdout).expect("report JSON");

    // Exactly one tool, `browser`, whose inputSchema is `bua-bridge schema`.
    let tools = report["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 1, "{tools:?}");
    assert_eq!(tools[0]["name"], "browser");
    assert_eq!(tools[0]["inputSchema"], schema_output());
    let description = tools[0]["description"].as_str().unwrap_or_default();
    for must in [
        "One action per call",
        "tabId",
        "uid",
        "high = stop",
        "call handoff",
        "element_stale",
        "domain_blocked",
        "no_extension",
    ] {
        assert!(
            description.contains(must),
            "the description lacks {must:?}: {description}"
        );
    }
    assert_eq!(report["serverInfo"]["name"], "bua-bridge");
    // The fixed cost per session (SPEC §9 "Tool definition"): the tools/list result as the client got it.
    let listed = report["tools_list_bytes"]
        .as_u64()
        .expect("tools_list_bytes");
    note(&format!("tools/list result: {listed} bytes"));
    assert!(
        listed <= 10_000,
        "tools/list is {listed} bytes, over 10,000"
    );
    // Every action stays reachable: `help` gives each one's details, and every error code.
    let fill = text_of(&report["steps"]["help_fill"]);
    assert!(fill.starts_with("fill(fields, submit?, tabId?)"), "{fill}");
    assert!(
        fill.contains("\n- fields (") && fill.contains("Timeout: 30 s."),
        "{fill}"
    );
    let help = text_of(&report["steps"]["help"]);
    for name in bua_protocol::action_names() {
        assert!(help.contains(name), "{name}: {help}");
    }
    assert!(help.contains("\n- element_stale: "), "{help}");

    let steps = &report["steps"];
    for step in [
        "open_tab",
        "extract",
        "extract_text",
        "click",
        "evaluate",
        "screenshot",
    ] {
        assert_eq!(steps[step]["isError"], false, "{step}: {}", steps[step]);
    }
    let opened = text_json(&steps["open_tab"]);
    let tab_id = opened["tabId"].as_i64().expect("tabId");
    assert_eq!(opened["domain"], "127.0.0.1");
    // extract is text for a model: header, markdown with the links' uids (the path only on the
    // page's own origin), then one line per element the markdown does not name; by default no
    // innerText (the agent asks with include:["text"]).
    let origin = bua_protocol::text::boundary::origin_of(&page);
    for step in ["open_tab", "extract", "extract_text", "click", "evaluate"] {
        let raw = raw_text_of(&steps[step]);
        assert!(
            raw.starts_with(&format!("<<<page {origin} nonce=")),
            "{step}: {raw}"
        );
    }
    let extracted = text_of(&steps["extract"]);
    let uid = report["clicked_uid"].as_str().expect("uid");
    assert_eq!(uid, "e0");
    assert_eq!(report["link_uid"], "e2");
    assert!(
        extracted.starts_with(&format!(
            "url: {page}\ntitle: BUA MCP fixture\nelements: 4\nin viewport: e0-e3\n=== markdown ===\n# Counter\n"
        )),
        "{extracted}"
    );
    assert!(
        extracted
            .contains("Next: [page two](e2 /clients/mcp.html?page=2), or [another site](e3).\n"),
        "{extracted}"
    );
    assert!(
        extracted.ends_with("=== elements ===\ne0 button \"Count\"\ne1 textbox \"Name\""),
        "{extracted}"
    );
    assert!(!extracted.contains("=== text ==="), "{extracted}");
    let text_only = text_of(&steps["extract_text"]);
    assert!(
        text_only.ends_with(
            "=== text ===\nCounter\n\nClicks so far: 0\n\nCount Name \n\nNext: page two, or another site."
        ),
        "{text_only}"
    );
    assert!(!text_only.contains("=== markdown ==="), "{text_only}");
    let clicked = text_json(&steps["click"]);
    assert_eq!(clicked["tabId"], tab_id);
    assert_eq!(clicked["clicked"]["tag"], "button");
    assert_eq!(clicked["clicked"]["id"], "inc");
    // What the click changed follows as text: the counter's line.
    let click_text = text_of(&steps["click"]);
    assert!(
        click_text.contains("\n=== text added ===\nClicks so far: 1"),
        "{click_text}"
    );
    // The click really happened: the page's counter reads 1.
    assert_eq!(
        text_json(&steps["evaluate"]),
        json!({"type": "string", "value": "1"})
    );
    // The link's uid from the markdown clicks the link: the page navigated to its href.
    assert_eq!(
        steps["click_link"]["isError"], false,
        "{}",
        steps["click_link"]
    );
    assert_eq!(
        text_json(&steps["evaluate_link"]),
        json!({"type": "string", "value": "?page=2"})
    );
    // screenshot: an image block (real PNG bytes) plus its metadata as text.
    let shot = steps["screenshot"]["content"].as_array().expect("content");
    assert_eq!(shot[0]["type"], "image", "{shot:?}");
    assert_eq!(shot[0]["mimeType"], "image/png");
    assert_eq!(shot[0]["magic"], "89504e470d0a1a0a", "PNG signature");
    assert!(shot[0]["bytes"].as_u64().is_some_and(|b| b > 1000));
    let meta = text_json(&steps["screenshot"]);
    assert!(meta["width"].as_u64().is_some_and(|w| w > 100), "{meta}");
    assert!(
        meta.get("data").is_none(),
        "the base64 is not repeated as text"
    );

    // An invalid action is a tool error carrying invalid_action and the field's name.
    assert_eq!(steps["invalid"]["isError"], true, "{}", steps["invalid"]);
    let err = text_json(&steps["invalid"]);
    assert_eq!(err["code"], "invalid_action");
    assert!(
        err["message"]
            .as_str()
            .is_some_and(|m| m.contains("index") && m.contains("uid")),
        "{err}"
    );
    let err = text_json(&steps["untyped"]);
    assert_eq!(steps["untyped"]["isError"], true);
    assert_eq!(err["code"], "invalid_action");
    assert!(
        err["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("type: required")),
        "{err}"
    );
    // Cleanup closed exactly the tab this MCP client (its own bridge client id) opened.
    assert_eq!(
        text_json(&steps["close_agent_tabs"]),
        json!({"closed": [tab_id]})
    );
}

/// Starts `bua-bridge mcp <args>` and initializes it; its stderr lines go to the returned receiver.
fn start_mcp(args: &[&str]) -> (McpStdio, std::sync::mpsc::Receiver<String>) {
    let mut rpc = McpStdio::spawn(args, Stdio::piped());
    let stderr = rpc.take_stderr().expect("stderr");
    let (err_tx, err_lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = err_tx.send(line);
        }
    });
    let init = rpc.initialize("raw-test");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    (rpc, err_lines)
}

/// Calls the browser tool with `arguments`; returns (isError, the JSON that starts its first text block).
fn browser_json(rpc: &mut McpStdio, arguments: Value) -> (bool, Value) {
    let (is_error, text) = rpc.browser(arguments);
    // What an action changed follows its JSON as text (SPEC §9).
    let json = text.split('\n').next().unwrap_or_default();
    (is_error, serde_json::from_str(json).expect("JSON text"))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

// Multi-threaded: the launch's own bridge runs in this test while the test thread waits on the MCP server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launched_browser_paired_with_an_mcp_servers_own_bridge_is_driven_through_it() {
    // The peer benchmark's setup (`bua-bench --peers`): ours as it runs by default, the bridge in the MCP
    // server's process, with the browser of a `launch` pointed at it.
    let _slot = tokio::task::spawn_blocking(support::Permit::acquire)
        .await
        .expect("a browser slot");
    let mut opts = bua_bridge::launch::LaunchOptions::new(support::dist_dir());
    opts.extra_args = vec![format!(
        "--host-resolver-rules={}",
        support::OFFLINE_RESOLVER_RULES
    )];
    let launched = bua_bridge::launch::start(opts).await.expect("launch");
    let port = free_port();
    let token = "mcp-paired-token-0123456789abcdef";
    let (mut rpc, _stderr) = start_mcp(&["--port", &port.to_string(), "--token", token]);
    launched
        .pair_with(port, token)
        .await
        .expect("pairing written");
    // The first call waits for the extension to connect (`--extension-wait`).
    let url = FixtureServer::shared().url("/extract/uids.html");
    let (is_error, opened) = browser_json(&mut rpc, json!({"type": "open_tab", "url": url}));
    assert!(!is_error, "{opened}");
    let tab = opened["tabId"].as_i64().expect("tabId");
    let (is_error, at) = browser_json(
        &mut rpc,
        json!({"type": "evaluate", "tabId": tab, "expression": "return location.href"}),
    );
    assert!(!is_error, "{at}");
    assert_eq!(at["value"], json!(url), "{at}");
    // The launch's own bridge no longer has the extension.
    let own = BridgeClient::connect(launched.server().port(), launched.server().token())
        .await
        .expect("the launch's bridge");
    let gone = own.call("get_tabs", Value::Null).await;
    assert!(gone.is_err(), "{gone:?}");
    drop(rpc);
    launched.shutdown().await;
}

#[tokio::test]
async fn mcp_starts_a_bridge_in_process_when_none_answers() {
    let port = free_port();
    let token = "mcp-standalone-token-0123456789";
    let (mut rpc, stderr) = start_mcp(&[
        "--port",
        &port.to_string(),
        "--token",
        token,
        "--extension-wait",
        "1",
    ]);
    let url = format!("ws://127.0.0.1:{port}");

    // The in-process bridge answers on the port with the given token…
    let client = BridgeClient::connect(port, token)
        .await
        .expect("mcp started a bridge on the port");
    assert_eq!(
        client.call("ping", Value::Null).await.expect("pong")["pong"],
        true
    );
    // …stderr says at startup that the extension must be pointed at that port…
    let deadline = Instant::now() + Duration::from_secs(10);
    let hint = std::iter::from_fn(|| {
        stderr
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .ok()
    })
    .find(|l| l.starts_with("bua-bridge mcp: "))
    .expect("a startup line on stderr (besides the logs)");
    assert!(
        hint.starts_with(&format!("bua-bridge mcp: this MCP server runs its own bridge on {url}, not on the default port 9225"))
            && hint.contains("backend URL (options page"),
        "{hint}"
    );
    // …and, with no extension connected, a browser action is a tool error `no_extension` that
    // says the same.
    let (is_error, body) = browser_json(&mut rpc, json!({"type": "get_tabs"}));
    assert!(is_error, "{body}");
    assert_eq!(body["code"], "no_extension", "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("no extension is connected to the bridge")
            && message.contains(&format!("its own bridge on {url}"))
            && message.contains(&format!("which must be {url}")),
        "{message}"
    );
    // An unknown tool name is a protocol error, not a tool result.
    let unknown = rpc.call("tools/call", json!({"name": "teleport", "arguments": {}}));
    assert!(
        unknown["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("teleport")),
        "{unknown}"
    );
}

// Multi-threaded: the bridge runs in this test while the test thread waits on the MCP server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_url_reaches_a_bridge_elsewhere_and_never_starts_one() {
    // A bridge on a port that is not --port's default, reached with --url.
    let token = "mcp-url-token-0123456789";
    let bridge = bua_bridge::server::start(bua_bridge::ServerConfig::loopback(0, token))
        .await
        .expect("bridge");
    let url = format!("ws://127.0.0.1:{}", bridge.port());
    let (mut rpc, _stderr) = start_mcp(&["--url", &url, "--token", token, "--owner", "agent-x"]);
    let (is_error, body) = browser_json(&mut rpc, json!({"type": "get_tabs"}));
    assert!(is_error);
    assert_eq!(body["code"], "no_extension", "{body}");
    assert!(
        !body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("its own bridge"),
        "this bridge is not the MCP server's: {body}"
    );
    drop(rpc);
    bridge.shutdown().await;

    // Nothing at --url: a tool error naming the URL, and no bridge is started there.
    let port = free_port();
    let url = format!("ws://127.0.0.1:{port}");
    let (mut rpc, _stderr) = start_mcp(&["--url", &url, "--token", token]);
    let (is_error, body) = browser_json(&mut rpc, json!({"type": "get_tabs"}));
    assert!(is_error);
    assert_eq!(body["code"], "bridge_unreachable", "{body}");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with(&format!("no bridge at {url} ("))),
        "{body}"
    );
    assert!(
        BridgeClient::connect(port, token).await.is_err(),
        "no bridge was started on {port}"
    );
}

/// A fake extension on `ws://127.0.0.1:<port>` (Origin `chrome-extension://…`) that answers each
/// request with `{"tabs": []}` and counts those of clients (not the bridge's own `get_tabs` at connect).
async fn fake_extension(port: u16, token: &str) -> tokio::task::JoinHandle<usize> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::http::HeaderValue;
    use tokio_tungstenite::tungstenite::Message;
    let mut request = format!("ws://127.0.0.1:{port}")
        .into_client_request()
        .expect("request");
    request.headers_mut().insert(
        "origin",
        HeaderValue::from_static("chrome-extension://abcdefghijklmnopabcdefghijklmnop"),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the extension connects");
    let hello = json!({"type": "hello", "role": "extension", "protocolVersion": 4,
        "extensionVersion": "0.1.0", "name": "fake", "token": token});
    ws.send(Message::text(hello.to_string()))
        .await
        .expect("hello");
    tokio::spawn(async move {
        let mut answered = 0;
        while let Some(Ok(message)) = ws.next().await {
            let Message::Text(text) = message else {
                continue;
            };
            let frame: Value = serde_json::from_str(text.as_str()).unwrap_or(Value::Null);
            if frame["type"] == "request" {
                let reply = json!({"type": "response", "id": frame["id"], "result": {"tabs": []}});
                if ws.send(Message::text(reply.to_string())).await.is_err() {
                    break;
                }
                if frame["owner"] != bua_bridge::server::BRIDGE_OWNER {
                    answered += 1;
                }
            }
        }
        answered
    })
}

// An MCP server that starts its own bridge must not fail its first tool calls with no_extension while the
// extension, in its reconnect backoff, has not yet found the new bridge: the call waits for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_tool_call_waits_for_an_extension_that_connects_a_second_later() {
    let port = free_port();
    let token = "mcp-late-extension-token-0123";
    let (mut rpc, _stderr) = start_mcp(&["--port", &port.to_string(), "--token", token]);
    let extension = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(1)).await;
        fake_extension(port, token)
            .await
            .await
            .expect("the fake extension's task")
    });
    let started = Instant::now();
    let (is_error, body) =
        tokio::task::block_in_place(|| browser_json(&mut rpc, json!({"type": "get_tabs"})));
    let waited = started.elapsed();
    assert!(!is_error, "{body}");
    assert_eq!(body, json!({"tabs": []}));
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    note(&format!(
        "MCP tool call answered {:.2} s after it was sent, by an extension that connected after 1 s",
        waited.as_secs_f64()
    ));
    drop(rpc);
    let answered = extension.await.expect("join");
    assert_eq!(answered, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_is_named_as_such_not_as_a_missing_bridge() {
    let bridge = bua_bridge::server::start(bua_bridge::ServerConfig::loopback(
        0,
        "the-right-token-0123456789",
    ))
    .await
    .expect("bridge");
    let port = bridge.port().to_string();
    let (mut rpc, stderr) = start_mcp(&["--port", &port, "--token", "a-wrong-token-0123456789"]);
    // At startup it says the token was refused, not that there is no bridge yet.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut logged = Vec::new();
    while let Ok(line) = stderr.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        let found = line.contains("the bridge refused this MCP server's token; every tool call fails with unauthorized until the MCP server is started with the right token");
        logged.push(line);
        if found {
            break;
        }
    }
    let log = logged.join("\n");
    assert!(
        log.contains("the bridge refused this MCP server's token"),
        "{log}"
    );
    assert!(
        !log.contains("no bridge yet") && !log.contains("\u{1b}["),
        "{log}"
    );
    let (is_error, body) =
        tokio::task::block_in_place(|| browser_json(&mut rpc, json!({"type": "get_tabs"})));
    assert!(is_error);
    assert_eq!(body["code"], "unauthorized", "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!(
            "the bridge at ws://127.0.0.1:{port} is running but refused the token given with --token (or $BUA_TOKEN) (wrong pairing token"
        )) && message.contains("give it with --token or --token-file"),
        "{message}"
    );
    for wrong in ["cannot reach", "start it with"] {
        assert!(!message.contains(wrong), "{message}");
    }
    // Said once: one "refused", and the bridge's own advice for other clients is not repeated.
    assert_eq!(message.matches("refused").count(), 1, "{message}");
    assert!(
        !message.contains("$BUA_TOKEN or --token-file (default"),
        "{message}"
    );
    drop(rpc);
    bridge.shutdown().await;
}

/// Navigates to `url` through the browser tool, then screenshots it with `shot` (`type` and `tabId` added);
/// returns the screenshot's answer and the bytes of its image block.
fn screenshot_in_mcp(rpc: &mut McpStdio, url: &str, mut shot: Value) -> (Value, Vec<u8>) {
    use base64::Engine;
    let (is_error, opened) = browser_json(rpc, json!({"type": "navigate", "url": url}));
    assert!(!is_error, "{opened}");
    shot["type"] = json!("screenshot");
    shot["tabId"] = json!(opened["tabId"].as_i64().expect("tabId"));
    let id = rpc.send_browser(shot);
    let call = rpc.answer(id);
    let image = base64::engine::general_purpose::STANDARD
        .decode(call["result"]["content"][0]["data"].as_str().expect("data"))
        .expect("base64");
    (call, image)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_page_screenshot_of_a_long_page_is_scaled_to_the_mcp_cap_and_says_so() {
    let browser = &Browser::shared("mcp");
    let fixtures = FixtureServer::shared();
    fixtures.route(
        "/mcp/long",
        support::Route::Html(
            "<!doctype html><title>Very long</title><body style=\"margin:0\">\
             <div style=\"height:16000px;background:linear-gradient(#f00,#00f)\">top</div>"
                .into(),
        ),
    );
    let port = browser.port.to_string();
    let (mut rpc, _stderr) = start_mcp(&["--port", &port, "--token", &browser.token]);
    let (call, png) = tokio::task::block_in_place(|| {
        screenshot_in_mcp(
            &mut rpc,
            &fixtures.url("/mcp/long"),
            json!({"fullPage": true}),
        )
    });
    let content = call["result"]["content"].as_array().expect("content");
    assert_eq!(content[0]["type"], "image", "{call}");
    assert!(
        png.starts_with(b"\x89PNG"),
        "still PNG: it is small once scaled"
    );
    let side = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    let (width, height) = (side(16), side(20));
    assert!(
        width.max(height) <= 1568 && height >= 1500,
        "{width}x{height}"
    );
    let meta = text_json(&json!({"content": content}));
    assert_eq!(
        (meta["width"].as_u64(), meta["height"].as_u64()),
        (Some(u64::from(width)), Some(u64::from(height)))
    );
    assert_eq!(meta["scaledFrom"]["height"], 16_000, "{meta}");
    let note_text = meta["note"].as_str().unwrap_or_default();
    assert!(
        note_text.starts_with("scaled down from ")
            && note_text.contains("to fit the MCP image limit of 1568 px on the longest side")
            && note_text.contains("--screenshot-max-side"),
        "{meta}"
    );
    note(&format!(
        "MCP fullPage screenshot of a 16,000 px page: {width}x{height}, {} bytes",
        png.len()
    ));
    let _ =
        tokio::task::block_in_place(|| browser_json(&mut rpc, json!({"type": "close_agent_tabs"})));
    drop(rpc);

    // A PNG over the byte cap (set low here with the flag) is sent as JPEG, and the result says so.
    let (mut rpc, _stderr) = start_mcp(&[
        "--port",
        &port,
        "--token",
        &browser.token,
        "--screenshot-max-png-bytes",
        "2000",
    ]);
    let (call, jpeg) = tokio::task::block_in_place(|| {
        screenshot_in_mcp(&mut rpc, &fixtures.url("/mcp/long"), json!({}))
    });
    let content = call["result"]["content"].as_array().expect("content");
    assert_eq!(content[0]["mimeType"], "image/jpeg", "{call}");
    assert!(jpeg.starts_with(&[0xFF, 0xD8]), "JPEG bytes");
    let meta = text_json(&json!({"content": content}));
    assert_eq!(meta["mime"], "image/jpeg", "{meta}");
    let note_text = meta["note"].as_str().unwrap_or_default();
    assert!(
        note_text.starts_with("sent as JPEG (quality 80): the PNG was ")
            && note_text.contains("--screenshot-max-png-bytes"),
        "{meta}"
    );
    let _ =
        tokio::task::block_in_place(|| browser_json(&mut rpc, json!({"type": "close_agent_tabs"})));
}
