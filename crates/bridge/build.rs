//! Embeds the built extension into a release `bua-bridge` (SPEC §11 "One binary"): when
//! `BUA_EMBED_EXTENSION` names a built extension folder (`./build.sh release` sets it to `dist/`), every file
//! in it becomes a `(relative path, bytes)` entry of `$OUT_DIR/extension_files.rs`; otherwise the list is empty
//! (a dev build) and `bua-bridge extension` falls back to the repository's `dist/`. The extension's manifest
//! version must be this crate's version, so a binary always carries the extension of its own version.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=BUA_EMBED_EXTENSION");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let mut entries = Vec::new();
    if let Some(dir) = std::env::var_os("BUA_EMBED_EXTENSION").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir).canonicalize().unwrap_or_else(|e| {
            panic!("BUA_EMBED_EXTENSION: {e}: build the extension first (./build.sh)")
        });
        let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap_or_else(|e| {
            panic!(
                "BUA_EMBED_EXTENSION={}: no manifest.json ({e})",
                dir.display()
            )
        });
        let want = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
        let version_line = format!("\"version\": \"{want}\"");
        assert!(
            manifest.contains(&version_line),
            "the extension in {} is not version {want} (manifest.json lacks {version_line}): rebuild it with ./build.sh",
            dir.display()
        );
        collect(&dir, &dir, &mut entries);
        entries.sort();
    }
    let mut code = String::from("/// The embedded extension: (path relative to its folder, bytes).\npub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, abs) in &entries {
        println!("cargo:rerun-if-changed={}", abs.display());
        code.push_str(&format!(
            "    ({rel:?}, include_bytes!({:?})),\n",
            abs.display().to_string()
        ));
    }
    code.push_str("];\n");
    std::fs::write(out.join("extension_files.rs"), code).expect("write extension_files.rs");
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push((rel.to_string_lossy().into_owned(), path));
        }
    }
}
