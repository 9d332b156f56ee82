//! Whether a person can see a text on the rendered page (SPEC §5 "What a person cannot see"): the
//! markdown and element names leave out text that is on the page for a machine only — a place for
//! instructions the person watching never reads. Decided from the snapshot's computed styles, boxes and
//! paint order, for each text node:
//!
//! * transparent: its opacity through its ancestors (`opacity`, `filter: opacity()`), its colour's alpha, or a
//!   transparent `-webkit-text-fill-color` without `background-clip: text` (gradient text is painted through
//!   its background) leave under [`MIN_ALPHA`];
//! * the colour of what is behind it: text whose colour is within [`SAME_COLOUR`] of the nearest background
//!   colour under it (none found: the white canvas); a background image anywhere on the way means the
//!   colours cannot be compared, and the text counts as seen;
//! * too small or flattened: a font size under [`MIN_FONT_PX`], or a box under [`MIN_BOX_PX`] on a side
//!   (`transform: scale(0)`, `line-height: 0`);
//! * off the page: its box ends left of or above the page (negative positions, `text-indent: -9999px`,
//!   `translateX(-…)`), where no scrolling reaches;
//! * clipped away: inside a `clip: rect()` or `clip-path` that leaves nothing, or outside every box of an
//!   ancestor that hides its overflow (`overflow: hidden | clip`; a scroller's content is reachable, so it
//!   counts as seen). The last is [`Sight::OutOfView`]: the page can bring it into view (a carousel's
//!   next slide), so it leaves the markdown but still names the element it is in;
//! * covered: an element painted after it at full opacity, with an opaque background colour or an image, holds
//!   its whole box (a box larger than half the viewport does not count: a modal or a cookie wall is page
//!   furniture, read as such);
//! * right of a page that cannot be scrolled sideways (`html` or `body` hides its horizontal overflow): its box
//!   starts past the viewport's right edge.
//!
//! The opacity of `html` and `body` does not count: pages that fade their whole body in while they load show
//! that text a moment later (as SPEC §5 reads a body that is `visibility: hidden` while it loads).
//!
//! Limits: text drawn in an image or a canvas, colours close to a background image, text covered by an image
//! or by a box with a background image, and text under another frame's box are not judged.

use super::model::{Dom, Layout, NodeKind, Rect, Sight, Style};

/// Opacity (0–1) under which text counts as transparent.
const MIN_ALPHA: f64 = 0.1;
/// Largest difference (0–255) of each colour channel between text and background that reads as the same
/// colour.
const SAME_COLOUR: f64 = 12.0;
/// Smallest font size (CSS px) a person reads.
const MIN_FONT_PX: f64 = 4.0;
/// Smallest width and height (CSS px) of a text's box.
const MIN_BOX_PX: f64 = 2.0;
/// Largest share of the viewport a covering box may have and still count as hiding what is under it.
const MAX_COVER_SHARE: f64 = 0.5;

/// An sRGB colour with alpha, channels 0–255, alpha 0–1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Rgba {
    r: f64,
    g: f64,
    b: f64,
    a: f64,
}

impl Rgba {
    const WHITE: Rgba = Rgba {
        r: 255.0,
        g: 255.0,
        b: 255.0,
        a: 1.0,
    };

    /// A computed colour as Chrome writes it: `rgb(r, g, b)` or `rgba(r, g, b, a)`; `None` for other
    /// forms (`color(…)`, keywords), which then count as unknown.
    pub(super) fn parse(value: &str) -> Option<Rgba> {
        let v = value.trim();
        let inner = v
            .strip_prefix("rgba(")
            .or_else(|| v.strip_prefix("rgb("))?
            .strip_suffix(')')?;
        let parts: Vec<f64> = inner
            .split([',', ' ', '/'])
            .filter(|p| !p.is_empty())
            .map(|p| p.trim().parse::<f64>().ok())
            .collect::<Option<_>>()?;
        match parts.as_slice() {
            [r, g, b] => Some(Rgba {
                r: *r,
                g: *g,
                b: *b,
                a: 1.0,
            }),
            [r, g, b, a] => Some(Rgba {
                r: *r,
                g: *g,
                b: *b,
                a: *a,
            }),
            _ => None,
        }
    }

