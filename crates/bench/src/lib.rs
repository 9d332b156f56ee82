//! `bua-bench`: extract, actions and the service worker measured side by side with the CDP floor and
//! Playwright's `ariaSnapshot()`, in one run, on one machine; the report is `docs/BENCHMARKS.md`.
//!
//! A development tool in a package of its own, so that nothing of it ships in `bua-bridge`. It drives
//! the real product: `bua_bridge::launch` starts Chromium with the built extension, a
//! [`bua_bridge::BridgeClient`] sends the actions, and both browsers (ours and the Playwright peer's)
//! load every page from one [`bua_bridge::site::StaticSite`], so they get the same bytes from the same
//! origin. The raw CDP commands that break an extract down are the extension's own (the page script and
//! the snapshot params come from the `bua_extension` crate), not copies.
//!
//! * [`pages`] — the generated pages (1k/10k/50k elements, 100/1,000/5,000 controls).
//! * [`rawcdp`] — the CDP floor: commands straight to the browser's DevTools endpoint.
//! * [`peer`] — the Playwright peer (`bench/aria.mjs`) as a JSON-lines subprocess.
//! * [`peers`] — the read loop through three MCP servers (ours, Playwright MCP, Chrome DevTools MCP),
//!   driven by the stdio client in [`mcp`] (`--peers`).
//! * [`tasks`] — multi-step tasks in real web applications through the same three MCP servers
//!   (`--tasks`).
//! * [`run`] — the measurement phases.
//! * [`report`] — the Markdown report (`docs/BENCHMARKS.md`), [`machine`] — what it ran on.
//! * [`stats`] — median and p95.

pub mod machine;
pub mod mcp;
pub mod pages;
pub mod peer;
pub mod peers;
pub mod rawcdp;
pub mod report;
pub mod run;
pub mod stats;
pub mod tasks;

/// Every way the benchmark can fail.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The bridge, the launch or the DevTools helper failed, or a file or process operation
    /// ([`bua_bridge::Error::Io`], made by [`BenchError::io`]).
    #[error(transparent)]
    Bridge(#[from] bua_bridge::Error),
    /// A CDP command answered with an error.
    #[error("CDP {method}: {message}")]
    Cdp {
        /// The CDP method.
        method: String,
        /// CDP's message.
        message: String,
    },
    /// The Playwright peer failed.
    #[error("Playwright peer: {0}")]
    Peer(String),
    /// A connection ended early.
    #[error("connection closed: {0}")]
    Closed(String),
    /// Something did not happen in time.
    #[error("timed out: {0}")]
    Timeout(String),
    /// An answer did not have the expected shape.
    #[error("unexpected answer: {0}")]
    Unexpected(String),
}

impl BenchError {
    /// A failed file or process operation with what was being done: the bridge's own
    /// [`bua_bridge::Error::Io`], so both say it the same way.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        BenchError::Bridge(bua_bridge::Error::io(context, source))
    }
}
