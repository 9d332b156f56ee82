//! Reading the command line: clap's parse, plus the rules clap cannot state (a flag on the command
//! line beats an environment variable that says the same thing) and the `--agent-grace` parser.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use super::args::{Cli, Command, Grace};

/// Parses `--agent-grace`: a number with a unit `ms`, `s`, `m` or `h` (`90s`, `5m`), or `off`.
pub(crate) fn parse_grace(text: &str) -> std::result::Result<Grace, String> {
    if text == "off" {
        return Ok(None);
    }
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().map_err(|_| {
        format!("`{text}`: expected a number with a unit (500ms, 90s, 5m, 1h) or `off`")
    })?;
    let ms = match unit {
        "ms" => n,
        "s" => n.saturating_mul(1000),
        "m" => n.saturating_mul(60_000),
        "h" => n.saturating_mul(3_600_000),
        _ => {
            return Err(format!(
                "`{text}`: the unit must be ms, s, m or h (e.g. 5m), or say `off`"
            ))
        }
    };
    Ok(Some(Duration::from_millis(ms)))
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
