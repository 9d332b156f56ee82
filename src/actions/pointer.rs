//! Where to click an element, and whether the click would land on it (SPEC §4): `DOM.scrollIntoViewIfNeeded`,
//! the element's content quads (`DOM.getContentQuads`, CSS px in the main frame's viewport, iframes
//! included) clipped to the viewport, then a hit test at the chosen point (`DOM.getNodeForLocation`,
//! which sees into iframes and closed shadow roots). A point whose topmost element is neither the target,
//! inside it, nor a label of it is covered: `element_obstructed`, naming the cover.
//!
//! An element in a cross-origin frame (SPEC §5 "Frames") has its quads in its frame's viewport: they are moved
//! by the frame's offset in the tab's viewport ([`cdp::frames::offset`]), and the hit test is made at every
//! level, from the frame up to the tab: in each target the point must hit the element or the `<iframe>` that
//! leads to it.

use super::locator::Element;
use super::page::{self, Arg};
use crate::cdp::commands::{DomGetContentQuads, DomGetNodeForLocation, DomScrollIntoViewIfNeeded};
use crate::cdp::{self, CdpError, Failure, Target};
use crate::error::{Error, Result};

/// A point in the main frame's viewport, CSS px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// From the left edge.
    pub x: f64,
    /// From the top edge.
    pub y: f64,
}

/// Whether the node hit at a point (argument) is `this` element, inside it (composed tree, iframes
/// included), or a `<label>` whose control it is. Otherwise a short description of the hit element.
const HIT_CHECK: &str = r#"function(hit) {
  const up = n => n.parentNode || n.host || (n.nodeType === 9 && n.defaultView ? n.defaultView.frameElement : null) || null;
  for (let n = hit; n; n = up(n)) if (n === this) return null;
  for (let n = hit; n; n = up(n)) if (n.localName === 'label' && n.control === this) return null;
  const e = hit.nodeType === 1 ? hit : (hit.parentElement || hit.host);
  if (!e) return 'the page';
  let d = '<' + e.localName;
  if (e.id) d += ' id="' + e.id + '"';
  const cls = typeof e.className === 'string' ? e.className.trim() : '';
  if (cls) d += ' class="' + cls.split(/\s+/).slice(0, 3).join(' ') + '"';
  d += '>';
  let box = e;
  for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
    const p = getComputedStyle(n).position;
    if (p === 'fixed' || p === 'sticky') { box = n; break; }
  }
  if (box !== e) d += ' inside <' + box.localName + (box.id ? ' id="' + box.id + '"' : '') + '>';
  const pos = getComputedStyle(box).position;
  if (pos === 'fixed' || pos === 'sticky') d += ' (a ' + pos + ' overlay)';
  const text = (box.innerText || '').replace(/\s+/g, ' ').trim();
  if (text) d += ' "' + (text.length > 80 ? text.slice(0, 79) + '…' : text) + '"';
  return d;
}"#;

/// Candidate points inside a rectangle: the centre first, then four inner points.
pub fn candidates(left: f64, top: f64, right: f64, bottom: f64) -> Vec<Point> {
    let (w, h) = (right - left, bottom - top);
    let at = |fx: f64, fy: f64| Point {
        x: (left + w * fx).floor().max(left).min(right - 0.5).max(0.0),
        y: (top + h * fy).floor().max(top).min(bottom - 0.5).max(0.0),
    };
    vec![
        at(0.5, 0.5),
        at(0.25, 0.25),
        at(0.75, 0.25),
        at(0.25, 0.75),
        at(0.75, 0.75),
    ]
}

/// The part of a CDP quad (`[x1,y1,…,x4,y4]`) inside the viewport: `(left, top, right, bottom)`, or `None`
/// when it is empty (less than 1 px wide or tall).
pub fn clip_quad(quad: &[f64], viewport: (f64, f64)) -> Option<(f64, f64, f64, f64)> {
    if quad.len() != 8 {
        return None;
    }
    let xs = [quad[0], quad[2], quad[4], quad[6]];
    let ys = [quad[1], quad[3], quad[5], quad[7]];
    let min = |v: &[f64; 4]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |v: &[f64; 4]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let left = min(&xs).max(0.0);
    let top = min(&ys).max(0.0);
    let right = max(&xs).min(viewport.0);
    let bottom = max(&ys).min(viewport.1);
    (right - left >= 1.0 && bottom - top >= 1.0).then_some((left, top, right, bottom))
}

