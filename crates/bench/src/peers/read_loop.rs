//! The read loop itself: our launch and the expected texts, the three servers, one unrecorded warm-up
//! page, then every corpus page with each tool in a rotating order.

use std::time::Instant;

use bua_bridge::launch::{self, LaunchOptions};
use bua_bridge::site::StaticSite;
use bua_bridge::BridgeClient;

use super::corpus::{corpus_metrics, corpus_pages, expected_texts};
use super::options::{progress, PeerOptions, SHARED_FLAGS, TOOLS};
use super::results::{load_now, PageRow, PeerResults};
use super::servers::start_servers;
use crate::BenchError;

/// Runs the peer benchmark.
///
/// Errors: when the corpus, our launch or a server's start fails; a failing call is recorded instead.
pub async fn run(opts: &PeerOptions) -> Result<PeerResults, BenchError> {
    let wall = Instant::now();
    let mut results = PeerResults {
        load: (load_now(), String::new()),
        ..PeerResults::default()
    };
    let mut names = corpus_pages(&opts.corpus, opts.limit)?;
    if !opts.only.is_empty() {
        names.retain(|n| opts.only.contains(n));
    }
    let site = StaticSite::start_empty()
        .await
        .map_err(|e| BenchError::io("starting the page server", e))?;
    site.mount("/corpus/", &opts.corpus);
    let work = tempfile::Builder::new()
        .prefix("bua-bench-peers-")
        .tempdir()
        .map_err(|e| BenchError::io("creating a temporary folder", e))?;

    progress("launching Chromium with the extension");
    let mut launch_opts = LaunchOptions::new(&opts.extension);
    launch_opts.chrome = Some(opts.chrome.clone());
    launch_opts.extra_args = SHARED_FLAGS.iter().map(|f| f.to_string()).collect();
    let launched = launch::start(launch_opts).await?;
    let client = BridgeClient::connect(launched.server().port(), launched.server().token()).await?;
    crate::run::settle(&client).await?;
    progress(&format!(
        "reading the expected text of {} pages",
        names.len()
    ));
    let expected = expected_texts(&client, &site, &names).await?;
    results.recall_pages = expected.iter().flatten().count();

    progress("starting the three MCP servers");
    let mut servers = start_servers(opts, &launched, work.path()).await?;
    for (i, s) in servers.servers.iter().enumerate() {
        results.servers[i] = s.info.clone();
    }
    // Warm-up, not recorded: each browser's first page load and first read.
    if let Some(first) = names.first() {
        let url = site.url(&format!("/corpus/{first}/source.html"));
        for tool in TOOLS {
            servers.navigate(tool, &url, opts.call_timeout).await;
            servers.read(tool, opts.call_timeout).await;
        }
    }

    for (n, name) in names.iter().enumerate() {
        let url = site.url(&format!("/corpus/{name}/source.html"));
        let mut row = PageRow {
            name: name.clone(),
            ..PageRow::default()
        };
        for k in 0..TOOLS.len() {
            let tool = TOOLS[(n + k) % TOOLS.len()];
            let nav = servers.navigate(tool, &url, opts.call_timeout).await;
            let measured = &mut row.tools[tool.index()];
            if let Some(error) = &nav.error {
                let dialog = error.contains("dialog") || error.contains("modal state");
                measured.nav = nav;
                if dialog {
                    servers.clear_dialog(tool, opts.call_timeout).await;
                }
                continue;
            }
            let (read, text) = servers.read(tool, opts.call_timeout).await;
            if read
                .error
                .as_deref()
                .is_some_and(|e| e.contains("dialog") || e.contains("modal state"))
            {
                servers.clear_dialog(tool, opts.call_timeout).await;
            }
            let measured = &mut row.tools[tool.index()];
            measured.nav = nav;
            if read.error.is_none() {
                measured.recall = expected[n]
                    .as_deref()
                    .map(|e| corpus_metrics::recall(e, &text));
            }
            measured.read = Some(read);
        }
        if (n + 1) % 10 == 0 {
            progress(&format!("{} of {} pages", n + 1, names.len()));
        }
        results.pages.push(row);
    }
    for server in servers.servers {
        server.quit().await;
    }
    drop(client);
    drop(launched);
    results.load.1 = load_now();
    results.seconds = wall.elapsed().as_secs_f64();
    Ok(results)
}
