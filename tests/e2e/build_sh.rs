//! `./build.sh prereqs [demo|test]`, the set-up step of the README's two commands, on a machine that lacks
//! what they need: each case runs the real `build.sh` with a `PATH` that holds every program of this machine
//! except Chromium, Xvfb, openbox, `sudo` and `apt-get`, plus stubs that record their arguments. Nothing is
//! installed: the stub `apt-get` only writes down what it was asked for, so the step then stops, saying what is
//! still missing.

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Programs the fake machine does not have (the stubs below replace some of them).
const HIDDEN: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome",
    "Xvfb",
    "openbox",
    "sudo",
    "apt-get",
    "id",
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// A fake machine: `bin/` with a link to every program on this machine's `PATH` but [`HIDDEN`], an `id` that
/// answers `uid`, an `apt-get` stub, and a `sudo` stub when `with_sudo`. Both stubs append their arguments
/// as one line to `calls.log`.
struct Machine {
    dir: tempfile::TempDir,
}

impl Machine {
    fn new(uid: u32, with_sudo: bool) -> Machine {
        let dir = tempfile::tempdir().expect("temp dir");
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).expect("bin");
        let path = std::env::var_os("PATH").unwrap_or_default();
        for folder in std::env::split_paths(&path) {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(text) = name.to_str() else { continue };
                if HIDDEN.contains(&text) || bin.join(&name).exists() {
                    continue;
                }
                let _ = symlink(entry.path(), bin.join(&name));
            }
        }
        let log = dir.path().join("calls.log");
        let stub = |name: &str, body: &str| {
            let file = bin.join(name);
            std::fs::write(&file, format!("#!/bin/sh\n{body}\n")).expect("write stub");
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        };
        stub(
            "id",
            &format!("[ \"$1\" = -u ] && echo {uid} || echo uid={uid}"),
        );
        stub(
            "apt-get",
            &format!("echo \"apt-get $*\" >> '{}'", log.display()),
        );
        if with_sudo {
            stub(
                "sudo",
                &format!("echo \"sudo $*\" >> '{}'\nexec \"$@\"", log.display()),
            );
        }
        Machine { dir }
    }

    /// Runs `bash build.sh prereqs <mode>` with only the fake machine's programs on `PATH`.
    fn prereqs(&self, mode: &str) -> Output {
        Command::new("/bin/bash")
            .arg(repo_root().join("build.sh"))
            .args(["prereqs", mode])
            .env("PATH", self.dir.path().join("bin"))
            .env_remove("SUDO_USER")
            .output()
            .expect("run build.sh")
    }

    /// The recorded stub calls, one per line.
    fn calls(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("calls.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

/// Runs `build.sh prereqs <mode>` on a fresh fake machine; its output and the stub calls it made.
fn prereqs_on(uid: u32, with_sudo: bool, mode: &str) -> (Output, Vec<String>) {
    let machine = Machine::new(uid, with_sudo);
    let output = machine.prereqs(mode);
    (output, machine.calls())
}

/// The words of the recorded `apt-get install` call (panics when there is none).
fn install_words(calls: &[String]) -> Vec<String> {
    let line = calls
        .iter()
        .find(|c| c.starts_with("apt-get install"))
        .unwrap_or_else(|| panic!("no apt-get install among {calls:?}"));
    line.split_whitespace().map(str::to_owned).collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn test_as_root_installs_chromium_xvfb_and_openbox_with_apt_get() {
    let (output, calls) = prereqs_on(0, false, "test");
    assert_eq!(
        calls.first().map(String::as_str),
        Some("apt-get update -qq"),
        "{calls:?}"
    );
    let words = install_words(&calls);
    for package in ["chromium", "xvfb", "openbox"] {
        assert!(words.iter().any(|w| w == package), "{package}: {words:?}");
    }
    assert!(
        words.iter().any(|w| w == "-y"),
        "non-interactive: {words:?}"
    );
    // The stub installed nothing, so the step stops and names what is still missing.
    assert!(!output.status.success(), "{}", stderr(&output));
    let err = stderr(&output);
    assert!(
        err.contains("Still missing after the install: chromium Xvfb openbox"),
        "{err}"
    );
}

#[test]
fn demo_as_root_installs_chromium_only() {
    let (output, calls) = prereqs_on(0, false, "demo");
    let words = install_words(&calls);
    assert!(words.iter().any(|w| w == "chromium"), "{words:?}");
    for package in ["xvfb", "openbox", "python3-venv"] {
        assert!(!words.iter().any(|w| w == package), "{package}: {words:?}");
    }
    assert!(!output.status.success());
}

#[test]
fn test_as_a_user_with_sudo_installs_through_sudo_and_says_so() {
    let (output, calls) = prereqs_on(1000, true, "test");
    assert!(
        calls
            .iter()
            .any(|c| c.starts_with("sudo env DEBIAN_FRONTEND=noninteractive apt-get install")),
        "{calls:?}"
    );
    let words = install_words(&calls);
    for package in ["chromium", "xvfb"] {
        assert!(words.iter().any(|w| w == package), "{package}: {words:?}");
    }
    let err = stderr(&output);
    assert!(err.contains("with sudo apt-get"), "{err}");
}

#[test]
fn test_as_a_user_without_sudo_stops_with_the_command_to_run_as_root() {
    let (output, calls) = prereqs_on(1000, false, "test");
    assert!(calls.is_empty(), "{calls:?}");
    assert!(!output.status.success());
    let err = stderr(&output);
    assert!(
        err.contains(
            "apt-get update && apt-get install -y --no-install-recommends chromium xvfb openbox"
        ),
        "{err}"
    );
    assert!(err.contains("Install them as root"), "{err}");
}
