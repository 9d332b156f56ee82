//! What a peer run is given: its options, the three tools (MCP servers) in the report's column
//! order, and the Chromium flags all their browsers share.

use std::path::PathBuf;
use std::time::Duration;

use crate::run::NO_NETWORK;

/// Chromium flags every browser of the run gets, on top of headless and no sandbox (ours gets them from
/// `bua_bridge::launch`, which adds its own: a profile, the extension, DevTools on a free port).
pub const SHARED_FLAGS: [&str; 3] = [NO_NETWORK, "--disable-gpu", "--disable-dev-shm-usage"];

/// What to run.
#[derive(Debug, Clone)]
pub struct PeerOptions {
    /// The built extension (`dist/`).
    pub extension: PathBuf,
    /// Chromium, for all three.
    pub chrome: PathBuf,
    /// The readability corpus (folders with `source.html` and `expected.html`).
    pub corpus: PathBuf,
    /// Only the first N pages (by name).
    pub limit: Option<usize>,
    /// The `bua-bridge` binary that serves our MCP.
    pub bridge_bin: PathBuf,
    /// Node.js for the peers.
    pub node: String,
    /// The folder whose `node_modules` holds `@playwright/mcp` and `chrome-devtools-mcp` (`bench/`).
    pub bench_dir: PathBuf,
    /// How long one tool call may take.
    pub call_timeout: Duration,
    /// Only these pages (folder names), when not empty.
    pub only: Vec<String>,
}

/// The three tools, in the order of the report's columns.
pub const TOOLS: [Tool; 3] = [Tool::Ours, Tool::Playwright, Tool::DevTools];

/// One of the three MCP servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `bua-bridge mcp`.
    Ours,
    /// `@playwright/mcp`.
    Playwright,
    /// `chrome-devtools-mcp`.
    DevTools,
}

impl Tool {
    /// The column name.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Ours => "BUA",
            Tool::Playwright => "Playwright MCP",
            Tool::DevTools => "DevTools MCP",
        }
    }

    /// The navigate tool and the read tool, as the report names them.
    pub fn calls(self) -> (&'static str, &'static str) {
        match self {
            Tool::Ours => ("navigate", "extract"),
            Tool::Playwright => ("browser_navigate", "browser_snapshot"),
            Tool::DevTools => ("navigate_page", "take_snapshot"),
        }
    }

    pub(super) fn index(self) -> usize {
        TOOLS.iter().position(|t| *t == self).unwrap_or(0)
    }
}

/// One line of progress on stderr.
pub(super) fn progress(message: &str) {
    eprintln!("[bench --peers] {message}");
}
