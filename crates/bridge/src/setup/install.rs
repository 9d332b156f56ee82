//! `bua-bridge install` and `uninstall` (SPEC §11 "Install"): registers the native-messaging host with each
//! Chromium-family browser found for this user (pairing without pasting), writes the skill file where coding
//! agents look for skills, records every file written, and removes exactly those on `uninstall`.

use std::path::PathBuf;

use super::browsers::{self, Browser, Os};
use super::native_host::{host_manifest, HostConfig, HOST_NAME};
use super::record::{remove_all, write_file, Record};
use super::skill::SKILL_NAME;
use super::Paths;
use crate::error::Result;

/// The native-messaging host to register.
#[derive(Debug, Clone)]
pub struct NativeHost {
    /// This binary, absolute (the manifest's `path`: Chrome starts it as the host).
    pub bridge: PathBuf,
    /// What the host answers with.
    pub config: HostConfig,
    /// The browsers to register it with ([`browsers::found`]).
    pub browsers: Vec<Browser>,
    /// The operating system whose folders to use.
    pub os: Os,
}

impl NativeHost {
    /// For the browsers found on this machine (`None` on an OS without user-level host folders).
    pub fn for_this_user(bridge: PathBuf, config: HostConfig, paths: &Paths) -> Option<NativeHost> {
        let os = Os::current()?;
        let browsers = browsers::found(
            os,
            &paths.home,
            &paths.config,
            |p| p.is_dir(),
            |program| browsers::is_installed(program, &paths.home),
        );
        Some(NativeHost {
            bridge,
            config,
            browsers,
            os,
        })
    }
}

/// Where `install --skills` puts the skill file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillsTarget {
    /// Where Claude Code (`~/.claude/skills`) and Codex (`$CODEX_HOME/skills`, default `~/.codex/skills`)
    /// look for a user's skills.
    AgentDefaults,
    /// `<DIR>/bua-browser/SKILL.md`.
    Dir(PathBuf),
}

/// What `install` does.
#[derive(Debug, Clone)]
pub struct InstallOptions {
    /// Write the skill file, and where.
    pub skills: Option<SkillsTarget>,
    /// The SKILL.md text (`bua-bridge skill`).
    pub skill_text: String,
    /// Register the native-messaging host.
    pub native_host: Option<NativeHost>,
}

/// The skills folders for `target` under `paths`: each gets `bua-browser/SKILL.md`.
pub fn skills_dirs(target: &SkillsTarget, paths: &Paths) -> Vec<PathBuf> {
    match target {
        // Recorded absolute, so `uninstall` run from another folder removes this one's file, not a namesake.
        SkillsTarget::Dir(dir) => vec![std::path::absolute(dir).unwrap_or_else(|_| dir.clone())],
        SkillsTarget::AgentDefaults => {
            let codex = std::env::var_os("CODEX_HOME")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .unwrap_or_else(|| paths.home.join(".codex"));
            vec![paths.home.join(".claude/skills"), codex.join("skills")]
        }
    }
}

/// Installs what `opts` asks for and returns every file written (the record last). Files written by an
/// earlier `install` stay in the record.
///
/// Errors: a folder or file cannot be written, or the record cannot be read.
pub fn install(opts: &InstallOptions, paths: &Paths) -> Result<Vec<PathBuf>> {
    let record_path = paths.record();
    let mut record = Record::load(&record_path)?;
    let mut written = Vec::new();
    if let Some(host) = &opts.native_host {
        let manifest = serde_json::to_vec_pretty(&host_manifest(&host.bridge))?;
        for browser in &host.browsers {
            let dir = browser.hosts_dir(host.os, &paths.home, &paths.config);
            let file = dir.join(format!("{HOST_NAME}.json"));
            written.push(write_file(&file, &manifest, &mut record)?);
        }
        let config = serde_json::to_vec_pretty(&host.config)?;
        written.push(write_file(&paths.host_config(), &config, &mut record)?);
    }
    if let Some(target) = &opts.skills {
        for dir in skills_dirs(target, paths) {
            let file = dir.join(SKILL_NAME).join("SKILL.md");
            written.push(write_file(&file, opts.skill_text.as_bytes(), &mut record)?);
        }
    }
    record.save(&record_path)?;
    written.push(record_path);
    Ok(written)
}

