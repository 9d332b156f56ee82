//! The one shape of an action's handler (SPEC §4): a trait on the action's protocol parameters, with the
//! traits the pipeline needs (SPEC §6, §7) declared beside it as data. [`super::router::route`] is the one
//! table from [`bua_protocol::Action`] to these handlers.
//!
//! Adding a page action to the extension: a type in the protocol crate, an `impl Handler` for it in the
//! file of its family, and its arm in [`super::router::route`] (the match is exhaustive, so a missing one
//! does not compile). Actions that share a parameter type (`go_back`, `go_forward`, `reload` take
//! `TabLoad`) get a newtype each, so every action has its own handler.

use super::ctx::Ctx;
use crate::error::Result;
use serde::Serialize;

/// What the pipeline must know about a page action before it runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Traits {
    /// It leaves the page (`navigate`, `go_back`, `go_forward`, `reload`): a `beforeunload` it meets is
    /// answered by its dialog policy (SPEC §7), and the page it leaves is not reported as `navigated`.
    pub navigation: bool,
    /// What it does when a JavaScript dialog is already open on the tab when it starts (SPEC §7).
    pub open_dialog: OpenDialog,
    /// It holds the tab's per-tab lock while it runs (SPEC §6); `handoff` waits minutes for the person,
    /// not for CDP, so the agent's other actions on the tab go on.
    pub tab_lock: bool,
    /// What it does with a tab in a minimized window.
    pub window: Window,
    /// It acts on the page (input, navigation): its result says what it changed in the agent's view of the
    /// tab, or gives the new view (SPEC §4 "Outcomes": `changes`, `view`).
    pub changes: bool,
}

/// How an action treats a JavaScript dialog open on the tab before it started (SPEC §7). On an agent's tab
/// every action answers it by the default policy and reports it; these differ on a tab the user is using.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenDialog {
    /// The dialog is the user's: the action fails with `element_obstructed`.
    Refuse,
    /// The action answers it, as it always did (`evaluate`, the navigations).
    Answer,
    /// The result says it is open instead of reading the page (`extract`).
    Report,
}

/// How an action treats the minimized window of its tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// Input: the window stays minimized and the focus where it was, although Chrome restores it for a
    /// mouse press (headed Chrome). A read action (SPEC §4 table) sends no input and leaves it as it is.
    KeepMinimized,
    /// The window is restored unfocused while the action runs: a minimized window draws no frames to
    /// capture (`screenshot`).
    Shown,
    /// The action shows and minimizes the window itself (`handoff`).
    Own,
}

impl Traits {
    /// An action on the page that stays on it: the most common traits.
    pub const PAGE: Traits = Traits {
        navigation: false,
        open_dialog: OpenDialog::Refuse,
        tab_lock: true,
        window: Window::KeepMinimized,
        changes: false,
    };

    /// Input on the page: it may change what the agent sees (see [`Traits::changes`]).
    pub const INPUT: Traits = Traits {
        changes: true,
        ..Traits::PAGE
    };

    /// A navigation (see [`Traits::navigation`]); it answers a dialog already open.
    pub const NAVIGATION: Traits = Traits {
        navigation: true,
        open_dialog: OpenDialog::Answer,
        changes: true,
        ..Traits::PAGE
    };

    /// These traits with another [`Traits::open_dialog`].
    pub const fn with_open_dialog(self, open_dialog: OpenDialog) -> Traits {
        Traits {
            open_dialog,
            ..self
        }
    }

    /// These traits with another [`Traits::window`].
    pub const fn with_window(self, window: Window) -> Traits {
        Traits { window, ..self }
    }
}

/// The handler of an action that runs on a page: the dispatcher has resolved the tab, ensured its session,
/// taken the per-tab lock (when [`Traits::tab_lock`]) and attached the debugger; the router has opened the
/// action's dialog scope and collects its outcomes around [`Handler::run`].
pub trait Handler: 'static {
    /// The SPEC §4 result object.
    type Output: Serialize;
    /// The action's traits.
    const TRAITS: Traits;
    /// Runs the action on `ctx.tab_id`.
    #[allow(async_fn_in_trait)] // run on the worker's one thread: no `Send` bound wanted
    async fn run(&self, ctx: &Ctx) -> Result<Self::Output>;
}

/// The handler of an action that needs no page (tabs, windows, downloads): it runs in the dispatcher for
/// the requesting `owner` (a bridge client id), without a session, a lock or the debugger.
pub trait Pageless: 'static {
    /// The SPEC §4 result object.
    type Output: Serialize;
    /// Runs the action for `owner`.
    #[allow(async_fn_in_trait)] // run on the worker's one thread: no `Send` bound wanted
    async fn run(&self, owner: &str) -> Result<Self::Output>;
}
