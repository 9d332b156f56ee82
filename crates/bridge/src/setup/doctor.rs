//! `bua-bridge doctor` (SPEC §11 "Doctor"): what stands between this machine and a working agent, each check
//! with its fix. [`gather`] looks (files, the port, the running bridge); [`checks`] judges what it saw, pure, so
//! every broken state is tested without breaking a machine.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::browsers::{self, Os};
use super::native_host::{EXTENSION_ID, HOST_NAME};
use super::Paths;
use crate::client::BridgeClient;
use crate::error::Error;

/// What doctor saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// The browsers found for this user.
    pub browsers: Vec<&'static str>,
    /// Of those, the ones without our pairing host (or whose manifest names a program that is gone).
    pub hosts_missing: Vec<&'static str>,
    /// The token file and its mode (`None`: missing).
    pub token_file: PathBuf,
    /// Unix permission bits of the token file.
    pub token_mode: Option<u32>,
    /// The bridge's port on 127.0.0.1.
    pub port: u16,
    /// What answers there.
    pub bridge: Bridge,
    /// This binary's version (what the extension should be).
    pub version: String,
}

/// What answers on the bridge's port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bridge {
    /// Nothing listens; the port is free.
    Down,
    /// Something that is not a bridge holds the port (`what`: the error talking to it).
    Busy(String),
    /// A bridge, which refused the token file's token.
    Refused(String),
    /// A bridge that accepted the token; the extension it serves (`None`: none connected).
    Up(Option<Extension>),
}

/// The extension a bridge serves, from its `ping`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extension {
    /// Its id.
    pub id: String,
    /// Its manifest version.
    pub version: Option<String>,
}

/// One check: its name, whether it passed, what was seen, and the fix when it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// E.g. `bridge running`.
    pub name: &'static str,
    /// Passed.
    pub ok: bool,
    /// What was seen.
    pub detail: String,
    /// What to do (empty when it passed).
    pub fix: String,
}

impl Check {
    fn pass(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            ok: true,
            detail: detail.into(),
            fix: String::new(),
        }
    }

    fn fail(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            name,
            ok: false,
            detail: detail.into(),
            fix: fix.into(),
        }
    }

    /// `ok   name: detail` or `FAIL name: detail\n     fix: …`.
    pub fn line(&self) -> String {
        if self.ok {
            format!("ok    {}: {}", self.name, self.detail)
        } else {
            format!(
                "FAIL  {}: {}\n      fix: {}",
                self.name, self.detail, self.fix
            )
        }
    }
}

