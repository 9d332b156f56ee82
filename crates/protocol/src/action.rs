//! The `browser` action union of SPEC §4: one action per request, tagged by `type`, camelCase
//! fields, validated by [`Action::from_value`] with messages that name the offending field.

use crate::error::ErrorBody;
use crate::locator::{read_locator, write_locator, Locator};
use crate::wire::{int_in, kind, Fields, Res};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::time::Duration;

/// A Chrome tab id (`chrome.tabs.Tab.id`, a non-negative 32-bit integer on the wire).
pub type TabId = i64;

/// The largest tab or window id accepted on the wire (Chrome's ids are 32-bit integers).
pub const MAX_TAB_ID: TabId = i32::MAX as TabId;

/// `wait_for`'s default `timeoutMs` (SPEC §4), in ms.
pub const DEFAULT_WAIT_TIMEOUT_MS: u64 = 5_000;
/// The largest `timeoutMs` of `wait_for` and `scrape` (SPEC §4), in ms.
pub const MAX_WAIT_TIMEOUT_MS: u64 = 30_000;
/// `scrape`'s default `timeoutMs`, in ms (the v1 bridge's default).
pub const DEFAULT_SCRAPE_TIMEOUT_MS: u64 = 5_000;
/// What the bridge adds to a caller-given `timeoutMs` for its own pending-pool timeout (SPEC §4).
pub const TIMEOUT_GRACE: Duration = Duration::from_secs(2);

/// `open_tab {url, focus?}` → `{tabId, windowId, domain}`. Opens in the agent window unless `focus`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenTab {
    /// Absolute URL (http, https, file, about or data).
    pub url: String,
    /// Open in the user's focused window instead of the agent window (default false).
    pub focus: bool,
}

/// `navigate {url, tabId?}` → `{tabId, url, title}` after load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Navigate {
    /// Absolute URL (http, https, file, about or data).
    pub url: String,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// Parameters of the actions that only take an optional `tabId`
/// (`go_back`, `go_forward`, `reload`, `close_tab`, `extract`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TabOnly {
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// `activate_tab {tabId}` (required) → `{tabId, url, title, active:true}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivateTab {
    /// The tab to activate; its window is focused too.
    pub tab_id: TabId,
}

/// `close_agent_tabs {owner?}` / `close_agent_window {owner?}`: only `owner`'s tabs/window when
/// given; otherwise the requesting client's (the bridge stamps the request's `owner`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnerOnly {
    /// An explicit agent owner (a bridge client id such as `cli-…`).
    pub owner: Option<String>,
}

/// `click {locator, tabId?, newTab?}` → `{clicked:{…}, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Click {
    /// The element.
    pub locator: Locator,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
    /// Open a clicked link in a new agent tab (default false: same tab).
    pub new_tab: bool,
}

/// `click_at {x, y, tabId?}` → as `click`, plus `x`, `y`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClickAt {
    /// Viewport x in CSS px (≥ 0).
    pub x: f64,
    /// Viewport y in CSS px (≥ 0).
    pub y: f64,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// `hover {locator, tabId?}` → `{hovered:{…}, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    /// The element.
    pub locator: Locator,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// `type {locator, text, clear?, submit?, tabId?}` → `{element, value, tabId}`.
///
/// Here `text` is the text to type, so a text locator must be written nested:
/// `"locator": {"text": "Email"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeText {
    /// The element to focus.
    pub locator: Locator,
    /// The text to insert (may be empty: with `clear` that empties the field).
    pub text: String,
    /// Select all and delete first (default true).
    pub clear: bool,
    /// Press Enter after typing (default false).
    pub submit: bool,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// A key modifier of `press_key` (`alt` / `ctrl` / `shift` / `meta`).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Modifier {
    /// Alt (Option on macOS).
    Alt,
    /// Control.
    Ctrl,
    /// Shift.
    Shift,
    /// Meta (Command on macOS, Windows key elsewhere).
    Meta,
}

impl Modifier {
    /// The wire spelling.
    pub fn as_str(&self) -> &'static str {
        match self {
            Modifier::Alt => "alt",
            Modifier::Ctrl => "ctrl",
            Modifier::Shift => "shift",
            Modifier::Meta => "meta",
        }
    }

    /// The CDP `Input.dispatchKeyEvent` `modifiers` bit (Alt=1, Ctrl=2, Meta=4, Shift=8).
    pub fn cdp_bit(&self) -> u32 {
        match self {
            Modifier::Alt => 1,
            Modifier::Ctrl => 2,
            Modifier::Meta => 4,
            Modifier::Shift => 8,
        }
    }

    /// Parses a modifier name, case-insensitively, with the usual aliases
    /// (`control`, `option`, `cmd`, `command`).
    pub fn parse(s: &str) -> Option<Modifier> {
        match s.to_ascii_lowercase().as_str() {
            "alt" | "option" => Some(Modifier::Alt),
            "ctrl" | "control" => Some(Modifier::Ctrl),
            "shift" => Some(Modifier::Shift),
            "meta" | "cmd" | "command" => Some(Modifier::Meta),
            _ => None,
        }
    }
}

/// `press_key {key, modifiers?, locator?, waitLoad?, tabId?}` → `{key, modifiers, element?, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PressKey {
    /// A `KeyboardEvent.key` value: `"Enter"`, `"Escape"`, `"a"`, `"ArrowDown"`, …
    pub key: String,
    /// Held modifiers, no duplicates, in the order given.
    pub modifiers: Vec<Modifier>,
    /// Focus this element first; otherwise the key goes to the focused element.
    pub locator: Option<Locator>,
    /// Wait for the tab to finish loading after the key (default false).
    pub wait_load: bool,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// `scroll {dx?, dy?, toEnd?, locator?, tabId?}` → `{scrolled:{dx,dy}, atEnd, tabId}`.
