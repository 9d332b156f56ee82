//! What every subcommand's process shares: its log on stderr, its exit status, and the default
//! token file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use bua_bridge::{token, Error};

/// Logs to stderr at `default` (or `$BUA_LOG`).
pub(crate) fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("BUA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // Colour codes only for a terminal: a log file or a pipe gets plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .init();
}

/// `--token-file`, else the default token file (~/.config/bua/token).
pub(crate) fn token_path(given: Option<PathBuf>) -> Result<PathBuf, Error> {
    match given {
        Some(p) => Ok(p),
        None => token::default_path(),
    }
}

/// The exit status of `result`; an error is printed on stderr.
pub(crate) fn report(result: Result<(), Error>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "bua-bridge: {e}");
            ExitCode::FAILURE
        }
    }
}
