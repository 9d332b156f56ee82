//! The block IR between the DOM and the Markdown text ([`Block`], [`Inline`]): what
//! [`super::build`] produces and [`super::render`] writes.

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

/// Deepest nesting of the composed tree the conversion follows; deeper subtrees are cut (pathological
/// pages only), which keeps the recursion well inside a wasm stack.
pub(super) const MAX_DEPTH: usize = 512;
