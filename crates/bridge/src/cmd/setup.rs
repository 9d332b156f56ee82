//! The subcommands that set BUA up on a person's machine (SPEC §11): `actions`, `skill`, `mcp-config`,
//! `install`, `uninstall`. Their arguments are here; the work is in `bua_bridge::setup`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use bua_bridge::setup::install::{install, uninstall, InstallOptions, NativeHost, SkillsTarget};
use bua_bridge::setup::mcp_config::{mcp_config, McpHost};
use bua_bridge::setup::native_host::HostConfig;
use bua_bridge::setup::skill::skill_markdown;
use bua_bridge::setup::Paths;
use bua_bridge::{cli, Error};
use clap::Args;

use super::process::report;

/// `actions [NAME]`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ActionsArgs {
    /// One action to explain (its parameters, locator rule and timeout); none: one line per action.
    pub(crate) name: Option<String>,
}

/// `mcp-config HOST`.
#[derive(Args, Debug, Clone)]
pub(crate) struct McpConfigArgs {
    /// The MCP host.
    #[arg(value_enum)]
    pub(crate) host: McpHost,
}

/// `install`.
#[derive(Args, Debug, Clone)]
pub(crate) struct InstallArgs {
    /// Also write the skill file (SKILL.md) for coding agents: into DIR/bua-browser/, or without DIR
    /// where Claude Code (~/.claude/skills) and Codex (~/.codex/skills) look.
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    pub(crate) skills: Option<Option<PathBuf>>,
    /// The port of the bridge the extension is to pair with (`bua-bridge serve --port`).
    #[arg(long, default_value_t = bua_bridge::DEFAULT_PORT)]
    pub(crate) port: u16,
    /// The bridge's pairing token file. Default: ~/.config/bua/token.
    #[arg(long)]
    pub(crate) token_file: Option<PathBuf>,
    /// Do not register the native-messaging host (then pair by pasting the token in the options page).
    #[arg(long)]
    pub(crate) no_native_host: bool,
}

/// `extension [--out DIR]`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ExtensionArgs {
    /// The folder to write (replaced when it holds an older extension). Default: ~/.local/share/bua/extension.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
}

/// `extension`: writes the extension of this binary's version and says how to load it.
pub(crate) fn write_extension(args: ExtensionArgs) -> ExitCode {
    use bua_bridge::setup::extension::{self, Source};
    let result = match args.out {
        Some(out) => Ok(out),
        None => Paths::from_env().map(|p| p.extension()),
    }
    .and_then(|out| extension::write(&out).map(|source| (out, source)));
    match result {
        Ok((out, source)) => {
            let out = out.canonicalize().unwrap_or(out);
            let from = match source {
                Source::Embedded => "carried by this binary".to_owned(),
                Source::Folder(dir) => format!(
                    "copied from {} (a development build carries none)",
                    dir.display()
                ),
            };
            let version = extension::installed_version(&out).unwrap_or_default();
            let _ = cli::print_line(&format!(
                "wrote the extension {version} ({from}) to {}",
                out.display()
            ));
            cli::succeed(&format!(
                "load it once: chrome://extensions → Developer mode on → Load unpacked → {} (after an upgrade: run this again and press its reload button)",
                out.display()
            ))
        }
        Err(e) => report(Err(e)),
    }
}

/// `doctor`.
#[derive(Args, Debug, Clone)]
pub(crate) struct DoctorArgs {
    /// The bridge's port on 127.0.0.1.
    #[arg(long, env = "BUA_PORT", default_value_t = bua_bridge::DEFAULT_PORT)]
    pub(crate) port: u16,
    /// The pairing token file. Default: ~/.config/bua/token.
    #[arg(long)]
    pub(crate) token_file: Option<PathBuf>,
}

