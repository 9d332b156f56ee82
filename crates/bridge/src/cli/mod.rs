//! The client side of the command line (SPEC §9): `call` and the friendly subcommands people reach
//! for (`tabs`, `open`, `navigate`, `extract`, `click`, `type`, `eval`, `screenshot`, `events`).
//!
//! Each friendly subcommand is one request: [`Request`] says which method with which params, and
//! how its result is printed ([`Output`]). Output is JSON on stdout (one line; `--pretty` indents);
//! a failure prints `{"code":"…","error":"…"}` on stdout and the process exits with status 1. The
//! codes are SPEC §8's, plus the client-side [`BRIDGE_UNREACHABLE`] when no bridge answers. When
//! stdout is closed early (`bua-bridge tabs | head -c 10`) the process ends quietly with
//! [`BROKEN_PIPE_EXIT`].
//!
//! Every invocation is a new connection, so all of them say `hello` with one stable agent owner
//! ([`DEFAULT_OWNER`], or `--owner` / `$BUA_OWNER`): `open` twice puts both tabs in one agent
//! window, and `call close_agent_tabs` closes them (SPEC §2 client `hello` `owner`, §6, §9).
//!
//! The pure parts (params, locators, owners, image formats, rendering) are plain functions with
//! unit tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use base64::Engine;
use bua_protocol::{Action, ImageFormat, Locator};
use serde_json::{json, Value};

use crate::client::{action_params, after_connection_lost, BridgeClient, Endpoint};
pub use crate::error::BRIDGE_UNREACHABLE;
use crate::error::{Error, Result};
use crate::token;

/// The agent owner of CLI invocations that name none: every `bua-bridge open`, `click`, `call …`
/// acts as this one agent, whatever process runs it.
pub const DEFAULT_OWNER: &str = "cli";

/// The environment variable that names the CLI's agent owner when `--owner` is not given.
pub const OWNER_ENV: &str = "BUA_OWNER";

/// The exit status when stdout was closed before the output was written (128 + SIGPIPE, what a
/// shell reports for `cat big | head -1`'s `cat`).
pub const BROKEN_PIPE_EXIT: u8 = 141;

