//! The client subcommands: how they reach the bridge ([`ConnArgs`]), and the request each friendly
//! subcommand sends — a typed [`Action`] of the protocol crate, serialised canonically, so no wire
//! key is written here. An action without a friendly subcommand is still one `call <action>
//! '<json>'` away (SPEC §9).

use std::process::ExitCode;

use bua_bridge::cli::{self, Connection, LocatorArgs, Output, Request};
use bua_protocol::{
    Action, Click, Downloads, Evaluate, Extract, Handoff, ImageFormat, Navigate, OpenTab, Pdf,
    Screenshot, TypeText, DEFAULT_HANDOFF_WAIT_MS,
};

use super::args::{Command, ConnArgs, LocatorFlags};

impl ConnArgs {
    /// The connection, with the owner from `--owner`, `$BUA_OWNER` or `cli`.
    pub(crate) fn connection(&self) -> Result<Connection, cli::Failure> {
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
    pub(crate) async fn run(&self, request: Request) -> ExitCode {
        match self.connection() {
            Ok(conn) => cli::run(&conn, request, self.pretty).await,
            Err(f) => cli::fail(&f, self.pretty),
        }
    }
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

    /// Whether `--selector`, `--text` or `--xpath` names the element.
    fn names_element(&self) -> bool {
        self.selector.is_some() || self.text.is_some() || self.xpath.is_some()
    }
}

/// The request of a friendly subcommand, and its connection flags.
///
/// Errors: what the subcommand's flags refuse before anything is sent (the failure, and whether
/// to print it pretty).
pub(crate) fn friendly_request(
    command: Command,
) -> Result<(ConnArgs, Request), (cli::Failure, bool)> {
    let json = |action: Action| Request::action(&action, Output::Json);
    match command {
        Command::Tabs { conn } => Ok((conn, json(Action::GetTabs))),
        Command::Downloads { tab, wait, conn } => {
            let downloads = Downloads {
                tab_id: tab,
                wait_ms: wait,
            };
            Ok((conn, json(Action::Downloads(downloads))))
        }
        Command::Open {
            page_url,
            focus,
            conn,
        } => {
            let open = OpenTab {
                url: page_url,
                focus,
                load_wait_ms: None,
            };
            Ok((conn, json(Action::OpenTab(open))))
        }
        Command::Navigate {
            page_url,
            tab,
            conn,
        } => {
            let navigate = Navigate {
                url: page_url,
                tab_id: tab,
                load_wait_ms: None,
                dialog: Default::default(),
            };
            Ok((conn, json(Action::Navigate(navigate))))
        }
        Command::Extract {
            tab,
            markdown,
            elements,
            agent,
            page,
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
            // `--agent` reads what the MCP tool reads: markdown and elements, with link refs.
            let include = if agent {
                bua_bridge::mcp::AGENT_EXTRACT_PARTS.to_vec()
            } else {
                Vec::new()
            };
            let extract = Extract {
                tab_id: tab,
                include,
                refs: agent,
                page,
            };
            Ok((conn, Request::action(&Action::Extract(extract), output)))
        }
        Command::Click {
            uid,
            locator,
            new_tab,
            tab,
            conn,
        } => {
            let locator = match locator.with_uid(uid).locator() {
                Ok(l) => l,
                Err(f) => return Err((f, conn.pretty)),
            };
            let click = Click {
                locator,
                tab_id: tab,
                new_tab,
                dialog: Default::default(),
            };
            Ok((conn, json(Action::Click(click))))
        }
        Command::Type {
            args,
            locator,
            no_clear,
            submit,
            tab,
            conn,
        } => {
            let typed = cli::type_args(args, locator.names_element())
                .and_then(|(uid, text)| Ok((locator.with_uid(uid).locator()?, text)));
            let (locator, text) = match typed {
                Ok(split) => split,
                Err(f) => return Err((f, conn.pretty)),
            };
            let type_text = TypeText {
                locator,
                text,
                secret: None,
                secret_origins: None,
                clear: !no_clear,
                submit,
                tab_id: tab,
                dialog: Default::default(),
            };
            Ok((conn, json(Action::Type(type_text))))
        }
        Command::Handoff {
            tab,
            reason,
            wait_ms,
            conn,
        } => {
            let handoff = Handoff {
                tab_id: tab,
                reason,
                wait_ms: wait_ms.unwrap_or(DEFAULT_HANDOFF_WAIT_MS),
            };
            Ok((conn, json(Action::Handoff(handoff))))
        }
        Command::Eval { js, tab, conn } => {
            let evaluate = Evaluate {
                expression: js,
                tab_id: tab,
                frame: None,
                dialog: Default::default(),
            };
            Ok((conn, json(Action::Evaluate(evaluate))))
        }
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
            if quality.is_some() && format != ImageFormat::Jpeg {
                return Err((
                    cli::Failure::invalid(
                        "--quality is for JPEG: name the file .jpg or pass --format jpeg",
                    ),
                    conn.pretty,
                ));
            }
            let shot = Screenshot {
                tab_id: tab,
                full_page,
                format,
                quality,
                max_width,
                locator: None,
            };
            let output = Output::ScreenshotTo(output, format);
            Ok((conn, Request::action(&Action::Screenshot(shot), output)))
        }
        Command::Pdf {
            output,
            landscape,
            print_background,
            tab,
            conn,
        } => {
            let pdf = Pdf {
                tab_id: tab,
                landscape,
                print_background,
            };
            Ok((
                conn,
                Request::action(&Action::Pdf(pdf), Output::PdfTo(output)),
            ))
        }
        _ => Err((cli::Failure::invalid("not a client subcommand"), false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::args::Cli;
    use clap::Parser;
    use serde_json::json;
    use std::path::PathBuf;

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
            Output::ScreenshotTo(PathBuf::from("x.png"), ImageFormat::Png)
        );
        assert_eq!(r.params, json!({"fullPage": true}));
        // The file name decides the format; a contradicting --format is refused.
        let (_, r) =
            parse(&["bua-bridge", "screenshot", "-o", "x.jpg", "--quality", "70"]).unwrap();
        assert_eq!(r.params, json!({"format": "jpeg", "quality": 70}));
        assert_eq!(
            r.output,
            Output::ScreenshotTo(PathBuf::from("x.jpg"), ImageFormat::Jpeg)
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
