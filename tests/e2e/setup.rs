//! A person's machine (SPEC §11; `crates/bridge/src/setup/`): `bua-bridge install` registers the pairing host,
//! the extension is loaded from the folder `bua-bridge extension` wrote, `bua-bridge serve` runs — and the
//! extension pairs with no token entered; an MCP client's first `open_tab` + `extract` work; `uninstall`
//! removes every file `install` wrote. All under a temporary `HOME`, with a headed Chromium on its own Xvfb
//! display (headless when Xvfb is missing), as a person would start it: its default profile, no DevTools.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::{bridge_bin, note, FixtureServer, McpStdio, Permit, OFFLINE_RESOLVER_RULES};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// `bua-bridge <args>` with `HOME` = `home` (and no XDG overrides); its stdout. Panics when it fails.
fn bua(home: &Path, args: &[&str]) -> String {
    bua_with(&bridge_bin(), home, args)
}

/// [`bua`] with the binary `bin`.
fn bua_with(bin: &Path, home: &Path, args: &[&str]) -> String {
    let out = Command::new(bin)
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("CODEX_HOME")
        .output()
        .expect("run bua-bridge");
    assert!(
        out.status.success(),
        "bua-bridge {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The paths of the `<verb> <path>` lines `install`/`uninstall` print.
fn listed(stdout: &str, verb: &str) -> Vec<PathBuf> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("{verb} ")))
        .map(PathBuf::from)
        .collect()
}

/// Processes killed (their whole group) on drop: Xvfb, Chromium, the bridge.
struct Group(Vec<Child>);

