//! The composed DOM's types ([`Dom`], [`DomNode`], [`Layout`], [`Rect`], …) and what a reader asks of
//! the tree as a whole: ancestors, base URLs, the page's URL, title and viewport, CAPTCHA frames.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// An axis-aligned box in CSS px, in the coordinates of the main frame's document (not the viewport:
/// subtract the main document's scroll offset to get viewport coordinates).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    /// Left edge, CSS px.
    pub x: f64,
    /// Top edge, CSS px.
    pub y: f64,
    /// Width, CSS px.
    pub width: f64,
    /// Height, CSS px.
    pub height: f64,
}

impl Rect {
    /// True when the box has no area.
    pub fn is_empty(&self) -> bool {
        self.width <= 0.0 || self.height <= 0.0
    }

    /// The part of the box inside `other` (empty when they do not overlap).
    pub fn intersection(&self, other: &Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        Rect {
            x,
            y,
            width: ((self.x + self.width).min(other.x + other.width) - x).max(0.0),
            height: ((self.y + self.height).min(other.y + other.height) - y).max(0.0),
        }
    }

    /// True when the two boxes overlap with a positive area.
    pub fn intersects(&self, other: &Rect) -> bool {
        !self.is_empty()
            && !other.is_empty()
            && self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }
}

/// The computed style values of [`COMPUTED_STYLES`] for one rendered node (empty when unknown).
///
/// The values are shared (`Rc<str>`): a page has a handful of distinct ones (`block`, `visible`, …) for
/// thousands of boxes, and one allocation per box and property was a tenth of an extract's own work.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Style {
    /// CSS `display`, e.g. `block`, `inline`, `flex`, `list-item`, `table-cell`.
    pub display: Rc<str>,
    /// CSS `visibility`: `visible`, `hidden` or `collapse`.
    pub visibility: Rc<str>,
    /// CSS `position`: `static`, `relative`, `absolute`, `fixed` or `sticky`.
    pub position: Rc<str>,
    /// CSS `overflow-x`.
    pub overflow_x: Rc<str>,
    /// CSS `overflow-y`.
    pub overflow_y: Rc<str>,
    /// CSS `opacity` (`1`, `0.5`).
    pub opacity: Rc<str>,
    /// CSS `color`, as Chrome computes it (`rgb(…)`, `rgba(…)`).
    pub color: Rc<str>,
    /// CSS `background-color`.
    pub background_color: Rc<str>,
    /// CSS `font-size` (`16px`).
    pub font_size: Rc<str>,
    /// CSS `clip` (`auto`, `rect(…)`).
    pub clip: Rc<str>,
    /// CSS `clip-path` (`none`, `inset(50%)`, …).
    pub clip_path: Rc<str>,
    /// CSS `filter` (`none`, `opacity(0)`, …).
    pub filter: Rc<str>,
    /// CSS `-webkit-text-fill-color`.
    pub text_fill: Rc<str>,
    /// CSS `background-clip` (`text` paints text through the background).
    pub background_clip: Rc<str>,
    /// CSS `background-image` (`none`, `url(…)`, gradients).
    pub background_image: Rc<str>,
}

impl Style {
    /// `visibility: hidden | collapse`.
    pub fn is_invisible(&self) -> bool {
        matches!(&*self.visibility, "hidden" | "collapse")
    }

    /// `position: fixed | sticky` (overlays, cookie banners, sticky bars).
    pub fn is_fixed_or_sticky(&self) -> bool {
        matches!(&*self.position, "fixed" | "sticky")
    }

    /// Overflow is clipped on either axis, so a zero-size box hides its content.
    pub fn clips(&self) -> bool {
        let clip = |v: &str| matches!(v, "hidden" | "clip" | "scroll" | "auto");
        clip(&self.overflow_x) || clip(&self.overflow_y)
    }

    /// Overflow is hidden, not scrollable, on either axis (`hidden`, `clip`): what lies outside the box
    /// cannot be brought into view.
    pub fn hides_overflow(&self) -> bool {
        let hides = |v: &str| matches!(v, "hidden" | "clip");
        hides(&self.overflow_x) || hides(&self.overflow_y)
    }

    /// The box is laid out inline (text flow continues around it).
    pub fn is_inline(&self) -> bool {
        let display = &*self.display;
        (display.starts_with("inline") && display != "inline-table")
            || display == "ruby"
            || display.is_empty()
    }
}

/// Layout information of a rendered node: its box (main-document coordinates) and computed style.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layout {
    /// The node's layout bounds (`layout.bounds`), shifted into main-document coordinates.
    pub bounds: Rect,
    /// The computed style of the node (for a text node: of its parent).
    pub style: Style,
    /// The order the page paints it in, within its document (`paintOrders`; 0 when unknown).
    pub paint_order: i64,
}

