//! The clock and timestamps: ms since the Unix epoch (`Date.now()`) and their civil date, shared by the session
//! model (`startedAt`, the remembered end of a session) and the popup/options views. Pure apart from [`now`].

/// ms since the Unix epoch.
pub fn now() -> f64 {
    js_sys::Date::now()
}

/// Civil date and time of a local timestamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Civil {
    /// Year.
    pub year: i64,
    /// 1–12.
    pub month: u32,
    /// 1–31.
    pub day: u32,
    /// 0–23.
    pub hour: u32,
    /// 0–59.
    pub minute: u32,
    /// 0–59.
    pub second: u32,
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (H. Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The local civil time of `at_ms` (ms since the Unix epoch) at `tz_offset_min` (JavaScript's
/// `getTimezoneOffset()`: minutes to add to local time to get UTC).
pub fn civil(at_ms: f64, tz_offset_min: i32) -> Civil {
    let local_s = (at_ms / 1000.0).floor() as i64 - i64::from(tz_offset_min) * 60;
    let (days, secs) = (local_s.div_euclid(86_400), local_s.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        hour: (secs / 3600) as u32,
        minute: ((secs % 3600) / 60) as u32,
        second: (secs % 60) as u32,
    }
}

/// The full local timestamp for a `<time>` title and `datetime`-like display: `"2025-11-30 14:03:22"`.
pub fn timestamp(at_ms: f64, tz_offset_min: i32) -> String {
    let t = civil(at_ms, tz_offset_min);
    format!(
        "{}-{:02}-{:02} {:02}:{:02}:{:02}",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}