    fn same_as(&self, other: &Rgba) -> bool {
        (self.r - other.r).abs() <= SAME_COLOUR
            && (self.g - other.g).abs() <= SAME_COLOUR
            && (self.b - other.b).abs() <= SAME_COLOUR
    }
}

/// A CSS length in px (`12px`, `0`), else `None`.
fn px(value: &str) -> Option<f64> {
    let v = value.trim();
    v.strip_suffix("px").unwrap_or(v).trim().parse().ok()
}

/// The opacity a `filter` applies (`opacity(0)`, `opacity(20%)`, several multiplied); 1 without one.
pub(super) fn filter_opacity(filter: &str) -> f64 {
    let mut product = 1.0;
    let mut rest = filter;
    while let Some(at) = rest.find("opacity(") {
        rest = &rest[at + "opacity(".len()..];
        let arg = rest.split(')').next().unwrap_or("").trim();
        let value = match arg.strip_suffix('%') {
            Some(p) => p.trim().parse::<f64>().map(|p| p / 100.0),
            None => arg.parse::<f64>(),
        };
        product *= value.unwrap_or(1.0).clamp(0.0, 1.0);
    }
    product
}

/// Whether a computed `clip` (`rect(top, right, bottom, left)`) leaves nothing of the box.
pub(super) fn clip_is_empty(clip: &str) -> bool {
    let Some(inner) = clip
        .trim()
        .strip_prefix("rect(")
        .and_then(|s| s.strip_suffix(')'))
    else {
        return false;
    };
    let v: Vec<Option<f64>> = inner
        .split([',', ' '])
        .filter(|p| !p.is_empty())
        .map(px)
        .collect();
    match v.as_slice() {
        [Some(top), Some(right), Some(bottom), Some(left)] => {
            bottom - top <= 1.0 || right - left <= 1.0
        }
        _ => false,
    }
}

/// Whether a computed `clip-path` leaves nothing of a `width` × `height` box: an `inset()` whose opposite
/// insets meet, a `circle()` or `ellipse()` of radius 0.
pub(super) fn clip_path_is_empty(clip_path: &str, width: f64, height: f64) -> bool {
    let v = clip_path.trim();
    let args = |name: &str| {
        v.strip_prefix(name)
            .and_then(|s| s.split(')').next())
            .map(|s| s.split(" at ").next().unwrap_or(s).to_owned())
    };
    let length = |s: &str, of: f64| match s.strip_suffix('%') {
        Some(p) => p.parse::<f64>().ok().map(|p| p / 100.0 * of),
        None => px(s),
    };
    if let Some(a) = args("inset(") {
        let a = a.split(" round").next().unwrap_or(&a);
        let parts: Vec<&str> = a.split_whitespace().collect();
        let (t, r, b, l) = match parts.as_slice() {
            [all] => (*all, *all, *all, *all),
            [tb, rl] => (*tb, *rl, *tb, *rl),
            [t, rl, b] => (*t, *rl, *b, *rl),
            [t, r, b, l, ..] => (*t, *r, *b, *l),
            [] => return false,
        };
        let gone = |x: &str, y: &str, of: f64| match (length(x, of), length(y, of)) {
            (Some(x), Some(y)) => x + y >= of - 0.5,
            _ => false,
        };
        return gone(t, b, height) || gone(l, r, width);
    }
    for shape in ["circle(", "ellipse("] {
        if let Some(a) = args(shape) {
            let first = a.split_whitespace().next().unwrap_or("");
            return length(first, width.min(height)).is_some_and(|r| r <= 0.5);
        }
    }
    false
}

