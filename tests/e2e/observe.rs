//! End-to-end tests of `upload`, `drag`, `console`, `network`, the element `screenshot` and `pdf` (SPEC §4)
//! in real headless Chromium with the built extension and the real `bua-bridge launch`, on the fixture
//! pages of `tests/fixtures/observe/`, driven through the bridge's client API.
//!
//! One browser is shared by the whole area (`Browser::shared_with("observe", …)`), launched with
//! `--files-dir` on a temporary folder holding the upload test files (file-URL access stays off, as in a
//! default install). Every test works on its own
//! agent tab and asserts what the page itself reports.

use crate::support;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use base64::Engine;
use bua_protocol::ErrorCode;
use serde_json::{json, Value};
use support::{eventually, Agent, Browser, BrowserOptions, FixtureServer, SharedBrowser};

/// Size of the large upload file, bytes.
const BIG: usize = 10 * 1024 * 1024;

/// The folder the bridge may read uploads from, with `note.txt` and the 10 MB `big.bin` in it.
fn files_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("bua-observe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("files dir");
        std::fs::write(dir.join("note.txt"), b"hello upload").expect("note.txt");
        let big: Vec<u8> = (0..BIG).map(|i| (i % 251) as u8).collect();
        std::fs::write(dir.join("big.bin"), big).expect("big.bin");
        dir
    })
}

/// The area's browser, held by a test for its whole run (in its [`Agent`]).
fn browser() -> SharedBrowser {
    Browser::shared_with(
        "observe",
        BrowserOptions {
            extra_args: vec!["--files-dir".into(), files_dir().display().to_string()],
        },
    )
}

/// `http://127.0.0.1:<port>/observe/<path>`.
fn url(path: &str) -> String {
    FixtureServer::shared().url(&format!("/observe/{path}"))
}

/// An agent on the area's browser and its fixture pages.
async fn agent() -> Agent {
    Agent::on(browser(), "observe").await
}

fn path(name: &str) -> String {
    files_dir().join(name).display().to_string()
}

/// What the page read from an input's files: `[{name, size, type, head, tail}]`.
fn expect_both_files(got: &Value) {
    let files = got.as_array().expect("files");
    assert_eq!(files.len(), 2, "{got}");
    assert_eq!(files[0]["name"], "note.txt");
    assert_eq!(files[0]["size"], 12);
    assert_eq!(files[0]["type"], "text/plain");
    assert_eq!(files[0]["head"], json!([104, 101, 108, 108])); // "hell"
    assert_eq!(files[1]["name"], "big.bin");
    assert_eq!(files[1]["size"], BIG);
    assert_eq!(files[1]["head"], json!([0, 1, 2, 3]));
    let tail: Vec<u64> = [BIG - 2, BIG - 1]
        .iter()
        .map(|i| (i % 251) as u64)
        .collect();
    assert_eq!(files[1]["tail"], json!(tail));
}

