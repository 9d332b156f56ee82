//! Pure view logic of the popup and options pages (SPEC §10): what the user reads, computed from the worker's
//! data without touching the DOM, so `cargo test` checks every string natively.
//!
//! Times are ms since the Unix epoch (`Date.now()`); `tz_offset_min` is JavaScript's
//! `Date.prototype.getTimezoneOffset()` (minutes to add to local time to get UTC, e.g. `-60` in Paris in winter).

use crate::bridge::ConnectionState;
use crate::session::history::{HistoryEntry, HistoryKind};
use crate::session::model::{Session, SessionOwner};
use crate::time::{civil, timestamp};
use bua_protocol::{EndReason, ErrorCode, HandoffOutcome};

/// The popup's line on the unattended-run controls in force (SPEC §10), `None` when none is:
/// `"Unattended controls: only shop.test, mail.test · evaluate off · upload off (bridge)"`.
pub fn controls_summary(settings: &crate::api::Settings) -> Option<String> {
    let bridge = &settings.bridge_controls;
    let mut parts = Vec::new();
    if !settings.allowlist.is_empty() {
        parts.push(format!("only {}", settings.allowlist.join(", ")));
    }
    if !bridge.allow.is_empty() {
        parts.push(format!("only {} (bridge)", bridge.allow.join(", ")));
    }
    for (action, person) in [
        ("evaluate", settings.no_evaluate),
        ("upload", settings.no_upload),
    ] {
        let by_bridge = bridge.off.iter().any(|a| a == action);
        match (person, by_bridge) {
            (true, _) => parts.push(format!("{action} off")),
            (false, true) => parts.push(format!("{action} off (bridge)")),
            _ => {}
        }
    }
    (!parts.is_empty()).then(|| format!("Unattended controls: {}", parts.join(" · ")))
}

/// Rows per page of the audit log table (1000 entries = 20 pages).
pub const LOG_PAGE_SIZE: usize = 50;

/// A session's age, or any elapsed time, compact: `"now"`, `"12 s"`, `"3 min"`, `"1 h 5 min"`, `"2 d 3 h"`.
pub fn age(ms: f64) -> String {
    let s = (ms.max(0.0) / 1000.0).floor() as u64;
    match s {
        0 => "now".to_owned(),
        1..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", s / 60),
        3600..=86_399 => hours_minutes(s),
        _ => {
            let (d, h) = (s / 86_400, (s % 86_400) / 3600);
            if h == 0 {
                format!("{d} d")
            } else {
                format!("{d} d {h} h")
            }
        }
    }
}

fn hours_minutes(s: u64) -> String {
    let (h, m) = (s / 3600, (s % 3600) / 60);
    if m == 0 {
        format!("{h} h")
    } else {
        format!("{h} h {m} min")
    }
}

/// A session's duration, one step more precise than [`age`]: `"0 s"`, `"0.4 s"`, `"45 s"`, `"3 min 20 s"`, `"1 h 5 min"`.
pub fn duration(ms: f64) -> String {
    let ms = ms.max(0.0);
    if ms < 9_950.0 {
        let tenths = (ms / 100.0).round() / 10.0;
        return if tenths.fract() == 0.0 {
            format!("{tenths:.0} s")
        } else {
            format!("{tenths:.1} s")
        };
    }
    let s = (ms / 1000.0).round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => {
            let (m, rest) = (s / 60, s % 60);
            if rest == 0 {
                format!("{m} min")
            } else {
                format!("{m} min {rest} s")
            }
        }
        _ => hours_minutes(s),
    }
}

/// `"1 action"`, `"5 actions"`.
pub fn actions(n: u32) -> String {
    if n == 1 {
        "1 action".to_owned()
    } else {
        format!("{n} actions")
    }
}

/// The audit log's words for an end reason (SPEC §6).
pub fn reason_label(reason: EndReason) -> &'static str {
    match reason {
        EndReason::TabClosed => "tab closed",
        EndReason::UserStopped => "stopped by you",
        EndReason::SystemIdle => "system idle",
        EndReason::ScreenLocked => "screen locked",
        EndReason::DomainBlocked => "domain blocked",
        EndReason::GlobalStop => "stopped with Stop all",
        EndReason::ExtensionReload => "extension reloaded",
    }
}

