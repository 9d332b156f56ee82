//! `bua-bridge demo`: the main job end to end, for a first look. Launches Chromium with the extension, serves the
//! bundled demo site on 127.0.0.1, and plays an agent's tour through the bridge's client API — printing a
//! transcript line per action (what was sent, a short summary of the result, its time) — then a summary line.
//! With URLs given, it runs `open_tab` + `extract` on each of them instead.
//!
//! Every step states what it expects; the demo exits 0 only if every step did what it should.

use crate::devtools::{self, DevTools};
use crate::launch::{self, LaunchOptions, Launched};
use crate::site::StaticSite;
use crate::{BridgeClient, Error, Result};
use bua_protocol::ErrorCode;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Settings of one demo run.
#[derive(Debug, Clone)]
pub struct DemoOptions {
    /// The built extension (`dist/`).
    pub extension_dir: PathBuf,
    /// The demo site (`demo/site`).
    pub site_dir: PathBuf,
    /// Where the screenshot is written.
    pub out_dir: PathBuf,
    /// Chromium binary (default: found like `launch` does).
    pub chrome: Option<PathBuf>,
    /// Headless, or a visible window.
    pub headless: bool,
    /// Pages to visit instead of the tour.
    pub urls: Vec<String>,
}

/// What one step expects of the bridge's answer.
type Check =
    Box<dyn FnOnce(std::result::Result<&Value, &Error>) -> std::result::Result<String, String>>;

/// The transcript and the tally.
struct Tour {
    client: BridgeClient,
    ok: usize,
    failed: usize,
    step: usize,
}

impl Tour {
    /// Sends one action, prints its transcript line, and returns the result when the check passed.
    async fn act(&mut self, method: &str, params: Value, check: Check) -> Option<Value> {
        self.step += 1;
        let shown = params.to_string();
        let shown = clip(&shown, 70);
        out(format_args!("[{:>2}] {method:<13} {shown:<72}", self.step));
        let started = Instant::now();
        let outcome = self.client.call(method, params).await;
        let ms = started.elapsed().as_millis();
        let verdict = check(outcome.as_ref());
        match verdict {
            Ok(summary) => {
                self.ok += 1;
                outln(format_args!(" {ms:>5} ms  OK    {summary}"));
                outcome.ok()
            }
            Err(why) => {
                self.failed += 1;
                outln(format_args!(" {ms:>5} ms  FAIL  {why}"));
                None
            }
        }
    }

    /// Records a step that is not an action (e.g. a setting changed through the extension's UI API).
    fn note(&mut self, label: &str, outcome: std::result::Result<String, String>) {
        self.step += 1;
        match outcome {
            Ok(s) => {
                self.ok += 1;
                outln(format_args!(
                    "[{:>2}] {label:<13} {:<72}          OK    {s}",
                    self.step, ""
                ));
            }
            Err(e) => {
                self.failed += 1;
                outln(format_args!(
                    "[{:>2}] {label:<13} {:<72}          FAIL  {e}",
                    self.step, ""
                ));
            }
        }
    }
}

/// Writes transcript text to stdout and flushes. A reader that went away (`demo | head`) must not
/// panic the demo half way: the browser still has to be shut down, so write errors are ignored.
fn out(args: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_fmt(args).and_then(|()| stdout.flush());
}

/// [`out`] and a newline.
fn outln(args: std::fmt::Arguments<'_>) {
    out(format_args!("{args}\n"));
}

