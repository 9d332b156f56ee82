//! End-to-end tests of BUA Browser Bridge: the built extension (`dist/`) in real headless Chromium, the real
//! `bua-bridge`, fixture pages from a local HTTP server (`tests/fixtures/`), driven through the bridge's client
//! API (SPEC §2–§10). One test binary, linked once; its modules mirror `src/`:
//!
//! * [`actions`] — the browser actions, one module per family as `src/actions/` has them;
//! * [`extract`], [`extract_choice`], [`frames`] — `extract` (SPEC §5), what it gives an agent to choose from,
//!   and cross-origin frames;
//! * [`sessions`], [`handoff`], [`observe`], [`ui`] — the session model, handoff, observing the person's work, the popup and options page;
//! * [`bridge`] — launch, pairing and reconnects (the extension's `src/bridge/` and the bridge server);
//! * [`clients`], [`mcp`], [`agents`] — the bridge's clients: CLI, v1 clients, MCP server, several agents;
//! * [`corpus`], [`demo`], [`build_sh`] — the corpus thresholds, `bua-bridge demo`, `./build.sh`'s set-up step;
//! * [`setup`] — a person's machine: `install` (pairing without pasting), `extension`, the skill, `uninstall`.
//!
//! [`support`] is the harness. Each area's tests share one browser ([`support::Browser::shared`]); it is declared
//! in `crates/bridge/Cargo.toml` as the `[[test]]` `e2e`, so that `CARGO_BIN_EXE_bua-bridge` is the freshly built
//! bridge. Run one area with `cargo test -p bua-bridge --test e2e sessions:: -- --test-threads=2`.

mod support;

mod actions;
mod agents;
mod boundary;
mod bridge;
mod build_sh;
mod clients;
mod controls;
mod corpus;
mod demo;
mod extract;
mod extract_choice;
mod frames;
mod handoff;
mod mcp;
mod observe;
mod secrets;
mod sessions;
mod setup;
mod ui;