/// `"agent tab"` or `"your tab"`.
pub fn owner_label(owner: SessionOwner) -> &'static str {
    match owner {
        SessionOwner::Agent => "agent tab",
        SessionOwner::User => "your tab",
    }
}

/// A session's domain for display (`"(no domain)"` for `about:blank` and the like).
pub fn domain_label(domain: &str) -> &str {
    if domain.is_empty() {
        "(no domain)"
    } else {
        domain
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The When column: `"14:03:22"` today, `"Nov 29, 14:03:22"` earlier this year, `"2023-11-29 14:03"` before.
pub fn when(at_ms: f64, now_ms: f64, tz_offset_min: i32) -> String {
    let (t, now) = (civil(at_ms, tz_offset_min), civil(now_ms, tz_offset_min));
    let time = format!("{:02}:{:02}:{:02}", t.hour, t.minute, t.second);
    if (t.year, t.month, t.day) == (now.year, now.month, now.day) {
        time
    } else if t.year == now.year {
        format!("{} {}, {time}", MONTHS[(t.month - 1) as usize], t.day)
    } else {
        format!(
            "{}-{:02}-{:02} {:02}:{:02}",
            t.year, t.month, t.day, t.hour, t.minute
        )
    }
}

/// How the connection state looks: a coloured dot (`tone`), a headline, a detail line, and for a fatal state the
/// fix and whether to offer the options page (SPEC §2, §10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionView {
    /// `"ok"`, `"busy"` or `"error"` (a CSS class).
    pub tone: &'static str,
    /// `"Connected"`, `"Connecting…"`, `"Version mismatch"`, `"Pairing rejected"`, `"Connection refused"`.
    pub headline: String,
    /// The URL, or the bridge's message.
    pub detail: String,
    /// What the user has to do (fatal states only).
    pub fix: Option<String>,
}

impl ConnectionView {
    /// The view of a stored state; `None` (nothing stored yet) reads as connecting to the default URL.
    pub fn of(state: Option<&ConnectionState>) -> ConnectionView {
        match state {
            None => ConnectionView {
                tone: "busy",
                headline: "Connecting…".to_owned(),
                detail: format!(
                    "Waiting for bua-bridge at {}",
                    crate::settings::DEFAULT_BACKEND_URL
                ),
                fix: None,
            },
            Some(ConnectionState::Connecting { url }) => ConnectionView {
                tone: "busy",
                headline: "Connecting…".to_owned(),
                detail: format!("Waiting for bua-bridge at {url}"),
                fix: None,
            },
            Some(ConnectionState::Connected { url }) => ConnectionView {
                tone: "ok",
                headline: "Connected".to_owned(),
                detail: url.clone(),
                fix: None,
            },
            Some(ConnectionState::Fatal { code, message, fix }) => ConnectionView {
                tone: "error",
                headline: match code {
                    ErrorCode::ProtocolVersionMismatch => "Version mismatch",
                    ErrorCode::Unauthorized => "Pairing rejected",
                    _ => "Connection refused",
                }
                .to_owned(),
                detail: fatal_reason(*code, message),
                fix: Some(fix.clone()),
            },
        }
    }

    /// The detail and the fix as one message (the options page's status line): `"Wrong pairing token.
    /// Re-pair: copy the token …"`.
    pub fn message(&self) -> String {
        match &self.fix {
            Some(fix) => format!("{} {fix}", self.detail),
            None => self.detail.clone(),
        }
    }
}

/// The bridge's reason for rejecting the handshake as one sentence. For a rejected token only the reason
/// is kept (`"wrong pairing token: paste the token … into the extension's options"` → `"Wrong pairing
/// token."`): the bridge's advice is for every client, the fix that follows is the extension's own.
pub fn fatal_reason(code: ErrorCode, message: &str) -> String {
    let message = message.trim();
    let reason = match code {
        ErrorCode::Unauthorized => message.split_once(": ").map_or(message, |(what, _)| what),
        _ => message,
    };
    let reason = reason.trim().trim_end_matches(['.', ';', ':', ',']);
    let mut chars = reason.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => "The bridge refused the connection.".to_owned(),
    }
}