/// What is passed down the tree to decide a text node.
#[derive(Clone, Copy)]
struct Inherited {
    /// Opacity through the ancestors.
    opacity: f64,
    /// The nearest opaque background colour under the node; `None` when a background image is in the way.
    background: Option<Rgba>,
    /// An ancestor paints its text through its background (`background-clip: text`).
    clip_text: bool,
    /// An ancestor's `clip` or `clip-path` leaves nothing.
    clipped: bool,
}

impl Dom {
    /// For each node, how much of it a person can see as a text (the module doc's rules); [`Sight::Seen`]
    /// for elements and the document.
    pub fn text_sight(&self) -> &[Sight] {
        self.sight.get_or_init(|| self.find_sight())
    }

    fn find_sight(&self) -> Vec<Sight> {
        let n = self.nodes.len();
        let root = Inherited {
            opacity: 1.0,
            background: Some(Rgba::WHITE),
            clip_text: false,
            clipped: false,
        };
        // What each node passes down (a text node passes on its parent's), then the covers, then the texts.
        let mut down: Vec<Inherited> = Vec::with_capacity(n);
        for node in &self.nodes {
            let from = node.parent.map_or(root, |p| down[p]);
            let passed = match node.layout.as_ref() {
                None => from,
                Some(_) if matches!(node.kind, NodeKind::Text(_)) => from,
                // A page that hides its whole body while it loads (anti-flicker snippets fade it in from
                // a script) shows that text a moment later: the root's own opacity does not count.
                Some(layout) if matches!(node.tag(), Some("html" | "body")) => {
                    let mut style = layout.style.clone();
                    style.opacity = std::rc::Rc::from("1");
                    style.filter = std::rc::Rc::from("none");
                    pass_down(&from, &style, layout.bounds)
                }
                Some(layout) => pass_down(&from, &layout.style, layout.bounds),
            };
            down.push(passed);
        }
        let covers = self.covering_boxes(&down);
        let page_right = self.page_right();
        let mut sight = vec![Sight::Seen; n];
        for (i, node) in self.nodes.iter().enumerate() {
            let (NodeKind::Text(t), Some(layout)) = (&node.kind, node.layout.as_ref()) else {
                continue;
            };
            if t.trim().is_empty() {
                continue;
            }
            let from = node.parent.map_or(root, |p| down[p]);
            sight[i] = if page_right.is_some_and(|right| layout.bounds.x >= right) {
                Sight::Unseen
            } else {
                self.text_sight_of(i, layout, &from, &covers)
            };
        }
        sight
    }

    /// Where the page ends on the right when it cannot be scrolled sideways (`html` or `body` hides its
    /// horizontal overflow): the viewport's width. `None` when a person can scroll to whatever lies further.
    fn page_right(&self) -> Option<f64> {
        let width = self.documents.first()?.viewport?.0;
        self.nodes
            .iter()
            .filter(|n| n.document == 0 && matches!(n.tag(), Some("html" | "body")))
            .filter_map(|n| n.layout.as_ref())
            .any(|l| matches!(&*l.style.overflow_x, "hidden" | "clip"))
            .then_some(width)
    }

    /// How much of text node `id` (whose style is its parent's) can be seen.
    fn text_sight_of(
        &self,
        id: usize,
        layout: &Layout,
        from: &Inherited,
        covers: &[(usize, i64, Rect)],
    ) -> Sight {
        let (b, style) = (layout.bounds, &layout.style);
        let color = Rgba::parse(&style.color);
        let fill = Rgba::parse(&style.text_fill);
        let alpha = color.map_or(1.0, |c| c.a);
        let fill_gone = fill.is_some_and(|f| f.a < MIN_ALPHA)
            && !from.clip_text
            && !style.background_clip.contains("text");
        let unseen = from.clipped
            || from.opacity * alpha < MIN_ALPHA
            || fill_gone
            || px(&style.font_size).is_some_and(|f| f < MIN_FONT_PX)
            || b.width < MIN_BOX_PX
            || b.height < MIN_BOX_PX
            || b.x + b.width <= 0.0
            || b.y + b.height <= 0.0
            || matches!((color, from.background), (Some(c), Some(bg)) if c.same_as(&bg))
            || self.covered(id, layout, covers);
        if unseen {
            Sight::Unseen
        } else if self.hidden_by_overflow(id, b) {
            Sight::OutOfView
        } else {
            Sight::Seen
        }
    }

