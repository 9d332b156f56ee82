//! Text matching for the obstacle classifier: lowercase text normalised, markdown markup dropped, and

//! phrases found on word boundaries.

/// True when a word list item occurs in `s` as whole words.
pub(super) fn any_word(s: &str, words: &[&str]) -> bool {
    words.iter().any(|w| contains_phrase(s, w))
}

/// Curly quotes to straight ones, runs of whitespace to one space.
pub(super) fn normalise(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{02BC}' => '\'',
            '\u{201C}' | '\u{201D}' => '"',
            c => c,
        })
        .collect();
    crate::extract::text::collapse(&s)
}

/// Drops markdown link targets and markup so phrases split by formatting still match.
pub(super) fn strip_markdown(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut chars = md.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // `](url)`: keep the text, drop the target.
            ']' if chars.peek() == Some(&'(') => {
                let mut depth = 0;
                for d in chars.by_ref() {
                    match d {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            '[' | ']' | '*' | '`' | '#' | '|' | '>' | '!' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `needle` occurs in `hay` with no letter or digit right before or after it (whole words). For
/// scripts without spaces (CJK) any occurrence counts.
pub(super) fn contains_phrase(hay: &str, needle: &str) -> bool {
    phrases(hay, needle).next().is_some()
}

/// Byte offsets of the whole-word occurrences of `needle` in `hay` (see [`contains_phrase`]).
pub(super) fn phrase_positions(hay: &str, needle: &str) -> Vec<usize> {
    phrases(hay, needle).collect()
}

/// The whole-word occurrences of `needle` in `hay`, as byte offsets, found lazily: most callers only ask
/// whether there is one, on a page's whole text.
pub(super) fn phrases<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let cjk = needle.chars().any(|c| (c as u32) >= 0x2E80);
    let mut start = 0;
    std::iter::from_fn(move || {
        if needle.is_empty() {
            return None;
        }
        while let Some(pos) = hay.get(start..)?.find(needle) {
            let at = start + pos;
            let end = at + needle.len();
            start = at + hay[at..].chars().next().map_or(1, char::len_utf8);
            let before = hay[..at].chars().next_back();
            let after = hay[end..].chars().next();
            let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
            if cjk || (boundary(before) && boundary(after)) {
                return Some(at);
            }
        }
        None
    })
}
