//! `bua-bridge`: the command line. All logic lives in the library (`bua_bridge`).

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bua_bridge::cli::{self, Connection, LocatorArgs, Output, Request};
use bua_bridge::launch::{LaunchOptions, TokenSource};
use bua_bridge::{server, token, Error, ServerConfig};
use clap::{Args, Parser, Subcommand};
use serde_json::{json, Map, Value};

#[derive(Parser)]
#[command(
    name = "bua-bridge",
    version,
    about = "The native end of BUA Browser Bridge: server, launcher, client CLI and MCP server",
    after_help = "Examples:
  bua-bridge serve                              # then pair the extension with the printed token
  bua-bridge launch --headless                  # or: server + Chromium, paired automatically
  bua-bridge open https://example.com           # {\"tabId\":12,\"windowId\":3,\"domain\":\"example.com\"}
  bua-bridge extract --tab 12 --elements --pretty
  bua-bridge click e3 --tab 12
  bua-bridge type e5 'hello' --tab 12 --submit
  bua-bridge eval 'return document.title' --tab 12
  bua-bridge screenshot -o page.png --tab 12
  bua-bridge events
  bua-bridge mcp                                # MCP server on stdio for AI agents

Client commands print JSON (--pretty for people) and exit 1 with {\"code\",\"error\"} on failure
(code bridge_unreachable when no bridge answers). They connect to --port (default 9225) or --url with
the token from --token, --token-file or ~/.config/bua/token, all as one agent (--owner, $BUA_OWNER,
default \"cli\"): their tabs share one agent window, and `call close_agent_tabs` closes them."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the agent tour on the bundled demo site (or open_tab + extract on the given URLs).
    #[command(
        after_help = "Examples:\n  bua-bridge demo                          # the tour on the bundled demo site, headless unless $DISPLAY is set\n  bua-bridge demo https://example.org/      # open_tab + extract on each URL\n  ./build.sh demo                          # builds first, then runs this"
    )]
    Demo {
        /// Pages to visit instead of the tour.
        urls: Vec<String>,
        /// The unpacked extension (built by ./build.sh).
        #[arg(long, default_value = "dist")]
        extension: PathBuf,
        /// The demo site to serve.
        #[arg(long, default_value = "demo/site")]
        site: PathBuf,
        /// Where the screenshot goes.
        #[arg(long, default_value = "target/demo")]
        out: PathBuf,
        /// Chromium binary.
        #[arg(long)]
        chrome: Option<PathBuf>,
        /// Force headless (default: headless unless a display is available).
        #[arg(long)]
        headless: bool,
    },
    /// Run the bridge: the extension and local clients connect to it.
    #[command(
        after_help = "Example:\n  bua-bridge serve --port 9225\n  (then paste the printed token into the extension's options page)"
    )]
    Serve {
        /// Port to listen on (0 = a free port).
        #[arg(long, default_value_t = bua_bridge::DEFAULT_PORT)]
        port: u16,
        /// Address to listen on. Anything but loopback exposes the browser to the network.
        #[arg(long, default_value = "127.0.0.1")]
        bind: IpAddr,
        /// Pairing token file (created with mode 0600 if missing). Default: ~/.config/bua/token.
        #[arg(long)]
        token_file: Option<PathBuf>,
        /// Accept only this extension id (Origin chrome-extension://<ID>).
        #[arg(long)]
        extension_id: Option<String>,
        /// Lowest protocol version accepted (testing only).
        #[arg(long, hide = true)]
        min_protocol_version: Option<u32>,
        /// Seconds an action waits for the extension to (re)connect before failing with
        /// no_extension (counted from the bridge's start or the extension's last disconnect).
        #[arg(long, value_name = "SECONDS", default_value_t = EXTENSION_WAIT_SECS)]
        extension_wait: u64,
        /// How long an agent owner's tabs and window stay after its last connection ended
        /// (e.g. 90s, 5m, 500ms; `off`: for ever). Back within it: they are kept.
        #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_grace)]
        agent_grace: Grace,
        /// A folder `upload` may read files from (repeatable). None: uploads are refused.
        #[arg(long = "files-dir", value_name = "DIR")]
        files_dirs: Vec<PathBuf>,
    },
    /// Send one request to a running bridge and print its JSON result.
    #[command(after_help = "Examples:
  bua-bridge call ping
  bua-bridge call get_tabs
  bua-bridge call open_tab '{\"url\":\"https://example.com\"}'
  bua-bridge call click '{\"uid\":\"e3\",\"tabId\":12}'
  bua-bridge call list_tabs            # v1-bridge names work too

