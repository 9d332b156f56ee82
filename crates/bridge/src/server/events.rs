//! The event stream of SPEC §9: a subscriber's bounded [`EventQueue`], and `subscribe_events`,
//! which forwards every later extension event to it.

use std::sync::atomic::Ordering;
use std::sync::Mutex;

use bua_protocol::ClientResponse;
use serde_json::{json, Value};
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::Message;

use super::connection::Connection;
use super::frames::to_text;
use super::lock;

/// A subscriber's bounded event buffer (SPEC §9 event stream): the forwarder pushes without ever
/// waiting, dropping the oldest event when full; the connection's writer sends events only when no
/// response is waiting, so a subscriber that reads slowly never delays anyone's requests.
pub(super) struct EventQueue {
    state: Mutex<EventQueueState>,
    pub(super) ready: tokio::sync::Notify,
    capacity: usize,
}

#[derive(Default)]
struct EventQueueState {
    events: std::collections::VecDeque<Value>,
    /// Dropped since the last event this subscriber was sent.
    dropped: u64,
}

impl EventQueue {
    pub(super) fn new(capacity: usize) -> Self {
        EventQueue {
            state: Mutex::new(EventQueueState::default()),
            ready: tokio::sync::Notify::new(),
            capacity: capacity.max(1),
        }
    }

    /// Queues `event`; returns how many older events were dropped to make room (0 or 1).
    pub(super) fn push(&self, event: Value) -> u64 {
        let mut state = lock(&self.state);
        let mut dropped = 0;
        while state.events.len() >= self.capacity {
            state.events.pop_front();
            dropped += 1;
        }
        state.dropped += dropped;
        state.events.push_back(event);
        drop(state);
        self.ready.notify_one();
        dropped
    }

    /// Counts `n` events lost before they reached this queue (broadcast lag).
    pub(super) fn lost(&self, n: u64) {
        lock(&self.state).dropped += n;
    }

    /// The next event frame: `{"type":"event","event":{…}}`, with `"dropped":N` when events were
    /// dropped since the previous one.
    pub(super) fn pop_frame(&self) -> Option<Message> {
        let mut state = lock(&self.state);
        let event = state.events.pop_front()?;
        let dropped = std::mem::take(&mut state.dropped);
        drop(state);
        let frame = if dropped > 0 {
            json!({"type": "event", "event": event, "dropped": dropped})
        } else {
            json!({"type": "event", "event": event})
        };
        Some(Message::text(frame.to_string()))
    }
}

impl Connection {
    /// `subscribe_events`: forwards every later extension event as `{"type":"event","event":{…}}`
    /// through this connection's bounded [`EventQueue`] (oldest dropped and counted when full).
    /// A second `subscribe_events` on the same connection is answered the same way but starts no
    /// second forwarder (events are never duplicated).
    pub(super) async fn subscribe_events(&self, id: String) {
        let first = !self.subscribed.swap(true, Ordering::Relaxed);
        let mut rx = self.shared.events.subscribe();
        self.send(to_text(&ClientResponse::Ok {
            id,
            result: json!({"subscribed": true}),
        }))
        .await;
        if !first {
            return;
        }
        let queue = self.events.clone();
        let closed = self.closed.clone();
        let shared = self.shared.clone();
        let peer = self.peer;
        tokio::spawn(async move {
            let mut warned = false;
            loop {
                let received = tokio::select! {
                    _ = closed.cancelled() => break,
                    r = rx.recv() => r,
                };
                let dropped = match received {
                    Ok(event) => queue.push(event),
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        queue.lost(n);
                        n
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if dropped > 0 {
                    shared
                        .counters
                        .dropped_events
                        .fetch_add(dropped, Ordering::Relaxed);
                    if !warned {
                        warned = true;
                        tracing::warn!(%peer, "a slow event subscriber is losing its oldest events");
                    }
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(m: Option<Message>) -> Value {
        match m {
            Some(Message::Text(t)) => serde_json::from_str(t.as_str()).unwrap_or(Value::Null),
            other => panic!("expected a text frame, got {other:?}"),
        }
    }

    #[test]
    fn a_full_event_queue_drops_the_oldest_and_the_next_frame_says_how_many() {
        let q = EventQueue::new(3);
        for n in 1..=5 {
            let dropped = q.push(json!({"type": "tab_closed", "tabId": n}));
            assert_eq!(dropped, u64::from(n > 3), "push {n}");
        }
        // 1 and 2 were dropped; 3, 4, 5 are kept in order, the first carrying the count.
        assert_eq!(
            frame(q.pop_frame()),
            json!({"type": "event", "event": {"type": "tab_closed", "tabId": 3}, "dropped": 2})
        );
        assert_eq!(
            frame(q.pop_frame()),
            json!({"type": "event", "event": {"type": "tab_closed", "tabId": 4}})
        );
        q.lost(7);
        assert_eq!(
            frame(q.pop_frame()),
            json!({"type": "event", "event": {"type": "tab_closed", "tabId": 5}, "dropped": 7})
        );
        assert!(q.pop_frame().is_none());
    }

    #[test]
    fn a_zero_capacity_queue_still_keeps_the_newest_event() {
        let q = EventQueue::new(0);
        q.push(json!({"n": 1}));
        q.push(json!({"n": 2}));
        assert_eq!(
            frame(q.pop_frame()),
            json!({"type": "event", "event": {"n": 2}, "dropped": 1})
        );
    }
}
