//! The task benchmark (`./build.sh bench --tasks`): what an agent pays per task, not per page. Real
//! web applications from PyPI ([`apps`]: Django's admin, Trac) run on 127.0.0.1; one scripted agent
//! ([`agent`]) does every task ([`list`]) through each of the three MCP servers the peer benchmark
//! starts (`crate::peers::servers::start_servers`: ours, Playwright MCP, Chrome DevTools MCP, each with its own
//! headless Chromium), finding its targets only in the text each tool returned ([`text`]); the
//! application's own state says whether the task was done. Per tool and task: passed, calls, bytes of
//! every result the model reads, seconds inside tool calls ([`report`]).
//!
//! Each tool has its own copy of each application (same seed), so the tools take turns task by task, in
//! a rotating order, and a noisy moment hits all alike.

pub mod agent;
pub mod apps;
pub mod formats;
pub mod list;
pub mod patch;
pub mod report;
pub mod text;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bua_bridge::launch::{self, LaunchOptions};
use bua_bridge::BridgeClient;

use crate::peers::{PeerOptions, Tool, SHARED_FLAGS, TOOLS};
use crate::BenchError;
use apps::{App, Instance, Venv};

/// What to run.
#[derive(Debug, Clone)]
pub struct TaskOptions {
    /// The servers, as the peer benchmark starts them (its corpus fields are unused).
    pub peers: PeerOptions,
    /// The venv with Django and Trac (`target/tasks-venv`).
    pub venv: PathBuf,
    /// Only these tasks (ids), when not empty.
    pub only: Vec<String>,
    /// Write every call's arguments and result text here, one file per tool and task.
    pub dump: Option<PathBuf>,
}

/// One task with one tool.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// The application's state says it was done.
    pub passed: bool,
    /// Tool calls (reads included).
    pub calls: usize,
    /// Calls that failed.
    pub failed_calls: usize,
    /// UTF-8 bytes of every result's text.
    pub bytes: usize,
    /// Seconds inside tool calls.
    pub seconds: f64,
    /// Why the check failed, and what the agent noticed the text lacked.
    pub notes: Vec<String>,
}

/// One task, every tool.
#[derive(Debug, Clone)]
pub struct Row {
    /// The task's id.
    pub id: &'static str,
    /// What it does.
    pub what: &'static str,
    /// Where.
    pub app: App,
    /// Per tool, in [`TOOLS`] order.
    pub tools: [Outcome; 3],
}

/// The whole run.
#[derive(Debug, Clone, Default)]
pub struct TaskResults {
    /// Per task.
    pub rows: Vec<Row>,
    /// `serverInfo` per tool.
    pub servers: [String; 3],
    /// `uptime` before and after.
    pub load: (String, String),
    /// Wall time, s.
    pub seconds: f64,
    /// Django's and Trac's versions.
    pub versions: String,
}

fn progress(message: &str) {
    eprintln!("[bench --tasks] {message}");
}

/// `uptime`'s line.
pub fn uptime() -> String {
    std::process::Command::new("uptime")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|_| crate::peers::load_now())
}

/// Whether our schema (`bua-bridge schema`) lists a `fill` action.
fn ours_has_fill(bridge_bin: &Path) -> bool {
    std::process::Command::new(bridge_bin)
        .arg("schema")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("\\nfill("))
        .unwrap_or(false)
}

/// The seeded originals, then one running copy per tool and application.
async fn start_apps(venv: &Venv, work: &Path) -> Result<Vec<[Instance; 2]>, BenchError> {
    for app in [App::Django, App::Trac] {
        progress(&format!("setting up {}", app.label()));
        apps::seed(app, venv, &work.join(format!("{app:?}-seed"))).await?;
    }
    let mut out = Vec::new();
    for tool in TOOLS {
        let mut pair = Vec::new();
        for app in [App::Django, App::Trac] {
            let from = work.join(format!("{app:?}-seed"));
            let to = work.join(format!("{app:?}-{tool:?}"));
            pair.push(apps::start(app, venv, &from, &to).await?);
        }
        let trac = pair.pop();
        let django = pair.pop();
        if let (Some(d), Some(t)) = (django, trac) {
            out.push([d, t]);
        }
    }
    Ok(out)
}