impl Element {
    /// Scrolls the element into view (unless it is already entirely in view) and returns a point on it that
    /// is not covered by another element.
    ///
    /// Errors: `element_not_found` (no box: hidden, `display:none`, zero size, or outside the viewport
    /// after scrolling), `element_obstructed` (every candidate point is covered; names the cover),
    /// `element_stale` / `element_not_found` when it left the document.
    pub async fn clickable_point(&self) -> Result<Point> {
        let tab_id = self.tab_id();
        let viewport = page::viewport(tab_id).await?;
        let quads = self.quads_in_tab().await?;
        if quads.iter().any(|q| inside(q, viewport.size())) {
            // In view by its box; an inner scroller may still clip it, then scrolling helps.
            match self.point_on(&quads, viewport).await {
                Err(Error::ElementObstructed(_) | Error::ElementNotFound(_)) => {}
                other => return other,
            }
        }
        self.scroll_into_view().await?;
        // Smooth scrolling moves the element for a while: wait until two reads a frame apart agree.
        let mut quads = self.quads_in_tab().await?;
        for _ in 0..40 {
            cdp::sleep(16).await;
            let again = self.quads_in_tab().await?;
            if again == quads {
                break;
            }
            quads = again;
        }
        let viewport = page::viewport(tab_id).await?;
        self.point_on(&quads, viewport).await
    }

    /// `DOM.scrollIntoViewIfNeeded`. A refusal other than the node or the page being gone (e.g. a node without
    /// a layout object) is no error here: [`Element::clickable_point`] then finds no visible box.
    pub async fn scroll_into_view(&self) -> Result<()> {
        let command = DomScrollIntoViewIfNeeded {
            object_id: self.object_id.clone(),
        };
        match cdp::send(&self.target, &command).await {
            Ok(_) => Ok(()),
            Err(e) if node_gone(&e) => Err(self.gone()),
            Err(e) if e.failure.is_target_gone() || e.failure == Failure::Timeout => Err(e.into()),
            Err(_) => Ok(()),
        }
    }

    /// The first candidate point of the element's quads (clipped to the viewport) that a click would reach.
    async fn point_on(&self, quads: &[Vec<f64>], viewport: page::Viewport) -> Result<Point> {
        let tab_id = self.tab_id();
        let rects: Vec<_> = quads
            .iter()
            .filter_map(|q| clip_quad(q, viewport.size()))
            .collect();
        if rects.is_empty() {
            return Err(Error::ElementNotFound(format!(
                "the element ({}) on tab {tab_id} has no visible box (hidden, display:none, zero size or off \
                 screen); call extract to see what is visible, or wait_for it to become visible",
                self.label
            )));
        }
        let levels = self.levels(viewport).await?;
        let mut cover = String::new();
        for (l, t, r, b) in rects {
            for point in candidates(l, t, r, b) {
                match hit_check(&levels, point).await? {
                    None => return Ok(point),
                    Some(c) if cover.is_empty() => cover = c,
                    Some(_) => {}
                }
            }
        }
        Err(Error::ElementObstructed(format!(
            "the element ({}) on tab {tab_id} is covered by {cover}; dismiss or close that first (for a cookie \
             banner or dialog click its accept/close button; extract lists it), then retry",
            self.label
        )))
    }

    /// The element's content quads in the tab's viewport (its frame's quads moved by the frame's offset).
    async fn quads_in_tab(&self) -> Result<Vec<Vec<f64>>> {
        Ok(shifted(
            self.content_quads().await?,
            self.frame_offset().await?,
        ))
    }

    async fn content_quads(&self) -> Result<Vec<Vec<f64>>> {
        let command = DomGetContentQuads {
            object_id: self.object_id.clone(),
        };
        match cdp::send(&self.target, &command).await {
            Ok(answer) => Ok(answer.quads),
            Err(e) if e.failure == Failure::NoContentQuads => Ok(Vec::new()),
            Err(e) if node_gone(&e) => Err(self.gone()),
            Err(e) => Err(e.into()),
        }
    }

    /// The offset of the element's frame in the tab's viewport (`(0, 0)` in the tab's own documents).
    pub async fn frame_offset(&self) -> Result<(f64, f64)> {
        if self.target.session().is_none() {
            return Ok((0.0, 0.0));
        }
        cdp::frames::offset(&self.target)
            .await
            .map_err(|e| match e.failure {
                Failure::FrameGone => self.gone(),
                _ => e.into(),
            })
    }

    /// The hit-test levels of the element: its own target first, then each `<iframe>` up to the tab.
    async fn levels(&self, viewport: page::Viewport) -> Result<Vec<Level>> {
        let tab_id = self.tab_id();
        let gone = |e: CdpError| match e.failure {
            Failure::FrameGone => self.gone(),
            _ => e.into(),
        };
        let mut levels = Vec::new();
        let mut target = self.target.clone();
        let mut object = self.object_id.clone();
        while let Some(session) = target.session_id.clone() {
            let frame = cdp::target::session(tab_id, &session).ok_or_else(|| self.gone())?;
            levels.push(Level {
                offset: cdp::frames::offset(&target).await.map_err(gone)?,
                viewport: page::viewport(&target).await?,
                target,
                object,
            });
            let owner = cdp::frames::owner(tab_id, &frame).await.map_err(gone)?;
            target = frame.parent_target(tab_id);
            object = page::resolve_backend(&target, owner)
                .await?
                .ok_or_else(|| self.gone())?;
        }
        levels.push(Level {
            target,
            object,
            offset: (0.0, 0.0),
            viewport,
        });
        Ok(levels)
    }
}

