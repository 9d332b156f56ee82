//! Printing a result: JSON (one line, or indented with `--pretty`), Markdown or element lines of
//! `extract`, the files of `screenshot -o` and `pdf -o`; a failure as `{"code","error"}` with exit
//! status 1, and a closed stdout as [`BROKEN_PIPE_EXIT`].

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use base64::Engine;
use serde_json::{json, Value};

use super::failure::Failure;
use super::request::{sniff_image, Output};

/// The exit status when stdout was closed before the output was written (128 + SIGPIPE, what a
/// shell reports for `cat big | head -1`'s `cat`).
pub const BROKEN_PIPE_EXIT: u8 = 141;

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
            .map(|r| {
                // The page inside its boundary, as the MCP server gives it (SPEC §9 "Boundaries").
                let origin = bua_protocol::text::boundary::origin_of(&r.url);
                let text = bua_protocol::text::extract_text(&r);
                crate::mcp::PageMark::new(origin).wrap(&text)
            })
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