/// Runs the task benchmark.
///
/// Errors: when an application, our launch or a server's start fails; a failing task is recorded.
pub async fn run(opts: &TaskOptions) -> Result<TaskResults, BenchError> {
    let wall = Instant::now();
    let mut results = TaskResults {
        load: (uptime(), String::new()),
        ..TaskResults::default()
    };
    progress(&format!("load at the start: {}", results.load.0));
    let venv = Venv::open(&opts.venv)?;
    results.versions = venv.versions().await;
    let work = tempfile::Builder::new()
        .prefix("bua-bench-tasks-")
        .tempdir()
        .map_err(|e| BenchError::io("creating a temporary folder", e))?;
    let instances = start_apps(&venv, work.path()).await?;
    let all: Vec<list::Task> = list::all()
        .into_iter()
        .filter(|t| opts.only.is_empty() || opts.only.iter().any(|o| o == t.id))
        .collect();
    for instance in instances.iter().flatten() {
        let paths: Vec<&str> = all
            .iter()
            .filter(|t| t.app == instance.app)
            .filter_map(|t| match t.steps.first() {
                Some(list::Intent::Open(path)) => Some(*path),
                _ => None,
            })
            .collect();
        apps::warm(instance, &paths).await;
    }

    progress("launching Chromium with the extension and the three MCP servers");
    let mut launch_opts = LaunchOptions::new(&opts.peers.extension);
    launch_opts.chrome = Some(opts.peers.chrome.clone());
    launch_opts.extra_args = SHARED_FLAGS.iter().map(|f| f.to_string()).collect();
    let launched = launch::start(launch_opts).await?;
    let client = BridgeClient::connect(launched.server().port(), launched.server().token()).await?;
    crate::run::settle(&client).await?;
    let mut servers =
        crate::peers::servers::start_servers(&opts.peers, &launched, work.path()).await?;
    for (i, s) in servers.servers.iter().enumerate() {
        results.servers[i] = s.info.clone();
    }
    let ours_fill = ours_has_fill(&opts.peers.bridge_bin);
    let timeout = opts.peers.call_timeout;

    for (n, task) in all.iter().enumerate() {
        let mut row = Row {
            id: task.id,
            what: task.what,
            app: task.app,
            tools: Default::default(),
        };
        for k in 0..TOOLS.len() {
            let i = (n + k) % TOOLS.len();
            let tool = TOOLS[i];
            let instance = &instances[i][task.app as usize];
            let outcome = run_one(
                tool,
                &mut servers.servers[i],
                servers.devtools_page,
                timeout,
                ours_fill,
                task,
                instance,
                opts.dump.as_deref(),
            )
            .await;
            row.tools[i] = outcome;
        }
        let marks: Vec<String> = TOOLS
            .iter()
            .zip(&row.tools)
            .map(|(t, o)| format!("{} {}", t.label(), if o.passed { "ok" } else { "FAILED" }))
            .collect();
        progress(&format!(
            "{} ({}/{}): {}",
            task.id,
            n + 1,
            all.len(),
            marks.join(", ")
        ));
        results.rows.push(row);
    }
    for server in servers.servers {
        server.quit().await;
    }
    for pair in instances {
        for instance in pair {
            instance.stop().await;
        }
    }
    drop(client);
    drop(launched);
    results.load.1 = uptime();
    progress(&format!("load at the end: {}", results.load.1));
    results.seconds = wall.elapsed().as_secs_f64();
    Ok(results)
}

/// One task through one tool, then its check.
#[allow(clippy::too_many_arguments)]
async fn run_one(
    tool: Tool,
    server: &mut crate::mcp::McpServer,
    devtools_page: i64,
    timeout: Duration,
    ours_fill: bool,
    task: &list::Task,
    instance: &Instance,
    dump: Option<&Path>,
) -> Outcome {
    let mut agent = agent::Agent::new(tool, server, devtools_page, timeout, ours_fill);
    agent.run(&instance.base, &task.steps).await;
    let mut outcome = Outcome {
        calls: agent.calls.len(),
        failed_calls: agent.calls.iter().filter(|c| c.failed).count(),
        bytes: agent.calls.iter().map(|c| c.text.len()).sum(),
        seconds: agent.calls.iter().map(|c| c.ms).sum::<f64>() / 1000.0,
        notes: agent.notes.clone(),
        ..Outcome::default()
    };
    match instance.check(task.check).await {
        Ok(()) => outcome.passed = true,
        Err(why) => outcome.notes.insert(0, format!("check: {why}")),
    }
    if let Some(dir) = dump {
        let mut text = String::new();
        for c in &agent.calls {
            text.push_str(&format!(
                "### {} {} ({:.0} ms, {} bytes{})\n{}\n\n",
                c.name,
                c.args,
                c.ms,
                c.text.len(),
                if c.failed { ", FAILED" } else { "" },
                c.text
            ));
        }
        text.push_str(&format!(
            "### outcome: passed={} notes={:?}\n",
            outcome.passed, outcome.notes
        ));
        let _ = std::fs::create_dir_all(dir);
        let _ = std::fs::write(dir.join(format!("{}-{tool:?}.txt", task.id)), text);
    }
    outcome
}
