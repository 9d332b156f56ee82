//! `bua-bridge launch`: the server in-process plus Chromium with the unpacked extension, paired
//! automatically (SPEC §2: the pairing token and the pinned extension id).
//!
//! Steps: start the server (port 0 = a free port) with the extension id pinned; start Chromium in
//! its own process group with a fresh temporary profile, `--remote-debugging-port=0` (DevTools on
//! loopback) and `--load-extension`; connect to DevTools through the profile's `DevToolsActivePort`;
//! evaluate `chrome.storage.local.set({backendUrl, token})` in the extension's service worker (the
//! extension reconnects on that change); wait for its `ack`. On shutdown, the whole process group
//! is terminated and the temporary profile removed. Downloads go to the profile's `Downloads` folder (or
//! `--download-dir`), never `~/Downloads` ([`downloads`]).

mod chrome;
mod downloads;
mod launched;
mod options;
mod pairing;

pub use chrome::{chrome_args, extension_id_of, find_chrome, DISABLED_FEATURES, SILENT_DEBUGGER};
use chrome::{remove_profile, Browser, Profile};
pub use launched::{env_hint, Launched};
pub use options::{LaunchOptions, TokenSource};
use pairing::pair;
pub use pairing::READY_TIMEOUT;

use std::process::Stdio;
use std::time::{Duration, Instant};

use nix::unistd::Pid;
use tokio::process::Command;

use crate::error::{Error, Result};
use crate::server::{self, ServerConfig};

/// Starts server + Chromium, pairs the extension and waits for its `ack`, within [`READY_TIMEOUT`].
///
/// On any failure everything started so far is stopped and a temporary profile removed.
pub async fn start(opts: LaunchOptions) -> Result<Launched> {
    let started = Instant::now();
    let deadline = started + READY_TIMEOUT;
    let extension_dir = std::fs::canonicalize(&opts.extension_dir).map_err(|e| {
        Error::Launch(format!(
            "extension folder {}: {e} — build it first with ./build.sh (it makes dist/)",
            opts.extension_dir.display()
        ))
    })?;
    let pinned = extension_id_of(&extension_dir)?;
    let chrome = match &opts.chrome {
        Some(path) => path.clone(),
        None => find_chrome().ok_or_else(|| {
            Error::Launch(
                "no Chromium found (/usr/bin/chromium, chromium, google-chrome, chromium-browser); install it (Debian: apt-get install chromium) or pass --chrome".into(),
            )
        })?,
    };
    let token = match &opts.token {
        TokenSource::Ephemeral => crate::token::generate(),
        TokenSource::File(path) => crate::token::load_or_create(path)?,
    };
    let mut config = ServerConfig::loopback(opts.port, token);
    config.extension_id = pinned.clone();
    config.min_protocol_version = opts.min_protocol_version;
    config.agent_grace = Some(server::DEFAULT_AGENT_GRACE);
    config.files_dirs = opts.files_dirs.clone();
    config.secrets = opts.secrets.clone();
    config.switched_off = opts.switched_off.clone();
    config.allow = opts.allow.clone();
    let server = server::start(config).await?;

    let profile = match &opts.user_data_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::io(format!("creating profile {}", dir.display()), e))?;
            // A DevToolsActivePort left by an earlier run would point at a dead port.
            let _ = std::fs::remove_file(dir.join("DevToolsActivePort"));
            Profile::Kept(dir.clone())
        }
        None => Profile::Temporary(
            tempfile::Builder::new()
                .prefix("bua-profile-")
                .tempdir()
                .map_err(|e| Error::io("creating a temporary profile", e))?,
        ),
    };

    let download_dir = downloads::download_dir(profile.path(), opts.download_dir.as_deref());
    if let Err(e) = downloads::prepare(profile.path(), &download_dir) {
        server.shutdown().await;
        if let Profile::Temporary(dir) = profile {
            remove_profile(dir).await;
        }
        return Err(e);
    }
    let args = chrome_args(&opts, profile.path(), &extension_dir);
    tracing::info!(chrome = %chrome.display(), ?args, "starting Chromium");
    let mut command = Command::new(&chrome);
    command
        .args(&args)
        .stdin(Stdio::null())
        .stdout(if opts.chrome_output {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .stderr(if opts.chrome_output {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .process_group(0);
    let child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            server.shutdown().await;
            if let Profile::Temporary(dir) = profile {
                remove_profile(dir).await;
            }
            return Err(Error::io(format!("starting {}", chrome.display()), e));
        }
    };
    let pgid = Pid::from_raw(
        child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .unwrap_or(0),
    );
    let browser = Browser {
        child,
        pgid,
        done: false,
    };
    let mut launched = Launched {
        server,
        browser,
        profile,
        download_dir,
        extension_id: pinned.clone().unwrap_or_default(),
        devtools_port: 0,
        devtools_url: String::new(),
        startup: Duration::ZERO,
    };
    match pair(&mut launched, pinned.as_deref(), deadline).await {
        Ok(()) => {
            launched.startup = started.elapsed();
            tracing::info!(
                ms = launched.startup.as_millis() as u64,
                "extension paired and connected"
            );
            Ok(launched)
        }
        Err(e) => {
            launched.shutdown().await;
            Err(e)
        }
    }
}

/// What ended a launch's serve phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopReason {
    /// SIGINT or SIGTERM.
    Signal(&'static str),
    /// Standard input reached end of file (`--exit-on-stdin-close`).
    StdinClosed,
    /// Chromium exited by itself.
    BrowserExited(String),
}

/// The CLI's `launch`: [`start`], print `READY …` on stdout (and `DEVTOOLS …` on stderr), serve until
/// a signal, stdin EOF (when `exit_on_stdin_close`) or Chromium's exit, then shut down.
pub async fn run(opts: LaunchOptions, exit_on_stdin_close: bool) -> Result<StopReason> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut sigterm = signal(SignalKind::terminate())
        .map_err(|e| Error::io("installing the SIGTERM handler", e))?;
    let mut sigint = signal(SignalKind::interrupt())
        .map_err(|e| Error::io("installing the SIGINT handler", e))?;
    let stdin_closed = stdin_eof_watch(exit_on_stdin_close);

    let launching = start(opts);
    tokio::pin!(launching);
    let launched = tokio::select! {
        r = &mut launching => r?,
        // A signal during startup: `start`'s future is dropped, and the Browser guard kills Chromium.
        _ = sigterm.recv() => return Ok(StopReason::Signal("SIGTERM")),
        _ = sigint.recv() => return Ok(StopReason::Signal("SIGINT")),
    };
    let mut launched = launched;
    use std::io::Write;
    // Never panic over a closed stderr/stdout (`launch | head -1`): the browser must still be shut down.
    let _ = writeln!(std::io::stderr(), "{}", launched.devtools_line());
    let _ = writeln!(std::io::stderr(), "{}", launched.env_hint());
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", launched.ready_line()).and_then(|()| stdout.flush());
    drop(stdout);
    let reason = tokio::select! {
        _ = sigterm.recv() => StopReason::Signal("SIGTERM"),
        _ = sigint.recv() => StopReason::Signal("SIGINT"),
        _ = wait_stdin(stdin_closed) => StopReason::StdinClosed,
        status = launched.browser_exited() => StopReason::BrowserExited(status),
    };
    tracing::info!(?reason, "shutting down");
    launched.shutdown().await;
    Ok(reason)
}