/// One row of the popup's session list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// The key.
    pub tab_id: i64,
    /// `"shop.example"`.
    pub domain: String,
    /// `"agent"` or `"user"` (a CSS class and the badge text).
    pub owner: &'static str,
    /// `"tab 12 · 3 min · 5 actions"`.
    pub meta: String,
    /// The Stop button's accessible name: `"Stop the session on shop.example (tab 12)"`.
    pub stop_label: String,
}

impl SessionRow {
    /// The row of `session` at `now_ms`.
    pub fn of(session: &Session, now_ms: f64) -> SessionRow {
        let domain = domain_label(&session.domain).to_owned();
        SessionRow {
            tab_id: session.tab_id,
            owner: session.owner.as_str(),
            meta: format!(
                "tab {} · {} · {}",
                session.tab_id,
                age(now_ms - session.started_at),
                actions(session.action_count)
            ),
            stop_label: format!("Stop the session on {domain} (tab {})", session.tab_id),
            domain,
        }
    }
}

/// How a handoff ended, as the audit log says it.
pub fn handoff_label(outcome: HandoffOutcome) -> &'static str {
    match outcome {
        HandoffOutcome::Page => "page cleared",
        HandoffOutcome::User => "done (you)",
        HandoffOutcome::Cancelled => "cancelled (you)",
        HandoffOutcome::Timeout => "timed out",
        HandoffOutcome::SessionEnded => "session ended",
    }
}

/// One row of the audit log table: When / Event / Domain + tabId / Detail (SPEC §10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// [`when`].
    pub when: String,
    /// [`timestamp`], for the cell's title.
    pub timestamp: String,
    /// `"START"`, `"END"` or `"HANDOFF"`.
    pub event: &'static str,
    /// `"start"`, `"end"` or `"handoff"` (a CSS class: each is coloured differently).
    pub event_class: &'static str,
    /// The domain.
    pub domain: String,
    /// `"tab 12"`.
    pub tab: String,
    /// START: `"agent tab · cli-1"` / `"your tab"`; END: `"stopped by you · 3 min 20 s · 5 actions"`.
    pub detail: String,
}

impl LogRow {
    /// The row of one audit log entry.
    pub fn of(entry: &HistoryEntry, now_ms: f64, tz_offset_min: i32) -> LogRow {
        let (event, event_class) = match entry.event {
            HistoryKind::Start => ("START", "start"),
            HistoryKind::End => ("END", "end"),
            HistoryKind::Handoff => ("HANDOFF", "handoff"),
        };
        let detail = match entry.event {
            HistoryKind::Start => match &entry.agent_owner {
                Some(owner) if entry.owner == SessionOwner::Agent => {
                    format!("{} · {owner}", owner_label(entry.owner))
                }
                _ => owner_label(entry.owner).to_owned(),
            },
            HistoryKind::End => {
                let mut parts = vec![entry.reason.map(reason_label).unwrap_or("ended").to_owned()];
                if let Some(ms) = entry.duration_ms {
                    parts.push(duration(ms));
                }
                if let Some(n) = entry.action_count {
                    parts.push(actions(n));
                }
                parts.join(" · ")
            }
            HistoryKind::Handoff => {
                let mut parts = vec![format!(
                    "\u{201c}{}\u{201d}",
                    entry.request.as_deref().unwrap_or("")
                )];
                parts.push(
                    entry
                        .outcome
                        .map(handoff_label)
                        .unwrap_or("ended")
                        .to_owned(),
                );
                if let Some(ms) = entry.duration_ms {
                    parts.push(duration(ms));
                }
                parts.join(" · ")
            }
        };
        LogRow {
            when: when(entry.at, now_ms, tz_offset_min),
            timestamp: timestamp(entry.at, tz_offset_min),
            event,
            event_class,
            domain: domain_label(&entry.domain).to_owned(),
            tab: format!("tab {}", entry.tab_id),
            detail,
        }
    }
}

/// One page of a list of `total` rows: the half-open index range and its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageView {
    /// First row index (0-based).
    pub start: usize,
    /// One past the last row index.
    pub end: usize,
    /// The page actually shown (clamped).
    pub page: usize,
    /// `"1–50 of 1000"`, `"No entries"`.
    pub label: String,
    /// Whether a newer (previous) page exists.
    pub has_newer: bool,
    /// Whether an older (next) page exists.
    pub has_older: bool,
}

