//! Recently ended sessions, so that the agent's next action on a session the user (or the blocklist, or the
//! user's absence) ended is told why, instead of a bare `tab_not_found` / `session_not_found` that reads like
//! "open another tab and carry on" (SPEC §6 end reasons, §8 "messages say what to do next").
//!
//! Kept in memory only (a service-worker restart forgets them): the newest [`CAPACITY`] tabs, each for
//! [`TTL_MS`]. Remembered reasons: `user_stopped`, `global_stop`, `domain_blocked` (a blocklist hit only, not
//! a failed attach), `system_idle`, `screen_locked`. A new session on the same tab forgets its entry.
//!
//! The error codes stay those of SPEC §8; the notice is put first in the message ([`explain`]). The one code
//! change: an action that was already running when its session ended as `domain_blocked` fails with
//! `domain_blocked` (terminal), not `session_not_found`.

use crate::error::Error;
use bua_protocol::{EndReason, ErrorCode};
use std::cell::RefCell;
use std::collections::VecDeque;

/// Most tabs remembered.
pub const CAPACITY: usize = 64;

/// How long an end is remembered, ms (10 min).
pub const TTL_MS: f64 = 600_000.0;

/// The blocklist hit that ended a session as `domain_blocked`.
#[derive(Clone, Debug, PartialEq)]
pub struct Blocked {
    /// The matching normalised blocklist entry, e.g. `"blocked.example"`.
    pub entry: String,
    /// The URL the tab was on or went to, when known.
    pub url: Option<String>,
}

impl Blocked {
    /// The hit of blocklist `entry` on `url` (when known).
    pub fn new(entry: &str, url: Option<&str>) -> Blocked {
        Blocked {
            entry: entry.to_owned(),
            url: url.map(str::to_owned),
        }
    }
}

/// One ended session as remembered.
#[derive(Clone, Debug, PartialEq)]
pub struct RecentEnd {
    /// The session's tab.
    pub tab_id: i64,
    /// The session's domain when it ended.
    pub domain: String,
    /// Why it ended (one of the remembered reasons).
    pub reason: EndReason,
    /// ms since the Unix epoch.
    pub ended_at: f64,
    /// The bridge client that opened the tab (agent tabs only).
    pub agent_owner: Option<String>,
    /// The blocklist hit (`domain_blocked` only).
    pub blocked: Option<Blocked>,
}

/// Whether an end for `reason` is remembered (`blocked`: whether a blocklist hit is known for it; a
/// `domain_blocked` end without one is a failed attach, which the agent is told about by its own error).
pub fn remembers(reason: EndReason, blocked: bool) -> bool {
    match reason {
        EndReason::UserStopped
        | EndReason::GlobalStop
        | EndReason::SystemIdle
        | EndReason::ScreenLocked => true,
        EndReason::DomainBlocked => blocked,
        EndReason::TabClosed | EndReason::ExtensionReload => false,
    }
}

impl RecentEnd {
    /// What the agent is told first: who ended the session, when, and what to do now (stop and report).
    ///
    /// E.g. `"tab 12: the user stopped this session (Stop all) at 17:58:03 UTC: stop your plan and report to
    /// the user; do not reopen it"`.
    pub fn notice(&self) -> String {
        let tab = self.tab_id;
        let at = clock(self.ended_at);
        match self.reason {
            EndReason::GlobalStop => format!(
                "tab {tab}: the user stopped this session (Stop all) at {at}: stop your plan and report to the \
                 user; do not reopen it"
            ),
            EndReason::UserStopped => format!(
                "tab {tab}: the user stopped this session (Stop in the extension, or Cancel on the browser's \
                 debugging bar) at {at}: stop your plan and report to the user; do not reopen it"
            ),
            EndReason::SystemIdle => format!(
                "tab {tab}: this session ended at {at} because the user is away (no input for the idle \
                 timeout): stop your plan and report to the user; do not reopen it until the user is back"
            ),
            EndReason::ScreenLocked => format!(
                "tab {tab}: this session ended at {at} because the user locked the screen: stop your plan and \
                 report to the user; do not reopen it until the user is back"
            ),
            EndReason::DomainBlocked => {
                let what = match &self.blocked {
                    Some(Blocked {
                        entry,
                        url: Some(url),
                    }) => format!("{url} is on a blocked domain (blocklist entry `{entry}`)"),
                    Some(Blocked { entry, url: None }) => {
                        format!("{} is a blocked domain (blocklist entry `{entry}`)", self.domain)
                    }
                    None => format!("{} is a blocked domain", self.domain),
                };
                format!(
                    "tab {tab}: this session ended at {at} because {what}: stop this plan and report to the \
                     user; do not retry it on another tab or with another action"
                )
            }
            EndReason::TabClosed | EndReason::ExtensionReload => {
                format!("tab {tab}: this session ended ({}) at {at}", self.reason)
            }
        }
    }
}

