//! DOM → Markdown (SPEC §5 `markdown`): pure code over a [`Dom`], in two steps.
//!
//! [`build`] walks the composed tree and produces a small block IR ([`Block`], [`Inline`]): it decides
//! what is content (headings, paragraphs, links, lists, tables, code, quotes, images with alt text) and
//! what is not (hidden or zero-size nodes, scripts and styles, `nav`/`footer`/`aside`/site header and
//! their ARIA roles, dialogs, `position: fixed | sticky` overlays). [`render`] turns the IR into
//! Markdown text, and [`to_markdown`] caps it at [`MARKDOWN_MAX_BYTES`].
//!
//! Boilerplate removal never takes the main content with it: a landmark, overlay or `aria-hidden`
//! subtree is kept when it holds the page's `<main>` or more than half of its visible text (pages that
//! put everything in a fixed app shell, or hide the page behind a modal with `aria-hidden`).

use super::snapshot::{Dom, DomNode, NodeKind};
use super::text::cap_utf8;
use std::collections::HashMap;

/// Largest markdown returned by `extract`, in bytes of UTF-8 (SPEC §5: ≤ 30 KB).
pub const MARKDOWN_MAX_BYTES: usize = 30 * 1024;

/// Inline content of a paragraph, heading, list item or table cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    /// Text as in the DOM; whitespace is collapsed when rendered.
    Text(String),
    /// A hard line break (`<br>`).
    Break,
    /// `[content](href)`; `href` is absolute. A link without `href` (to a place in the same document,
    /// or a `javascript:` one) is written as its text, but [`with_refs`] can still name its element.
    Link {
        /// The link's text (and images).
        content: Vec<Inline>,
        /// Absolute URL.
        href: Option<String>,
        /// The `<a>`'s `backendNodeId`: the element a uid may name ([`with_refs`]).
        backend: i64,
    },
    /// A link written with the uid of its element (SPEC §5 `refs`): `[content](e5 /path)`, the path
    /// only for a link to the page's own origin.
    Ref {
        /// The link's text.
        content: Vec<Inline>,
        /// The uid, `e5`.
        uid: String,
        /// Path, query and fragment of a same-origin link (`/a?b`); `None` for another origin.
        path: Option<String>,
    },
    /// `![alt](src)`; only built when `alt` is not empty. `src` is absolute.
    Image {
        /// Alternative text, trimmed.
        alt: String,
        /// Absolute URL.
        src: String,
    },
    /// Inline code (`code`, `kbd`, `samp`, `tt`).
    Code(String),
    /// `**strong**` (`strong`, `b`).
    Strong(Vec<Inline>),
    /// `*emphasis*` (`em`, `i`).
    Emphasis(Vec<Inline>),
}

/// A block of the document.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// `#` … `######`.
    Heading {
        /// 1–6.
        level: u8,
        /// Heading text.
        content: Vec<Inline>,
    },
    /// A paragraph (also any run of inline content between blocks).
    Paragraph(Vec<Inline>),
    /// A bullet (`-`) or numbered list; each item is a list of blocks (nested lists included).
    List {
        /// Numbered list.
        ordered: bool,
        /// First number of a numbered list (`<ol start>`), 1 by default.
        start: u32,
        /// The items.
        items: Vec<Vec<Block>>,
    },
    /// A data table; the first row is the header row. Layout tables are flattened into blocks.
    Table {
        /// Rows of cells; every row has the same number of cells.
        rows: Vec<Vec<Vec<Inline>>>,
    },
    /// A fenced code block (`<pre>`), whitespace kept.
    Code {
        /// Language from a `language-*` / `lang-*` class, if any.
        lang: Option<String>,
        /// The code.
        text: String,
    },
    /// `> quoted` blocks.
    Quote(Vec<Block>),
    /// `---`.
    Rule,
}

/// The markdown of a page and whether it was cut to [`MARKDOWN_MAX_BYTES`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Markdown {
    /// Markdown text, at most [`MARKDOWN_MAX_BYTES`] bytes, cut on a char boundary.
    pub text: String,
    /// True when the full markdown was longer and has been cut.
    pub truncated: bool,
}