/// Page `page` (0 = newest) of `total` rows, `size` per page; a page past the end is clamped to the last one.
pub fn page(total: usize, page: usize, size: usize) -> PageView {
    let size = size.max(1);
    let pages = total.div_ceil(size).max(1);
    let page = page.min(pages - 1);
    let start = (page * size).min(total);
    let end = (start + size).min(total);
    PageView {
        start,
        end,
        page,
        label: if total == 0 {
            "No entries".to_owned()
        } else {
            format!("{}–{} of {total}", start + 1, end)
        },
        has_newer: page > 0,
        has_older: end < total,
    }
}

/// What adding `raw` to the blocklist would do, shown while typing: `Ok("Blocks bücher.example → xn--…")`
/// or `Err(reason)`; `Ok("")` for an empty field.
pub fn blocklist_preview(raw: &str, list: &[String]) -> Result<String, String> {
    if raw.trim().is_empty() {
        return Ok(String::new());
    }
    match crate::blocklist::normalize_entry(raw) {
        Ok(entry) if list.contains(&entry) => Err(format!("{entry} is already blocked")),
        Ok(entry) => Ok(format!("Will block {entry} and all its subdomains")),
        Err(e) => Err(e.to_string()),
    }
}

/// The idle timeout field shows minutes: `1800` → `"30"`, `15` → `"0.25"`, `90` → `"1.5"`.
pub fn idle_minutes(seconds: u32) -> String {
    let minutes = f64::from(seconds) / 60.0;
    let text = format!("{minutes:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Parses the idle timeout field (minutes, decimals allowed) into seconds within 15 … 86400
/// (Chrome's `idle.setDetectionInterval` minimum is 15 s).
pub fn parse_idle_minutes(text: &str) -> Result<u32, String> {
    let minutes: f64 = text
        .trim()
        .replace(',', ".")
        .parse()
        .map_err(|_| format!("`{}` is not a number of minutes", text.trim()))?;
    let seconds = (minutes * 60.0).round();
    if !seconds.is_finite() || !(15.0..=86_400.0).contains(&seconds) {
        return Err("Use 0.25 to 1440 minutes (15 s to 24 h)".to_owned());
    }
    Ok(seconds as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_are_compact_and_round_down() {
        for (ms, shown) in [
            (-5.0, "now"),
            (999.0, "now"),
            (12_400.0, "12 s"),
            (59_999.0, "59 s"),
            (60_000.0, "1 min"),
            (3_599_000.0, "59 min"),
            (3_600_000.0, "1 h"),
            (3_900_000.0, "1 h 5 min"),
            (2.0 * 86_400_000.0, "2 d"),
            (2.0 * 86_400_000.0 + 3.0 * 3_600_000.0, "2 d 3 h"),
        ] {
            assert_eq!(age(ms), shown, "{ms} ms");
        }
    }

    #[test]
    fn durations_keep_seconds_under_an_hour() {
        for (ms, shown) in [
            (0.0, "0 s"),
            (420.0, "0.4 s"),
            (1_000.0, "1 s"),
            (2_345.0, "2.3 s"),
            (45_000.0, "45 s"),
            (200_000.0, "3 min 20 s"),
            (180_000.0, "3 min"),
            (3_900_000.0, "1 h 5 min"),
        ] {
            assert_eq!(duration(ms), shown, "{ms} ms");
        }
    }

    #[test]
    fn when_shows_the_time_today_and_the_date_otherwise_in_local_time() {
        // 2025-11-30 13:03:22 UTC; Paris is UTC+1 in winter (getTimezoneOffset() = -60).
        let at = 1_764_507_802_000.0;
        assert_eq!(timestamp(at, 0), "2025-11-30 13:03:22");
        assert_eq!(timestamp(at, -60), "2025-11-30 14:03:22");
        assert_eq!(when(at, at + 60_000.0, -60), "14:03:22");
        assert_eq!(when(at, at + 86_400_000.0, -60), "Nov 30, 14:03:22");
        assert_eq!(when(at, at + 400.0 * 86_400_000.0, -60), "2025-11-30 14:03");
        // Local midnight decides "today", not UTC's: 23:30 UTC on Nov 30 is Dec 1 in Paris.
        let late = 1_764_545_400_000.0; // 2025-11-30 23:30:00 UTC
        assert_eq!(timestamp(late, -60), "2025-12-01 00:30:00");
        assert_eq!(when(late, late + 3_600_000.0, -60), "00:30:00");
        assert_eq!(timestamp(0.0, 0), "1970-01-01 00:00:00");
        assert_eq!(timestamp(951_782_400_000.0, 0), "2000-02-29 00:00:00");
    }

    #[test]
    fn fatal_states_say_what_went_wrong_and_how_to_fix_it() {
        let fatal = |code, message: &str| {
            ConnectionState::fatal(bua_protocol::ErrorBody::new(code, message.to_owned()))
        };
        let v = ConnectionView::of(Some(&fatal(
            ErrorCode::ProtocolVersionMismatch,
            "bridge needs protocol 5",
        )));
        assert_eq!(
            (v.tone, v.headline.as_str(), v.detail.as_str()),
            ("error", "Version mismatch", "Bridge needs protocol 5.")
        );
        assert!(v
            .fix
            .as_deref()
            .is_some_and(|f| f.starts_with("Update the extension")));
        let v = ConnectionView::of(Some(&fatal(ErrorCode::Unauthorized, "wrong token")));
        assert_eq!(v.headline, "Pairing rejected");
        assert!(v.fix.as_deref().is_some_and(|f| f.starts_with("Re-pair")));

        // The bridge's own advice is not joined to ours: one reason, one fix, each a whole sentence.
        let v = ConnectionView::of(Some(&fatal(
            ErrorCode::Unauthorized,
            "wrong pairing token: paste the token printed by `bua-bridge serve` (or in ~/.config/bua/token) \
             into the extension's options",
        )));
        assert_eq!(v.detail, "Wrong pairing token.");
        let m = v.message();
        assert!(
            m.starts_with("Wrong pairing token. Re-pair: copy the token"),
            "{m}"
        );
        assert_eq!(
            m.matches("paste").count() + m.matches("copy").count(),
            1,
            "{m}"
        );
        assert!(m.ends_with('.'), "{m}");
        assert_eq!(
            fatal_reason(ErrorCode::Unauthorized, ""),
            "The bridge refused the connection."
        );

        let v = ConnectionView::of(Some(&ConnectionState::Connected {
            url: "ws://127.0.0.1:9225".into(),
        }));
        assert_eq!(
            (v.tone, v.headline.as_str(), v.detail.as_str(), v.fix),
            ("ok", "Connected", "ws://127.0.0.1:9225", None)
        );
        let v = ConnectionView::of(None);
        assert_eq!((v.tone, v.headline.as_str()), ("busy", "Connecting…"));
        assert_eq!(v.detail, "Waiting for bua-bridge at ws://127.0.0.1:9225");
    }

    fn session(owner: SessionOwner, domain: &str) -> Session {
        Session {
            tab_id: 12,
            domain: domain.into(),
            started_at: 1_000.0,
            last_action_at: 5_000.0,
            action_count: 5,
            owner,
            agent_owner: None,
        }
    }

    #[test]
    fn a_session_row_names_domain_tab_owner_age_and_count() {
        let row = SessionRow::of(&session(SessionOwner::Agent, "shop.example"), 181_000.0);
        assert_eq!(
            row,
            SessionRow {
                tab_id: 12,
                domain: "shop.example".into(),
                owner: "agent",
                meta: "tab 12 · 3 min · 5 actions".into(),
                stop_label: "Stop the session on shop.example (tab 12)".into(),
            }
        );
        let row = SessionRow::of(&session(SessionOwner::User, ""), 1_000.0);
        assert_eq!((row.owner, row.domain.as_str()), ("user", "(no domain)"));
        assert_eq!(row.meta, "tab 12 · now · 5 actions");
    }

    #[test]
    fn log_rows_show_start_owner_and_end_reason_duration_count() {
        let start = HistoryEntry {
            event: HistoryKind::Start,
            at: 1_764_507_802_000.0,
            tab_id: 7,
            domain: "docs.example".into(),
            owner: SessionOwner::Agent,
            agent_owner: Some("cli-3f".into()),
            reason: None,
            duration_ms: None,
            action_count: None,
            request: None,
            outcome: None,
        };
        let row = LogRow::of(&start, 1_764_507_802_000.0, 0);
        assert_eq!(
            (
                row.event,
                row.event_class,
                row.domain.as_str(),
                row.tab.as_str()
            ),
            ("START", "start", "docs.example", "tab 7")
        );
        assert_eq!(row.detail, "agent tab · cli-3f");
        assert_eq!(row.when, "13:03:22");
        let end = HistoryEntry {
            event: HistoryKind::End,
            reason: Some(EndReason::UserStopped),
            duration_ms: Some(200_000.0),
            action_count: Some(1),
            ..start
        };
        let row = LogRow::of(&end, 1_764_507_802_000.0, 0);
        assert_eq!((row.event, row.event_class), ("END", "end"));
        assert_eq!(row.detail, "stopped by you · 3 min 20 s · 1 action");
        let handoff = HistoryEntry {
            event: HistoryKind::Handoff,
            reason: None,
            duration_ms: Some(42_000.0),
            action_count: None,
            request: Some("sign in".into()),
            outcome: Some(HandoffOutcome::Page),
            ..end
        };
        let row = LogRow::of(&handoff, 1_764_507_802_000.0, 0);
        assert_eq!((row.event, row.event_class), ("HANDOFF", "handoff"));
        assert_eq!(row.detail, "\u{201c}sign in\u{201d} · page cleared · 42 s");
    }

    #[test]
    fn pages_of_fifty_cover_a_thousand_rows() {
        let first = page(1000, 0, LOG_PAGE_SIZE);
        assert_eq!(
            (first.start, first.end, first.label.as_str()),
            (0, 50, "1–50 of 1000")
        );
        assert!(!first.has_newer && first.has_older);
        let last = page(1000, 19, LOG_PAGE_SIZE);
        assert_eq!((last.start, last.end), (950, 1000));
        assert!(last.has_newer && !last.has_older);
        // Past the end (the log shrank): clamped to the last page.
        let clamped = page(120, 7, LOG_PAGE_SIZE);
        assert_eq!((clamped.page, clamped.start, clamped.end), (2, 100, 120));
        let empty = page(0, 3, LOG_PAGE_SIZE);
        assert_eq!(
            (empty.start, empty.end, empty.label.as_str()),
            (0, 0, "No entries")
        );
        assert!(!empty.has_newer && !empty.has_older);
    }

    #[test]
    fn the_blocklist_preview_shows_the_normalised_entry_or_the_reason() {
        let list = vec!["bank.example".to_owned()];
        assert_eq!(blocklist_preview("  ", &list), Ok(String::new()));
        assert_eq!(
            blocklist_preview("HTTPS://*.Bücher.Example:8443/path", &list),
            Ok("Will block xn--bcher-kva.example and all its subdomains".into())
        );
        assert_eq!(
            blocklist_preview("https://bank.example/login", &list),
            Err("bank.example is already blocked".into())
        );
        let err = blocklist_preview("not a domain", &list).expect_err("spaces");
        assert!(err.contains("is not a domain"), "{err}");
    }

    #[test]
    fn the_idle_timeout_is_edited_in_minutes_and_kept_in_seconds() {
        assert_eq!(idle_minutes(1800), "30");
        assert_eq!(idle_minutes(15), "0.25");
        assert_eq!(idle_minutes(90), "1.5");
        assert_eq!(parse_idle_minutes("30"), Ok(1800));
        assert_eq!(parse_idle_minutes(" 0,25 "), Ok(15));
        assert_eq!(parse_idle_minutes("1440"), Ok(86_400));
        assert!(parse_idle_minutes("0.1").is_err());
        assert!(parse_idle_minutes("2000").is_err());
        assert!(parse_idle_minutes("soon").is_err());
    }

    #[test]
    fn the_controls_summary_names_each_control_and_who_set_it() {
        let mut settings = crate::api::Settings {
            backend_url: String::new(),
            token: String::new(),
            idle_timeout_seconds: 60,
            allowlist: vec![],
            no_evaluate: false,
            no_upload: false,
            bridge_controls: Default::default(),
        };
        assert_eq!(controls_summary(&settings), None);
        settings.allowlist = vec!["shop.test".into(), "mail.test".into()];
        settings.no_evaluate = true;
        settings.bridge_controls.off = vec!["upload".into()];
        assert_eq!(
            controls_summary(&settings).as_deref(),
            Some("Unattended controls: only shop.test, mail.test · evaluate off · upload off (bridge)")
        );
    }
}
