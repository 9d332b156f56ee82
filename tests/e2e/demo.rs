//! The main job end to end: `bua-bridge demo` plays the whole agent tour against the bundled demo site in real
//! headless Chromium and exits 0 only when every step did what it should.

use crate::support;

use std::process::Command;

#[test]
fn demo_tour_passes_every_step_and_saves_a_screenshot() {
    // `bua-bridge demo` runs a browser: one of the harness's two.
    let _slot = support::Permit::acquire();
    let root = support::repo_root();
    let out = tempfile::tempdir().expect("temp dir");
    let stdout = support::stdout_of(
        Command::new(support::bridge_bin())
            .arg("demo")
            .arg("--headless")
            .arg("--extension")
            .arg(support::dist_dir())
            .arg("--site")
            .arg(root.join("demo/site"))
            .arg("--out")
            .arg(out.path()),
        "bua-bridge demo",
    );
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(
        summary.starts_with("demo: 18 of 18 steps OK"),
        "summary: {summary}\n{stdout}"
    );
    assert!(stdout.contains("obstacle: auth_wall"), "{stdout}");
    assert!(stdout.contains("refused: domain_blocked"), "{stdout}");
    let png = std::fs::read(out.path().join("demo-screenshot.png")).expect("screenshot written");
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn demo_with_urls_opens_and_extracts_each_page() {
    let _slot = support::Permit::acquire();
    let site = support::FixtureServer::start(support::repo_root().join("demo/site"));
    let stdout = support::stdout_of(
        Command::new(support::bridge_bin())
            .args(["demo", "--headless", "--extension"])
            .arg(support::dist_dir())
            .arg(site.url("/shop.html"))
            .arg(site.url("/signin.html")),
        "bua-bridge demo",
    );
    assert!(stdout.contains("demo: 4 of 4 steps OK"), "{stdout}");
    assert!(stdout.contains("Lighthouse print"), "{stdout}");
    assert!(stdout.contains("obstacle auth_wall"), "{stdout}");
}
