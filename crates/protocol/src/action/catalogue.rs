//! The catalogue of `browser` actions (SPEC §4): one row per action.
//!
//! # How to add an action
//!
//! 1. Its parameters: one struct in `tabs.rs`, `input.rs` or `page.rs` (by family), inside
//!    `params! { … }`. One line per field, in wire order: a doc comment (the field's description in
//!    the JSON Schema) and `pub name: Type = "wireKey" => Codec,`. The fields many actions share
//!    are taken by name alone: `pub tab_id,`, `pub dialog,`, `pub load_wait_ms,`. Rules that tie
//!    fields together (`not with`, `only with`): write `} + rules` after the struct and an
//!    `impl Rules` beside it (`validate`, and `schema_rules` for the same rule as JSON Schema).
//! 2. Its row below: the doc comment an agent reads, `Variant(Struct) = "wire_name", timeout`,
//!    where the timeout is `secs(n)` or `waits("timeoutMs", default_ms)` (the action's own wait
//!    plus a grace), and `.read()` when it changes nothing an agent could see (a client may then
//!    send it again, SPEC §9).
//!
//! That is all of the protocol: parsing and its error messages, the canonical wire form, the
//! "expected one of" list, `bua-bridge schema` and the MCP tool's schema follow from these two
//! places, so the CLI and the MCP server need no edit. The extension answers the new variant in
//! its router (`src/actions/router.rs`, which does not compile until it does) with a handler file
//! in `src/actions/`. Add the action to the SPEC §4 table too.
//!
//! # How to add a field
//!
//! A field of a kind that exists (an integer in bounds, a flag, a string, a keyword, an element):
//! one line in its struct with that codec (`int::<u32>(1, 100)`, `Flag(false)`,
//! `Text { nonempty: true }`, `Word(Default)`, `OptElement`, …; the codecs are in `crate::field`).
//! A new kind of field: a type implementing `Codec` in `crate::field` — `read` (errors name the
//! key), `write` (the canonical form: omit a field at its default), `schema`, and `required` when
//! the wire form must carry it. A new set of words: an enum with `keyword! { … }` (see
//! `values.rs`) and the `Word` codec.

use super::input::*;
use super::page::*;
#[cfg(feature = "schema")]
use super::params::Rules;
use super::params::{ParamValues, Params};
use super::spec::{actions, secs, waits, Spec};
use super::tabs::*;
use crate::wire::{Fields, Res};

actions! {
    /// Open a URL in a new tab.
    OpenTab(OpenTab) = "open_tab", secs(30);
    /// Load a URL in the tab and wait for the load (see loadWaitMs); clears its uids.
    Navigate(Navigate) = "navigate", secs(30);
    /// Go back in history and wait for the load.
    GoBack(TabLoad) = "go_back", secs(30);
    /// Go forward in history and wait for the load.
    GoForward(TabLoad) = "go_forward", secs(30);
    /// Reload the tab and wait for the load.
    Reload(TabLoad) = "reload", secs(30);
    /// List every tab: tabId, url, title, owner, …
    GetTabs = "get_tabs", secs(5).read();
    /// Bring a tab to the front and focus its window.
    ActivateTab(ActivateTab) = "activate_tab", secs(5);
    /// Close a tab.
    CloseTab(TabOnly) = "close_tab", secs(10);
    /// Close the tabs this agent (or `owner`) opened.
    CloseAgentTabs(OwnerOnly) = "close_agent_tabs", secs(10);
    /// Close the agent's window and its tabs.
    CloseAgentWindow(OwnerOnly) = "close_agent_window", secs(10);
    /// Click an element (real mouse events).
    Click(Click) = "click", secs(10);
    /// Click at a viewport point.
    ClickAt(ClickAt) = "click_at", secs(10);
    /// Move the mouse over an element.
    Hover(Hover) = "hover", secs(10);
    /// Focus an element, optionally clear it, and type (real input events). `text` is what to type: find the
    /// field by its visible text with locator:{"text":"…"}.
    Type(TypeText) = "type", secs(15);
    /// Press a key with modifiers, on the located element or the focused one.
    PressKey(PressKey) = "press_key", secs(15);
    /// Scroll the page (or the located container) by dx/dy px, or to the end.
    Scroll(Scroll) = "scroll", secs(10);
    /// Select <select> option(s) by value, label or index (arrays: multi-select). `index` is the option's: the
    /// n-th matching <select> is locator:{"selector":"…","index":n}.
    SelectOption(SelectOption) = "select_option", secs(10);
    /// Check or uncheck a checkbox, radio or switch.
    Check(Check) = "check", secs(10);
    /// Fill fields in order as type/select_option/check would, then click `submit`; stops at a failure.
    Fill(Fill) = "fill", secs(30);
    /// Set a control's value directly, firing input + change (where type cannot).
    SetValue(SetValue) = "set_value", secs(10);
    /// Read a control's current value (select: value + label, checkbox/radio: checked).
    GetValue(GetValue) = "get_value", secs(10).read();
    /// Wait until the element or textContains reaches state; else timeout.
    WaitFor(WaitFor) = "wait_for", waits("timeoutMs", DEFAULT_WAIT_TIMEOUT_MS).read();
    /// Read the page: markdown, the elements to act on by uid, obstacle; innerText on request.
    Extract(Extract) = "extract", secs(20).read();
    /// Lines of the whole page's text (any case) with `text` or matching `regex`, and their uids.
    Find(Find) = "find", secs(20).read();
    /// Run JavaScript in the page: a function body, so `return` the value; a throw is invalid_action.
    Evaluate(Evaluate) = "evaluate", secs(12);
    /// Repeated items by CSS selectors (no script): one object per `item` match (waits for the first).
    Scrape(Scrape) = "scrape", waits("timeoutMs", DEFAULT_SCRAPE_TIMEOUT_MS).read();
    /// Capture the viewport, the full page or one element as an image.
    Screenshot(Screenshot) = "screenshot", secs(15).read();
    /// Show the tab to the person for what only they may do (sign in, CAPTCHA, 2FA, payment); waits until
    /// the page is clear or they press Done/Cancel.
    Handoff(Handoff) = "handoff", waits("waitMs", DEFAULT_HANDOFF_WAIT_MS);
    /// Put files (inside the bridge's --files-dir folders) into a file input or a control that opens a chooser.
    Upload(Upload) = "upload", secs(60);
    /// Drag an element (from) onto an element or a viewport point (to), real mouse events.
    Drag(Drag) = "drag", secs(15);
    /// The tab's console messages and uncaught errors (newest 500).
    Console(Console) = "console", secs(5).read();
    /// The tab's requests: method, url, status, type, size, duration, failure (newest 500).
    Network(Network) = "network", secs(5).read();
    /// Print the page to PDF.
    Pdf(Pdf) = "pdf", secs(30);
    /// The downloads the agent's tabs started (filename, bytes, state, …).
    Downloads(Downloads) = "downloads", waits("waitMs", 0).read();
}
