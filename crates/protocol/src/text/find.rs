//! `find` as text (SPEC §4): the lines of a page's agent text it searches ([`page_lines`]: the markdown with
//! link uids, then one line per element, as [`super::extract_text`] writes them but every element on a line
//! of its own), and its result for a model ([`find_text`]).

use super::{element_line, same_origin_paths};
use crate::result::{ExtractResult, FindResult};

/// One line of a page's agent text and the uids it names (a markdown line's `[Name](e4 …)` links, an element
/// line's uid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentLine {
    /// The line as the agent text writes it.
    pub text: String,
    /// The uids in it, in order.
    pub uids: Vec<String>,
}

/// The lines `find` searches: the markdown's non-blank lines (links to the page's origin from their path),
/// then the elements the markdown does not name, one per line — the element list of [`super::extract_text`]
/// without its runs of links, so every element can be found by its name.
pub fn page_lines(r: &ExtractResult) -> Vec<AgentLine> {
    let mut lines = Vec::new();
    if let Some(markdown) = &r.markdown {
        for line in same_origin_paths(markdown, &r.url).lines() {
            if !line.trim().is_empty() {
                lines.push(AgentLine {
                    uids: refs_in(line),
                    text: line.to_owned(),
                });
            }
        }
    }
    for e in r.elements.iter().flatten() {
        if !e.in_markdown && e.same_as.is_none() && !e.hidden {
            lines.push(AgentLine {
                text: element_line(e),
                uids: vec![e.uid.clone()],
            });
        }
    }
    lines
}

/// The uids of the links a markdown line names: `[Terms](e4 /terms)`, `[Help](e5)`.
pub fn refs_in(line: &str) -> Vec<String> {
    let mut uids = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](e") {
        let after = &rest[at + 2..];
        let end = after[1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(after.len(), |i| i + 1);
        let closed = after[end..].starts_with([' ', ')']);
        if end > 1 && closed {
            uids.push(after[..end].to_owned());
        }
        rest = &after[end..];
    }
    uids
}

/// The agent text of a `find` result: a header with how many lines matched, then the lines shown.
///
/// ```text
/// find: 57 lines match, the first 20:
/// e12 button "Pro plan"
/// - [Pro](e40 /pro) from $9
/// ```
pub fn find_text(r: &FindResult) -> String {
    let shown = r.lines.len();
    let mut out = match (r.count as usize, shown) {
        (0, _) => "find: no line matches\n".to_owned(),
        (1, _) => "find: 1 line matches:\n".to_owned(),
        (n, s) if s < n => format!("find: {n} lines match, the first {s}:\n"),
        (n, _) => format!("find: {n} lines match:\n"),
    };
    for line in &r.lines {
        out.push_str(&line.line);
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{ExtractElement, FoundLine, Truncated};

    fn element(uid: &str, role: &str, name: &str, in_markdown: bool) -> ExtractElement {
        ExtractElement {
            uid: uid.into(),
            role: role.into(),
            name: Some(name.into()),
            in_markdown,
            ..Default::default()
        }
    }

    #[test]
    fn page_lines_are_the_markdown_then_every_element_it_does_not_name() {
        let mut elements = vec![element("e1", "link", "Terms", true)];
        for i in 2..20 {
            elements.push(element(
                &format!("e{i}"),
                "link",
                &format!("Tag {i}"),
                false,
            ));
        }
        elements.push(element("e20", "button", "Save", false));
        let r = ExtractResult {
            url: "https://x.test/a".into(),
            title: "A".into(),
            text: None,
            markdown: Some(
                "# Title\n\nRead the [Terms](e1 /terms) and [more](https://x.test/b).\n".into(),
            ),
            elements: Some(elements),
            obstacle: None,
            truncated: Truncated::default(),
            total_elements: 20,
            page: None,
            pages: None,
            dialog: None,
            dialogs: Vec::new(),
        };
        let lines = page_lines(&r);
        assert_eq!(lines[0].text, "# Title");
        assert_eq!(
            lines[1],
            AgentLine {
                text: "Read the [Terms](e1 /terms) and [more](/b).".into(),
                uids: vec!["e1".into()]
            }
        );
        // Eighteen links in a row are each a line of their own (the agent text makes them one run line).
        assert_eq!(lines.len(), 2 + 18 + 1);
        assert_eq!(lines[2].text, "e2 Tag 2");
        assert_eq!(lines[20].text, "e20 button \"Save\"");
        assert_eq!(lines[20].uids, ["e20"]);
    }

    #[test]
    fn refs_are_the_uids_of_link_targets_only() {
        assert_eq!(
            refs_in("[A](e4 /a) [B](e15) [C](e7x) [D](/e9) e3"),
            ["e4", "e15"]
        );
        assert!(refs_in("[x](e)").is_empty());
    }

    #[test]
    fn find_text_says_how_many_matched_and_shows_the_lines() {
        let line = |s: &str| FoundLine {
            line: s.into(),
            uids: Vec::new(),
        };
        let r = |count, lines| FindResult {
            count,
            lines,
            tab_id: 1,
        };
        assert_eq!(find_text(&r(0, vec![])), "find: no line matches");
        assert_eq!(
            find_text(&r(1, vec![line("e3 button \"Pro\"")])),
            "find: 1 line matches:\ne3 button \"Pro\""
        );
        assert_eq!(
            find_text(&r(57, vec![line("a"), line("b")])),
            "find: 57 lines match, the first 2:\na\nb"
        );
    }
}