/// Runs the demo; `Ok(true)` when every step passed.
pub async fn run(opts: DemoOptions) -> Result<bool> {
    let started = Instant::now();
    outln(format_args!(
        "BUA Browser Bridge demo — launching Chromium with the extension ({})…",
        if opts.headless {
            "headless"
        } else {
            "visible window"
        }
    ));
    let mut launch_opts = LaunchOptions::new(&opts.extension_dir);
    launch_opts.headless = opts.headless;
    launch_opts.chrome = opts.chrome.clone();
    let launched = launch::start(launch_opts).await?;
    outln(format_args!(
        "ready in {} ms: bridge ws://127.0.0.1:{}, extension {}",
        launched.startup.as_millis(),
        launched.server().port(),
        launched.extension_id
    ));
    let client = BridgeClient::connect(launched.server().port(), launched.server().token()).await?;
    let mut tour = Tour {
        client,
        ok: 0,
        failed: 0,
        step: 0,
    };
    let outcome = if opts.urls.is_empty() {
        match StaticSite::start(&opts.site_dir).await {
            Ok(site) => full_tour(&mut tour, &launched, &site, &opts).await,
            Err(e) => Err(Error::io("serving the demo site", e)),
        }
    } else {
        visit_urls(&mut tour, &opts.urls).await;
        Ok(())
    };
    launched.shutdown().await;
    outcome?;
    let all_ok = tour.failed == 0 && tour.ok > 0;
    outln(format_args!(
        "demo: {} of {} steps OK in {:.1} s{}",
        tour.ok,
        tour.ok + tour.failed,
        started.elapsed().as_secs_f64(),
        if all_ok { "" } else { " — FAILED" }
    ));
    Ok(all_ok)
}

async fn visit_urls(tour: &mut Tour, urls: &[String]) {
    for url in urls {
        let Some(opened) = tour
            .act(
                "open_tab",
                json!({ "url": url }),
                expect_ok(|v| format!("tab {} ({})", v["tabId"], str_of(&v["domain"]))),
            )
            .await
        else {
            continue;
        };
        let tab = opened["tabId"].clone();
        tour.act(
            "extract",
            json!({ "tabId": tab }),
            expect_ok(summarize_extract),
        )
        .await;
    }
}