/// `"17:58:03 UTC"` of ms since the Unix epoch.
fn clock(at_ms: f64) -> String {
    let full = crate::time::timestamp(at_ms, 0);
    let time = full.rsplit(' ').next().unwrap_or(&full);
    format!("{time} UTC")
}

/// The remembered ends, newest last; bounded by [`CAPACITY`] and [`TTL_MS`].
#[derive(Clone, Debug, Default)]
pub struct RecentEnds {
    entries: VecDeque<RecentEnd>,
}

impl RecentEnds {
    /// Remembers `end` (replacing an older end of the same tab), dropping expired and overflowing entries.
    pub fn remember(&mut self, end: RecentEnd) {
        let now = end.ended_at;
        self.entries.retain(|e| e.tab_id != end.tab_id);
        self.entries.push_back(end);
        self.expire(now);
        while self.entries.len() > CAPACITY {
            self.entries.pop_front();
        }
    }

    /// Forgets `tab_id` (a new session started on it).
    pub fn forget(&mut self, tab_id: i64) {
        self.entries.retain(|e| e.tab_id != tab_id);
    }

    /// The remembered end of `tab_id`, if not older than [`TTL_MS`] at `now`.
    pub fn for_tab(&self, tab_id: i64, now: f64) -> Option<&RecentEnd> {
        self.live(now).find(|e| e.tab_id == tab_id)
    }

    /// The newest remembered end of a tab `owner` opened.
    pub fn for_owner(&self, owner: &str, now: f64) -> Option<&RecentEnd> {
        self.live(now)
            .rev()
            .find(|e| e.agent_owner.as_deref() == Some(owner))
    }

    /// The newest remembered end of any tab.
    pub fn newest(&self, now: f64) -> Option<&RecentEnd> {
        self.live(now).next_back()
    }

    /// Number of entries held (expired ones included until the next [`RecentEnds::remember`]).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn live(&self, now: f64) -> impl DoubleEndedIterator<Item = &RecentEnd> {
        self.entries
            .iter()
            .filter(move |e| now - e.ended_at <= TTL_MS)
    }

    fn expire(&mut self, now: f64) {
        self.entries.retain(|e| now - e.ended_at <= TTL_MS);
    }
}

/// Puts `end`'s notice first in `error`'s message, for the errors an ended session leads to
/// (`tab_not_found`, `session_not_found`); other errors are returned as they are. An action that started
/// (`action_started`, ms) before a `domain_blocked` end fails with `domain_blocked` instead (SPEC §6: terminal).
pub fn explain(error: Error, end: &RecentEnd, action_started: f64) -> Error {
    if !matches!(
        error.code(),
        ErrorCode::TabNotFound | ErrorCode::SessionNotFound | ErrorCode::DomainBlocked
    ) {
        return error;
    }
    let notice = end.notice();
    let message = error.to_string();
    if end.reason == EndReason::DomainBlocked
        && end.ended_at >= action_started
        && error.code() != ErrorCode::DomainBlocked
    {
        return Error::DomainBlocked(notice);
    }
    if message.contains(&notice) || error.code() == ErrorCode::DomainBlocked {
        return error;
    }
    // The original advice ("call get_tabs", "call open_tab first") is what the agent must not do now.
    match error {
        Error::TabNotFound(_) => Error::TabNotFound(format!("{notice}. The tab is closed now")),
        _ => Error::SessionNotFound(format!("{notice}. The tab has no session now")),
    }
}

