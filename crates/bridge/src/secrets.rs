//! The person's named secrets (SPEC §4 "Secrets"): a JSON file only they can read (mode 0600; default
//! `~/.config/bua/secrets`, or `--secrets FILE`), each secret bound to the origins where it may be typed:
//!
//! ```json
//! {"bank": {"value": "correct horse", "origins": ["https://bank.example"]}}
//! ```
//!
//! The bridge reads the file at each `type {secret}` / `fill` field `value: {secret}` (so an edit needs no
//! restart), puts the value in the request it sends the extension with the bound origins in
//! `secretOrigins`, and nowhere else: not in logs, not in the answer. The extension checks the tab's origin
//! before typing. A client never sends `secretOrigins` (refused).

use bua_protocol::{Action, ErrorBody, ErrorCode, FillValue};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One secret as the file holds it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    value: String,
    origins: Vec<String>,
}

/// A secret ready to send: its value and its origins (normalised, space-separated).
#[derive(Clone, PartialEq, Eq)]
pub struct Secret {
    /// The value to type.
    pub value: String,
    /// `https://bank.example http://127.0.0.1:8080`.
    pub origins: String,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret {{ origins: {:?} }}", self.origins)
    }
}

/// `~/.config/bua/secrets` (beside the pairing token), or `None` without a home.
pub fn default_path() -> Option<PathBuf> {
    crate::token::default_path()
        .ok()
        .map(|p| p.with_file_name("secrets"))
}