/// `doctor`: one line per check, the fix under each failed one; exit 1 when one failed.
pub(crate) async fn doctor(args: DoctorArgs) -> ExitCode {
    use bua_bridge::setup::doctor::{checks, gather};
    let paths = match Paths::from_env() {
        Ok(p) => p,
        Err(e) => return report(Err(e)),
    };
    let token_file = args.token_file.unwrap_or_else(|| paths.token_file());
    let facts = gather(&paths, args.port, &token_file).await;
    let all = checks(&facts);
    for check in &all {
        let _ = cli::print_line(&check.line());
    }
    let failed = all.iter().filter(|c| !c.ok).count();
    if failed == 0 {
        let _ = cli::print_line("all checks passed");
        ExitCode::SUCCESS
    } else {
        let _ = cli::print_line(&format!("{failed} of {} checks failed", all.len()));
        ExitCode::FAILURE
    }
}

/// `actions`: one line per action, or one action's details (the MCP `help` text).
pub(crate) fn actions(args: ActionsArgs) -> ExitCode {
    match args.name {
        None => {
            let lines: Vec<String> = bua_protocol::action_summaries()
                .into_iter()
                .map(|(_, l)| l)
                .collect();
            cli::succeed(&lines.join("\n"))
        }
        Some(name) => match bua_protocol::action_help(&name) {
            Some(text) => cli::succeed(text.trim_end()),
            None => report(Err(Error::Install(format!(
                "`{name}` is not an action; the actions are: {}",
                bua_protocol::action_names().join(", ")
            )))),
        },
    }
}

/// The SKILL.md of this binary; `commands`: the CLI's own subcommands ([`super::args::subcommands`]).
pub(crate) fn skill_text(commands: &[(String, String)]) -> String {
    skill_markdown(commands)
}

/// `mcp-config HOST`: the snippet on stdout, where it goes on stderr.
pub(crate) fn print_mcp_config(args: McpConfigArgs) -> ExitCode {
    let (snippet, hint) = mcp_config(args.host, &this_binary());
    let _ = writeln!(std::io::stderr(), "# {hint}");
    cli::succeed(snippet.trim_end())
}

/// `install`: prints each file written.
pub(crate) fn run_install(args: InstallArgs, skill_text: String) -> ExitCode {
    let result = Paths::from_env().and_then(|paths| {
        let skills = args.skills.map(|dir| match dir {
            None => SkillsTarget::AgentDefaults,
            Some(dir) => SkillsTarget::Dir(dir),
        });
        let native_host = if args.no_native_host {
            None
        } else {
            let config = HostConfig {
                url: format!("ws://127.0.0.1:{}", args.port),
                // Absolute: Chrome starts the host in a folder of its own choosing.
                token_file: args
                    .token_file
                    .clone()
                    .map(|f| std::path::absolute(&f).unwrap_or(f))
                    .unwrap_or_else(|| paths.token_file()),
            };
            let host = NativeHost::for_this_user(this_binary(), config, &paths);
            match &host {
                None => warn("this system has no user-level native-messaging folders: pair by pasting the token in the options page"),
                Some(h) if h.browsers.is_empty() => warn("no Chrome, Chromium, Brave or Edge found for this user: install one (or run it once), then run install again"),
                Some(h) => {
                    let names: Vec<&str> = h.browsers.iter().map(|b| b.name).collect();
                    warn(&format!("registering the pairing host with: {}", names.join(", ")));
                }
            }
            host
        };
        let opts = InstallOptions {
            skills,
            skill_text,
            native_host,
        };
        install(&opts, &paths)
    });
    print_paths("wrote", result)
}

/// This binary, absolute (what a host manifest and an MCP config must name).
fn this_binary() -> PathBuf {
    std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .unwrap_or_else(|_| PathBuf::from("bua-bridge"))
}

fn warn(line: &str) {
    let _ = writeln!(std::io::stderr(), "bua-bridge install: {line}");
}

/// `uninstall`: prints each file and folder removed.
pub(crate) fn run_uninstall() -> ExitCode {
    print_paths("removed", Paths::from_env().and_then(|p| uninstall(&p)))
}

fn print_paths(verb: &str, result: Result<Vec<PathBuf>, Error>) -> ExitCode {
    match result {
        Ok(paths) => {
            for p in &paths {
                let _ = cli::print_line(&format!("{verb} {}", p.display()));
            }
            if paths.is_empty() {
                let _ = cli::print_line(&format!("{verb} nothing"));
            }
            ExitCode::SUCCESS
        }
        Err(e) => report(Err(e)),
    }
}
