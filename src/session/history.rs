//! The audit log (SPEC §6, "Audit log"): every session start and end, in `chrome.storage.local`
//! `sessionHistory`, the newest [`HISTORY_CAP`] kept.
//!
//! Stored oldest first, as an append-only ring: `[{event:"start", at, tabId, domain, owner, agentOwner?}, …,
//! {event:"end", at, tabId, domain, owner, reason, durationMs, actionCount}, {event:"handoff", at, tabId, domain,
//! owner, request, outcome, durationMs}]` (a handoff is one row, written when it ends). [`read`] returns it newest
//! first, as the options page shows it.
//!
//! This module is the only writer, and nothing calls it to record: it subscribes to the session event bus
//! ([`install`]). Events are queued in memory and written by one flush task at a time, so entries keep their
//! order and none is lost to an interleaved read-modify-write; a burst of events costs one storage write per
//! [`BURST_WRITE_INTERVAL_MS`]. The ring is cached in the worker as a JS array (loaded once per worker start),
//! so this module must stay the only writer of the key.

use super::bus::{self, SessionEvent};
use super::model::SessionOwner;
use crate::chrome::storage;
use crate::error::Result;
use bua_protocol::{EndReason, HandoffOutcome};
use futures::channel::oneshot;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};

/// Storage key of the audit log.
pub const HISTORY_KEY: &str = "sessionHistory";
/// Entries kept (the newest).
pub const HISTORY_CAP: usize = 1000;
/// During a burst of events, at most one write of the log per this many ms (the first write after a quiet
/// period goes out at once). Chrome runs an extension's storage operations one after another, and a write of
/// the whole 1000-entry log would otherwise hold up every session-table read behind it.
pub const BURST_WRITE_INTERVAL_MS: u32 = 200;

/// START, END or HANDOFF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HistoryKind {
    /// A session started.
    Start,
    /// A session ended.
    End,
    /// The agent handed a tab to the person (`handoff`); recorded when it ended.
    Handoff,
}

/// One audit log entry. Times in ms since the Unix epoch, `durationMs` in ms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    /// START or END.
    pub event: HistoryKind,
    /// When it happened (START: the session's `startedAt`; END: its `endedAt`).
    pub at: f64,
    /// The session's tab.
    pub tab_id: i64,
    /// The session's domain.
    pub domain: String,
    /// `agent` or `user`.
    pub owner: SessionOwner,
    /// The bridge client that opened the agent tab, for agent sessions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_owner: Option<String>,
    /// END only: why the session ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<EndReason>,
    /// END only: `endedAt - startedAt`, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
    /// END only: actions run in the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_count: Option<u32>,
    /// HANDOFF only: the agent's one-line reason (`durationMs` is how long the person had the tab).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// HANDOFF only: how it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<HandoffOutcome>,
}

impl HistoryEntry {
    /// The entry an event is recorded as; `None` for events that are not a session start or end.
    pub fn from_event(event: &SessionEvent) -> Option<HistoryEntry> {
        match event {
            SessionEvent::Started(s) => Some(HistoryEntry {
                event: HistoryKind::Start,
                at: s.started_at,
                tab_id: s.tab_id,
                domain: s.domain.clone(),
                owner: s.owner,
                agent_owner: s.agent_owner.clone(),
                reason: None,
                duration_ms: None,
                action_count: None,
                request: None,
                outcome: None,
            }),
            SessionEvent::Ended {
                session,
                reason,
                ended_at,
            } => Some(HistoryEntry {
                event: HistoryKind::End,
                at: *ended_at,
                tab_id: session.tab_id,
                domain: session.domain.clone(),
                owner: session.owner,
                agent_owner: session.agent_owner.clone(),
                reason: Some(*reason),
                duration_ms: Some((ended_at - session.started_at).max(0.0)),
                action_count: Some(session.action_count),
                request: None,
                outcome: None,
            }),
            SessionEvent::HandoffEnded {
                tab_id,
                domain,
                reason,
                outcome,
                owner,
                started_at,
                ended_at,
            } => Some(HistoryEntry {
                event: HistoryKind::Handoff,
                at: *ended_at,
                tab_id: *tab_id,
                domain: domain.clone(),
                owner: *owner,
                agent_owner: None,
                reason: None,
                duration_ms: Some((ended_at - started_at).max(0.0)),
                action_count: None,
                request: Some(reason.clone()),
                outcome: Some(*outcome),
            }),
            _ => None,
        }
    }
}