/// Either `dx`/`dy` or `toEnd: true` (not both, not neither).
#[derive(Clone, Debug, PartialEq)]
pub struct Scroll {
    /// Horizontal amount in CSS px (negative = left).
    pub dx: Option<f64>,
    /// Vertical amount in CSS px (negative = up).
    pub dy: Option<f64>,
    /// Scroll to the bottom of the container or page.
    pub to_end: bool,
    /// The scroll container; the window when omitted.
    pub locator: Option<Locator>,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// Which option(s) `select_option` selects: exactly one of `value` / `label` / `index` on the wire,
/// each a single value or a non-empty array (multi-select).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChoice {
    /// By `<option value>`.
    Value(Vec<String>),
    /// By the option's visible label.
    Label(Vec<String>),
    /// By 0-based option index.
    Index(Vec<u32>),
}

impl OptionChoice {
    /// The wire key: `"value"`, `"label"` or `"index"`.
    pub fn key(&self) -> &'static str {
        match self {
            OptionChoice::Value(_) => "value",
            OptionChoice::Label(_) => "label",
            OptionChoice::Index(_) => "index",
        }
    }

    /// The number of options to select.
    pub fn len(&self) -> usize {
        match self {
            OptionChoice::Value(v) | OptionChoice::Label(v) => v.len(),
            OptionChoice::Index(v) => v.len(),
        }
    }

    /// Whether no option is named (never true for a validated action).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn to_value(&self) -> Value {
        fn one_or_many<T: Clone + Into<Value>>(v: &[T]) -> Value {
            match v {
                [one] => one.clone().into(),
                many => Value::Array(many.iter().cloned().map(Into::into).collect()),
            }
        }
        match self {
            OptionChoice::Value(v) | OptionChoice::Label(v) => one_or_many(v),
            OptionChoice::Index(v) => one_or_many(v),
        }
    }
}

/// `select_option {locator, value | label | index, tabId?}` → `{selected:[{value,label}], tabId}`.
///
/// Here `index` names the option, so a locator index must be written nested:
/// `"locator": {"selector": "select", "index": 1}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectOption {
    /// The `<select>` element.
    pub locator: Locator,
    /// The option(s) to select.
    pub choice: OptionChoice,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// `check {locator, checked?, tabId?}` → `{checked, tabId}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// The checkbox, radio or switch.
    pub locator: Locator,
    /// The wanted state (default true).
    pub checked: bool,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// `set_value {locator, value, tabId?}` → `{element, value, tabId}`; fires `input` + `change`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetValue {
    /// The control.
    pub locator: Locator,
    /// The value to set.
    pub value: String,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// What `wait_for` waits for: a locator, or `textContains` (text anywhere in the page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitTarget {
    /// An element.
    Locator(Locator),
    /// Visible text containing this string.
    TextContains(String),
}

/// The state `wait_for` waits for (default `visible`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum WaitState {
    /// In the document and rendered with a non-empty box.
    #[default]
    Visible,
    /// In the document.
    Attached,
    /// Not in the document, or not rendered.
    Hidden,
}

impl WaitState {
    /// The wire spelling.
    pub fn as_str(&self) -> &'static str {
        match self {
            WaitState::Visible => "visible",
            WaitState::Attached => "attached",
            WaitState::Hidden => "hidden",
        }
    }
}

/// `wait_for {locator | textContains, state?, timeoutMs?, tabId?}` → `{found, elapsedMs, tabId}`;
/// not found in time → `timeout`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitFor {
    /// What to wait for.
    pub target: WaitTarget,
    /// The state to reach (default visible).
    pub state: WaitState,
    /// How long to wait, in ms (default 5000, at most 30000).
    pub timeout_ms: u64,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// `evaluate {expression, tabId?}` → SPEC §7. The expression is wrapped as `(() => { … })()`,
/// so it must `return` its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluate {
    /// JavaScript function body.
    pub expression: String,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// `scrape {item, fields?, limit?, timeoutMs?, tabId?}` → `{count, items, tabId}` (static queries only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scrape {
    /// CSS selector of each item's container.
    pub item: String,
    /// Output name → `"selector[@attr]"` inside the item (see [`split_field_spec`]); text when no `@attr`.
    pub fields: Option<BTreeMap<String, String>>,
    /// At most this many items (≥ 1).
    pub limit: Option<u32>,
    /// How long to wait for the first item, in ms (default 5000, at most 30000).
    pub timeout_ms: Option<u64>,
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
}

/// Splits a scrape field spec `"selector[@attr]"` into the selector and the attribute:
/// `"a@href"` → `("a", Some("href"))`, `"h3"` → `("h3", None)`, `"@href"` → `("", Some("href"))`
/// (the item itself). The split is at the last `@` followed by an attribute name.
pub fn split_field_spec(spec: &str) -> (&str, Option<&str>) {
    if let Some(at) = spec.rfind('@') {
        let attr = &spec[at + 1..];
        let is_name = attr
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
            && attr
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'));
        if is_name {
            return (spec[..at].trim(), Some(attr));
        }
    }
    (spec.trim(), None)
}

/// `screenshot`'s image format.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    /// PNG (default), `image/png`.
    #[default]
    Png,
    /// JPEG, `image/jpeg`; takes `quality`.
    Jpeg,
}

impl ImageFormat {
    /// The wire spelling (also the CDP `Page.captureScreenshot` `format`).
    pub fn as_str(&self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpeg",
        }
    }

    /// The MIME type of the result.
    pub fn mime(&self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
        }
    }
}

