//! The Chromium-family browsers of this user and where each reads its user-level native-messaging host
//! manifests (SPEC §11 "Pairing without pasting"). Pure: the caller says which paths exist and which
//! programs are installed.

use std::path::{Path, PathBuf};

/// A Chromium-family browser `install` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Browser {
    /// Its name for people.
    pub name: &'static str,
    /// Its user data folder under `~/.config` (Linux).
    linux_dir: &'static str,
    /// Its user data folder under `~/Library/Application Support` (macOS).
    mac_dir: &'static str,
    /// Its programs (Linux: on `PATH` or in `/usr/bin`; macOS: the app under `/Applications`).
    programs: &'static [&'static str],
    mac_app: &'static str,
}

/// Chrome, Chromium, Brave, Edge.
pub const BROWSERS: [Browser; 4] = [
    Browser {
        name: "Google Chrome",
        linux_dir: "google-chrome",
        mac_dir: "Google/Chrome",
        programs: &["google-chrome", "google-chrome-stable"],
        mac_app: "Google Chrome.app",
    },
    Browser {
        name: "Chromium",
        linux_dir: "chromium",
        mac_dir: "Chromium",
        programs: &["chromium", "chromium-browser"],
        mac_app: "Chromium.app",
    },
    Browser {
        name: "Brave",
        linux_dir: "BraveSoftware/Brave-Browser",
        mac_dir: "BraveSoftware/Brave-Browser",
        programs: &["brave-browser", "brave"],
        mac_app: "Brave Browser.app",
    },
    Browser {
        name: "Microsoft Edge",
        linux_dir: "microsoft-edge",
        mac_dir: "Microsoft Edge",
        programs: &["microsoft-edge", "microsoft-edge-stable"],
        mac_app: "Microsoft Edge.app",
    },
];

/// The operating systems with user-level native-messaging folders `install` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// `~/.config/<browser>/NativeMessagingHosts`.
    Linux,
    /// `~/Library/Application Support/<browser>/NativeMessagingHosts`.
    Mac,
}

impl Os {
    /// This machine's, if `install` supports it.
    pub fn current() -> Option<Os> {
        match std::env::consts::OS {
            "linux" => Some(Os::Linux),
            "macos" => Some(Os::Mac),
            _ => None,
        }
    }
}

impl Browser {
    /// The browser's default user data folder.
    pub fn data_dir(&self, os: Os, home: &Path, config: &Path) -> PathBuf {
        match os {
            Os::Linux => config.join(self.linux_dir),
            Os::Mac => home.join("Library/Application Support").join(self.mac_dir),
        }
    }

    /// Where it reads user-level host manifests: `<data dir>/NativeMessagingHosts`.
    pub fn hosts_dir(&self, os: Os, home: &Path, config: &Path) -> PathBuf {
        self.data_dir(os, home, config).join("NativeMessagingHosts")
    }
}

/// The browsers found for this user: its user data folder exists (it ran here) or its program is installed.
/// `exists` answers for a path; `installed` for a program name (Linux) or an app bundle (macOS).
pub fn found(
    os: Os,
    home: &Path,
    config: &Path,
    exists: impl Fn(&Path) -> bool,
    installed: impl Fn(&str) -> bool,
) -> Vec<Browser> {
    BROWSERS
        .iter()
        .filter(|b| {
            exists(&b.data_dir(os, home, config))
                || match os {
                    Os::Linux => b.programs.iter().any(|p| installed(p)),
                    Os::Mac => installed(b.mac_app),
                }
        })
        .copied()
        .collect()
}

/// Whether `program` is installed: on `PATH`, or, for a `.app`, in `/Applications` or `~/Applications`.
pub fn is_installed(program: &str, home: &Path) -> bool {
    if program.ends_with(".app") {
        return Path::new("/Applications").join(program).exists()
            || home.join("Applications").join(program).exists();
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| dir.join(program).is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browser_is_found_by_its_data_folder_or_its_program_with_linux_and_mac_paths() {
        let (home, config) = (Path::new("/h"), Path::new("/h/.config"));
        let linux = found(
            Os::Linux,
            home,
            config,
            |p| p == Path::new("/h/.config/BraveSoftware/Brave-Browser"),
            |p| p == "chromium",
        );
        let names: Vec<&str> = linux.iter().map(|b| b.name).collect();
        assert_eq!(names, ["Chromium", "Brave"]);
        assert_eq!(
            linux[0].hosts_dir(Os::Linux, home, config),
            Path::new("/h/.config/chromium/NativeMessagingHosts")
        );
        let mac = found(
            Os::Mac,
            home,
            config,
            |_| false,
            |app| app == "Google Chrome.app",
        );
        assert_eq!(
            mac[0].hosts_dir(Os::Mac, home, config),
            Path::new("/h/Library/Application Support/Google/Chrome/NativeMessagingHosts")
        );
        assert!(found(Os::Linux, home, config, |_| false, |_| false).is_empty());
    }
}