thread_local! {
    static RECENT: RefCell<RecentEnds> = RefCell::new(RecentEnds::default());
}

/// Remembers the end of a session, if its reason is one that is remembered ([`remembers`]).
pub fn remember(end: RecentEnd) {
    if remembers(end.reason, end.blocked.is_some()) {
        RECENT.with(|r| r.borrow_mut().remember(end));
    }
}

/// Forgets `tab_id` (a new session started there).
pub fn forget(tab_id: i64) {
    RECENT.with(|r| r.borrow_mut().forget(tab_id));
}

/// The remembered end of `tab_id`, if any.
pub fn for_tab(tab_id: i64) -> Option<RecentEnd> {
    let now = crate::time::now();
    RECENT.with(|r| r.borrow().for_tab(tab_id, now).cloned())
}

/// The newest remembered end for an action that omitted `tabId`: of a tab `owner` opened, else — when
/// `no_sessions_left` — of any tab.
pub fn for_omitted_tab(owner: &str, no_sessions_left: bool) -> Option<RecentEnd> {
    let now = crate::time::now();
    RECENT.with(|r| {
        let r = r.borrow();
        r.for_owner(owner, now)
            .or_else(|| no_sessions_left.then(|| r.newest(now)).flatten())
            .cloned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-30 17:58:03 UTC.
    const AT: f64 = 1_796_061_483_000.0;

    fn end(tab_id: i64, reason: EndReason, at: f64, owner: Option<&str>) -> RecentEnd {
        RecentEnd {
            tab_id,
            domain: format!("d{tab_id}.example"),
            reason,
            ended_at: at,
            agent_owner: owner.map(str::to_owned),
            blocked: None,
        }
    }

    #[test]
    fn the_notice_says_who_stopped_it_when_and_to_stop_and_report() {
        let n = end(12, EndReason::GlobalStop, AT, None).notice();
        assert_eq!(
            n,
            "tab 12: the user stopped this session (Stop all) at 17:58:03 UTC: stop your plan and report to \
             the user; do not reopen it"
        );
        let n = end(12, EndReason::UserStopped, AT, None).notice();
        assert!(n.contains("the user stopped this session (Stop"), "{n}");
        assert!(n.contains("do not reopen it"), "{n}");
        let n = end(12, EndReason::SystemIdle, AT, None).notice();
        assert!(n.contains("the user is away"), "{n}");
        assert!(!n.contains("the user stopped"), "{n}");
        let n = end(12, EndReason::ScreenLocked, AT, None).notice();
        assert!(n.contains("locked the screen"), "{n}");
        let mut blocked = end(12, EndReason::DomainBlocked, AT, None);
        blocked.blocked = Some(Blocked {
            entry: "blocked.localhost".into(),
            url: Some("http://blocked.localhost/x".into()),
        });
        let n = blocked.notice();
        assert!(
            n.contains("http://blocked.localhost/x is on a blocked domain (blocklist entry `blocked.localhost`)"),
            "{n}"
        );
        assert!(n.contains("do not retry"), "{n}");
    }

    #[test]
    fn only_user_driven_and_blocklist_ends_are_remembered() {
        assert!(remembers(EndReason::UserStopped, false));
        assert!(remembers(EndReason::GlobalStop, false));
        assert!(remembers(EndReason::SystemIdle, false));
        assert!(remembers(EndReason::ScreenLocked, false));
        assert!(remembers(EndReason::DomainBlocked, true));
        assert!(
            !remembers(EndReason::DomainBlocked, false),
            "a failed attach is not a blocklist hit"
        );
        assert!(!remembers(EndReason::TabClosed, false));
        assert!(!remembers(EndReason::ExtensionReload, false));
    }

    #[test]
    fn the_memory_is_bounded_by_count_and_age_and_a_new_session_forgets() {
        let mut r = RecentEnds::default();
        for tab in 0..(CAPACITY as i64 + 10) {
            r.remember(end(
                tab,
                EndReason::GlobalStop,
                AT + tab as f64,
                Some("cli"),
            ));
        }
        assert_eq!(r.len(), CAPACITY);
        assert!(r.for_tab(0, AT + 100.0).is_none(), "the oldest fell off");
        assert!(r.for_tab(CAPACITY as i64 + 9, AT + 100.0).is_some());
        assert!(
            r.for_tab(CAPACITY as i64 + 9, AT + TTL_MS + 1_000.0)
                .is_none(),
            "expired after 10 min"
        );
        r.forget(CAPACITY as i64 + 9);
        assert!(r.for_tab(CAPACITY as i64 + 9, AT + 100.0).is_none());
        // A later end of the same tab replaces the earlier one.
        r.remember(end(20, EndReason::UserStopped, AT + 500.0, None));
        assert_eq!(
            r.for_tab(20, AT + 600.0).map(|e| e.reason),
            Some(EndReason::UserStopped)
        );
        let expired = AT + 2.0 * TTL_MS;
        r.remember(end(1, EndReason::UserStopped, expired, None));
        assert_eq!(r.len(), 1, "expired entries are dropped on the next end");
    }

    #[test]
    fn an_omitted_tab_finds_the_owners_newest_end() {
        let mut r = RecentEnds::default();
        r.remember(end(1, EndReason::GlobalStop, AT, Some("cli")));
        r.remember(end(2, EndReason::GlobalStop, AT + 1.0, Some("mcp-1")));
        r.remember(end(3, EndReason::UserStopped, AT + 2.0, None));
        assert_eq!(r.for_owner("cli", AT + 5.0).map(|e| e.tab_id), Some(1));
        assert_eq!(r.for_owner("other", AT + 5.0).map(|e| e.tab_id), None);
        assert_eq!(r.newest(AT + 5.0).map(|e| e.tab_id), Some(3));
    }

    #[test]
    fn explain_puts_the_notice_first_and_keeps_the_code() {
        let stop = end(7, EndReason::GlobalStop, AT, Some("cli"));
        let e = explain(
            Error::TabNotFound(
                "tab 7 does not exist (closed?); call get_tabs to see the open tabs".into(),
            ),
            &stop,
            AT + 10.0,
        );
        assert_eq!(e.code(), ErrorCode::TabNotFound);
        let m = e.to_string();
        assert!(m.starts_with(&stop.notice()), "{m}");
        // Explaining twice does not repeat the notice.
        let again = explain(e.clone(), &stop, AT + 10.0);
        assert_eq!(again, e);
        // Other errors are left alone.
        let other = Error::ElementNotFound("no match".into());
        assert_eq!(explain(other.clone(), &stop, AT), other);
    }

    #[test]
    fn an_action_running_when_the_tab_hit_the_blocklist_fails_with_domain_blocked() {
        let mut blocked = end(8, EndReason::DomainBlocked, AT, Some("cli"));
        blocked.blocked = Some(Blocked {
            entry: "blocked.localhost".into(),
            url: Some("http://blocked.localhost/".into()),
        });
        let e = explain(
            Error::SessionNotFound("the session of tab 8 ended".into()),
            &blocked,
            AT - 50.0,
        );
        assert_eq!(e.code(), ErrorCode::DomainBlocked);
        assert!(e.to_string().contains("blocked.localhost"), "{e}");
        // An action sent after that end keeps its own code, with the notice first.
        let later = explain(
            Error::TabNotFound("tab 8 does not exist (closed?)".into()),
            &blocked,
            AT + 50.0,
        );
        assert_eq!(later.code(), ErrorCode::TabNotFound);
        assert!(
            later.to_string().starts_with("tab 8: this session ended"),
            "{later}"
        );
    }
}
