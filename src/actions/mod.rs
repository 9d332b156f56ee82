//! The `browser` actions of SPEC §4. [`dispatch`] is the entry point (the pipeline of SPEC §6); [`router`] is
//! the one table from an action to its handler. Every handler has one shape ([`handler::Handler`] for an
//! action on a page, [`handler::Pageless`] for one that needs none), implemented on the action's protocol
//! parameters with its traits beside it, one file per action family:
//!
//! * [`navigation`] — `navigate`, `go_back`, `go_forward`, `reload` (+ waiting for loads after input)
//! * [`input`] — `click`, `click_at`, `hover`; [`keyboard`] — `type`, `press_key` ([`keys`] maps key names,
//!   [`typing`] types a text as a person does, for every action that types)
//! * [`forms`] — `select_option`, `check`, `set_value`, `get_value`; [`fill`] — several fields by those and
//!   `type`; [`scroll`]; [`wait`] — `wait_for`
//! * [`evaluate`] (SPEC §7), [`scrape`], [`screenshot`]
//! * [`handoff`] — the tab shown to the person until the page is clear or they answer
//! * [`upload`], [`drag`]; [`observe`] — `extract` ([`crate::extract`]), `console`, `network`, `pdf`;
//!   [`find`] — lines of the whole page's agent text
//! * [`tabs`] — `get_tabs`, `activate_tab`, `close_tab`, `close_agent_tabs`, `close_agent_window`;
//!   `open_tab` is the dispatcher's
//! * [`locator`] resolves locators into a [`locator::Element`], which has the element's behaviour: it
//!   describes itself and calls functions on itself ([`locator`]), finds its clickable point and scrolls
//!   into view ([`pointer`]), clicks ([`mouse`], real mouse events) and takes the focus ([`typing`]).
//! * [`page`] wraps `Runtime` calls, [`dialogs`] keeps JavaScript dialogs from wedging CDP.
//! * [`outcomes`] collects what an action caused (dialogs, `navigated`, `openedTab`, downloads) for its
//!   result; [`downloads`] pairs the tabs' downloads with `chrome.downloads` (`downloads`).
//! * [`ctx::Ctx`] is what every page handler gets besides its parameters.
//!
//! The children name each other (`super::locator`), never this file, so the module has no import cycle.

pub mod changes;
pub mod ctx;
pub mod dialogs;
mod dispatcher;
pub mod downloads;
pub mod drag;
pub mod evaluate;
pub mod fill;
pub mod find;
pub mod forms;
pub mod handler;
pub mod handoff;
pub mod input;
pub mod keyboard;
pub mod keys;
pub mod locator;
pub mod mouse;
pub mod navigation;
pub mod observe;
pub mod outcomes;
pub mod page;
pub mod pointer;
mod router;
pub mod scrape;
pub mod screenshot;
pub mod scroll;
pub mod secrets;
pub mod tabs;
pub mod typing;
pub mod upload;
pub mod wait;

pub use dispatcher::{dispatch, DEFAULT_OWNER};
