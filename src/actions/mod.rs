//! The `browser` actions of SPEC §4. [`dispatch`] is the entry point (the pipeline of SPEC §6); [`router`] maps
//! an action that acts on a page onto its handler, one file per action family:
//!
//! * [`navigation`] — `navigate`, `go_back`, `go_forward`, `reload` (+ waiting for loads after input)
//! * [`input`] — `click`, `click_at`, `hover`, `type`, `press_key` (real CDP input; [`pointer`] finds the
//!   point and hit-tests it, [`keys`] maps key names)
//! * [`forms`] — `select_option`, `check`, `set_value`, `get_value`; [`scroll`]; [`wait`] — `wait_for`
//! * [`evaluate`] (SPEC §7), [`scrape`], [`screenshot`]; `extract` is [`crate::extract`]
//! * [`handoff`] — the tab shown to the person until the page is clear or they answer
//! * [`upload`], [`drag`]; [`observe`] — `console`, `network`, `pdf`
//! * [`locator`] resolves locators into elements, [`page`] wraps `Runtime` calls, [`dialogs`] keeps
//!   JavaScript dialogs from wedging CDP.
//! * [`outcomes`] collects what an action caused (dialogs, `navigated`, `openedTab`, downloads) for its
//!   result; [`downloads`] pairs the tabs' downloads with `chrome.downloads` (`downloads`).
//! * [`ctx::Ctx`] is what every page handler gets besides its parameters.
//!
//! The children name each other (`super::locator`), never this file, so the module has no import cycle.

pub mod ctx;
pub mod dialogs;
mod dispatcher;
pub mod downloads;
pub mod drag;
pub mod evaluate;
pub mod forms;
pub mod handoff;
pub mod input;
pub mod keys;
pub mod locator;
pub mod navigation;
pub mod observe;
pub mod outcomes;
pub mod page;
pub mod pointer;
mod router;
pub mod scrape;
pub mod screenshot;
pub mod scroll;
pub mod tabs;
pub mod upload;
pub mod wait;

pub use dispatcher::{dispatch, DEFAULT_OWNER};
