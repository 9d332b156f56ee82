use super::*;
use crate::field::suggest_absolute;
use serde_json::json;

fn url_error(url: &str) -> String {
    let mut v = json!({ "url": url });
    v[TYPE_KEY] = json!(ActionKind::OpenTab.name());
    match Action::from_value(&v) {
        Err(e) => e.message,
        Ok(a) => panic!("{url} accepted: {a:?}"),
    }
}

#[test]
fn only_host_like_text_gets_a_did_you_mean() {
    assert_eq!(
        suggest_absolute("example.com/a?b=1").as_deref(),
        Some("https://example.com/a?b=1")
    );
    assert_eq!(
        suggest_absolute("localhost:8080/x").as_deref(),
        Some("http://localhost:8080/x")
    );
    assert_eq!(
        suggest_absolute("127.0.0.1:3000").as_deref(),
        Some("http://127.0.0.1:3000")
    );
    for none in [
        "not a url",
        "hello",
        "",
        "  ",
        "a b.com",
        "wiki/Page",
        "ex ample.com",
    ] {
        assert_eq!(suggest_absolute(none), None, "{none:?}");
    }
    let m = url_error("not a url");
    assert!(
        m.contains("`not a url` is not an absolute URL: give the whole URL with its scheme")
            && !m.contains("did you mean"),
        "{m}"
    );
    let m = url_error("example.com");
    assert!(m.contains("(did you mean `https://example.com`?)"), "{m}");
    let m = url_error("localhost:8080");
    assert!(m.contains("(did you mean `http://localhost:8080`?)"), "{m}");
}

#[test]
fn only_actions_that_change_nothing_are_reads() {
    let reads: Vec<&str> = action_names()
        .iter()
        .copied()
        .filter(|n| is_read_action(n))
        .collect();
    assert_eq!(
        reads,
        [
            "get_tabs",
            "get_value",
            "wait_for",
            "extract",
            "find",
            "scrape",
            "screenshot",
            "console",
            "network",
            "downloads"
        ]
    );
    assert!(!is_read_action("evaluate") && !is_read_action("no_such_action"));
}

#[test]
fn the_unsupported_scheme_error_does_not_offer_file() {
    let m = url_error("ftp://example.com/x");
    assert!(
        m.contains("scheme `ftp` is not supported: use an http or https URL")
            && m.contains("file:// URLs are always refused"),
        "{m}"
    );
    assert!(!m.contains("https, file"), "{m}");
    let m = url_error("mailto:someone@example.com");
    assert!(
        m.contains("scheme `mailto`") && !m.contains("did you mean"),
        "{m}"
    );
}

#[test]
fn keyword_errors_list_the_words_as_before() {
    use crate::field::Keyword;
    assert_eq!(Modifier::CHOICES, "alt, ctrl, shift, meta");
    assert_eq!(WaitState::CHOICES, "visible, attached or hidden");
    assert_eq!(ImageFormat::CHOICES, "png or jpeg");
    assert_eq!(ExtractPart::CHOICES, "markdown, elements or text");
    assert_eq!(ConsoleLevel::CHOICES, "debug, log, warning or error");
    assert_eq!(DialogAnswer::CHOICES, "accept or dismiss");
    let m = Action::from_value(&json!({"type": "click", "uid": "e1", "dialog": "ok"}))
        .unwrap_err()
        .message;
    assert_eq!(
        m,
        "click: dialog: unknown dialog answer `ok` (use accept or dismiss)"
    );
}
