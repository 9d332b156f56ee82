//! The pairing token of SPEC §2: random, kept in a user-only file, compared in constant time.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rand::RngCore;

use crate::error::{Error, Result};

/// Bytes of randomness in a token (256 bits; printed as 64 lowercase hex digits).
pub const TOKEN_BYTES: usize = 32;

/// A fresh random token: [`TOKEN_BYTES`] bytes from the OS RNG, lowercase hex.
pub fn generate() -> String {
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The default token file: `$XDG_CONFIG_HOME/bua/token`, else `$HOME/.config/bua/token`.
///
/// Errors when neither variable is set.
pub fn default_path() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir).join("bua").join("token"));
    }
    match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        Some(home) => Ok(PathBuf::from(home)
            .join(".config")
            .join("bua")
            .join("token")),
        None => Err(Error::Token {
            path: PathBuf::from("~/.config/bua/token"),
            reason: "neither XDG_CONFIG_HOME nor HOME is set; pass --token-file".to_string(),
        }),
    }
}

/// Reads the token from `path`, creating the file (mode 0600, parent directories 0700) with a
/// fresh [`generate`]d token when it does not exist. A readable file with broader permissions is
/// tightened to 0600. Surrounding whitespace is ignored.
///
/// Errors: the file is empty, unreadable, or cannot be created.
pub fn load_or_create(path: &Path) -> Result<String> {
    match read(path) {
        Ok(token) => return Ok(token),
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)
            .map_err(|e| Error::io(format!("creating {}", parent.display()), e))?;
    }
    let token = generate();
    // The token is written to a private file first and linked into place whole: `serve`, `mcp` and the
    // native-messaging host may all create it at once on a first start, and none may read it half-written.
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let staged = path.with_file_name(format!(".{name}.{}.{}", std::process::id(), &token[..8]));
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&staged)
        .and_then(|mut file| file.write_all(format!("{token}\n").as_bytes()));
    if let Err(e) = written {
        let _ = fs::remove_file(&staged);
        return Err(Error::io(
            format!("creating token file {}", path.display()),
            e,
        ));
    }
    let linked = fs::hard_link(&staged, path);
    let _ = fs::remove_file(&staged);
    match linked {
        Ok(()) => Ok(token),
        // Another process created it between our read and our link: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read(path),
        Err(e) => Err(Error::io(
            format!("creating token file {}", path.display()),
            e,
        )),
    }
}

/// Reads an existing token file (see [`load_or_create`] for the rules); never creates one.
pub fn read(path: &Path) -> Result<String> {
    let text = fs::read_to_string(path)
        .map_err(|e| Error::io(format!("reading token file {}", path.display()), e))?;
    let token = text.trim().to_string();
    if token.is_empty() {
        return Err(Error::Token {
            path: path.to_path_buf(),
            reason: "the file is empty; delete it and run `bua-bridge serve` to make a new token"
                .to_string(),
        });
    }
    if let Ok(meta) = fs::metadata(path) {
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            tracing::warn!(path = %path.display(), mode = format!("{mode:o}"), "token file readable by others; setting mode 0600");
            if let Err(e) = fs::set_permissions(path, fs::Permissions::from_mode(0o600)) {
                tracing::warn!(path = %path.display(), error = %e, "could not tighten token file permissions");
            }
        }
    }
    Ok(token)
}

/// Compares two tokens in time independent of where they differ (length still leaks).
pub fn matches(expected: &str, given: &str) -> bool {
    let (a, b) = (expected.as_bytes(), given.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tokens_are_256_bit_hex_and_distinct() {
        let a = generate();
        let b = generate();
        assert_eq!(a.len(), 64);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(a, b);
    }

    #[test]
    fn load_or_create_makes_a_user_only_file_and_then_reuses_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("token");
        let first = load_or_create(&path).unwrap();
        assert_eq!(first.len(), 64);
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let parent_mode = fs::metadata(path.parent().unwrap())
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(parent_mode, 0o700);
        assert_eq!(load_or_create(&path).unwrap(), first);
    }

    #[test]
    fn processes_creating_the_token_at_once_all_read_one_whole_token() {
        for _ in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("bua").join("token");
            let tokens: Vec<String> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..8)
                    .map(|_| s.spawn(|| load_or_create(&path).expect("a whole token")))
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            assert!(
                tokens.iter().all(|t| *t == tokens[0] && t.len() == 64),
                "{tokens:?}"
            );
            let left: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
            assert_eq!(left.len(), 1, "no staged file left behind");
        }
    }

    #[test]
    fn read_tightens_loose_permissions_and_trims() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        fs::write(&path, "  abc123 \n").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(read(&path).unwrap(), "abc123");
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn empty_token_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        fs::write(&path, "\n").unwrap();
        assert!(matches!(read(&path), Err(Error::Token { .. })));
    }

    #[test]
    fn matches_is_exact() {
        assert!(matches("abc", "abc"));
        assert!(!matches("abc", "abd"));
        assert!(!matches("abc", "abcd"));
        assert!(!matches("abc", ""));
    }
}
