//! The command line's definition (clap): every subcommand with its arguments, help and examples.
//! What each subcommand does is in the sibling rooms: [`super::client`] for the client
//! subcommands, [`super::server`] for `serve`, `mcp`, `launch` and `demo`.

use std::net::IpAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use super::parse::{parse_grace, Grace};

#[derive(Parser)]
#[command(
    name = "bua-bridge",
    version,
    about = "The native end of BUA Browser Bridge: server, launcher, client CLI and MCP server",
    after_help = "Examples:
  bua-bridge install && bua-bridge extension    # once: the pairing host, and the extension to Load unpacked
  bua-bridge serve                              # the extension pairs by itself (or paste the printed token)
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
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
        after_help = "Example:\n  bua-bridge serve --port 9225\n  (after `bua-bridge install` the extension pairs by itself; else paste the printed token into its options page)"
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
        #[command(flatten)]
        controls: PersonControls,
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
  bua-bridge extract --tab 12 --agent              # what an MCP agent reads: header, markdown, e0 button \"Sign in\"
  bua-bridge extract --tab 12 --agent --page 2     # the next part of a long page")]
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
        /// Read page N of a page too long for one read (the header's `more:` names it).
        #[arg(long, value_name = "N")]
        page: Option<u32>,
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
    /// List the browser actions, one line each, or explain one: `actions click` (parameters, timeout).
    #[command(
        after_help = "Examples:\n  bua-bridge actions            # one line per action\n  bua-bridge actions fill       # fill's parameters in detail (the MCP tool's help)"
    )]
    Actions(super::setup::ActionsArgs),
    /// Print the SKILL.md for coding agents (install it with `install --skills`).
    #[command(after_help = "Example:\n  bua-bridge skill > SKILL.md")]
    Skill,
    /// Print the snippet (or command) that adds `bua-bridge mcp` to an MCP host.
    #[command(
        name = "mcp-config",
        after_help = "Examples:\n  bua-bridge mcp-config claude     # a `claude mcp add` command\n  bua-bridge mcp-config codex >> ~/.codex/config.toml\n  bua-bridge mcp-config cursor     # JSON for ~/.cursor/mcp.json\n  bua-bridge mcp-config vscode     # JSON for .vscode/mcp.json"
    )]
    McpConfig(super::setup::McpConfigArgs),
    /// Set up this user's machine: pairing without a token (a native-messaging host for each Chrome, Chromium, Brave, Edge found) and, with --skills, the skill file; prints each file written.
    #[command(
        after_help = "Examples:\n  bua-bridge install                    # the pairing host, for each browser found\n  bua-bridge install --skills           # also ~/.claude/skills/bua-browser/SKILL.md and ~/.codex/skills/…\n  bua-bridge install --skills ./skills  # ./skills/bua-browser/SKILL.md\n  bua-bridge uninstall                  # removes exactly what install wrote"
    )]
    Install(super::setup::InstallArgs),
    /// Remove every file `install` wrote (it keeps a record of them); prints each one.
    Uninstall,
    /// Check this machine: browsers, pairing host, token file, port, bridge, pairing, extension and its version; each failed check with its fix (exit 1).
    #[command(after_help = "Examples:\n  bua-bridge doctor\n  bua-bridge doctor --port 9300")]
    Doctor(super::setup::DoctorArgs),
    /// Write the extension of this bua-bridge's version into a folder for chrome://extensions → Load unpacked.
    #[command(
        after_help = "Examples:\n  bua-bridge extension                     # ~/.local/share/bua/extension\n  bua-bridge extension --out ~/bua-ext\nRun it again after upgrading bua-bridge, then press the extension's reload button."
    )]
    Extension(super::setup::ExtensionArgs),
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
        #[command(flatten)]
        controls: PersonControls,
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
        #[command(flatten)]
        controls: PersonControls,
        /// Where the browser saves downloads (default: the profile's Downloads folder; never ~/Downloads).
        #[arg(long, value_name = "DIR")]
        download_dir: Option<PathBuf>,
    },
}

/// Default of `--extension-wait` ([`bua_bridge::server::DEFAULT_EXTENSION_WAIT`]).
pub(crate) const EXTENSION_WAIT_SECS: u64 = bua_bridge::server::DEFAULT_EXTENSION_WAIT.as_secs();

