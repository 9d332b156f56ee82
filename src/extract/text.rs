//! Text helpers of `extract`: size caps on the strings it returns (SPEC §5: `text` ≤ 50 KB, `markdown`
//! ≤ 30 KB) and whitespace collapsed as a page shows it.

/// Largest `text` (the body's `innerText`) returned by `extract`, in bytes of UTF-8.
pub const TEXT_MAX_BYTES: usize = 50 * 1024;

/// Cuts `s` to at most `max` bytes on a char boundary; the flag tells whether anything was cut.
pub fn cap_utf8(s: &str, max: usize) -> (&str, bool) {
    if s.len() <= max {
        return (s, false);
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    (&s[..end], true)
}

/// The body's `innerText` capped at [`TEXT_MAX_BYTES`]; the flag is `truncated.text`.
pub fn cap_text(inner_text: &str) -> (String, bool) {
    let (t, cut) = cap_utf8(inner_text, TEXT_MAX_BYTES);
    (t.to_string(), cut)
}

/// `s` cut to at most `max` chars, the last of them `…` when it was longer.
pub fn cut_chars(s: String, max: usize) -> String {
    if s.chars().count() <= max {
        return s;
    }
    let mut cut: String = s.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

/// Collapses every run of whitespace to one space and trims the ends.
pub fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_returned_whole() {
        assert_eq!(cap_utf8("héllo", 6), ("héllo", false));
    }

    #[test]
    fn cut_never_splits_a_multibyte_char() {
        // "é" is 2 bytes, "😀" 4: a cut inside either backs off to the char start.
        assert_eq!(cap_utf8("aé", 2), ("a", true));
        assert_eq!(cap_utf8("a😀b", 4), ("a", true));
        assert_eq!(cap_utf8("a😀b", 5), ("a😀", true));
    }

    #[test]
    fn text_cap_is_50_kib() {
        let big = "ж".repeat(40_000); // 80,000 bytes
        let (t, cut) = cap_text(&big);
        assert!(cut);
        assert_eq!(t.len(), 51_200);
        assert!(t.chars().all(|c| c == 'ж'));
    }
}
