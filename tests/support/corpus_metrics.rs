//! Measures of `extract` on the corpus, shared by the native dump runner (`tests/corpus_dumps.rs`), the
//! end-to-end corpus test (`tests/e2e/corpus.rs`) and the peer benchmark (`crates/bench`): markdown recall
//! and size ratio per page, the obstacle confusion table per folder, and the thresholds the tests assert.

#![allow(dead_code)]

use std::collections::HashMap;

/// The corpus folders, each with the label its pages should get.
pub const FOLDERS: [&str; 4] = [
    "readability",
    "login/positive",
    "login/negative",
    "challenge",
];

/// URL prefix the pages of a folder are served under. The folder names are the labels ("login",
/// "challenge"); served as they are, they would reach the classifier through the URL.
pub fn alias(folder: &str) -> &'static str {
    match folder {
        "readability" => "s1",
        "login/positive" => "s2",
        "login/negative" => "s3",
        _ => "s4",
    }
}

/// Scripts written without spaces between words: each of their chars counts as a word.
fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF // Hiragana, Katakana
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF // CJK ideographs
        | 0x0E00..=0x0E7F // Thai
    )
}

/// Words of a text, case-folded: maximal runs of alphanumeric chars, except that each char of a
/// script written without spaces (Chinese, Japanese, Thai) is a word of its own.
pub fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        if unspaced(c) {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur).to_lowercase());
            }
            out.push(c.to_string());
        } else if c.is_alphanumeric() {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur).to_lowercase());
        }
    }
    if !cur.is_empty() {
        out.push(cur.to_lowercase());
    }
    out
}

/// Share of `expected`'s words (counted with multiplicity) that `got` also has.
pub fn recall(expected: &str, got: &str) -> f64 {
    let exp = words(expected);
    if exp.is_empty() {
        return 1.0;
    }
    let mut have: HashMap<String, usize> = HashMap::new();
    for w in words(got) {
        *have.entry(w).or_default() += 1;
    }
    let mut found = 0usize;
    for w in &exp {
        if let Some(n) = have.get_mut(w) {
            if *n > 0 {
                *n -= 1;
                found += 1;
            }
        }
    }
    found as f64 / exp.len() as f64
}

/// The `p`-quantile (0..=1) of `v`, nearest-rank.
pub fn quantile(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let rank = ((p * s.len() as f64).ceil() as usize).clamp(1, s.len());
    s[rank - 1]
}

/// One page's measurements.
#[derive(Debug, Clone)]
pub struct PageReport {
    pub folder: String,
    pub name: String,
    /// Recall of the expected article's words (readability pages under 20 KB of expected text).
    pub recall: Option<f64>,
    /// Markdown bytes / expected text bytes (readability pages).
    pub ratio: Option<f64>,
    /// `type/confidence` of the obstacle, or `none`.
    pub obstacle: String,
    pub message: String,
}

/// Expected text under this size (bytes) counts for recall: a longer one is mostly a page whose
/// article the reference extraction got wrong, which no converter can match.
pub const RECALL_MAX_EXPECTED_BYTES: usize = 20_000;

pub fn measure(
    folder: &str,
    name: &str,
    markdown: &str,
    expected: Option<&str>,
    obstacle: Option<(String, String)>,
) -> PageReport {
    let (recall, ratio) = match expected {
        Some(e) => (
            (e.len() < RECALL_MAX_EXPECTED_BYTES).then(|| recall(e, markdown)),
            Some(markdown.len() as f64 / e.len().max(1) as f64),
        ),
        None => (None, None),
    };
    let (obstacle, message) = obstacle.unwrap_or_else(|| ("none".into(), String::new()));
    PageReport {
        folder: folder.into(),
        name: name.into(),
        recall,
        ratio,
        obstacle,
        message,
    }
}

