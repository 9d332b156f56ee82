//! The parameters of the actions that read the page or wait on it: wait_for, extract, find, evaluate,
//! scrape, screenshot, handoff, console, network, pdf and downloads.

use super::either::{Pattern, Target};
use super::params::{params, Rules};
use super::values::{ConsoleLevel, ExtractPart, FindPattern, ImageFormat, WaitState, WaitTarget};
use crate::field::{
    int, FieldMap, Flag, FrameRef, OptElement, OptText, Text, Unlisted, Word, Words, REQUIRED_TAB,
};
use crate::locator::Locator;
use crate::wire::{Fields, Res, TabId};
#[cfg(feature = "schema")]
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::marker::PhantomData;

/// `wait_for`'s default `timeoutMs` (SPEC §4), in ms.
pub const DEFAULT_WAIT_TIMEOUT_MS: u64 = 5_000;
/// The largest `timeoutMs` of `wait_for` and `scrape` (SPEC §4), in ms.
pub const MAX_WAIT_TIMEOUT_MS: u64 = 30_000;
/// `scrape`'s default `timeoutMs`, in ms (the v1 bridge's default).
pub const DEFAULT_SCRAPE_TIMEOUT_MS: u64 = 5_000;

const WAIT_MS: i64 = MAX_WAIT_TIMEOUT_MS as i64;

/// The largest `page` of `extract` (SPEC §5 "Pages"): far past any page's last.
pub const MAX_PAGE: i64 = 100_000;

/// `handoff`'s default `waitMs` (SPEC §4): 10 minutes, in ms.
pub const DEFAULT_HANDOFF_WAIT_MS: u64 = 600_000;
/// The largest `waitMs` of `handoff` (SPEC §4): 60 minutes, in ms.
pub const MAX_HANDOFF_WAIT_MS: u64 = 3_600_000;
/// The longest `reason` of `handoff`, in characters: one line the person reads in a notification.
pub const MAX_HANDOFF_REASON_CHARS: usize = 200;

impl Extract {
    /// Whether the result carries `part`: `include` names it, or `include` is empty (the whole
    /// result, as before `include` existed).
    pub fn wants(&self, part: ExtractPart) -> bool {
        self.include.is_empty() || self.include.contains(&part)
    }
}

