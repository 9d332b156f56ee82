//! Setting BUA up on a person's machine (SPEC §11): the skill file for coding agents ([`skill`]), MCP host
//! snippets ([`mcp_config`]), the extension this binary carries ([`extension`]), the native-messaging host
//! that pairs it ([`native_host`], for the [`browsers`] found), `install` / `uninstall` ([`install`], with the
//! [`record`] of what was written) and `doctor` ([`doctor`]).
//!
//! Every path is resolved from one [`Paths`] (the user's home and XDG folders), so tests point it at a
//! temporary home.

pub mod browsers;
pub mod doctor;
pub mod extension;
pub mod install;
pub mod mcp_config;
pub mod native_host;
pub mod record;
pub mod skill;

use std::path::PathBuf;

use crate::error::{Error, Result};

/// Where the per-user files go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// `$HOME`.
    pub home: PathBuf,
    /// `$XDG_DATA_HOME`, else `$HOME/.local/share`.
    pub data: PathBuf,
    /// `$XDG_CONFIG_HOME`, else `$HOME/.config`.
    pub config: PathBuf,
}

impl Paths {
    /// From `$HOME`, `$XDG_DATA_HOME`, `$XDG_CONFIG_HOME`.
    ///
    /// Errors: `$HOME` is not set.
    pub fn from_env() -> Result<Paths> {
        let var = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let home = var("HOME").ok_or_else(|| {
            Error::Install("HOME is not set: set it to your home folder and run this again".into())
        })?;
        Ok(Paths {
            data: var("XDG_DATA_HOME").unwrap_or_else(|| home.join(".local/share")),
            config: var("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config")),
            home,
        })
    }

    /// BUA's own data folder: `<data>/bua`.
    pub fn bua_data(&self) -> PathBuf {
        self.data.join("bua")
    }

    /// The record of what `install` wrote: `<data>/bua/installed.json`.
    pub fn record(&self) -> PathBuf {
        self.bua_data().join("installed.json")
    }

    /// What the native-messaging host answers with: `<config>/bua/native-host.json`.
    pub fn host_config(&self) -> PathBuf {
        self.config.join("bua").join("native-host.json")
    }

    /// The default token file: `<config>/bua/token` (as [`crate::token::default_path`]).
    pub fn token_file(&self) -> PathBuf {
        self.config.join("bua").join("token")
    }

    /// The default folder of `bua-bridge extension`: `<data>/bua/extension`.
    pub fn extension(&self) -> PathBuf {
        self.bua_data().join("extension")
    }
}
