//! Results as text made for a model: what the MCP server (and `bua-bridge extract --agent`) hands an
//! agent instead of JSON. Pure code over the protocol's result types, apart from the MCP plumbing.
//!
//! An `extract` result (SPEC §5) becomes a short header, the markdown as is, then the elements the
//! markdown does not name, one per line:
//!
//! ```text
//! url: https://shop.test/checkout
//! title: Checkout
//! obstacle: auth_wall, low: The page asks to sign in.
//! elements: 200 of 312 (the list is cut; in-viewport ones are kept first)
//! in viewport: e3-e7
//! truncated: markdown
//! page: 1 of 3; more: extract {"page":2}
//! === markdown ===
//! # Checkout
//! [Terms](e4 /legal/terms) · [Help](e5)
//! …
//! === elements ===
//! e2 "Skip to content"
//! e3 button "Place order"
//! e7 textbox "Email" = "ada@example.com"
//! e8 combobox "Country" = "France" options(3): "France", "Germany", "Spain"
//! e9 checkbox "Gift wrap" checked
//! e12 "Change" (in "Users")
//! ```
//!
//! JSON escaping of every newline and quote is what made the JSON result as big as a full
//! accessibility dump; here only names and values are quoted (JSON string syntax, so a name with
//! a quote or a newline stays on its line). The MCP server asks for `refs` (SPEC §5): a link of the
//! list is written in the markdown with its uid (`[Terms](e4 /legal/terms)`, the path only on the
//! page's own origin) and not repeated below, where a line without a role is a link. Flags appear
//! only when they hold: `checked`, `mixed`, `selected`, `expanded`/`collapsed`, `pressed`, `disabled`; a
//! select, list box or combobox ends its line with its first options (SPEC §5 `options`), and an element whose role and name repeat another's
//! says where it is (`context`). Which elements are in the viewport (SPEC §5
//! `visible`) is one header line of uid ranges, not a flag on each of the (mostly off-screen) lines. Without
//! `refs`, links to the page's own origin are written from their path (`/legal/terms`): the `url:`
//! line above says the origin. A page too long for one read (SPEC §5 "Pages") says which page this is
//! and the call that reads the next.

pub mod boundary;
pub mod changes;
mod find;

pub use find::{find_text, page_lines, refs_in, AgentLine};

use crate::result::{
    Checked, Confidence, DialogAnswered, ExtractElement, ExtractResult, ObstacleType,
};

/// Longest element name printed, in chars; a longer one ends with `…` (the markdown has the text).
pub const NAME_MAX_CHARS: usize = 100;
/// Longest element value printed, in chars; a longer one ends with `…`.
pub const VALUE_MAX_CHARS: usize = 60;

