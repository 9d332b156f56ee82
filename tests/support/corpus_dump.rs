//! A page dump of `tests/corpus_dump.py` (one page's URL, title, innerText, viewport and DOM snapshot, as
//! real Chromium gave them) read back as the inputs of the pure extract pipeline
//! ([`bua_extension::extract::page::analyze`]), shared by the native corpus runners (`tests/corpus_dumps.rs`,
//! `tests/corpus_forms.rs`).

use std::path::Path;

use bua_extension::extract::obstacle::{Confidence, ObstacleKind, Verdict};
use bua_extension::extract::page::PageInputs;
use serde_json::Value;

/// The dump at `path` (a JSON object); panics with the path when it cannot be read or is not JSON.
pub fn read(path: &Path) -> Value {
    let raw =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("dump {}: {e}", path.display()));
    serde_json::from_str(&raw)
        .unwrap_or_else(|e| panic!("dump {} is not JSON: {e}", path.display()))
}

/// The pipeline's inputs from `dump`, with `url` as the page's address (the dump's own `url`, or another
/// one); a viewport the dump lacks is 1280 × 800 px.
pub fn inputs<'a>(dump: &'a Value, url: &'a str) -> PageInputs<'a> {
    PageInputs {
        url,
        title: dump["title"].as_str().unwrap_or(""),
        inner_text: dump["innerText"].as_str().unwrap_or(""),
        viewport: (
            dump["viewport"]["width"].as_f64().unwrap_or(1280.0),
            dump["viewport"]["height"].as_f64().unwrap_or(800.0),
        ),
        snapshot: &dump["snapshot"],
    }
}

/// An obstacle verdict as the corpus tables show it: its label (`auth_wall/low`, `captcha/high`, …) and
/// its layer and message (`L2: …`).
pub fn obstacle_label(v: &Verdict) -> (String, String) {
    let kind = match v.kind {
        ObstacleKind::AuthWall => "auth_wall",
        ObstacleKind::Captcha => "captcha",
        ObstacleKind::AccessDenied => "access_denied",
    };
    let conf = match v.confidence {
        Confidence::Low => "low",
        Confidence::High => "high",
    };
    (
        format!("{kind}/{conf}"),
        format!("L{}: {}", v.layer, v.message),
    )
}
