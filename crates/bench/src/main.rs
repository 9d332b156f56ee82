//! `bua-bench`: measures extract, the actions and the service worker against the CDP floor
//! and Playwright's `ariaSnapshot()` in one run, writes `docs/BENCHMARKS.md` and prints the same
//! report. Run it through `./build.sh bench`, which builds the release extension first.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use bua_bench as bench;
use bua_bench::pages::SIZES;
use bua_bench::report::{self, Context, WasmSize};
use bua_bench::run::{self, Options};
use bua_bench::BenchError;

/// Benchmarks of BUA Browser Bridge against the CDP floor and Playwright.
#[derive(Debug, Parser)]
#[command(name = "bua-bench", version)]
struct Cli {
    /// The built extension (`dist/` from `./build.sh`).
    #[arg(long, default_value = "dist")]
    extension: PathBuf,
    /// Chromium for both browsers.
    #[arg(long, default_value = "/usr/bin/chromium")]
    chrome: PathBuf,
    /// Runs per generated page and tool (at least 20 for a p95 that is not just the maximum).
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Full warm-up rounds per generated page (every tool once, unrecorded), on top of the light
    /// warm-up every page gets (one floor, one ariaSnapshot()).
    #[arg(long, default_value_t = 0)]
    warmup: usize,
    /// ariaSnapshot() runs per generated page, spread over the rounds (the floor and extract get
    /// `--runs`; Playwright is the reference for the time and bytes ratios only).
    #[arg(long, default_value_t = 10)]
    aria_runs: usize,
    /// Runs of the raw CDP commands that break an extract down, on the 1k and 10k pages (0 = none).
    #[arg(long, default_value_t = 3)]
    profile_runs: usize,
    /// Only these generated sizes (comma-separated: 1k,10k,50k).
    #[arg(long, value_delimiter = ',')]
    sizes: Vec<String>,
    /// The readability corpus (folders with `source.html`); by default `readability/` of the corpus
    /// the tests use: `$BUA_CORPUS_DIR`, else `corpus` (run from the repository root).
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Skip the corpus.
    #[arg(long)]
    no_corpus: bool,
    /// Only the first N corpus pages (by name).
    #[arg(long)]
    corpus_limit: Option<usize>,
    /// Only these corpus pages (comma-separated folder names).
    #[arg(long, value_delimiter = ',')]
    corpus_pages: Vec<String>,
    /// Runs per corpus page and tool.
    #[arg(long, default_value_t = 1)]
    corpus_runs: usize,
    /// Warm every tool up once per corpus page (an extract too), not only the floor and
    /// ariaSnapshot().
    #[arg(long)]
    corpus_full_warmup: bool,
    /// Phases to leave out (comma-separated).
    #[arg(long, value_delimiter = ',', value_enum)]
    skip: Vec<Phase>,
    /// Round trips per action.
    #[arg(long, default_value_t = 50)]
    action_runs: usize,
    /// Service-worker cold starts.
    #[arg(long, default_value_t = 5)]
    cold_starts: usize,
    /// Actions in the leak check.
    #[arg(long, default_value_t = 1000)]
    leak_actions: usize,
    /// Extracts per generated page under the service worker's CPU profiler (0 = none).
    #[arg(long, default_value_t = 2)]
    worker_profile_runs: usize,
    /// Skip the Playwright peer.
    #[arg(long)]
    no_playwright: bool,
    /// Node.js for the Playwright peer.
    #[arg(long, default_value = "node")]
    node: String,
    /// The Playwright peer script.
    #[arg(long, default_value = "bench/aria.mjs")]
    peer: PathBuf,
    /// Write the generated pages as HTML files into this folder and exit (for looking at them).
    #[arg(long)]
    write_pages: Option<PathBuf>,
    /// Where to write the report (`-` = print only).
    #[arg(long, default_value = "docs/BENCHMARKS.md")]
    out: PathBuf,
    /// Run only the peer benchmark: the read loop through our MCP server, Playwright MCP and Chrome
    /// DevTools MCP on the corpus; its section of the report is replaced, the rest kept.
    #[arg(long)]
    peers: bool,
    /// The `bua-bridge` binary that serves our MCP (`--peers`).
    #[arg(long, default_value = "target/release/bua-bridge")]
    bridge_bin: PathBuf,
    /// The folder with the peers' `node_modules` (`--peers`).
    #[arg(long, default_value = "bench")]
    peers_dir: PathBuf,
    /// Seconds one MCP tool call may take before it counts as failed (`--peers`, `--tasks`).
    #[arg(long, default_value_t = 60)]
    peers_call_timeout: u64,
    /// Run only the task benchmark: multi-step tasks in Django's admin and Trac through our MCP server,
    /// Playwright MCP and Chrome DevTools MCP; its section of the report is replaced, the rest kept.
    #[arg(long)]
    tasks: bool,
    /// The venv with Django and Trac (`--tasks`; `./build.sh bench --tasks` makes it).
    #[arg(long, default_value = "target/tasks-venv")]
    tasks_venv: PathBuf,
    /// Only these tasks (comma-separated ids, `--tasks`).
    #[arg(long, value_delimiter = ',')]
    tasks_only: Vec<String>,
    /// Write every tool call and its result text into this folder (`--tasks`).
    #[arg(long)]
    tasks_dump: Option<PathBuf>,
}

