//! Secrets stay with the person (SPEC §4 "Secrets", the extension's `src/secret.rs` and
//! `src/actions/secrets.rs`, the bridge's `secrets.rs`): what is typed into a password or card field never
//! comes back — not its value, not its length — in any result, event, log line or audit row; a named secret
//! from the person's file is typed on its bound origin only.
//!
//! One browser for the area, launched with `--secrets` pointing at a file made for it (mode 0600), and with
//! `upload` turned off (`--no-upload`, SPEC §10).

use std::path::PathBuf;
use std::sync::OnceLock;

use bua_protocol::ErrorCode;
use serde_json::{json, Value};

use crate::support::{self, Agent, Browser, BrowserOptions, Events, FixtureServer, SharedBrowser};

const PASSWORD: &str = "Tr0ub4dor&3x";
const CARD: &str = "4111111111111111";
const BANK: &str = "B4nk-p4ss!";
/// The fixed mask (SPEC §4 "Secrets"): eight dots whatever the length.
const MASK: &str = "••••••••";

/// The secrets file of the area's browser: `bank` bound to the fixture server's origin on 127.0.0.1.
fn secrets_file() -> &'static PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("bua-e2e-secrets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("secrets dir");
        let path = dir.join("secrets");
        let origin = format!("http://127.0.0.1:{}", FixtureServer::shared().port());
        let body = json!({"bank": {"value": BANK, "origins": [origin]}});
        std::fs::write(&path, body.to_string()).expect("secrets file");
        set_mode(&path, 0o600);
        path
    })
}

