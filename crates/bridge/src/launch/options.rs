//! The settings of one launch ([`LaunchOptions`]) and where its pairing token comes from.

use std::path::PathBuf;

/// Where the pairing token comes from.
#[derive(Debug, Clone)]
pub enum TokenSource {
    /// Read (or create) this token file (mode 0600).
    File(PathBuf),
    /// A fresh random token kept in memory only (tests, throwaway sessions).
    Ephemeral,
}

/// Settings of one launch.
#[derive(Debug, Clone)]
pub struct LaunchOptions {
    /// Server port; 0 picks a free one.
    pub port: u16,
    /// Chromium binary; `None` = `/usr/bin/chromium`, else `chromium`, `google-chrome` or
    /// `chromium-browser` on `PATH`.
    pub chrome: Option<PathBuf>,
    /// The unpacked extension (the `dist/` folder made by `./build.sh`).
    pub extension_dir: PathBuf,
    /// Run Chromium with `--headless=new`.
    pub headless: bool,
    /// Use (and keep) this profile; `None` = a fresh temporary profile removed on exit.
    pub user_data_dir: Option<PathBuf>,
    /// The pairing token.
    pub token: TokenSource,
    /// Lowest protocol version the server accepts (tests raise it).
    pub min_protocol_version: u32,
    /// Let Chromium write to our stderr (otherwise its output is discarded).
    pub chrome_output: bool,
    /// Extra Chromium flags, appended after the required ones.
    pub extra_args: Vec<String>,
    /// The folders `upload` may read files from (SPEC §4).
    pub files_dirs: Vec<PathBuf>,
    /// The person's secrets file (SPEC §4 "Secrets").
    pub secrets: Option<PathBuf>,
    /// The actions the bridge refuses (`--no-evaluate`, `--no-upload`).
    pub switched_off: Vec<&'static str>,
    /// `--allow SITE`: the only sites agents may open (SPEC §10).
    pub allow: Vec<String>,
    /// Where downloads go; `None` = `<profile>/Downloads` (SPEC §11: never `~/Downloads`).
    pub download_dir: Option<PathBuf>,
}

impl LaunchOptions {
    /// Options for `extension_dir` with defaults: free port, headless, temporary profile, ephemeral token.
    pub fn new(extension_dir: impl Into<PathBuf>) -> Self {
        LaunchOptions {
            port: 0,
            chrome: None,
            extension_dir: extension_dir.into(),
            headless: true,
            user_data_dir: None,
            token: TokenSource::Ephemeral,
            min_protocol_version: bua_protocol::MIN_PROTOCOL_VERSION,
            chrome_output: false,
            extra_args: Vec::new(),
            files_dirs: Vec::new(),
            secrets: None,
            switched_off: Vec::new(),
            allow: Vec::new(),
            download_dir: None,
        }
    }
}