/// `screenshot {tabId?, fullPage?, format?, quality?, maxWidth?}` → `{mime, data, width, height}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Screenshot {
    /// The tab; resolved by SPEC §6 when omitted.
    pub tab_id: Option<TabId>,
    /// The whole page rather than the viewport (default false).
    pub full_page: bool,
    /// png (default) or jpeg.
    pub format: ImageFormat,
    /// JPEG quality 0..=100 (jpeg only).
    pub quality: Option<u8>,
    /// Scale down to at most this width in px (≥ 1).
    pub max_width: Option<u32>,
}

/// One `browser` action (SPEC §4). Wire: `{"type":"click","uid":"e7","tabId":12}`.
///
/// Serialize writes the canonical wire JSON (defaults omitted); Deserialize goes through
/// [`Action::from_value`], so `from_value(to_value(a)) == a` for every valid action.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `open_tab`
    OpenTab(OpenTab),
    /// `navigate`
    Navigate(Navigate),
    /// `go_back`
    GoBack(TabOnly),
    /// `go_forward`
    GoForward(TabOnly),
    /// `reload`
    Reload(TabOnly),
    /// `get_tabs`
    GetTabs,
    /// `activate_tab`
    ActivateTab(ActivateTab),
    /// `close_tab`
    CloseTab(TabOnly),
    /// `close_agent_tabs`
    CloseAgentTabs(OwnerOnly),
    /// `close_agent_window`
    CloseAgentWindow(OwnerOnly),
    /// `click`
    Click(Click),
    /// `click_at`
    ClickAt(ClickAt),
    /// `hover`
    Hover(Hover),
    /// `type`
    Type(TypeText),
    /// `press_key`
    PressKey(PressKey),
    /// `scroll`
    Scroll(Scroll),
    /// `select_option`
    SelectOption(SelectOption),
    /// `check`
    Check(Check),
    /// `set_value`
    SetValue(SetValue),
    /// `wait_for`
    WaitFor(WaitFor),
    /// `extract`
    Extract(TabOnly),
    /// `evaluate`
    Evaluate(Evaluate),
    /// `scrape`
    Scrape(Scrape),
    /// `screenshot`
    Screenshot(Screenshot),
}

const ACTION_NAMES: [&str; 24] = [
    "open_tab",
    "navigate",
    "go_back",
    "go_forward",
    "reload",
    "get_tabs",
    "activate_tab",
    "close_tab",
    "close_agent_tabs",
    "close_agent_window",
    "click",
    "click_at",
    "hover",
    "type",
    "press_key",
    "scroll",
    "select_option",
    "check",
    "set_value",
    "wait_for",
    "extract",
    "evaluate",
    "scrape",
    "screenshot",
];

/// Every action type, in the order of the SPEC §4 table.
pub fn action_names() -> &'static [&'static str] {
    &ACTION_NAMES
}

/// The wire fields (besides `type`) each action accepts, in schema order.
pub(crate) fn action_fields(name: &str) -> &'static [&'static str] {
    const TAB: &[&str] = &["tabId"];
    match name {
        "open_tab" => &["url", "focus"],
        "navigate" => &["url", "tabId"],
        "go_back" | "go_forward" | "reload" | "close_tab" | "extract" => TAB,
        "activate_tab" => TAB,
        "close_agent_tabs" | "close_agent_window" => &["owner"],
        "click" => &[
            "uid", "selector", "text", "xpath", "index", "locator", "tabId", "newTab",
        ],
        "click_at" => &["x", "y", "tabId"],
        "hover" => &[
            "uid", "selector", "text", "xpath", "index", "locator", "tabId",
        ],
        "type" => &[
            "uid", "selector", "xpath", "index", "locator", "text", "clear", "submit", "tabId",
        ],
        "press_key" => &[
            "key",
            "modifiers",
            "uid",
            "selector",
            "text",
            "xpath",
            "index",
            "locator",
            "waitLoad",
            "tabId",
        ],
        "scroll" => &[
            "dx", "dy", "toEnd", "uid", "selector", "text", "xpath", "index", "locator", "tabId",
        ],
        "select_option" => &[
            "uid", "selector", "text", "xpath", "locator", "value", "label", "index", "tabId",
        ],
        "check" => &[
            "uid", "selector", "text", "xpath", "index", "locator", "checked", "tabId",
        ],
        "set_value" => &[
            "uid", "selector", "text", "xpath", "index", "locator", "value", "tabId",
        ],
        "wait_for" => &[
            "uid",
            "selector",
            "text",
            "xpath",
            "index",
            "locator",
            "textContains",
            "state",
            "timeoutMs",
            "tabId",
        ],
        "evaluate" => &["expression", "tabId"],
        "scrape" => &["item", "fields", "limit", "timeoutMs", "tabId"],
        "screenshot" => &["tabId", "fullPage", "format", "quality", "maxWidth"],
        _ => &[],
    }
}

/// The locator keys an action uses for its own parameters (so its locator is written nested
/// when it would collide).
pub(crate) fn taken_keys(name: &str) -> &'static [&'static str] {
    match name {
        "type" => &["text"],
        "select_option" => &["index"],
        _ => &[],
    }
}

/// URL schemes `open_tab` / `navigate` accept.
pub const URL_SCHEMES: [&str; 5] = ["http", "https", "file", "about", "data"];

/// The absolute URL a user probably meant by `raw` when it lacks the scheme (`example.com/a`,
/// `localhost:8080`): `https://…` for a host with a dot, `http://…` for `localhost`; `None` for
/// anything that is not a plain host (spaces, no dot: `not a url`).
pub(crate) fn suggest_absolute(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty() || raw.contains(char::is_whitespace) || raw.contains("://") {
        return None;
    }
    let guess = |scheme: &str| {
        let candidate = format!("{scheme}://{raw}");
        let parsed = url::Url::parse(&candidate).ok()?;
        let host = parsed.host_str()?.to_ascii_lowercase();
        let plain_host = host.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
        let named =
            (host.contains('.') && plain_host && !host.ends_with(|c: char| c.is_ascii_digit()))
                || matches!(parsed.host(), Some(url::Host::Ipv4(_)));
        (named || host == "localhost").then_some((candidate, host))
    };
    match guess("https")? {
        (_, host) if host == "localhost" || host.starts_with("127.") => {
            guess("http").map(|(c, _)| c)
        }
        (candidate, _) => Some(candidate),
    }
}