async fn full_tour(
    tour: &mut Tour,
    launched: &Launched,
    site: &StaticSite,
    opts: &DemoOptions,
) -> Result<()> {
    // 1. An article: open it in the agent window and read it.
    let article = site.url("index.html");
    let Some(opened) = tour
        .act(
            "open_tab",
            json!({ "url": article }),
            expect_ok(|v| {
                format!(
                    "tab {} in agent window {} ({})",
                    v["tabId"],
                    v["windowId"],
                    str_of(&v["domain"])
                )
            }),
        )
        .await
    else {
        return Ok(());
    };
    let tab = opened["tabId"].clone();
    let page = tour
        .act(
            "extract",
            json!({ "tabId": tab }),
            check(|v| {
                let md = str_of(&v["markdown"]);
                if !md.contains("Tides of change") {
                    return Err(format!(
                        "the article heading is missing from the markdown: {}",
                        clip(md, 80)
                    ));
                }
                if md.contains("We use cookies") {
                    return Err("the fixed cookie banner leaked into the markdown".into());
                }
                Ok(summarize_extract(v))
            }),
        )
        .await;

    // 2. Follow a link by uid.
    if let Some(uid) = page
        .as_ref()
        .and_then(|p| find_uid(p, "link", "harbour shop"))
    {
        tour.act(
            "click",
            json!({ "tabId": tab, "uid": uid }),
            expect_ok(clicked),
        )
        .await;
    } else {
        tour.note(
            "click",
            Err("no link named 'harbour shop' among the elements".into()),
        );
    }
    tour.act(
        "wait_for",
        json!({ "tabId": tab, "textContains": "Lighthouse print" }),
        expect_ok(|v| format!("found after {} ms", v["elapsedMs"])),
    )
    .await;

    // 3. Fill a form by uid and submit it.
    let shop = tour
        .act(
            "extract",
            json!({ "tabId": tab }),
            check(|v| {
                if str_of(&v["title"]).contains("Harbour Shop") {
                    Ok(summarize_extract(v))
                } else {
                    Err(format!("expected the shop page, got {:?}", v["title"]))
                }
            }),
        )
        .await;
    let uid_of = |role: &str, name: &str| shop.as_ref().and_then(|p| find_uid(p, role, name));
    match uid_of("textbox", "your name") {
        Some(uid) => {
            tour.act(
                "type",
                json!({ "tabId": tab, "uid": uid, "text": "Ada Lovelace" }),
                check(|v| {
                    if str_of(&v["value"]) == "Ada Lovelace" {
                        Ok("value read back: \"Ada Lovelace\"".into())
                    } else {
                        Err(format!("value read back: {}", v["value"]))
                    }
                }),
            )
            .await;
        }
        None => tour.note("type", Err("no textbox named 'Your name'".into())),
    }
    tour.act(
        "select_option",
        json!({ "tabId": tab, "selector": "#frame", "label": "Oak" }),
        expect_ok(|v| format!("selected {}", v["selected"])),
    )
    .await;
    match uid_of("checkbox", "gift wrap") {
        Some(uid) => {
            tour.act(
                "check",
                json!({ "tabId": tab, "uid": uid }),
                expect_ok(|v| format!("checked: {}", v["checked"])),
            )
            .await;
        }
        None => tour.note("check", Err("no checkbox named 'Gift wrap'".into())),
    }
    match uid_of("button", "place order") {
        Some(uid) => {
            tour.act(
                "click",
                json!({ "tabId": tab, "uid": uid }),
                expect_ok(clicked),
            )
            .await;
        }
        None => tour.note("click", Err("no button named 'Place order'".into())),
    }
    tour.act(
        "extract",
        json!({ "tabId": tab }),
        check(|v| {
            let md = str_of(&v["markdown"]);
            match md.find("Thank you, Ada Lovelace") {
                Some(at) => Ok(format!(
                    "confirmation in the markdown: \"{}\"",
                    clip(&md[at..], 60)
                )),
                None => Err("the order confirmation is not in the markdown".into()),
            }
        }),
    )
    .await;
    tour.act("evaluate", json!({ "tabId": tab, "expression": "return document.querySelector('#result').textContent" }), check(|v| {
        let text = str_of(&v["value"]);
        if text.contains("frame: oak") && text.contains("gift wrapped") { Ok(format!("{} {}", str_of(&v["type"]), clip(text, 60))) } else { Err(format!("unexpected page state: {v}")) }
    })).await;

    // 4. A sign-in page is flagged as a login wall.
    tour.act(
        "navigate",
        json!({ "tabId": tab, "url": site.url("signin.html") }),
        expect_ok(|v| format!("loaded \"{}\"", str_of(&v["title"]))),
    )
    .await;
    tour.act(
        "extract",
        json!({ "tabId": tab }),
        check(|v| match v.get("obstacle") {
            Some(o) if o["type"] == "auth_wall" => Ok(format!(
                "obstacle: auth_wall ({}) — {}",
                str_of(&o["confidence"]),
                clip(str_of(&o["message"]), 50)
            )),
            other => Err(format!("expected an auth_wall obstacle, got {other:?}")),
        }),
    )
    .await;

    // 5. A blocked domain is refused before anything loads.
    let blocked = "blocked.example";
    tour.note(
        "blocklist",
        ui_command(launched, json!({ "cmd": "add_blocked", "domain": blocked }))
            .await
            .map(|_| format!("added {blocked} in the extension's blocklist")),
    );
    tour.act(
        "open_tab",
        json!({ "url": format!("https://{blocked}/account") }),
        Box::new(|r| match r {
            Err(e) if e.code() == ErrorCode::DomainBlocked => Ok(format!(
                "refused: domain_blocked — {}",
                clip(&e.to_string(), 50)
            )),
            Err(e) => Err(format!("expected domain_blocked, got {e}")),
            Ok(v) => Err(format!("expected domain_blocked, the tab opened: {v}")),
        }),
    )
    .await;

    // 6. A screenshot of the agent's tab, although its window is minimized.
    let shot_path = opts.out_dir.join("demo-screenshot.png");
    tour.act(
        "screenshot",
        json!({ "tabId": tab }),
        check(move |v| {
            use base64::Engine;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(str_of(&v["data"]))
                .map_err(|e| format!("not base64: {e}"))?;
            if !bytes.starts_with(b"\x89PNG") {
                return Err("not a PNG".into());
            }
            std::fs::create_dir_all(shot_path.parent().unwrap_or(std::path::Path::new(".")))
                .map_err(|e| e.to_string())?;
            std::fs::write(&shot_path, &bytes).map_err(|e| e.to_string())?;
            Ok(format!(
                "{}×{} PNG, {} KB → {}",
                v["width"],
                v["height"],
                bytes.len() / 1024,
                shot_path.display()
            ))
        }),
    )
    .await;

    // 7. The user's red button: Stop all ends every session.
    tour.note(
        "stop_all",
        ui_command(launched, json!({ "cmd": "stop_all" }))
            .await
            .map(|v| {
                format!(
                    "popup Stop all: {} session(s) ended (global_stop)",
                    v["stopped"]
                )
            }),
    );
    tour.act(
        "get_tabs",
        json!({}),
        check(|v| {
            let tabs = v["tabs"].as_array().cloned().unwrap_or_default();
            let live = tabs.iter().filter(|t| t["session"] == true).count();
            if live == 0 {
                Ok(format!("{} tab(s), no active session", tabs.len()))
            } else {
                Err(format!("{live} session(s) still active"))
            }
        }),
    )
    .await;
    Ok(())
}

