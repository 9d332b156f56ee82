//! DOM → block IR (SPEC §5 `markdown`): walks the content of the composed tree (what
//! [`super::content`] keeps) and builds headings, paragraphs, links, lists, tables, code, quotes and
//! images with alt text.

use super::content::skipped;
use super::ir::{Block, Inline, MAX_DEPTH};
use super::math::{formula, Formula};
use crate::extract::snapshot::{is_heading_tag, Dom, DomNode, NodeKind, BLOCK_TAGS};
use crate::extract::text::collapse;

/// Builds the block IR of the page (see the module doc for what is kept and dropped).
pub fn build(dom: &Dom) -> Vec<Block> {
    if dom.nodes.is_empty() {
        return Vec::new();
    }
    let conv = Converter::new(dom);
    let mut sink = Sink::default();
    conv.children(dom.root(), &mut sink, 0);
    sink.finish()
}

#[derive(Default)]
struct Sink {
    blocks: Vec<Block>,
    inline: Vec<Inline>,
}

impl Sink {
    fn flush(&mut self) {
        let inline = std::mem::take(&mut self.inline);
        if has_content(&inline) {
            self.blocks.push(Block::Paragraph(inline));
        }
    }

    fn block(&mut self, b: Block) {
        self.flush();
        self.blocks.push(b);
    }

    fn finish(mut self) -> Vec<Block> {
        self.flush();
        self.blocks
    }
}

fn has_content(inline: &[Inline]) -> bool {
    inline.iter().any(|i| match i {
        Inline::Text(t) => !t.trim().is_empty(),
        Inline::Break => false,
        Inline::Link { content, .. }
        | Inline::Ref { content, .. }
        | Inline::Strong(content)
        | Inline::Emphasis(content) => has_content(content),
        Inline::Image { .. } => true,
        Inline::Code(c) => !c.trim().is_empty(),
    })
}

struct Converter<'a> {
    dom: &'a Dom,
    /// Node is not part of the markdown (hidden, furniture, never text).
    skip: Vec<bool>,
}

impl<'a> Converter<'a> {
    fn new(dom: &'a Dom) -> Self {
        Converter {
            dom,
            skip: skipped(dom),
        }
    }

