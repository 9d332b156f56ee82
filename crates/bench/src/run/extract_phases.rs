//! The extract phases: the generated pages (with their profile), the readability corpus, and the
//! frames pages.

use std::path::Path;
use std::time::{Duration, Instant};

use bua_bridge::site::Route;

use super::bench::{progress, Bench};
use super::options::Options;
use super::results::Results;
use super::worker_profile::worker_profile;
use crate::pages;
use crate::BenchError;

/// Frames of the frames pages (SPEC §5 "Frames": at most 20 cross-origin frames are read).
const FRAME_PAGE_FRAMES: usize = 20;

/// Pages with more DOM nodes than this are profiled once (their commands take hundreds of ms each)
/// and without the worker's CPU profiler.
const SMALL_PAGE_MAX_DOM_NODES: u64 = 5_000;

/// extract on a page of [`FRAME_PAGE_FRAMES`] same-origin frames, then on the same page whose frames come from
/// `localhost` (another site: out-of-process frames, each a target of its own), `opts.runs` times each after
/// one unrecorded run; both must list every frame's controls.
pub(super) async fn frames(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<(), BenchError> {
    let port = bench.server.port();
    for (name, host) in [("same", "127.0.0.1"), ("cross", "localhost")] {
        progress(&format!(
            "{FRAME_PAGE_FRAMES} {name}-origin frames: {} runs",
            opts.runs
        ));
        let src = format!("http://{host}:{port}/frames/child.html");
        bench.server.route(
            &format!("/frames/{name}.html"),
            Route::Html(pages::frame_parent(&src, FRAME_PAGE_FRAMES)),
        );
        bench.load(&format!("/frames/{name}.html")).await?;
        // Frames load after the parent's load event: wait until extract lists every frame's button.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (_, r) = bench.extract().await?;
            let buttons = r["elements"]
                .as_array()
                .map_or(0, |e| e.iter().filter(|e| e["role"] == "button").count());
            if buttons >= FRAME_PAGE_FRAMES {
                break;
            }
            if Instant::now() > deadline {
                return Err(BenchError::Unexpected(format!(
                    "{name}-origin frames page: extract lists {buttons} of {FRAME_PAGE_FRAMES} frame buttons"
                )));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut times = Vec::with_capacity(opts.runs);
        for _ in 0..opts.runs {
            times.push(bench.extract().await?.0);
        }
        match name {
            "same" => results.frames_ms.0 = times,
            _ => results.frames_ms.1 = times,
        }
    }
    Ok(())
}

pub(super) async fn generated_pages(
    bench: &mut Bench,
    opts: &Options,
    results: &mut Results,
) -> Result<(), BenchError> {
    for spec in &opts.sizes {
        progress(&format!(
            "generated page {} ({} DOM nodes, {} controls): {} runs",
            spec.name, spec.nodes, spec.interactive, opts.runs
        ));
        bench.load(&format!("/gen/{}.html", spec.name)).await?;
        let mut page = bench
            .measure_page(
                spec.name,
                opts.warmup,
                opts.runs,
                opts.runs / opts.aria_runs.clamp(1, opts.runs.max(1)),
            )
            .await?;
        // As the extension counts them: the tree walker's nodes and the document itself.
        let nodes = page.dom_nodes + 1;
        // The 50k page is not broken down: its commands take seconds each (a run of the profile costs
        // as much as three measured rounds) and it takes the same path (DOM snapshot) as the 10k page.
        // On the 10k page one run is enough: its commands take hundreds of ms each.
        if spec.nodes <= 10_000 && opts.profile_runs > 0 {
            let runs = if nodes > SMALL_PAGE_MAX_DOM_NODES {
                1
            } else {
                opts.profile_runs
            };
            page.profile = Some(bench.profile(runs, nodes).await?);
        }
        results.generated.push(page);
        // The worker's CPU profile on the 1k page, whose fixed costs decide the corpus (small pages);
        // the bigger pages' breakdown is in the profile table.
        if opts.worker_profile_runs > 0 && nodes <= SMALL_PAGE_MAX_DOM_NODES {
            match worker_profile(bench, spec.name, opts.worker_profile_runs).await {
                Ok(p) => results.worker_profiles.push(p),
                Err(e) => results
                    .failures
                    .push(format!("worker profile of {}: {e}", spec.name)),
            }
        }
    }
    Ok(())
}

pub(super) async fn corpus(
    bench: &mut Bench,
    opts: &Options,
    dir: &Path,
    results: &mut Results,
) -> Result<(), BenchError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| BenchError::io(format!("reading {}", dir.display()), e))?
        .flatten()
        .filter(|e| e.path().join("source.html").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort();
    if !opts.corpus_pages.is_empty() {
        names.retain(|n| opts.corpus_pages.contains(n));
    }
    if let Some(limit) = opts.corpus_limit {
        names.truncate(limit);
    }
    progress(&format!(
        "corpus: {} pages × {} runs",
        names.len(),
        opts.corpus_runs
    ));
    for (i, name) in names.iter().enumerate() {
        let outcome = async {
            bench.load(&format!("/corpus/{name}/source.html")).await?;
            let warmup = usize::from(opts.corpus_full_warmup);
            bench.measure_page(name, warmup, opts.corpus_runs, 1).await
        }
        .await;
        match outcome {
            Ok(page) => results.corpus.push(page),
            Err(e) => results.failures.push(format!("corpus page {name}: {e}")),
        }
        if (i + 1) % 20 == 0 {
            progress(&format!("corpus: {}/{} pages", i + 1, names.len()));
        }
    }
    Ok(())
}
