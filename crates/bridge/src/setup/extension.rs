//! `bua-bridge extension [--out DIR]` (SPEC §11 "One binary"): the extension this binary carries, written to a
//! folder for chrome://extensions → Load unpacked. A release binary embeds the built extension of its own
//! version (`build.rs`, `BUA_EMBED_EXTENSION`); a development build embeds nothing and copies the repository's
//! `dist/` instead, saying so.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/extension_files.rs"));
}

/// The repository's build folder, for a development build (known at compile time).
const DEV_DIST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../dist");

/// The extension's files: (path relative to its folder, bytes).
pub type Files = Vec<(String, Vec<u8>)>;

/// Where the extension written comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Embedded in this binary.
    Embedded,
    /// Copied from a folder (a development build: the repository's `dist/`).
    Folder(PathBuf),
}

/// Whether this binary carries its extension.
pub fn is_embedded() -> bool {
    !embedded::FILES.is_empty()
}

/// The extension's files as `(relative path, bytes)`: the embedded ones, or those of the repository's `dist/`.
///
/// Errors: a development build whose repository has no built `dist/`.
pub fn files() -> Result<(Files, Source)> {
    if is_embedded() {
        let files = embedded::FILES
            .iter()
            .map(|(p, b)| ((*p).to_owned(), b.to_vec()))
            .collect();
        return Ok((files, Source::Embedded));
    }
    let dist = PathBuf::from(DEV_DIST);
    if !dist.join("manifest.json").is_file() {
        return Err(Error::Install(
            "this bua-bridge was built without its extension (a development build) and the repository's dist/ \
             is not built: run ./build.sh (or ./build.sh release for a binary that carries it)"
                .into(),
        ));
    }
    let dist = dist.canonicalize().unwrap_or(dist);
    let mut files = Vec::new();
    read_tree(&dist, &dist, &mut files)?;
    Ok((files, Source::Folder(dist)))
}

/// The `version` of the extension this binary would write (its manifest), if any.
pub fn version() -> Option<String> {
    let (files, _) = files().ok()?;
    let manifest = files.iter().find(|(p, _)| p == "manifest.json")?;
    manifest_version_of(&manifest.1)
}

/// The `version` of the extension in `dir` (its `manifest.json`), if there is one.
pub fn installed_version(dir: &Path) -> Option<String> {
    manifest_version_of(&std::fs::read(dir.join("manifest.json")).ok()?)
}

fn manifest_version_of(bytes: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    v["version"].as_str().map(str::to_owned)
}

/// Whether `dir` holds an extension of ours: its `manifest.json` has our `key` (which fixes the extension
/// id), else our `name`. Only such a folder is replaced: another extension's stays whole.
fn holds_ours(dir: &Path) -> bool {
    let Ok(bytes) = std::fs::read(dir.join("manifest.json")) else {
        return false;
    };
    let Ok(theirs) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return false;
    };
    let ours = files().ok().and_then(|(files, _)| {
        let manifest = files.into_iter().find(|(p, _)| p == "manifest.json")?;
        serde_json::from_slice::<serde_json::Value>(&manifest.1).ok()
    });
    match ours {
        Some(ours) if ours["key"].is_string() => theirs["key"] == ours["key"],
        Some(ours) => theirs["name"] == ours["name"],
        None => theirs["name"] == "BUA Browser Bridge",
    }
}

/// Writes the extension into `out` (created; an earlier extension there is replaced) and returns where it
/// came from. The folder is filled beside it and swapped in, so a browser never loads half of it.
///
/// Errors: `out` exists and holds something that is not an extension (it is left alone); a file cannot be
/// written; no extension to write ([`files`]).
pub fn write(out: &Path) -> Result<Source> {
    if out.exists() && !holds_ours(out) {
        let empty = std::fs::read_dir(out)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !empty {
            return Err(Error::Install(format!(
                "{} exists and is not a BUA Browser Bridge extension folder (its files are left alone): choose \
                 a new or empty folder with --out",
                out.display()
            )));
        }
    }
    let (files, source) = files()?;
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .map_err(|e| Error::io(format!("creating {}", parent.display()), e))?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let fresh = parent.join(format!(".{name}.new-{}", std::process::id()));
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    for (rel, bytes) in &files {
        let path = fresh.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
        }
        std::fs::write(&path, bytes)
            .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
    }
    if out.exists() {
        std::fs::rename(out, &old)
            .map_err(|e| Error::io(format!("moving the old {} aside", out.display()), e))?;
    }
    std::fs::rename(&fresh, out)
        .map_err(|e| Error::io(format!("moving the extension into {}", out.display()), e))?;
    let _ = std::fs::remove_dir_all(&old);
    Ok(source)
}

fn read_tree(root: &Path, dir: &Path, out: &mut Files) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| Error::io(format!("reading {}", dir.display()), e))?;
    for entry in entries.filter_map(std::result::Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            read_tree(root, &path, out)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            let bytes = std::fs::read(&path)
                .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
            out.push((rel.to_string_lossy().into_owned(), bytes));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_is_written_whole_and_replaces_an_older_one_but_never_a_foreign_folder() {
        let Ok((files, _)) = files() else {
            return; // a development build without dist/: nothing to write (the E2E tests build it)
        };
        let tmp = tempfile::tempdir().expect("tempdir");
        let out = tmp.path().join("ext");
        std::fs::create_dir_all(&out).expect("mkdir");
        let ours: serde_json::Value = files
            .iter()
            .find(|(p, _)| p == "manifest.json")
            .and_then(|(_, b)| serde_json::from_slice(b).ok())
            .expect("our manifest");
        let older =
            serde_json::json!({"version": "0.0.1", "name": ours["name"], "key": ours["key"]});
        std::fs::write(out.join("manifest.json"), older.to_string()).expect("old");
        std::fs::write(out.join("stale.js"), "old").expect("stale");
        write(&out).expect("write");
        assert_eq!(installed_version(&out), version());
        assert!(
            !out.join("stale.js").exists(),
            "the old extension is replaced whole"
        );
        for (rel, bytes) in &files {
            assert_eq!(&std::fs::read(out.join(rel)).expect(rel), bytes, "{rel}");
        }
        let foreign = tmp.path().join("photos");
        std::fs::create_dir_all(&foreign).expect("mkdir");
        std::fs::write(foreign.join("a.jpg"), "x").expect("x");
        assert!(write(&foreign).is_err());
        assert!(foreign.join("a.jpg").exists());
        // Another extension (a manifest, but not ours) is left whole too.
        let other = tmp.path().join("other");
        std::fs::create_dir_all(&other).expect("mkdir");
        std::fs::write(
            other.join("manifest.json"),
            r#"{"name":"Mine","version":"1.0"}"#,
        )
        .expect("manifest");
        std::fs::write(other.join("my_code.js"), "1").expect("code");
        assert!(write(&other).is_err());
        assert!(other.join("my_code.js").exists());
    }
}