/// A queued change to the log.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Append one entry.
    Append(HistoryEntry),
    /// Remove every entry (the options page's Clear).
    Clear,
}

/// Applies `ops` in order to the stored ring (oldest first), keeping the newest `cap` entries.
pub fn apply(ring: &mut Vec<HistoryEntry>, ops: impl IntoIterator<Item = Op>, cap: usize) {
    for op in ops {
        match op {
            Op::Append(entry) => ring.push(entry),
            Op::Clear => ring.clear(),
        }
    }
    if ring.len() > cap {
        let excess = ring.len() - cap;
        ring.drain(..excess);
    }
}

/// The ring as the options page shows it: newest first.
pub fn newest_first(ring: &[HistoryEntry]) -> Vec<HistoryEntry> {
    ring.iter().rev().cloned().collect()
}

thread_local! {
    static QUEUE: RefCell<Vec<Op>> = const { RefCell::new(Vec::new()) };
    static FLUSHING: Cell<bool> = const { Cell::new(false) };
    static DRAINED: RefCell<Vec<oneshot::Sender<()>>> = const { RefCell::new(Vec::new()) };
    /// The stored ring as a JS array, loaded once per worker: appending converts only the new entries, and
    /// `storage.local.set` serialises the array natively (this module is the only writer of the key).
    static RING: RefCell<Option<js_sys::Array>> = const { RefCell::new(None) };
}

/// Subscribes the audit log to the session bus (once per worker start).
pub fn install() {
    bus::subscribe(|event| {
        if let Some(entry) = HistoryEntry::from_event(event) {
            enqueue(Op::Append(entry));
        }
    });
}

/// Clears the log (the options page's Clear, behind its confirmation).
pub fn clear() {
    enqueue(Op::Clear);
}

fn enqueue(op: Op) {
    QUEUE.with(|q| q.borrow_mut().push(op));
    if !FLUSHING.with(|f| f.replace(true)) {
        wasm_bindgen_futures::spawn_local(flush());
    }
}

/// Writes queued operations until the queue is empty; only one flush runs at a time. Same semantics as
/// [`apply`], on the cached JS array.
async fn flush() {
    let mut first = true;
    loop {
        if !first {
            // A burst: let entries gather, and keep the storage backend free for the session table.
            gloo_timers::future::TimeoutFuture::new(BURST_WRITE_INTERVAL_MS).await;
        }
        first = false;
        let ops: Vec<Op> = QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()));
        if ops.is_empty() {
            FLUSHING.with(|f| f.set(false));
            for waiter in DRAINED.with(|d| std::mem::take(&mut *d.borrow_mut())) {
                let _ = waiter.send(());
            }
            return;
        }
        let mut ring = ring().await;
        let count = ops.len();
        for op in ops {
            match op {
                Op::Append(entry) => match crate::chrome::to_js(&entry) {
                    Ok(v) => {
                        ring.push(&v);
                    }
                    Err(e) => crate::log::warn(&format!("audit log: entry not converted: {e}")),
                },
                Op::Clear => ring.set_length(0),
            }
        }
        let len = ring.length();
        if len as usize > HISTORY_CAP {
            ring = ring.slice(len - HISTORY_CAP as u32, len);
            RING.with(|r| *r.borrow_mut() = Some(ring.clone()));
        }
        if let Err(e) = storage::set_raw(HISTORY_KEY, &ring).await {
            crate::log::warn(&format!("audit log: {count} operations not written: {e}"));
        }
    }
}

/// The cached ring, read from storage on first use (an unreadable value starts a new log).
async fn ring() -> js_sys::Array {
    if let Some(ring) = RING.with(|r| r.borrow().clone()) {
        return ring;
    }
    let ring = match storage::get_raw(HISTORY_KEY).await {
        Ok(v) if js_sys::Array::is_array(&v) => js_sys::Array::from(&v),
        Ok(v) => {
            if !v.is_undefined() && !v.is_null() {
                crate::log::warn("audit log has an unexpected shape, starting a new one");
            }
            js_sys::Array::new()
        }
        Err(e) => {
            crate::log::warn(&format!("audit log unreadable, starting a new one: {e}"));
            js_sys::Array::new()
        }
    };
    // Another task may have loaded it meanwhile; keep the first.
    RING.with(|r| r.borrow_mut().get_or_insert(ring).clone())
}