fn read_url(f: &mut Fields<'_>) -> Res<String> {
    let raw = f.req_nonempty("url")?;
    match url::Url::parse(raw.trim()) {
        Ok(parsed) => {
            if !URL_SCHEMES.contains(&parsed.scheme()) {
                // `localhost:8080`, `example.com:8080/x` parse with the host as the scheme.
                let after = raw.trim().split_once(':').map_or("", |(_, rest)| rest);
                let hint = if after.starts_with(|c: char| c.is_ascii_digit()) {
                    suggest_absolute(&raw).map(|s| format!(" (did you mean `{s}`?)"))
                } else {
                    None
                };
                return Err(f.err(
                    "url",
                    hint.unwrap_or_else(|| {
                        format!(
                            "scheme `{}` is not supported: use an http or https URL (about:blank and data: URLs open too; file:// URLs are always refused)",
                            parsed.scheme()
                        )
                    }),
                ));
            }
            if matches!(parsed.scheme(), "http" | "https")
                && parsed.host_str().is_none_or(str::is_empty)
            {
                return Err(f.err("url", "has no host"));
            }
            Ok(raw)
        }
        Err(url::ParseError::RelativeUrlWithoutBase) => Err(f.err(
            "url",
            match suggest_absolute(&raw) {
                Some(s) => format!("`{raw}` is not an absolute URL (did you mean `{s}`?)"),
                None => format!(
                    "`{raw}` is not an absolute URL: give the whole URL with its scheme, e.g. https://example.com/"
                ),
            },
        )),
        Err(e) => Err(f.err("url", format!("`{raw}` is not a valid URL ({e})"))),
    }
}

fn read_tab_id(f: &mut Fields<'_>) -> Res<Option<TabId>> {
    f.opt_int("tabId", 0, MAX_TAB_ID)
}

fn read_tab_only(f: &mut Fields<'_>) -> Res<TabOnly> {
    Ok(TabOnly {
        tab_id: read_tab_id(f)?,
    })
}

fn require_locator(f: &mut Fields<'_>, name: &str) -> Res<Locator> {
    let taken = taken_keys(name);
    read_locator(f, taken)?.ok_or_else(|| {
        let keys = match name {
            "type" => "uid/selector/xpath (or locator: {text})",
            "select_option" => "uid/selector/text/xpath",
            _ => "uid/selector/text/xpath",
        };
        f.err_msg(format!("exactly one of {keys} is required"))
    })
}

fn read_modifiers(f: &mut Fields<'_>) -> Res<Vec<Modifier>> {
    let Some(v) = f.take("modifiers") else {
        return Ok(Vec::new());
    };
    let Value::Array(items) = v else {
        return Err(f.err(
            "modifiers",
            format!("must be an array of alt/ctrl/shift/meta, got {}", kind(&v)),
        ));
    };
    let mut out = Vec::with_capacity(items.len());
    for item in &items {
        let m = match item {
            Value::String(s) => Modifier::parse(s).ok_or_else(|| {
                f.err(
                    "modifiers",
                    format!("unknown modifier `{s}` (use alt, ctrl, shift, meta)"),
                )
            })?,
            other => {
                return Err(f.err(
                    "modifiers",
                    format!("items must be strings, got {}", kind(other)),
                ))
            }
        };
        if out.contains(&m) {
            return Err(f.err("modifiers", format!("`{}` given twice", m.as_str())));
        }
        out.push(m);
    }
    Ok(out)
}

fn read_choice(f: &mut Fields<'_>) -> Res<OptionChoice> {
    let present: Vec<&str> = ["value", "label", "index"]
        .into_iter()
        .filter(|k| f.has(k))
        .collect();
    let key = match present.as_slice() {
        [one] => *one,
        [] => return Err(f.err_msg("exactly one of value/label/index is required")),
        many => {
            return Err(f.err_msg(format!(
                "exactly one of value/label/index is allowed, got {}",
                many.join(" and ")
            )))
        }
    };
    let v = f.take(key).unwrap_or(Value::Null);
    let items: Vec<Value> = match v {
        Value::Array(items) if items.is_empty() => {
            return Err(f.err(key, "must not be an empty array"))
        }
        Value::Array(items) => items,
        single => vec![single],
    };
    if key == "index" {
        let mut out = Vec::with_capacity(items.len());
        for item in &items {
            let n = int_in(item, 0, i64::from(u32::MAX)).map_err(|what| f.err("index", what))?;
            out.push(u32::try_from(n).unwrap_or(0));
        }
        return Ok(OptionChoice::Index(out));
    }
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::String(s) => out.push(s),
            other => {
                return Err(f.err(
                    key,
                    format!(
                        "must be a string or an array of strings, got {}",
                        kind(&other)
                    ),
                ))
            }
        }
    }
    Ok(if key == "value" {
        OptionChoice::Value(out)
    } else {
        OptionChoice::Label(out)
    })
}