/// The agent text of an `extract` result (module doc for the layout). `text` (innerText), when
/// the result carries it, comes last under `=== text ===`.
pub fn extract_text(r: &ExtractResult) -> String {
    let mut out = String::new();
    out.push_str(&format!("url: {}\n", one_line(&r.url)));
    out.push_str(&format!("title: {}\n", one_line(&r.title)));
    if let Some(o) = &r.obstacle {
        let kind = match o.r#type {
            ObstacleType::AuthWall => "auth_wall",
            ObstacleType::Captcha => "captcha",
            ObstacleType::AccessDenied => "access_denied",
        };
        let confidence = match o.confidence {
            Confidence::Low => "low",
            Confidence::High => "high",
        };
        out.push_str(&format!(
            "obstacle: {kind}, {confidence}: {}\n",
            one_line(&o.message)
        ));
    }
    if let Some(d) = &r.dialog {
        out.push_str(&format!(
            "dialog: {}({}) is open and blocks the page until the user answers it\n",
            d.r#type,
            quoted(&d.message, NAME_MAX_CHARS)
        ));
    }
    for d in &r.dialogs {
        let answer = match d.answer {
            DialogAnswered::Accepted => "accepted",
            DialogAnswered::Dismissed => "dismissed",
        };
        out.push_str(&format!(
            "answered: {}({}) {answer}\n",
            d.r#type,
            quoted(&d.message, NAME_MAX_CHARS)
        ));
    }
    if let Some(elements) = &r.elements {
        let shown = elements.len();
        let total = usize::try_from(r.total_elements).unwrap_or(usize::MAX);
        if r.page.is_some_and(|p| p > 1) {
            out.push_str(&format!("elements: {shown} of {total}\n"));
        } else if r.truncated.elements || total > shown {
            out.push_str(&format!(
                "elements: {shown} of {total} (the list is cut; in-viewport ones are kept first)\n"
            ));
        } else {
            out.push_str(&format!("elements: {shown}\n"));
        }
        let visible = uid_ranges(elements.iter().filter(|e| e.visible == Some(true)));
        out.push_str(&format!(
            "in viewport: {}\n",
            if visible.is_empty() { "none" } else { &visible }
        ));
    }
    let cut: Vec<&str> = [
        (r.truncated.markdown && r.markdown.is_some(), "markdown"),
        (r.truncated.text && r.text.is_some(), "text"),
    ]
    .into_iter()
    .filter_map(|(cut, name)| cut.then_some(name))
    .collect();
    if !cut.is_empty() {
        out.push_str(&format!("truncated: {}\n", cut.join(", ")));
    }
    if let (Some(page), Some(pages)) = (r.page, r.pages) {
        out.push_str(&page_line(page, pages));
    }
    if let Some(markdown) = &r.markdown {
        out.push_str("=== markdown ===\n");
        push_block(&mut out, &same_origin_paths(markdown, &r.url));
    }
    if let Some(elements) = &r.elements {
        // A link the markdown names, or one to a URL already listed (`sameAs`), is not repeated, and
        // what no click can reach now (`hidden`) is not offered.
        let rest: Vec<&ExtractElement> = elements
            .iter()
            .filter(|e| !e.in_markdown && e.same_as.is_none() && !e.hidden)
            .collect();
        if !rest.is_empty() {
            out.push_str("=== elements ===\n");
            // With the markdown beside it, a long run of out-of-view links it leaves out (menus, tag
            // clouds, archives, footers) is one line; without it the agent asked for the list itself.
            let min_run = if r.markdown.is_some() {
                LINK_RUN_MIN
            } else {
                usize::MAX
            };
            for line in element_lines(&rest, min_run) {
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    if let Some(text) = &r.text {
        out.push_str("=== text ===\n");
        push_block(&mut out, text);
    }
    out.truncate(out.trim_end().len());
    out
}

/// The header line of a page read in pages (SPEC §5 "Pages"): which page, and the call that reads the next.
fn page_line(page: u32, pages: u32) -> String {
    if page < pages {
        let next = page + 1;
        format!("page: {page} of {pages}; more: extract {{\"page\":{next}}}\n")
    } else {
        format!("page: {page} of {pages} (the last)\n")
    }
}

/// Fewest out-of-view links in a row that the element list writes as one line ([`element_lines`]).
pub const LINK_RUN_MIN: usize = 10;
/// Names a run's line shows, and the longest of each in chars.
const LINK_RUN_NAMES: usize = 3;
const LINK_RUN_NAME_CHARS: usize = 24;

/// The element list's lines: one per element ([`element_line`]), except that `min_run` or more
/// consecutive plain links out of the viewport (no flag, no value) become one line with their uid range,
/// how many they are and the first few names as JSON strings (a name may hold a comma or a quote),
/// `e39-e127 (89 links out of view): "encryption", "faif", …`. The range may also span uids the markdown
/// names or that are left out (each uid in it works), never one the list shows on a line of its own.
/// Such runs are a page's menus, tag clouds and archives; they are a median of a tenth of a read's
/// bytes, uid by uid, and the agent acts on what it sees (SPEC §9: scrolling lists them, as does
/// `extract {include: ["elements"]}`, and `click {text}` reaches one by its name).
fn element_lines(elements: &[&ExtractElement], min_run: usize) -> Vec<String> {
    let number = |e: &ExtractElement| uid_number(&e.uid);
    let plain_offscreen = |e: &ExtractElement| {
        e.role == "link"
            && e.visible != Some(true)
            && !e.disabled
            && e.expanded.is_none()
            && e.checked.is_none()
            && e.value.as_deref().is_none_or(str::is_empty)
    };
    // Every uid number of the list, sorted: how many fall in a run's range is two binary searches.
    let mut numbers: Vec<u64> = elements.iter().filter_map(|e| number(e)).collect();
    numbers.sort_unstable();
    let mut lines = Vec::new();
    let mut rest = elements;
    while let Some(first) = rest.first() {
        let mut run = rest
            .iter()
            .enumerate()
            .take_while(|(i, e)| {
                plain_offscreen(e)
                    && (*i == 0 || number(e).is_some_and(|n| number(rest[i - 1]) < Some(n)))
            })
            .count();
        // Stable uids (SPEC §5) number nodes added later after the others: a run's range must not take in
        // an element the list shows on a line of its own.
        while run >= min_run && !range_is_its_own(&rest[..run], &numbers) {
            run -= 1;
        }
        if run >= min_run {
            let names: Vec<String> = rest[..run]
                .iter()
                .filter_map(|e| e.name.as_deref().map(one_line))
                .filter(|n| !n.is_empty())
                .take(LINK_RUN_NAMES)
                .map(|n| quoted(&n, LINK_RUN_NAME_CHARS))
                .collect();
            lines.push(format!(
                "{}-{} ({run} links out of view): {}, …",
                first.uid,
                rest[run - 1].uid,
                names.join(", ")
            ));
            rest = &rest[run..];
        } else {
            // One line, and a run looked for again from the next element (one may start there).
            lines.push(element_line(first));
            rest = &rest[1..];
        }
    }
    lines
}

/// The number of uid `e<N>`.
fn uid_number(uid: &str) -> Option<u64> {
    uid.strip_prefix('e').and_then(|n| n.parse().ok())
}

/// Whether no uid number of the list (`sorted`) outside `run` falls within `run`'s range.
fn range_is_its_own(run: &[&ExtractElement], sorted: &[u64]) -> bool {
    let (Some(lo), Some(hi)) = (
        run.first().and_then(|e| uid_number(&e.uid)),
        run.last().and_then(|e| uid_number(&e.uid)),
    ) else {
        return false;
    };
    let inside = sorted.partition_point(|&n| n <= hi) - sorted.partition_point(|&n| n < lo);
    inside == run.len()
}

/// One element: `e7 textbox "Email" = "ada@example.com"`, then its flags (`checked`, `mixed`, `selected`,
/// `expanded`/`collapsed`, `pressed`, `disabled`), then what a select, list box or combobox offers ([`options_part`]). Where other elements
/// have the same role and name, the element's `context` follows its name: `e31 link "Change" (in "Users")`.
/// A link, the most common role by far, is written without its role, and its name without quotes when
/// nothing follows it and it cannot be read as a role: `e2 Skip to content` (see [`bare_name`]).
pub fn element_line(e: &ExtractElement) -> String {
    let mut line = e.uid.clone();
    let link = e.role == "link";
    if !link {
        line.push(' ');
        line.push_str(&e.role);
    }
    let flagged = e.disabled
        || e.selected
        || e.pressed
        || e.expanded.is_some()
        || e.context.is_some()
        || !e.options.is_empty()
        || matches!(e.checked, Some(Checked::True | Checked::Mixed));
    let has_value = e.value.as_deref().is_some_and(|v| !v.is_empty());
    if let Some(name) = e.name.as_deref().filter(|n| !n.is_empty()) {
        line.push(' ');
        match bare_name(name).filter(|_| link && !flagged && !has_value) {
            Some(bare) => line.push_str(&bare),
            None => line.push_str(&quoted(name, NAME_MAX_CHARS)),
        }
    }
    if let Some(context) = e.context.as_deref().filter(|c| !c.is_empty()) {
        line.push_str(&format!(" (in {})", quoted(context, CONTEXT_MAX_CHARS)));
    }
    if let Some(value) = e.value.as_deref().filter(|v| !v.is_empty()) {
        line.push_str(" = ");
        line.push_str(&quoted(value, VALUE_MAX_CHARS));
    }
    match e.checked {
        Some(Checked::True) => line.push_str(" checked"),
        Some(Checked::Mixed) => line.push_str(" mixed"),
        _ => {}
    }
    if e.selected {
        line.push_str(" selected");
    }
    match e.expanded {
        Some(true) => line.push_str(" expanded"),
        Some(false) => line.push_str(" collapsed"),
        None => {}
    }
    if e.pressed {
        line.push_str(" pressed");
    }
    if e.disabled {
        line.push_str(" disabled");
    }
    line.push_str(&options_part(e));
    line
}

/// Longest `context` printed, in chars.
pub const CONTEXT_MAX_CHARS: usize = 32;
/// Longest option name printed, in chars; a longer one ends with `…`.
pub const OPTION_MAX_CHARS: usize = 40;

/// Option names printed when an element has more options than the result carries: the list is a
/// sample then, and the agent can read every one (`get_value`) or choose by name.
pub const OPTIONS_SHOWN_WHEN_CUT: usize = 10;

/// What a select, list box or combobox offers, as its line ends: ` options(3): "editors", "publishers",
/// "reviewers"` when the result carries every option, else the first [`OPTIONS_SHOWN_WHEN_CUT`] and the
/// count, ` options(10 of 250; get_value lists all): "Afghanistan", …, "Austria", …` (`get_value` on the
/// element gives every option of a `<select>`). Empty without options.
fn options_part(e: &ExtractElement) -> String {
    if e.options.is_empty() {
        return String::new();
    }
    let total = e
        .option_count
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(e.options.len())
        .max(e.options.len());
    let shown = if total > e.options.len() {
        OPTIONS_SHOWN_WHEN_CUT.min(e.options.len())
    } else {
        total
    };
    let names: Vec<String> = e.options[..shown]
        .iter()
        .map(|o| quoted(&one_line(o), OPTION_MAX_CHARS))
        .collect();
    if total > shown {
        format!(
            " options({shown} of {total}; get_value lists all): {}, …",
            names.join(", ")
        )
    } else {
        format!(" options({total}): {}", names.join(", "))
    }
}

/// `name` as it may stand unquoted at the end of a link's line, cut like [`quoted`]'s: only a name that
/// cannot be read as something else — it does not start with a role's word (`e5 button styles` would
/// read as a button) or a uid, does not end with a flag's word (`Terms disabled`), and has no quote, `=`,
/// line break, control character or edge space.
fn bare_name(name: &str) -> Option<String> {
    let first_word = name.split(' ').next()?;
    let last_word = name.rsplit(' ').next()?;
    let role_word = first_word == "generic"
        || crate::result::INTERACTIVE_ROLES
            .iter()
            .any(|r| r.eq_ignore_ascii_case(first_word));
    let uid_like = first_word
        .strip_prefix('e')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let flag_like = matches!(
        last_word,
        "checked" | "mixed" | "selected" | "expanded" | "collapsed" | "pressed" | "disabled"
    );
    let plain = !role_word
        && !uid_like
        && !flag_like
        && !name.is_empty()
        && name.trim() == name
        && !name.contains(['"', '='])
        && !name.chars().any(char::is_control);
    plain.then(|| cut(name, NAME_MAX_CHARS))
}

/// The uids of `elements` as ranges of consecutive numbers: `e0-e14, e40, e52-e53`. A uid that is
/// not `e<number>` stands alone.
fn uid_ranges<'a>(elements: impl Iterator<Item = &'a ExtractElement>) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(u64, u64)> = None;
    let close = |parts: &mut Vec<String>, (a, b): (u64, u64)| {
        parts.push(if a == b {
            format!("e{a}")
        } else {
            format!("e{a}-e{b}")
        })
    };
    for e in elements {
        match uid_number(&e.uid) {
            Some(n) => match run {
                Some((a, b)) if n == b + 1 => run = Some((a, n)),
                _ => {
                    if let Some(r) = run.take() {
                        close(&mut parts, r);
                    }
                    run = Some((n, n));
                }
            },
            None => {
                if let Some(r) = run.take() {
                    close(&mut parts, r);
                }
                parts.push(e.uid.clone());
            }
        }
    }
    if let Some(r) = run {
        close(&mut parts, r);
    }
    parts.join(", ")
}

