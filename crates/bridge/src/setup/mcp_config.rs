//! `bua-bridge mcp-config HOST`: the exact snippet (or command) that registers `bua-bridge mcp` with an
//! MCP host (SPEC §11 "MCP config"). Pure: the caller gives the binary's absolute path.

use std::path::Path;

use serde_json::json;

/// The MCP hosts `mcp-config` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum McpHost {
    /// Claude Code: a `claude mcp add` command line.
    Claude,
    /// Codex: a `[mcp_servers.browser]` table for `~/.codex/config.toml`.
    Codex,
    /// Cursor: `mcpServers` JSON for `~/.cursor/mcp.json`.
    Cursor,
    /// VS Code: `servers` JSON for `.vscode/mcp.json` (or the user `mcp.json`).
    Vscode,
}

/// The server's name in every host's config.
pub const SERVER_NAME: &str = "browser";

/// What to print for `host`: `(the snippet, where it goes)`. The snippet alone goes to stdout, so it can
/// be piped; the hint goes to stderr.
pub fn mcp_config(host: McpHost, bridge: &Path) -> (String, &'static str) {
    let command = bridge.display().to_string();
    match host {
        McpHost::Claude => (
            format!(
                "claude mcp add --scope user {SERVER_NAME} -- {} mcp",
                shell_quote(&command)
            ),
            "run this command (Claude Code registers the server for every project of this user)",
        ),
        McpHost::Codex => (
            format!(
                "[mcp_servers.{SERVER_NAME}]\ncommand = {}\nargs = [\"mcp\"]\n",
                // A JSON string is a TOML basic string (same escapes).
                json!(command)
            ),
            "add this table to ~/.codex/config.toml",
        ),
        McpHost::Cursor => (
            pretty(json!({"mcpServers": {SERVER_NAME: {"command": command, "args": ["mcp"]}}})),
            "merge this into ~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
        ),
        McpHost::Vscode => (
            pretty(
                json!({"servers": {SERVER_NAME: {"type": "stdio", "command": command, "args": ["mcp"]}}}),
            ),
            "merge this into .vscode/mcp.json in the workspace (or the user mcp.json: MCP: Open User Configuration)",
        ),
    }
}

fn pretty(v: serde_json::Value) -> String {
    serde_json::to_string_pretty(&v).unwrap_or_else(|_| v.to_string())
}

/// `s` as one POSIX shell word: bare when it is only safe characters, else single-quoted.
fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIN: &str = "/home/a user/bin/bua-bridge";

    #[test]
    fn the_json_snippets_parse_and_name_the_binary() {
        for (host, key) in [
            (McpHost::Cursor, "mcpServers"),
            (McpHost::Vscode, "servers"),
        ] {
            let (text, _) = mcp_config(host, Path::new(BIN));
            let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(v[key][SERVER_NAME]["command"], BIN, "{text}");
            assert_eq!(v[key][SERVER_NAME]["args"], json!(["mcp"]), "{text}");
        }
    }

    #[test]
    fn the_codex_snippet_is_toml() {
        let (text, _) = mcp_config(McpHost::Codex, Path::new("/opt/b\"q/bua-bridge"));
        let v: toml::Value = toml::from_str(&text).expect("TOML");
        assert_eq!(
            v["mcp_servers"][SERVER_NAME]["command"].as_str(),
            Some("/opt/b\"q/bua-bridge")
        );
        assert_eq!(
            v["mcp_servers"][SERVER_NAME]["args"],
            toml::Value::Array(vec![toml::Value::String("mcp".into())])
        );
    }

    #[test]
    fn the_claude_command_quotes_the_path() {
        let (text, _) = mcp_config(McpHost::Claude, Path::new(BIN));
        assert_eq!(
            text,
            "claude mcp add --scope user browser -- '/home/a user/bin/bua-bridge' mcp"
        );
    }
}
