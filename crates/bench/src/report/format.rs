//! How the report writes numbers: ms with the digits their size deserves, ratios as `1.23×`, bytes
//! as KB or MB, and p50 / p95 pairs; `–` where there is nothing to show.

use crate::stats::{median, summarize};

pub(super) fn ms(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

pub(super) fn x(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.2}×"))
}

pub(super) fn kb(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / (1u64 << 20) as f64)
    } else {
        format!("{:.1} KB", bytes as f64 / 1024.0)
    }
}

pub(super) fn p50(v: &[f64]) -> Option<f64> {
    median(v)
}

pub(super) fn p50_p95(v: &[f64]) -> String {
    summarize(v).map_or_else(
        || "–".to_string(),
        |s| format!("{} / {}", ms(s.p50), ms(s.p95)),
    )
}
