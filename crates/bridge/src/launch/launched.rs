//! A running launch ([`Launched`]): the in-process server, Chromium's process group and its profile,
//! with the lines `launch` prints and its shutdown.

use std::path::Path;
use std::time::Duration;

use super::chrome::{remove_profile, Browser, Profile};
use crate::server::ServerHandle;

/// A running launch: server + Chromium + profile.
pub struct Launched {
    pub(super) server: ServerHandle,
    pub(super) browser: Browser,
    pub(super) profile: Profile,
    /// Where the browser saves downloads (SPEC §11: never `~/Downloads`).
    pub download_dir: std::path::PathBuf,
    /// The extension id that completed the handshake.
    pub extension_id: String,
    /// The browser's DevTools port on 127.0.0.1.
    pub devtools_port: u16,
    /// The browser's DevTools WebSocket URL.
    pub devtools_url: String,
    /// Time from the start of [`start`] to the extension's `ack`.
    pub startup: Duration,
}

impl Launched {
    /// The in-process server.
    pub fn server(&self) -> &ServerHandle {
        &self.server
    }

    /// Chromium's main process id (also its process group id).
    pub fn browser_pid(&self) -> i32 {
        self.browser.pgid.as_raw()
    }

    /// The profile directory in use.
    pub fn profile_dir(&self) -> &Path {
        self.profile.path()
    }

    /// The `READY` line that scripts and the tests parse: `READY port=<N> token=<T> extension_id=<ID>`.
    pub fn ready_line(&self) -> String {
        format!(
            "READY port={} token={} extension_id={}",
            self.server.port(),
            self.server.token(),
            self.extension_id
        )
    }

    /// The line written to stderr for people: the shell command that points later CLI calls
    /// (`bua-bridge tabs`, …) and `bua-bridge mcp` at this bridge, e.g.
    /// `export BUA_PORT=40123 BUA_TOKEN=9f…  # for bua-bridge tabs, open, mcp, … in this shell`.
    pub fn env_hint(&self) -> String {
        env_hint(self.server.port(), self.server.token())
    }

    /// The `DEVTOOLS …` line written to stderr (for tests and debugging).
    pub fn devtools_line(&self) -> String {
        format!(
            "DEVTOOLS port={} ws={} browser_pid={} profile={} downloads={}",
            self.devtools_port,
            self.devtools_url,
            self.browser_pid(),
            self.profile_dir().display(),
            self.download_dir.display()
        )
    }

    /// Waits until Chromium exits by itself (e.g. the user closed it); returns its exit description.
    pub async fn browser_exited(&mut self) -> String {
        match self.browser.child.wait().await {
            Ok(status) => status.to_string(),
            Err(e) => e.to_string(),
        }
    }

    /// Stops the server, terminates Chromium's process group, removes a temporary profile.
    pub async fn shutdown(self) {
        let Launched {
            server,
            mut browser,
            profile,
            ..
        } = self;
        server.shutdown().await;
        browser.terminate().await;
        if let Profile::Temporary(dir) = profile {
            remove_profile(dir).await;
        }
    }
}

/// The `export BUA_PORT=<port> BUA_TOKEN=<token>  # …` line of [`Launched::env_hint`].
pub fn env_hint(port: u16, token: &str) -> String {
    format!("export BUA_PORT={port} BUA_TOKEN={token}  # for bua-bridge tabs, open, mcp, … in this shell")
}
