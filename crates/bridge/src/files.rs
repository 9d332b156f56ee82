//! The files of an `upload` (SPEC §4): paths resolved on this machine, only inside the folders the user
//! allowed (`--files-dir DIR`, repeatable; none by default), read and cut into `file_chunk` frames that
//! travel ahead of the request (SPEC §3).
//!
//! A path is resolved the way the operating system opens it (symlinks and `..` followed,
//! `std::fs::canonicalize`) and must then lie inside one of the allowed folders (canonical too), so a
//! link inside an allowed folder that points at `~/.ssh` is refused like the path itself. A relative path
//! is tried against each allowed folder in turn.

use bua_protocol::{ErrorBody, FileChunk};
use std::path::{Path, PathBuf};

/// The largest file one upload takes, bytes (50 MB).
pub const MAX_FILE_BYTES: u64 = 50 * 1024 * 1024;
/// The most bytes one upload takes in all, bytes (100 MB).
pub const MAX_TOTAL_BYTES: u64 = 100 * 1024 * 1024;
/// Raw bytes per `file_chunk` frame (1 MiB, 1.4 MB of base64: far under the 16 MiB frame limit).
pub const CHUNK_BYTES: usize = 1024 * 1024;

/// A file of an upload, read.
#[derive(Debug)]
pub struct UploadFile {
    /// Its last path component.
    pub name: String,
    /// Its MIME type from the extension ([`mime_for`]).
    pub mime: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

fn refuse(message: String) -> ErrorBody {
    ErrorBody::invalid(format!("upload: {message}"))
}

/// Canonical forms of the allowed folders that exist.
fn canonical_dirs(dirs: &[PathBuf]) -> Vec<PathBuf> {
    dirs.iter()
        .filter_map(|d| std::fs::canonicalize(d).ok())
        .collect()
}

/// Resolves `raw` inside one of `dirs` (canonical): `Ok(path)` of an existing regular file.
///
/// Errors (`invalid_action`): outside every allowed folder, missing, not a regular file.
pub fn resolve(raw: &str, dirs: &[PathBuf]) -> Result<PathBuf, ErrorBody> {
    let given = Path::new(raw);
    let candidates: Vec<PathBuf> = if given.is_absolute() {
        vec![given.to_path_buf()]
    } else {
        dirs.iter().map(|d| d.join(given)).collect()
    };
    let shown = dirs
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let mut outside = false;
    for candidate in &candidates {
        match std::fs::canonicalize(candidate) {
            Ok(real) if dirs.iter().any(|d| real.starts_with(d)) => {
                if !real.is_file() {
                    return Err(refuse(format!(
                        "`{raw}` is not a regular file; give a file's path"
                    )));
                }
                return Ok(real);
            }
            Ok(_) => outside = true,
            Err(_) => {
                // A missing file: inside an allowed folder by its parent, or outside.
                let parent_inside = candidate
                    .parent()
                    .and_then(|p| std::fs::canonicalize(p).ok())
                    .is_some_and(|p| dirs.iter().any(|d| p.starts_with(d)));
                outside |= !parent_inside;
            }
        }
    }
    if outside && given.is_absolute() {
        Err(refuse(format!(
            "`{raw}` is outside the folders the bridge may read files from ({shown}); put the file into one \
             of them, or ask the user to start the bridge with --files-dir for its folder"
        )))
    } else {
        Err(refuse(format!(
            "no file `{raw}` in the allowed folders ({shown}); check the name (relative paths are taken from \
             those folders)"
        )))
    }
}

/// Reads the files of an upload from inside `dirs`.
///
/// Errors (`invalid_action`, each saying what to do): no folder allowed (how to allow one), a path outside
/// them, a missing file, a file over [`MAX_FILE_BYTES`] or a total over [`MAX_TOTAL_BYTES`].
pub async fn read(paths: &[String], dirs: &[PathBuf]) -> Result<Vec<UploadFile>, ErrorBody> {
    let dirs = canonical_dirs(dirs);
    if dirs.is_empty() {
        return Err(refuse(
            "the bridge may read no files: uploads are off until the user starts it with --files-dir DIR \
             (repeatable; on serve, mcp and launch) naming the folder the files are in"
                .into(),
        ));
    }
    let mut files = Vec::with_capacity(paths.len());
    let mut total = 0u64;
    for raw in paths {
        let path = resolve(raw, &dirs)?;
        let size = tokio::fs::metadata(&path)
            .await
            .map_err(|e| refuse(format!("cannot read `{raw}` ({e})")))?
            .len();
        if size > MAX_FILE_BYTES {
            return Err(refuse(format!(
                "`{raw}` is {} MB; one file may be at most {} MB",
                size / 1_000_000,
                MAX_FILE_BYTES / (1024 * 1024)
            )));
        }
        total += size;
        if total > MAX_TOTAL_BYTES {
            return Err(refuse(format!(
                "the files are more than {} MB together; upload fewer at a time",
                MAX_TOTAL_BYTES / (1024 * 1024)
            )));
        }
        let bytes = tokio::fs::read(&path)
            .await
            .map_err(|e| refuse(format!("cannot read `{raw}` ({e})")))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| raw.clone());
        files.push(UploadFile {
            mime: mime_for(&name).to_owned(),
            name,
            bytes,
        });
    }
    Ok(files)
}