/// Whether a CDP error about a node means the node (or its page) is gone.
fn node_gone(e: &CdpError) -> bool {
    matches!(e.failure, Failure::NodeGone | Failure::ContextGone)
}

/// Whether a quad lies entirely inside the viewport (then there is nothing to scroll).
fn inside(quad: &[f64], viewport: (f64, f64)) -> bool {
    quad.len() == 8
        && quad
            .chunks(2)
            .all(|p| p[0] >= 0.0 && p[1] >= 0.0 && p[0] <= viewport.0 && p[1] <= viewport.1)
        && clip_quad(quad, viewport).is_some()
}

/// `quads` moved by `(dx, dy)`.
fn shifted(quads: Vec<Vec<f64>>, (dx, dy): (f64, f64)) -> Vec<Vec<f64>> {
    if dx == 0.0 && dy == 0.0 {
        return quads;
    }
    quads
        .into_iter()
        .map(|q| {
            q.chunks(2)
                .flat_map(|p| [p[0] + dx, p.get(1).copied().unwrap_or(0.0) + dy])
                .collect()
        })
        .collect()
}

/// One level of the hit test: in `target`, a click must reach `object` (the element, or the `<iframe>` that
/// holds the element's frame); `offset` is where `target`'s viewport starts in the tab's.
struct Level {
    target: Target,
    object: String,
    offset: (f64, f64),
    viewport: page::Viewport,
}

/// `None` when a click at `point` (tab viewport) reaches the element at every level; otherwise a description
/// of what is on top.
async fn hit_check(levels: &[Level], point: Point) -> Result<Option<String>> {
    for level in levels {
        let local = Point {
            x: point.x - level.offset.0,
            y: point.y - level.offset.1,
        };
        if let Some(cover) = hit_check_in(level, local).await? {
            return Ok(Some(cover));
        }
    }
    Ok(None)
}

/// [`hit_check`] in one target, at a point of its viewport.
async fn hit_check_in(level: &Level, point: Point) -> Result<Option<String>> {
    let target = &level.target;
    let Some(hit) = node_at(target, point, level.viewport).await? else {
        return Ok(Some("nothing (the point is outside the page)".to_owned()));
    };
    match page::call_value(
        target,
        &level.object,
        HIT_CHECK,
        &[Arg::Object(hit.clone())],
    )
    .await
    {
        Ok(v) => Ok(v.as_str().map(str::to_owned)),
        // The hit node lives in another frame's JavaScript world (an iframe over the target).
        Err(Error::Internal(_)) => {
            let tag = super::locator::describe_object(target, &hit)
                .await
                .map(|i| i.tag)
                .unwrap_or_else(|_| "element".to_owned());
            Ok(Some(format!("<{tag}> in another frame")))
        }
        Err(e) => Err(e),
    }
}

/// The topmost node at the viewport `point` (`DOM.getNodeForLocation`, pointer-events:none ignored) as an
/// object in the action's group; `None` when there is none. `DOM.getNodeForLocation` takes document
/// coordinates, so the viewport's scroll offset is added.
pub async fn node_at(
    target: impl Into<Target>,
    point: Point,
    viewport: page::Viewport,
) -> Result<Option<String>> {
    let target = target.into();
    let command = DomGetNodeForLocation {
        x: (point.x + viewport.page_x).floor() as i64,
        y: (point.y + viewport.page_y).floor() as i64,
        include_user_agent_shadow_dom: false,
        ignore_pointer_events_none: true,
    };
    let backend = match cdp::send(&target, &command).await {
        Ok(answer) => answer.backend_node_id,
        // No node at the point.
        Err(e) if e.failure == Failure::NodeGone => None,
        Err(e) => return Err(e.into()),
    };
    match backend {
        Some(b) => page::resolve_backend(&target, b).await,
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_quad_cuts_to_the_viewport() {
        let q = [-10.0, 5.0, 50.0, 5.0, 50.0, 25.0, -10.0, 25.0];
        assert_eq!(clip_quad(&q, (800.0, 600.0)), Some((0.0, 5.0, 50.0, 25.0)));
    }

    #[test]
    fn clip_quad_drops_boxes_outside_or_empty() {
        let below = [0.0, 700.0, 10.0, 700.0, 10.0, 720.0, 0.0, 720.0];
        assert_eq!(clip_quad(&below, (800.0, 600.0)), None);
        let flat = [0.0, 10.0, 10.0, 10.0, 10.0, 10.5, 0.0, 10.5];
        assert_eq!(clip_quad(&flat, (800.0, 600.0)), None);
        assert_eq!(clip_quad(&[1.0, 2.0], (800.0, 600.0)), None);
    }

    #[test]
    fn candidates_start_at_the_centre_and_stay_inside() {
        let c = candidates(10.0, 20.0, 110.0, 60.0);
        assert_eq!(c[0], Point { x: 60.0, y: 40.0 });
        for p in c {
            assert!(
                p.x >= 10.0 && p.x < 110.0 && p.y >= 20.0 && p.y < 60.0,
                "{p:?}"
            );
        }
    }
}
