//! Chromium for `launch`: finding the binary, its command line (flags, the unpacked extension and
//! its pinned id), its process group and its profile directory.

use std::path::{Path, PathBuf};
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use serde_json::Value;
use tokio::process::Child;

use super::options::LaunchOptions;
use crate::error::{Error, Result};
use crate::origin::extension_id_from_key;

/// The profile directory: temporary (removed on shutdown) or the user's (kept).
pub(super) enum Profile {
    Temporary(tempfile::TempDir),
    Kept(PathBuf),
}

impl Profile {
    pub(super) fn path(&self) -> &Path {
        match self {
            Profile::Temporary(dir) => dir.path(),
            Profile::Kept(path) => path,
        }
    }
}

/// The Chromium process group; killed (SIGKILL) on drop if [`Browser::terminate`] did not run.
pub(super) struct Browser {
    pub(super) child: Child,
    pub(super) pgid: Pid,
    pub(super) done: bool,
}

impl Browser {
    /// SIGTERM to the group, up to 5 s for the main process to exit, then SIGKILL to the group.
    pub(super) async fn terminate(&mut self) {
        if self.done {
            return;
        }
        let _ = killpg(self.pgid, Signal::SIGTERM);
        if tokio::time::timeout(Duration::from_secs(5), self.child.wait())
            .await
            .is_err()
        {
            tracing::warn!(pid = %self.pgid, "Chromium did not exit within 5 s of SIGTERM; killing it");
        }
        // Helpers (zygote, renderers, utility processes) share the group; make sure none lingers.
        let _ = killpg(self.pgid, Signal::SIGKILL);
        let _ = tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await;
        self.done = true;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.done {
            let _ = killpg(self.pgid, Signal::SIGKILL);
        }
    }
}

/// Removes a temporary profile, retrying while Chromium still flushes files into it.
pub(super) async fn remove_profile(dir: tempfile::TempDir) {
    let path = dir.path().to_path_buf();
    // Chromium may still be flushing files a moment after its processes are gone; retry briefly.
    let mut dir = Some(dir);
    for _ in 0..20 {
        if let Some(d) = dir.take() {
            match d.close() {
                Ok(()) => return,
                Err(e) => {
                    tracing::debug!(path = %path.display(), error = %e, "retrying profile removal")
                }
            }
        }
        if !path.exists() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        if std::fs::remove_dir_all(&path).is_ok() {
            return;
        }
    }
    tracing::warn!(path = %path.display(), "could not remove the temporary profile");
}

/// Finds Chromium: `/usr/bin/chromium`, else `chromium`, `google-chrome`, `chromium-browser` on `PATH`.
pub fn find_chrome() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/bin/chromium");
    if fixed.is_file() {
        return Some(fixed);
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "google-chrome", "chromium-browser"]
        .iter()
        .find_map(|name| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(name))
                .find(|candidate| candidate.is_file())
        })
}

/// Reads `manifest.json` in `extension_dir` and computes the extension id from its `key`.
///
/// `Ok(None)` when the manifest has no `key` (the id is then learned from the service worker).
/// Errors when the folder or manifest is missing ("run ./build.sh") or the key is not base64.
pub fn extension_id_of(extension_dir: &Path) -> Result<Option<String>> {
    let manifest = extension_dir.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).map_err(|e| {
        Error::Launch(format!(
            "cannot read {}: {e} — build the extension first with ./build.sh (it makes dist/)",
            manifest.display()
        ))
    })?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| Error::Launch(format!("{} is not JSON: {e}", manifest.display())))?;
    match value.get("key").and_then(Value::as_str) {
        None => Ok(None),
        Some(key) => extension_id_from_key(key).map(Some).map_err(Error::Launch),
    }
}

/// Chromium features a launch turns off. The first is required: Chromium ≥ 137 ignores `--load-extension`
/// unless it is off. The others are browser UI drawn as web pages (the reload button, the omnibox popup and
/// its AI-mode variant): in a headless or agent-driven window nobody sees them, yet every navigation re-renders
/// them in a renderer of their own and keeps the browser's main thread busy for a few hundred ms, the thread every
/// `chrome.*` call of the extension goes through. Puppeteer and Playwright turn the same ones off.
pub const DISABLED_FEATURES: [&str; 5] = [
    "DisableLoadExtensionCommandLineSwitch",
    "WebUIReloadButton",
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
    "AimEnabled",
];

/// Hides the "… started debugging this browser" bar, in headless launches only. Nobody sees a headless window,
/// yet the bar is on every tab the extension attaches to, and each time a tab shows it, it slides in: a layout
/// of the whole browser window per animation frame (about 10–20 ms each, for a few hundred ms) on the browser's
/// main thread, which every `chrome.debugger` command and answer goes through. Measured right after a
/// navigation on small pages, an `extract` took a median 17–21 ms with the bar and 8.5–12 ms without.
/// A headed launch keeps it: there a person may be watching, and the bar tells them the
/// extension is driving this browser.
pub const SILENT_DEBUGGER: &str = "--silent-debugger-extension-api";

/// The Chromium command line of a launch (without the binary). A `--disable-features=` among the extra
/// arguments is merged into the launch's own (Chromium reads only the last one, which would drop
/// [`DISABLED_FEATURES`], the extension's load among them).
pub fn chrome_args(opts: &LaunchOptions, profile: &Path, extension_dir: &Path) -> Vec<String> {
    let ext = extension_dir.display().to_string();
    let mut args = Vec::new();
    if opts.headless {
        args.push("--headless=new".to_string());
        args.push(SILENT_DEBUGGER.to_string());
    }
    args.extend(
        [
            "--no-sandbox",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
        ]
        .map(String::from),
    );
    const FLAG: &str = "--disable-features=";
    let mut features: Vec<String> = DISABLED_FEATURES.map(String::from).to_vec();
    for extra in &opts.extra_args {
        if let Some(list) = extra.strip_prefix(FLAG) {
            for f in list.split(',').map(str::trim).filter(|f| !f.is_empty()) {
                if !features.iter().any(|x| x == f) {
                    features.push(f.to_string());
                }
            }
        }
    }
    args.push(format!("{FLAG}{}", features.join(",")));
    args.push(format!("--user-data-dir={}", profile.display()));
    args.push(format!("--load-extension={ext}"));
    args.push(format!("--disable-extensions-except={ext}"));
    args.extend(
        opts.extra_args
            .iter()
            .filter(|a| !a.starts_with(FLAG))
            .cloned(),
    );
    args.push("about:blank".to_string());
    args
}
