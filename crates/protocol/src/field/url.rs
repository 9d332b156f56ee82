//! The absolute URL of `open_tab` / `navigate`: its accepted schemes and the did-you-mean for a
//! URL written without its scheme.

use super::codec::{Codec, Cx};
use crate::wire::{Fields, Res};
#[cfg(feature = "schema")]
use serde_json::json;
use serde_json::{Map, Value};

/// The absolute URL of `open_tab` / `navigate` (see [`read_url`]).
pub(crate) struct Url;

impl Codec for Url {
    type T = String;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<String> {
        read_url(f, key)
    }
    fn write(&self, v: &String, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        m.insert(key.into(), Value::String(v.clone()));
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "string", "format": "uri"})
    }
    fn required(&self) -> bool {
        true
    }
}

/// URL schemes `open_tab` / `navigate` accept.
pub const URL_SCHEMES: [&str; 5] = ["http", "https", "file", "about", "data"];

/// The absolute URL a user probably meant by `raw` when it lacks the scheme (`example.com/a`,
/// `localhost:8080`): `https://…` for a host with a dot, `http://…` for `localhost`; `None` for
/// anything that is not a plain host (spaces, no dot: `not a url`).
pub(crate) fn suggest_absolute(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty() || raw.contains(char::is_whitespace) || raw.contains("://") {
        return None;
    }
    let guess = |scheme: &str| {
        let candidate = format!("{scheme}://{raw}");
        let parsed = url::Url::parse(&candidate).ok()?;
        let host = parsed.host_str()?.to_ascii_lowercase();
        let plain_host = host.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
        let named =
            (host.contains('.') && plain_host && !host.ends_with(|c: char| c.is_ascii_digit()))
                || matches!(parsed.host(), Some(url::Host::Ipv4(_)));
        (named || host == "localhost").then_some((candidate, host))
    };
    match guess("https")? {
        (_, host) if host == "localhost" || host.starts_with("127.") => {
            guess("http").map(|(c, _)| c)
        }
        (candidate, _) => Some(candidate),
    }
}

/// Reads the absolute URL `key` of `open_tab` / `navigate`, with a did-you-mean for a URL without
/// its scheme.
pub(crate) fn read_url(f: &mut Fields<'_>, key: &str) -> Res<String> {
    let raw = f.req_nonempty(key)?;
    match url::Url::parse(raw.trim()) {
        Ok(parsed) => {
            if !URL_SCHEMES.contains(&parsed.scheme()) {
                // `localhost:8080`, `example.com:8080/x` parse with the host as the scheme.
                let after = raw.trim().split_once(':').map_or("", |(_, rest)| rest);
                let hint = if after.starts_with(|c: char| c.is_ascii_digit()) {
                    suggest_absolute(&raw).map(|s| format!(" (did you mean `{s}`?)"))
                } else {
                    None
                };
                return Err(f.err(
                    key,
                    hint.unwrap_or_else(|| {
                        format!(
                            "scheme `{}` is not supported: use an http or https URL (about:blank and data: URLs open too; file:// URLs are always refused)",
                            parsed.scheme()
                        )
                    }),
                ));
            }
            if matches!(parsed.scheme(), "http" | "https")
                && parsed.host_str().is_none_or(str::is_empty)
            {
                return Err(f.err(key, "has no host"));
            }
            Ok(raw)
        }
        Err(url::ParseError::RelativeUrlWithoutBase) => Err(f.err(
            key,
            match suggest_absolute(&raw) {
                Some(s) => format!("`{raw}` is not an absolute URL (did you mean `{s}`?)"),
                None => format!(
                    "`{raw}` is not an absolute URL: give the whole URL with its scheme, e.g. https://example.com/"
                ),
            },
        )),
        Err(e) => Err(f.err(key, format!("`{raw}` is not a valid URL ({e})"))),
    }
}