/// Sends a popup/options command to the extension's service worker (as the popup would) through DevTools.
async fn ui_command(launched: &Launched, command: Value) -> std::result::Result<Value, String> {
    let run = async {
        let cdp = DevTools::connect(&launched.devtools_url).await?;
        let worker_url = devtools::service_worker_url(&launched.extension_id);
        let worker = cdp
            .wait_for_target(
                "service_worker",
                |u| u == worker_url,
                Duration::from_secs(5),
            )
            .await?;
        let expression = format!("buaReady.then(() => bua.on_message({command}))");
        cdp.evaluate_in_target(&worker.id, &expression).await
    };
    match run.await {
        Ok(v) if v.get("error").is_some() => Err(format!("the extension refused: {}", v["error"])),
        Ok(v) => Ok(v),
        Err(e) => Err(e.to_string()),
    }
}

fn check(f: impl FnOnce(&Value) -> std::result::Result<String, String> + 'static) -> Check {
    Box::new(move |r| match r {
        Ok(v) => f(v),
        Err(e) => Err(e.to_string()),
    })
}

fn expect_ok(f: impl FnOnce(&Value) -> String + 'static) -> Check {
    check(move |v| Ok(f(v)))
}

fn summarize_extract(v: &Value) -> String {
    let md = str_of(&v["markdown"]);
    let first = md
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    let count = v["elements"].as_array().map_or(0, Vec::len);
    let obstacle = match v.get("obstacle") {
        Some(o) if !o.is_null() => format!(
            "obstacle {} ({})",
            str_of(&o["type"]),
            str_of(&o["confidence"])
        ),
        _ => "no obstacle".to_owned(),
    };
    format!(
        "\"{}\" — markdown {:.1} KB «{}», {} element{}, {}",
        clip(str_of(&v["title"]), 30),
        md.len() as f64 / 1024.0,
        clip(first, 40),
        count,
        if count == 1 { "" } else { "s" },
        obstacle
    )
}

/// The uid of the first element with `role` whose name contains `name` (case-insensitive).
fn find_uid(extract: &Value, role: &str, name: &str) -> Option<String> {
    extract["elements"].as_array()?.iter().find_map(|e| {
        let matches = e["role"] == role && str_of(&e["name"]).to_lowercase().contains(name);
        matches.then(|| str_of(&e["uid"]).to_owned())
    })
}

/// A `click` result's line: `clicked <tag> text…`.
fn clicked(v: &Value) -> String {
    format!(
        "clicked <{}> {}",
        str_of(&v["clicked"]["tag"]),
        clip(str_of(&v["clicked"]["text"]), 40)
    )
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn clip(s: &str, max: usize) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() <= max {
        return s;
    }
    let cut: String = s.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_uids_by_role_and_name_case_insensitively() {
        let page = json!({ "elements": [
            { "uid": "e0", "role": "link", "name": "Home" },
            { "uid": "e1", "role": "link", "name": "Harbour shop" },
            { "uid": "e2", "role": "button", "name": "Harbour shop" }
        ]});
        assert_eq!(
            find_uid(&page, "link", "harbour shop").as_deref(),
            Some("e1")
        );
        assert_eq!(find_uid(&page, "button", "harbour"), Some("e2".to_owned()));
        assert_eq!(find_uid(&page, "textbox", "name"), None);
    }

    #[test]
    fn clips_on_char_boundaries() {
        assert_eq!(clip("héllo wörld", 5), "héll…");
        assert_eq!(clip("short", 10), "short");
    }
}
