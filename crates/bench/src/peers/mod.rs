//! The peer benchmark (`./build.sh bench --peers`): the read loop an agent runs — navigate, then read
//! the page — through three MCP servers, each with its own headless Chromium from the same binary and
//! the same flags (external hosts refused), on every page of the readability corpus served on
//! loopback:
//!
//! * ours: `bua-bridge mcp` serving its bridge in-process (its default), Chromium with the extension
//!   from `bua_bridge::launch` paired to it, `browser {type:"navigate", url}` then `browser {type:"extract"}` (the MCP defaults);
//! * Playwright MCP: `browser_navigate {url}` then `browser_snapshot {}`;
//! * Chrome DevTools MCP: `navigate_page {pageId, type:"url", url}` then `take_snapshot {pageId}`.
//!
//! Tools take turns page by page, in an order that rotates, so a noisy moment hits all alike. Each
//! tool call is timed from the request written to the answer read (what the agent waits), and its
//! result text is what the agent receives (bytes, and recall of `expected.html`'s words in the read,
//! as `tests/e2e/corpus.rs` scores the corpus). A call that fails or times out is recorded, not fatal.
//!
//! Rooms: `options` (what a run is given, the three tools), `results` (what it measured), `corpus`
//! (the pages, their expected texts, recall), `servers` (the three MCP servers and one call of
//! each), `read_loop` (the run), `render` (the report section and its goals), `section` (where that
//! section sits in `docs/BENCHMARKS.md`). The MCP client itself is [`crate::mcp`].

mod corpus;
mod options;
mod read_loop;
mod render;
mod results;
mod section;
pub(crate) mod servers;

pub use options::{PeerOptions, Tool, SHARED_FLAGS, TOOLS};
pub use read_loop::run;
pub use render::{goals, render};
pub use results::{load_now, Call, Measured, PageRow, PeerResults};
pub use section::{section_of, splice, BEGIN, END};
