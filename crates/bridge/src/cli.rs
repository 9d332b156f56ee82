//! The client side of the command line (SPEC §9): `call` and the friendly subcommands people reach
//! for (`tabs`, `open`, `navigate`, `extract`, `click`, `type`, `eval`, `screenshot`, `events`).
//!
//! Each friendly subcommand is one request: [`Request`] says which method with which params, and
//! how its result is printed ([`Output`]). Output is JSON on stdout (one line; `--pretty` indents);
//! a failure prints `{"code":"…","error":"…"}` on stdout and the process exits with status 1.
//! The pure parts (params, locators, rendering) are plain functions with unit tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use base64::Engine;
use serde_json::{json, Map, Value};

use crate::client::{BridgeClient, Endpoint};
use crate::error::{Error, Result};
use crate::token;

/// Where the bridge is and how to authenticate: `--port` (default 9225) or `--url`, and the token
/// from `--token`, `--token-file`, or the default token file (`~/.config/bua/token`).
#[derive(Debug, Clone, Default)]
pub struct Connection {
    /// Port on 127.0.0.1.
    pub port: u16,
    /// A full `ws://` URL (wins over `port`).
    pub url: Option<String>,
    /// The pairing token itself.
    pub token: Option<String>,
    /// A token file.
    pub token_file: Option<PathBuf>,
}

impl Connection {
    /// The bridge endpoint.
    pub fn endpoint(&self) -> Endpoint {
        match &self.url {
            Some(u) => Endpoint::from(u.as_str()),
            None => Endpoint::Port(self.port),
        }
    }

    /// The pairing token: `--token`, else the token file (never created here).
    ///
    /// Errors: [`Error::Token`]/[`Error::Io`] when the file is missing, empty or unreadable.
    pub fn token(&self) -> Result<String> {
        if let Some(t) = &self.token {
            return Ok(t.clone());
        }
        let path = match &self.token_file {
            Some(p) => p.clone(),
            None => token::default_path()?,
        };
        token::read(&path)
    }

    /// Connects; a bridge that cannot be reached gives a message that says how to start one.
    ///
    /// Errors: see [`Failure`]: `unauthorized` (token), `internal_error` (nothing listens).
    pub async fn connect(&self) -> std::result::Result<BridgeClient, Failure> {
        let token = self.token().map_err(|e| Failure {
            code: "unauthorized".into(),
            message: format!("{e} (pass --token or --token-file)"),
        })?;
        let endpoint = self.endpoint();
        let url = endpoint.url();
        match BridgeClient::connect(endpoint, &token).await {
            Ok(c) => Ok(c),
            Err(e @ (Error::WebSocket(_) | Error::Io { .. } | Error::Timeout { .. })) => Err(Failure {
                code: e.code().as_str().into(),
                message: format!(
                    "cannot reach bua-bridge at {url} ({e}); start it with `bua-bridge serve` or `bua-bridge launch`"
                ),
            }),
            Err(e) => Err(Failure::from(e)),
        }
    }
}

/// A failure as the CLI prints it: `{"code":"…","error":"…"}`, exit status 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The SPEC §8 error code (`no_extension`, `invalid_action`, …).
    pub code: String,
    /// What went wrong and what to do.
    pub message: String,
}

impl Failure {
    /// An `invalid_action` failure (bad arguments).
    pub fn invalid(message: impl Into<String>) -> Self {
        Failure {
            code: "invalid_action".into(),
            message: message.into(),
        }
    }

    /// The JSON printed for it.
    pub fn to_json(&self) -> Value {
        json!({"code": self.code, "error": self.message})
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure {
            code: e.code().as_str().into(),
            message: e.to_string(),
        }
    }
}

/// How a result is printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// The result JSON.
    Json,
    /// `extract --markdown`: the page's markdown as plain text.
    Markdown,
    /// `extract --elements`: `{url, title, elements, totalElements, truncated}`; with `--pretty`
    /// one element per line: `e3  button  "Sign in"`.
    Elements,
    /// `screenshot -o FILE`: the image is written to the file; prints `{file, mime, width, height, bytes}`.
    ScreenshotTo(PathBuf),
}

/// One client request of a subcommand: the method, its params and how to print the result.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The method (a SPEC §4 action type).
    pub method: String,
    /// The params object.
    pub params: Value,
    /// How to print the result.
    pub output: Output,
}

impl Request {
    /// A request printed as JSON.
    pub fn json(method: &str, params: Value) -> Self {
        Request {
            method: method.into(),
            params,
            output: Output::Json,
        }
    }
}