/// What a [`DomNode`] is.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// The root of the composed tree (the main frame's document node).
    Document,
    /// An element; `tag` is lowercase, attributes keep their order, names lowercase.
    Element {
        /// Lowercase tag name (`div`, `a`, `svg`, a custom element name, …).
        tag: String,
        /// `(name, value)` pairs as the page has them.
        attrs: Vec<(String, String)>,
    },
    /// A text node's raw `nodeValue` (whitespace not yet collapsed).
    Text(String),
}

/// One node of the composed tree.
#[derive(Debug, Clone, PartialEq)]
pub struct DomNode {
    /// Element, text or the document root.
    pub kind: NodeKind,
    /// Children in composed document order (indexes into [`Dom::nodes`]).
    pub children: Vec<usize>,
    /// Parent in the composed tree; `None` for the root.
    pub parent: Option<usize>,
    /// CDP `backendNodeId` of the node.
    pub backend_node_id: i64,
    /// Index into [`Dom::documents`] of the document (frame) the node belongs to.
    pub document: usize,
    /// Layout box and style; `None` when the node is not rendered (`display: none`, inside one,
    /// `display: contents`, comments, whitespace that produced no box, …).
    pub layout: Option<Layout>,
}

impl DomNode {
    /// Lowercase tag name for elements, `None` otherwise.
    pub fn tag(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Element { tag, .. } => Some(tag),
            _ => None,
        }
    }

    /// Value of the attribute `name` (case-insensitive name), if present.
    pub fn attr(&self, name: &str) -> Option<&str> {
        match &self.kind {
            NodeKind::Element { attrs, .. } => attrs
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str()),
            _ => None,
        }
    }

    /// The text of a text node.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Text(t) => Some(t),
            _ => None,
        }
    }
}

/// How much of a text node a person can see (SPEC §5 "What a person cannot see"; decided in `seen`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// On the page for a person to read (or not a text).
    Seen,
    /// Outside every box of an ancestor that hides its overflow (a carousel's next slide, a closed
    /// menu): not in view now, though the page can bring it there; names still read it.
    OutOfView,
    /// No person can read it: transparent, the background's colour, too small, off the page, clipped
    /// to nothing, covered.
    Unseen,
}

/// One document (frame) of the snapshot.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocumentInfo {
    /// `documentURL`.
    pub url: String,
    /// `document.title`.
    pub title: String,
    /// The size of the document's own box (its layout view), CSS px: the viewport (`innerWidth` ×
    /// `innerHeight`) of the frame; `None` when the snapshot has no box for it.
    pub viewport: Option<(f64, f64)>,
    /// `baseURL`: what relative links of this document resolve against.
    pub base_url: String,
    /// CDP frame id.
    pub frame_id: String,
    /// Scroll offset of the document, CSS px.
    pub scroll_x: f64,
    /// Scroll offset of the document, CSS px.
    pub scroll_y: f64,
    /// Where this document's origin lies in main-document coordinates (0,0 for the main frame).
    pub offset_x: f64,
    /// See `offset_x`.
    pub offset_y: f64,
    /// Whether the document is part of the composed tree (same-origin iframes reachable from the
    /// main frame); detached or unreachable documents are still listed.
    pub attached: bool,
    /// Which target's snapshot the document came from ([`FramePart`]): 0 for the tab's own, `k` for the
    /// `k`-th cross-origin frame target.
    pub part: usize,
}

/// The composed DOM of a page. Node 0 is the root ([`NodeKind::Document`]) when the tree is not empty.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dom {
    /// All nodes, in document order of the composed tree (preorder: a node, then its subtree, then its
    /// next sibling), so parents come before their children.
    pub nodes: Vec<DomNode>,
    /// Every document of the snapshot; index 0 is the main frame.
    pub documents: Vec<DocumentInfo>,
    /// URLs of every `<iframe>`/`<frame>` (its `src` resolved, or its loaded document's URL),
    /// including cross-origin ones whose content is not in the snapshot.
    pub iframe_urls: Vec<String>,
    /// `backendNodeId` → layout box (main-document coordinates), for every rendered node.
    pub rects: HashMap<i64, Rect>,
    /// `<iframe>` element `backendNodeId` → CDP frame id of its content document.
    pub frame_of_iframe: HashMap<i64, String>,
    /// `backendNodeId` → index into [`Dom::nodes`].
    pub by_backend: HashMap<i64, usize>,
    /// The resolved `action` URL of every `<form>` that has one.
    pub form_actions: Vec<String>,
    /// `backendNodeId` → current value of `<input>` / `<textarea>` elements (`inputValue`, `textValue`).
    pub input_values: HashMap<i64, String>,
    /// `backendNodeId`s of the checkbox and radio `<input>`s that are checked now (`inputChecked`).
    pub checked_inputs: HashSet<i64>,
    /// `backendNodeId`s of the `<option>`s that are selected now (`optionSelected`).
    pub selected_options: HashSet<i64>,
    /// Node index of each `<iframe>` that holds a cross-origin frame target → that frame's part.
    pub remote_frames: HashMap<usize, usize>,
    /// [`Dom::text_sight`], worked out at its first call (the markdown and the names both ask).
    pub(super) sight: std::cell::OnceCell<Vec<Sight>>,
}