fn set_mode(path: &PathBuf, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

fn browser() -> SharedBrowser {
    let path = secrets_file().display().to_string();
    Browser::shared_with(
        "secrets",
        BrowserOptions {
            extra_args: vec!["--secrets".into(), path, "--no-upload".into()],
        },
    )
}

/// Panics when `text` holds a secret's value or a run of dots as long as it (its length).
fn assert_no_secret(what: &str, text: &str, secrets: &[&str]) {
    for s in secrets {
        assert!(!text.contains(s), "{what} holds the secret {s:?}: {text}");
        let encoded: String = url_encoded(s);
        assert!(!text.contains(&encoded), "{what} holds {encoded:?}: {text}");
        let dots = "•".repeat(s.chars().count());
        assert!(
            !text.contains(&dots),
            "{what} tells the length of {s:?}: {text}"
        );
    }
}

fn url_encoded(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn typed_passwords_and_card_numbers_never_come_back_in_results_events_logs_or_the_audit() {
    let a = Agent::on(browser(), "secrets").await;
    let mut events = Events::subscribe(&a.client).await;
    let tab = a.open("form.html").await;
    let mut seen: Vec<(String, Value)> = Vec::new();
    let mut act = |name: &str, r: Value| seen.push((name.to_owned(), r));

    let r = a
        .act(tab, "type", json!({"selector": "#pw", "text": PASSWORD}))
        .await;
    assert_eq!(r["value"], MASK, "a fixed mask, not the length: {r}");
    act("type password", r);
    let r = a
        .act(tab, "type", json!({"selector": "#cc", "text": CARD}))
        .await;
    assert_eq!(r["value"], MASK, "{r}");
    act("type card", r);
    // The page got the real values (compared in the page).
    assert_eq!(
        a.eval(
            tab,
            &format!("return [pw.value === {PASSWORD:?}, cc.value === {CARD:?}]")
        )
        .await,
        json!([true, true])
    );
    // The page echoes the password (on change) into its text and its console.
    a.act(
        tab,
        "type",
        json!({"selector": "#name", "text": "Ada Lovelace"}),
    )
    .await;
    let r = a.act(tab, "get_value", json!({"selector": "#pw"})).await;
    assert_eq!(r["value"], MASK, "{r}");
    act("get_value password", r);
    let r = a.act(tab, "get_value", json!({"selector": "#cc"})).await;
    assert_eq!(r["value"], MASK, "{r}");
    act("get_value card", r);
    let r = a.act(tab, "extract", json!({})).await;
    let listed = |name: &str| {
        r["elements"]
            .as_array()
            .and_then(|els| els.iter().find(|e| e["name"] == name).cloned())
            .unwrap_or_else(|| panic!("no {name} in {r}"))
    };
    assert_eq!(listed("Password")["value"], MASK);
    assert_eq!(listed("Card number")["value"], MASK);
    assert_eq!(
        listed("Name on card")["value"],
        "Ada Lovelace",
        "not a secret"
    );
    assert!(
        r["markdown"]
            .as_str()
            .unwrap_or_default()
            .contains(&format!("You typed {MASK}")),
        "the page's echo of the card is masked: {}",
        r["markdown"]
    );
    act("extract", r);
    let r = a.act(tab, "find", json!({"text": "typed"})).await;
    act("find", r);
    let r = a
        .act(tab, "fill", json!({"fields": [{"selector": "#pw", "value": PASSWORD}, {"selector": "#cc", "value": CARD}], "submit": {"selector": "#go"}}))
        .await;
    assert_eq!(r["filled"][0]["value"], MASK, "{r}");
    assert_eq!(r["filled"][1]["value"], MASK, "{r}");
    // The GET form put both in the next page's URL, which the page shows and logs.
    let url = r["navigated"]["url"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(url.contains(&format!("pw={MASK}")), "{r}");
    act("fill + submit", r);
    assert_eq!(
        a.eval(
            tab,
            &format!("return location.search.includes('cc={CARD}')")
        )
        .await,
        json!(true),
        "the page really got the card number"
    );
    let r = a.act(tab, "extract", json!({})).await;
    assert!(
        r["markdown"]
            .as_str()
            .unwrap_or_default()
            .contains(&format!("Sent {MASK} and {MASK}")),
        "{}",
        r["markdown"]
    );
    act("extract after submit", r);
    let r = a.act(tab, "console", json!({})).await;
    let lines = r["entries"].to_string();
    assert!(lines.contains(&format!("pw is {MASK}")), "{r}");
    act("console", r);
    let r = a.act(tab, "network", json!({})).await;
    assert!(r["requests"].to_string().contains("done.html?pw="), "{r}");
    act("network", r);
    let r = a
        .act(
            tab,
            "evaluate",
            json!({"expression": "return location.href"}),
        )
        .await;
    act("evaluate", r);
    a.close(tab).await;

    for (what, result) in &seen {
        assert_no_secret(what, &result.to_string(), &[PASSWORD, CARD]);
    }
    let ended = events
        .wait(support::LIMIT, |e| support::ended(e, tab, "tab_closed"))
        .await;
    assert_eq!(ended["tabId"], tab);
    assert_no_secret("events", &json!(events.seen).to_string(), &[PASSWORD, CARD]);
    assert_no_secret("the bridge's log", &a.browser.logs(), &[PASSWORD, CARD]);
    let dt = a.browser.devtools().await;
    let audit = support::history(&a.browser, &dt).await;
    assert!(
        audit.iter().any(|row| row["tabId"] == tab),
        "the audit log has the session: {audit:?}"
    );
    assert_no_secret(
        "the audit log",
        &json!(audit).to_string(),
        &[PASSWORD, CARD],
    );
}

#[tokio::test]
async fn a_named_secret_is_typed_on_its_bound_origin_and_refused_on_another() {
    support::second_site();
    let a = Agent::on(browser(), "secrets").await;
    let tab = a.open("form.html").await;
    let r = a
        .act(tab, "type", json!({"selector": "#pw", "secret": "bank"}))
        .await;
    assert_eq!(r["value"], MASK, "{r}");
    assert_eq!(
        a.eval(tab, &format!("return pw.value === {BANK:?}")).await,
        json!(true),
        "the page got the secret"
    );
    // In fill, as a field's value; the name field next to it is filled as usual.
    let r = a
        .act(tab, "fill", json!({"fields": [{"selector": "#pw", "value": {"secret": "bank"}}, {"selector": "#name", "value": "Ada"}]}))
        .await;
    assert_eq!(r["filled"][0]["value"], MASK, "{r}");
    assert_eq!(r["filled"][1]["value"], "Ada", "{r}");
    assert_eq!(
        a.eval(
            tab,
            &format!("return [pw.value === {BANK:?}, document.getElementById('name').value]")
        )
        .await,
        json!([true, "Ada"])
    );
    assert_no_secret("type/fill {secret}", &r.to_string(), &[BANK]);
    // A name the file does not hold.
    let (code, message) = a
        .act_err(tab, "type", json!({"selector": "#pw", "secret": "mail"}))
        .await;
    assert_eq!(code, ErrorCode::InvalidAction, "{message}");
    assert!(
        message.contains("\"mail\" is not in") && message.contains("bank"),
        "{message}"
    );
    a.close(tab).await;

    // Another loopback origin: the same page, refused before a key is pressed.
    let port = FixtureServer::shared().port();
    let other = a
        .ok(
            "open_tab",
            json!({"url": format!("http://127.0.0.2:{port}/secrets/form.html")}),
        )
        .await["tabId"]
        .as_i64()
        .expect("tabId");
    let (code, message) = a
        .act_err(other, "type", json!({"selector": "#pw", "secret": "bank"}))
        .await;
    assert_eq!(code, ErrorCode::NotAllowed, "{message}");
    assert!(
        message.contains(&format!("only on http://127.0.0.1:{port}"))
            && message.contains(&format!("not on http://127.0.0.2:{port}")),
        "{message}"
    );
    assert_no_secret("the refusal", &message, &[BANK]);
    assert_eq!(
        a.eval(other, "return pw.value").await,
        json!(""),
        "nothing typed"
    );
    let (code, _) = a
        .act_err(
            other,
            "fill",
            json!({"fields": [{"selector": "#pw", "value": {"secret": "bank"}}]}),
        )
        .await;
    assert_eq!(code, ErrorCode::NotAllowed);
    assert_eq!(a.eval(other, "return pw.value").await, json!(""));
    a.close(other).await;
    assert_no_secret("the bridge's log", &a.browser.logs(), &[BANK]);
}

#[test]
fn a_secrets_file_others_can_read_is_refused_with_the_fix() {
    let dir = std::env::temp_dir().join(format!("bua-e2e-open-secrets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("secrets");
    std::fs::write(
        &path,
        r#"{"bank": {"value": "x1x2", "origins": ["https://bank.example"]}}"#,
    )
    .expect("write");
    set_mode(&path, 0o644);
    let out = std::process::Command::new(support::bridge_bin())
        .args(["serve", "--port", "0", "--secrets"])
        .arg(&path)
        .output()
        .expect("bua-bridge serve");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "serve started with an open secrets file: {err}"
    );
    assert!(
        err.contains(&format!("run `chmod 600 {}`", path.display())),
        "the fix is named: {err}"
    );
    assert!(!err.contains("x1x2"), "{err}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn upload_turned_off_by_the_person_is_not_allowed_and_the_page_gets_no_file() {
    let a = Agent::on(browser(), "secrets").await;
    let tab = a.open("form.html").await;
    let (code, message) = a
        .act_err(
            tab,
            "upload",
            json!({"selector": "#cv", "files": ["cv.pdf"]}),
        )
        .await;
    assert_eq!(code, ErrorCode::NotAllowed, "{message}");
    assert!(
        message.contains("upload is turned off") && message.contains("--no-upload"),
        "{message}"
    );
    assert_eq!(a.eval(tab, "return cv.files.length").await, json!(0));
    a.close(tab).await;
}
