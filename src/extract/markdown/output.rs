//! The markdown `extract` returns (SPEC §5 `markdown`, `refs`): the rendered IR capped at
//! [`MARKDOWN_MAX_BYTES`] without half a link, and with links named by the uid of their element.

use std::collections::HashMap;

use super::ir::{Block, Inline};
use super::render::render;
use crate::extract::text::cap_utf8;

/// Largest markdown returned by `extract`, in bytes of UTF-8 (SPEC §5: ≤ 30 KB).
pub const MARKDOWN_MAX_BYTES: usize = 30 * 1024;

/// The markdown of a page and whether it was cut to [`MARKDOWN_MAX_BYTES`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Markdown {
    /// Markdown text, at most [`MARKDOWN_MAX_BYTES`] bytes, cut on a char boundary.
    pub text: String,
    /// True when the full markdown was longer and has been cut.
    pub truncated: bool,
}

/// The blocks rendered and capped at [`MARKDOWN_MAX_BYTES`].
pub fn capped(blocks: &[Block]) -> Markdown {
    let full = render(blocks);
    let (text, truncated) = cut(&full);
    Markdown {
        text: text.to_string(),
        truncated,
    }
}

/// [`to_markdown`] for an agent that also gets the element list (SPEC §5 `refs`): every link whose `<a>`
/// is a listed element is written with its uid, `[text](e5 /path)` — the path only when the link stays on
/// `page_url`'s origin (other origins' URLs, mostly share and tracking links, are the bulk of a page's
/// link bytes; the uid is what the agent acts on) — so the element list need not repeat it.
/// `uids` maps an element's `backendNodeId` to its uid. Returns the markdown (capped like
/// [`to_markdown`]) and the uids it names, in order of first appearance.
pub fn with_refs(
    blocks: &[Block],
    uids: &HashMap<i64, String>,
    page_url: &str,
) -> (Markdown, Vec<String>) {
    let (rewritten, mut named) = name_refs(blocks, uids, page_url);
    let full = render(&rewritten);
    let (text, truncated) = cut(&full);
    if truncated {
        // A uid cut off with the end of the markdown is not in it.
        named.retain(|u| text.contains(&format!("]({u})")) || text.contains(&format!("]({u} ")));
    }
    (
        Markdown {
            text: text.to_string(),
            truncated,
        },
        named,
    )
}

/// `blocks` with the links [`with_refs`] names by uid rewritten, uncapped, and the uids named in order of
/// first appearance: for a read that renders a part of the page or all of it (SPEC §5 "Pages", `find`).
pub fn name_refs(
    blocks: &[Block],
    uids: &HashMap<i64, String>,
    page_url: &str,
) -> (Vec<Block>, Vec<String>) {
    let origin = url::Url::parse(page_url).ok().map(|u| u.origin());
    let mut named = Vec::new();
    let mut rewritten = blocks.to_vec();
    for b in &mut rewritten {
        refs_in_block(b, &mut |content, href, backend| {
            let uid = uids.get(&backend)?;
            named.push(uid.clone());
            let target = href.and_then(|h| url::Url::parse(h).ok());
            let path = target
                .filter(|t| {
                    origin
                        .as_ref()
                        .is_some_and(|o| o.is_tuple() && &t.origin() == o)
                })
                .map(|t| t[url::Position::BeforePath..].to_string());
            Some(Inline::Ref {
                content: std::mem::take(content),
                uid: uid.clone(),
                path,
            })
        });
    }
    (rewritten, named)
}

/// `markdown` capped at [`MARKDOWN_MAX_BYTES`], and whether it was cut. A cut never leaves half a link or
/// image: a `[` of the page's text is escaped (`\[`), so the last unescaped `[` opens one, and when its
/// `](…)` is not complete the markdown ends before it (before its `!` for an image).
fn cut(markdown: &str) -> (&str, bool) {
    let (text, truncated) = cap_utf8(markdown, MARKDOWN_MAX_BYTES);
    if !truncated {
        return (text, false);
    }
    let bytes = text.as_bytes();
    let open = (0..bytes.len())
        .rev()
        .find(|&i| bytes[i] == b'[' && (i == 0 || bytes[i - 1] != b'\\'));
    let Some(open) = open else {
        return (text, true);
    };
    let complete = text[open..]
        .find("](")
        .is_some_and(|close| text[open + close..].contains(')'));
    if complete {
        return (text, true);
    }
    let start = if open > 0 && bytes[open - 1] == b'!' {
        open - 1
    } else {
        open
    };
    (&text[..start], true)
}

/// Calls `f` on every [`Inline::Link`] of `block` (nested ones too) and replaces the link with what
/// it returns, if anything.
fn refs_in_block(
    block: &mut Block,
    f: &mut impl FnMut(&mut Vec<Inline>, Option<&str>, i64) -> Option<Inline>,
) {
    match block {
        Block::Heading { content, .. } | Block::Paragraph(content) => refs_in_inlines(content, f),
        Block::List { items, .. } => {
            for b in items.iter_mut().flatten() {
                refs_in_block(b, f);
            }
        }
        Block::Table { rows } => {
            for cell in rows.iter_mut().flatten() {
                refs_in_inlines(cell, f);
            }
        }
        Block::Quote(blocks) => {
            for b in blocks {
                refs_in_block(b, f);
            }
        }
        Block::Code { .. } | Block::Rule => {}
    }
}

fn refs_in_inlines(
    inlines: &mut [Inline],
    f: &mut impl FnMut(&mut Vec<Inline>, Option<&str>, i64) -> Option<Inline>,
) {
    for i in inlines {
        match i {
            Inline::Link {
                content,
                href,
                backend,
            } => {
                if let Some(r) = f(content, href.as_deref(), *backend) {
                    *i = r;
                }
            }
            Inline::Strong(content) | Inline::Emphasis(content) => refs_in_inlines(content, f),
            _ => {}
        }
    }
}