/// The checks of SPEC §11 in order: browsers found, native host registered, token file, port, bridge running,
/// pairing accepted, extension loaded (and its version).
pub fn checks(f: &Facts) -> Vec<Check> {
    let mut out = Vec::new();
    out.push(if f.browsers.is_empty() {
        Check::fail(
            "browsers found",
            "no Chrome, Chromium, Brave or Edge for this user",
            "install one (Debian: apt-get install chromium) and start it once",
        )
    } else {
        Check::pass("browsers found", f.browsers.join(", "))
    });
    out.push(if f.browsers.is_empty() {
        Check::fail(
            "native host registered",
            "no browser to register it with",
            "install a browser, then run `bua-bridge install`",
        )
    } else if f.hosts_missing.is_empty() {
        Check::pass(
            "native host registered",
            format!("{HOST_NAME} for {}", f.browsers.join(", ")),
        )
    } else {
        Check::fail(
            "native host registered",
            format!("not registered for {}", f.hosts_missing.join(", ")),
            "run `bua-bridge install` (the extension then pairs without a pasted token)",
        )
    });
    let token = f.token_file.display();
    out.push(match f.token_mode {
        None => Check::fail(
            "token file mode",
            format!("{token} does not exist"),
            "start `bua-bridge serve` once: it creates the token file (mode 0600)",
        ),
        Some(mode) if mode & 0o077 != 0 => Check::fail(
            "token file mode",
            format!("{token} is mode {mode:04o}: other users can read the pairing token"),
            format!("chmod 600 {token}"),
        ),
        Some(mode) => Check::pass("token file mode", format!("{token} is mode {mode:04o}")),
    });
    let url = format!("ws://127.0.0.1:{}", f.port);
    out.push(match &f.bridge {
        Bridge::Busy(what) => Check::fail(
            "port free",
            format!("port {} is held by something that is not a bridge ({what})", f.port),
            "stop that program, or run `bua-bridge serve --port N` and `bua-bridge install --port N` with a free port N",
        ),
        Bridge::Down => Check::pass("port free", format!("{} is free for the bridge", f.port)),
        _ => Check::pass("port free", format!("{} is the bridge's", f.port)),
    });
    out.push(match &f.bridge {
        Bridge::Down => Check::fail(
            "bridge running",
            format!("nothing listens on {url}"),
            format!("start it: `bua-bridge serve --port {}`", f.port),
        ),
        Bridge::Busy(_) => Check::fail(
            "bridge running",
            format!("no bridge on {url}"),
            "free the port (see above), then start `bua-bridge serve`",
        ),
        _ => Check::pass("bridge running", url.clone()),
    });
    out.push(match &f.bridge {
        Bridge::Refused(why) => Check::fail(
            "pairing accepted",
            format!("the bridge refused the token of {token} ({why})"),
            format!(
                "the bridge runs with another token: restart it with `bua-bridge serve --token-file {token}` (or pass its token with --token-file to doctor)"
            ),
        ),
        Bridge::Up(_) => Check::pass("pairing accepted", format!("the token of {token}")),
        _ => Check::fail("pairing accepted", "no bridge to pair with", "start the bridge first"),
    });
    out.push(match &f.bridge {
        Bridge::Up(Some(ext)) => match ext.version.as_deref() {
            Some(v) if v == f.version => {
                Check::pass("extension loaded", format!("{} version {v}", ext.id))
            }
            other => Check::fail(
                "extension loaded",
                format!(
                    "{} is version {}, this bua-bridge {}",
                    ext.id,
                    other.unwrap_or("unknown"),
                    f.version
                ),
                "run `bua-bridge extension`, then press the extension's reload button in chrome://extensions",
            ),
        },
        Bridge::Up(None) => Check::fail(
            "extension loaded",
            format!("no extension is connected to {url}"),
            format!(
                "run `bua-bridge extension`, load that folder in chrome://extensions (Developer mode → Load unpacked), and run `bua-bridge install` so it pairs by itself (extension id {EXTENSION_ID})"
            ),
        ),
        _ => Check::fail(
            "extension loaded",
            "unknown: no bridge to ask",
            "start the bridge first",
        ),
    });
    out
}

/// Looks at this machine: browsers and their host manifests under `paths`, the token file, and what answers on
/// `port`.
pub async fn gather(paths: &Paths, port: u16, token_file: &Path) -> Facts {
    use std::os::unix::fs::PermissionsExt;
    let os = Os::current().unwrap_or(Os::Linux);
    let found = browsers::found(
        os,
        &paths.home,
        &paths.config,
        |p| p.is_dir(),
        |program| browsers::is_installed(program, &paths.home),
    );
    let hosts_missing = found
        .iter()
        .filter(|b| {
            let manifest = b
                .hosts_dir(os, &paths.home, &paths.config)
                .join(format!("{HOST_NAME}.json"));
            !host_manifest_ok(&manifest)
        })
        .map(|b| b.name)
        .collect();
    let token_mode = std::fs::metadata(token_file)
        .ok()
        .map(|m| m.permissions().mode() & 0o777);
    let token = crate::token::read(token_file).unwrap_or_default();
    Facts {
        browsers: found.iter().map(|b| b.name).collect(),
        hosts_missing,
        token_file: token_file.to_path_buf(),
        token_mode,
        port,
        bridge: probe(port, &token).await,
        version: crate::SERVER_VERSION.to_owned(),
    }
}