/// A phase of the run, for `--skip`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Phase {
    /// The generated 1k/10k/50k pages.
    Generated,
    /// The readability corpus.
    Corpus,
    /// Action round trips.
    Actions,
    /// Service-worker cold starts.
    ColdStart,
    /// The heap leak check.
    Leak,
    /// extract on 20 cross-origin vs 20 same-origin frames.
    Frames,
}

/// Copies the folder `from` into `to` (files and subfolders).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// The readability corpus: `explicit`, else `$BUA_CORPUS_DIR/readability`, else
/// `corpus/readability` (the corpus the end-to-end tests score, `tests/e2e/corpus.rs`).
///
/// Errors: [`BenchError::io`] (not found) when the folder does not exist, with the ways to fix it.
fn corpus_dir(explicit: Option<PathBuf>) -> Result<PathBuf, BenchError> {
    let dir = explicit.unwrap_or_else(|| {
        std::env::var_os("BUA_CORPUS_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("corpus"))
            .join("readability")
    });
    if dir.is_dir() {
        return Ok(dir);
    }
    Err(BenchError::io(
        format!(
            "the readability corpus is missing at {}: set $BUA_CORPUS_DIR to the corpus folder \
             (the one holding readability/), pass --corpus <folder>, or leave it out with --skip corpus",
            dir.display()
        ),
        std::io::Error::from(std::io::ErrorKind::NotFound),
    ))
}

fn wasm_size(extension: &Path) -> WasmSize {
    let file = extension.join("pkg").join("bua_extension_bg.wasm");
    let raw = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    // gzip -9 as build.sh reports it; no compression crate is needed for one number.
    let gzip = std::process::Command::new("gzip")
        .args(["-9", "-c"])
        .arg(&file)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| o.stdout.len() as u64);
    WasmSize { raw, gzip }
}

/// `path` made absolute against the current directory.
///
/// Errors: [`BenchError::io`] when it does not exist.
fn absolute(path: &Path) -> Result<PathBuf, BenchError> {
    std::fs::canonicalize(path).map_err(|e| {
        BenchError::io(
            format!(
                "{} (build it, or run from the repository root: ./build.sh bench --peers)",
                path.display()
            ),
            e,
        )
    })
}

/// `chrome --version`'s line.
fn chromium_version(chrome: &Path) -> String {
    std::process::Command::new(chrome)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "Chromium".into())
}