fn read_fields_map(f: &mut Fields<'_>) -> Res<Option<BTreeMap<String, String>>> {
    let Some(v) = f.take("fields") else {
        return Ok(None);
    };
    let Value::Object(map) = v else {
        return Err(f.err(
            "fields",
            format!(
                "must be an object {{name: \"selector[@attr]\"}}, got {}",
                kind(&v)
            ),
        ));
    };
    if map.is_empty() {
        return Err(f.err("fields", "must name at least one field (or be omitted)"));
    }
    let mut out = BTreeMap::new();
    for (name, spec) in map {
        if name.trim().is_empty() {
            return Err(f.err("fields", "field names must not be empty"));
        }
        match spec {
            Value::String(s) if !s.trim().is_empty() => {
                out.insert(name, s);
            }
            Value::String(_) => return Err(f.err(&format!("fields.{name}"), "must not be empty")),
            other => {
                return Err(f.err(
                    &format!("fields.{name}"),
                    format!("must be a string \"selector[@attr]\", got {}", kind(&other)),
                ))
            }
        }
    }
    Ok(Some(out))
}

/// The `tabId` slot of actions whose `tabId` is optional; works on `&Action` and `&mut Action`.
macro_rules! tab_slot {
    ($action:expr) => {
        match $action {
            Action::Navigate(Navigate { tab_id, .. })
            | Action::GoBack(TabOnly { tab_id })
            | Action::GoForward(TabOnly { tab_id })
            | Action::Reload(TabOnly { tab_id })
            | Action::CloseTab(TabOnly { tab_id })
            | Action::Extract(TabOnly { tab_id })
            | Action::Click(Click { tab_id, .. })
            | Action::ClickAt(ClickAt { tab_id, .. })
            | Action::Hover(Hover { tab_id, .. })
            | Action::Type(TypeText { tab_id, .. })
            | Action::PressKey(PressKey { tab_id, .. })
            | Action::Scroll(Scroll { tab_id, .. })
            | Action::SelectOption(SelectOption { tab_id, .. })
            | Action::Check(Check { tab_id, .. })
            | Action::SetValue(SetValue { tab_id, .. })
            | Action::WaitFor(WaitFor { tab_id, .. })
            | Action::Evaluate(Evaluate { tab_id, .. })
            | Action::Scrape(Scrape { tab_id, .. })
            | Action::Screenshot(Screenshot { tab_id, .. }) => Some(tab_id),
            Action::OpenTab(_)
            | Action::GetTabs
            | Action::ActivateTab(_)
            | Action::CloseAgentTabs(_)
            | Action::CloseAgentWindow(_) => None,
        }
    };
}

impl Action {
    /// Parses and validates one action from its wire JSON (SPEC §4).
    ///
    /// Every refusal is `invalid_action` with a message that names the field, e.g.
    /// `"click: unknown field `foo`; expected one of …"`,
    /// `"click: exactly one of uid/selector/text/xpath is required"`,
    /// `"click: index: not allowed with uid …"`, `"wait_for: timeoutMs: must be ≤ 30000"`,
    /// `"type: unknown action `fly`; expected one of …"`. JSON `null` for an optional field reads
    /// as omitted.
    pub fn from_value(v: &Value) -> Result<Action, ErrorBody> {
        let Value::Object(map) = v else {
            return Err(ErrorBody::invalid(format!(
                "action: expected a JSON object with a `type`, got {}",
                kind(v)
            )));
        };
        let name = match map.get("type") {
            Some(Value::String(s)) => match ACTION_NAMES.iter().find(|n| **n == s.as_str()) {
                Some(n) => *n,
                None => {
                    return Err(ErrorBody::invalid(format!(
                        "type: unknown action `{s}`; expected one of {}",
                        ACTION_NAMES.join(", ")
                    )))
                }
            },
            None | Some(Value::Null) => {
                return Err(ErrorBody::invalid(format!(
                    "type: required; one of {}",
                    ACTION_NAMES.join(", ")
                )))
            }
            Some(other) => {
                return Err(ErrorBody::invalid(format!(
                    "type: must be a string, got {}",
                    kind(other)
                )))
            }
        };
        let mut map = map.clone();
        map.remove("type");
        let mut f = Fields::from_map(name, map, action_fields(name));
        f.check_unknown()?;
        let action = Self::parse_fields(name, &mut f)?;
        f.finish()?;
        Ok(action)
    }