/// Whether the host manifest at `path` exists and names a program that exists.
fn host_manifest_ok(path: &Path) -> bool {
    std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .and_then(|m| m["path"].as_str().map(PathBuf::from))
        .is_some_and(|p| p.is_file())
}

async fn probe(port: u16, token: &str) -> Bridge {
    let client = match BridgeClient::connect(port, token).await {
        Ok(c) => c,
        Err(e) if e.is_connection_refused() => return Bridge::Down,
        Err(Error::Rejected { message, .. }) => return Bridge::Refused(message),
        Err(e) => return Bridge::Busy(e.to_string()),
    };
    let pong = client.call("ping", Value::Null).await.unwrap_or_default();
    let extension = pong
        .get("extension")
        .filter(|e| !e.is_null())
        .map(|e| Extension {
            id: e["id"].as_str().unwrap_or_default().to_owned(),
            version: e["version"].as_str().map(str::to_owned),
        });
    Bridge::Up(extension)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn healthy() -> Facts {
        Facts {
            browsers: vec!["Chromium"],
            hosts_missing: vec![],
            token_file: "/h/.config/bua/token".into(),
            token_mode: Some(0o600),
            port: 9225,
            bridge: Bridge::Up(Some(Extension {
                id: EXTENSION_ID.into(),
                version: Some("0.1.0".into()),
            })),
            version: "0.1.0".into(),
        }
    }

    /// The failed checks of `f` as `(name, fix)`.
    fn failed(f: &Facts) -> Vec<(&'static str, String)> {
        checks(f)
            .into_iter()
            .filter(|c| !c.ok)
            .map(|c| (c.name, c.fix))
            .collect()
    }

    #[test]
    fn a_healthy_machine_passes_every_check() {
        let all = checks(&healthy());
        assert_eq!(all.len(), 7);
        assert!(all.iter().all(|c| c.ok), "{all:?}");
    }

    #[test]
    fn each_broken_state_fails_its_check_with_the_fix() {
        let cases: Vec<(Facts, &str, &str)> = vec![
            (
                Facts {
                    browsers: vec![],
                    hosts_missing: vec![],
                    ..healthy()
                },
                "browsers found",
                "install one",
            ),
            (
                Facts {
                    hosts_missing: vec!["Chromium"],
                    ..healthy()
                },
                "native host registered",
                "bua-bridge install",
            ),
            (
                Facts {
                    bridge: Bridge::Up(None),
                    ..healthy()
                },
                "extension loaded",
                "bua-bridge extension",
            ),
            (
                Facts {
                    bridge: Bridge::Up(Some(Extension {
                        id: EXTENSION_ID.into(),
                        version: Some("0.0.9".into()),
                    })),
                    ..healthy()
                },
                "extension loaded",
                "bua-bridge extension",
            ),
            (
                Facts {
                    bridge: Bridge::Down,
                    ..healthy()
                },
                "bridge running",
                "bua-bridge serve",
            ),
            (
                Facts {
                    bridge: Bridge::Refused("wrong pairing token".into()),
                    ..healthy()
                },
                "pairing accepted",
                "--token-file",
            ),
            (
                Facts {
                    bridge: Bridge::Busy("not a WebSocket".into()),
                    ..healthy()
                },
                "port free",
                "--port N",
            ),
            (
                Facts {
                    token_mode: Some(0o644),
                    ..healthy()
                },
                "token file mode",
                "chmod 600",
            ),
            (
                Facts {
                    token_mode: None,
                    ..healthy()
                },
                "token file mode",
                "bua-bridge serve",
            ),
        ];
        for (facts, name, fix) in cases {
            let failed = failed(&facts);
            let hit = failed.iter().find(|(n, _)| *n == name);
            assert!(
                hit.is_some_and(|(_, f)| f.contains(fix)),
                "{name}: {failed:?}"
            );
        }
    }
}
