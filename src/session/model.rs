//! The session record and the pure operations on the session table (SPEC §6).
//!
//! Nothing here touches Chrome: the manager ([`super::manager`]) reads the table from storage under the write lock,
//! applies one of these functions, and writes it back. Times are ms since the Unix epoch (`Date.now()`).

use serde::{Deserialize, Serialize};

/// Who owns the tab a session runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SessionOwner {
    /// A tab the agent opened (`open_tab`, `click {newTab:true}`); closed when its session ends.
    Agent,
    /// The user's own tab; left open when its session ends.
    User,
}

impl SessionOwner {
    /// The wire spelling: `"agent"` or `"user"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            SessionOwner::Agent => "agent",
            SessionOwner::User => "user",
        }
    }
}

/// One active session, keyed by `tabId`; stored in `chrome.storage.local` `activeSessions` as
/// `[{tabId, domain, startedAt, lastActionAt, actionCount, owner, agentOwner?}]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    /// The tab (the key).
    pub tab_id: i64,
    /// The tab's current host, e.g. `"shop.example.com"`; updated silently when the tab navigates.
    pub domain: String,
    /// ms since the Unix epoch.
    pub started_at: f64,
    /// ms since the Unix epoch of the last action dispatched.
    pub last_action_at: f64,
    /// Actions dispatched in this session.
    pub action_count: u32,
    /// Agent tab or user tab.
    pub owner: SessionOwner,
    /// For agent tabs: the bridge client (`"cli-…"`) that opened the tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_owner: Option<String>,
}

/// What [`ensure`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Ensured {
    /// No session existed: this one was started (emit `session_started`).
    Started(Session),
    /// A session on the same domain exists and is reused.
    Reused,
    /// The tab navigated: the session's domain was updated silently (no event).
    DomainUpdated {
        /// The previous domain.
        from: String,
    },
}

/// Creates or reuses the session of `tab_id` (SPEC §6 "ensure session"). An empty `domain` (the tab is on
/// `about:blank` or still loading) never overwrites a known one.
pub fn ensure(
    sessions: &mut Vec<Session>,
    tab_id: i64,
    domain: &str,
    owner: SessionOwner,
    agent_owner: Option<&str>,
    now: f64,
) -> Ensured {
    if let Some(s) = sessions.iter_mut().find(|s| s.tab_id == tab_id) {
        if domain.is_empty() || s.domain == domain {
            return Ensured::Reused;
        }
        let from = std::mem::replace(&mut s.domain, domain.to_owned());
        return Ensured::DomainUpdated { from };
    }
    let session = Session {
        tab_id,
        domain: domain.to_owned(),
        started_at: now,
        last_action_at: now,
        action_count: 0,
        owner,
        agent_owner: agent_owner.map(str::to_owned),
    };
    sessions.push(session.clone());
    Ensured::Started(session)
}

/// Counts one action on the tab's session (SPEC §6 "recordAction"): `actionCount + 1`, `lastActionAt = now`.
/// Returns the updated session, or `None` when the session ended meanwhile (nothing is recreated).
pub fn record(sessions: &mut [Session], tab_id: i64, now: f64) -> Option<Session> {
    let s = sessions.iter_mut().find(|s| s.tab_id == tab_id)?;
    s.action_count = s.action_count.saturating_add(1);
    s.last_action_at = s.last_action_at.max(now);
    Some(s.clone())
}

/// Takes the session of `tab_id` out of the table.
pub fn remove(sessions: &mut Vec<Session>, tab_id: i64) -> Option<Session> {
    let i = sessions.iter().position(|s| s.tab_id == tab_id)?;
    Some(sessions.remove(i))
}