/// Removes every file `install` recorded (and the folders it created, when empty); returns what was
/// removed. Nothing recorded: nothing removed.
///
/// Errors: the record cannot be read, or a recorded file cannot be removed.
pub fn uninstall(paths: &Paths) -> Result<Vec<PathBuf>> {
    let record = Record::load(&paths.record())?;
    remove_all(&record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_registers_the_host_with_each_browser_found_and_uninstall_removes_it() {
        let home = tempfile::tempdir().expect("tempdir");
        let paths = paths(home.path());
        let browsers = browsers::found(
            Os::Linux,
            &paths.home,
            &paths.config,
            |_| false,
            |p| p == "chromium" || p == "google-chrome",
        );
        let host = NativeHost {
            bridge: "/opt/bua-bridge".into(),
            config: HostConfig {
                url: "ws://127.0.0.1:9300".into(),
                token_file: paths.token_file(),
            },
            browsers,
            os: Os::Linux,
        };
        let opts = InstallOptions {
            skills: None,
            skill_text: String::new(),
            native_host: Some(host),
        };
        let written = install(&opts, &paths).expect("install");
        let chrome = home
            .path()
            .join(".config/google-chrome/NativeMessagingHosts/com.bua.bridge.json");
        let chromium = home
            .path()
            .join(".config/chromium/NativeMessagingHosts/com.bua.bridge.json");
        assert_eq!(
            written,
            vec![
                chrome.clone(),
                chromium.clone(),
                paths.host_config(),
                paths.record()
            ]
        );
        let manifest: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&chromium).expect("read")).expect("json");
        assert_eq!(manifest["path"], "/opt/bua-bridge");
        let config: HostConfig =
            serde_json::from_slice(&std::fs::read(paths.host_config()).expect("read"))
                .expect("config");
        assert_eq!(config.url, "ws://127.0.0.1:9300");
        uninstall(&paths).expect("uninstall");
        for file in &written {
            assert!(!file.exists(), "{}", file.display());
        }
        assert!(
            !home.path().join(".config").exists(),
            "{:?}",
            std::fs::read_dir(home.path()).map(|d| d.count())
        );
    }

    fn paths(home: &std::path::Path) -> Paths {
        Paths {
            home: home.to_path_buf(),
            data: home.join(".local/share"),
            config: home.join(".config"),
        }
    }

    #[test]
    fn install_skills_writes_where_claude_code_and_codex_look_and_uninstall_removes_every_file() {
        let home = tempfile::tempdir().expect("tempdir");
        let paths = paths(home.path());
        std::fs::create_dir_all(home.path().join(".claude")).expect("mkdir");
        let opts = InstallOptions {
            skills: Some(SkillsTarget::AgentDefaults),
            skill_text: "---\nname: bua-browser\n---\n".into(),
            native_host: None,
        };
        let written = install(&opts, &paths).expect("install");
        let claude = home.path().join(".claude/skills/bua-browser/SKILL.md");
        let codex = home.path().join(".codex/skills/bua-browser/SKILL.md");
        if std::env::var_os("CODEX_HOME").is_none() {
            assert_eq!(written, vec![claude.clone(), codex.clone(), paths.record()]);
            assert_eq!(
                std::fs::read_to_string(&codex).expect("codex"),
                opts.skill_text
            );
        }
        assert_eq!(
            std::fs::read_to_string(&claude).expect("claude"),
            opts.skill_text
        );
        let removed = uninstall(&paths).expect("uninstall");
        for file in &written {
            assert!(!file.exists(), "{} left", file.display());
            assert!(removed.contains(file), "{}", file.display());
        }
        // The folder that was there before stays; the ones install made go.
        assert!(home.path().join(".claude").exists());
        assert!(!home.path().join(".claude/skills").exists());
        assert!(!home.path().join(".local").exists());
    }

    #[test]
    fn install_skills_into_a_folder() {
        let home = tempfile::tempdir().expect("tempdir");
        let paths = paths(home.path());
        let dir = home.path().join("my-skills");
        let opts = InstallOptions {
            skills: Some(SkillsTarget::Dir(dir.clone())),
            skill_text: "s".into(),
            native_host: None,
        };
        install(&opts, &paths).expect("install");
        assert_eq!(
            std::fs::read_to_string(dir.join("bua-browser/SKILL.md")).expect("read"),
            "s"
        );
    }
}
