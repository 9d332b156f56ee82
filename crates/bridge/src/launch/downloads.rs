//! Where a launched browser saves downloads (SPEC §11 "Downloads of launch"): in its throw-away profile
//! (`<profile>/Downloads`) or `--download-dir`, never the machine's own `~/Downloads`. Chromium reads the
//! folder from the profile's `Default/Preferences` (`download.default_directory`) at start, so it is
//! written there before Chromium starts, merged into what a kept profile already has.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::error::{Error, Result};

/// The download folder of a launch: `given` (made absolute: Chrome needs it so), else `<profile>/Downloads`.
pub fn download_dir(profile: &Path, given: Option<&Path>) -> PathBuf {
    match given {
        Some(dir) if dir.is_relative() => std::env::current_dir()
            .map(|cwd| cwd.join(dir))
            .unwrap_or_else(|_| dir.to_path_buf()),
        Some(dir) => dir.to_path_buf(),
        None => profile.join("Downloads"),
    }
}

/// Creates `dir` and points the profile's preferences at it: `download.default_directory`,
/// `download.prompt_for_download: false`, `savefile.default_directory`. Other preferences are kept.
///
/// Errors: the folder or the preferences cannot be written; existing preferences that are not JSON.
pub fn prepare(profile: &Path, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("creating the download folder {}", dir.display()), e))?;
    let default = profile.join("Default");
    std::fs::create_dir_all(&default)
        .map_err(|e| Error::io(format!("creating {}", default.display()), e))?;
    let path = default.join("Preferences");
    let mut prefs = match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
            Error::Launch(format!(
                "{} is not JSON ({e}): is the profile in use by another Chrome?",
                path.display()
            ))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => return Err(Error::io(format!("reading {}", path.display()), e)),
    };
    merge_download_prefs(&mut prefs, dir);
    std::fs::write(&path, prefs.to_string())
        .map_err(|e| Error::io(format!("writing {}", path.display()), e))
}

/// Sets the download keys of `prefs` to `dir`.
fn merge_download_prefs(prefs: &mut Value, dir: &Path) {
    if !prefs.is_object() {
        *prefs = json!({});
    }
    let dir = dir.display().to_string();
    for (section, keys) in [
        (
            "download",
            json!({"default_directory": dir, "prompt_for_download": false, "directory_upgrade": true}),
        ),
        ("savefile", json!({"default_directory": dir})),
    ] {
        let entry = &mut prefs[section];
        if !entry.is_object() {
            *entry = json!({});
        }
        if let (Value::Object(into), Value::Object(from)) = (entry, keys) {
            into.extend(from);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_preferences_point_downloads_at_the_folder_and_keep_the_rest() {
        let profile = tempfile::tempdir().expect("tempdir");
        let default = profile.path().join("Default");
        std::fs::create_dir_all(&default).expect("mkdir");
        std::fs::write(
            default.join("Preferences"),
            r#"{"profile":{"name":"kept"},"download":{"extensions_to_open":""}}"#,
        )
        .expect("write");
        let dir = download_dir(profile.path(), None);
        assert_eq!(dir, profile.path().join("Downloads"));
        prepare(profile.path(), &dir).expect("prepare");
        let prefs: Value =
            serde_json::from_slice(&std::fs::read(default.join("Preferences")).expect("read"))
                .expect("json");
        assert_eq!(
            prefs["download"]["default_directory"],
            dir.display().to_string()
        );
        assert_eq!(prefs["download"]["prompt_for_download"], false);
        assert_eq!(
            prefs["savefile"]["default_directory"],
            dir.display().to_string()
        );
        assert_eq!(prefs["profile"]["name"], "kept");
        assert_eq!(prefs["download"]["extensions_to_open"], "");
        assert!(dir.is_dir());
        let given = profile.path().join("elsewhere");
        assert_eq!(download_dir(profile.path(), Some(&given)), given);
    }
}