impl Dom {
    /// The nearest ancestor of node `id` (not `id` itself) with tag `tag`.
    pub fn enclosing(&self, id: usize, tag: &str) -> Option<usize> {
        let mut cur = self.nodes.get(id)?.parent;
        while let Some(p) = cur {
            if self.nodes[p].tag() == Some(tag) {
                return Some(p);
            }
            cur = self.nodes[p].parent;
        }
        None
    }

    /// The ancestors of node `id` (not `id` itself), nearest first.
    pub fn ancestors(&self, id: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.nodes.get(id).and_then(|n| n.parent), |&p| {
            self.nodes[p].parent
        })
    }

    /// The nodes before node `id` in reverse document order of the composed tree, its ancestors among them
    /// (each after the nodes inside it that come before `id`): the nodes are in document order.
    pub fn preceding(&self, id: usize) -> impl DoubleEndedIterator<Item = usize> {
        (0..id.min(self.nodes.len())).rev()
    }

    /// The root node index (always 0 for a tree built by [`Dom::from_snapshot`]).
    pub fn root(&self) -> usize {
        0
    }

    /// The main frame's base URL (what relative links resolve against).
    pub fn base_url(&self) -> &str {
        self.documents
            .first()
            .map(|d| d.base_url.as_str())
            .unwrap_or("")
    }

    /// The base URL of the document that node `id` belongs to.
    pub fn base_url_of(&self, id: usize) -> &str {
        self.nodes
            .get(id)
            .and_then(|n| self.documents.get(n.document))
            .map(|d| d.base_url.as_str())
            .unwrap_or("")
    }

    /// The main document's URL, title and viewport size (CSS px), as the snapshot gives them: what
    /// `location.href`, `document.title` and `innerWidth` × `innerHeight` say. The viewport is `None`
    /// when the snapshot has no box for the document.
    pub fn page(&self) -> (&str, &str, Option<(f64, f64)>) {
        self.documents.first().map_or(("", "", None), |d| {
            (d.url.as_str(), d.title.as_str(), d.viewport)
        })
    }

    /// The viewport in main-document coordinates, for a viewport of `width` × `height` CSS px.
    pub fn viewport_rect(&self, width: f64, height: f64) -> Rect {
        let (x, y) = self
            .documents
            .first()
            .map(|d| (d.scroll_x, d.scroll_y))
            .unwrap_or((0.0, 0.0));
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    /// True when a known CAPTCHA provider's iframe is on the page (SPEC §5 `captchaFrame`).
    pub fn has_captcha_frame(&self) -> bool {
        self.iframe_urls.iter().any(|u| is_captcha_frame_url(u))
    }
}

/// The elements HTML displays as blocks by default (its user-agent stylesheet): how a node without a box of
/// its own (`display: contents`, a tree without layout) is read.
pub const BLOCK_TAGS: &[&str] = &[
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

/// Whether `tag` is a heading's (`h1` … `h6`).
pub fn is_heading_tag(tag: &str) -> bool {
    matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// True when `url` is the iframe of a known CAPTCHA provider: Cloudflare challenges / Turnstile,
/// hCaptcha, Google reCAPTCHA (google.com/recaptcha, recaptcha.net), also Arkose and GeeTest.
pub fn is_captcha_frame_url(url: &str) -> bool {
    let Ok(u) = url::Url::parse(url) else {
        return false;
    };
    let host = u.host_str().unwrap_or("").to_ascii_lowercase();
    let path = u.path().to_ascii_lowercase();
    let on = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    on("challenges.cloudflare.com")
        || on("hcaptcha.com")
        || on("recaptcha.net")
        || ((on("google.com") || on("recaptcha.google.com")) && path.starts_with("/recaptcha"))
        || on("arkoselabs.com")
        || on("funcaptcha.com")
        || on("geetest.com")
}