/// Locator flags of `click`/`type`: a positional uid, or `--selector`/`--text`/`--xpath`, plus
/// `--index`. Exactly one of the four; `index` not with a uid (SPEC §4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LocatorArgs {
    /// A uid from the latest `extract` (`e12`).
    pub uid: Option<String>,
    /// A CSS selector.
    pub selector: Option<String>,
    /// Visible text.
    pub text: Option<String>,
    /// An XPath.
    pub xpath: Option<String>,
    /// 0-based index among matches.
    pub index: Option<u32>,
}

impl LocatorArgs {
    /// Writes the locator into `params` as flat keys (`uid`, `selector`, …, `index`), or nested as
    /// `locator` when `nested` (for `type`, whose own `text` parameter takes the flat `text` key).
    ///
    /// Errors: none or several of uid/selector/text/xpath given.
    pub fn write(
        &self,
        params: &mut Map<String, Value>,
        nested: bool,
    ) -> std::result::Result<(), Failure> {
        let given: Vec<(&str, &String)> = [
            ("uid", &self.uid),
            ("selector", &self.selector),
            ("text", &self.text),
            ("xpath", &self.xpath),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
        .collect();
        let (key, value) = match given.as_slice() {
            [one] => *one,
            [] => {
                return Err(Failure::invalid(
                    "give the element: a uid from `bua-bridge extract --elements`, or --selector, --text or --xpath",
                ))
            }
            many => {
                let keys: Vec<&str> = many.iter().map(|(k, _)| *k).collect();
                return Err(Failure::invalid(format!(
                    "give only one of uid, --selector, --text, --xpath (got {})",
                    keys.join(" and ")
                )));
            }
        };
        let mut loc = Map::new();
        loc.insert(key.into(), Value::String(value.clone()));
        if let Some(i) = self.index {
            loc.insert("index".into(), json!(i));
        }
        if nested {
            params.insert("locator".into(), Value::Object(loc));
        } else {
            params.extend(loc);
        }
        Ok(())
    }
}

/// Adds `tabId` when given.
pub fn with_tab(mut params: Map<String, Value>, tab: Option<i64>) -> Value {
    if let Some(t) = tab {
        params.insert("tabId".into(), json!(t));
    }
    Value::Object(params)
}

/// Serialises `v` as one line, or indented with `pretty`.
pub fn to_text(v: &Value, pretty: bool) -> String {
    let text = if pretty {
        serde_json::to_string_pretty(v)
    } else {
        serde_json::to_string(v)
    };
    text.unwrap_or_else(|_| v.to_string())
}

/// Renders a result for printing (and writes the screenshot file for [`Output::ScreenshotTo`]).
///
/// Errors: the result lacks what the output needs, the image is not base64, or the file cannot
/// be written.
pub fn render(
    result: &Value,
    output: &Output,
    pretty: bool,
) -> std::result::Result<String, Failure> {
    match output {
        Output::Json => Ok(to_text(result, pretty)),
        Output::Markdown => result
            .get("markdown")
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| Failure {
                code: "internal_error".into(),
                message: "the extract result has no markdown".into(),
            }),
        Output::Elements => {
            let elements = result.get("elements").cloned().unwrap_or(json!([]));
            if pretty {
                let mut out = String::new();
                for e in elements.as_array().map(Vec::as_slice).unwrap_or_default() {
                    let field = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or_default();
                    let mut line = format!(
                        "{:<5} {:<12} {:?}",
                        field("uid"),
                        field("role"),
                        field("name")
                    );
                    if let Some(v) = e.get("value").and_then(Value::as_str) {
                        line.push_str(&format!(" value={v:?}"));
                    }
                    if e.get("visible") == Some(&Value::Bool(false)) {
                        line.push_str(" (off-screen)");
                    }
                    out.push_str(line.trim_end());
                    out.push('\n');
                }
                Ok(out.trim_end().to_string())
            } else {
                let summary = json!({
                    "url": result.get("url"),
                    "title": result.get("title"),
                    "elements": elements,
                    "totalElements": result.get("totalElements"),
                    "truncated": result.get("truncated").and_then(|t| t.get("elements")),
                });
                Ok(to_text(&summary, false))
            }
        }
        Output::ScreenshotTo(path) => {
            let data = result
                .get("data")
                .and_then(Value::as_str)
                .ok_or_else(|| Failure {
                    code: "internal_error".into(),
                    message: "the screenshot result has no data".into(),
                })?;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(data)
                .map_err(|e| Failure {
                    code: "internal_error".into(),
                    message: format!("the screenshot data is not base64: {e}"),
                })?;
            write_file(path, &bytes)?;
            let summary = json!({
                "file": path.display().to_string(),
                "mime": result.get("mime"),
                "width": result.get("width"),
                "height": result.get("height"),
                "bytes": bytes.len(),
            });
            Ok(to_text(&summary, pretty))
        }
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> std::result::Result<(), Failure> {
    std::fs::write(path, bytes).map_err(|e| Failure {
        code: "internal_error".into(),
        message: format!("writing {}: {e}", path.display()),
    })
}

/// Prints a failure and returns exit status 1.
pub fn fail(failure: &Failure, pretty: bool) -> ExitCode {
    println!("{}", to_text(&failure.to_json(), pretty));
    ExitCode::FAILURE
}

/// Connects, sends one request, prints its rendered result; exit status 0, or 1 with the error JSON.
pub async fn run(conn: &Connection, request: Request, pretty: bool) -> ExitCode {
    let client = match conn.connect().await {
        Ok(c) => c,
        Err(f) => return fail(&f, pretty),
    };
    match client.call(&request.method, request.params).await {
        Ok(result) => match render(&result, &request.output, pretty) {
            Ok(text) => {
                println!("{text}");
                ExitCode::SUCCESS
            }
            Err(f) => fail(&f, pretty),
        },
        Err(e) => fail(&Failure::from(e), pretty),
    }
}

/// `events`: subscribes and prints each forwarded event as one JSON line (with `"dropped": N`
/// when the bridge dropped older events), until `count` events were printed, `limit` passed, the
/// bridge closed, or the process is interrupted. Exit status 0 unless subscribing failed.
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
    let mut events = client.forwarded_events();
    if let Err(e) = client.call("subscribe_events", json!({})).await {
        return fail(&Failure::from(e), pretty);
    }
    // Tell a watching script that the subscription is live (stderr keeps stdout pure JSON lines).
    eprintln!("bua-bridge: following events as {}", client.client_id());
    let deadline = limit.map(|l| tokio::time::Instant::now() + l);
    let mut printed = 0u64;
    let mut stdout = std::io::stdout();
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
                return fail(
                    &Failure {
                        code: "internal_error".into(),
                        message: "the bridge closed the connection".into(),
                    },
                    pretty,
                )
            }
        };
        if writeln!(stdout, "{}", to_text(&line, pretty)).is_err() {
            return ExitCode::SUCCESS; // stdout closed (e.g. `| head`)
        }
        let _ = stdout.flush();
        printed += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locator_flags_become_flat_or_nested_keys() {
        let mut p = Map::new();
        LocatorArgs {
            uid: Some("e3".into()),
            ..Default::default()
        }
        .write(&mut p, false)
        .unwrap();
        assert_eq!(Value::Object(p), json!({"uid": "e3"}));

        let mut p = Map::new();
        LocatorArgs {
            text: Some("Sign in".into()),
            index: Some(1),
            ..Default::default()
        }
        .write(&mut p, true)
        .unwrap();
        assert_eq!(
            Value::Object(p),
            json!({"locator": {"text": "Sign in", "index": 1}})
        );

        let err = LocatorArgs::default()
            .write(&mut Map::new(), false)
            .unwrap_err();
        assert_eq!(err.code, "invalid_action");
        let err = LocatorArgs {
            uid: Some("e1".into()),
            selector: Some("#a".into()),
            ..Default::default()
        }
        .write(&mut Map::new(), false)
        .unwrap_err();
        assert!(err.message.contains("uid and selector"), "{}", err.message);
    }

    #[test]
    fn elements_render_as_json_or_as_lines() {
        let r = json!({"url": "u", "title": "t", "totalElements": 2, "truncated": {"elements": false},
            "elements": [{"uid": "e0", "role": "button", "name": "Save"},
                         {"uid": "e1", "role": "textbox", "name": "Email", "value": "a@b", "visible": false}]});
        let lines = render(&r, &Output::Elements, true).unwrap();
        assert_eq!(
            lines,
            "e0    button       \"Save\"\ne1    textbox      \"Email\" value=\"a@b\" (off-screen)"
        );
        let v: Value =
            serde_json::from_str(&render(&r, &Output::Elements, false).unwrap()).unwrap();
        assert_eq!(v["totalElements"], 2);
        assert_eq!(v["truncated"], false);
        assert_eq!(v["elements"][1]["uid"], "e1");
    }

    #[test]
    fn screenshots_are_written_decoded() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("shot.png");
        let r = json!({"mime": "image/png", "data": "iVBORw0KGgo=", "width": 3, "height": 2});
        let text = render(&r, &Output::ScreenshotTo(file.clone()), false).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"\x89PNG\r\n\x1a\n");
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["bytes"], 8);
        assert_eq!(v["width"], 3);
        let bad = json!({"data": "%%%"});
        assert_eq!(
            render(&bad, &Output::ScreenshotTo(file), false)
                .unwrap_err()
                .code,
            "internal_error"
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
}
