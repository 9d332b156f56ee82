//! The report: one Markdown document (machine, date, the performance targets with pass/miss, the
//! tables behind them, and notes on every miss), written to `docs/BENCHMARKS.md` and printed.
//!
//! Rooms: `context` (what the report needs besides the measurements), `targets` (the goals and
//! their evaluation), `render` (the document in order) with one room per section (`floor`, `aria`,
//! `actions`, `worker`), `notes` (why a target was missed), `format` (how numbers are written).

mod actions;
mod aria;
mod context;
mod floor;
mod format;
mod notes;
mod render;
mod targets;
mod worker;

pub use context::{Context, WasmSize};
pub use notes::notes;
pub use render::render;
pub use targets::{corpus_medians, goals, targets, CorpusMedians, Target};

#[cfg(test)]
mod tests;
