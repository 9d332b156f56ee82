//! The WebSocket event forwarder (SPEC §8): the second subscriber of the session bus. Every bus event goes
//! to the bridge as `{"type":"event","event":{…}}`, in emission order.
//!
//! While the bridge is not connected, events wait in a small in-memory buffer (the newest
//! [`BUFFER_CAP`]) and go out, oldest first, before the next event or the next action. The buffer does not
//! survive a service-worker stop; the audit log in storage is the durable record.

use super::bus::{self, SessionEvent};
use bua_protocol::{Event, FromExtension};
use std::cell::RefCell;
use std::collections::VecDeque;

/// Events kept while disconnected.
pub const BUFFER_CAP: usize = 256;

thread_local! {
    static BUFFER: RefCell<VecDeque<Event>> = const { RefCell::new(VecDeque::new()) };
}

/// Subscribes the forwarder to the session bus (once per worker start).
pub fn install() {
    bus::subscribe(|event: &SessionEvent| send(event.to_protocol()));
}

fn send(event: Event) {
    BUFFER.with(|b| {
        let mut b = b.borrow_mut();
        b.push_back(event);
        while b.len() > BUFFER_CAP {
            b.pop_front();
        }
    });
    flush();
}

/// Sends buffered events while the bridge takes them.
pub fn flush() {
    loop {
        let Some(event) = BUFFER.with(|b| b.borrow_mut().pop_front()) else {
            return;
        };
        if !crate::bridge::send(&FromExtension::Event {
            event: event.clone(),
        }) {
            BUFFER.with(|b| b.borrow_mut().push_front(event));
            return;
        }
    }
}