params! {
    /// `extract {tabId?, include?, page?}` → SPEC §5's result with only the parts in `include`; `page` n ≥ 2
    /// reads the next part of a page too long for one read (SPEC §5 "Pages").
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Extract {
        pub tab_id,
        /// The parts to send; omitted: all (MCP: markdown, elements).
        pub include: Vec<ExtractPart> = "include" => Words::<ExtractPart>(PhantomData),
        /// Write listed links in the markdown with their uids and flag those elements `inMarkdown`
        /// (SPEC §5); set by the MCP server for its text rendering.
        pub refs: bool = "refs" => Unlisted(Flag(false)),
        /// Page n of a long page (the header's more:).
        pub page: Option<u32> = "page" => int::<u32>(1, MAX_PAGE),
    }

    /// `find {text | regex, limit?, tabId?}` → `{count, lines:[{line, uids}], tabId}`: the lines of the
    /// page's agent text (the whole page, SPEC §9) that contain `text` or match `regex`, in any case.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Find {
        /// Text to find.
        pub pattern: FindPattern = "text" => Pattern,
        /// At most this many items.
        pub limit: Option<u32> = "limit" => int::<u32>(1, u32::MAX as i64),
        pub tab_id,
    } + rules

    /// `wait_for {locator | textContains, state?, timeoutMs?, tabId?}` → `{found, elapsedMs, tabId}`;
    /// not found in time → `timeout`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct WaitFor {
        /// What to wait for.
        pub target: WaitTarget = "textContains" => Target,
        /// Default visible.
        pub state: WaitState = "state" => Word(WaitState::Visible),
        /// ms to wait (default 5000).
        pub timeout_ms: u64 = "timeoutMs" => int::<u64>(0, WAIT_MS).shown().or(DEFAULT_WAIT_TIMEOUT_MS),
        pub tab_id,
    }

    /// `evaluate {expression, tabId?}` → SPEC §7. The expression is wrapped as `(() => { … })()`,
    /// so it must `return` its value.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Evaluate {
        /// Function body, e.g. "return document.title".
        pub expression: String = "expression" => Text { nonempty: true },
        pub tab_id,
        /// Run in a frame: its id from extract (f1, …) or a uid in it. Default: the page.
        pub frame: Option<String> = "frame" => FrameRef,
        pub dialog,
    }

    /// `scrape {item, fields?, limit?, timeoutMs?, tabId?}` → `{count, items, tabId}` (static
    /// queries only). A field spec is `"selector[@attr]"` inside the item (see
    /// [`split_field_spec`]); text when no `@attr`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Scrape {
        /// CSS selector of each item's container.
        pub item: String = "item" => Text { nonempty: true },
        /// Output field → "selector" (text) or "selector@attr" (attribute; a@href is absolute) inside the item.
        pub fields: Option<BTreeMap<String, String>> = "fields" => FieldMap,
        /// At most this many items.
        pub limit: Option<u32> = "limit" => int::<u32>(1, u32::MAX as i64),
        /// ms to wait (default 5000).
        pub timeout_ms: Option<u64> = "timeoutMs" => int::<u64>(0, WAIT_MS).shown(),
        pub tab_id,
    }

    /// `screenshot {tabId?, fullPage?, format?, quality?, maxWidth?}` → `{mime, data, width, height}`.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Screenshot {
        pub tab_id,
        /// The whole page, not the viewport.
        pub full_page: bool = "fullPage" => Flag(false),
        /// Default png.
        pub format: ImageFormat = "format" => Word(ImageFormat::Png),
        /// JPEG quality (jpeg only).
        pub quality: Option<u8> = "quality" => int::<u8>(0, 100).shown(),
        /// Scale down to at most this width, px.
        pub max_width: Option<u32> = "maxWidth" => int::<u32>(1, 100_000),
        /// Clip to this element (scrolled into view). Not with fullPage.
        pub locator: Option<Locator> = "locator" => OptElement,
    } + rules

    /// `handoff {tabId, reason, waitMs?}` → `{resolved, by, url, title, obstacle?}`: shows the tab to the
    /// person and waits until the page is clear, they press Done or Cancel, or `waitMs` runs out (`timeout`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Handoff {
        /// The tab to show the person (required).
        pub tab_id: TabId = "tabId" => REQUIRED_TAB,
        /// One line the person reads, e.g. "sign in".
        pub reason: String = "reason" => Text { nonempty: true },
        /// ms to wait (default 600000 = 10 min).
        pub wait_ms: u64 = "waitMs" => int::<u64>(0, MAX_HANDOFF_WAIT_MS as i64).shown().or(DEFAULT_HANDOFF_WAIT_MS),
    } + rules

    /// `console {tabId?, level?, since?}` → `{entries, dropped, next, tabId}`.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Console {
        pub tab_id,
        /// This level and more severe.
        pub level: Option<ConsoleLevel> = "level" => Word(None::<ConsoleLevel>),
        /// Only entries after this cursor: an earlier result's `next since`.
        pub since: Option<u64> = "since" => int::<u64>(0, i64::MAX),
    }

    /// `network {tabId?, filter?, since?}` → `{requests, dropped, next, tabId}`.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Network {
        pub tab_id,
        /// Only requests whose URL contains this text (case-insensitive).
        pub filter: Option<String> = "filter" => OptText,
        /// Only entries after this cursor: an earlier result's `next since`.
        pub since: Option<u64> = "since" => int::<u64>(0, i64::MAX),
    }

    /// `pdf {tabId?, landscape?, printBackground?}` → `{mime, data, tabId}` (`Page.printToPDF`).
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Pdf {
        pub tab_id,
        /// Landscape pages.
        pub landscape: bool = "landscape" => Flag(false),
        /// Print background colours and images.
        pub print_background: bool = "printBackground" => Flag(false),
    }

    /// `downloads {tabId?, waitMs?}` → `{downloads:[…]}`: the downloads started from the agent's tabs
    /// (only `tabId`'s when given); with `waitMs`, first waits until none is in progress.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Downloads {
        pub tab_id,
        /// ms to wait for running downloads (default 0).
        pub wait_ms: Option<u64> = "waitMs" => int::<u64>(0, WAIT_MS).shown(),
    }
}

impl Rules for Find {
    #[cfg(feature = "schema")]
    fn schema_rules() -> Vec<Value> {
        vec![json!({"oneOf": [{"required": ["text"]}, {"required": ["regex"]}]})]
    }
}

impl Rules for Screenshot {
    fn validate(&self, f: &Fields<'_>) -> Res<()> {
        if self.quality.is_some() && self.format != ImageFormat::Jpeg {
            return Err(f.err("quality", "only with format: \"jpeg\""));
        }
        if self.full_page && self.locator.is_some() {
            return Err(f.err(
                "fullPage",
                "not allowed together with an element (the shot is clipped to it)",
            ));
        }
        Ok(())
    }
    #[cfg(feature = "schema")]
    fn schema_rules() -> Vec<Value> {
        vec![json!({"dependencies": {
            "quality": {"properties": {"format": {"const": "jpeg"}}, "required": ["format"]}
        }})]
    }
}

impl Rules for Handoff {
    fn validate(&self, f: &Fields<'_>) -> Res<()> {
        if self.reason.trim().is_empty() || self.reason.contains(['\n', '\r']) {
            return Err(f.err(
                "reason",
                "give one line the person reads, e.g. \"sign in\" or \"confirm the payment\"",
            ));
        }
        if self.reason.chars().count() > MAX_HANDOFF_REASON_CHARS {
            return Err(f.err(
                "reason",
                format!("at most {MAX_HANDOFF_REASON_CHARS} characters: one short line"),
            ));
        }
        Ok(())
    }
}
