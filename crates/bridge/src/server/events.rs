//! The event stream of SPEC §9: a subscriber's bounded [`EventQueue`], which the connection's
//! `subscribe_events` fills with every later extension event.

use std::sync::Mutex;

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use super::state::lock;

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
