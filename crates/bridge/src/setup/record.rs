//! What `bua-bridge install` wrote, so `uninstall` removes exactly that (SPEC §11 "Install"): a JSON
//! record of every file written and every folder created, kept in the per-user data folder.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The record: files written and folders created by `install`, absolute paths.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Every file `install` wrote.
    pub files: BTreeSet<PathBuf>,
    /// Every folder `install` created (removed on uninstall when empty).
    pub dirs: BTreeSet<PathBuf>,
}

impl Record {
    /// The record at `path`, or an empty one when there is none.
    ///
    /// Errors: the file exists but cannot be read or is not a record.
    pub fn load(path: &Path) -> Result<Record> {
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| Error::Install(format!(
                "{} is not an install record ({e}): delete it, or remove the files it names by hand",
                path.display()
            ))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Record::default()),
            Err(e) => Err(Error::io(format!("reading {}", path.display()), e)),
        }
    }

    /// Writes the record to `path`; the record names itself and its folder if it created it, so
    /// [`remove_all`] takes them too.
    ///
    /// Errors: the folder or the file cannot be written.
    pub fn save(&mut self, path: &Path) -> Result<()> {
        if let Some(dir) = path.parent() {
            create_dirs(dir, self)?;
        }
        self.files.insert(path.to_path_buf());
        let text = serde_json::to_string_pretty(self)?;
        std::fs::write(path, text).map_err(|e| Error::io(format!("writing {}", path.display()), e))
    }
}

/// Creates `dir` and its missing parents, recording each one it created.
///
/// Errors: a folder cannot be created.
pub fn create_dirs(dir: &Path, record: &mut Record) -> Result<()> {
    let mut missing = Vec::new();
    let mut at = Some(dir);
    while let Some(d) = at {
        if d.as_os_str().is_empty() || d.exists() {
            break;
        }
        missing.push(d.to_path_buf());
        at = d.parent();
    }
    for d in missing.into_iter().rev() {
        std::fs::create_dir(&d).map_err(|e| Error::io(format!("creating {}", d.display()), e))?;
        record.dirs.insert(d);
    }
    Ok(())
}

/// Writes `contents` to `path` (creating its folder), records it, and returns it for printing.
///
/// Errors: the folder or the file cannot be written.
pub fn write_file(path: &Path, contents: &[u8], record: &mut Record) -> Result<PathBuf> {
    if let Some(dir) = path.parent() {
        create_dirs(dir, record)?;
    }
    std::fs::write(path, contents)
        .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
    record.files.insert(path.to_path_buf());
    Ok(path.to_path_buf())
}

/// Removes every file of `record` and then every folder it created that is now empty (deepest first);
/// returns what was removed. A file already gone is skipped.
///
/// Errors: a file exists but cannot be removed.
pub fn remove_all(record: &Record) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for f in &record.files {
        match std::fs::remove_file(f) {
            Ok(()) => removed.push(f.clone()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(format!("removing {}", f.display()), e)),
        }
    }
    let mut dirs: Vec<&PathBuf> = record.dirs.iter().collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for d in dirs {
        // Only an empty folder goes: the user may have put something of their own in it.
        if std::fs::remove_dir(d).is_ok() {
            removed.push(d.clone());
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remove_all_takes_exactly_what_was_written_and_keeps_what_was_there() {
        let home = tempfile::tempdir().expect("tempdir");
        let existing = home.path().join("existing");
        std::fs::create_dir(&existing).expect("mkdir");
        std::fs::write(existing.join("mine.txt"), "user's").expect("write");
        let mut record = Record::default();
        let a = write_file(&existing.join("a/b/SKILL.md"), b"x", &mut record).expect("a");
        let c = write_file(&existing.join("c.json"), b"{}", &mut record).expect("c");
        let path = home.path().join("data/record.json");
        record.save(&path).expect("save");
        let loaded = Record::load(&path).expect("load");
        assert_eq!(loaded, record);
        let removed = remove_all(&loaded).expect("remove");
        assert!(removed.contains(&a) && removed.contains(&c), "{removed:?}");
        assert!(!existing.join("a").exists());
        assert!(existing.join("mine.txt").exists());
        assert!(
            !home.path().join("data").exists(),
            "the record's folder was created by it"
        );
    }
}
