//! `bua-bridge`: the command line. All logic lives in the library (`bua_bridge`); the command
//! line's definition and what each subcommand does are in [`cmd`].

mod cmd;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Chrome starts a native-messaging host with the caller's origin as its only argument (SPEC §11).
    if let Some(origin) = std::env::args()
        .nth(1)
        .filter(|a| bua_bridge::setup::native_host::is_host_invocation(a))
    {
        return cmd::native_host(&origin);
    }
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