/// `markdown` with its links and images to `page_url`'s own origin written from their path:
/// `](https://shop.test/a)` → `](/a)`. Other origins, and a page URL without one, stay as they are.
pub(crate) fn same_origin_paths(markdown: &str, page_url: &str) -> String {
    let Some(scheme_end) = page_url.find("://") else {
        return markdown.to_string();
    };
    let host_start = scheme_end + 3;
    let origin_end = page_url[host_start..]
        .find(['/', '?', '#'])
        .map_or(page_url.len(), |i| host_start + i);
    if origin_end == host_start {
        return markdown.to_string();
    }
    let origin = &page_url[..origin_end];
    markdown.replace(&format!("]({origin}/"), "](/")
}

/// `s` cut to `max` chars (with `…`) as a JSON string literal.
fn quoted(s: &str, max: usize) -> String {
    serde_json::to_string(&cut(s, max)).unwrap_or_default()
}

/// `s` cut to `max` chars, with `…` when something was cut.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() > max {
        s.chars().take(max).chain(std::iter::once('…')).collect()
    } else {
        s.to_string()
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn push_block(out: &mut String, block: &str) {
    let block = block.trim_end();
    if !block.is_empty() {
        out.push_str(block);
        out.push('\n');
    }
}

/// The agent text of a `console` result: a header with the count, what was dropped and the cursor for
/// `since`, then one line per entry, `error app.js:12 Uncaught TypeError: …` (the text on one line).
///
/// ```text
/// console: 2 entries (9500 older dropped); next since: 10002
/// error http://shop.test/app.js:12 Uncaught TypeError: x is undefined
/// log http://shop.test/app.js:3 "ready"
/// ```
pub fn console_text(r: &crate::result::ConsoleResult) -> String {
    let mut out = header("console", r.entries.len(), r.dropped, r.next);
    for e in &r.entries {
        out.push_str(e.level.as_str());
        if let Some(source) = &e.source {
            out.push(' ');
            out.push_str(source);
        }
        out.push(' ');
        out.push_str(&one_line(&e.text));
        out.push('\n');
    }
    out
}

/// The agent text of a `network` result: a header as [`console_text`]'s, then one line per request,
/// `GET 404 Fetch 120 B 35 ms http://…`, a failure in place of the status (`failed net::ERR_…`), a request
/// still running as `pending`.
pub fn network_text(r: &crate::result::NetworkResult) -> String {
    let mut out = header("network", r.requests.len(), r.dropped, r.next);
    for q in &r.requests {
        let mut line = q.method.clone();
        match (&q.failure, q.status) {
            (Some(f), _) => line.push_str(&format!(" failed {f}")),
            (None, Some(s)) => line.push_str(&format!(" {s}")),
            (None, None) => line.push_str(" pending"),
        }
        if let Some(kind) = &q.kind {
            line.push_str(&format!(" {kind}"));
        }
        if let Some(size) = q.size {
            line.push_str(&format!(" {size} B"));
        }
        if let Some(ms) = q.duration_ms {
            line.push_str(&format!(" {ms:.0} ms"));
        }
        line.push(' ');
        line.push_str(&one_line(&q.url));
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn header(what: &str, shown: usize, dropped: u64, next: u64) -> String {
    let dropped = if dropped > 0 {
        format!(" ({dropped} older dropped)")
    } else {
        String::new()
    };
    format!("{what}: {shown} entries{dropped}; next since: {next}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn console_and_network_read_one_line_per_entry() {
        use crate::action::ConsoleLevel;
        use crate::result::{ConsoleEntry, ConsoleResult, NetworkEntry, NetworkResult};
        let c = ConsoleResult {
            entries: vec![ConsoleEntry {
                n: 7,
                level: ConsoleLevel::Error,
                text: "Uncaught Error: boom\nat f".into(),
                source: Some("http://x/app.js:12".into()),
                at: 0.0,
            }],
            dropped: 3,
            next: 9,
            tab_id: 1,
        };
        assert_eq!(
            console_text(&c),
            "console: 1 entries (3 older dropped); next since: 9\nerror http://x/app.js:12 Uncaught Error: boom at f\n"
        );
        let entry = |status, failure: Option<&str>| NetworkEntry {
            n: 1,
            method: "GET".into(),
            url: "http://x/a".into(),
            status,
            kind: Some("Fetch".into()),
            size: status.map(|_| 120),
            duration_ms: Some(35.0),
            failure: failure.map(str::to_owned),
        };
        let n = NetworkResult {
            requests: vec![
                entry(Some(404), None),
                entry(None, Some("net::ERR_CONNECTION_REFUSED")),
            ],
            dropped: 0,
            next: 2,
            tab_id: 1,
        };
        assert_eq!(
            network_text(&n),
            "network: 2 entries; next since: 2\nGET 404 Fetch 120 B 35 ms http://x/a\nGET failed net::ERR_CONNECTION_REFUSED Fetch 35 ms http://x/a\n"
        );
    }
    use crate::result::{Obstacle, Truncated};

    /// Asserts that `got` contains every one of `parts`.
    #[track_caller]
    fn assert_has(got: &str, parts: &[&str]) {
        for part in parts {
            assert!(got.contains(part), "{part:?} is missing from:\n{got}");
        }
    }

    fn el(uid: &str, role: &str, name: Option<&str>) -> ExtractElement {
        ExtractElement {
            uid: uid.into(),
            role: role.into(),
            name: name.map(Into::into),
            visible: Some(true),
            ..Default::default()
        }
    }

    #[test]
    fn an_element_says_whether_it_is_expanded_or_pressed() {
        let menu = ExtractElement {
            expanded: Some(false),
            ..el("e3", "button", Some("Account"))
        };
        assert_eq!(element_line(&menu), "e3 button \"Account\" collapsed");
        let open = ExtractElement {
            expanded: Some(true),
            ..el("e4", "link", Some("More"))
        };
        assert_eq!(element_line(&open), "e4 \"More\" expanded");
        let bold = ExtractElement {
            pressed: true,
            ..el("e5", "button", Some("Bold"))
        };
        assert_eq!(element_line(&bold), "e5 button \"Bold\" pressed");
        // A link named like a flag keeps its quotes.
        assert_eq!(
            element_line(&el("e6", "link", Some("Show collapsed"))),
            "e6 \"Show collapsed\""
        );
    }

    #[test]
    fn a_link_line_has_its_name_bare_when_it_cannot_be_misread_and_a_repeated_link_is_left_out() {
        let mut r = result();
        // Links e5 to e16, named:
        let names = [
            "Log In",
            "Button styles",
            "\"Quoted\" story",
            " Padded",
            "Log In",
            "Archive",
            "accounting",
            "Hidden",
            "Terms disabled",
            "e3 Home",
            "Name = x",
            "Say \"hi\"",
        ];
        let mut more: Vec<ExtractElement> = (5..)
            .zip(names)
            .map(|(n, name)| el(&format!("e{n}"), "link", Some(name)))
            .collect();
        more[4].same_as = Some("e5".into());
        more[5].disabled = true;
        more[7].hidden = true;
        r.elements.as_mut().unwrap().extend(more);
        let got = extract_text(&r);
        let list = got.split("=== elements ===\n").nth(1).unwrap();
        assert!(list.ends_with(
            "e4\ne5 Log In\ne6 \"Button styles\"\ne7 \"\\\"Quoted\\\" story\"\ne8 \" Padded\"\ne10 \"Archive\" disabled\ne11 accounting\ne13 \"Terms disabled\"\ne14 \"e3 Home\"\ne15 \"Name = x\"\ne16 \"Say \\\"hi\\\"\""
        ), "{list}");
        assert!(!list.contains("e9"), "{list}");
        assert!(
            !list.contains("e12"),
            "a hidden element is not offered: {list}"
        );
        assert_eq!(
            bare_name(&"Ä".repeat(150)).unwrap().chars().count(),
            NAME_MAX_CHARS + 1
        );
        assert_eq!(bare_name("Two\nlines"), None);
    }

    #[test]
    fn ten_out_of_view_links_in_a_row_are_one_line_and_nine_or_an_elements_only_read_are_not() {
        let link = |n: usize, visible: bool| {
            let mut e = el(
                &format!("e{n}"),
                "link",
                Some(&format!("Tag {n} with a long name")),
            );
            e.visible = visible.then_some(true);
            e
        };
        let mut r = result();
        let elements = r.elements.as_mut().unwrap();
        elements.push(link(5, true)); // in view: listed
        elements.extend((6..16).map(|n| link(n, false))); // ten out of view: one line
        elements.push(el("e16", "button", Some("More"))); // not a link: ends the run
        elements.extend((17..26).map(|n| link(n, false))); // nine: listed one by one
        let mut flagged = link(26, false);
        flagged.disabled = true;
        elements.push(flagged);
        let got = extract_text(&r);
        let list = got.split("=== elements ===\n").nth(1).unwrap();
        assert!(
            list.contains(
                "\ne5 Tag 5 with a long name\ne6-e15 (10 links out of view): \"Tag 6 with a long name\", \
                 \"Tag 7 with a long name\", \"Tag 8 with a long name\", …\ne16 button \"More\"\n\
                 e17 Tag 17 with a long name\n"
            ),
            "{list}"
        );
        assert!(
            list.contains(
                "\ne25 Tag 25 with a long name\ne26 \"Tag 26 with a long name\" disabled"
            ),
            "{list}"
        );
        assert!(!list.contains("e7 Tag"), "{list}");
        // Names are cut for the summary only, and quoted: a comma, a quote or a control character stays
        // inside its name.
        elements_named(&mut r, 6, &"x".repeat(40));
        elements_named(&mut r, 7, "a, b \"c\"\u{7}");
        let got = extract_text(&r);
        assert!(
            got.contains(&format!(
                "(10 links out of view): \"{}…\", \"a, b \\\"c\\\"\\u0007\", \"Tag 8",
                "x".repeat(24)
            )),
            "{got}"
        );
        // Asked for the elements alone, the agent gets every one.
        r.markdown = None;
        let got = extract_text(&r);
        assert!(!got.contains("out of view"), "{got}");
        assert!(got.contains("\ne8 Tag 8 with a long name\n"), "{got}");
    }

    #[test]
    fn a_run_of_links_never_takes_in_the_uid_of_an_element_listed_elsewhere() {
        let link = |n: usize| {
            let mut e = el(&format!("e{n}"), "link", Some(&format!("Tag {n}")));
            e.visible = None;
            e
        };
        let mut r = result();
        let elements = r.elements.as_mut().unwrap();
        // A button added later (stable uids: the next number, e100) sits before links e90-e111 whose
        // numbers take in e100's: the run stops before the range would cover it.
        elements.push(el("e100", "button", Some("Added")));
        elements.extend((90..100).map(link));
        elements.extend((101..112).map(link));
        let got = extract_text(&r);
        assert!(got.contains("\ne100 button \"Added\"\n"), "{got}");
        assert!(!got.contains("e90-e111"), "{got}");
        assert!(got.contains("e101-e111 (11 links out of view)"), "{got}");
        // Numbers that fall back (a node added before others) end a run too.
        let mut r = result();
        let elements = r.elements.as_mut().unwrap();
        elements.extend((200..210).map(link));
        elements.push(link(150));
        elements.extend((210..220).map(link));
        let got = extract_text(&r);
        assert!(got.contains("e200-e209 (10 links out of view)"), "{got}");
        assert!(got.contains("\ne150 Tag 150\n"), "{got}");
        assert!(got.contains("e210-e219 (10 links out of view)"), "{got}");
    }

    fn elements_named(r: &mut ExtractResult, n: usize, name: &str) {
        let uid = format!("e{n}");
        let e = r
            .elements
            .as_mut()
            .unwrap()
            .iter_mut()
            .find(|e| e.uid == uid)
            .unwrap();
        e.name = Some(name.into());
    }

    fn result() -> ExtractResult {
        let mut email = el("e1", "textbox", Some("Email"));
        email.value = Some("ada@example.com".into());
        let mut gift = el("e2", "checkbox", Some("Gift \"wrap\""));
        gift.checked = Some(Checked::True);
        gift.visible = None;
        let mut news = el("e3", "checkbox", Some("Newsletter"));
        news.checked = Some(Checked::False);
        news.disabled = true;
        ExtractResult {
            url: "https://shop.test/checkout".into(),
            title: "Checkout\n  step 2".into(),
            text: None,
            markdown: Some(
                "# Checkout\n\nYour cart: 2 items, [terms](https://shop.test/terms) and \
                 [help](https://help.test/).\n"
                    .into(),
            ),
            elements: Some(vec![
                el("e0", "button", Some("Place order")),
                email,
                gift,
                news,
                el("e4", "link", None),
            ]),
            obstacle: None,
            truncated: Truncated::default(),
            total_elements: 5,
            page: None,
            pages: None,
            dialog: None,
            dialogs: Vec::new(),
        }
    }

    #[test]
    fn a_result_is_a_header_the_markdown_and_one_line_per_element() {
        assert_eq!(
            extract_text(&result()),
            "url: https://shop.test/checkout\n\
             title: Checkout step 2\n\
             elements: 5\n\
             in viewport: e0-e1, e3-e4\n\
             === markdown ===\n\
             # Checkout\n\nYour cart: 2 items, [terms](/terms) and [help](https://help.test/).\n\
             === elements ===\n\
             e0 button \"Place order\"\n\
             e1 textbox \"Email\" = \"ada@example.com\"\n\
             e2 checkbox \"Gift \\\"wrap\\\"\" checked\n\
             e3 checkbox \"Newsletter\" disabled\n\
             e4"
        );
    }

    #[test]
    fn elements_the_markdown_names_by_uid_are_not_listed_again() {
        let mut r = result();
        r.markdown = Some("Read the [terms](e4 /terms).".into());
        let elements = r.elements.as_mut().unwrap();
        elements[4].name = Some("terms".into());
        elements[4].in_markdown = true;
        let got = extract_text(&r);
        assert_has(
            &got,
            &[
                "=== markdown ===\nRead the [terms](e4 /terms).\n",
                "elements: 5\n",
            ],
        );
        assert!(
            got.ends_with("e3 checkbox \"Newsletter\" disabled"),
            "{got}"
        );
        for e in r.elements.as_mut().unwrap() {
            e.in_markdown = true;
        }
        assert!(!extract_text(&r).contains("=== elements ==="));
    }

    #[test]
    fn dialogs_answered_and_a_dialog_left_open_are_header_lines() {
        let mut r = result();
        r.dialogs = vec![crate::result::DialogReport {
            r#type: "confirm".into(),
            message: "Delete?".into(),
            answer: DialogAnswered::Dismissed,
            prompt_text: None,
        }];
        assert!(
            extract_text(&r)
                .contains("title: Checkout step 2\nanswered: confirm(\"Delete?\") dismissed\n"),
            "{}",
            extract_text(&r)
        );
        r.dialogs.clear();
        r.dialog = Some(crate::result::OpenDialog {
            r#type: "alert".into(),
            message: "Saved!".into(),
        });
        assert!(extract_text(&r).contains(
            "dialog: alert(\"Saved!\") is open and blocks the page until the user answers it\n"
        ));
    }

    #[test]
    fn obstacle_cuts_and_text_are_shown_only_when_there() {
        let mut r = result();
        r.obstacle = Some(Obstacle {
            r#type: ObstacleType::AuthWall,
            confidence: Confidence::High,
            message: "Sign-in page: ask the user.".into(),
        });
        r.truncated = Truncated {
            text: true,
            markdown: true,
            elements: true,
        };
        r.total_elements = 312;
        r.elements = Some(vec![el("e0", "button", Some("Go"))]);
        r.text = Some("Checkout\nYour cart".into());
        let got = extract_text(&r);
        assert_has(
            &got,
            &[
                "obstacle: auth_wall, high: Sign-in page: ask the user.\n",
                "elements: 1 of 312 (the list is cut",
                "truncated: markdown, text\n",
            ],
        );
        assert!(got.ends_with("=== text ===\nCheckout\nYour cart"), "{got}");

        r.markdown = None;
        r.elements = None;
        r.text = None;
        assert_eq!(
            extract_text(&r),
            "url: https://shop.test/checkout\ntitle: Checkout step 2\n\
             obstacle: auth_wall, high: Sign-in page: ask the user."
        );
    }

    #[test]
    fn a_read_in_pages_names_the_call_for_the_next_and_says_the_last() {
        let mut r = result();
        r.truncated.elements = true;
        r.total_elements = 5000;
        r.page = Some(1);
        r.pages = Some(26);
        assert_has(
            &extract_text(&r),
            &[
                "(the list is cut; in-viewport ones are kept first)\n",
                "\npage: 1 of 26; more: extract {\"page\":2}\n=== markdown ===\n",
            ],
        );
        r.page = Some(26);
        assert_has(
            &extract_text(&r),
            &["elements: 5 of 5000\n", "\npage: 26 of 26 (the last)\n"],
        );
        r.page = None;
        r.pages = None;
        assert!(!extract_text(&r).contains("page:"));
    }

    #[test]
    fn long_names_and_values_are_cut_with_an_ellipsis_and_stay_on_one_line() {
        let mut e = el("e9", "link", None);
        let long = "word ".repeat(40);
        e.name = Some(format!("line one\nline two {long}"));
        e.value = Some("x".repeat(VALUE_MAX_CHARS + 5));
        let line = element_line(&e);
        assert!(!line.contains('\n'), "{line}");
        assert!(line.starts_with("e9 \"line one\\nline two word"), "{line}");
        assert!(
            line.ends_with(&format!("\" = \"{}…\"", "x".repeat(VALUE_MAX_CHARS))),
            "{line}"
        );
        let name_part = line.split(" = ").next().unwrap_or_default();
        assert!(name_part.contains("…\""), "{line}");
    }

    #[test]
    fn options_context_and_selected_read_on_the_elements_line() {
        let mut country = el("e5", "combobox", Some("Country"));
        country.value = Some("France".into());
        country.options = vec!["Afghanistan".into(), "Albania".into()];
        country.option_count = Some(250);
        assert_eq!(
            element_line(&country),
            "e5 combobox \"Country\" = \"France\" options(2 of 250; get_value lists all): \"Afghanistan\", \"Albania\", …"
        );
        // Of a list that is cut anyway, the first ten; a whole list of twenty is shown whole.
        country.options = (0..20).map(|n| format!("C{n}")).collect();
        let line = element_line(&country);
        assert!(
            line.contains("options(10 of 250; get_value lists all): \"C0\", "),
            "{line}"
        );
        assert!(line.ends_with("\"C9\", …"), "{line}");
        country.option_count = Some(20);
        assert!(element_line(&country).ends_with("options(20): \"C0\", \"C1\", \"C2\", \"C3\", \"C4\", \"C5\", \"C6\", \"C7\", \"C8\", \"C9\", \"C10\", \"C11\", \"C12\", \"C13\", \"C14\", \"C15\", \"C16\", \"C17\", \"C18\", \"C19\""));
        country.options.truncate(2);
        country.option_count = Some(250);
        let mut groups = el("e19", "listbox", Some("Available groups"));
        groups.options = vec!["editors".into(), "x".repeat(50)];
        groups.option_count = Some(2);
        groups.disabled = true;
        assert_eq!(
            element_line(&groups),
            format!(
                "e19 listbox \"Available groups\" disabled options(2): \"editors\", \"{}…\"",
                "x".repeat(OPTION_MAX_CHARS)
            )
        );
        let mut change = el("e31", "link", Some("Change"));
        change.context = Some("Users".into());
        assert_eq!(element_line(&change), "e31 \"Change\" (in \"Users\")");
        let mut date = el("e40", "textbox", Some("Date"));
        date.context = Some("Date joined".into());
        date.value = Some("2026-12-03".into());
        assert_eq!(
            element_line(&date),
            "e40 textbox \"Date\" (in \"Date joined\") = \"2026-12-03\""
        );
        let mut banana = el("e12", "option", Some("Banana"));
        banana.selected = true;
        assert_eq!(element_line(&banana), "e12 option \"Banana\" selected");
        // On the wire all of it is omitted when there is nothing to say.
        let v = serde_json::to_value(el("e1", "button", Some("Go"))).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"uid": "e1", "role": "button", "name": "Go", "visible": true})
        );
        let v = serde_json::to_value(&country).unwrap();
        assert_eq!(v["options"], serde_json::json!(["C0", "C1"]));
        assert_eq!(v["optionCount"], 250);
    }

    #[test]
    fn viewport_ranges_join_consecutive_uids() {
        let els: Vec<ExtractElement> = ["e0", "e1", "e2", "e5", "e7", "e8", "x1", "e9"]
            .iter()
            .map(|u| el(u, "link", None))
            .collect();
        assert_eq!(uid_ranges(els.iter()), "e0-e2, e5, e7-e8, x1, e9");
        assert_eq!(uid_ranges(els.iter().take(0)), "");
        let mut r = result();
        for e in r.elements.iter_mut().flatten() {
            e.visible = None;
        }
        assert!(extract_text(&r).contains("\nin viewport: none\n"));
    }

    #[test]
    fn only_links_to_the_page_origin_lose_it() {
        let md =
            "[a](https://shop.test/x) [b](https://shop.test.evil/y) ![c](https://shop.test/i.png) \
                  [d](http://shop.test/z)";
        assert_eq!(
            same_origin_paths(md, "https://shop.test/checkout?step=2"),
            "[a](/x) [b](https://shop.test.evil/y) ![c](/i.png) [d](http://shop.test/z)"
        );
        assert_eq!(
            same_origin_paths(md, "https://shop.test"),
            same_origin_paths(md, "https://shop.test/")
        );
        assert_eq!(same_origin_paths(md, "about:blank"), md);
        assert_eq!(same_origin_paths(md, "file:///tmp/a.html"), md);
    }
}
