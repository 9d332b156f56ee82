//! The obstacle classifier on the form pages of `corpus/forms/` (SPEC §5): sign-in pages must get an
//! `auth_wall`, form pages that are not for signing in (contact, search, checkout, settings, …) must
//! not. Runs the pure extract pipeline ([`bua_extension::extract::page::analyze`]) natively on the
//! committed DOM snapshots (`corpus/forms/dumps/`, made by `tests/corpus_dump.py --forms`), with the
//! URL each page had on its site from `corpus/forms/manifest.tsv` (the snapshots were served from a
//! neutral path). Prints the rates per split — `tune` (the pages looked at while changing the
//! classifier) and `held` (the pages that were not) — and asserts the thresholds on the whole set.
//!
//! ```text
//! cargo test -p bua-extension --test corpus_forms -- --nocapture
//! ```
//! Per-page lines are printed for the tune split only; `BUA_FORMS_SHOW=held` (or `all`) shows the
//! others, for after the tuning is done; `BUA_FORMS_URL=blind` lists the URL-blind verdicts;
//! `BUA_FORMS_ELEMENTS=<name>` prints a page's elements and the head of its markdown.

#[path = "support/corpus_dump.rs"]
mod dump;

use std::path::PathBuf;

use bua_extension::extract::page::analyze;

/// Share of the non-sign-in pages that may get an `auth_wall` of any confidence.
const MAX_FALSE_AUTH_WALL: f64 = 0.20;
/// Share of the non-sign-in pages that may get a high-confidence `auth_wall`.
const MAX_FALSE_HIGH: f64 = 0.02;
/// Share of the sign-in pages that must get an `auth_wall`.
const MIN_RECALL: f64 = 0.95;

struct Row {
    name: String,
    signin: bool,
    kind: String,
    split: String,
    /// `auth_wall/low`, `captcha/high`, …, or `none`.
    verdict: String,
    message: String,
}

fn forms_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/forms")
}

/// Classifies every page of the manifest; `site_url`: with the URL the page had on its site, else with
/// a neutral one (what the page says without its address).
fn classify_all(site_url: bool) -> Vec<Row> {
    let dir = forms_dir();
    let manifest =
        std::fs::read_to_string(dir.join("manifest.tsv")).expect("corpus/forms/manifest.tsv");
    let mut rows = Vec::new();
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [name, label, kind, _lang, split, url, _source] = cols[..] else {
            panic!("manifest line has 7 columns: {line}");
        };
        let page = dump::read(&dir.join("dumps").join(format!("{name}.json")));
        // The served path names the page (and so its kind): the blind URL names nothing.
        let blind = "http://127.0.0.1/p/page.html";
        let input = dump::inputs(&page, if site_url { url } else { blind });
        let result = analyze(&input).expect("dump analyses");
        if site_url && std::env::var("BUA_FORMS_ELEMENTS").is_ok_and(|n| n == name) {
            for e in &result.elements.elements {
                println!(
                    "  {} {:?} type={:?} ac={:?} form={:?} rendered={}",
                    e.role, e.name, e.input_type, e.autocomplete, e.form, e.rendered
                );
            }
            println!(
                "{}",
                result.markdown.text.chars().take(1500).collect::<String>()
            );
        }
        let (verdict, message) = match &result.obstacle {
            None => ("none".to_string(), String::new()),
            Some(v) => dump::obstacle_label(v),
        };
        rows.push(Row {
            name: name.into(),
            signin: label == "signin",
            kind: kind.into(),
            split: split.into(),
            verdict,
            message,
        });
    }
    rows
}

/// (false auth_wall share, false high share, sign-in recall, sign-in high share, counts) of `rows`.
fn rates(rows: &[&Row]) -> (f64, f64, f64, f64, usize, usize) {
    let other: Vec<&&Row> = rows.iter().filter(|r| !r.signin).collect();
    let signin: Vec<&&Row> = rows.iter().filter(|r| r.signin).collect();
    let share = |set: &[&&Row], f: &dyn Fn(&str) -> bool| {
        set.iter().filter(|r| f(&r.verdict)).count() as f64 / set.len().max(1) as f64
    };
    (
        share(&other, &|v| v.starts_with("auth_wall")),
        share(&other, &|v| v == "auth_wall/high"),
        share(&signin, &|v| v.starts_with("auth_wall")),
        share(&signin, &|v| v == "auth_wall/high"),
        other.len(),
        signin.len(),
    )
}

fn print_rates(rows: &[Row], what: &str) {
    for split in ["tune", "held", "late", "final", "all"] {
        let part: Vec<&Row> = rows
            .iter()
            .filter(|r| split == "all" || r.split == split)
            .collect();
        let (fa, fh, recall, high, n_other, n_signin) = rates(&part);
        println!(
            "{what} {split:4}: other {n_other:3} pages, auth_wall {:5.1} % (high {:4.1} %); signin {n_signin:3} pages, \
             recall {:5.1} % (high {:5.1} %)",
            fa * 100.0,
            fh * 100.0,
            recall * 100.0,
            high * 100.0
        );
    }
}

#[test]
fn form_pages_auth_wall_precision_and_recall() {
    let rows = classify_all(true);
    let blind = classify_all(false);
    let show = std::env::var("BUA_FORMS_SHOW").unwrap_or_else(|_| "tune".into());
    let listed = if std::env::var("BUA_FORMS_URL").is_ok_and(|v| v == "blind") {
        &blind
    } else {
        &rows
    };
    for r in listed.iter().filter(|r| show == "all" || r.split == show) {
        let wrong = r.signin != r.verdict.starts_with("auth_wall");
        println!(
            "{} {:5} {:6} {:34} {:26} {:15} {}",
            if wrong { "✗" } else { " " },
            r.split,
            if r.signin { "signin" } else { "other" },
            r.name,
            r.kind,
            r.verdict,
            r.message
        );
    }
    print_rates(&rows, "site URL  ");
    // The same pages read from the neutral address they were served from: how much rests on the URL.
    print_rates(&blind, "URL-blind ");
    let all: Vec<&Row> = rows.iter().collect();
    let (fa, fh, recall, _, _, _) = rates(&all);
    assert!(
        fa <= MAX_FALSE_AUTH_WALL,
        "auth_wall on {:.1} % of the non-sign-in forms",
        fa * 100.0
    );
    assert!(
        fh <= MAX_FALSE_HIGH,
        "high auth_wall on {:.1} % of the non-sign-in forms",
        fh * 100.0
    );
    assert!(
        recall >= MIN_RECALL,
        "sign-in recall {:.1} %",
        recall * 100.0
    );
}