    fn parse_fields(name: &'static str, f: &mut Fields<'_>) -> Res<Action> {
        Ok(match name {
            "open_tab" => Action::OpenTab(OpenTab {
                url: read_url(f)?,
                focus: f.bool_or("focus", false)?,
            }),
            "navigate" => Action::Navigate(Navigate {
                url: read_url(f)?,
                tab_id: read_tab_id(f)?,
            }),
            "go_back" => Action::GoBack(read_tab_only(f)?),
            "go_forward" => Action::GoForward(read_tab_only(f)?),
            "reload" => Action::Reload(read_tab_only(f)?),
            "get_tabs" => Action::GetTabs,
            "activate_tab" => Action::ActivateTab(ActivateTab {
                tab_id: read_tab_id(f)?.ok_or_else(|| f.err("tabId", "required"))?,
            }),
            "close_tab" => Action::CloseTab(read_tab_only(f)?),
            "close_agent_tabs" => Action::CloseAgentTabs(OwnerOnly {
                owner: f.opt_nonempty("owner")?,
            }),
            "close_agent_window" => Action::CloseAgentWindow(OwnerOnly {
                owner: f.opt_nonempty("owner")?,
            }),
            "click" => Action::Click(Click {
                locator: require_locator(f, name)?,
                tab_id: read_tab_id(f)?,
                new_tab: f.bool_or("newTab", false)?,
            }),
            "click_at" => Action::ClickAt(ClickAt {
                x: f.req_f64("x", 0.0, 1.0e7)?,
                y: f.req_f64("y", 0.0, 1.0e7)?,
                tab_id: read_tab_id(f)?,
            }),
            "hover" => Action::Hover(Hover {
                locator: require_locator(f, name)?,
                tab_id: read_tab_id(f)?,
            }),
            "type" => {
                let locator = require_locator(f, name)?;
                Action::Type(TypeText {
                    locator,
                    text: f.req_str("text")?,
                    clear: f.bool_or("clear", true)?,
                    submit: f.bool_or("submit", false)?,
                    tab_id: read_tab_id(f)?,
                })
            }
            "press_key" => Action::PressKey(PressKey {
                key: f.req_nonempty("key")?,
                modifiers: read_modifiers(f)?,
                locator: read_locator(f, &[])?,
                wait_load: f.bool_or("waitLoad", false)?,
                tab_id: read_tab_id(f)?,
            }),
            "scroll" => {
                let dx = f.opt_f64("dx", -1.0e7, 1.0e7)?;
                let dy = f.opt_f64("dy", -1.0e7, 1.0e7)?;
                let to_end = f.bool_or("toEnd", false)?;
                if to_end && (dx.is_some() || dy.is_some()) {
                    return Err(f.err("toEnd", "not allowed together with dx/dy"));
                }
                if !to_end && dx.is_none() && dy.is_none() {
                    return Err(f.err_msg("give dx and/or dy (px), or toEnd: true"));
                }
                Action::Scroll(Scroll {
                    dx,
                    dy,
                    to_end,
                    locator: read_locator(f, &[])?,
                    tab_id: read_tab_id(f)?,
                })
            }
            "select_option" => {
                let locator = require_locator(f, name)?;
                Action::SelectOption(SelectOption {
                    locator,
                    choice: read_choice(f)?,
                    tab_id: read_tab_id(f)?,
                })
            }
            "check" => Action::Check(Check {
                locator: require_locator(f, name)?,
                checked: f.bool_or("checked", true)?,
                tab_id: read_tab_id(f)?,
            }),
            "set_value" => Action::SetValue(SetValue {
                locator: require_locator(f, name)?,
                value: f.req_str("value")?,
                tab_id: read_tab_id(f)?,
            }),
            "wait_for" => {
                let loc = read_locator(f, &[])?;
                let text = f.opt_nonempty("textContains")?;
                let target = match (loc, text) {
                    (Some(l), None) => WaitTarget::Locator(l),
                    (None, Some(t)) => WaitTarget::TextContains(t),
                    (Some(l), Some(_)) => {
                        return Err(f.err(
                            "textContains",
                            format!("not allowed together with `{}`", l.key()),
                        ))
                    }
                    (None, None) => {
                        return Err(f.err_msg(
                            "exactly one of uid/selector/text/xpath/textContains is required",
                        ))
                    }
                };
                let state = match f.opt_str("state")? {
                    None => WaitState::Visible,
                    Some(s) => match s.as_str() {
                        "visible" => WaitState::Visible,
                        "attached" => WaitState::Attached,
                        "hidden" => WaitState::Hidden,
                        _ => {
                            return Err(f.err(
                                "state",
                                format!("unknown state `{s}` (use visible, attached or hidden)"),
                            ))
                        }
                    },
                };
                Action::WaitFor(WaitFor {
                    target,
                    state,
                    timeout_ms: f
                        .opt_u64("timeoutMs", 0, MAX_WAIT_TIMEOUT_MS)?
                        .unwrap_or(DEFAULT_WAIT_TIMEOUT_MS),
                    tab_id: read_tab_id(f)?,
                })
            }
            "extract" => Action::Extract(read_tab_only(f)?),
            "evaluate" => Action::Evaluate(Evaluate {
                expression: f.req_nonempty("expression")?,
                tab_id: read_tab_id(f)?,
            }),
            "scrape" => Action::Scrape(Scrape {
                item: f.req_nonempty("item")?,
                fields: read_fields_map(f)?,
                limit: f.opt_u32("limit", 1, u32::MAX)?,
                timeout_ms: f.opt_u64("timeoutMs", 0, MAX_WAIT_TIMEOUT_MS)?,
                tab_id: read_tab_id(f)?,
            }),
            "screenshot" => {
                let tab_id = read_tab_id(f)?;
                let full_page = f.bool_or("fullPage", false)?;
                let format = match f.opt_str("format")? {
                    None => ImageFormat::Png,
                    Some(s) => match s.as_str() {
                        "png" => ImageFormat::Png,
                        "jpeg" | "jpg" => ImageFormat::Jpeg,
                        _ => {
                            return Err(
                                f.err("format", format!("unknown format `{s}` (use png or jpeg)"))
                            )
                        }
                    },
                };
                let quality = f
                    .opt_int("quality", 0, 100)?
                    .and_then(|q| u8::try_from(q).ok());
                if quality.is_some() && format != ImageFormat::Jpeg {
                    return Err(f.err("quality", "only with format: \"jpeg\""));
                }
                let max_width = f.opt_u32("maxWidth", 1, 100_000)?;
                Action::Screenshot(Screenshot {
                    tab_id,
                    full_page,
                    format,
                    quality,
                    max_width,
                })
            }
            other => {
                return Err(ErrorBody::invalid(format!(
                    "type: unknown action `{other}`"
                )))
            }
        })
    }