/// Converts the page to markdown capped at [`MARKDOWN_MAX_BYTES`] (SPEC §5).
pub fn to_markdown(dom: &Dom) -> Markdown {
    capped(&build(dom))
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

/// Elements whose content is never page text.
const NEVER_TEXT: &[&str] = &[
    "script", "style", "noscript", "template", "svg", "head", "title", "meta", "link", "select",
    "option", "optgroup", "datalist", "input", "textarea", "canvas", "video", "audio", "object",
    "embed", "map", "dialog", "param", "source", "track",
];

/// Roles whose subtree is page furniture, not content (ARIA landmarks and overlays).
const BOILERPLATE_ROLES: &[&str] = &[
    "navigation",
    "contentinfo",
    "complementary",
    "banner",
    "search",
    "dialog",
    "alertdialog",
    "menubar",
    "menu",
    "toolbar",
];

/// A container with at least this many links …
const LINK_FARM_MIN_LINKS: usize = 3;
/// … and at least this share (%) of its text inside links is navigation, not content.
const LINK_FARM_MIN_PERCENT: usize = 70;
/// Elements never judged by link density (their text is content even when it is all links).
const NOT_LINK_FARMS: &[&str] = &[
    "html",
    "body",
    "main",
    "article",
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "blockquote",
    "td",
    "th",
    "tr",
    "tbody",
    "thead",
    "a",
    "li",
    "dt",
    "dd",
];

/// Elements rendered as blocks when the page gives no layout (e.g. `display: contents` does not apply).
const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "center",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "html",
    "legend",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "ul",
    "caption",
];

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

const MAX_DEPTH: usize = 512;

struct Converter<'a> {
    dom: &'a Dom,
    /// Node is not part of the markdown (hidden, furniture, never text).
    skip: Vec<bool>,
}