/// The CLI's agent owner: `--owner`, else `$BUA_OWNER` (when not empty), else [`DEFAULT_OWNER`].
///
/// Errors: `invalid_action` naming `--owner` or `BUA_OWNER` when the owner is not 1–64 printable
/// characters ([`bua_protocol::check_owner`]).
pub fn resolve_owner(
    flag: Option<&str>,
    env: Option<&str>,
) -> std::result::Result<String, Failure> {
    let (owner, source) = match (flag, env.filter(|e| !e.is_empty())) {
        (Some(f), _) => (f, "--owner"),
        (None, Some(e)) => (e, OWNER_ENV),
        (None, None) => (DEFAULT_OWNER, ""),
    };
    bua_protocol::check_owner(owner)
        .map_err(|what| Failure::invalid(format!("{source}: the owner {what}")))?;
    Ok(owner.to_string())
}

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
    /// The agent owner named in `hello` (see [`resolve_owner`]); `None`: the bridge's client id.
    pub owner: Option<String>,
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
        token::read(&self.token_path()?)
    }

    /// `--token-file`, else the default token file.
    fn token_path(&self) -> Result<PathBuf> {
        match &self.token_file {
            Some(p) => Ok(p.clone()),
            None => token::default_path(),
        }
    }

    /// Why no token could be read, as the CLI reports it (`unauthorized`) — unless no bridge
    /// answers either: then that is the first thing to fix ([`BRIDGE_UNREACHABLE`]).
    async fn token_failure(&self, e: Error) -> Failure {
        let url = self.endpoint().url();
        if let Err(source) = probe(&url).await {
            return Failure::from(Error::Unreachable { url, source });
        }
        let message = match (&e, self.token_path()) {
            (Error::Io { source, .. }, Ok(path))
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                format!(
                    "no pairing token: {} does not exist; `bua-bridge serve` creates it (or pass --token or --token-file)",
                    path.display()
                )
            }
            _ => format!("{e} (pass --token or --token-file)"),
        };
        Failure {
            code: "unauthorized".into(),
            message,
        }
    }

    /// Connects as [`Connection::owner`] with the token already known to work (used to reconnect).
    ///
    /// Errors: those of [`Connection::token`] and [`BridgeClient::connect_as`].
    async fn connect_client(&self) -> Result<BridgeClient> {
        let token = self.token()?;
        BridgeClient::connect_as(self.endpoint(), &token, self.owner.as_deref()).await
    }

    /// Connects as [`Connection::owner`]; a bridge that cannot be reached gives a message that
    /// names the URL and says how to start one.
    ///
    /// Errors: see [`Failure`]: `unauthorized` (token), [`BRIDGE_UNREACHABLE`] (nothing listens),
    /// `timeout` (something listens but never completes the handshake), `invalid_action` (a URL
    /// that is not `ws://`, a malformed owner).
    pub async fn connect(&self) -> std::result::Result<BridgeClient, Failure> {
        let token = match self.token() {
            Ok(t) => t,
            Err(e) => return Err(self.token_failure(e).await),
        };
        let endpoint = self.endpoint();
        let url = endpoint.url();
        match BridgeClient::connect_as(endpoint, &token, self.owner.as_deref()).await {
            Ok(c) => Ok(c),
            Err(e @ Error::Timeout { .. }) => Err(Failure {
                code: e.client_code().into(),
                message: format!(
                    "{e}: is a bua-bridge listening at {url}? Start one with `bua-bridge serve`"
                ),
            }),
            Err(e @ Error::InvalidEndpoint { .. }) => Err(Failure::invalid(format!("--url: {e}"))),
            Err(e) => Err(Failure::from(e)),
        }
    }
}

/// Opens (and closes) a TCP connection to the host and port of `url`, within 2 s. A URL that does
/// not parse passes: the WebSocket connect reports it.
///
/// Errors: the connect error (refused, unreachable, timed out).
async fn probe(url: &str) -> std::io::Result<()> {
    let Ok(parsed) = url::Url::parse(url) else {
        return Ok(());
    };
    let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
        return Ok(());
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match tokio::time::timeout(
        Duration::from_secs(2),
        tokio::net::TcpStream::connect((host, port)),
    )
    .await
    {
        Ok(connected) => connected.map(drop),
        Err(_) => Err(std::io::Error::from(std::io::ErrorKind::TimedOut)),
    }
}

/// A failure as the CLI prints it: `{"code":"…","error":"…"}`, exit status 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The SPEC §8 error code (`no_extension`, `invalid_action`, …), or the client-side
    /// [`BRIDGE_UNREACHABLE`].
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
            code: e.client_code().into(),
            message: e.to_string(),
        }
    }
}

/// The params of `call <method> '<json>'`: absent → none; otherwise a JSON object.
///
/// Errors: `invalid_action` saying what is wrong (not JSON, with where; or not an object) and how
/// to quote it in a shell.
pub fn parse_params(text: Option<&str>) -> std::result::Result<Value, Failure> {
    let Some(text) = text else {
        return Ok(Value::Null);
    };
    const HINT: &str =
        "give one JSON object in single quotes, e.g. '{\"url\":\"https://example.com\"}'";
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(Value::Null) => Ok(Value::Null),
        Ok(other) => Err(Failure::invalid(format!(
            "params: expected a JSON object, got {}; {HINT}",
            match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                _ => "a boolean",
            }
        ))),
        Err(e) => Err(Failure::invalid(format!(
            "params: not valid JSON ({e}); {HINT}"
        ))),
    }
}

