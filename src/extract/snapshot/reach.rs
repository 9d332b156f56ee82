//! Whether a node can be seen and reached (SPEC §5 `visible`, `hidden`): its box, the containers that
//! clip it, and what a pointer can hit once the page is scrolled to it.

use super::model::{Dom, Rect, Style};

/// The smallest width and height (CSS px) of a box [`Dom::is_reachable`] takes for one a pointer can hit.
const MIN_HIT_PX: f64 = 2.0;

/// Descendants [`Dom::is_reachable`] looks at for a box when the node has none of its own.
const REACH_SEARCH_NODES: usize = 64;

impl Dom {
    /// Node `id`, or failing its own box one of its descendants (an inline `<a>` around a block, an icon
    /// link whose only box is its `<svg>`), has a box a pointer can hit once the page is scrolled to it: at
    /// least [`MIN_HIT_PX`] on each side, not pushed off to the left or top, and not inside a clipping
    /// container (`overflow` other than visible) that is itself thinner than that — a closed menu
    /// (`height: 0; overflow: hidden`), screen-reader-only text (a 1 px box that clips). A container that
    /// merely scrolls its content out of view does not count: scrolling brings it back. At most
    /// [`REACH_SEARCH_NODES`] descendants are looked at.
    pub fn is_reachable(&self, id: usize) -> bool {
        if id >= self.nodes.len() {
            return false;
        }
        if self.hittable(id) {
            return true;
        }
        let mut stack: Vec<usize> = self.nodes[id].children.clone();
        let mut seen = 0;
        while let Some(c) = stack.pop() {
            seen += 1;
            if seen > REACH_SEARCH_NODES {
                return false;
            }
            if self.hittable(c) {
                return true;
            }
            stack.extend(self.nodes[c].children.iter().copied());
        }
        false
    }

    /// Node `id`'s own box qualifies for [`Dom::is_reachable`].
    fn hittable(&self, id: usize) -> bool {
        let Some(layout) = self.nodes[id].layout.as_ref() else {
            return false;
        };
        let r = layout.bounds;
        r.width >= MIN_HIT_PX
            && r.height >= MIN_HIT_PX
            && r.x + r.width > 0.0
            && r.y + r.height > 0.0
            && !self.clipped_to_nothing(id)
    }

    /// A clipping container thinner than [`MIN_HIT_PX`] holds node `id`.
    fn clipped_to_nothing(&self, id: usize) -> bool {
        self.clipping_boxes(id)
            .any(|b| b.width < MIN_HIT_PX || b.height < MIN_HIT_PX)
    }

    /// The part of node `id`'s box that the containers clipping it leave on the page (what a person
    /// sees of it once the page itself is scrolled there); `None` without a box. A scroller that scrolled
    /// it away leaves nothing: it is not on screen, though a scroll brings it back.
    pub fn clipped_bounds(&self, id: usize) -> Option<Rect> {
        let own = self.nodes.get(id)?.layout.as_ref()?.bounds;
        Some(
            self.clipping_boxes(id)
                .fold(own, |r, clip| r.intersection(&clip)),
        )
    }

    /// The boxes of the containers (`overflow` other than visible) that clip node `id`, innermost first.
    /// Only the containers that clip it count: an absolutely positioned box escapes those between it and
    /// its positioned containing block, a fixed one escapes all. `html` and `body` clip to the viewport,
    /// which scrolls.
    fn clipping_boxes(&self, id: usize) -> impl Iterator<Item = Rect> + '_ {
        self.clipping_boxes_where(id, Style::clips)
    }

    /// [`Dom::clipping_boxes`] of the containers whose style `clips` says clip.
    pub(super) fn clipping_boxes_where(
        &self,
        id: usize,
        clips: fn(&Style) -> bool,
    ) -> impl Iterator<Item = Rect> + '_ {
        #[derive(PartialEq, Clone, Copy)]
        enum Escape {
            None,
            ToPositioned,
            All,
        }
        let escape_of =
            move |i: usize| match self.nodes[i].layout.as_ref().map(|l| &*l.style.position) {
                Some("fixed") => Escape::All,
                Some("absolute") => Escape::ToPositioned,
                _ => Escape::None,
            };
        let mut escape = escape_of(id);
        let mut cur = self.nodes[id].parent;
        std::iter::from_fn(move || {
            while let Some(p) = cur {
                cur = self.nodes[p].parent;
                let layout = self.nodes[p].layout.as_ref();
                let positioned = layout.is_some_and(|l| &*l.style.position != "static");
                if escape == Escape::ToPositioned && positioned {
                    // `p` is the containing block: its clip applies again.
                    escape = Escape::None;
                }
                let root = matches!(self.nodes[p].tag(), Some("html" | "body"));
                let clip = layout
                    .filter(|l| escape == Escape::None && !root && clips(&l.style))
                    .map(|l| l.bounds);
                if escape == Escape::None {
                    escape = escape_of(p);
                }
                if clip.is_some() {
                    return clip;
                }
            }
            None
        })
    }

    /// Node `id` has a non-empty box on the page (not pushed off to the left or top) that every
    /// clipping ancestor (`overflow` other than visible) overlaps: a user could scroll to it.
    pub fn is_rendered(&self, id: usize) -> bool {
        let Some(rect) = self
            .nodes
            .get(id)
            .and_then(|n| n.layout.as_ref())
            .map(|l| l.bounds)
        else {
            return false;
        };
        if rect.is_empty() || rect.x + rect.width <= 0.0 || rect.y + rect.height <= 0.0 {
            return false;
        }
        let mut cur = self.nodes[id].parent;
        while let Some(p) = cur {
            // `html`/`body` clip to the viewport (scroll locks under a modal), not to a container.
            let root = matches!(self.nodes[p].tag(), Some("html" | "body"));
            if let Some(l) = self.nodes[p].layout.as_ref().filter(|_| !root) {
                if l.style.clips() && !l.bounds.intersects(&rect) {
                    return false;
                }
            }
            cur = self.nodes[p].parent;
        }
        true
    }
}