Exit status 1 on failure, with {\"code\":\"…\",\"error\":\"…\"} on stdout.")]
    Call {
        /// The method: an action type (get_tabs, open_tab, click, …), ping, or a v1 name (list_tabs, new_tab, …).
        method: String,
        /// The params as a JSON object.
        params: Option<String>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// List the browser's tabs (get_tabs).
    #[command(after_help = "Examples:\n  bua-bridge tabs\n  bua-bridge tabs --pretty")]
    Tabs {
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// List the downloads the agent's tabs started (downloads); --wait waits for running ones to finish.
    #[command(
        after_help = "Examples:\n  bua-bridge downloads\n  bua-bridge downloads --tab 12 --wait 10000"
    )]
    Downloads {
        /// Only this tab's downloads.
        #[arg(long)]
        tab: Option<i64>,
        /// Wait up to this many ms (≤ 30000) for running downloads to finish.
        #[arg(long, value_name = "MS")]
        wait: Option<u64>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Open a URL in a new tab in the agent window (open_tab); prints {tabId, windowId, domain}.
    #[command(
        after_help = "Examples:\n  bua-bridge open https://example.com\n  bua-bridge open https://example.com --focus   # in your own window"
    )]
    Open {
        /// Absolute URL.
        #[arg(value_name = "URL")]
        page_url: String,
        /// Open in the focused window instead of the agent window.
        #[arg(long)]
        focus: bool,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Navigate a tab and wait for the load (navigate); prints {tabId, url, title}.
    #[command(after_help = "Examples:\n  bua-bridge navigate https://example.com --tab 12")]
    Navigate {
        /// Absolute URL.
        #[arg(value_name = "URL")]
        page_url: String,
        /// The tab (default: the agent's tab, SPEC §6).
        #[arg(long)]
        tab: Option<i64>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Read a page (extract): text, markdown, interactive elements with uids, obstacle.
    #[command(after_help = "Examples:
  bua-bridge extract --tab 12                      # the whole result as JSON
  bua-bridge extract --tab 12 --markdown > page.md # the page as Markdown text
  bua-bridge extract --tab 12 --elements --pretty  # uids to click: e0  button  \"Sign in\"
  bua-bridge extract --tab 12 --agent              # what an MCP agent reads: header, markdown, e0 button \"Sign in\"")]
    Extract {
        /// The tab.
        #[arg(long)]
        tab: Option<i64>,
        /// Print only the Markdown, as plain text.
        #[arg(long, conflicts_with = "elements")]
        markdown: bool,
        /// Print the page as the MCP server gives it to an agent: a header, the markdown, one line per element.
        #[arg(long, conflicts_with_all = ["markdown", "elements"])]
        agent: bool,
        /// Print only the interactive elements (with --pretty: one per line).
        #[arg(long)]
        elements: bool,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Click an element (click): by uid from extract, or --selector / --text / --xpath.
    #[command(after_help = "Examples:
  bua-bridge click e3 --tab 12
  bua-bridge click --selector '#submit' --tab 12
  bua-bridge click --text 'Sign in' --index 1
  bua-bridge click e7 --new-tab                    # open a link in a new agent tab")]
    Click {
        /// A uid from the latest extract (e.g. e3).
        uid: Option<String>,
        #[command(flatten)]
        locator: LocatorFlags,
        /// Open a clicked link in a new agent tab.
        #[arg(long)]
        new_tab: bool,
        /// The tab.
        #[arg(long)]
        tab: Option<i64>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Type text into an element (type): `type <uid> <text>`, or `type --selector S <text>`.
    #[command(after_help = "Examples:
  bua-bridge type e5 'alice@example.com' --tab 12
  bua-bridge type --selector '#q' 'rust websockets' --submit
  bua-bridge type e5 ' more' --no-clear")]
    Type {
        /// `<uid> <text>`, or just `<text>` with --selector / --text / --xpath.
        #[arg(num_args = 1..=2, required = true, value_names = ["UID", "TEXT"])]
        args: Vec<String>,
        #[command(flatten)]
        locator: LocatorFlags,
        /// Keep the current value (default: select all and delete first).
        #[arg(long)]
        no_clear: bool,
        /// Press Enter after typing.
        #[arg(long)]
        submit: bool,
        /// The tab.
        #[arg(long)]
        tab: Option<i64>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Run JavaScript in the page (evaluate). The code is a function body: use `return`.
    #[command(after_help = "Examples:
  bua-bridge eval 'return document.title' --tab 12
  bua-bridge eval 'return [...document.links].map(a => a.href)' --pretty")]
    Eval {
        /// A function body, e.g. `return document.title`.
        js: String,
        /// The tab.
        #[arg(long)]
        tab: Option<i64>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Hand a tab to the person (handoff) and wait until the page is clear or they press Done/Cancel.
    #[command(after_help = "Examples:
  bua-bridge handoff 12 'sign in'                        # waits up to 10 min
  bua-bridge handoff 12 'enter the 2FA code' --wait-ms 120000")]
    Handoff {
        /// The tab to show the person.
        tab: i64,
        /// One line the person reads, e.g. 'sign in'.
        reason: String,
        /// How long to wait, ms (default 600000, at most 3600000).
        #[arg(long)]
        wait_ms: Option<u64>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Save a screenshot of a tab (screenshot) to a file.
    #[command(after_help = "Examples:
  bua-bridge screenshot -o page.png --tab 12
  bua-bridge screenshot -o full.jpg --quality 80 --full-page   # JPEG, from the file name")]
    Screenshot {
        /// Where to write the image.
        #[arg(short, long)]
        output: PathBuf,
        /// The whole page instead of the viewport.
        #[arg(long)]
        full_page: bool,
        /// png or jpeg (default: from the file name: .jpg/.jpeg → jpeg, else png).
        #[arg(long)]
        format: Option<String>,
        /// JPEG quality 0-100.
        #[arg(long)]
        quality: Option<u8>,
        /// Scale down to at most this width (px).
        #[arg(long)]
        max_width: Option<u32>,
        /// The tab.
        #[arg(long)]
        tab: Option<i64>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Save a tab as PDF (pdf) to a file.
    #[command(after_help = "Example:\n  bua-bridge pdf -o page.pdf --tab 12 --landscape")]
    Pdf {
        /// Where to write the PDF.
        #[arg(short, long)]
        output: PathBuf,
        /// Landscape pages.
        #[arg(long)]
        landscape: bool,
        /// Print background colours and images.
        #[arg(long)]
        print_background: bool,
        /// The tab.
        #[arg(long)]
        tab: Option<i64>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Follow the event stream (session_started, session_ended, …): one JSON line per event.
    #[command(after_help = "Examples:
  bua-bridge events                 # until Ctrl-C
  bua-bridge events --count 2       # stop after two events
  bua-bridge events --seconds 30

An event that follows a gap carries \"dropped\": N (events the bridge dropped because this reader was slow).")]
    Events {
        /// Stop after this many events.
        #[arg(long)]
        count: Option<u64>,
        /// Stop after this many seconds.
        #[arg(long)]
        seconds: Option<u64>,
        #[command(flatten)]
        conn: ConnArgs,
    },
    /// Print the JSON Schema of the browser action (the MCP tool's inputSchema; --strict: the exact union).
    #[command(
        after_help = "Examples:\n  bua-bridge schema --pretty > browser.schema.json   # the MCP tool's inputSchema (flat: MCP hosts refuse a top-level oneOf)\n  bua-bridge schema --strict                        # the exact action union: one oneOf branch per action"
    )]
    Schema {
        /// Indent the JSON.
        #[arg(long)]
        pretty: bool,
        /// The exact union (one `oneOf` branch per action, with the locator rules) instead of the tool schema.
        #[arg(long)]
        strict: bool,
    },
    /// Serve MCP on stdio: one `browser` tool for AI agents (connects to a bridge, or starts one).
    #[command(after_help = "Example MCP client config:
  {\"mcpServers\": {\"browser\": {\"command\": \"bua-bridge\", \"args\": [\"mcp\"]}}}

The bridge on --port is used when one answers; otherwise one is started in-process on that port,
with the token from --token / --token-file / ~/.config/bua/token (created if missing). The extension
connects to the URL in its options page (default ws://127.0.0.1:9225): a bridge started on another
port is only reached if that URL says so. With --url, the bridge there is used and none is started.")]
    Mcp {
        /// Bridge port on 127.0.0.1.
        #[arg(long, env = PORT_ENV, default_value_t = bua_bridge::DEFAULT_PORT)]
        port: u16,
        /// Full bridge URL (overrides --port); a bridge is never started for it.
        #[arg(long, env = URL_ENV)]
        url: Option<String>,
        /// The agent owner of this server's tabs (default: `mcp-<pid>`, one per MCP server process).
        #[arg(long)]
        owner: Option<String>,
        /// Pairing token (default: read from --token-file).
        #[arg(long, env = TOKEN_ENV, hide_env_values = true)]
        token: Option<String>,
        /// Pairing token file. Default: ~/.config/bua/token.
        #[arg(long)]
        token_file: Option<PathBuf>,
        /// Never start a bridge in-process; fail tool calls while none answers.
        #[arg(long)]
        no_serve: bool,
        /// Seconds an action waits for the extension to (re)connect to a bridge this server
        /// started, before failing with no_extension.
        #[arg(long, value_name = "SECONDS", default_value_t = EXTENSION_WAIT_SECS)]
        extension_wait: u64,
        /// For a bridge this server starts: how long an agent owner's tabs and window stay after
        /// its last connection ended (e.g. 90s, 5m; `off`: for ever).
        #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_grace)]
        agent_grace: Grace,
        /// Longest side of a screenshot sent to the MCP host, px: larger ones are scaled down (0: no
        /// limit). Hosts reject or shrink bigger images.
        #[arg(long, value_name = "PX", default_value_t = bua_bridge::mcp::DEFAULT_SCREENSHOT_MAX_SIDE)]
        screenshot_max_side: u32,
        /// Largest PNG screenshot sent to the MCP host, bytes: a larger one is sent as JPEG instead
        /// (0: no limit).
        #[arg(long, value_name = "BYTES", default_value_t = bua_bridge::mcp::DEFAULT_SCREENSHOT_MAX_PNG_BYTES)]
        screenshot_max_png_bytes: usize,
        /// A folder `upload` may read files from (repeatable; for a bridge this server starts). None: uploads are refused.
        #[arg(long = "files-dir", value_name = "DIR")]
        files_dirs: Vec<PathBuf>,
    },
    /// Start the bridge and Chromium with the extension, paired; print READY and serve until stopped.
    #[command(after_help = "Example:\n  bua-bridge launch --headless --port 0 --extension ./dist")]
    Launch {
        /// Bridge port (0 = a free port).
        #[arg(long, default_value_t = bua_bridge::DEFAULT_PORT)]
        port: u16,
        /// Chromium binary (default: /usr/bin/chromium, else chromium/google-chrome/chromium-browser on PATH).
        #[arg(long)]
        chrome: Option<PathBuf>,
        /// The unpacked extension folder.
        #[arg(long, default_value = "./dist")]
        extension: PathBuf,
        /// Run Chromium headless.
        #[arg(long)]
        headless: bool,
        /// Use (and keep) this profile instead of a fresh temporary one.
        #[arg(long)]
        user_data_dir: Option<PathBuf>,
        /// Pairing token file. Default: ~/.config/bua/token.
        #[arg(long, conflicts_with = "ephemeral_token")]
        token_file: Option<PathBuf>,
        /// Use a fresh in-memory token instead of the token file.
        #[arg(long)]
        ephemeral_token: bool,
        /// Also stop when standard input is closed (for test harnesses).
        #[arg(long)]
        exit_on_stdin_close: bool,
        /// Show Chromium's own output on stderr.
        #[arg(long)]
        chrome_output: bool,
        /// Lowest protocol version accepted (testing only).
        #[arg(long, hide = true)]
        min_protocol_version: Option<u32>,
        /// An extra Chromium flag (repeatable), e.g. `--chrome-arg=--host-resolver-rules=MAP * ~NOTFOUND`.
        #[arg(long = "chrome-arg", allow_hyphen_values = true)]
        chrome_args: Vec<String>,
        /// A folder `upload` may read files from (repeatable). None: uploads are refused.
        #[arg(long = "files-dir", value_name = "DIR")]
        files_dirs: Vec<PathBuf>,
    },
}

/// `--agent-grace` ([`bua_bridge::ServerConfig::agent_grace`]): `None` is `off`.
type Grace = Option<Duration>;

/// Parses `--agent-grace`: a number with a unit `ms`, `s`, `m` or `h` (`90s`, `5m`), or `off`.
fn parse_grace(text: &str) -> std::result::Result<Grace, String> {
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

/// Default of `--extension-wait` ([`bua_bridge::server::DEFAULT_EXTENSION_WAIT`]).
const EXTENSION_WAIT_SECS: u64 = bua_bridge::server::DEFAULT_EXTENSION_WAIT.as_secs();

/// How client subcommands reach the bridge, and how they print.
#[derive(Args, Debug, Clone)]
struct ConnArgs {
    /// Bridge port on 127.0.0.1.
    #[arg(long, env = PORT_ENV, default_value_t = bua_bridge::DEFAULT_PORT)]
    port: u16,
    /// Full bridge URL (overrides --port), e.g. ws://127.0.0.1:9300.
    #[arg(long, env = URL_ENV)]
    url: Option<String>,
    /// The agent owner of this command's tabs (default: $BUA_OWNER, else "cli": every CLI call is
    /// one agent, with one agent window).
    #[arg(long)]
    owner: Option<String>,
    /// Pairing token (default: read from --token-file).
    #[arg(long, env = TOKEN_ENV, hide_env_values = true)]
    token: Option<String>,
    /// Pairing token file. Default: ~/.config/bua/token.
    #[arg(long)]
    token_file: Option<PathBuf>,
    /// Pretty-print (indented JSON; readable element lists).
    #[arg(long)]
    pretty: bool,
}

/// The environment variable for `--port` of client subcommands and `mcp`.
const PORT_ENV: &str = "BUA_PORT";
/// The environment variable for `--url`.
const URL_ENV: &str = "BUA_URL";
/// The environment variable for `--token`.
const TOKEN_ENV: &str = "BUA_TOKEN";

impl ConnArgs {
    /// The connection, with the owner from `--owner`, `$BUA_OWNER` or `cli`.
    fn connection(&self) -> Result<Connection, cli::Failure> {
        let env = std::env::var(cli::OWNER_ENV).ok();
        Ok(Connection {
            port: self.port,
            url: self.url.clone(),
            token: self.token.clone(),
            token_file: self.token_file.clone(),
            owner: Some(cli::resolve_owner(self.owner.as_deref(), env.as_deref())?),
        })
    }

    /// Connects, sends `request`, prints the result or the failure.
    async fn run(&self, request: Request) -> ExitCode {
        match self.connection() {
            Ok(conn) => cli::run(&conn, request, self.pretty).await,
            Err(f) => cli::fail(&f, self.pretty),
        }
    }
}

/// `--selector` / `--text` / `--xpath` / `--index` of element-taking subcommands.
#[derive(Args, Debug, Clone)]
struct LocatorFlags {
    /// CSS selector.
    #[arg(long)]
    selector: Option<String>,
    /// Visible text (exact match first, then substring).
    #[arg(long)]
    text: Option<String>,
    /// XPath.
    #[arg(long)]
    xpath: Option<String>,
    /// 0-based index among matches (not with a uid).
    #[arg(long)]
    index: Option<u32>,
}

impl LocatorFlags {
    fn with_uid(&self, uid: Option<String>) -> LocatorArgs {
        LocatorArgs {
            uid,
            selector: self.selector.clone(),
            text: self.text.clone(),
            xpath: self.xpath.clone(),
            index: self.index,
        }
    }
}

fn init_logging(default: &str) {
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

fn token_path(given: Option<PathBuf>) -> Result<PathBuf, Error> {
    match given {
        Some(p) => Ok(p),
        None => token::default_path(),
    }
}

/// Parses the command line; an unknown subcommand also prints the list of subcommands.
fn parse_args() -> Result<Cli, ExitCode> {
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

fn main() -> ExitCode {
    let cli = match parse_args() {
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
    runtime.block_on(async move {
        match cli.command {
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
                let agents = ServeAgents {
                    grace: agent_grace,
                    files_dirs,
                };
                report(
                    serve(
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
                match cli::check_method(&method).and_then(|()| cli::parse_params(params.as_deref()))
                {
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
                    seconds.map(std::time::Duration::from_secs),
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
            Command::Mcp {
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
            } => {
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
                let owner = match owner {
                    Some(o) => match bua_protocol::check_owner(&o) {
                        Ok(()) => o,
                        Err(what) => {
                            return report(Err(Error::Mcp(format!("--owner: the owner {what}"))))
                        }
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
                    })
                    .await,
                )
            }
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
                match friendly_request(friendly) {
                    Ok((conn, request)) => conn.run(request).await,
                    Err((failure, pretty)) => cli::fail(&failure, pretty),
                }
            }
            Command::Demo {
                urls,
                extension,
                site,
                out,
                chrome,
                headless,
            } => {
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
            Command::Launch {
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
            } => {
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
                if let Some(v) = min_protocol_version {
                    opts.min_protocol_version = v;
                }
                report(
                    bua_bridge::launch::run(opts, exit_on_stdin_close)
                        .await
                        .map(|reason| tracing::info!(?reason, "stopped")),
                )
            }
        }
    })
}

fn report(result: Result<(), Error>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "bua-bridge: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What `serve` grants its agents: how long an owner's tabs outlive its connections, and the folders
/// `upload` may read.
struct ServeAgents {
    grace: Grace,
    files_dirs: Vec<PathBuf>,
}

async fn serve(
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
        "pair the extension: open its options page, set Backend URL to {} and paste the token (or run `bua-bridge launch`)",
        handle.url()
    ));
    tokio::select! {
        _ = sigterm.recv() => tracing::info!("SIGTERM: shutting down"),
        _ = sigint.recv() => tracing::info!("SIGINT: shutting down"),
    }
    handle.shutdown().await;
    Ok(())
}

/// The request of a friendly subcommand, and its connection flags.
fn friendly_request(command: Command) -> Result<(ConnArgs, Request), (cli::Failure, bool)> {
    let obj = |v: Value| match v {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    match command {
        Command::Tabs { conn } => Ok((conn, Request::json("get_tabs", json!({})))),
        Command::Downloads { tab, wait, conn } => {
            let mut p = Map::new();
            if let Some(ms) = wait {
                p.insert("waitMs".into(), json!(ms));
            }
            Ok((conn, Request::json("downloads", cli::with_tab(p, tab))))
        }
        Command::Open {
            page_url,
            focus,
            conn,
        } => {
            let mut p = obj(json!({ "url": page_url }));
            if focus {
                p.insert("focus".into(), Value::Bool(true));
            }
            Ok((conn, Request::json("open_tab", Value::Object(p))))
        }
        Command::Navigate {
            page_url,
            tab,
            conn,
        } => Ok((
            conn,
            Request::json(
                "navigate",
                cli::with_tab(obj(json!({ "url": page_url })), tab),
            ),
        )),
        Command::Extract {
            tab,
            markdown,
            elements,
            agent,
            conn,
        } => {
            let output = if markdown {
                Output::Markdown
            } else if elements {
                Output::Elements
            } else if agent {
                Output::AgentText
            } else {
                Output::Json
            };
            let mut params = Map::new();
            if agent {
                let parts = bua_bridge::mcp::AGENT_EXTRACT_PARTS.map(|p| p.as_str());
                params.insert("include".into(), json!(parts));
                params.insert("refs".into(), json!(true));
            }
            let request = Request {
                method: "extract".into(),
                params: cli::with_tab(params, tab),
                output,
            };
            Ok((conn, request))
        }
        Command::Click {
            uid,
            locator,
            new_tab,
            tab,
            conn,
        } => {
            let mut p = Map::new();
            if let Err(f) = locator.with_uid(uid).write(&mut p, false) {
                return Err((f, conn.pretty));
            }
            if new_tab {
                p.insert("newTab".into(), Value::Bool(true));
            }
            Ok((conn, Request::json("click", cli::with_tab(p, tab))))
        }
        Command::Type {
            args,
            locator,
            no_clear,
            submit,
            tab,
            conn,
        } => {
            let flagged =
                locator.selector.is_some() || locator.text.is_some() || locator.xpath.is_some();
            let (uid, text) = match cli::type_args(args, flagged) {
                Ok(split) => split,
                Err(f) => return Err((f, conn.pretty)),
            };
            let mut p = Map::new();
            if let Err(f) = locator.with_uid(uid).write(&mut p, true) {
                return Err((f, conn.pretty));
            }
            p.insert("text".into(), Value::String(text));
            if no_clear {
                p.insert("clear".into(), Value::Bool(false));
            }
            if submit {
                p.insert("submit".into(), Value::Bool(true));
            }
            Ok((conn, Request::json("type", cli::with_tab(p, tab))))
        }
        Command::Handoff {
            tab,
            reason,
            wait_ms,
            conn,
        } => {
            let mut p = obj(json!({"tabId": tab, "reason": reason}));
            if let Some(ms) = wait_ms {
                p.insert("waitMs".into(), json!(ms));
            }
            Ok((conn, Request::json("handoff", Value::Object(p))))
        }
        Command::Eval { js, tab, conn } => Ok((
            conn,
            Request::json(
                "evaluate",
                cli::with_tab(obj(json!({"expression": js})), tab),
            ),
        )),
        Command::Screenshot {
            output,
            full_page,
            format,
            quality,
            max_width,
            tab,
            conn,
        } => {
            let format = match cli::screenshot_format(&output, format.as_deref()) {
                Ok(f) => f,
                Err(f) => return Err((f, conn.pretty)),
            };
            if quality.is_some() && format != bua_protocol::ImageFormat::Jpeg {
                return Err((
                    cli::Failure::invalid(
                        "--quality is for JPEG: name the file .jpg or pass --format jpeg",
                    ),
                    conn.pretty,
                ));
            }
            let mut p = Map::new();
            if full_page {
                p.insert("fullPage".into(), Value::Bool(true));
            }
            if format != bua_protocol::ImageFormat::Png {
                p.insert("format".into(), Value::String(format.as_str().into()));
            }
            if let Some(q) = quality {
                p.insert("quality".into(), json!(q));
            }
            if let Some(w) = max_width {
                p.insert("maxWidth".into(), json!(w));
            }
            let request = Request {
                method: "screenshot".into(),
                params: cli::with_tab(p, tab),
                output: Output::ScreenshotTo(output, format),
            };
            Ok((conn, request))
        }
        Command::Pdf {
            output,
            landscape,
            print_background,
            tab,
            conn,
        } => {
            let mut p = Map::new();
            if landscape {
                p.insert("landscape".into(), Value::Bool(true));
            }
            if print_background {
                p.insert("printBackground".into(), Value::Bool(true));
            }
            let request = Request {
                method: "pdf".into(),
                params: cli::with_tab(p, tab),
                output: Output::PdfTo(output),
            };
            Ok((conn, request))
        }
        _ => Err((cli::Failure::invalid("not a client subcommand"), false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        // Catches duplicate argument ids (e.g. a positional `url` next to `--url`) at test time.
        Cli::command().debug_assert();
    }

    #[test]
    fn friendly_subcommands_build_their_requests() {
        let parse = |args: &[&str]| {
            let cli = Cli::try_parse_from(args).expect("parses");
            friendly_request(cli.command).map_err(|(f, _)| f)
        };
        let (_, r) = parse(&["bua-bridge", "click", "e3", "--tab", "12", "--new-tab"]).unwrap();
        assert_eq!(r.method, "click");
        assert_eq!(r.params, json!({"uid": "e3", "tabId": 12, "newTab": true}));
        let (_, r) = parse(&["bua-bridge", "type", "--text", "Email", "a@b", "--submit"]).unwrap();
        assert_eq!(r.method, "type");
        assert_eq!(
            r.params,
            json!({"locator": {"text": "Email"}, "text": "a@b", "submit": true})
        );
        let (conn, r) = parse(&[
            "bua-bridge",
            "open",
            "https://example.com",
            "--port",
            "1234",
        ])
        .unwrap();
        assert_eq!(conn.port, 1234);
        assert_eq!(r.params, json!({"url": "https://example.com"}));
        let (_, r) = parse(&["bua-bridge", "extract", "--markdown"]).unwrap();
        assert_eq!(r.output, Output::Markdown);
        assert_eq!(r.params, json!({}));
        let (_, r) = parse(&["bua-bridge", "screenshot", "-o", "x.png", "--full-page"]).unwrap();
        assert_eq!(
            r.output,
            Output::ScreenshotTo(PathBuf::from("x.png"), bua_protocol::ImageFormat::Png)
        );
        assert_eq!(r.params, json!({"fullPage": true}));
        // The file name decides the format; a contradicting --format is refused.
        let (_, r) =
            parse(&["bua-bridge", "screenshot", "-o", "x.jpg", "--quality", "70"]).unwrap();
        assert_eq!(r.params, json!({"format": "jpeg", "quality": 70}));
        assert_eq!(
            r.output,
            Output::ScreenshotTo(PathBuf::from("x.jpg"), bua_protocol::ImageFormat::Jpeg)
        );
        let f = parse(&["bua-bridge", "screenshot", "-o", "x.jpg", "--format", "png"]).unwrap_err();
        assert!(f.message.contains("conflicts"), "{}", f.message);
        let f = parse(&["bua-bridge", "screenshot", "-o", "x.png", "--quality", "5"]).unwrap_err();
        assert!(f.message.contains("--quality is for JPEG"), "{}", f.message);
        // --owner on every client subcommand.
        let (conn, _) = parse(&["bua-bridge", "tabs", "--owner", "bob"]).unwrap();
        assert_eq!(conn.connection().unwrap().owner.as_deref(), Some("bob"));
        let f = parse(&["bua-bridge", "type", "e4"]).unwrap_err();
        assert_eq!(
            f.message,
            "type: the text to type is missing: `bua-bridge type e4 '<text>'`"
        );
        let f = parse(&["bua-bridge", "click", "e3", "--selector", "#a"]).unwrap_err();
        assert_eq!(f.code, "invalid_action");
        assert!(
            Cli::try_parse_from(["bua-bridge", "extract", "--markdown", "--elements"]).is_err()
        );
        let (_, r) = parse(&["bua-bridge", "extract", "--agent", "--tab", "3"]).unwrap();
        assert_eq!(r.output, Output::AgentText);
        assert_eq!(
            r.params,
            json!({"include": ["markdown", "elements"], "refs": true, "tabId": 3})
        );
    }
}
