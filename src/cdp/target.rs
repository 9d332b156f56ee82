//! The targets of a tab (SPEC §5 "Frames"): a [`Target`] names where a CDP command goes (the tab's own target
//! or one of its frame sessions), and the per-tab map of attached frame sessions ([`FrameSession`]) records
//! who holds whose `<iframe>`. State only: [`super::frames`] keeps it up to date from `Target` events.

use super::commands::TargetSetAutoAttach;
use std::cell::RefCell;
use std::collections::HashMap;

/// Where a CDP command goes: a tab's top-level target, or one of its frame sessions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The tab.
    pub tab_id: i64,
    /// The flat session of a frame target; `None` for the tab's own (top-level) target.
    pub session_id: Option<String>,
}

impl Target {
    /// The tab's top-level target.
    pub fn tab(tab_id: i64) -> Target {
        Target {
            tab_id,
            session_id: None,
        }
    }

    /// A frame session of the tab.
    pub fn frame(tab_id: i64, session_id: &str) -> Target {
        Target {
            tab_id,
            session_id: Some(session_id.to_owned()),
        }
    }

    /// The session id, `None` for the top-level target.
    pub fn session(&self) -> Option<&str> {
        self.session_id.as_deref()
    }
}

impl From<i64> for Target {
    fn from(tab_id: i64) -> Target {
        Target::tab(tab_id)
    }
}

impl From<&Target> for Target {
    fn from(target: &Target) -> Target {
        target.clone()
    }
}

/// One attached frame target of a tab.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameSession {
    /// Its flat session.
    pub session_id: String,
    /// Its target id, which is also the frame id of the frame in the parent's document.
    pub frame_id: String,
    /// The session of the target that holds the `<iframe>`; `None` for the tab's top-level target.
    pub parent: Option<String>,
    /// The frame's URL when it was last reported.
    pub url: String,
}

impl FrameSession {
    /// The target of the frame's parent document.
    pub fn parent_target(&self, tab_id: i64) -> Target {
        Target {
            tab_id,
            session_id: self.parent.clone(),
        }
    }
}

thread_local! {
    static FRAMES: RefCell<HashMap<i64, Vec<FrameSession>>> = RefCell::new(HashMap::new());
    /// Frame sessions of a tab still being prepared (auto-attach of their own children).
    static PENDING: RefCell<HashMap<i64, usize>> = RefCell::new(HashMap::new());
}

/// The params every target gets: existing and future children attached, none paused.
pub fn auto_attach_params() -> TargetSetAutoAttach {
    TargetSetAutoAttach {
        auto_attach: true,
        wait_for_debugger_on_start: false,
        flatten: true,
    }
}

/// The tab's frame sessions, in the order they were attached (parents before their children).
pub fn sessions(tab_id: i64) -> Vec<FrameSession> {
    FRAMES.with(|f| f.borrow().get(&tab_id).cloned().unwrap_or_default())
}

/// The frame session `session_id` of `tab_id`, if it is still attached.
pub fn session(tab_id: i64, session_id: &str) -> Option<FrameSession> {
    FRAMES.with(|f| {
        f.borrow()
            .get(&tab_id)?
            .iter()
            .find(|s| s.session_id == session_id)
            .cloned()
    })
}

/// Records an attached frame session (replacing one with the same id); it counts as pending until
/// [`prepared`] is called for it.
pub fn record(tab_id: i64, frame: FrameSession) {
    FRAMES.with(|f| {
        let mut f = f.borrow_mut();
        let list = f.entry(tab_id).or_default();
        list.retain(|s| s.session_id != frame.session_id);
        list.push(frame);
    });
    PENDING.with(|p| *p.borrow_mut().entry(tab_id).or_default() += 1);
}

/// A frame session recorded by [`record`] is ready (its own children asked for).
pub fn prepared(tab_id: i64) {
    PENDING.with(|p| {
        if let Some(n) = p.borrow_mut().get_mut(&tab_id) {
            *n = n.saturating_sub(1);
        }
    });
}

/// How many recorded frame sessions of `tab_id` are not [`prepared`] yet.
pub fn pending(tab_id: i64) -> usize {
    PENDING.with(|p| p.borrow().get(&tab_id).copied().unwrap_or(0))
}

/// A frame target navigated: its new URL.
pub fn set_url(tab_id: i64, frame_id: &str, url: &str) {
    FRAMES.with(|f| {
        if let Some(list) = f.borrow_mut().get_mut(&tab_id) {
            for s in list.iter_mut().filter(|s| s.frame_id == frame_id) {
                s.url = url.to_owned();
            }
        }
    });
}

/// Forgets a frame session and every session below it.
pub fn session_gone(tab_id: i64, session_id: &str) {
    FRAMES.with(|f| {
        let mut f = f.borrow_mut();
        let Some(list) = f.get_mut(&tab_id) else {
            return;
        };
        let mut gone = vec![session_id.to_owned()];
        while let Some(next) = list
            .iter()
            .find(|s| {
                s.parent.as_ref().is_some_and(|p| gone.contains(p)) && !gone.contains(&s.session_id)
            })
            .map(|s| s.session_id.clone())
        {
            gone.push(next);
        }
        list.retain(|s| !gone.contains(&s.session_id));
    });
}

/// The tab's debugger went away: its frame sessions went with it.
pub fn tab_gone(tab_id: i64) {
    FRAMES.with(|f| f.borrow_mut().remove(&tab_id));
    PENDING.with(|p| p.borrow_mut().remove(&tab_id));
}
