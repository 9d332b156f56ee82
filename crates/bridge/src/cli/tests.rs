use super::*;
use crate::error::Error;
use bua_protocol::{ImageFormat, Locator};
use serde_json::json;
use serde_json::Value;
use std::path::Path;

/// The message of a failure, which must be `invalid_action`.
fn invalid_action<T: std::fmt::Debug>(result: std::result::Result<T, Failure>) -> String {
    let e = result.unwrap_err();
    assert_eq!(e.code, "invalid_action", "{}", e.message);
    e.message
}

#[test]
fn locator_flags_become_one_locator() {
    let uid = LocatorArgs {
        uid: Some("e3".into()),
        ..Default::default()
    };
    assert_eq!(uid.locator().unwrap(), Locator::uid("e3"));

    let text = LocatorArgs {
        text: Some("Sign in".into()),
        index: Some(1),
        ..Default::default()
    };
    assert_eq!(
        text.locator().unwrap(),
        Locator::Text {
            text: "Sign in".into(),
            index: 1
        }
    );

    let err = LocatorArgs::default().locator().unwrap_err();
    assert_eq!(err.code, "invalid_action");
    let err = LocatorArgs {
        uid: Some("e1".into()),
        selector: Some("#a".into()),
        ..Default::default()
    }
    .locator()
    .unwrap_err();
    assert!(err.message.contains("uid and selector"), "{}", err.message);
    let err = LocatorArgs {
        uid: Some("e1".into()),
        index: Some(2),
        ..Default::default()
    }
    .locator()
    .unwrap_err();
    assert!(err.message.contains("--index"), "{}", err.message);
}

#[test]
fn elements_render_as_json_or_as_lines() {
    let r = json!({"url": "u", "title": "t", "totalElements": 2, "truncated": {"elements": false},
        "elements": [{"uid": "e0", "role": "button", "name": "Save", "visible": true},
                     {"uid": "e1", "role": "textbox", "name": "Email", "value": "a@b"}]});
    let lines = render(&r, &Output::Elements, true).unwrap();
    assert_eq!(
        lines,
        "e0    button       \"Save\"\ne1    textbox      \"Email\" value=\"a@b\" (off-screen)"
    );
    let v: Value = serde_json::from_str(&render(&r, &Output::Elements, false).unwrap()).unwrap();
    assert_eq!(v["totalElements"], 2);
    assert_eq!(v["truncated"], false);
    assert_eq!(v["elements"][1]["uid"], "e1");
}

#[test]
fn screenshots_are_written_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shot.png");
    let r = json!({"mime": "image/png", "data": "iVBORw0KGgo=", "width": 3, "height": 2});
    let to_png = Output::ScreenshotTo(file.clone(), ImageFormat::Png);
    let text = render(&r, &to_png, false).unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), b"\x89PNG\r\n\x1a\n");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["bytes"], 8);
    assert_eq!(v["width"], 3);
    let bad = json!({"data": "%%%"});
    assert_eq!(
        render(&bad, &to_png, false).unwrap_err().code,
        "internal_error"
    );
    // PNG bytes for a JPEG file are refused, and nothing is written.
    let jpg = dir.path().join("shot.jpg");
    let f = render(
        &r,
        &Output::ScreenshotTo(jpg.clone(), ImageFormat::Jpeg),
        false,
    )
    .unwrap_err();
    assert!(
        f.message
            .contains("asked for a jpeg screenshot but got png bytes"),
        "{}",
        f.message
    );
    assert!(!jpg.exists());
    let jpeg = json!({"mime": "image/jpeg", "data": "/9j/4AAQ", "width": 1, "height": 1});
    render(
        &jpeg,
        &Output::ScreenshotTo(jpg.clone(), ImageFormat::Jpeg),
        false,
    )
    .unwrap();
    assert_eq!(&std::fs::read(&jpg).unwrap()[..3], &[0xFF, 0xD8, 0xFF]);
}