/// Refuses, before connecting, a `call` method that is the name of a friendly subcommand but not a
/// protocol method (`open`, `tabs`, `eval`), naming both ways to say it.
///
/// Errors: `invalid_action`, e.g. "unknown method `open`: the method is `open_tab` (…), or use
/// `bua-bridge open <URL>`".
pub fn check_method(method: &str) -> std::result::Result<(), Failure> {
    let (action, usage) = match method {
        "open" => ("open_tab", "bua-bridge open <URL>"),
        "tabs" => ("get_tabs", "bua-bridge tabs"),
        "eval" => ("evaluate", "bua-bridge eval '<js>'"),
        _ => return Ok(()),
    };
    Err(Failure::invalid(format!(
        "unknown method `{method}`: the method is `{action}` (`bua-bridge call {action} '{{…}}'`), or use `{usage}`"
    )))
}

/// The image format of `screenshot -o FILE [--format F]`: from the file's extension (`.png`;
/// `.jpg`/`.jpeg`, any case), else `--format` (`png`, `jpeg`/`jpg`), else PNG.
///
/// Errors (`invalid_action`): an unknown `--format`; a `--format` that contradicts the extension
/// (`-o x.jpg --format png`); an extension that is no image format we write (`.webp`) without a
/// `--format`.
pub fn screenshot_format(
    path: &Path,
    flag: Option<&str>,
) -> std::result::Result<ImageFormat, Failure> {
    let parse = |s: &str| match s.to_ascii_lowercase().as_str() {
        "png" => Some(ImageFormat::Png),
        "jpeg" | "jpg" => Some(ImageFormat::Jpeg),
        _ => None,
    };
    let given = match flag {
        Some(f) => Some(parse(f).ok_or_else(|| {
            Failure::invalid(format!("--format: unknown format `{f}` (use png or jpeg)"))
        })?),
        None => None,
    };
    let ext = path.extension().map(|e| e.to_string_lossy().into_owned());
    let from_name = ext.as_deref().map(|e| (e, parse(e)));
    match (from_name, given) {
        (None, given) => Ok(given.unwrap_or_default()),
        (Some((_, Some(named))), Some(given)) if named != given => Err(Failure::invalid(format!(
            "--format {} conflicts with the file name {} ({}): drop --format or rename the file",
            given.as_str(),
            path.display(),
            named.as_str()
        ))),
        (Some((_, Some(named))), _) => Ok(named),
        (Some(_), Some(given)) => Ok(given),
        (Some((ext, None)), None) => Err(Failure::invalid(format!(
            "cannot tell the image format from `.{ext}`: name the file .png, .jpg or .jpeg, or pass --format png|jpeg"
        ))),
    }
}

