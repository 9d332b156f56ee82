//! `bua-bridge`: the command line. All logic lives in the library (`bua_bridge`).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use bua_bridge::launch::{LaunchOptions, TokenSource};
use bua_bridge::{server, token, BridgeClient, Error, ServerConfig};
use clap::{Parser, Subcommand};
use serde_json::{json, Value};

#[derive(Parser)]
#[command(
    name = "bua-bridge",
    version,
    about = "The native end of BUA Browser Bridge: server, launcher and client"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the bridge: the extension and local clients connect to it.
    #[command(
        after_help = "Example:\n  bua-bridge serve --port 9225\n  (then paste the printed token into the extension's options page)"
    )]
    Serve {
        /// Port to listen on (0 = a free port).
        #[arg(long, default_value_t = 9225)]
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
    },
    /// Send one request to a running bridge and print its JSON result.
    #[command(
        after_help = "Examples:\n  bua-bridge call ping\n  bua-bridge call get_tabs\n  bua-bridge call open_tab '{\"url\":\"https://example.com\"}'"
    )]
    Call {
        /// The method: an action type (get_tabs, open_tab, click, …) or ping.
        method: String,
        /// The params as a JSON object.
        params: Option<String>,
        /// Bridge port on 127.0.0.1.
        #[arg(long, default_value_t = 9225)]
        port: u16,
        /// Full bridge URL (overrides --port).
        #[arg(long)]
        url: Option<String>,
        /// Pairing token (default: read from --token-file).
        #[arg(long, conflicts_with = "token_file")]
        token: Option<String>,
        /// Pairing token file. Default: ~/.config/bua/token.
        #[arg(long)]
        token_file: Option<PathBuf>,
        /// Pretty-print the JSON.
        #[arg(long)]
        pretty: bool,
    },
    /// Start the bridge and Chromium with the extension, paired; print READY and serve until stopped.
    #[command(after_help = "Example:\n  bua-bridge launch --headless --port 0 --extension ./dist")]
    Launch {
        /// Bridge port (0 = a free port).
        #[arg(long, default_value_t = 9225)]
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
    },
}

fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("BUA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

fn token_path(given: Option<PathBuf>) -> Result<PathBuf, Error> {
    match given {
        Some(p) => Ok(p),
        None => token::default_path(),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
            } => {
                init_logging("info");
                report(serve(port, bind, token_file, extension_id, min_protocol_version).await)
            }
            Command::Call {
                method,
                params,
                port,
                url,
                token,
                token_file,
                pretty,
            } => {
                init_logging("warn");
                call(method, params, port, url, token, token_file, pretty).await
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
            eprintln!("bua-bridge: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(
    port: u16,
    bind: IpAddr,
    token_file: Option<PathBuf>,
    extension_id: Option<String>,
    min_protocol_version: Option<u32>,
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
    println!(
        "bua-bridge {} listening on {}",
        bua_bridge::SERVER_VERSION,
        handle.url()
    );
    println!("pairing token ({}): {token}", path.display());
    println!(
        "pair the extension: open its options page, set Backend URL to {} and paste the token (or run `bua-bridge launch`)",
        handle.url()
    );
    tokio::select! {
        _ = sigterm.recv() => tracing::info!("SIGTERM: shutting down"),
        _ = sigint.recv() => tracing::info!("SIGINT: shutting down"),
    }
    handle.shutdown().await;
    Ok(())
}

async fn call(
    method: String,
    params: Option<String>,
    port: u16,
    url: Option<String>,
    token: Option<String>,
    token_file: Option<PathBuf>,
    pretty: bool,
) -> ExitCode {
    let print = |v: &Value| {
        let text = if pretty {
            serde_json::to_string_pretty(v)
        } else {
            serde_json::to_string(v)
        };
        println!("{}", text.unwrap_or_else(|_| v.to_string()));
    };
    let fail = |code: &str, message: String| {
        print(&json!({"code": code, "error": message}));
        ExitCode::FAILURE
    };
    let params: Value = match params.as_deref().map(serde_json::from_str) {
        None => Value::Null,
        Some(Ok(v)) => v,
        Some(Err(e)) => return fail("invalid_action", format!("params: not valid JSON: {e}")),
    };
    let token = match token {
        Some(t) => t,
        None => match token_path(token_file).and_then(|p| token::read(&p)) {
            Ok(t) => t,
            Err(e) => {
                return fail(
                    "unauthorized",
                    format!("{e} (pass --token or --token-file)"),
                )
            }
        },
    };
    let endpoint: bua_bridge::client::Endpoint = match url {
        Some(u) => u.into(),
        None => port.into(),
    };
    let url = endpoint.url();
    let client = match BridgeClient::connect(endpoint, &token).await {
        Ok(c) => c,
        Err(e @ (Error::WebSocket(_) | Error::Io { .. } | Error::Timeout { .. })) => {
            return fail(
                e.code().as_str(),
                format!("cannot reach bua-bridge at {url} ({e}); start it with `bua-bridge serve` or `bua-bridge launch`"),
            )
        }
        Err(e) => return fail(e.code().as_str(), e.to_string()),
    };
    match client.call(&method, params).await {
        Ok(result) => {
            print(&result);
            ExitCode::SUCCESS
        }
        Err(e) => fail(e.code().as_str(), e.to_string()),
    }
}