#[test]
fn the_screenshot_format_follows_the_file_name() {
    let fmt = |p: &str, f: Option<&str>| screenshot_format(Path::new(p), f);
    assert_eq!(fmt("x.jpg", None), Ok(ImageFormat::Jpeg));
    assert_eq!(fmt("dir.d/x.JPEG", None), Ok(ImageFormat::Jpeg));
    assert_eq!(fmt("x.png", None), Ok(ImageFormat::Png));
    assert_eq!(fmt("x", None), Ok(ImageFormat::Png));
    assert_eq!(fmt("x", Some("jpeg")), Ok(ImageFormat::Jpeg));
    assert_eq!(fmt("x.jpg", Some("jpg")), Ok(ImageFormat::Jpeg));
    assert_eq!(fmt("x.bin", Some("png")), Ok(ImageFormat::Png));
    let m = invalid_action(fmt("x.jpg", Some("png")));
    assert!(
        m.contains("--format png conflicts with the file name x.jpg"),
        "{m}"
    );
    let m = invalid_action(fmt("x.webp", None));
    assert!(m.contains("`.webp`") && m.contains("--format"), "{m}");
    let m = invalid_action(fmt("x.png", Some("gif")));
    assert!(m.contains("unknown format `gif`"), "{m}");
    assert_eq!(
        sniff_image(b"\x89PNG\r\n\x1a\nrest"),
        Some(ImageFormat::Png)
    );
    assert_eq!(
        sniff_image(&[0xFF, 0xD8, 0xFF, 0xE0]),
        Some(ImageFormat::Jpeg)
    );
    assert_eq!(sniff_image(b"GIF89a"), None);
}

#[test]
fn the_cli_owner_is_the_flag_then_the_environment_then_cli() {
    assert_eq!(resolve_owner(None, None).unwrap(), "cli");
    assert_eq!(resolve_owner(None, Some("")).unwrap(), "cli");
    assert_eq!(resolve_owner(None, Some("ci-job-7")).unwrap(), "ci-job-7");
    assert_eq!(resolve_owner(Some("me"), Some("ci-job-7")).unwrap(), "me");
    let m = invalid_action(resolve_owner(Some(""), None));
    assert_eq!(m, "--owner: the owner is empty");
    let m = invalid_action(resolve_owner(None, Some("a\tb")));
    assert!(
        m.starts_with("BUA_OWNER: the owner contains a control character"),
        "{m}"
    );
}

#[test]
fn subcommand_names_are_not_methods() {
    assert!(check_method("open_tab").is_ok());
    assert!(check_method("list_tabs").is_ok());
    assert_eq!(
        invalid_action(check_method("open")),
        "unknown method `open`: the method is `open_tab` (`bua-bridge call open_tab '{…}'`), or use `bua-bridge open <URL>`"
    );
}

#[test]
fn call_params_must_be_one_json_object() {
    assert_eq!(parse_params(None).unwrap(), Value::Null);
    assert_eq!(
        parse_params(Some(r#"{"url":"u"}"#)).unwrap(),
        json!({"url": "u"})
    );
    let m = invalid_action(parse_params(Some("{url: 1}")));
    assert!(
        m.starts_with("params: not valid JSON (key must be a string at line 1 column 2)"),
        "{m}"
    );
    assert!(m.contains("single quotes"), "{m}");
    let m = invalid_action(parse_params(Some("[1]")));
    assert!(
        m.starts_with("params: expected a JSON object, got an array"),
        "{m}"
    );
    let m = invalid_action(parse_params(Some("https://example.com")));
    assert!(m.contains("not valid JSON"), "{m}");
}

#[test]
fn errors_get_their_client_code() {
    let unreachable = Error::Unreachable {
        url: "ws://127.0.0.1:9225".into(),
        source: std::io::Error::from(std::io::ErrorKind::ConnectionRefused),
    };
    assert!(unreachable.is_connection_refused());
    let f = Failure::from(unreachable);
    assert_eq!(f.code, "bridge_unreachable");
    assert!(
        f.message.starts_with("no bridge at ws://127.0.0.1:9225 (")
            && f.message
                .contains("start it with `bua-bridge serve` (or `bua-bridge launch`)"),
        "{}",
        f.message
    );
    let f = Failure::from(Error::Remote {
        code: bua_protocol::ErrorCode::NoExtension,
        message: "m".into(),
    });
    assert_eq!(f.code, "no_extension");
}

#[test]
fn type_says_when_the_text_is_missing() {
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        type_args(args(&["e4", "hi"]), false).unwrap(),
        (Some("e4".into()), "hi".into())
    );
    assert_eq!(type_args(args(&["hi"]), true).unwrap(), (None, "hi".into()));
    assert_eq!(
        invalid_action(type_args(args(&["e4"]), false)),
        "type: the text to type is missing: `bua-bridge type e4 '<text>'`"
    );
    let m = invalid_action(type_args(args(&["hello"]), false));
    assert!(
        m.starts_with("type: give the element and the text: `bua-bridge type <uid> '<text>'`")
            && m.ends_with("(only \"hello\" was given)"),
        "{m}"
    );
}

#[test]
fn markdown_renders_as_plain_text() {
    let r = json!({"markdown": "# Title\n\nBody"});
    assert_eq!(
        render(&r, &Output::Markdown, false).unwrap(),
        "# Title\n\nBody"
    );
}