/// Picks the tab for an action whose `tabId` was omitted (SPEC §6, "Omitted `tabId`"):
///
/// 1. a session on a tab the requesting `owner` opened; among several, the one used most recently (another
///    agent's tabs are never picked: agents are isolated from each other);
/// 2. a user-tab session, only when it is the only candidate;
/// 3. otherwise `Err(message)` for `session_not_found`, listing the candidates (`tab 12 (example.com, user)`)
///    so the agent can retry with an explicit `tabId`.
pub fn pick_tab(sessions: &[Session], owner: &str) -> Result<i64, String> {
    let most_recent = |it: &mut dyn Iterator<Item = &Session>| {
        it.max_by(|a, b| {
            a.last_action_at
                .total_cmp(&b.last_action_at)
                .then(a.started_at.total_cmp(&b.started_at))
        })
        .map(|s| s.tab_id)
    };
    let agent = |s: &&Session| s.owner == SessionOwner::Agent;
    if let Some(tab) = most_recent(
        &mut sessions
            .iter()
            .filter(agent)
            .filter(|s| s.agent_owner.as_deref() == Some(owner)),
    ) {
        return Ok(tab);
    }
    let candidates: Vec<Session> = sessions
        .iter()
        .filter(|s| !others_agent_tab(s, owner))
        .cloned()
        .collect();
    if let Some(tab) = most_recent(&mut candidates.iter().filter(agent)) {
        return Ok(tab);
    }
    match candidates.as_slice() {
        [] => Err(
            "no active session to act on: pass tabId (see get_tabs) or call open_tab first"
                .to_owned(),
        ),
        [only] => Ok(only.tab_id),
        many => Err(format!(
            "tabId omitted but {} sessions could be meant: {}; pass tabId explicitly",
            many.len(),
            describe(many)
        )),
    }
}

/// Whether `s` is an agent tab another agent owner than `owner` opened (SPEC §6: refused to `owner`).
pub fn others_agent_tab(s: &Session, owner: &str) -> bool {
    s.owner == SessionOwner::Agent && s.agent_owner.as_deref().is_some_and(|o| o != owner)
}

