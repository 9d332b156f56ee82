//! The `bua-bridge` command line: its definition ([`args`]), its parsing ([`parse`]), the client
//! subcommands ([`client`]) and the ones that run a bridge ([`server`]). [`run`] sends each
//! subcommand to its room.

pub(crate) mod args;
mod client;
pub(crate) mod parse;
mod server;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bua_bridge::cli::{self, Request};
use bua_bridge::{token, Error};

use args::Command;

/// Runs one subcommand to its exit status.
pub(crate) async fn run(command: Command) -> ExitCode {
    match command {
        Command::Serve {
            port,
            bind,
            token_file,
            extension_id,
            min_protocol_version,
            extension_wait,
            agent_grace,
            files_dirs,
        } => {
            init_logging("info");
            let agents = server::ServeAgents {
                grace: agent_grace,
                files_dirs,
            };
            report(
                server::serve(
                    port,
                    bind,
                    token_file,
                    extension_id,
                    min_protocol_version,
                    Duration::from_secs(extension_wait),
                    agents,
                )
                .await,
            )
        }
        Command::Call {
            method,
            params,
            conn,
        } => {
            init_logging("warn");
            match cli::check_method(&method).and_then(|()| cli::parse_params(params.as_deref())) {
                Ok(params) => conn.run(Request::json(&method, params)).await,
                Err(f) => cli::fail(&f, conn.pretty),
            }
        }
        Command::Events {
            count,
            seconds,
            conn,
        } => {
            init_logging("warn");
            let connection = match conn.connection() {
                Ok(c) => c,
                Err(f) => return cli::fail(&f, conn.pretty),
            };
            cli::follow_events(
                &connection,
                count,
                seconds.map(Duration::from_secs),
                conn.pretty,
            )
            .await
        }
        Command::Schema { pretty, strict } => {
            let schema = if strict {
                bua_protocol::json_schema()
            } else {
                bua_protocol::tool_input_schema()
            };
            cli::succeed(&cli::to_text(&schema, pretty))
        }
        mcp @ Command::Mcp { .. } => server::mcp(mcp).await,
        demo @ Command::Demo { .. } => server::demo(demo).await,
        launch @ Command::Launch { .. } => server::launch(launch).await,
        friendly @ (Command::Tabs { .. }
        | Command::Open { .. }
        | Command::Navigate { .. }
        | Command::Extract { .. }
        | Command::Click { .. }
        | Command::Type { .. }
        | Command::Eval { .. }
        | Command::Handoff { .. }
        | Command::Screenshot { .. }
        | Command::Pdf { .. }
        | Command::Downloads { .. }) => {
            init_logging("warn");
            match client::friendly_request(friendly) {
                Ok((conn, request)) => conn.run(request).await,
                Err((failure, pretty)) => cli::fail(&failure, pretty),
            }
        }
    }
}

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