/// Waits until every queued entry is written.
pub async fn drained() {
    if !FLUSHING.with(Cell::get) {
        return;
    }
    let (tx, rx) = oneshot::channel();
    DRAINED.with(|d| d.borrow_mut().push(tx));
    let _ = rx.await;
}

/// The log, newest first, with every entry emitted before the call written. Entries that do not parse (a
/// hand-edited log) are skipped.
pub async fn read() -> Result<Vec<HistoryEntry>> {
    drained().await;
    let ring = ring().await;
    let entries: Vec<HistoryEntry> = ring
        .iter()
        .filter_map(|v| crate::chrome::from_js(&v).ok())
        .collect();
    Ok(newest_first(&entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::model::Session;

    fn session(tab_id: i64, started_at: f64) -> Session {
        Session {
            tab_id,
            domain: "a.example".into(),
            started_at,
            last_action_at: started_at,
            action_count: 2,
            owner: SessionOwner::User,
            agent_owner: None,
        }
    }

    #[test]
    fn start_and_end_events_become_entries_with_duration_and_count() {
        let start =
            HistoryEntry::from_event(&SessionEvent::Started(session(3, 100.0))).expect("entry");
        assert_eq!(
            serde_json::to_value(&start).expect("json"),
            serde_json::json!({"event":"start","at":100.0,"tabId":3,"domain":"a.example","owner":"user"})
        );
        let end = HistoryEntry::from_event(&SessionEvent::Ended {
            session: session(3, 100.0),
            reason: EndReason::TabClosed,
            ended_at: 350.0,
        })
        .expect("entry");
        assert_eq!(
            serde_json::to_value(&end).expect("json"),
            serde_json::json!({"event":"end","at":350.0,"tabId":3,"domain":"a.example","owner":"user",
                               "reason":"tab_closed","durationMs":250.0,"actionCount":2})
        );
        assert_eq!(
            HistoryEntry::from_event(&SessionEvent::TabClosed { tab_id: 3 }),
            None
        );
    }

    #[test]
    fn a_thousand_start_end_cycles_keep_exactly_the_newest_thousand_newest_first() {
        let mut ring = Vec::new();
        for cycle in 0..1000 {
            let s = session(cycle, cycle as f64 * 10.0);
            let ops = [
                SessionEvent::Started(s.clone()),
                SessionEvent::Ended {
                    session: s,
                    reason: EndReason::UserStopped,
                    ended_at: cycle as f64 * 10.0 + 5.0,
                },
            ]
            .iter()
            .filter_map(HistoryEntry::from_event)
            .map(Op::Append)
            .collect::<Vec<_>>();
            apply(&mut ring, ops, HISTORY_CAP);
        }
        assert_eq!(ring.len(), 1000);
        let read = newest_first(&ring);
        assert_eq!(read.len(), 1000);
        // Newest first: the last cycle's END, then its START, … down to cycle 500's START.
        assert_eq!((read[0].event, read[0].tab_id), (HistoryKind::End, 999));
        assert_eq!((read[1].event, read[1].tab_id), (HistoryKind::Start, 999));
        assert_eq!(
            (read[999].event, read[999].tab_id),
            (HistoryKind::Start, 500)
        );
        assert!(read.windows(2).all(|w| w[0].at >= w[1].at));
    }

    #[test]
    fn clear_drops_everything_before_it_and_keeps_what_follows() {
        let mut ring = Vec::new();
        let e = |tab| {
            HistoryEntry::from_event(&SessionEvent::Started(session(tab, 1.0))).expect("entry")
        };
        apply(&mut ring, [Op::Append(e(1)), Op::Append(e(2))], HISTORY_CAP);
        apply(&mut ring, [Op::Clear, Op::Append(e(3))], HISTORY_CAP);
        assert_eq!(ring.iter().map(|x| x.tab_id).collect::<Vec<_>>(), vec![3]);
    }
}
