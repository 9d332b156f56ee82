//! `bua-bridge`: the command line. All logic lives in the library (`bua_bridge`); the command
//! line's definition and what each subcommand does are in [`cmd`].

mod cmd;

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match cmd::parse_args() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("bua-bridge: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(cmd::run(cli.command))
}
