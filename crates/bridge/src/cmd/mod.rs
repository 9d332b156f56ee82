//! The `bua-bridge` command line: its definition ([`args`]), its parsing ([`parse`]), the client
//! subcommands ([`client`]), the ones that run a bridge ([`server`]) and the ones that set a machine up
//! ([`setup`]). [`run`] sends each
//! subcommand to its room.

pub(crate) mod args;
mod client;
mod parse;
mod process;
mod server;
mod setup;

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use bua_bridge::cli::{self, Request};

use args::{Cli, Command};
use process::{init_logging, report};

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
            controls,
        } => {
            init_logging("info");
            let agents = server::ServeAgents {
                grace: agent_grace,
                files_dirs,
                switched_off: controls.switched_off(),
                secrets: controls.secrets,
                allow: controls.allow,
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
        Command::Actions(args) => setup::actions(args),
        Command::Skill => cli::succeed(setup::skill_text(&args::subcommands()).trim_end()),
        Command::McpConfig(args) => setup::print_mcp_config(args),
        Command::Install(a) => setup::run_install(a, setup::skill_text(&args::subcommands())),
        Command::Uninstall => setup::run_uninstall(),
        Command::Extension(args) => setup::write_extension(args),
        Command::Doctor(args) => {
            init_logging("error");
            setup::doctor(args).await
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

/// Chrome's native-messaging host for `origin` (SPEC §11): answers the extension's pairing request.
pub(crate) fn native_host(origin: &str) -> ExitCode {
    use bua_bridge::setup::native_host::{serve_stdio, HostConfig};
    use bua_bridge::setup::Paths;
    let run = Paths::from_env().and_then(|paths| {
        let default = HostConfig {
            url: format!("ws://127.0.0.1:{}", bua_bridge::DEFAULT_PORT),
            token_file: paths.token_file(),
        };
        serve_stdio(origin, &paths.host_config(), default)
    });
    process::report(run)
}

/// Parses the command line; an unknown subcommand also prints the list of subcommands.
pub(crate) fn parse_args() -> Result<Cli, ExitCode> {
    use clap::CommandFactory;
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| resolve_sources(&m));
    match parsed {
        Ok(cli) => Ok(cli),
        Err(e) if e.kind() == clap::error::ErrorKind::InvalidSubcommand => {
            let mut stderr = std::io::stderr();
            let _ = writeln!(stderr, "{}", e.render());
            let _ = writeln!(stderr, "{}", Cli::command().render_help());
            Err(ExitCode::from(2))
        }
        Err(e) => e.exit(),
    }
}

/// The command line from `matches`, where a flag given on the command line beats an environment
/// variable that says the same thing otherwise: `--token-file` beats `$BUA_TOKEN`, `--port`
/// beats `$BUA_URL` (and `--url`/`$BUA_URL` beat `--port`/`$BUA_PORT`).
///
/// Errors: `--token` and `--token-file` both on the command line (a conflict), or what clap finds.
fn resolve_sources(matches: &clap::ArgMatches) -> Result<Cli, clap::Error> {
    use clap::parser::ValueSource;
    use clap::{CommandFactory, FromArgMatches};
    let mut cli = Cli::from_arg_matches(matches)?;
    let Some((_, sub)) = matches.subcommand() else {
        return Ok(cli);
    };
    let source = |id: &str| sub.try_get_raw(id).ok().and_then(|_| sub.value_source(id));
    let on_command_line = |id: &str| source(id) == Some(ValueSource::CommandLine);
    let from_env = |id: &str| source(id) == Some(ValueSource::EnvVariable);
    if on_command_line("token") && on_command_line("token_file") {
        return Err(Cli::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            "--token and --token-file cannot be used together: give one",
        ));
    }
    let drop_token = from_env("token") && on_command_line("token_file");
    let drop_url = from_env("url") && on_command_line("port");
    let (token, url) = match &mut cli.command {
        Command::Call { conn, .. }
        | Command::Tabs { conn }
        | Command::Open { conn, .. }
        | Command::Navigate { conn, .. }
        | Command::Extract { conn, .. }
        | Command::Click { conn, .. }
        | Command::Type { conn, .. }
        | Command::Eval { conn, .. }
        | Command::Screenshot { conn, .. }
        | Command::Handoff { conn, .. }
        | Command::Pdf { conn, .. }
        | Command::Downloads { conn, .. }
        | Command::Events { conn, .. } => (&mut conn.token, &mut conn.url),
        Command::Mcp { token, url, .. } => (token, url),
        _ => return Ok(cli),
    };
    if drop_token {
        *token = None;
    }
    if drop_url {
        *url = None;
    }
    Ok(cli)
}