impl<'a> Converter<'a> {
    fn new(dom: &'a Dom) -> Self {
        let n = dom.nodes.len();
        // A page whose whole body is `visibility: hidden` is still loading (anti-flicker snippets
        // reveal it from a script): its text is what the user is about to see, so take it.
        let honour_visibility = !dom
            .nodes
            .iter()
            .find(|n| n.tag() == Some("body") && n.document == 0)
            .and_then(|b| b.layout.as_ref())
            .is_some_and(|l| l.style.is_invisible());
        // Pass 1: what is never rendered text, whatever the page structure.
        let mut hidden = vec![false; n];
        for (i, node) in dom.nodes.iter().enumerate() {
            let parent_hidden = node.parent.is_some_and(|p| hidden[p]);
            hidden[i] = parent_hidden || is_hidden(node, honour_visibility);
        }
        // Visible text per subtree (chars), the part of it inside links, links, and where `<main>` is.
        let mut text_len = vec![0usize; n];
        let mut link_len = vec![0usize; n];
        let mut links = vec![0usize; n];
        let mut has_main = vec![false; n];
        for i in (0..n).rev() {
            let node = &dom.nodes[i];
            if !hidden[i] {
                if let NodeKind::Text(t) = &node.kind {
                    text_len[i] += t
                        .split_whitespace()
                        .map(|w| w.chars().count() + 1)
                        .sum::<usize>();
                }
                if node.tag() == Some("a") && node.attr("href").is_some() {
                    link_len[i] = text_len[i];
                    links[i] += 1;
                }
                if node.tag() == Some("main")
                    || node
                        .attr("role")
                        .is_some_and(|r| r.trim().eq_ignore_ascii_case("main"))
                {
                    has_main[i] = true;
                }
            }
            if let Some(p) = node.parent {
                text_len[p] += text_len[i];
                link_len[p] += link_len[i];
                links[p] += links[i];
                has_main[p] |= has_main[i];
            }
        }
        let total = text_len.first().copied().unwrap_or(0).max(1);
        // Pass 2: furniture, unless it holds the main content.
        let mut skip = hidden;
        for i in 0..n {
            if skip[i] {
                continue;
            }
            if dom.nodes[i].parent.is_some_and(|p| skip[p]) {
                skip[i] = true;
                continue;
            }
            let holds_main = has_main[i] || text_len[i] * 2 > total;
            if holds_main {
                continue;
            }
            // Link farms (menus, "related" lists, tag clouds): mostly link text, several links.
            let link_farm = links[i] >= LINK_FARM_MIN_LINKS
                && link_len[i] * 100 >= text_len[i] * LINK_FARM_MIN_PERCENT
                && dom.nodes[i]
                    .tag()
                    .is_some_and(|t| !NOT_LINK_FARMS.contains(&t));
            if link_farm || is_furniture(dom, i) {
                skip[i] = true;
            }
        }
        Converter { dom, skip }
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
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
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
            "math" => self.math(id, sink, depth),
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
            .map(|h| super::snapshot::resolve_url(self.dom.base_url_of(id), h));
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
            src: super::snapshot::resolve_url(self.dom.base_url_of(id), src),
        })
    }

    /// A MathML formula (SPEC §5): its TeX (`<annotation encoding="application/x-tex">`, else the
    /// `alttext` attribute) as `$tex$`, or `$$tex$$` in a paragraph of its own for
    /// `display="block"`; without TeX, the formula's text (`x=2`). The layout of the formula's
    /// nodes is not consulted: annotations are never rendered, and pages often keep the readable
    /// copy in a `display: none` box next to an image (Wikipedia's MathML beside its SVG).
    fn math(&self, id: usize, sink: &mut Sink, depth: usize) {
        let node = self.node(id);
        let tex = self
            .tex_annotation(id, depth)
            .or_else(|| node.attr("alttext").map(str::to_string))
            .map(|t| strip_display_style(&collapse(&t)).to_string())
            .filter(|t| !t.is_empty());
        let block = node
            .attr("display")
            .is_some_and(|d| d.trim().eq_ignore_ascii_case("block"));
        match tex {
            Some(tex) if block => {
                sink.flush();
                sink.inline.push(Inline::Text(format!("$${tex}$$")));
                sink.flush();
            }
            Some(tex) => sink.inline.push(Inline::Text(format!("${tex}$"))),
            None => {
                let mut text = String::new();
                self.math_text(id, &mut text, depth);
                let text = collapse(&text);
                if !text.is_empty() {
                    sink.inline.push(Inline::Text(text));
                }
            }
        }
    }

    /// The text of the first TeX annotation inside a formula.
    fn tex_annotation(&self, id: usize, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.node(id).children.iter().find_map(|&c| {
            let child = self.node(c);
            let tex = child.tag() == Some("annotation")
                && child.attr("encoding").is_some_and(|e| {
                    let e = e.trim().to_ascii_lowercase();
                    e == "application/x-tex" || e == "tex" || e == "text/x-tex"
                });
            if tex {
                let mut text = String::new();
                self.math_text(c, &mut text, depth + 1);
                Some(text)
            } else {
                self.tex_annotation(c, depth + 1)
            }
        })
    }

    /// The text of a formula's presentation markup, annotations left out.
    fn math_text(&self, id: usize, out: &mut String, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        for &c in &self.node(id).children {
            let child = self.node(c);
            match &child.kind {
                NodeKind::Text(t) => out.push_str(t),
                NodeKind::Element { tag, .. } if tag == "annotation" || tag == "annotation-xml" => {
                }
                NodeKind::Element { .. } => self.math_text(c, out, depth + 1),
                NodeKind::Document => {}
            }
        }
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

/// `{\displaystyle x}` → `x`: the wrapper Wikipedia puts around every formula's TeX says nothing.
fn strip_display_style(tex: &str) -> &str {
    ["{\\displaystyle ", "{\\textstyle "]
        .iter()
        .find_map(|p| tex.strip_prefix(p)?.strip_suffix('}'))
        .map(str::trim)
        .unwrap_or(tex)
}

/// Never-rendered or invisible nodes (independent of page structure).
fn is_hidden(node: &DomNode, honour_visibility: bool) -> bool {
    match &node.kind {
        NodeKind::Document => false,
        NodeKind::Text(_) => match &node.layout {
            None => true,
            Some(l) => honour_visibility && l.style.is_invisible(),
        },
        NodeKind::Element { tag, .. } => {
            if NEVER_TEXT.contains(&tag.as_str()) || node.attr("hidden").is_some() {
                return true;
            }
            match &node.layout {
                Some(l) => {
                    let b = l.bounds;
                    // Zero-size (or 1 px screen-reader-only) boxes that clip their content.
                    (b.width <= 1.0 || b.height <= 1.0) && l.style.clips() && !l.style.is_inline()
                }
                None => false,
            }
        }
    }
}

/// Page furniture: landmarks that are not content, overlays and `aria-hidden` subtrees.
fn is_furniture(dom: &Dom, id: usize) -> bool {
    let node = &dom.nodes[id];
    let Some(tag) = node.tag() else { return false };
    if node
        .attr("aria-hidden")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    {
        return true;
    }
    if node
        .layout
        .as_ref()
        .is_some_and(|l| l.style.is_fixed_or_sticky())
    {
        return true;
    }
    if let Some(role) = node.attr("role") {
        let role = role
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if role == "banner" {
            return !holds_title(dom, id);
        }
        if BOILERPLATE_ROLES.contains(&role.as_str()) {
            return true;
        }
        if !role.is_empty() && role != "none" && role != "presentation" {
            return false;
        }
    }
    match tag {
        "nav" | "aside" | "footer" => true,
        // A `<header>` is the site banner unless it is scoped to an article or section.
        "header" => !scoped_to_content(dom, id) && !holds_title(dom, id),
        _ => false,
    }
}

/// `header`/`footer` inside `article`, `aside`, `main`, `nav` or `section` are not the site's banner.
fn scoped_to_content(dom: &Dom, id: usize) -> bool {
    let mut cur = dom.nodes[id].parent;
    while let Some(p) = cur {
        if matches!(
            dom.nodes[p].tag(),
            Some("article" | "aside" | "main" | "nav" | "section")
        ) {
            return true;
        }
        cur = dom.nodes[p].parent;
    }
    false
}

/// The subtree has an `<h1>` with text outside links: the page's title, not a linked site logo.
fn holds_title(dom: &Dom, id: usize) -> bool {
    fn unlinked_text(dom: &Dom, id: usize, depth: usize) -> bool {
        let n = &dom.nodes[id];
        match &n.kind {
            NodeKind::Text(t) => n.layout.is_some() && !t.trim().is_empty(),
            NodeKind::Element { tag, .. } if tag == "a" => false,
            _ if depth > 64 => false,
            _ => n.children.iter().any(|&c| unlinked_text(dom, c, depth + 1)),
        }
    }
    fn find(dom: &Dom, id: usize, depth: usize) -> bool {
        let n = &dom.nodes[id];
        if n.tag() == Some("h1") {
            return unlinked_text(dom, id, 0);
        }
        depth < 64 && n.children.iter().any(|&c| find(dom, c, depth + 1))
    }
    find(dom, id, 0)
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

// ---- rendering ----

/// Renders the block IR as Markdown (CommonMark-style; blocks separated by a blank line).
pub fn render(blocks: &[Block]) -> String {
    let mut out = String::new();
    render_blocks(blocks, &mut out);
    out
}

fn render_blocks(blocks: &[Block], out: &mut String) {
    for b in blocks {
        let text = render_block(b);
        if text.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(&text);
    }
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
    let mut out = String::new();
    for b in blocks {
        let text = render_block(b);
        if text.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&text);
    }
    out
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

#[cfg(test)]
mod tests {
    use super::super::snapshot::build::{dom, e, t};
    use super::*;

    const URL: &str = "https://news.test/section/story.html";

    fn md(kids: Vec<super::super::snapshot::build::T>) -> String {
        to_markdown(&dom(URL, kids)).text
    }

    #[test]
    fn headings_paragraphs_and_collapsed_whitespace() {
        let got = md(vec![
            e("h1", &[], vec![t("  The   title ")]),
            e(
                "p",
                &[],
                vec![t("First\n   line"), e("br", &[], vec![]), t("second line")],
            ),
            e("h3", &[], vec![t("Sub")]),
        ]);
        assert_eq!(got, "# The title\n\nFirst line\nsecond line\n\n### Sub");
    }

    #[test]
    fn with_refs_links_of_the_list_carry_their_uid_and_only_same_origin_links_their_path() {
        let page = dom(
            URL,
            vec![e(
                "p",
                &[],
                vec![
                    e("a", &[("href", "/shop?item=2#top")], vec![t("Shop")]),
                    t(", "),
                    e("a", &[("href", "https://ads.test/c?id=9")], vec![t("Ad")]),
                    t(" and "),
                    e(
                        "a",
                        &[("href", "https://news.test:8443/x")],
                        vec![t("other port")],
                    ),
                    t(" and "),
                    e("a", &[("href", "/unlisted")], vec![t("unlisted")]),
                    t(", "),
                    e("a", &[("href", "#top")], vec![t("Top")]),
                ],
            )],
        );
        let anchors: Vec<i64> = page
            .nodes
            .iter()
            .filter(|n| n.tag() == Some("a"))
            .map(|n| n.backend_node_id)
            .collect();
        let uids: HashMap<i64, String> = [0, 1, 2, 4]
            .iter()
            .map(|&i| (anchors[i], format!("e{}", i + 4)))
            .collect();
        let (got, named) = with_refs(&build(&page), &uids, URL);
        assert_eq!(
            got.text,
            "[Shop](e4 /shop?item=2#top), [Ad](e5) and [other port](e6) and \
             [unlisted](https://news.test/unlisted), [Top](e8)"
        );
        assert!(!got.truncated);
        assert_eq!(named, ["e4", "e5", "e6", "e8"]);
        // The plain markdown of the same blocks keeps every URL.
        assert!(to_markdown(&page).text.starts_with(
            "[Shop](https://news.test/shop?item=2#top), [Ad](https://ads.test/c?id=9)"
        ));
    }

    #[test]
    fn brackets_of_the_page_text_are_escaped_so_text_cannot_pass_for_a_link_by_uid() {
        let page = dom(
            URL,
            vec![e(
                "p",
                &[],
                vec![
                    t("Follow [Keep my account](e1 /keep) now: "),
                    e(
                        "a",
                        &[("href", "/help")],
                        vec![t("Help](e1 /keep) or [Help")],
                    ),
                ],
            )],
        );
        let help = page
            .nodes
            .iter()
            .find(|n| n.tag() == Some("a"))
            .map(|n| n.backend_node_id)
            .unwrap();
        let uids: HashMap<i64, String> = [(help, "e0".to_string())].into_iter().collect();
        let (got, named) = with_refs(&build(&page), &uids, URL);
        assert_eq!(
            got.text,
            "Follow \\[Keep my account\\](e1 /keep) now: [Help\\](e1 /keep) or \\[Help](e0 /help)"
        );
        assert_eq!(named, ["e0"]);
    }

    #[test]
    fn the_cap_never_leaves_half_a_link() {
        let para = || {
            e(
                "p",
                &[],
                vec![
                    t("Some words of the paragraph, then "),
                    e(
                        "a",
                        &[("href", "/a/long/path/to/somewhere")],
                        vec![t("a link")],
                    ),
                    t(" [and a bracket]."),
                ],
            )
        };
        let page = dom(URL, (0..2000).map(|_| para()).collect());
        let got = to_markdown(&page);
        assert!(got.truncated);
        assert!(got.text.len() <= MARKDOWN_MAX_BYTES);
        let tail = &got.text[got.text.len() - 120..];
        let last_open = got.text.rfind("[a link]").unwrap();
        assert!(
            got.text[last_open..].contains("](https://news.test/a/long/path/to/somewhere)"),
            "{tail}"
        );
        assert!(!got.text.ends_with('!'), "{tail}");
    }

    #[test]
    fn links_are_absolute_and_same_page_or_script_links_are_text() {
        let got = md(vec![e(
            "p",
            &[],
            vec![
                t("See "),
                e("a", &[("href", "../other.html?a=1")], vec![t("the other")]),
                t(", "),
                e("a", &[("href", "#notes")], vec![t("notes")]),
                t(", "),
                e("a", &[("href", "javascript:void(0)")], vec![t("menu")]),
                t(" and "),
                e("a", &[("href", "https://x.test/a b")], vec![t(" spaced ")]),
            ],
        )]);
        assert_eq!(
            got,
            "See [the other](https://news.test/other.html?a=1), notes, menu and [spaced](https://x.test/a%20b)"
        );
    }

    #[test]
    fn images_need_alt_text_and_are_alt_text_inside_links() {
        let got = md(vec![
            e(
                "p",
                &[],
                vec![e("img", &[("src", "/a.png"), ("alt", "A chart")], vec![])],
            ),
            e(
                "p",
                &[],
                vec![e("img", &[("src", "/deco.png"), ("alt", "")], vec![])],
            ),
            e(
                "p",
                &[],
                vec![e(
                    "img",
                    &[("src", "data:image/png;base64,xyz"), ("alt", "inline")],
                    vec![],
                )],
            ),
            e(
                "p",
                &[],
                vec![e(
                    "a",
                    &[("href", "/home")],
                    vec![e("img", &[("src", "/logo.png"), ("alt", "Home")], vec![])],
                )],
            ),
        ]);
        assert_eq!(
            got,
            "![A chart](https://news.test/a.png)\n\n[Home](https://news.test/home)"
        );
    }

    #[test]
    fn nested_lists_keep_their_structure_and_numbering() {
        let got = md(vec![e(
            "ul",
            &[],
            vec![
                e("li", &[], vec![t("One")]),
                e(
                    "li",
                    &[],
                    vec![
                        t("Two"),
                        e(
                            "ol",
                            &[("start", "3")],
                            vec![
                                e("li", &[], vec![t("Three")]),
                                e("li", &[], vec![t("Four")]),
                            ],
                        ),
                    ],
                ),
            ],
        )]);
        assert_eq!(got, "- One\n- Two\n  3. Three\n  4. Four");
    }

    #[test]
    fn data_tables_become_markdown_tables_and_layout_tables_blocks() {
        let cell = |tag: &'static str, s: &'static str| e(tag, &[], vec![t(s)]);
        let got = md(vec![e(
            "table",
            &[],
            vec![e(
                "tbody",
                &[],
                vec![
                    e("tr", &[], vec![cell("th", "Name"), cell("th", "Qty")]),
                    e("tr", &[], vec![cell("td", "Apple | red"), cell("td", "3")]),
                    e("tr", &[], vec![cell("td", "Pear")]),
                ],
            )],
        )]);
        assert_eq!(
            got,
            "| Name | Qty |\n| --- | --- |\n| Apple \\| red | 3 |\n| Pear |  |"
        );
        let layout = md(vec![e(
            "table",
            &[],
            vec![e(
                "tr",
                &[],
                vec![
                    e(
                        "td",
                        &[],
                        vec![
                            e("h2", &[], vec![t("Story")]),
                            e("p", &[], vec![t("Body text.")]),
                        ],
                    ),
                    e("td", &[], vec![t("Side")]),
                ],
            )],
        )]);
        assert_eq!(layout, "## Story\n\nBody text.\n\nSide");
    }

    #[test]
    fn pre_keeps_whitespace_and_fences_around_backticks() {
        let got = md(vec![
            e(
                "pre",
                &[],
                vec![e(
                    "code",
                    &[("class", "language-rust")],
                    vec![t("fn main() {\n    x();\n}\n")],
                )],
            ),
            e(
                "p",
                &[],
                vec![t("Use "), e("code", &[], vec![t("a`b")]), t(".")],
            ),
            e("pre", &[], vec![t("```\ninner\n```")]),
        ]);
        assert_eq!(
            got,
            "```rust\nfn main() {\n    x();\n}\n```\n\nUse ``a`b``.\n\n````\n```\ninner\n```\n````"
        );
    }

    #[test]
    fn blockquotes_and_rules() {
        let got = md(vec![
            e(
                "blockquote",
                &[],
                vec![e("p", &[], vec![t("a")]), e("p", &[], vec![t("b")])],
            ),
            e("hr", &[], vec![]),
        ]);
        assert_eq!(got, "> a\n>\n> b\n\n---");
    }

    #[test]
    fn hidden_nodes_scripts_and_zero_size_boxes_are_dropped() {
        let got = md(vec![
            e(
                "p",
                &[],
                vec![t(
                    "Shown: the visible text, longer than all the hidden ones together.",
                )],
            ),
            e("p", &[("style", "display:none")], vec![t("display none")]),
            e("p", &[("style", "visibility:hidden")], vec![t("invisible")]),
            e("p", &[("hidden", "")], vec![t("hidden attr")]),
            e("p", &[("aria-hidden", "true")], vec![t("aria hidden")]),
            e(
                "div",
                &[("style", "width:0;height:0;overflow:hidden")],
                vec![t("zero size")],
            ),
            e("script", &[], vec![t("var x = 1;")]),
            e("style", &[], vec![t(".a{}")]),
            e("noscript", &[], vec![t("enable js")]),
            e("svg", &[], vec![t("svg text")]),
        ]);
        assert_eq!(
            got,
            "Shown: the visible text, longer than all the hidden ones together."
        );
    }

    #[test]
    fn math_is_its_tex_annotation_else_its_alttext_else_its_text() {
        let got = md(vec![
            // Wikipedia: the MathML (with TeX) hidden next to an aria-hidden image.
            e(
                "p",
                &[],
                vec![
                    t("Hermitian when "),
                    e(
                        "span",
                        &[("style", "display:none")],
                        vec![e(
                            "math",
                            &[],
                            vec![e(
                                "semantics",
                                &[],
                                vec![
                                    e("mrow", &[], vec![e("mi", &[], vec![t("A")])]),
                                    e(
                                        "annotation",
                                        &[("encoding", "application/x-tex")],
                                        vec![t("{\\displaystyle A=\\overline {A^{T}}}")],
                                    ),
                                ],
                            )],
                        )],
                    ),
                    e(
                        "img",
                        &[("aria-hidden", "true"), ("alt", "A"), ("src", "a.svg")],
                        vec![],
                    ),
                    t(" holds."),
                ],
            ),
            // MathJax's assistive MathML: presentation markup only.
            e(
                "p",
                &[],
                vec![
                    t("So "),
                    e(
                        "math",
                        &[],
                        vec![
                            e("mi", &[], vec![t("x")]),
                            e("mo", &[], vec![t("+")]),
                            e("mn", &[], vec![t("1")]),
                        ],
                    ),
                    t(" grows."),
                ],
            ),
            e(
                "math",
                &[("display", "block"), ("alttext", "E = mc^2")],
                vec![e("mi", &[], vec![t("E")])],
            ),
        ]);
        assert_eq!(
            got,
            "Hermitian when $A=\\overline {A^{T}}$ holds.\n\nSo x+1 grows.\n\n$$E = mc^2$$"
        );
    }

    #[test]
    fn sub_sup_abbr_ruby_and_output_keep_their_text_and_template_is_dropped() {
        let got = md(vec![
            e(
                "p",
                &[],
                vec![
                    t("H"),
                    e("sub", &[], vec![t("2")]),
                    t("O at 10"),
                    e("sup", &[], vec![t("3")]),
                    t(" "),
                    e("abbr", &[("title", "kelvin")], vec![t("K")]),
                    t(", "),
                    e("ruby", &[], vec![t("漢"), e("rt", &[], vec![t("kan")])]),
                    t(", total "),
                    e("output", &[], vec![t("42")]),
                ],
            ),
            e("template", &[], vec![t("template text")]),
        ]);
        assert_eq!(got, "H2O at 103 K, 漢kan, total 42");
    }

    #[test]
    fn navigation_footer_aside_banner_and_overlays_are_dropped() {
        let article = "The council voted on Tuesday to approve the plan after two years of debate.";
        let got = md(vec![
            e(
                "header",
                &[],
                vec![
                    e("a", &[("href", "/")], vec![t("Site")]),
                    e("nav", &[], vec![t("Home News Sport")]),
                ],
            ),
            e("div", &[("role", "navigation")], vec![t("Menu")]),
            e(
                "div",
                &[("style", "position:fixed")],
                vec![t("We use cookies")],
            ),
            e(
                "main",
                &[],
                vec![
                    e("h1", &[], vec![t("Council approves park")]),
                    e("p", &[], vec![t(article)]),
                ],
            ),
            e("aside", &[], vec![t("Related")]),
            e("div", &[("role", "complementary")], vec![t("Ads")]),
            e("footer", &[], vec![t("Copyright")]),
        ]);
        assert_eq!(got, format!("# Council approves park\n\n{article}"));
    }

    #[test]
    fn an_article_header_with_the_title_is_kept() {
        let got = md(vec![e(
            "article",
            &[],
            vec![
                e("header", &[], vec![e("h1", &[], vec![t("Title")])]),
                e("p", &[], vec![t("Text")]),
            ],
        )]);
        assert_eq!(got, "# Title\n\nText");
    }

    #[test]
    fn boilerplate_that_holds_the_main_content_is_kept() {
        // An app shell in a fixed container, and a page hidden from AT behind a modal.
        let got = md(vec![e(
            "div",
            &[("style", "position:fixed")],
            vec![e("p", &[], vec![t("All the content of the app.")])],
        )]);
        assert_eq!(got, "All the content of the app.");
        let got = md(vec![
            e(
                "div",
                &[("aria-hidden", "true")],
                vec![e(
                    "p",
                    &[],
                    vec![t("The article, long enough to be the page.")],
                )],
            ),
            e("div", &[("role", "dialog")], vec![t("Subscribe!")]),
        ]);
        assert_eq!(got, "The article, long enough to be the page.");
    }

    #[test]
    fn link_farms_are_dropped_but_a_page_that_is_a_list_of_links_is_kept() {
        let link = |s: &'static str| e("li", &[], vec![e("a", &[("href", "/x")], vec![t(s)])]);
        let story = "A long paragraph of the story that is what the reader came for, with many words in it.";
        let got = md(vec![
            e("p", &[], vec![t(story)]),
            e(
                "div",
                &[("class", "related")],
                vec![e("ul", &[], vec![link("One"), link("Two"), link("Three")])],
            ),
        ]);
        assert_eq!(got, story);
        let got = md(vec![e(
            "ul",
            &[],
            vec![
                link("First result"),
                link("Second result"),
                link("Third result"),
            ],
        )]);
        assert_eq!(got, "- [First result](https://news.test/x)\n- [Second result](https://news.test/x)\n- [Third result](https://news.test/x)");
    }

    #[test]
    fn inline_blocks_are_separated() {
        let got = md(vec![e(
            "p",
            &[],
            vec![
                e("button", &[], vec![t("Save")]),
                e("button", &[], vec![t("Cancel")]),
            ],
        )]);
        assert_eq!(got, "Save Cancel");
    }

    #[test]
    fn a_body_hidden_until_its_script_runs_is_still_read() {
        let got = md(vec![e("div", &[("style", "visibility:hidden")], vec![])]);
        assert_eq!(got, "");
        let d = dom(URL, vec![e("p", &[], vec![t("Loaded text")])]);
        let mut d = d;
        for n in d.nodes.iter_mut() {
            if let Some(l) = n.layout.as_mut() {
                if n.kind != NodeKind::Document {
                    l.style.visibility = "hidden".into();
                }
            }
        }
        assert_eq!(to_markdown(&d).text, "Loaded text");
    }

    #[test]
    fn markdown_is_capped_at_30_kib_on_a_char_boundary() {
        let para: &'static str = Box::leak("ж".repeat(1000).into_boxed_str()); // 2000 bytes
        let kids = (0..40).map(|_| e("p", &[], vec![t(para)])).collect();
        let got = to_markdown(&dom(URL, kids));
        assert!(got.truncated);
        assert!(got.text.len() <= MARKDOWN_MAX_BYTES && got.text.len() > MARKDOWN_MAX_BYTES - 4);
        assert!(got.text.chars().all(|c| c == 'ж' || c == '\n'));
        let small = to_markdown(&dom(URL, vec![e("p", &[], vec![t("x")])]));
        assert!(!small.truncated);
    }
}