/// The format whose signature `bytes` start with: PNG (`89 50 4E 47 0D 0A 1A 0A`) or JPEG
/// (`FF D8 FF`); `None` for anything else.
pub fn sniff_image(bytes: &[u8]) -> Option<ImageFormat> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(ImageFormat::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(ImageFormat::Jpeg)
    } else {
        None
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
    /// `extract --agent`: the text an MCP agent receives ([`crate::render::extract_text`]).
    AgentText,
    /// `screenshot -o FILE`: the image, checked to be of the format asked for, is written to the
    /// file; prints `{file, mime, width, height, bytes}`.
    ScreenshotTo(PathBuf, ImageFormat),
    /// `pdf -o FILE`: the PDF, checked to start with `%PDF-`, is written to the file; prints
    /// `{file, mime, bytes}`.
    PdfTo(PathBuf),
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
    /// The request of `action` (its canonical wire params, [`action_params`]), printed as `output`.
    pub fn action(action: &Action, output: Output) -> Self {
        Request {
            method: action.name().into(),
            params: action_params(action),
            output,
        }
    }

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
    /// The element the flags name.
    ///
    /// Errors (`invalid_action`): none or several of uid/selector/text/xpath given, or `--index`
    /// with a uid (a uid names one element).
    pub fn locator(&self) -> std::result::Result<Locator, Failure> {
        let given: Vec<(&str, &String)> = [
            ("uid", &self.uid),
            ("selector", &self.selector),
            ("text", &self.text),
            ("xpath", &self.xpath),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
        .collect();
        if given.len() > 1 {
            let keys: Vec<&str> = given.iter().map(|(k, _)| *k).collect();
            return Err(Failure::invalid(format!(
                "give only one of uid, --selector, --text, --xpath (got {})",
                keys.join(" and ")
            )));
        }
        let index = self.index.unwrap_or(0);
        match (&self.uid, &self.selector, &self.text, &self.xpath) {
            (Some(_), ..) if self.index.is_some() => Err(Failure::invalid(
                "--index is not allowed with a uid (a uid names one element)",
            )),
            (Some(uid), ..) => Ok(Locator::uid(uid.clone())),
            (_, Some(selector), ..) => Ok(Locator::Selector {
                selector: selector.clone(),
                index,
            }),
            (_, _, Some(text), _) => Ok(Locator::Text {
                text: text.clone(),
                index,
            }),
            (.., Some(xpath)) => Ok(Locator::Xpath {
                xpath: xpath.clone(),
                index,
            }),
            _ => Err(Failure::invalid(
                "give the element: a uid from `bua-bridge extract --elements`, or --selector, --text or --xpath",
            )),
        }
    }
}

/// The element uid and the text of `type <UID> <TEXT>` / `type --selector S <TEXT>`: two
/// positionals are a uid and a text; one is the text when a locator flag names the element.
///
/// Errors (`invalid_action`): one positional and no locator flag — the text is missing (or, for
/// something that is not a uid, the element), said as such with the command to type.
pub fn type_args(
    mut args: Vec<String>,
    locator_flag: bool,
) -> std::result::Result<(Option<String>, String), Failure> {
    match (args.len(), locator_flag) {
        (2, _) => {
            let text = args.pop().unwrap_or_default();
            Ok((args.pop(), text))
        }
        (1, true) => Ok((None, args.pop().unwrap_or_default())),
        _ => {
            let given = args.first().map(String::as_str).unwrap_or_default();
            let is_uid = given.len() > 1
                && given.starts_with('e')
                && given[1..].bytes().all(|b| b.is_ascii_digit());
            Err(Failure::invalid(if is_uid {
                format!("type: the text to type is missing: `bua-bridge type {given} '<text>'`")
            } else {
                format!(
                    "type: give the element and the text: `bua-bridge type <uid> '<text>'` or `bua-bridge type --selector '<css>' '<text>'` (only {given:?} was given)"
                )
            }))
        }
    }
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
        Output::AgentText => serde_json::from_value::<bua_protocol::ExtractResult>(result.clone())
            .map(|r| crate::render::extract_text(&r))
            .map_err(|e| Failure {
                code: "internal_error".into(),
                message: format!("the extract result does not have the SPEC §5 shape: {e}"),
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
                    match e.get("checked") {
                        Some(Value::Bool(true)) => line.push_str(" checked"),
                        Some(Value::String(m)) if m == "mixed" => line.push_str(" mixed"),
                        _ => {}
                    }
                    // extract sends `visible` only when true (SPEC §5 elements).
                    if e.get("visible") != Some(&Value::Bool(true)) {
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
        Output::ScreenshotTo(path, format) => {
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
            let found = sniff_image(&bytes);
            if found != Some(*format) {
                return Err(Failure {
                    code: "internal_error".into(),
                    message: format!(
                        "asked for a {} screenshot but got {} bytes; {} not written",
                        format.as_str(),
                        found.map_or("unrecognised", |f| f.as_str()),
                        path.display()
                    ),
                });
            }
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
        Output::PdfTo(path) => {
            let bytes = result
                .get("data")
                .and_then(Value::as_str)
                .and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok())
                .filter(|b| b.starts_with(b"%PDF-"))
                .ok_or_else(|| Failure {
                    code: "internal_error".into(),
                    message: format!(
                        "the pdf result carries no PDF; {} not written",
                        path.display()
                    ),
                })?;
            write_file(path, &bytes)?;
            let summary = json!({
                "file": path.display().to_string(),
                "mime": result.get("mime"),
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

/// Writes `text` and a newline to stdout and flushes.
///
/// Errors: the exit status to end with — [`BROKEN_PIPE_EXIT`], silently, when the reader is gone
/// (`| head`); status 1, with a line on stderr, for any other write failure (e.g. a full disk).
pub fn print_line(text: &str) -> std::result::Result<(), ExitCode> {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(ExitCode::from(BROKEN_PIPE_EXIT))
        }
        Err(e) => {
            // stderr may be gone too: never panic over it.
            let _ = writeln!(std::io::stderr(), "bua-bridge: cannot write to stdout: {e}");
            Err(ExitCode::FAILURE)
        }
    }
}

/// Prints a failure and returns exit status 1 (or [`BROKEN_PIPE_EXIT`] if stdout is gone).
pub fn fail(failure: &Failure, pretty: bool) -> ExitCode {
    match print_line(&to_text(&failure.to_json(), pretty)) {
        Ok(()) => ExitCode::FAILURE,
        Err(code) => code,
    }
}

/// Prints a result and returns exit status 0 (or [`BROKEN_PIPE_EXIT`] if stdout is gone).
pub fn succeed(text: &str) -> ExitCode {
    match print_line(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// Connects, sends one request, prints its rendered result; exit status 0, or 1 with the error JSON.
pub async fn run(conn: &Connection, request: Request, pretty: bool) -> ExitCode {
    let client = match conn.connect().await {
        Ok(c) => c,
        Err(f) => return fail(&f, pretty),
    };
    let (client, answer) = call_across_takeover(conn, client, &request).await;
    // Close before printing: the bridge sees a clean close, not a reset, when the process exits.
    if let Some(client) = client {
        client.close().await;
    }
    match answer {
        Ok(result) => match render(&result, &request.output, pretty) {
            Ok(text) => succeed(&text),
            Err(f) => fail(&f, pretty),
        },
        Err(e) => fail(&Failure::from(e), pretty),
    }
}

/// Sends `request` on `client`; when the bridge goes away before answering and sending it again is
/// safe ([`after_connection_lost`]), connects again — to the bridge that took the port over, for up
/// to 5 s — and sends it again (SPEC §9, "Takeover"). Returns the client last used (none when the
/// reconnect failed) and the answer.
async fn call_across_takeover(
    conn: &Connection,
    mut client: BridgeClient,
    request: &Request,
) -> (Option<BridgeClient>, Result<Value>) {
    const WINDOW: Duration = Duration::from_secs(5);
    for _ in 0..3 {
        let answer = client.call(&request.method, request.params.clone()).await;
        let lost = match answer {
            Err(e @ (Error::Closed(_) | Error::NotSent(_))) => e,
            other => return (Some(client), other),
        };
        if let Err(e) = after_connection_lost(&request.method, lost) {
            return (Some(client), Err(e));
        }
        let deadline = tokio::time::Instant::now() + WINDOW;
        client = loop {
            match conn.connect_client().await {
                Ok(c) => break c,
                Err(e) if e.is_bridge_gone() && tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => return (None, Err(e)),
            }
        };
    }
    let answer = client.call(&request.method, request.params.clone()).await;
    (Some(client), answer)
}

/// `events`: subscribes and prints each forwarded event as one JSON line (with `"dropped": N`
/// when the bridge dropped older events), until `count` events were printed, `limit` passed, the
/// bridge closed, or the process is interrupted. Exit status 0 unless subscribing failed or the
/// bridge went away (then a `bridge_unreachable` failure, status 1).
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
    let code = print_events(&client, count, limit, pretty).await;
    client.close().await;
    code
}

/// The failure `events` ends with when the connection to the bridge ends (`why`: the client's words):
/// code `bridge_unreachable`, since no bridge answers any more.
fn bridge_gone(why: &str) -> Failure {
    Failure {
        code: crate::error::BRIDGE_UNREACHABLE.into(),
        message: format!(
            "{why}: the bridge stopped, so no more events will come; start it again (`bua-bridge serve` or \
             `bua-bridge launch`) and run `bua-bridge events` again"
        ),
    }
}

/// The loop of [`follow_events`] on a connected client.
async fn print_events(
    client: &BridgeClient,
    count: Option<u64>,
    limit: Option<Duration>,
    pretty: bool,
) -> ExitCode {
    let mut events = client.forwarded_events();
    if let Err(e) = client.call("subscribe_events", json!({})).await {
        return fail(&Failure::from(e), pretty);
    }
    // Tell a watching script that the subscription is live (stderr keeps stdout pure JSON lines).
    let _ = writeln!(
        std::io::stderr(),
        "bua-bridge: following events as {}",
        client.client_id()
    );
    let deadline = limit.map(|l| tokio::time::Instant::now() + l);
    let mut printed = 0u64;
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
            why = client.closed() => return fail(&bridge_gone(&why), pretty),
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
                return fail(&bridge_gone("the bridge closed the connection"), pretty)
            }
        };
        if let Err(code) = print_line(&to_text(&line, pretty)) {
            return code; // stdout closed (e.g. `| head`)
        }
        printed += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let e = fmt("x.jpg", Some("png")).unwrap_err();
        assert_eq!(e.code, "invalid_action");
        assert!(
            e.message
                .contains("--format png conflicts with the file name x.jpg"),
            "{}",
            e.message
        );
        let e = fmt("x.webp", None).unwrap_err();
        assert!(
            e.message.contains("`.webp`") && e.message.contains("--format"),
            "{}",
            e.message
        );
        let e = fmt("x.png", Some("gif")).unwrap_err();
        assert!(e.message.contains("unknown format `gif`"), "{}", e.message);
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
        let e = resolve_owner(Some(""), None).unwrap_err();
        assert_eq!(e.code, "invalid_action");
        assert_eq!(e.message, "--owner: the owner is empty");
        let e = resolve_owner(None, Some("a\tb")).unwrap_err();
        assert!(
            e.message
                .starts_with("BUA_OWNER: the owner contains a control character"),
            "{}",
            e.message
        );
    }

    #[test]
    fn subcommand_names_are_not_methods() {
        assert!(check_method("open_tab").is_ok());
        assert!(check_method("list_tabs").is_ok());
        let e = check_method("open").unwrap_err();
        assert_eq!(e.code, "invalid_action");
        assert_eq!(
            e.message,
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
        let e = parse_params(Some("{url: 1}")).unwrap_err();
        assert_eq!(e.code, "invalid_action");
        assert!(
            e.message
                .starts_with("params: not valid JSON (key must be a string at line 1 column 2)"),
            "{}",
            e.message
        );
        assert!(e.message.contains("single quotes"), "{}", e.message);
        let e = parse_params(Some("[1]")).unwrap_err();
        assert!(
            e.message
                .starts_with("params: expected a JSON object, got an array"),
            "{}",
            e.message
        );
        let e = parse_params(Some("https://example.com")).unwrap_err();
        assert!(e.message.contains("not valid JSON"), "{}", e.message);
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
        let e = type_args(args(&["e4"]), false).unwrap_err();
        assert_eq!(e.code, "invalid_action");
        assert_eq!(
            e.message,
            "type: the text to type is missing: `bua-bridge type e4 '<text>'`"
        );
        let e = type_args(args(&["hello"]), false).unwrap_err();
        assert!(
            e.message.starts_with(
                "type: give the element and the text: `bua-bridge type <uid> '<text>'`"
            ) && e.message.ends_with("(only \"hello\" was given)"),
            "{}",
            e.message
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
