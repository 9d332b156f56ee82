//! `find` (SPEC §4): the lines of the page's agent text — all of the page, not one read's share of it — that
//! contain a text or match a regex (any case), each with the uids it names, so an agent can act on what it
//! found without reading the page page by page. The lines are the protocol's ([`page_lines`]): the markdown
//! with link uids, then one line per element.

use super::ctx::Ctx;
use super::handler::{Handler, Traits};
use crate::error::{Error, Result};
use bua_protocol::text::{page_lines, refs_in, AgentLine};
use bua_protocol::{Find, FindPattern, FindResult, FoundLine};

/// Lines shown when `limit` is not given.
pub const DEFAULT_FIND_LINES: usize = 20;
/// Most lines one `find` shows, whatever `limit` says (SPEC §4): what it finds must not flood the context.
pub const MAX_FIND_LINES: usize = 200;
/// Longest line shown, in chars: a longer one (a long paragraph) is cut around its first match.
pub const LINE_MAX_CHARS: usize = 240;
/// Chars kept before the first match when a line is cut.
const BEFORE_MATCH_CHARS: usize = 80;

/// `find {text | regex, limit?}`: reads the whole page as the agent text shows it (every element gets its
/// uid, as `extract` gives them) and returns the matching lines.
///
/// Errors: `invalid_action` for a regex that does not compile (its error); whatever `extract` gives.
impl Handler for Find {
    type Output = FindResult;
    const TRAITS: Traits = Traits::PAGE;

    async fn run(&self, ctx: &Ctx) -> Result<FindResult> {
        let matcher = Matcher::new(&self.pattern)?;
        let page = crate::extract::read_whole(ctx.tab_id).await?;
        let limit = self
            .limit
            .map_or(DEFAULT_FIND_LINES, |n| n as usize)
            .min(MAX_FIND_LINES);
        let (count, lines) = search(&page_lines(&page), &matcher, limit);
        Ok(FindResult {
            count: u32::try_from(count).unwrap_or(u32::MAX),
            lines,
            tab_id: ctx.tab_id,
        })
    }
}

/// How `find` matches a line, in any case.
pub enum Matcher {
    /// A substring, lowercased.
    Text(Vec<char>),
    /// A regex, compiled case-insensitive (ASCII letters: `regex_lite` has no Unicode tables).
    Regex(regex_lite::Regex),
}

/// The largest compiled regex `find` builds, bytes: an agent's pattern is short; this stops a runaway one.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

impl Matcher {
    /// The matcher of `pattern`.
    ///
    /// Errors: `invalid_action` for an empty text, or a regex that does not compile (with why).
    pub fn new(pattern: &FindPattern) -> Result<Matcher> {
        match pattern {
            FindPattern::Text(text) => Ok(Matcher::Text(text.chars().flat_map(char::to_lowercase).collect())),
            FindPattern::Regex(re) => regex_lite::RegexBuilder::new(re)
                .case_insensitive(true)
                .size_limit(REGEX_SIZE_LIMIT)
                .build()
                .map(Matcher::Regex)
                .map_err(|e| {
                    Error::InvalidAction(format!(
                        "regex: {re:?} does not compile ({e}); give a valid regex (Rust syntax, no look-around), or \
                         find it as text"
                    ))
                }),
        }
    }

    /// The byte range of the first match in `line`.
    pub fn first(&self, line: &str) -> Option<(usize, usize)> {
        match self {
            Matcher::Regex(re) => re.find(line).map(|m| (m.start(), m.end())),
            Matcher::Text(needle) => find_any_case(line, needle),
        }
    }
}

/// The first occurrence of `needle` (lowercased chars) in `hay`, in any case, as a byte range of `hay`.
fn find_any_case(hay: &str, needle: &[char]) -> Option<(usize, usize)> {
    if needle.is_empty() {
        return Some((0, 0));
    }
    for (start, _) in hay.char_indices() {
        let mut want = needle.iter();
        let mut next = want.next();
        for (i, c) in hay[start..].char_indices() {
            for lower in c.to_lowercase() {
                match next {
                    Some(w) if *w == lower => next = want.next(),
                    _ => {
                        next = Some(&'\0');
                        break;
                    }
                }
            }
            match next {
                None => return Some((start, start + i + c.len_utf8())),
                Some('\0') => break,
                Some(_) => {}
            }
        }
    }
    None
}

/// The lines that match, at most `limit` of them (long ones cut around their match, [`excerpt`]), and how
/// many matched in all.
pub fn search(lines: &[AgentLine], matcher: &Matcher, limit: usize) -> (usize, Vec<FoundLine>) {
    let mut count = 0;
    let mut found = Vec::new();
    for line in lines {
        let Some(range) = matcher.first(&line.text) else {
            continue;
        };
        count += 1;
        if found.len() < limit {
            let shown = excerpt(&line.text, range);
            let uids = match shown == line.text {
                true => line.uids.clone(),
                false => refs_in(&shown),
            };
            found.push(FoundLine { line: shown, uids });
        }
    }
    (count, found)
}