/// How client subcommands reach the bridge, and how they print.
#[derive(Args, Debug, Clone)]
pub(crate) struct ConnArgs {
    /// Bridge port on 127.0.0.1.
    #[arg(long, env = PORT_ENV, default_value_t = bua_bridge::DEFAULT_PORT)]
    pub(crate) port: u16,
    /// Full bridge URL (overrides --port), e.g. ws://127.0.0.1:9300.
    #[arg(long, env = URL_ENV)]
    pub(crate) url: Option<String>,
    /// The agent owner of this command's tabs (default: $BUA_OWNER, else "cli": every CLI call is
    /// one agent, with one agent window).
    #[arg(long)]
    pub(crate) owner: Option<String>,
    /// Pairing token (default: read from --token-file).
    #[arg(long, env = TOKEN_ENV, hide_env_values = true)]
    pub(crate) token: Option<String>,
    /// Pairing token file. Default: ~/.config/bua/token.
    #[arg(long)]
    pub(crate) token_file: Option<PathBuf>,
    /// Pretty-print (indented JSON; readable element lists).
    #[arg(long)]
    pub(crate) pretty: bool,
}

/// The environment variable for `--port` of client subcommands and `mcp`.
const PORT_ENV: &str = "BUA_PORT";
/// The environment variable for `--url`.
const URL_ENV: &str = "BUA_URL";
/// The environment variable for `--token`.
const TOKEN_ENV: &str = "BUA_TOKEN";

/// `--selector` / `--text` / `--xpath` / `--index` of element-taking subcommands.
#[derive(Args, Debug, Clone)]
pub(crate) struct LocatorFlags {
    /// CSS selector.
    #[arg(long)]
    pub(crate) selector: Option<String>,
    /// Visible text (exact match first, then substring).
    #[arg(long)]
    pub(crate) text: Option<String>,
    /// XPath.
    #[arg(long)]
    pub(crate) xpath: Option<String>,
    /// 0-based index among matches (not with a uid).
    #[arg(long)]
    pub(crate) index: Option<u32>,
}

/// The visible subcommands as `(name, one-line help)`, in the CLI's order (for the skill file).
pub(crate) fn subcommands() -> Vec<(String, String)> {
    use clap::CommandFactory;
    Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| {
            let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
            (c.get_name().to_owned(), about)
        })
        .collect()
}

/// What the person allows an unattended run, for a bridge that `serve`, `mcp` or `launch` starts (SPEC §4
/// "Secrets", §10).
#[derive(Args, Debug, Clone, Default)]
pub struct PersonControls {
    /// The person's secrets file (JSON, mode 0600), typed by name with `type {secret}`.
    /// Default: ~/.config/bua/secrets.
    #[arg(long, value_name = "FILE")]
    pub secrets: Option<PathBuf>,
    /// Refuse `evaluate` (arbitrary script in signed-in pages) with not_allowed.
    #[arg(long)]
    pub no_evaluate: bool,
    /// Refuse `upload` with not_allowed.
    #[arg(long)]
    pub no_upload: bool,
    /// Agents may open only this site and its subdomains (repeat for more); the extension refuses others.
    #[arg(long = "allow", value_name = "SITE")]
    pub allow: Vec<String>,
}

impl PersonControls {
    /// The actions `--no-evaluate` and `--no-upload` turn off (SPEC §10).
    pub fn switched_off(&self) -> Vec<&'static str> {
        [("evaluate", self.no_evaluate), ("upload", self.no_upload)]
            .into_iter()
            .filter_map(|(name, off)| off.then_some(name))
            .collect()
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
    fn allow_is_repeatable_on_serve_mcp_and_launch() {
        for sub in ["serve", "mcp", "launch"] {
            let cli =
                Cli::try_parse_from(["bua-bridge", sub, "--allow", "a.test", "--allow", "b.test"])
                    .unwrap_or_else(|e| panic!("{sub}: {e}"));
            let allow = match cli.command {
                Command::Serve { controls, .. }
                | Command::Mcp { controls, .. }
                | Command::Launch { controls, .. } => controls.allow,
                _ => vec![],
            };
            assert_eq!(allow, vec!["a.test", "b.test"], "{sub}");
        }
    }
}