    fn node(&self, id: usize) -> &'a DomNode {
        &self.dom.nodes[id]
    }

    fn children(&self, id: usize, sink: &mut Sink, depth: usize) {
        for &c in &self.node(id).children {
            self.walk(c, sink, depth + 1);
        }
    }

    /// The children of `id` as blocks of their own.
    fn blocks_of(&self, id: usize, depth: usize) -> Vec<Block> {
        let mut sink = Sink::default();
        self.children(id, &mut sink, depth);
        sink.finish()
    }

    /// The children of `id` as one line of inline content (blocks inside are joined by spaces).
    fn inlines_of(&self, id: usize, depth: usize) -> Vec<Inline> {
        flatten(self.blocks_of(id, depth))
    }

    fn walk(&self, id: usize, sink: &mut Sink, depth: usize) {
        if depth > MAX_DEPTH || self.skip[id] {
            return;
        }
        let node = self.node(id);
        let tag = match &node.kind {
            NodeKind::Text(t) => {
                sink.inline.push(Inline::Text(t.clone()));
                return;
            }
            NodeKind::Document => return self.children(id, sink, depth),
            NodeKind::Element { tag, .. } => tag.as_str(),
        };
        match tag {
            tag if is_heading_tag(tag) => {
                let level = tag.as_bytes()[1] - b'0';
                let content = self.inlines_of(id, depth);
                if has_content(&content) {
                    sink.block(Block::Heading { level, content });
                } else {
                    sink.flush();
                }
            }
            "ul" | "ol" | "menu" => self.list(id, tag == "ol", sink, depth),
            "table" => self.table(id, sink, depth),
            "pre" | "xmp" | "listing" | "plaintext" => {
                let mut text = String::new();
                self.raw_text(id, &mut text, depth);
                let text = text
                    .trim_end_matches(['\n', ' ', '\t'])
                    .trim_start_matches('\n')
                    .to_string();
                if text.trim().is_empty() {
                    return;
                }
                sink.block(Block::Code {
                    lang: self.code_lang(id),
                    text,
                });
            }
            "blockquote" => {
                let inner = self.blocks_of(id, depth);
                if !inner.is_empty() {
                    sink.block(Block::Quote(inner));
                }
            }
            "hr" => sink.block(Block::Rule),
            // A cross-origin frame's content, headed by a line naming the frame (SPEC §5 "Frames").
            "iframe" | "frame" if self.dom.remote_frames.contains_key(&id) => {
                let inner = self.blocks_of(id, depth);
                if let (false, Some(marker)) = (inner.is_empty(), self.dom.frame_marker(id)) {
                    sink.block(Block::Paragraph(vec![Inline::Text(marker)]));
                    for b in inner {
                        sink.block(b);
                    }
                }
            }
            "math" => match formula(self.dom, id, depth) {
                Some(Formula::Display(text)) => {
                    sink.flush();
                    sink.inline.push(Inline::Text(text));
                    sink.flush();
                }
                Some(Formula::Inline(text)) => sink.inline.push(Inline::Text(text)),
                None => {}
            },
            "br" => sink.inline.push(Inline::Break),
            "a" => self.link(id, sink, depth),
            "img" => {
                if let Some(img) = self.image(id) {
                    sink.inline.push(img);
                }
            }
            "code" | "kbd" | "samp" | "tt" => {
                let mut text = String::new();
                self.raw_text(id, &mut text, depth);
                let text = collapse(&text);
                if !text.is_empty() {
                    sink.inline.push(Inline::Code(text));
                }
            }
            "strong" | "b" => {
                let content = self.inlines_of(id, depth);
                if has_content(&content) {
                    sink.inline.push(Inline::Strong(content));
                }
            }
            "em" | "i" => {
                let content = self.inlines_of(id, depth);
                if has_content(&content) {
                    sink.inline.push(Inline::Emphasis(content));
                }
            }
            _ => {
                if self.is_block(node) {
                    sink.flush();
                    self.children(id, sink, depth);
                    sink.flush();
                } else if is_atomic_inline(node) {
                    // Buttons and other inline-block boxes are separated on screen even when the
                    // source has no space between them.
                    sink.inline.push(Inline::Text(" ".into()));
                    self.children(id, sink, depth);
                    sink.inline.push(Inline::Text(" ".into()));
                } else {
                    self.children(id, sink, depth);
                }
            }
        }
    }

    fn is_block(&self, node: &DomNode) -> bool {
        match &node.layout {
            Some(l) if !l.style.display.is_empty() => !l.style.is_inline(),
            Some(_) => false,
            // No box of its own (`display: contents`, or a tree without layout): the tag's default.
            None => node.tag().is_some_and(|t| BLOCK_TAGS.contains(&t)),
        }
    }

    fn list(&self, id: usize, ordered: bool, sink: &mut Sink, depth: usize) {
        let mut items = Vec::new();
        for &c in &self.node(id).children {
            if self.skip[c] {
                continue;
            }
            let child = self.node(c);
            let blocks = match &child.kind {
                NodeKind::Element { .. } => self.blocks_of_self(c, depth + 1),
                NodeKind::Text(t) if !t.trim().is_empty() => {
                    vec![Block::Paragraph(vec![Inline::Text(t.clone())])]
                }
                _ => continue,
            };
            if !blocks.is_empty() {
                items.push(blocks);
            }
        }
        if items.is_empty() {
            return;
        }
        let start = self
            .node(id)
            .attr("start")
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(1);
        sink.block(Block::List {
            ordered,
            start,
            items,
        });
    }

    /// `id` itself (not only its children) as blocks: for list items, which may be any element.
    fn blocks_of_self(&self, id: usize, depth: usize) -> Vec<Block> {
        if self.node(id).tag() == Some("li") {
            return self.blocks_of(id, depth);
        }
        let mut sink = Sink::default();
        self.walk(id, &mut sink, depth);
        sink.finish()
    }

    fn table(&self, id: usize, sink: &mut Sink, depth: usize) {
        let mut rows = Vec::new();
        let mut caption = None;
        self.table_rows(id, &mut rows, &mut caption, depth);
        let cells: Vec<Vec<Vec<Block>>> = rows
            .iter()
            .map(|&r| {
                self.node(r)
                    .children
                    .iter()
                    .copied()
                    .filter(|&c| !self.skip[c] && matches!(self.node(c).tag(), Some("td" | "th")))
                    .map(|c| self.blocks_of(c, depth + 2))
                    .collect()
            })
            .collect();
        let width = cells.iter().map(Vec::len).max().unwrap_or(0);
        let inline_only = cells
            .iter()
            .flatten()
            .all(|cell| cell.len() <= 1 && cell.iter().all(|b| matches!(b, Block::Paragraph(_))));
        if let Some(c) = caption {
            sink.block(Block::Paragraph(c));
        }
        if width >= 2 && cells.len() >= 2 && inline_only {
            let rows = cells
                .into_iter()
                .filter(|r| !r.is_empty())
                .map(|r| {
                    let mut row: Vec<Vec<Inline>> = r.into_iter().map(flatten).collect();
                    row.resize(width, Vec::new());
                    row
                })
                .collect();
            sink.block(Block::Table { rows });
        } else {
            // A layout table (or a one-column list of cells): its cells are ordinary blocks.
            sink.flush();
            for cell in cells.into_iter().flatten() {
                sink.blocks.extend(cell);
            }
        }
    }

    fn table_rows(
        &self,
        id: usize,
        rows: &mut Vec<usize>,
        caption: &mut Option<Vec<Inline>>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        for &c in &self.node(id).children {
            if self.skip[c] {
                continue;
            }
            match self.node(c).tag() {
                Some("tr") => rows.push(c),
                Some("caption") => {
                    *caption = Some(self.inlines_of(c, depth + 1)).filter(|c| has_content(c))
                }
                Some("table") => {}
                Some(_) => self.table_rows(c, rows, caption, depth + 1),
                None => {}
            }
        }
    }

    fn link(&self, id: usize, sink: &mut Sink, depth: usize) {
        let node = self.node(id);
        // An image inside a link is only a label: its alt text, and only when the link has no text.
        let content = self.inlines_of(id, depth);
        let has_text = content
            .iter()
            .any(|i| !matches!(i, Inline::Image { .. }) && has_content(std::slice::from_ref(i)));
        let content: Vec<Inline> = content
            .into_iter()
            .filter_map(|i| match i {
                Inline::Image { alt, .. } => (!has_text).then(|| Inline::Text(format!(" {alt} "))),
                other => Some(other),
            })
            .collect();
        let href = node
            .attr("href")
            .map(str::trim)
            .filter(|h| !h.is_empty() && !h.to_ascii_lowercase().starts_with("javascript:"))
            .map(|h| crate::extract::snapshot::resolve_url(self.dom.base_url_of(id), h));
        let doc_url = self
            .dom
            .documents
            .get(node.document)
            .map(|d| d.url.as_str())
            .unwrap_or("");
        if !has_content(&content) {
            sink.inline.extend(content);
            return;
        }
        // Links within the same document (tables of contents, footnotes) are just their text.
        let href = href.filter(|h| !same_document(h, doc_url));
        sink.inline.push(Inline::Link {
            content,
            href,
            backend: node.backend_node_id,
        })
    }

    fn image(&self, id: usize) -> Option<Inline> {
        let node = self.node(id);
        let alt = collapse(node.attr("alt")?);
        if alt.is_empty() {
            return None;
        }
        let src = [node.attr("src"), node.attr("data-src")]
            .into_iter()
            .flatten()
            .map(str::trim)
            .find(|s| !s.is_empty() && !s.starts_with("data:"))?;
        Some(Inline::Image {
            alt,
            src: crate::extract::snapshot::resolve_url(self.dom.base_url_of(id), src),
        })
    }

    /// Text of a subtree with whitespace kept (`<pre>`, code): `<br>` is a newline.
    fn raw_text(&self, id: usize, out: &mut String, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        for &c in &self.node(id).children {
            if self.skip[c] {
                continue;
            }
            let child = self.node(c);
            match &child.kind {
                NodeKind::Text(t) => out.push_str(t),
                NodeKind::Element { tag, .. } if tag == "br" => out.push('\n'),
                NodeKind::Element { .. } => {
                    let block = self.is_block(child) && !out.is_empty() && !out.ends_with('\n');
                    if block {
                        out.push('\n');
                    }
                    self.raw_text(c, out, depth + 1);
                }
                NodeKind::Document => {}
            }
        }
    }

    fn code_lang(&self, pre: usize) -> Option<String> {
        let node = self.node(pre);
        let first_code = node
            .children
            .iter()
            .map(|&c| self.node(c))
            .find(|c| c.tag() == Some("code"));
        [Some(node), first_code]
            .into_iter()
            .flatten()
            .find_map(|n| {
                n.attr("class")?.split_whitespace().find_map(|c| {
                    let lang = c
                        .strip_prefix("language-")
                        .or_else(|| c.strip_prefix("lang-"))?;
                    let ok = !lang.is_empty()
                        && lang
                            .chars()
                            .all(|ch| ch.is_ascii_alphanumeric() || "+#-_.".contains(ch));
                    ok.then(|| lang.to_string())
                })
            })
    }
}