/// `line` when it is at most [`LINE_MAX_CHARS`] chars; else the part around the match `range`, from
/// [`BEFORE_MATCH_CHARS`] before it, never cutting a markdown link `[…](…)` in two, with `…` where it was cut.
pub fn excerpt(line: &str, range: (usize, usize)) -> String {
    if line.chars().count() <= LINE_MAX_CHARS {
        return line.to_owned();
    }
    let back = |at: usize, chars: usize| {
        line[..at]
            .char_indices()
            .rev()
            .nth(chars.saturating_sub(1))
            .map_or(0, |(i, _)| i)
    };
    let mut start = back(range.0, BEFORE_MATCH_CHARS);
    let mut end = line[start..]
        .char_indices()
        .nth(LINE_MAX_CHARS)
        .map_or(line.len(), |(i, _)| start + i)
        .max(range.1);
    // Whole words: a cut inside one moves to its edge, never past the match.
    if start > 0 && !line[..start].ends_with(char::is_whitespace) {
        if let Some(space) = line[start..range.0].find(char::is_whitespace) {
            start += space + 1;
        }
    }
    if end < line.len() && !line[end..].starts_with(char::is_whitespace) {
        if let Some(space) = line[range.1..end].rfind(char::is_whitespace) {
            end = range.1 + space;
        }
    }
    // Widened to whole links: a link is `[` … `](` … `)`.
    if let Some(open) = link_around(line, start) {
        start = open;
    }
    if let Some(close) = link_end_around(line, end) {
        end = close;
    }
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.push_str(&line[start..end]);
    if end < line.len() {
        out.push('…');
    }
    out
}

/// The start of the link whose text or target `at` falls inside, if any.
fn link_around(line: &str, at: usize) -> Option<usize> {
    let open = line[..at].rfind('[')?;
    let closed = line[open..at].contains(')');
    (!closed).then_some(open)
}

/// The end (after its `)`) of the link `at` falls inside, if any.
fn link_end_around(line: &str, at: usize) -> Option<usize> {
    let open = line[..at].rfind('[')?;
    if line[open..at].contains(')') {
        return None;
    }
    let target = line[open..].find("](")? + open;
    line[target..]
        .find(')')
        .map(|i| target + i + 1)
        .filter(|&e| e > at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Matcher {
        Matcher::new(&FindPattern::Text(s.into())).unwrap()
    }

    fn line(text: &str, uids: &[&str]) -> AgentLine {
        AgentLine {
            text: text.into(),
            uids: uids.iter().map(|u| u.to_string()).collect(),
        }
    }

    #[test]
    fn text_matches_a_substring_in_any_case() {
        assert_eq!(text("pro").first("e3 button \"Pro plan\""), Some((11, 14)));
        assert_eq!(text("STRASSE").first("Hauptstrasse 1"), Some((5, 12)));
        assert_eq!(text("ÉTÉ").first("un été"), Some((3, 8)));
        assert_eq!(text("x").first("abc"), None);
    }

    #[test]
    fn a_regex_matches_in_any_case_and_a_bad_one_says_why() {
        let m = Matcher::new(&FindPattern::Regex(r"order #\d+|invoice".into())).unwrap();
        assert_eq!(m.first("Your ORDER #123 is ready"), Some((5, 15)));
        assert_eq!(m.first("See the Invoice"), Some((8, 15)));
        let Err(e) = Matcher::new(&FindPattern::Regex("(unclosed".into())) else {
            panic!("a bad regex compiled");
        };
        assert!(
            e.to_string()
                .starts_with("regex: \"(unclosed\" does not compile"),
            "{e}"
        );
    }

    #[test]
    fn search_counts_every_match_and_shows_up_to_the_limit_with_their_uids() {
        let lines = [
            line("# Plans", &[]),
            line(
                "Compare [Pro](e4 /pro) and [Team](e5 /team).",
                &["e4", "e5"],
            ),
            line("e9 button \"Buy Pro\"", &["e9"]),
            line("e10 button \"Pro support\"", &["e10"]),
        ];
        let (count, found) = search(&lines, &text("pro"), 2);
        assert_eq!(count, 3);
        assert_eq!(
            found,
            vec![
                FoundLine {
                    line: lines[1].text.clone(),
                    uids: vec!["e4".into(), "e5".into()]
                },
                FoundLine {
                    line: "e9 button \"Buy Pro\"".into(),
                    uids: vec!["e9".into()]
                },
            ]
        );
    }

    #[test]
    fn a_long_line_is_cut_between_words() {
        let long: String = (0..400).map(|i| format!("w{i} ")).collect();
        let m = text("w200 ");
        let shown = excerpt(&long, m.first(&long).unwrap());
        let inner = shown.trim_matches('…');
        let words: Vec<&str> = inner.split_whitespace().collect();
        let whole = |w: &&str| (0..400).any(|i| **w == format!("w{i}"));
        assert!(words.iter().all(whole), "{shown}");
        assert!(inner.contains("w200"), "{shown}");
    }

    #[test]
    fn a_long_line_is_cut_around_its_match_without_cutting_a_link() {
        let long = format!(
            "{} see [the needle page](e77 /needle) {}",
            "word ".repeat(100),
            "tail ".repeat(100)
        );
        let m = text("needle");
        let range = m.first(&long).unwrap();
        let shown = excerpt(&long, range);
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert!(shown.contains("[the needle page](e77 /needle)"), "{shown}");
        assert!(shown.chars().count() <= LINE_MAX_CHARS + 2 + 40, "{shown}");
        let (_, found) = search(&[line(&long, &[])], &m, 1);
        assert_eq!(found[0].uids, ["e77"]);
        // A cut that would fall inside a link takes the whole link.
        let linky = format!(
            "{}[a long link text around the cut](e5 /x) and the match",
            "z".repeat(120)
        );
        let shown = excerpt(
            &format!("{linky}{}", " pad".repeat(80)),
            (linky.len() - 5, linky.len()),
        );
        assert!(
            !shown.contains("ut](e5") || shown.contains("[a long link text"),
            "{shown}"
        );
    }
}
