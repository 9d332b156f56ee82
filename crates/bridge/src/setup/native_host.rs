//! The native-messaging host that pairs the extension without a pasted token (SPEC §11 "Pairing without
//! pasting"). Chrome starts `bua-bridge` with the caller's origin as its first argument
//! (`chrome-extension://<id>/`) and speaks length-prefixed JSON on stdio (a 4-byte native-endian length, then
//! UTF-8 JSON). The host answers only our extension ([`EXTENSION_ID`], also the manifest's only
//! `allowed_origins`) and only `{"type":"pairing"}`, with `{"url","token"}`: the bridge URL `install` recorded
//! and the token of the token file (created when missing, as `serve` does).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error::{Error, Result};

/// The host's name (its manifest's `name` and file name): what the extension asks for.
pub const HOST_NAME: &str = "com.bua.bridge";

/// Our extension's id (fixed by the manifest's `key`, SPEC §2): the only origin allowed.
pub const EXTENSION_ID: &str = "obbcebjpclnphmijagoggibdnbknjkao";

/// The largest message the host reads, bytes (a pairing request is a few dozen).
const MAX_MESSAGE_BYTES: u32 = 64 * 1024;

/// What the host answers with, written by `install` to `<config>/bua/native-host.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HostConfig {
    /// The bridge's WebSocket URL, e.g. `ws://127.0.0.1:9225`.
    pub url: String,
    /// The pairing token file the bridge uses.
    pub token_file: PathBuf,
}

/// The origin the host accepts: `chrome-extension://<EXTENSION_ID>/`.
pub fn allowed_origin() -> String {
    format!("chrome-extension://{EXTENSION_ID}/")
}

/// The host manifest Chrome reads: `name`, `description`, `path` (this binary, absolute), `type: stdio`,
/// `allowed_origins` (our extension only).
pub fn host_manifest(bridge: &Path) -> Value {
    json!({
        "name": HOST_NAME,
        "description": "BUA Browser Bridge: gives the extension the bridge's URL and pairing token",
        "path": bridge.display().to_string(),
        "type": "stdio",
        "allowed_origins": [allowed_origin()],
    })
}

/// Whether `arg` (the first command-line argument) is how Chrome starts a native-messaging host.
pub fn is_host_invocation(arg: &str) -> bool {
    arg.starts_with("chrome-extension://")
}

/// The answer to `request` from `origin`: `Some({"url","token"})` for our extension's `{"type":"pairing"}`,
/// `None` (no answer) for anything else. `token` is read when needed.
pub fn answer(
    origin: &str,
    request: &Value,
    config: &HostConfig,
    token: impl FnOnce() -> Result<String>,
) -> Option<Value> {
    if origin.trim_end_matches('/') != allowed_origin().trim_end_matches('/') {
        return None;
    }
    if request.get("type").and_then(Value::as_str) != Some("pairing") {
        return None;
    }
    match token() {
        Ok(token) => Some(json!({"url": config.url, "token": token})),
        Err(e) => Some(json!({"error": e.to_string()})),
    }
}

/// Runs the host for `origin` on stdin/stdout: answers each message until stdin closes or a message gets no
/// answer. `config_path`: the file `install` wrote (defaults when missing).
///
/// Errors: a malformed frame, or stdout closed.
pub fn serve_stdio(origin: &str, config_path: &Path, default: HostConfig) -> Result<()> {
    let config = std::fs::read(config_path)
        .ok()
        .and_then(|b| serde_json::from_slice::<HostConfig>(&b).ok())
        .unwrap_or(default);
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    while let Some(request) = read_message(&mut stdin)? {
        let token = || crate::token::load_or_create(&config.token_file);
        let Some(reply) = answer(origin, &request, &config, token) else {
            return Ok(());
        };
        write_message(&mut stdout, &reply)?;
    }
    Ok(())
}

/// One message: `None` at end of input.
///
/// Errors: a length over [`MAX_MESSAGE_BYTES`], a short read, or not JSON.
pub fn read_message(input: &mut impl Read) -> Result<Option<Value>> {
    let mut len = [0u8; 4];
    match input.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(Error::io("reading a native message", e)),
    }
    let len = u32::from_ne_bytes(len);
    if len > MAX_MESSAGE_BYTES {
        return Err(Error::Install(format!(
            "native message of {len} bytes refused (at most {MAX_MESSAGE_BYTES})"
        )));
    }
    let mut body = vec![0u8; len as usize];
    input
        .read_exact(&mut body)
        .map_err(|e| Error::io("reading a native message", e))?;
    Ok(Some(serde_json::from_slice(&body)?))
}

/// Writes one message (length prefix, JSON).
///
/// Errors: the output is closed.
pub fn write_message(output: &mut impl Write, message: &Value) -> Result<()> {
    let body = message.to_string();
    let len = u32::try_from(body.len()).unwrap_or(u32::MAX);
    output
        .write_all(&len.to_ne_bytes())
        .and_then(|()| output.write_all(body.as_bytes()))
        .and_then(|()| output.flush())
        .map_err(|e| Error::io("writing a native message", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> HostConfig {
        HostConfig {
            url: "ws://127.0.0.1:9300".into(),
            token_file: "/t".into(),
        }
    }

    #[test]
    fn only_our_extension_asking_for_pairing_gets_the_url_and_token() {
        let ours = "chrome-extension://obbcebjpclnphmijagoggibdnbknjkao/";
        let pairing = json!({"type": "pairing"});
        let token = || Ok("tok".to_string());
        assert_eq!(
            answer(ours, &pairing, &config(), token),
            Some(json!({"url": "ws://127.0.0.1:9300", "token": "tok"}))
        );
        let other = "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/";
        assert_eq!(answer(other, &pairing, &config(), token), None);
        assert_eq!(
            answer(ours, &json!({"type": "other"}), &config(), token),
            None
        );
        assert_eq!(answer(ours, &json!("pairing"), &config(), token), None);
    }

    #[test]
    fn messages_are_length_prefixed_json_and_the_manifest_allows_only_our_extension() {
        let mut wire = Vec::new();
        write_message(&mut wire, &json!({"type": "pairing"})).expect("write");
        assert_eq!(&wire[..4], &18u32.to_ne_bytes());
        let mut input = wire.as_slice();
        assert_eq!(
            read_message(&mut input).expect("read"),
            Some(json!({"type": "pairing"}))
        );
        assert_eq!(read_message(&mut input).expect("eof"), None);
        let huge = (MAX_MESSAGE_BYTES + 1).to_ne_bytes();
        assert!(read_message(&mut huge.as_slice()).is_err());
        let manifest = host_manifest(Path::new("/opt/bua-bridge"));
        assert_eq!(manifest["allowed_origins"], json!([allowed_origin()]));
        assert_eq!(manifest["path"], "/opt/bua-bridge");
        assert_eq!(manifest["type"], "stdio");
        assert!(is_host_invocation(&allowed_origin()));
        assert!(!is_host_invocation("serve"));
    }
}