/// Prints the per-page table, the per-folder confusion tables and the summary; returns the
/// failed corpus thresholds (listed at the top of `tests/e2e/corpus.rs`).
pub fn summarise(reports: &[PageReport]) -> Vec<String> {
    for r in reports {
        println!(
            "{:16} {:44} recall {}  ratio {}  obstacle {:18} {}",
            r.folder,
            r.name,
            r.recall.map_or("  -  ".into(), |v| format!("{v:.3}")),
            r.ratio.map_or("  -  ".into(), |v| format!("{v:5.2}")),
            r.obstacle,
            r.message
        );
    }
    let mut failures = Vec::new();
    for folder in FOLDERS {
        let pages: Vec<&PageReport> = reports.iter().filter(|r| r.folder == folder).collect();
        if pages.is_empty() {
            continue;
        }
        let mut counts: Vec<(String, usize)> = Vec::new();
        for p in &pages {
            match counts.iter_mut().find(|(k, _)| *k == p.obstacle) {
                Some((_, n)) => *n += 1,
                None => counts.push((p.obstacle.clone(), 1)),
            }
        }
        counts.sort();
        let n = pages.len() as f64;
        let share =
            |f: &dyn Fn(&str) -> bool| pages.iter().filter(|p| f(&p.obstacle)).count() as f64 / n;
        println!("{folder}: {} pages, obstacles {:?}", pages.len(), counts);
        // Each folder's thresholds: (met, what the failure says).
        let checks: Vec<(bool, String)> = match folder {
            "readability" => {
                let recalls: Vec<f64> = pages.iter().filter_map(|p| p.recall).collect();
                let ratios: Vec<f64> = pages.iter().filter_map(|p| p.ratio).collect();
                let (med, p10, ratio) = (
                    quantile(&recalls, 0.5),
                    quantile(&recalls, 0.1),
                    quantile(&ratios, 0.5),
                );
                let high = share(&|o| o.ends_with("/high"));
                let any = share(&|o| o != "none");
                println!(
                    "  recall ({} pages) median {med:.3} p10 {p10:.3}; size ratio median {ratio:.2} p90 {:.2}; \
                     high obstacles {:.1} %, any {:.1} %",
                    recalls.len(),
                    quantile(&ratios, 0.9),
                    high * 100.0,
                    any * 100.0
                );
                vec![
                    (
                        med >= 0.95,
                        format!("readability median recall {med:.3} < 0.95"),
                    ),
                    (
                        p10 >= 0.80,
                        format!("readability p10 recall {p10:.3} < 0.80"),
                    ),
                    (
                        ratio <= 2.5,
                        format!("readability median size ratio {ratio:.2} > 2.5"),
                    ),
                    (
                        high == 0.0,
                        format!(
                            "readability: {:.1} % high-confidence obstacles",
                            high * 100.0
                        ),
                    ),
                    (
                        any <= 0.02,
                        format!("readability: {:.1} % obstacles > 2 %", any * 100.0),
                    ),
                ]
            }
            "login/positive" => {
                let auth = share(&|o| o.starts_with("auth_wall"));
                println!("  auth_wall {:.1} %", auth * 100.0);
                vec![(
                    auth >= 0.95,
                    format!("login/positive auth_wall {:.1} % < 95 %", auth * 100.0),
                )]
            }
            "login/negative" => {
                let high = share(&|o| o == "auth_wall/high");
                let low = share(&|o| o == "auth_wall/low");
                let any = high + low;
                println!(
                    "  auth_wall high {:.1} %, low {:.1} %, any {:.1} %",
                    high * 100.0,
                    low * 100.0,
                    any * 100.0
                );
                vec![
                    (
                        high == 0.0,
                        format!("login/negative auth_wall high {:.1} %", high * 100.0),
                    ),
                    (
                        any <= 0.20,
                        format!("login/negative auth_wall {:.1} % > 20 %", any * 100.0),
                    ),
                ]
            }
            "challenge" => {
                let captcha = share(&|o| o.starts_with("captcha"));
                let high = share(&|o| o == "captcha/high");
                println!(
                    "  captcha {:.1} %, high {:.1} %",
                    captcha * 100.0,
                    high * 100.0
                );
                vec![
                    (
                        captcha == 1.0,
                        format!("challenge captcha {:.1} % < 100 %", captcha * 100.0),
                    ),
                    (
                        high >= 0.90,
                        format!("challenge captcha high {:.1} % < 90 %", high * 100.0),
                    ),
                ]
            }
            _ => Vec::new(),
        };
        failures.extend(
            checks
                .into_iter()
                .filter(|(met, _)| !met)
                .map(|(_, what)| what),
        );
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recall_counts_words_with_multiplicity_case_folded() {
        assert_eq!(recall("The cat, the HAT.", "the Cat hat"), 0.75);
        assert_eq!(recall("", "anything"), 1.0);
        assert_eq!(
            words("東京は晴れ Tokyo"),
            vec!["東", "京", "は", "晴", "れ", "tokyo"]
        );
        assert_eq!(quantile(&[3.0, 1.0, 2.0, 4.0], 0.5), 2.0);
        assert_eq!(quantile(&[3.0, 1.0, 2.0, 4.0], 0.1), 1.0);
    }
}
