//! The subcommands that run a bridge: `serve`, `mcp` (which may start one in-process), `launch`
//! (a bridge and Chromium, paired) and `demo`. Each turns its arguments into the library's options.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bua_bridge::launch::{LaunchOptions, TokenSource};
use bua_bridge::{cli, server, token, Error, ServerConfig};

use super::args::Command;
use super::process::{init_logging, report, token_path};

/// What `serve` grants its agents: how long an owner's tabs outlive its connections, and the folders
/// `upload` may read.
pub(crate) struct ServeAgents {
    pub(crate) grace: super::parse::Grace,
    pub(crate) files_dirs: Vec<PathBuf>,
    /// `--secrets FILE` (SPEC §4 "Secrets").
    pub(crate) secrets: Option<PathBuf>,
    /// The actions `--no-evaluate` / `--no-upload` turn off.
    pub(crate) switched_off: Vec<&'static str>,
    /// `--allow SITE`: the only sites agents may open (SPEC §10).
    pub(crate) allow: Vec<String>,
}

/// The secrets file a bridge reads: `--secrets FILE`, checked now (a file others can read stops the
/// command with the `chmod 600` fix), else `~/.config/bua/secrets`, checked when a secret is used.
pub(crate) fn secrets_file(given: Option<PathBuf>) -> Result<Option<PathBuf>, Error> {
    match given {
        Some(path) => {
            bua_bridge::secrets::load(&path).map_err(Error::Secrets)?;
            Ok(Some(path))
        }
        None => Ok(bua_bridge::secrets::default_path()),
    }
}

/// `serve`: runs the bridge until SIGTERM or SIGINT, after printing its URL and pairing token.
pub(crate) async fn serve(
    port: u16,
    bind: IpAddr,
    token_file: Option<PathBuf>,
    extension_id: Option<String>,
    min_protocol_version: Option<u32>,
    extension_wait: Duration,
    agents: ServeAgents,
) -> Result<(), Error> {
    use tokio::signal::unix::{signal, SignalKind};
    if let Some(id) = &extension_id {
        if !bua_bridge::origin::is_extension_id(id) {
            return Err(Error::InvalidEndpoint {
                input: id.clone(),
                reason: "an extension id is 32 letters a-p (see chrome://extensions)".into(),
            });
        }
    }
    let path = token_path(token_file)?;
    let token = token::load_or_create(&path)?;
    let mut config = ServerConfig::loopback(port, token.clone());
    config.bind = SocketAddr::new(bind, port);
    config.extension_id = extension_id;
    config.extension_wait = extension_wait;
    config.agent_grace = agents.grace;
    config.files_dirs = agents.files_dirs;
    config.secrets = secrets_file(agents.secrets)?;
    config.switched_off = agents.switched_off;
    config.allow = agents.allow;
    if let Some(v) = min_protocol_version {
        config.min_protocol_version = v;
    }
    if !bind.is_loopback() {
        tracing::warn!(%bind, "listening beyond loopback: anyone who can reach this address and knows the token can drive the browser");
    }
    let mut sigterm = signal(SignalKind::terminate())
        .map_err(|e| Error::io("installing the SIGTERM handler", e))?;
    let mut sigint = signal(SignalKind::interrupt())
        .map_err(|e| Error::io("installing the SIGINT handler", e))?;
    let handle = server::start(config).await?;
    // The banner is for people; a closed stdout (`serve | head -1`) must not stop the server.
    let _ = cli::print_line(&format!(
        "bua-bridge {} listening on {}",
        bua_bridge::SERVER_VERSION,
        handle.url()
    ));
    let _ = cli::print_line(&format!("pairing token ({}): {token}", path.display()));
    let _ = cli::print_line(&format!(
        "pair the extension: `bua-bridge install` once and it pairs by itself; or open its options page, set Backend URL to {} and paste the token (or run `bua-bridge launch`)",
        handle.url()
    ));
    tokio::select! {
        _ = sigterm.recv() => tracing::info!("SIGTERM: shutting down"),
        _ = sigint.recv() => tracing::info!("SIGINT: shutting down"),
    }
    handle.shutdown().await;
    Ok(())
}
/// `mcp`: the MCP server on stdio, with its token and owner resolved.
pub(crate) async fn mcp(command: Command) -> ExitCode {
    let Command::Mcp {
        port,
        url,
        owner,
        token,
        token_file,
        no_serve,
        extension_wait,
        agent_grace,
        screenshot_max_side,
        screenshot_max_png_bytes,
        files_dirs,
        controls,
    } = command
    else {
        return ExitCode::FAILURE;
    };
    // stdout is the MCP channel: logs go to stderr, and only this crate's info.
    init_logging("warn,bua_bridge=info");
    use bua_bridge::mcp::TokenSource as McpToken;
    let (token, token_source) = match token {
        Some(t) => (t, McpToken::Flag),
        None => {
            let path = match token_path(token_file) {
                Ok(p) => p,
                Err(e) => return report(Err(e)),
            };
            match token::load_or_create(&path) {
                Ok(t) => (t, McpToken::File(path)),
                Err(e) => return report(Err(e)),
            }
        }
    };
    let switched_off = controls.switched_off();
    let secrets = match secrets_file(controls.secrets) {
        Ok(s) => s,
        Err(e) => return report(Err(e)),
    };
    let owner = match owner {
        Some(o) => match bua_protocol::check_owner(&o) {
            Ok(()) => o,
            Err(what) => return report(Err(Error::Mcp(format!("--owner: the owner {what}")))),
        },
        None => bua_bridge::mcp::default_owner(),
    };
    report(
        bua_bridge::mcp::serve_stdio(bua_bridge::mcp::McpOptions {
            port,
            url,
            owner,
            token,
            token_source,
            // A bridge elsewhere (--url) is the user's to start; McpOptions says so.
            start_bridge: !no_serve,
            extension_wait: Duration::from_secs(extension_wait),
            agent_grace,
            screenshot_cap: bua_bridge::mcp::ScreenshotCap {
                max_side: screenshot_max_side,
                max_png_bytes: screenshot_max_png_bytes,
            },
            files_dirs,
            secrets,
            switched_off,
            allow: controls.allow,
        })
        .await,
    )
}