impl Drop for Group {
    fn drop(&mut self) {
        for child in self.0.iter_mut().rev() {
            if let Ok(pid) = i32::try_from(child.id()) {
                let _ = nix::sys::signal::killpg(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts Xvfb on a free display; `None` when it is not installed.
fn xvfb() -> Option<(Child, String)> {
    use std::os::unix::process::CommandExt;
    let bin = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]
        .into_iter()
        .find(|p| Path::new(p).exists())?;
    let display = (200..300).find(|n| {
        !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
            && !Path::new(&format!("/tmp/.X{n}-lock")).exists()
    })?;
    let child = Command::new(bin)
        .args([
            &format!(":{display}"),
            "-screen",
            "0",
            "1280x800x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("start Xvfb");
    let socket = format!("/tmp/.X11-unix/X{display}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !Path::new(&socket).exists() {
        assert!(Instant::now() < deadline, "Xvfb :{display} did not come up");
        std::thread::sleep(Duration::from_millis(50));
    }
    Some((child, format!(":{display}")))
}

#[test]
fn install_then_the_written_extension_and_serve_pair_without_a_token_and_uninstall_removes_every_file(
) {
    pairs_without_a_token(&bridge_bin(), bua_bridge::setup::extension::is_embedded());
}

/// A release (SPEC §11 "Release"): the archive `./build.sh release` made
/// (`BUA_RELEASE_ARCHIVE=target/release/bua-<version>-<os>-<arch>.tar.gz`), unpacked into an empty folder: its
/// sums hold, its SKILL.md is its binary's, and that binary alone — no repository beside it — writes the
/// extension it carries, pairs and serves. Ignored by default: the release build takes minutes.
#[test]
#[ignore = "needs BUA_RELEASE_ARCHIVE from ./build.sh release"]
fn the_release_archive_alone_writes_its_extension_pairs_and_serves() {
    let archive = std::env::var_os("BUA_RELEASE_ARCHIVE")
        .map(PathBuf::from)
        .expect("BUA_RELEASE_ARCHIVE=<the .tar.gz ./build.sh release made>");
    let dir = tempfile::tempdir().expect("temp dir");
    let unpacked = Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .args(["--strip-components=1", "-C"])
        .arg(dir.path())
        .status()
        .expect("tar");
    assert!(unpacked.success());
    let sums = Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(dir.path())
        .output()
        .expect("sha256sum");
    assert!(
        sums.status.success(),
        "{}",
        String::from_utf8_lossy(&sums.stdout)
    );
    let bin = dir.path().join("bua-bridge");
    let home = tempfile::tempdir().expect("temp home");
    let skill = bua_with(&bin, home.path(), &["skill"]);
    let shipped = std::fs::read_to_string(dir.path().join("SKILL.md")).expect("SKILL.md");
    assert_eq!(shipped.trim_end(), skill.trim_end());
    pairs_without_a_token(&bin, true);
}

/// install → the extension `bin extension` wrote (`embedded`: carried by `bin`, else copied from `dist/`) → serve → an MCP client's open_tab + extract → doctor →
/// uninstall, all with the binary `bin` under a fresh HOME.
fn pairs_without_a_token(bin: &Path, embedded: bool) {
    use std::os::unix::process::CommandExt;
    let home = tempfile::tempdir().expect("temp home");
    let home = home.path();
    let port = free_port();
    let port_s = port.to_string();

    // 1. install: the pairing host for Chromium (found: /usr/bin/chromium), listed file by file.
    let installed = bua_with(bin, home, &["install", "--port", &port_s]);
    let written = listed(&installed, "wrote");
    let host = home.join(".config/chromium/NativeMessagingHosts/com.bua.bridge.json");
    assert!(written.contains(&host), "{installed}");
    for file in &written {
        assert!(file.is_file(), "{} listed but missing", file.display());
    }
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(&host).expect("host manifest")).expect("JSON");
    assert_eq!(
        manifest["allowed_origins"],
        json!(["chrome-extension://obbcebjpclnphmijagoggibdnbknjkao/"])
    );
    assert_eq!(
        Path::new(manifest["path"].as_str().unwrap_or_default()),
        bin.canonicalize().expect("bridge path")
    );
    assert!(
        !home.join(".config/bua/token").exists(),
        "no token is pasted or pre-made"
    );

    // 2. The extension, written by the binary.
    let ext = home.join("bua-extension");
    let wrote = bua_with(
        bin,
        home,
        &["extension", "--out", ext.to_str().unwrap_or_default()],
    );
    let from = if embedded {
        "(carried by this binary)"
    } else {
        "(copied from"
    };
    assert!(wrote.contains(from), "{wrote}");
    assert!(ext.join("manifest.json").is_file());

    // 3. Chromium as the person starts it (its default profile under HOME), the extension loaded from there.
    let _permit = Permit::acquire();
    let mut group = Group(Vec::new());
    let display = xvfb().map(|(child, display)| {
        group.0.push(child);
        display
    });
    let mut chromium = Command::new("/usr/bin/chromium");
    chromium
        .args([
            "--no-sandbox",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
        ])
        .arg(format!(
            "--disable-features={}",
            bua_bridge::launch::DISABLED_FEATURES.join(",")
        ))
        .arg(format!("--host-resolver-rules={OFFLINE_RESOLVER_RULES}"))
        .arg(format!("--load-extension={}", ext.display()))
        .arg("about:blank")
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    match &display {
        Some(d) => {
            chromium.env("DISPLAY", d);
        }
        None => {
            note("Xvfb not installed: the pairing check runs headless");
            chromium.arg("--headless=new");
        }
    }
    group.0.push(chromium.spawn().expect("start Chromium"));

    // 4. serve, on the port install named; its token file is the one the host answers with.
    let started = Instant::now();
    let serve = Command::new(bin)
        .args(["serve", "--port", &port_s])
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("start serve");
    group.0.push(serve);

    // 5. An MCP client's first open_tab + extract: the extension paired by itself.
    let token_file = home.join(".config/bua/token");
    let mut mcp = McpStdio::spawn_bin(
        bin,
        &[
            "--port",
            &port_s,
            "--no-serve",
            "--token-file",
            token_file.to_str().unwrap_or_default(),
            "--extension-wait",
            "30",
        ],
        Stdio::null(),
    );
    mcp.initialize("setup-test");
    let page = FixtureServer::shared().url("/clients/mcp.html");
    let (failed, opened) = mcp.browser(json!({"type": "open_tab", "url": page}));
    assert!(!failed, "open_tab: {opened}");
    let tab = serde_json::from_str::<Value>(opened.lines().next().unwrap_or_default())
        .ok()
        .and_then(|v| v["tabId"].as_i64())
        .expect("tabId");
    let (failed, read) = mcp.browser(json!({"type": "extract", "tabId": tab}));
    assert!(!failed, "extract: {read}");
    assert!(read.contains("button \"Count\""), "{read}");
    note(&format!(
        "install → extension → serve → paired, open_tab + extract through MCP: {:.1} s ({})",
        started.elapsed().as_secs_f64(),
        if display.is_some() {
            "headed, Xvfb"
        } else {
            "headless"
        }
    ));
    // doctor sees the whole chain working: every check passes (exit 0).
    let doctor = Command::new(bin)
        .args(["doctor", "--port", &port_s])
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .output()
        .expect("doctor");
    let said = String::from_utf8_lossy(&doctor.stdout);
    assert!(doctor.status.success(), "{said}");
    assert!(
        said.contains("ok    extension loaded: obbcebjpclnphmijagoggibdnbknjkao version"),
        "{said}"
    );
    mcp.exit();

    // 6. The bridge comes back with another token (its token file was deleted): the extension, rejected, asks
    //    the host again and pairs by itself, with nothing pasted (SPEC §11).
    if let Some(mut serve) = group.0.pop() {
        let _ = serve.kill();
        let _ = serve.wait();
    }
    std::fs::remove_file(&token_file).expect("remove the token file");
    let restarted = Instant::now();
    let serve = Command::new(bin)
        .args(["serve", "--port", &port_s])
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("start serve again");
    group.0.push(serve);
    let repaired = (0..60).find_map(|_| {
        std::thread::sleep(Duration::from_millis(500));
        let out = Command::new(bin)
            .args(["doctor", "--port", &port_s])
            .env("HOME", home)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .output()
            .ok()?;
        out.status.success().then_some(())
    });
    assert!(
        repaired.is_some(),
        "the extension did not pair again with the new token within 30 s"
    );
    note(&format!(
        "paired again after the bridge's token changed: {:.1} s",
        restarted.elapsed().as_secs_f64()
    ));
    drop(group);

    // 6. uninstall removes every file install wrote (and its folders), and nothing else.
    let removed = bua_with(bin, home, &["uninstall"]);
    for file in &written {
        assert!(!file.exists(), "{} left behind: {removed}", file.display());
        assert!(listed(&removed, "removed").contains(file), "{removed}");
    }
    assert!(!home.join(".config/chromium/NativeMessagingHosts").exists());
    assert!(
        token_file.exists(),
        "the bridge's token is not install's to remove"
    );
    assert!(
        ext.join("manifest.json").exists(),
        "nor the extension folder"
    );
}

#[test]
fn the_skill_names_every_action_installs_for_claude_code_and_codex_and_mcp_config_snippets_parse() {
    let home = tempfile::tempdir().expect("temp home");
    let home = home.path();
    let skill = bua(home, &["skill"]);
    for name in bua_protocol::action_names() {
        assert!(skill.contains(&format!("\n- `{name}(")), "{name}");
    }
    // Every `bua-bridge <command>` the prose names is a subcommand of this binary.
    let commands: Vec<String> = skill
        .lines()
        .filter_map(|l| l.strip_prefix("- `bua-bridge "))
        .filter_map(|l| l.split('`').next())
        .map(str::to_owned)
        .collect();
    assert!(commands.len() > 20, "{commands:?}");
    for (i, _) in skill.match_indices("`bua-bridge ") {
        let word: String = skill[i + 12..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '-')
            .collect();
        assert!(
            commands.contains(&word),
            "`bua-bridge {word}` is no subcommand"
        );
    }
    let installed = bua(home, &["install", "--skills", "--no-native-host"]);
    for dir in [".claude/skills", ".codex/skills"] {
        let file = home.join(dir).join("bua-browser/SKILL.md");
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        assert_eq!(text.trim_end(), skill.trim_end(), "{installed}");
    }
    let cursor: Value = serde_json::from_str(&bua(home, &["mcp-config", "cursor"])).expect("JSON");
    assert_eq!(cursor["mcpServers"]["browser"]["args"], json!(["mcp"]));
    let codex: toml::Value = toml::from_str(&bua(home, &["mcp-config", "codex"])).expect("TOML");
    assert_eq!(
        Path::new(
            codex["mcp_servers"]["browser"]["command"]
                .as_str()
                .unwrap_or_default()
        ),
        bridge_bin().canonicalize().expect("bridge path")
    );
    bua(home, &["uninstall"]);
    assert!(!home.join(".claude").exists() && !home.join(".codex").exists());
}

/// `bua-bridge doctor` under `home` on `port`: (exit code, output).
fn doctor(home: &Path, port: u16, extra: &[&str]) -> (i32, String) {
    let out = Command::new(bridge_bin())
        .args(["doctor", "--port", &port.to_string()])
        .args(extra)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("BUA_PORT")
        .output()
        .expect("doctor");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The `FAIL  <name>: …` line of `output` and the `fix:` line under it.
fn failure_of(output: &str, name: &str) -> Option<String> {
    let mut lines = output.lines();
    let head = lines.find(|l| l.starts_with(&format!("FAIL  {name}: ")))?;
    Some(format!("{head}\n{}", lines.next().unwrap_or_default()))
}

#[test]
fn doctor_names_each_broken_state_with_its_fix_and_exits_1() {
    let home = tempfile::tempdir().expect("temp home");
    let home = home.path();
    let port = free_port();

    // No browser: nothing on PATH, no browser data under HOME.
    let empty = home.join("empty-path");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let out = Command::new(bridge_bin())
        .args(["doctor", "--port", &port.to_string()])
        .env("HOME", home)
        .env("PATH", &empty)
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .expect("doctor");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let none = failure_of(&said, "browsers found").expect("no browser");
    assert!(none.contains("fix: install one"), "{none}");

    // No pairing host, no token, bridge down.
    let (code, out) = doctor(home, port, &[]);
    assert_eq!(code, 1, "{out}");
    let host = failure_of(&out, "native host registered").expect("no host");
    assert!(host.contains("fix: run `bua-bridge install`"), "{host}");
    let down = failure_of(&out, "bridge running").expect("bridge down");
    assert!(
        down.contains(&format!("fix: start it: `bua-bridge serve --port {port}`")),
        "{down}"
    );
    assert!(
        out.contains(&format!("ok    port free: {port} is free")),
        "{out}"
    );

    // A busy port: something that is not a bridge answers there.
    let busy = std::net::TcpListener::bind(("127.0.0.1", 0)).expect("bind");
    let busy_port = busy.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for stream in busy.incoming().flatten().take(4) {
            let mut stream = stream;
            let mut buf = [0u8; 1024];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
        }
    });
    let (code, out) = doctor(home, busy_port, &[]);
    assert_eq!(code, 1, "{out}");
    let held = failure_of(&out, "port free").expect("busy port");
    assert!(
        held.contains("fix: stop that program, or run `bua-bridge serve --port N`"),
        "{held}"
    );

    // A bridge with its own token: doctor's token file is refused; with the right one, no extension.
    bua(home, &["install", "--port", &port.to_string()]);
    let other = home.join("other-token");
    let mut serve = Group(vec![{
        use std::os::unix::process::CommandExt;
        Command::new(bridge_bin())
            .args(["serve", "--port", &port.to_string(), "--token-file"])
            .arg(&other)
            .env("HOME", home)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("serve")
    }]);
    // Its banner says it listens.
    if let Some(stdout) = serve.0[0].stdout.take() {
        use std::io::BufRead;
        let mut lines = std::io::BufReader::new(stdout).lines();
        assert!(lines
            .next()
            .and_then(Result::ok)
            .is_some_and(|l| l.contains("listening")));
        std::thread::spawn(move || lines.for_each(drop));
    }
    std::fs::write(home.join("wrong-token"), "0".repeat(64)).expect("token");
    let wrong = home.join("wrong-token");
    let (code, out) = doctor(
        home,
        port,
        &["--token-file", wrong.to_str().unwrap_or_default()],
    );
    assert_eq!(code, 1, "{out}");
    let refused = failure_of(&out, "pairing accepted").expect("wrong token");
    assert!(
        refused.contains("fix: the bridge runs with another token"),
        "{refused}"
    );
    let mode = failure_of(&out, "token file mode").expect("mode 0644");
    assert!(
        mode.contains(&format!("fix: chmod 600 {}", wrong.display())),
        "{mode}"
    );

    let (code, out) = doctor(
        home,
        port,
        &["--token-file", other.to_str().unwrap_or_default()],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("ok    native host registered: com.bua.bridge for Chromium"),
        "{out}"
    );
    assert!(out.contains("ok    pairing accepted"), "{out}");
    let missing = failure_of(&out, "extension loaded").expect("no extension");
    assert!(
        missing.contains("fix: run `bua-bridge extension`"),
        "{missing}"
    );
    drop(serve);
    bua(home, &["uninstall"]);
}
