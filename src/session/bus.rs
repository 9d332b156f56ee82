//! The session event bus (SPEC §6, "Audit log"): the manager emits, subscribers react.
//! Two subscribers exist: the audit log ([`super::history`]) and the WebSocket forwarder (`crate::bridge::forward`);
//! neither is called by anything else, so every start and every end path reaches both.
//!
//! Emission is synchronous and in order: a subscriber sees the events in the order they were emitted, which
//! is how `global_stop` reaches the bridge before the `session_ended` events of a Stop all.

use super::model::{Session, SessionOwner};
use bua_protocol::{EndReason, Event, HandoffOutcome};
use std::cell::RefCell;
use std::rc::Rc;

/// One thing that happened to the session model.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionEvent {
    /// A session started (first action on a tab, or `open_tab`).
    Started(Session),
    /// A session ended; `session` is its last state (`actionCount` included).
    Ended {
        /// The session as it was when it ended.
        session: Session,
        /// Why it ended.
        reason: EndReason,
        /// ms since the Unix epoch.
        ended_at: f64,
    },
    /// An action or a navigation hit the blocklist (`entry` is the normalised blocklist entry).
    DomainBlocked {
        /// The matching blocklist entry.
        entry: String,
        /// The refused URL, when there was one.
        url: Option<String>,
        /// The tab, when there was one.
        tab_id: Option<i64>,
    },
    /// Stop all: emitted before the per-session ends.
    GlobalStop {
        /// ms since the Unix epoch.
        at: f64,
        /// Sessions that were active.
        session_count: u32,
    },
    /// A session tab or agent tab was closed.
    TabClosed {
        /// The closed tab.
        tab_id: i64,
    },
    /// The agent handed a session tab to the person (`handoff`, SPEC §4).
    HandoffStarted {
        /// The tab shown.
        tab_id: i64,
        /// Its domain.
        domain: String,
        /// The agent's one-line reason.
        reason: String,
        /// ms since the Unix epoch.
        started_at: f64,
    },
    /// A handoff ended (recorded in the audit log as one HANDOFF row).
    HandoffEnded {
        /// The tab.
        tab_id: i64,
        /// Its domain when the handoff began.
        domain: String,
        /// The agent's one-line reason.
        reason: String,
        /// How it ended.
        outcome: HandoffOutcome,
        /// The owner of the tab's session.
        owner: SessionOwner,
        /// ms since the Unix epoch.
        started_at: f64,
        /// ms since the Unix epoch.
        ended_at: f64,
    },
}

impl SessionEvent {
    /// The protocol event of SPEC §8 sent to the bridge.
    pub fn to_protocol(&self) -> Event {
        match self {
            SessionEvent::Started(s) => Event::SessionStarted {
                tab_id: s.tab_id,
                domain: s.domain.clone(),
                started_at: s.started_at,
                owner: s.owner.as_str().to_owned(),
            },
            SessionEvent::Ended {
                session,
                reason,
                ended_at,
            } => Event::SessionEnded {
                tab_id: session.tab_id,
                domain: session.domain.clone(),
                reason: *reason,
                started_at: session.started_at,
                ended_at: *ended_at,
                action_count: session.action_count,
            },
            SessionEvent::DomainBlocked { entry, url, tab_id } => Event::DomainBlocked {
                domain: entry.clone(),
                url: url.clone(),
                tab_id: *tab_id,
            },
            SessionEvent::GlobalStop { at, session_count } => Event::GlobalStop {
                at: *at,
                session_count: *session_count,
            },
            SessionEvent::TabClosed { tab_id } => Event::TabClosed { tab_id: *tab_id },
            SessionEvent::HandoffStarted {
                tab_id,
                domain,
                reason,
                started_at,
            } => Event::HandoffStarted {
                tab_id: *tab_id,
                domain: domain.clone(),
                reason: reason.clone(),
                started_at: *started_at,
            },
            SessionEvent::HandoffEnded {
                tab_id,
                domain,
                outcome,
                started_at,
                ended_at,
                ..
            } => Event::HandoffEnded {
                tab_id: *tab_id,
                domain: domain.clone(),
                outcome: *outcome,
                started_at: *started_at,
                ended_at: *ended_at,
            },
        }
    }

    /// The owner of the session the event is about, if it is about one.
    pub fn owner(&self) -> Option<SessionOwner> {
        match self {
            SessionEvent::Started(s) => Some(s.owner),
            SessionEvent::Ended { session, .. } => Some(session.owner),
            SessionEvent::HandoffEnded { owner, .. } => Some(*owner),
            _ => None,
        }
    }
}

type Subscriber = Rc<dyn Fn(&SessionEvent)>;

thread_local! {
    static SUBSCRIBERS: RefCell<Vec<Subscriber>> = const { RefCell::new(Vec::new()) };
}

/// Subscribes for the worker's lifetime (`onSessionEvent`).
pub fn subscribe(subscriber: impl Fn(&SessionEvent) + 'static) {
    SUBSCRIBERS.with(|s| s.borrow_mut().push(Rc::new(subscriber)));
}

/// Hands `event` to every subscriber, in subscription order. A subscriber may emit in turn.
pub fn emit(event: SessionEvent) {
    let subscribers: Vec<Subscriber> = SUBSCRIBERS.with(|s| s.borrow().clone());
    for subscriber in subscribers {
        subscriber(&event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session {
            tab_id: 4,
            domain: "a.example".into(),
            started_at: 10.0,
            last_action_at: 20.0,
            action_count: 3,
            owner: SessionOwner::User,
            agent_owner: None,
        }
    }

    #[test]
    fn events_map_onto_the_spec_8_wire_shapes() {
        let started = SessionEvent::Started(session()).to_protocol().to_value();
        assert_eq!(
            started,
            serde_json::json!({"type":"session_started","tabId":4,"domain":"a.example","startedAt":10.0,"owner":"user"})
        );
        let ended = SessionEvent::Ended {
            session: session(),
            reason: EndReason::GlobalStop,
            ended_at: 30.0,
        }
        .to_protocol()
        .to_value();
        assert_eq!(
            ended,
            serde_json::json!({"type":"session_ended","tabId":4,"domain":"a.example","reason":"global_stop",
                               "startedAt":10.0,"endedAt":30.0,"actionCount":3})
        );
        let blocked = SessionEvent::DomainBlocked {
            entry: "bank.example".into(),
            url: Some("https://bank.example/".into()),
            tab_id: None,
        }
        .to_protocol()
        .to_value();
        assert_eq!(
            blocked,
            serde_json::json!({"type":"domain_blocked","domain":"bank.example","url":"https://bank.example/"})
        );
    }

    #[test]
    fn subscribers_see_every_event_in_emission_order() {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let s = seen.clone();
        subscribe(move |e| s.borrow_mut().push(e.to_protocol().name()));
        emit(SessionEvent::GlobalStop {
            at: 1.0,
            session_count: 1,
        });
        emit(SessionEvent::Ended {
            session: session(),
            reason: EndReason::GlobalStop,
            ended_at: 2.0,
        });
        emit(SessionEvent::TabClosed { tab_id: 4 });
        assert_eq!(
            *seen.borrow(),
            vec!["global_stop", "session_ended", "tab_closed"]
        );
    }
}