/// `tab 12 (example.com, user), tab 14 (shop.example, agent)`.
pub fn describe(sessions: &[Session]) -> String {
    sessions
        .iter()
        .map(|s| {
            let domain = if s.domain.is_empty() {
                "no domain"
            } else {
                &s.domain
            };
            format!("tab {} ({domain}, {})", s.tab_id, s.owner.as_str())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::{block_on, FakeAsyncStore};
    use crate::store::LockedStore;

    fn session(tab_id: i64, owner: SessionOwner, agent_owner: Option<&str>, last: f64) -> Session {
        Session {
            tab_id,
            domain: format!("d{tab_id}.example"),
            started_at: 1.0,
            last_action_at: last,
            action_count: 0,
            owner,
            agent_owner: agent_owner.map(str::to_owned),
        }
    }

    #[test]
    fn ensure_starts_reuses_and_updates_the_domain_silently() {
        let mut table = Vec::new();
        let started = ensure(&mut table, 7, "a.example", SessionOwner::User, None, 100.0);
        let Ensured::Started(s) = started else {
            panic!("{started:?}")
        };
        assert_eq!(
            (s.tab_id, s.domain.as_str(), s.started_at, s.action_count),
            (7, "a.example", 100.0, 0)
        );
        assert_eq!(
            ensure(&mut table, 7, "a.example", SessionOwner::User, None, 200.0),
            Ensured::Reused
        );
        assert_eq!(
            ensure(&mut table, 7, "b.example", SessionOwner::User, None, 300.0),
            Ensured::DomainUpdated {
                from: "a.example".into()
            }
        );
        assert_eq!(
            ensure(&mut table, 7, "", SessionOwner::User, None, 400.0),
            Ensured::Reused
        );
        assert_eq!(table.len(), 1);
        assert_eq!(table[0].domain, "b.example");
        assert_eq!(
            table[0].started_at, 100.0,
            "startedAt survives a domain change"
        );
    }

    #[test]
    fn record_counts_actions_and_never_recreates_an_ended_session() {
        let mut table = Vec::new();
        ensure(
            &mut table,
            3,
            "a.example",
            SessionOwner::Agent,
            Some("cli-1"),
            10.0,
        );
        assert_eq!(record(&mut table, 3, 20.0).map(|s| s.action_count), Some(1));
        let s = record(&mut table, 3, 30.0).expect("session");
        assert_eq!((s.action_count, s.last_action_at), (2, 30.0));
        assert!(remove(&mut table, 3).is_some());
        assert_eq!(record(&mut table, 3, 40.0), None);
        assert!(table.is_empty());
    }

    #[test]
    fn omitted_tab_prefers_the_requesting_owners_agent_tab_and_never_takes_another_agents() {
        let table = vec![
            session(1, SessionOwner::User, None, 50.0),
            session(2, SessionOwner::Agent, Some("cli-a"), 10.0),
            session(3, SessionOwner::Agent, Some("cli-b"), 40.0),
            session(4, SessionOwner::Agent, Some("cli-a"), 20.0),
        ];
        // cli-a's own agent tabs first, the most recently used of them.
        assert_eq!(pick_tab(&table, "cli-a"), Ok(4));
        assert_eq!(pick_tab(&table, "cli-b"), Ok(3));
        // An owner without agent tabs gets the user's tab when it is the only one left, never another agent's.
        assert_eq!(pick_tab(&table, "cli-c"), Ok(1));
        let message = pick_tab(&table[1..], "cli-c").expect_err("only other agents' tabs");
        assert!(message.contains("open_tab"), "{message}");
    }

    #[test]
    fn omitted_tab_takes_a_user_session_only_when_it_is_the_only_candidate() {
        let table = vec![session(9, SessionOwner::User, None, 5.0)];
        assert_eq!(pick_tab(&table, "cli-a"), Ok(9));
    }

    #[test]
    fn omitted_tab_with_several_user_sessions_is_session_not_found_naming_them() {
        let table = vec![
            session(11, SessionOwner::User, None, 5.0),
            session(12, SessionOwner::User, None, 6.0),
        ];
        let message = pick_tab(&table, "cli-a").expect_err("ambiguous");
        assert!(message.contains("tab 11 (d11.example, user)"), "{message}");
        assert!(message.contains("tab 12 (d12.example, user)"), "{message}");
        assert!(message.contains("pass tabId"), "{message}");

        let message = pick_tab(&[], "cli-a").expect_err("nothing to act on");
        assert!(message.contains("open_tab"), "{message}");
    }

    #[test]
    fn the_stored_shape_is_camel_case_with_the_owner_as_a_word() {
        let s = session(5, SessionOwner::Agent, Some("cli-x"), 2.0);
        let v = serde_json::to_value(&s).expect("json");
        assert_eq!(
            v,
            serde_json::json!({"tabId":5,"domain":"d5.example","startedAt":1.0,"lastActionAt":2.0,
                               "actionCount":0,"owner":"agent","agentOwner":"cli-x"})
        );
        let back: Session = serde_json::from_value(v).expect("parse");
        assert_eq!(back, s);
    }

    /// 100 concurrent mutations under the storage write lock (SPEC §6): 50 tabs each start a session, and every tab also records one action.
    async fn hundred_mutations(store: &LockedStore<FakeAsyncStore>, locked: bool) {
        let mutate = |tab: i64, start: bool| async move {
            let f = move |table: &mut Vec<Session>| {
                if start {
                    matches!(
                        ensure(table, tab, "a.example", SessionOwner::User, None, 1.0),
                        Ensured::Started(_)
                    )
                } else {
                    record(table, tab, 2.0).is_some()
                }
            };
            if locked {
                store.update("activeSessions", f).await
            } else {
                store.update_unlocked("activeSessions", f).await
            }
        };
        let starts = (0..50).map(|tab| mutate(tab, true));
        futures::future::join_all(starts).await;
        let records = (0..50).map(|tab| mutate(tab, false));
        futures::future::join_all(records).await;
    }

    #[test]
    fn a_hundred_concurrent_session_mutations_under_the_write_lock_lose_none() {
        let store = LockedStore::new(FakeAsyncStore::default());
        block_on(hundred_mutations(&store, true));
        let table: Vec<Session> = block_on(store.read("activeSessions")).expect("read");
        assert_eq!(table.len(), 50, "every start survived");
        assert!(
            table.iter().all(|s| s.action_count == 1),
            "every record survived: {:?}",
            table.iter().map(|s| s.action_count).collect::<Vec<_>>()
        );
    }

    #[test]
    fn the_same_mutations_lose_writes_when_the_lock_is_bypassed() {
        let store = LockedStore::new(FakeAsyncStore::default());
        block_on(hundred_mutations(&store, false));
        let table: Vec<Session> = block_on(store.read("activeSessions")).expect("read");
        let recorded = table.iter().filter(|s| s.action_count == 1).count();
        assert!(
            table.len() < 50 || recorded < 50,
            "without the lock interleaved writes must lose some mutations (sessions {}, recorded {recorded})",
            table.len()
        );
    }
}
