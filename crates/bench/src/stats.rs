//! Order statistics of timing samples: median and p95 by the nearest-rank method.

/// A summary of timing samples in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// How many samples.
    pub n: usize,
    /// The median (nearest-rank p50), ms.
    pub p50: f64,
    /// The nearest-rank 95th percentile, ms.
    pub p95: f64,
    /// The smallest sample, ms.
    pub min: f64,
    /// The largest sample, ms.
    pub max: f64,
}

/// The nearest-rank `p`-th percentile (`0 < p ≤ 100`) of `samples`; `None` when there are none.
///
/// Nearest rank: the smallest sample such that at least `p` % of the samples are ≤ it, so p95 of 20
/// samples is the 19th smallest and the median of an even count is the lower middle one (always a
/// value that was measured, never an interpolation).
pub fn percentile(samples: &[f64], p: f64) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let mut sorted: Vec<f64> = samples.iter().copied().filter(|v| !v.is_nan()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// The nearest-rank median; `None` when there are no samples.
pub fn median(samples: &[f64]) -> Option<f64> {
    percentile(samples, 50.0)
}

/// Median, p95, min and max of `samples` (ms); `None` when there are none.
pub fn summarize(samples: &[f64]) -> Option<Summary> {
    Some(Summary {
        n: samples.len(),
        p50: percentile(samples, 50.0)?,
        p95: percentile(samples, 95.0)?,
        min: samples.iter().copied().fold(f64::INFINITY, f64::min),
        max: samples.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    })
}

/// `a / b`, or `None` when `b` is not a positive number.
pub fn ratio(a: f64, b: f64) -> Option<f64> {
    (b > 0.0 && a.is_finite() && b.is_finite()).then(|| a / b)
}

/// A goal's mark in a report table: `met`, `**missed**`, or `–` when it was not measured.
pub fn goal_mark(met: Option<bool>) -> &'static str {
    match met {
        Some(true) => "met",
        Some(false) => "**missed**",
        None => "–",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles_pick_measured_values() {
        let samples: Vec<f64> = (1..=20).map(f64::from).rev().collect();
        assert_eq!(percentile(&samples, 50.0), Some(10.0));
        assert_eq!(percentile(&samples, 95.0), Some(19.0));
        assert_eq!(percentile(&samples, 100.0), Some(20.0));
        assert_eq!(percentile(&[7.0], 95.0), Some(7.0));
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn summary_has_min_max_and_count() {
        let s = summarize(&[5.0, 1.0, 9.0, 3.0]).unwrap();
        assert_eq!(
            s,
            Summary {
                n: 4,
                p50: 3.0,
                p95: 9.0,
                min: 1.0,
                max: 9.0
            }
        );
        assert!(summarize(&[]).is_none());
    }

    #[test]
    fn ratio_refuses_a_zero_denominator() {
        assert_eq!(ratio(3.0, 2.0), Some(1.5));
        assert_eq!(ratio(3.0, 0.0), None);
    }
}