/// Replaces one section of the report `out` (`-`: none) with `section`, by `splice`.
///
/// Errors: [`BenchError::io`] when the report cannot be written.
fn write_section(
    out: &Path,
    section: &str,
    splice: fn(&str, &str) -> String,
    what: &str,
) -> Result<(), BenchError> {
    if out == Path::new("-") {
        return Ok(());
    }
    let old = std::fs::read_to_string(out).unwrap_or_default();
    std::fs::write(out, splice(&old, section))
        .map_err(|e| BenchError::io(format!("writing {}", out.display()), e))?;
    eprintln!("[bench] wrote the {what} section of {}", out.display());
    Ok(())
}

/// `--peers`: runs [`bench::peers`] and replaces its section of `cli.out`.
async fn peers_main(cli: &Cli, extension: &Path) -> Result<(), BenchError> {
    let opts = bench::peers::PeerOptions {
        extension: extension.to_path_buf(),
        chrome: cli.chrome.clone(),
        corpus: corpus_dir(cli.corpus.clone())?,
        limit: cli.corpus_limit,
        // The servers run in a temporary folder: relative paths are the caller's.
        bridge_bin: absolute(&cli.bridge_bin)?,
        node: cli.node.clone(),
        bench_dir: absolute(&cli.peers_dir)?,
        call_timeout: std::time::Duration::from_secs(cli.peers_call_timeout),
        only: cli.corpus_pages.clone(),
    };
    let machine = bench::machine::collect(&cli.node);
    let chromium = chromium_version(&cli.chrome);
    let results = bench::peers::run(&opts).await?;
    let section = bench::peers::render(&results, &chromium, &machine);
    println!("{section}");
    write_section(&cli.out, &section, bench::peers::splice, "peer")
}

/// `--tasks`: runs [`bench::tasks`] and replaces its section of `cli.out`.
async fn tasks_main(cli: &Cli, extension: &Path) -> Result<(), BenchError> {
    let opts = bench::tasks::TaskOptions {
        peers: bench::peers::PeerOptions {
            extension: extension.to_path_buf(),
            chrome: cli.chrome.clone(),
            corpus: PathBuf::new(),
            limit: None,
            bridge_bin: absolute(&cli.bridge_bin)?,
            node: cli.node.clone(),
            bench_dir: absolute(&cli.peers_dir)?,
            call_timeout: std::time::Duration::from_secs(cli.peers_call_timeout),
            only: Vec::new(),
        },
        venv: absolute(&cli.tasks_venv)?,
        only: cli.tasks_only.clone(),
        dump: cli.tasks_dump.clone(),
    };
    let machine = bench::machine::collect(&cli.node);
    let chromium = chromium_version(&cli.chrome);
    let results = bench::tasks::run(&opts).await?;
    let section = bench::tasks::report::render(&results, &chromium, &machine);
    println!("{section}");
    write_section(&cli.out, &section, bench::tasks::report::splice, "task")
}