/// The `file_chunk` frames of `files` for upload `id`, in order (an empty file is one empty chunk).
pub fn chunks<'a>(id: &'a str, files: &'a [UploadFile]) -> impl Iterator<Item = FileChunk> + 'a {
    use base64::Engine;
    files.iter().enumerate().flat_map(move |(i, file)| {
        let pieces: Vec<&[u8]> = if file.bytes.is_empty() {
            vec![&[][..]]
        } else {
            file.bytes.chunks(CHUNK_BYTES).collect()
        };
        pieces.into_iter().map(move |piece| FileChunk {
            upload: id.to_owned(),
            file: i as u32,
            name: file.name.clone(),
            mime: file.mime.clone(),
            size: file.bytes.len() as u64,
            data: base64::engine::general_purpose::STANDARD.encode(piece),
        })
    })
}

/// The MIME type a browser would give a file of this name (`File.type`); empty when unknown, as there.
pub fn mime_for(name: &str) -> &'static str {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "txt" => "text/plain",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "js" | "mjs" => "text/javascript",
        "json" => "application/json",
        "xml" => "text/xml",
        "md" => "text/markdown",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "doc" => "application/msword",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls" => "application/vnd.ms-excel",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("bua-files-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn paths_resolve_only_inside_the_allowed_folders() {
        let allowed = dir("allowed");
        std::fs::write(allowed.join("a.txt"), b"abc").unwrap();
        let outside = dir("outside");
        std::fs::write(outside.join("secret"), b"x").unwrap();
        let dirs = canonical_dirs(std::slice::from_ref(&allowed));
        let real = std::fs::canonicalize(allowed.join("a.txt")).unwrap();
        assert_eq!(resolve("a.txt", &dirs).unwrap(), real);
        assert_eq!(resolve(real.to_str().unwrap(), &dirs).unwrap(), real);
        let m = resolve(outside.join("secret").to_str().unwrap(), &dirs)
            .unwrap_err()
            .message;
        assert!(
            m.contains("outside the folders") && m.contains("--files-dir"),
            "{m}"
        );
        let sneaky = allowed
            .join("..")
            .join(outside.file_name().unwrap())
            .join("secret");
        let m = resolve(sneaky.to_str().unwrap(), &dirs)
            .unwrap_err()
            .message;
        assert!(m.contains("outside the folders"), "{m}");
        let m = resolve(allowed.join("nope.txt").to_str().unwrap(), &dirs)
            .unwrap_err()
            .message;
        assert!(m.contains("no file"), "{m}");
    }

    #[tokio::test]
    async fn no_allowed_folder_says_how_to_allow_one() {
        let m = read(&["/etc/hostname".into()], &[])
            .await
            .unwrap_err()
            .message;
        assert!(m.contains("--files-dir DIR"), "{m}");
    }

    #[test]
    fn chunks_cut_files_and_keep_empty_ones() {
        let files = vec![
            UploadFile {
                name: "big".into(),
                mime: String::new(),
                bytes: vec![7; CHUNK_BYTES + 1],
            },
            UploadFile {
                name: "empty.txt".into(),
                mime: "text/plain".into(),
                bytes: Vec::new(),
            },
        ];
        let all: Vec<FileChunk> = chunks("u1", &files).collect();
        assert_eq!(all.len(), 3);
        assert_eq!((all[0].file, all[1].file, all[2].file), (0, 0, 1));
        assert_eq!(all[1].data, "Bw==");
        assert_eq!((all[2].data.as_str(), all[2].size), ("", 0));
    }
}
