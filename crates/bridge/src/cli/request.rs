//! What a client subcommand asks: the method and params of `call`, a friendly subcommand's
//! [`Request`] (built from a typed [`Action`]) and how its result is printed ([`Output`]), and the
//! flags that name an element ([`LocatorArgs`]) or a screenshot's format.

use std::path::{Path, PathBuf};

use bua_protocol::{Action, ImageFormat, Locator};
use serde_json::Value;

use super::failure::Failure;
use crate::client::action_params;

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
    /// `extract --agent`: the text an MCP agent receives ([`bua_protocol::text::extract_text`]).
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