async fn main_async(cli: Cli) -> Result<(), BenchError> {
    if let Some(dir) = &cli.write_pages {
        std::fs::create_dir_all(dir)
            .map_err(|e| BenchError::io(format!("creating {}", dir.display()), e))?;
        for spec in SIZES {
            let file = dir.join(format!("{}.html", spec.name));
            std::fs::write(&file, bench::pages::generate(&spec))
                .map_err(|e| BenchError::io(format!("writing {}", file.display()), e))?;
        }
        std::fs::write(dir.join("actions.html"), bench::pages::actions_page())
            .map_err(|e| BenchError::io(format!("writing into {}", dir.display()), e))?;
        return Ok(());
    }
    let sizes = if cli.sizes.is_empty() {
        SIZES.to_vec()
    } else {
        SIZES
            .iter()
            .filter(|s| cli.sizes.iter().any(|n| n == s.name))
            .copied()
            .collect()
    };
    let corpus = if cli.no_corpus || cli.skip.contains(&Phase::Corpus) {
        None
    } else {
        Some(corpus_dir(cli.corpus.clone())?)
    };
    // The browser loads a private copy: a rebuild of dist/ during the run (others' dev builds) must not
    // change the extension under a measurement (the worker re-reads its files at every cold start).
    let copy = tempfile::Builder::new()
        .prefix("bua-bench-ext-")
        .tempdir()
        .map_err(|e| BenchError::io("creating a temporary folder", e))?;
    copy_tree(&cli.extension, copy.path()).map_err(|e| {
        BenchError::io(
            format!(
                "copying the extension {} (build it with ./build.sh)",
                cli.extension.display()
            ),
            e,
        )
    })?;
    if cli.peers {
        return peers_main(&cli, copy.path()).await;
    }
    if cli.tasks {
        return tasks_main(&cli, copy.path()).await;
    }
    let opts = Options {
        extension: copy.path().to_path_buf(),
        chrome: cli.chrome.clone(),
        runs: cli.runs,
        warmup: cli.warmup,
        aria_runs: cli.aria_runs,
        profile_runs: cli.profile_runs,
        sizes,
        corpus,
        corpus_limit: cli.corpus_limit,
        corpus_runs: cli.corpus_runs,
        action_runs: cli.action_runs,
        cold_starts: cli.cold_starts,
        leak_actions: cli.leak_actions,
        peer: (!cli.no_playwright).then(|| (cli.node.clone(), cli.peer.clone())),
        worker_profile_runs: cli.worker_profile_runs,
        phases: run::Phases {
            generated: !cli.skip.contains(&Phase::Generated),
            corpus: !cli.skip.contains(&Phase::Corpus),
            actions: !cli.skip.contains(&Phase::Actions),
            cold_start: !cli.skip.contains(&Phase::ColdStart),
            leak: !cli.skip.contains(&Phase::Leak),
            frames: !cli.skip.contains(&Phase::Frames),
        },
        corpus_pages: cli.corpus_pages.clone(),
        corpus_full_warmup: cli.corpus_full_warmup,
    };
    let machine = bench::machine::collect(&cli.node);
    let ctx = Context {
        machine,
        wasm: wasm_size(copy.path()),
        wasm_profile: std::env::var("BUA_WASM_PROFILE").unwrap_or_else(|_| "release".into()),
        command: std::iter::once("bua-bench".to_string())
            .chain(std::env::args().skip(1).filter(|a| !a.contains('/')))
            .collect::<Vec<_>>()
            .join(" "),
    };
    // On SIGINT/SIGTERM the run is dropped: the launch's guard kills Chromium's process group and
    // removes the temporary profile, and the peer (kill_on_drop) closes its browser when its stdin ends.
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| BenchError::io("installing the SIGTERM handler", e))?;
    let results = tokio::select! {
        r = run::run(&opts) => r?,
        _ = tokio::signal::ctrl_c() => return Err(BenchError::Closed("interrupted (SIGINT)".into())),
        _ = sigterm.recv() => return Err(BenchError::Closed("terminated (SIGTERM)".into())),
    };
    let notes = report::notes(&results, &ctx);
    let mut text = report::render(&results, &ctx, &notes);
    println!("{text}");
    if cli.out != Path::new("-") {
        // The peer section comes from `--peers` runs: keep it.
        let old = std::fs::read_to_string(&cli.out).unwrap_or_default();
        if let Some(section) = bench::peers::section_of(&old) {
            text = bench::peers::splice(&text, &format!("{section}\n"));
        }
        if let Some(section) = bench::tasks::report::section_of(&old) {
            text = bench::tasks::report::splice(&text, &format!("{section}\n"));
        }
        if let Some(dir) = cli.out.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| BenchError::io(format!("creating {}", dir.display()), e))?;
        }
        std::fs::write(&cli.out, &text)
            .map_err(|e| BenchError::io(format!("writing {}", cli.out.display()), e))?;
        eprintln!("[bench] wrote {}", cli.out.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("BUA_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("bua-bench: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(main_async(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bua-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