/// Refuses a file that others may read or write, saying how to fix it.
pub fn check_permissions(path: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| {
        format!(
            "cannot read the secrets file {}: {e}; create it (JSON: {{\"name\": {{\"value\": \"…\", \"origins\": [\"https://site.example\"]}}}}) and run `chmod 600 {}`",
            path.display(),
            path.display()
        )
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(format!(
                "the secrets file {} can be read by other users (mode {mode:o}); refused: run `chmod 600 {}`",
                path.display(),
                path.display()
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    Ok(())
}

/// Reads and checks the whole file: every secret with at least one origin.
pub fn load(path: &Path) -> Result<BTreeMap<String, Secret>, String> {
    check_permissions(path)?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the secrets file {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("the secrets file {}: {e}", path.display()))
}

/// Parses the file's text (pure).
pub fn parse(text: &str) -> Result<BTreeMap<String, Secret>, String> {
    let entries: BTreeMap<String, Entry> = serde_json::from_str(text).map_err(|e| {
        format!("not JSON of the form {{\"name\": {{\"value\": \"…\", \"origins\": [\"https://site.example\"]}}}} ({e})")
    })?;
    entries
        .into_iter()
        .map(|(name, entry)| {
            let origins = entry
                .origins
                .iter()
                .map(|o| {
                    bua_protocol::secret::origin_of(o).ok_or_else(|| {
                        format!(
                            "secret {name:?}: {o:?} is not an origin such as https://bank.example"
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            if origins.is_empty() {
                return Err(format!("secret {name:?}: bind it to at least one origin"));
            }
            Ok((
                name,
                Secret {
                    value: entry.value,
                    origins: origins.join(" "),
                },
            ))
        })
        .collect()
}

/// Puts the secrets an action names into it (the value in `text`/`value`, the origins in
/// `secretOrigins`). Actions without a secret are left as they are and need no file.
///
/// Errors: `invalid_action` for a `secretOrigins` sent by a client, no secrets file, a file others can read
/// (with the `chmod 600` fix) or a name the file does not hold.
pub fn resolve(action: &mut Action, file: Option<&Path>) -> Result<(), ErrorBody> {
    let names = named(action);
    if names.is_empty() {
        return Ok(());
    }
    let secrets = lookup(file)?;
    let get = |name: &str| {
        secrets.get(name).cloned().ok_or_else(|| {
            ErrorBody::invalid(format!(
                "secret {name:?} is not in the person's secrets file (it holds: {}); ask the person to add it",
                secrets.keys().cloned().collect::<Vec<_>>().join(", ")
            ))
        })
    };
    match action {
        Action::Type(t) => {
            if let Some(name) = &t.secret {
                let s = get(name)?;
                t.text = s.value;
                t.secret_origins = Some(s.origins);
            }
        }
        Action::Fill(f) => {
            for field in &mut f.fields {
                if let Some(name) = &field.secret {
                    let s = get(name)?;
                    field.value = FillValue::Text(s.value);
                    field.secret_origins = Some(s.origins);
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// The secret names an action uses; refuses a `secretOrigins` a client set.
fn named(action: &Action) -> Vec<String> {
    match action {
        Action::Type(t) => t.secret.iter().cloned().collect(),
        Action::Fill(f) => f.fields.iter().filter_map(|x| x.secret.clone()).collect(),
        _ => Vec::new(),
    }
}

fn lookup(file: Option<&Path>) -> Result<BTreeMap<String, Secret>, ErrorBody> {
    let Some(path) = file else {
        return Err(ErrorBody::invalid(
            "this bridge has no secrets file (no HOME, no --secrets FILE); ask the person to start it with --secrets FILE",
        ));
    };
    load(path).map_err(|m| ErrorBody::new(ErrorCode::InvalidAction, m))
}

/// Refuses an action whose `secretOrigins` a client set (only the bridge writes them).
pub fn refuse_client_origins(action: &Action) -> Result<(), ErrorBody> {
    let set = match action {
        Action::Type(t) => t.secret_origins.is_some(),
        Action::Fill(f) => f.fields.iter().any(|x| x.secret_origins.is_some()),
        _ => false,
    };
    if set {
        return Err(ErrorBody::invalid(
            "secretOrigins: set by the bridge only; give the secret's name in `secret`",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_secret_has_a_value_and_normalised_origins() {
        let s = parse(r#"{"bank": {"value": "pw 1", "origins": ["https://Bank.example/login", "http://127.0.0.1:8080"]}}"#).unwrap();
        assert_eq!(s["bank"].value, "pw 1");
        assert_eq!(
            s["bank"].origins,
            "https://bank.example http://127.0.0.1:8080"
        );
        assert!(
            !format!("{:?}", s["bank"]).contains("pw 1"),
            "Debug hides the value"
        );
        let e = parse(r#"{"bank": {"value": "x", "origins": []}}"#).unwrap_err();
        assert!(e.contains("at least one origin"), "{e}");
        let e = parse(r#"{"bank": {"value": "x", "origins": ["about:blank"]}}"#).unwrap_err();
        assert!(e.contains("not an origin"), "{e}");
        assert!(parse("bank=x").unwrap_err().contains("not JSON"));
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_can_read_is_refused_with_the_fix() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("bua-secrets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("secrets");
        std::fs::write(
            &path,
            r#"{"bank": {"value": "v", "origins": ["https://b.example"]}}"#,
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = load(&path).unwrap_err();
        assert!(e.contains(&format!("chmod 600 {}", path.display())), "{e}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(load(&path).unwrap()["bank"].value, "v");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_named_secret_is_put_into_type_and_fill_with_its_origins() {
        let dir = std::env::temp_dir().join(format!("bua-secrets-r-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("secrets");
        std::fs::write(
            &path,
            r#"{"bank": {"value": "v4lue", "origins": ["http://127.0.0.1:9"]}}"#,
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let mut a =
            Action::from_value(&json!({"type": "type", "selector": "#p", "secret": "bank"}))
                .unwrap();
        resolve(&mut a, Some(&path)).unwrap();
        let v = a.to_value();
        assert_eq!(v["text"], "v4lue");
        assert_eq!(v["secretOrigins"], "http://127.0.0.1:9");
        // The extension reads the bridge's form back.
        assert_eq!(Action::from_value(&v).unwrap(), a);
        let mut f = Action::from_value(&json!({"type": "fill", "fields": [{"selector": "#p", "value": {"secret": "bank"}}, {"selector": "#u", "value": "ada"}]})).unwrap();
        resolve(&mut f, Some(&path)).unwrap();
        let v = f.to_value();
        assert_eq!(v["fields"][0]["value"], "v4lue");
        assert_eq!(v["fields"][0]["secretOrigins"], "http://127.0.0.1:9");
        assert_eq!(Action::from_value(&v).unwrap(), f);
        let mut missing =
            Action::from_value(&json!({"type": "type", "selector": "#p", "secret": "mail"}))
                .unwrap();
        let e = resolve(&mut missing, Some(&path)).unwrap_err();
        assert!(
            e.message.contains("\"mail\" is not in") && e.message.contains("bank"),
            "{}",
            e.message
        );
        let sent = Action::from_value(&v).unwrap();
        assert!(refuse_client_origins(&sent).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