    /// The canonical wire JSON: `{"type":"click","uid":"e7","tabId":12}`; fields at their default
    /// are omitted.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        let name = self.name();
        m.insert("type".to_owned(), Value::String(name.to_owned()));
        fn put(m: &mut Map<String, Value>, k: &str, v: impl Into<Value>) {
            m.insert(k.to_owned(), v.into());
        }
        fn put_opt<T: Into<Value>>(m: &mut Map<String, Value>, k: &str, v: Option<T>) {
            if let Some(v) = v {
                m.insert(k.to_owned(), v.into());
            }
        }
        fn put_flag(m: &mut Map<String, Value>, k: &str, v: bool, default: bool) {
            if v != default {
                m.insert(k.to_owned(), Value::Bool(v));
            }
        }
        let taken = taken_keys(name);
        match self {
            Action::OpenTab(a) => {
                put(&mut m, "url", a.url.clone());
                put_flag(&mut m, "focus", a.focus, false);
            }
            Action::Navigate(a) => {
                put(&mut m, "url", a.url.clone());
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::GoBack(a)
            | Action::GoForward(a)
            | Action::Reload(a)
            | Action::CloseTab(a)
            | Action::Extract(a) => {
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::GetTabs => {}
            Action::ActivateTab(a) => put(&mut m, "tabId", a.tab_id),
            Action::CloseAgentTabs(a) | Action::CloseAgentWindow(a) => {
                put_opt(&mut m, "owner", a.owner.clone())
            }
            Action::Click(a) => {
                write_locator(&mut m, &a.locator, taken);
                put_opt(&mut m, "tabId", a.tab_id);
                put_flag(&mut m, "newTab", a.new_tab, false);
            }
            Action::ClickAt(a) => {
                put(&mut m, "x", a.x);
                put(&mut m, "y", a.y);
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::Hover(a) => {
                write_locator(&mut m, &a.locator, taken);
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::Type(a) => {
                write_locator(&mut m, &a.locator, taken);
                put(&mut m, "text", a.text.clone());
                put_flag(&mut m, "clear", a.clear, true);
                put_flag(&mut m, "submit", a.submit, false);
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::PressKey(a) => {
                put(&mut m, "key", a.key.clone());
                if !a.modifiers.is_empty() {
                    put(
                        &mut m,
                        "modifiers",
                        a.modifiers.iter().map(|x| x.as_str()).collect::<Vec<_>>(),
                    );
                }
                if let Some(l) = &a.locator {
                    write_locator(&mut m, l, taken);
                }
                put_flag(&mut m, "waitLoad", a.wait_load, false);
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::Scroll(a) => {
                put_opt(&mut m, "dx", a.dx);
                put_opt(&mut m, "dy", a.dy);
                put_flag(&mut m, "toEnd", a.to_end, false);
                if let Some(l) = &a.locator {
                    write_locator(&mut m, l, taken);
                }
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::SelectOption(a) => {
                write_locator(&mut m, &a.locator, taken);
                put(&mut m, a.choice.key(), a.choice.to_value());
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::Check(a) => {
                write_locator(&mut m, &a.locator, taken);
                put_flag(&mut m, "checked", a.checked, true);
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::SetValue(a) => {
                write_locator(&mut m, &a.locator, taken);
                put(&mut m, "value", a.value.clone());
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::WaitFor(a) => {
                match &a.target {
                    WaitTarget::Locator(l) => write_locator(&mut m, l, taken),
                    WaitTarget::TextContains(t) => put(&mut m, "textContains", t.clone()),
                }
                if a.state != WaitState::Visible {
                    put(&mut m, "state", a.state.as_str());
                }
                if a.timeout_ms != DEFAULT_WAIT_TIMEOUT_MS {
                    put(&mut m, "timeoutMs", a.timeout_ms);
                }
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::Evaluate(a) => {
                put(&mut m, "expression", a.expression.clone());
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::Scrape(a) => {
                put(&mut m, "item", a.item.clone());
                if let Some(fields) = &a.fields {
                    let obj: Map<String, Value> = fields
                        .iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect();
                    put(&mut m, "fields", Value::Object(obj));
                }
                put_opt(&mut m, "limit", a.limit);
                put_opt(&mut m, "timeoutMs", a.timeout_ms);
                put_opt(&mut m, "tabId", a.tab_id);
            }
            Action::Screenshot(a) => {
                put_opt(&mut m, "tabId", a.tab_id);
                put_flag(&mut m, "fullPage", a.full_page, false);
                if a.format != ImageFormat::Png {
                    put(&mut m, "format", a.format.as_str());
                }
                put_opt(&mut m, "quality", a.quality);
                put_opt(&mut m, "maxWidth", a.max_width);
            }
        }
        Value::Object(m)
    }

    /// The wire `type`, e.g. `"click"`.
    pub fn name(&self) -> &'static str {
        match self {
            Action::OpenTab(_) => "open_tab",
            Action::Navigate(_) => "navigate",
            Action::GoBack(_) => "go_back",
            Action::GoForward(_) => "go_forward",
            Action::Reload(_) => "reload",
            Action::GetTabs => "get_tabs",
            Action::ActivateTab(_) => "activate_tab",
            Action::CloseTab(_) => "close_tab",
            Action::CloseAgentTabs(_) => "close_agent_tabs",
            Action::CloseAgentWindow(_) => "close_agent_window",
            Action::Click(_) => "click",
            Action::ClickAt(_) => "click_at",
            Action::Hover(_) => "hover",
            Action::Type(_) => "type",
            Action::PressKey(_) => "press_key",
            Action::Scroll(_) => "scroll",
            Action::SelectOption(_) => "select_option",
            Action::Check(_) => "check",
            Action::SetValue(_) => "set_value",
            Action::WaitFor(_) => "wait_for",
            Action::Extract(_) => "extract",
            Action::Evaluate(_) => "evaluate",
            Action::Scrape(_) => "scrape",
            Action::Screenshot(_) => "screenshot",
        }
    }

    /// The tab the action names, if any (`activate_tab`'s required `tabId` included).
    pub fn tab_id(&self) -> Option<TabId> {
        match self {
            Action::ActivateTab(a) => Some(a.tab_id),
            other => tab_slot!(other).and_then(|slot| *slot),
        }
    }

    /// Whether the action takes a `tabId` at all (false for `open_tab`, `get_tabs`,
    /// `close_agent_tabs`, `close_agent_window`).
    pub fn takes_tab_id(&self) -> bool {
        matches!(self, Action::ActivateTab(_)) || tab_slot!(self).is_some()
    }

    /// Sets the tab after the dispatcher resolved an omitted `tabId` (SPEC §6); a no-op for
    /// actions without one.
    pub fn set_tab_id(&mut self, tab_id: TabId) {
        if let Action::ActivateTab(a) = self {
            a.tab_id = tab_id;
        } else if let Some(slot) = tab_slot!(self) {
            *slot = Some(tab_id);
        }
    }

    /// The element locator, for element-taking actions (and `press_key` / `scroll` / `wait_for`
    /// when given one).
    pub fn locator(&self) -> Option<&Locator> {
        match self {
            Action::Click(a) => Some(&a.locator),
            Action::Hover(a) => Some(&a.locator),
            Action::Type(a) => Some(&a.locator),
            Action::SelectOption(a) => Some(&a.locator),
            Action::Check(a) => Some(&a.locator),
            Action::SetValue(a) => Some(&a.locator),
            Action::PressKey(a) => a.locator.as_ref(),
            Action::Scroll(a) => a.locator.as_ref(),
            Action::WaitFor(WaitFor {
                target: WaitTarget::Locator(l),
                ..
            }) => Some(l),
            _ => None,
        }
    }

    /// The URL `open_tab` / `navigate` go to (the blocklist checks it, SPEC §6).
    pub fn target_url(&self) -> Option<&str> {
        match self {
            Action::OpenTab(a) => Some(&a.url),
            Action::Navigate(a) => Some(&a.url),
            _ => None,
        }
    }

    /// The explicit `owner` of `close_agent_tabs` / `close_agent_window`.
    pub fn owner(&self) -> Option<&str> {
        match self {
            Action::CloseAgentTabs(a) | Action::CloseAgentWindow(a) => a.owner.as_deref(),
            _ => None,
        }
    }

    /// The bridge's pending-pool timeout for this action (SPEC §4 timeout column): e.g. 30 s for
    /// navigation, 10 s for `click`, `timeoutMs` + 2 s for `wait_for` and `scrape`
    /// (scrape's `timeoutMs` defaults to 5000).
    pub fn timeout(&self) -> Duration {
        let secs = |s| Duration::from_secs(s);
        match self {
            Action::OpenTab(_)
            | Action::Navigate(_)
            | Action::GoBack(_)
            | Action::GoForward(_)
            | Action::Reload(_) => secs(30),
            Action::GetTabs | Action::ActivateTab(_) => secs(5),
            Action::CloseTab(_) | Action::CloseAgentTabs(_) | Action::CloseAgentWindow(_) => {
                secs(10)
            }
            Action::Click(_) | Action::ClickAt(_) | Action::Hover(_) => secs(10),
            Action::Type(_) | Action::PressKey(_) => secs(15),
            Action::Scroll(_)
            | Action::SelectOption(_)
            | Action::Check(_)
            | Action::SetValue(_) => secs(10),
            Action::WaitFor(a) => Duration::from_millis(a.timeout_ms) + TIMEOUT_GRACE,
            Action::Extract(_) => secs(20),
            Action::Evaluate(_) => secs(12),
            Action::Scrape(a) => {
                Duration::from_millis(a.timeout_ms.unwrap_or(DEFAULT_SCRAPE_TIMEOUT_MS))
                    + TIMEOUT_GRACE
            }
            Action::Screenshot(_) => secs(15),
        }
    }

    /// The canonical wire JSON as a string.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(deserializer)?;
        Action::from_value(&v).map_err(|e| serde::de::Error::custom(e.message))
    }
}

impl std::str::FromStr for Action {
    type Err = ErrorBody;

    /// Parses an action from JSON text.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let v: Value = serde_json::from_str(s)
            .map_err(|e| ErrorBody::invalid(format!("action: not valid JSON ({e})")))?;
        Action::from_value(&v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn url_error(url: &str) -> String {
        match Action::from_value(&json!({"type": "open_tab", "url": url})) {
            Err(e) => e.message,
            Ok(a) => panic!("{url} accepted: {a:?}"),
        }
    }

    #[test]
    fn only_host_like_text_gets_a_did_you_mean() {
        assert_eq!(
            suggest_absolute("example.com/a?b=1").as_deref(),
            Some("https://example.com/a?b=1")
        );
        assert_eq!(
            suggest_absolute("localhost:8080/x").as_deref(),
            Some("http://localhost:8080/x")
        );
        assert_eq!(
            suggest_absolute("127.0.0.1:3000").as_deref(),
            Some("http://127.0.0.1:3000")
        );
        for none in [
            "not a url",
            "hello",
            "",
            "  ",
            "a b.com",
            "wiki/Page",
            "ex ample.com",
        ] {
            assert_eq!(suggest_absolute(none), None, "{none:?}");
        }
        let m = url_error("not a url");
        assert!(
            m.contains("`not a url` is not an absolute URL: give the whole URL with its scheme")
                && !m.contains("did you mean"),
            "{m}"
        );
        let m = url_error("example.com");
        assert!(m.contains("(did you mean `https://example.com`?)"), "{m}");
        let m = url_error("localhost:8080");
        assert!(m.contains("(did you mean `http://localhost:8080`?)"), "{m}");
    }

    #[test]
    fn the_unsupported_scheme_error_does_not_offer_file() {
        let m = url_error("ftp://example.com/x");
        assert!(
            m.contains("scheme `ftp` is not supported: use an http or https URL")
                && m.contains("file:// URLs are always refused"),
            "{m}"
        );
        assert!(!m.contains("https, file"), "{m}");
        let m = url_error("mailto:someone@example.com");
        assert!(
            m.contains("scheme `mailto`") && !m.contains("did you mean"),
            "{m}"
        );
    }
}