/// `inline-block`, `inline-flex`, `inline-grid`, `inline-table` boxes.
fn is_atomic_inline(node: &DomNode) -> bool {
    node.layout
        .as_ref()
        .is_some_and(|l| l.style.display.starts_with("inline-"))
}

/// `a` and `b` differ at most in the fragment.
fn same_document(a: &str, b: &str) -> bool {
    let strip = |u: &str| u.split('#').next().unwrap_or("").to_string();
    !b.is_empty() && a.contains('#') && strip(a) == strip(b)
}

/// Blocks back into one line of inline content (for headings, links and table cells).
fn flatten(blocks: Vec<Block>) -> Vec<Inline> {
    let mut out = Vec::new();
    for b in blocks {
        if !out.is_empty() {
            out.push(Inline::Text(" ".into()));
        }
        match b {
            Block::Heading { content, .. } | Block::Paragraph(content) => out.extend(content),
            Block::List { items, .. } => {
                for item in items {
                    out.extend(flatten(item));
                    out.push(Inline::Text(" ".into()));
                }
            }
            Block::Table { rows } => {
                for cell in rows.into_iter().flatten() {
                    out.extend(cell);
                    out.push(Inline::Text(" ".into()));
                }
            }
            Block::Code { text, .. } => out.push(Inline::Code(collapse(&text))),
            Block::Quote(inner) => out.extend(flatten(inner)),
            Block::Rule => {}
        }
    }
    out
}
