//! Downloads (SPEC §4 `downloads`; `src/actions/downloads.rs`).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{url, Agent};
use crate::support::{self, FixtureServer};

#[tokio::test]
async fn a_downloading_click_reports_the_download_and_downloads_waits_for_it() {
    // Names unique to this run: a leftover of an older build (which saved into ~/Downloads) cannot match.
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let (export_name, csv_name) = (format!("export-{run}.txt"), format!("report-{run}.csv"));
    let server = FixtureServer::shared();
    let body: String = (0..3000).map(|i| format!("row {i}\n")).collect();
    let csv_body = std::fs::read_to_string(support::fixtures_dir().join("actions/report.csv"))
        .expect("report.csv");
    server.route(
        &format!("/actions/{csv_name}"),
        support::Route::Response {
            status: 200,
            content_type: "text/csv".into(),
            body: csv_body.clone(),
            headers: Vec::new(),
        },
    );
    server.route(
        "/actions/export",
        support::Route::Response {
            status: 200,
            content_type: "text/plain".into(),
            body: body.clone(),
            headers: vec![(
                "Content-Disposition".into(),
                format!("attachment; filename=\"{export_name}\""),
            )],
        },
    );
    let (a, tab) = Agent::with_page("dialogs.html").await;
    let started = Instant::now();
    let r = a.click(tab, "#export").await;
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let export = &r["downloads"][0];
    assert_eq!(export["filename"], export_name.as_str(), "{r}");
    assert!(
        r.get("navigated").is_none(),
        "a download is no navigation: {r}"
    );
    a.eval(
        tab,
        &format!("document.getElementById('csv').href = {csv_name:?}; return 1"),
    )
    .await;
    let r = a.click(tab, "#csv").await;
    let csv = &r["downloads"][0];
    assert_eq!(csv["filename"], csv_name.as_str(), "{r}");
    let listed = a.act(tab, "downloads", json!({ "waitMs": 10000 })).await;
    let listed = listed["downloads"].as_array().cloned().unwrap_or_default();
    assert_eq!(listed.len(), 2, "{listed:?}");
    let find = |id: &Value| {
        listed
            .iter()
            .find(|d| d["id"] == *id)
            .cloned()
            .expect("listed")
    };
    let e = find(&export["id"]);
    assert_eq!(e["state"], "complete", "{e}");
    assert_eq!(e["bytes"], body.len());
    assert_eq!(e["url"], url("export"));
    assert_eq!(e["tabId"], tab);
    let c = find(&csv["id"]);
    assert_eq!(c["state"], "complete", "{c}");
    assert_eq!(c["bytes"], csv_body.len());
    assert_eq!(c["mime"], "text/csv");
    // Both files are in the launch's own download folder, inside its throw-away profile, and nothing
    // reached the machine's ~/Downloads (SPEC §11).
    let folder = &a.browser.download_dir;
    assert!(
        folder.starts_with(&a.browser.profile_dir),
        "{}",
        folder.display()
    );
    for (name, size) in [(&export_name, body.len()), (&csv_name, csv_body.len())] {
        let saved = std::fs::metadata(folder.join(name)).map(|m| m.len() as usize);
        assert_eq!(saved.ok(), Some(size), "{name} in {}", folder.display());
        if let Some(home) = std::env::var_os("HOME") {
            let stray = std::path::Path::new(&home).join("Downloads").join(name);
            assert!(!stray.exists(), "{} exists", stray.display());
        }
    }
    // Another agent does not see them.
    let other = Agent::new().await;
    let theirs = other.ok("downloads", json!({})).await;
    assert_eq!(theirs["downloads"], json!([]));
    a.close(tab).await;
}
