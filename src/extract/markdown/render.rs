//! Block IR → Markdown text (CommonMark-style; blocks separated by a blank line).

use super::ir::{Block, Inline};
use crate::extract::text::collapse;

/// Renders the block IR as Markdown (CommonMark-style; blocks separated by a blank line).
pub fn render(blocks: &[Block]) -> String {
    join_blocks(blocks, "\n\n")
}

/// The blocks that render to something, `separator` between them.
fn join_blocks(blocks: &[Block], separator: &str) -> String {
    let rendered: Vec<String> = blocks
        .iter()
        .map(render_block)
        .filter(|text| !text.is_empty())
        .collect();
    rendered.join(separator)
}

fn render_block(b: &Block) -> String {
    match b {
        Block::Heading { level, content } => {
            let text = render_inline(content).replace('\n', " ");
            format!(
                "{} {}",
                "#".repeat(usize::from((*level).clamp(1, 6))),
                text.trim()
            )
        }
        Block::Paragraph(content) => render_inline(content),
        Block::List {
            ordered,
            start,
            items,
        } => {
            let mut out = String::new();
            for (k, item) in items.iter().enumerate() {
                let marker = if *ordered {
                    format!("{}. ", u64::from(*start) + k as u64)
                } else {
                    "- ".to_string()
                };
                let body = tight(item);
                if body.is_empty() {
                    continue;
                }
                if !out.is_empty() {
                    out.push('\n');
                }
                let pad = " ".repeat(marker.len());
                for (j, line) in body.lines().enumerate() {
                    if j == 0 {
                        out.push_str(&marker);
                    } else {
                        out.push('\n');
                        if !line.is_empty() {
                            out.push_str(&pad);
                        }
                    }
                    out.push_str(line);
                }
            }
            out
        }
        Block::Table { rows } => {
            let mut out = String::new();
            for (k, row) in rows.iter().enumerate() {
                let cells: Vec<String> = row
                    .iter()
                    .map(|c| render_inline(c).replace('\n', " ").replace('|', "\\|"))
                    .collect();
                if k > 0 {
                    out.push('\n');
                }
                out.push_str("| ");
                out.push_str(&cells.join(" | "));
                out.push_str(" |");
                if k == 0 {
                    out.push('\n');
                    out.push_str(
                        &vec!["---"; row.len()]
                            .iter()
                            .fold(String::from("|"), |acc, d| acc + " " + d + " |"),
                    );
                }
            }
            out
        }
        Block::Code { lang, text } => {
            let fence = "`".repeat(longest_run(text, '`').max(2) + 1);
            format!("{fence}{}\n{text}\n{fence}", lang.as_deref().unwrap_or(""))
        }
        Block::Quote(inner) => render(inner)
            .lines()
            .map(|l| {
                if l.is_empty() {
                    ">".to_string()
                } else {
                    format!("> {l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Rule => "---".to_string(),
    }
}

/// A list item's blocks: paragraphs on consecutive lines, nested blocks below.
fn tight(blocks: &[Block]) -> String {
    join_blocks(blocks, "\n")
}

fn longest_run(s: &str, ch: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for c in s.chars() {
        if c == ch {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// Renders inline content: whitespace collapsed, `<br>` kept as a newline, lines trimmed.
fn render_inline(content: &[Inline]) -> String {
    let mut raw = String::new();
    push_inline(content, &mut raw);
    raw.split('\n')
        .map(collapse)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn push_inline(content: &[Inline], out: &mut String) {
    for i in content {
        match i {
            Inline::Text(t) => {
                for ch in t.chars() {
                    // A bracket of the page's text is escaped, so that text cannot pass for a link —
                    // above all for a link named by uid (`[Keep](e1)`, SPEC §5 `refs`), which an agent
                    // would click.
                    if matches!(ch, '[' | ']') {
                        out.push('\\');
                    }
                    out.push(if ch.is_whitespace() { ' ' } else { ch });
                }
            }
            Inline::Break => out.push('\n'),
            Inline::Link {
                content,
                href: Some(href),
                ..
            } => {
                push_link(content, &escape_target(href), out);
            }
            Inline::Link { content, .. } => push_inline(content, out),
            Inline::Ref { content, uid, path } => {
                let target = match path {
                    Some(p) => format!("{uid} {}", escape_target(p)),
                    None => uid.clone(),
                };
                push_link(content, &target, out);
            }
            Inline::Image { alt, src } => {
                out.push_str("![");
                out.push_str(&alt.replace(['[', ']'], ""));
                out.push_str("](");
                out.push_str(&escape_target(src));
                out.push(')');
            }
            Inline::Code(code) => {
                let fence = "`".repeat(longest_run(code, '`') + 1);
                let pad = if code.starts_with('`') || code.ends_with('`') {
                    " "
                } else {
                    ""
                };
                out.push_str(&format!("{fence}{pad}{code}{pad}{fence}"));
            }
            Inline::Strong(content) | Inline::Emphasis(content) => {
                let text = one_line(content);
                if text.is_empty() {
                    continue;
                }
                let mark = if matches!(i, Inline::Strong(_)) {
                    "**"
                } else {
                    "*"
                };
                if starts_with_space(content) {
                    out.push(' ');
                }
                out.push_str(mark);
                out.push_str(&text);
                out.push_str(mark);
                if ends_with_space(content) {
                    out.push(' ');
                }
            }
        }
    }
}

/// `[text](target)`, with the spaces around the link's text kept outside it; nothing for a link
/// without text.
fn push_link(content: &[Inline], target: &str, out: &mut String) {
    let text = one_line(content);
    if text.is_empty() {
        return;
    }
    if starts_with_space(content) {
        out.push(' ');
    }
    out.push('[');
    out.push_str(&text);
    out.push_str("](");
    out.push_str(target);
    out.push(')');
    if ends_with_space(content) {
        out.push(' ');
    }
}

/// A URL made safe inside `(…)`.
fn escape_target(url: &str) -> String {
    url.replace(' ', "%20").replace(')', "%29")
}

fn one_line(content: &[Inline]) -> String {
    render_inline(content).replace('\n', " ")
}

fn starts_with_space(content: &[Inline]) -> bool {
    matches!(content.first(), Some(Inline::Text(t)) if t.starts_with(char::is_whitespace))
}

fn ends_with_space(content: &[Inline]) -> bool {
    matches!(content.last(), Some(Inline::Text(t)) if t.ends_with(char::is_whitespace))
}