/// Opens `upload.html` and uploads with `params` (a locator and `files`); returns the tab and the result.
async fn upload_on_fixture(agent: &Agent, params: Value) -> (i64, Value) {
    let tab = agent.open("upload.html").await;
    let r = agent.act(tab, "upload", params).await;
    (tab, r)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upload_puts_two_files_one_of_10_mb_into_a_multiple_file_input() {
    let agent = agent().await;
    let (tab, r) = upload_on_fixture(
        &agent,
        json!({"selector": "#multi", "files": [path("note.txt"), "big.bin"]}),
    )
    .await;
    assert_eq!(r["chooser"], false, "{r}");
    assert_eq!(r["files"][1]["size"], BIG, "{r}");
    let got = agent.eval_until(tab, "return window.got.multi").await;
    expect_both_files(&got);
    assert_eq!(
        agent.eval(tab, "return window.events.multi").await,
        json!(["input", "change"])
    );
    agent.close(tab).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upload_through_a_button_that_opens_a_file_chooser() {
    let agent = agent().await;
    let (tab, r) = upload_on_fixture(
        &agent,
        json!({"text": "Choose files", "files": ["note.txt", "big.bin"]}),
    )
    .await;
    assert_eq!(r["chooser"], true, "{r}");
    assert_eq!(r["element"]["id"], "hidden", "{r}");
    let got = agent.eval_until(tab, "return window.got.hidden").await;
    expect_both_files(&got);
    agent.close(tab).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upload_refuses_paths_outside_the_allowed_folders_and_missing_files() {
    let agent = agent().await;
    let tab = agent.open("upload.html").await;
    let sneaky = format!("{}/../../etc/hostname", files_dir().display());
    let refused: [(&str, Value, &[&str]); 5] = [
        (
            "#multi",
            json!(["/etc/hostname"]),
            &["outside the folders", "--files-dir"],
        ),
        ("#multi", json!([sneaky]), &["outside the folders"]),
        ("#multi", json!(["nope.txt"]), &["no file `nope.txt`"]),
        (
            "#single",
            json!(["note.txt", "big.bin"]),
            &["takes one file"],
        ),
        ("h1", json!(["note.txt"]), &["opened no file chooser"]),
    ];
    for (selector, files, says) in refused {
        let (code, m) = agent
            .act_err(tab, "upload", json!({"selector": selector, "files": files}))
            .await;
        assert_eq!(code, ErrorCode::InvalidAction, "{selector} {files}: {m}");
        for said in says {
            assert!(m.contains(said), "{selector} {files}: {m}");
        }
    }
    assert_eq!(
        agent.eval(tab, "return Object.keys(window.got)").await,
        json!([])
    );
    agent.close(tab).await;
}

/// Opens `drag.html` and drags `from` onto `to` (selectors); returns the tab and the `drag` result.
async fn drag_on_fixture(agent: &Agent, from: &str, to: &str) -> (i64, Value) {
    let tab = agent.open("drag.html").await;
    let r = agent
        .act(
            tab,
            "drag",
            json!({"from": {"selector": from}, "to": {"selector": to}}),
        )
        .await;
    (tab, r)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drag_reorders_a_mouse_driven_sortable_list() {
    let agent = agent().await;
    let (tab, r) = drag_on_fixture(&agent, "#a", "#c").await;
    assert_eq!(r["html5"], false, "{r}");
    let order = agent
        .eval(
            tab,
            "return Array.from(document.querySelectorAll('#list li'), li => li.id).join('')",
        )
        .await;
    // The list puts the dragged item before the item whose upper half the pointer is in: A, dropped on
    // C's centre, now sits between B and C.
    assert_eq!(order, "bac", "{r}");
    agent.close(tab).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drag_moves_a_draggable_item_into_a_drop_zone() {
    let agent = agent().await;
    let (tab, r) = drag_on_fixture(&agent, "#card", "#zone").await;
    assert_eq!(r["html5"], true, "{r}");
    assert_eq!(r["to"]["id"], "zone", "{r}");
    assert_eq!(
        agent
            .eval(tab, "return [document.getElementById('card').parentElement.id, document.getElementById('zone').dataset.got, window.dnd]")
            .await,
        json!(["zone", "card-7", ["dragstart", "drop"]])
    );
    agent.close(tab).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_and_network_report_errors_a_404_and_a_failed_request() {
    let agent = agent().await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let tab = agent.open(&format!("logs.html?closed={closed}")).await;
    let console = eventually(Duration::from_secs(5), || async {
        let c = agent.act(tab, "console", json!({ "level": "error"})).await;
        let texts: Vec<String> = c["entries"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["text"].as_str().map(str::to_owned))
            .collect();
        (texts.iter().any(|t| t.contains("boom from a timer"))).then_some(c)
    })
    .await
    .expect("the uncaught error reached the console");
    let entries = console["entries"].as_array().unwrap();
    let logged = entries
        .iter()
        .find(|e| e["text"] == "bad thing 42")
        .unwrap_or_else(|| panic!("console.error missing: {console}"));
    assert_eq!(logged["level"], "error");
    // logs.html calls console.error on its line 7.
    let page = url(&format!("logs.html?closed={closed}"));
    assert_eq!(logged["source"], format!("{page}:7"), "{logged}");
    let thrown = entries
        .iter()
        .find(|e| {
            e["text"]
                .as_str()
                .unwrap_or("")
                .contains("Error: boom from a timer")
        })
        .unwrap();
    assert!(
        thrown["text"].as_str().unwrap().starts_with("Uncaught"),
        "{thrown}"
    );

    let network = eventually(Duration::from_secs(5), || async {
        let n = agent.act(tab, "network", json!({})).await;
        let requests = n["requests"].as_array().cloned().unwrap_or_default();
        let done = |needle: &str| {
            requests.iter().any(|r| {
                r["url"].as_str().unwrap_or("").contains(needle)
                    && (r.get("durationMs").is_some() || r.get("failure").is_some())
            })
        };
        (done("missing.json") && done("/refused")).then_some(requests)
    })
    .await;
    let Some(network) = network else {
        let n = agent.act(tab, "network", json!({})).await;
        panic!("the 404 and the refused request did not both finish: {n}");
    };
    let missing = network
        .iter()
        .find(|r| r["url"].as_str().unwrap().contains("missing.json"))
        .unwrap();
    assert_eq!(
        (missing["status"].as_u64(), missing["type"].as_str()),
        (Some(404), Some("Fetch")),
        "{missing}"
    );
    let refused = network
        .iter()
        .find(|r| r["url"].as_str().unwrap().contains("/refused"))
        .unwrap();
    assert_eq!(refused["type"], "Fetch", "{refused}");
    assert!(
        refused["failure"]
            .as_str()
            .unwrap_or("")
            .starts_with("net::ERR_"),
        "{refused}"
    );
    assert!(refused.get("status").is_none(), "{refused}");
    assert!(
        refused["failure"] == "net::ERR_CONNECTION_REFUSED",
        "{refused}"
    );
    let document = network.iter().find(|r| r["url"] == page).unwrap();
    assert_eq!(
        (document["status"].as_u64(), document["type"].as_str()),
        (Some(200), Some("Document"))
    );
    let only = agent
        .act(tab, "network", json!({ "filter": "MISSING.json"}))
        .await;
    assert_eq!(only["requests"].as_array().unwrap().len(), 1, "{only}");
    agent.close(tab).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_keeps_the_newest_500_of_10000_lines_and_counts_the_dropped() {
    let agent = agent().await;
    let tab = agent.open("drag.html").await;
    let before = agent.act(tab, "console", json!({})).await;
    let since = before["next"].as_u64().unwrap();
    let dropped_before = before["dropped"].as_u64().unwrap();
    agent
        .eval(
            tab,
            "setTimeout(() => { for (let i = 0; i < 10000; i++) console.log('line ' + i); }, 0); return 1",
        )
        .await;
    // The worker takes the 10,000 events one by one after the page logged them.
    let started = std::time::Instant::now();
    let page = eventually(Duration::from_secs(20), || async {
        let c = agent.act(tab, "console", json!({ "since": since})).await;
        let last = c["entries"].as_array()?.last()?["text"].clone();
        (last == "line 9999").then_some(c)
    })
    .await
    .expect("the last line arrived");
    support::note(&format!(
        "console: 10,000 lines reached the journal {} ms after the page logged them",
        started.elapsed().as_millis()
    ));
    let entries = page["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 500);
    assert_eq!(entries[0]["text"], "line 9500");
    assert_eq!(
        page["dropped"].as_u64().unwrap(),
        dropped_before + 9500,
        "{}",
        page["dropped"]
    );
    agent.close(tab).await;
}

/// Width and height from a PNG's IHDR.
fn png_size(data: &str) -> (u32, u32) {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .expect("base64");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_element_screenshot_has_the_elements_size_and_pdf_is_a_pdf() {
    let agent = agent().await;
    let tab = agent.open("logs.html").await;
    let dpr = agent
        .eval(tab, "return window.devicePixelRatio")
        .await
        .as_f64()
        .unwrap();
    let shot = agent
        .act(tab, "screenshot", json!({ "selector": "#box"}))
        .await;
    let expected = ((123.0 * dpr).round() as u32, (45.0 * dpr).round() as u32);
    assert_eq!(png_size(shot["data"].as_str().unwrap()), expected);
    assert_eq!(
        (shot["width"].as_u64(), shot["height"].as_u64()),
        (Some(expected.0 as u64), Some(expected.1 as u64))
    );
    let (code, m) = agent
        .act_err(
            tab,
            "screenshot",
            json!({ "selector": "#box", "fullPage": true}),
        )
        .await;
    assert_eq!(code, ErrorCode::InvalidAction, "{m}");

    let pdf = agent.act(tab, "pdf", json!({ "landscape": true})).await;
    assert_eq!(pdf["mime"], "application/pdf");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(pdf["data"].as_str().unwrap())
        .unwrap();
    assert!(
        bytes.starts_with(b"%PDF-"),
        "{:?}",
        &bytes[..8.min(bytes.len())]
    );
    agent.close(tab).await;
}
