//! What a run is asked to do: the options `bua-bench` passes in and the phases it runs.

use std::path::PathBuf;

use crate::pages::PageSpec;

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The built extension (`dist/`).
    pub extension: PathBuf,
    /// Chromium, for both browsers.
    pub chrome: PathBuf,
    /// Runs per generated page and tool (≥ 20, so that p95 is not just the maximum).
    pub runs: usize,
    /// Full warm-up rounds per generated page (every tool once, not recorded), after the light
    /// warm-up every page gets (one floor and one ariaSnapshot(), see [`Options::corpus_full_warmup`]).
    pub warmup: usize,
    /// `ariaSnapshot()` runs per generated page (spread evenly over the `runs` rounds; at most `runs`).
    pub aria_runs: usize,
    /// Runs of the raw CDP commands that break an extract down (profile), per generated page.
    pub profile_runs: usize,
    /// The generated page sizes.
    pub sizes: Vec<PageSpec>,
    /// `corpus/readability`, or `None` to skip the corpus.
    pub corpus: Option<PathBuf>,
    /// Only the first N corpus pages (sorted by name).
    pub corpus_limit: Option<usize>,
    /// Runs per corpus page and tool.
    pub corpus_runs: usize,
    /// Round trips per action.
    pub action_runs: usize,
    /// Service-worker cold starts.
    pub cold_starts: usize,
    /// Actions in the leak check (the heap is read after 10 % of them and after all).
    pub leak_actions: usize,
    /// `node`, and the peer script; `None` skips Playwright.
    pub peer: Option<(String, PathBuf)>,
    /// Extracts per generated page under the worker's CPU profiler (0 = no worker profile).
    pub worker_profile_runs: usize,
    /// Which phases run.
    pub phases: Phases,
    /// Only these corpus pages (folder names; empty = all).
    pub corpus_pages: Vec<String>,
    /// Corpus warm-up per page: `true` adds one unrecorded round of every tool (an extract too) to the
    /// light warm-up every page gets: one unrecorded floor and ariaSnapshot(), which make Chrome build
    /// the page's accessibility tree and layout (for extract and the floor alike) and Playwright inject
    /// its script — what the first measured call would otherwise pay alone.
    pub corpus_full_warmup: bool,
}

/// The phases of a run; all on by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phases {
    /// Generated pages (extract, floor, ariaSnapshot(), profile).
    pub generated: bool,
    /// The readability corpus.
    pub corpus: bool,
    /// Action round trips.
    pub actions: bool,
    /// Service-worker cold starts.
    pub cold_start: bool,
    /// The leak check (heap after 100 and 1,000 actions).
    pub leak: bool,
    /// extract on a page of 20 cross-origin frames against 20 same-origin ones.
    pub frames: bool,
}

impl Default for Phases {
    fn default() -> Self {
        Phases {
            generated: true,
            corpus: true,
            actions: true,
            cold_start: true,
            leak: true,
            frames: true,
        }
    }
}
