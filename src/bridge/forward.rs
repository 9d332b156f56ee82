//! The WebSocket event forwarder (SPEC §8): the second subscriber of the session bus. Every bus event goes
//! to the bridge as `{"type":"event","event":{…}}`, in emission order. The bridge client installs it with its
//! own `send`, so the session layer below never names the bridge.
//!
//! While the bridge is not connected, events wait in a small in-memory buffer (the newest
//! [`BUFFER_CAP`]) and go out, oldest first, before the next event or the next action. The buffer does not
//! survive a service-worker stop; the audit log in storage is the durable record.

use crate::session::bus::{self, SessionEvent};
use bua_protocol::{Event, FromExtension};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

/// Events kept while disconnected.
pub const BUFFER_CAP: usize = 256;

/// Delivers one frame to the bridge; `false` when it did not go out (not connected).
pub type Send = fn(&FromExtension) -> bool;

thread_local! {
    static BUFFER: RefCell<VecDeque<Event>> = const { RefCell::new(VecDeque::new()) };
    static SINK: Cell<Option<Send>> = const { Cell::new(None) };
}

/// Subscribes the forwarder to the session bus, delivering through `send` (once per worker start; a second
/// call changes nothing).
pub fn install(send: Send) {
    if SINK.with(|s| s.replace(Some(send))).is_some() {
        return;
    }
    bus::subscribe(|event: &SessionEvent| push(event.to_protocol()));
}

fn push(event: Event) {
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
    let Some(send) = SINK.with(Cell::get) else {
        return;
    };
    loop {
        let Some(event) = BUFFER.with(|b| b.borrow_mut().pop_front()) else {
            return;
        };
        if !send(&FromExtension::Event {
            event: event.clone(),
        }) {
            BUFFER.with(|b| b.borrow_mut().push_front(event));
            return;
        }
    }
}