    /// An ancestor that hides its overflow (not a scroller) leaves nothing of `rect`.
    fn hidden_by_overflow(&self, id: usize, rect: Rect) -> bool {
        self.clipping_boxes_where(id, Style::hides_overflow)
            .any(|clip| !clip.intersects(&rect))
    }

    /// Elements that could cover text: an opaque background colour, or an image, shown at full opacity
    /// (`down`: what each node's ancestors pass down); `(node, paint order, box)`, each no larger than
    /// [`MAX_COVER_SHARE`] of the main frame's viewport.
    fn covering_boxes(&self, down: &[Inherited]) -> Vec<(usize, i64, Rect)> {
        let viewport = self
            .documents
            .first()
            .and_then(|d| d.viewport)
            .map_or(0.0, |(w, h)| w * h);
        self.nodes
            .iter()
            .enumerate()
            .filter_map(|(i, node)| {
                let l = node.layout.as_ref()?;
                if !matches!(node.kind, NodeKind::Element { .. }) || l.paint_order <= 0 {
                    return None;
                }
                let shown = down[i].opacity >= 0.95 && !down[i].clipped;
                let opaque = node.tag() == Some("img")
                    || Rgba::parse(&l.style.background_color).is_some_and(|c| c.a >= 0.95);
                let area = l.bounds.width * l.bounds.height;
                (shown && opaque && area > 0.0 && area <= viewport * MAX_COVER_SHARE).then_some((
                    i,
                    l.paint_order,
                    l.bounds,
                ))
            })
            .collect()
    }

    /// A covering box painted after text node `id` (box and paint order: `layout`; in the same document, not its
    /// ancestor) holds its box.
    fn covered(&self, id: usize, layout: &Layout, covers: &[(usize, i64, Rect)]) -> bool {
        let (order, rect) = (layout.paint_order, layout.bounds);
        let document = self.nodes[id].document;
        covers.iter().any(|&(c, paint, cover)| {
            paint > order
                && self.nodes[c].document == document
                && cover.x <= rect.x + 0.5
                && cover.y <= rect.y + 0.5
                && cover.x + cover.width >= rect.x + rect.width - 0.5
                && cover.y + cover.height >= rect.y + rect.height - 0.5
                && !self.is_ancestor(c, id)
        })
    }

    /// Node `a` is an ancestor of node `b`.
    fn is_ancestor(&self, a: usize, b: usize) -> bool {
        let mut cur = self.nodes[b].parent;
        while let Some(p) = cur {
            if p == a {
                return true;
            }
            cur = self.nodes[p].parent;
        }
        false
    }
}

/// What an element with `style` and box `bounds` passes to its subtree.
fn pass_down(from: &Inherited, style: &Style, bounds: Rect) -> Inherited {
    let own = opacity_of(&style.opacity) * filter_opacity(&style.filter);
    let background = if !style.background_image.is_empty() && &*style.background_image != "none" {
        None
    } else {
        match Rgba::parse(&style.background_color) {
            Some(c) if c.a >= 0.5 => Some(c),
            _ => from.background,
        }
    };
    Inherited {
        opacity: from.opacity * own,
        background,
        clip_text: from.clip_text || style.background_clip.contains("text"),
        clipped: from.clipped
            || clip_is_empty(&style.clip)
            || clip_path_is_empty(&style.clip_path, bounds.width, bounds.height),
    }
}

/// A computed `opacity` (`0.5`); 1 when unknown.
fn opacity_of(value: &str) -> f64 {
    value
        .trim()
        .parse::<f64>()
        .map_or(1.0, |o| o.clamp(0.0, 1.0))
}