/// `demo`: the agent tour on the demo site, or `open_tab` + `extract` on the given URLs.
pub(crate) async fn demo(command: Command) -> ExitCode {
    let Command::Demo {
        urls,
        extension,
        site,
        out,
        chrome,
        headless,
    } = command
    else {
        return ExitCode::FAILURE;
    };
    init_logging("warn");
    let has_display = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty())
        || std::env::var_os("WAYLAND_DISPLAY").is_some_and(|d| !d.is_empty());
    let opts = bua_bridge::demo::DemoOptions {
        extension_dir: extension,
        site_dir: site,
        out_dir: out,
        chrome,
        headless: headless || !has_display,
        urls,
    };
    match bua_bridge::demo::run(opts).await {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => report(Err(e)),
    }
}

/// `launch`: the bridge and Chromium with the extension, paired, until stopped.
pub(crate) async fn launch(command: Command) -> ExitCode {
    let Command::Launch {
        port,
        chrome,
        extension,
        headless,
        user_data_dir,
        token_file,
        ephemeral_token,
        exit_on_stdin_close,
        chrome_output,
        min_protocol_version,
        chrome_args,
        files_dirs,
        controls,
        download_dir,
    } = command
    else {
        return ExitCode::FAILURE;
    };
    init_logging("info");
    let token = if ephemeral_token {
        TokenSource::Ephemeral
    } else {
        match token_path(token_file) {
            Ok(p) => TokenSource::File(p),
            Err(e) => return report(Err(e)),
        }
    };
    let mut opts = LaunchOptions::new(extension);
    opts.port = port;
    opts.chrome = chrome;
    opts.headless = headless;
    opts.user_data_dir = user_data_dir;
    opts.token = token;
    opts.chrome_output = chrome_output;
    opts.extra_args = chrome_args;
    opts.files_dirs = files_dirs;
    opts.switched_off = controls.switched_off();
    opts.allow = controls.allow;
    opts.secrets = match secrets_file(controls.secrets) {
        Ok(s) => s,
        Err(e) => return report(Err(e)),
    };
    opts.download_dir = download_dir;
    if let Some(v) = min_protocol_version {
        opts.min_protocol_version = v;
    }
    report(
        bua_bridge::launch::run(opts, exit_on_stdin_close)
            .await
            .map(|reason| tracing::info!(?reason, "stopped")),
    )
}