/// A receiver that fires when stdin reaches EOF (only when `enabled`; never otherwise).
fn stdin_eof_watch(enabled: bool) -> Option<tokio::sync::oneshot::Receiver<()>> {
    if !enabled {
        return None;
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("stdin-watch".into())
        .spawn(move || {
            use std::io::Read;
            let mut buf = [0u8; 256];
            let mut stdin = std::io::stdin();
            loop {
                match stdin.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => continue,
                }
            }
            let _ = tx.send(());
        });
    match spawned {
        Ok(_) => Some(rx),
        Err(e) => {
            tracing::warn!(error = %e, "cannot watch stdin");
            None
        }
    }
}

async fn wait_stdin(rx: Option<tokio::sync::oneshot::Receiver<()>>) {
    match rx {
        Some(rx) => {
            let _ = rx.await;
        }
        None => std::future::pending::<()>().await,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_disable_features_of_the_caller_is_merged_into_the_launchs_own() {
        let mut opts = super::LaunchOptions::new("/ext");
        opts.extra_args = vec![
            "--disable-features=Translate,WebUIReloadButton".into(),
            "--mute-audio".into(),
        ];
        let args = super::chrome_args(
            &opts,
            std::path::Path::new("/p"),
            std::path::Path::new("/ext"),
        );
        let features: Vec<&String> = args
            .iter()
            .filter(|a| a.starts_with("--disable-features="))
            .collect();
        assert_eq!(
            features,
            [
                "--disable-features=DisableLoadExtensionCommandLineSwitch,WebUIReloadButton,\
              WebUIOmniboxPopup,WebUIOmniboxAimPopup,AimEnabled,Translate"
            ],
            "one list, the extension's load still on it: {args:?}"
        );
        assert!(args.contains(&"--mute-audio".to_string()));
        assert_eq!(args.last().map(String::as_str), Some("about:blank"));
    }

    #[test]
    fn only_a_headless_launch_hides_the_debugging_bar() {
        let args = |headless: bool| {
            let mut opts = super::LaunchOptions::new("/ext");
            opts.headless = headless;
            super::chrome_args(
                &opts,
                std::path::Path::new("/p"),
                std::path::Path::new("/ext"),
            )
        };
        let silent = super::SILENT_DEBUGGER.to_string();
        assert!(args(true).contains(&silent), "{:?}", args(true));
        assert!(!args(false).contains(&silent), "{:?}", args(false));
    }

    #[test]
    fn the_env_hint_is_a_shell_line_for_later_commands() {
        assert_eq!(
            super::env_hint(40123, "ab12"),
            "export BUA_PORT=40123 BUA_TOKEN=ab12  # for bua-bridge tabs, open, mcp, … in this shell"
        );
    }
}
