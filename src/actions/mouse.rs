//! Mouse input (SPEC §4): `Input.dispatchMouseEvent` (moved → pressed → released), and [`Element::click`]: a
//! click on an element at a point [`super::pointer`] checked, reported done only when the element's document
//! saw it. A dialog an input raises ends it at once ([`dialogs::race`]) instead of blocking it until a timeout.

use super::dialogs::{self, Raced};
use super::locator::Element;
use super::pointer::Point;
use crate::cdp::commands::InputDispatchMouseEvent;
use crate::cdp::{self, Target};
use crate::error::{Error, Result};
use serde_json::Value;

/// Marks, in the element's document, whether a trusted `click` arrives from now on (for 10 s at most). A
/// `click`, not a `mousedown`: what a click promises is the click event, and a press whose release was lost
/// (input dropped half-way) is no click.
const PROBE_ARM: &str = r#"function() {
  const w = this.ownerDocument.defaultView, K = Symbol.for('bua.clickProbe');
  if (w[K]) w[K].stop();
  const probe = { down: false };
  const on = e => { if (e.isTrusted) probe.down = true; };
  probe.stop = () => { w.removeEventListener('click', on, true); if (w[K] === probe) delete w[K]; };
  w.addEventListener('click', on, true);
  w[K] = probe;
  setTimeout(probe.stop, 10000);
  return true;
}"#;

/// Whether the armed probe ([`PROBE_ARM`]) saw the click; it stays armed for another try.
const PROBE_READ: &str = r#"function() {
  const p = this.ownerDocument.defaultView[Symbol.for('bua.clickProbe')];
  return p ? p.down : null;
}"#;

/// Disarms the probe.
const PROBE_STOP: &str = r#"function() {
  const p = this.ownerDocument.defaultView[Symbol.for('bua.clickProbe')];
  if (p) p.stop();
  return true;
}"#;

impl Element {
    /// Clicks the element: scrolled into view, hit-tested ([`Element::clickable_point`]), real mouse
    /// events, confirmed ([`Element::click_at`]); without the navigation wait of `click`: for controls such as
    /// checkboxes.
    pub async fn click(&self) -> Result<()> {
        let point = self.clickable_point().await?;
        self.click_at(point).await?;
        Ok(())
    }

    /// Clicks the element at `point` (tab viewport), and only reports it done when the element's document saw a
    /// trusted `click` (SPEC §4): Chrome can drop input to a tab (seen while it handles a frame's navigation
    /// to an unknown scheme) and to a cross-origin frame's process (SPEC §5 "Frames"), and a click nobody
    /// received must not be reported as done. When nothing arrived the click is sent once more — in a frame to
    /// the frame's own target, at the point in the frame's viewport (real input into that frame's widget, no
    /// routing); when still nothing arrived, the action fails. `false` when a dialog interrupted the click.
    ///
    /// Errors: `element_obstructed` when the page never received the click; as [`mouse_click`].
    pub async fn click_at(&self, point: Point) -> Result<bool> {
        let (tab_id, element) = (self.tab_id(), self);
        element.call(PROBE_ARM, &[]).await?;
        for attempt in 0..2 {
            let sent = if attempt == 0 || element.target.session().is_none() {
                mouse_click(tab_id, point).await?
            } else {
                let (dx, dy) = cdp::frames::offset(&element.target)
                    .await
                    .map_err(|_| element.gone())?;
                let local = Point {
                    x: point.x - dx,
                    y: point.y - dy,
                };
                mouse_click(&element.target, local).await?
            };
            if !sent {
                return Ok(false);
            }
            let mut seen = element.call(PROBE_READ, &[]).await;
            // The frame's process may still be handling the events the tab's target has acknowledged.
            for _ in 0..3 {
                if !matches!(seen, Ok(Value::Bool(false))) {
                    break;
                }
                cdp::sleep(30).await;
                seen = element.call(PROBE_READ, &[]).await;
            }
            match seen {
                Ok(Value::Bool(false)) => {
                    crate::log::info(&format!(
                        "tab {tab_id}: the frame of {} did not receive click {} at ({}, {})",
                        element.label,
                        attempt + 1,
                        point.x,
                        point.y
                    ));
                }
                // Received; or the page went away under the click (it navigated): the click happened.
                _ => {
                    let _ = element.call(PROBE_STOP, &[]).await;
                    return Ok(true);
                }
            }
        }
        let _ = element.call(PROBE_STOP, &[]).await;
        Err(Error::ElementObstructed(format!(
        "the click on the element ({}) at ({}, {}) of tab {tab_id} never reached its page (Chrome dropped the \
         input twice; a browser dialog may be showing on the tab); call extract, then click again or use \
         another element",
        element.label, point.x, point.y
    )))
    }
}

/// Sends one mouse event (to the tab, or to a frame target with a point of its viewport); `false` when a
/// dialog opened instead of an answer.
pub async fn mouse(
    target: impl Into<Target>,
    kind: &str,
    p: Point,
    button: &str,
    buttons: u32,
) -> Result<bool> {
    let event = InputDispatchMouseEvent {
        kind: kind.to_owned(),
        x: p.x,
        y: p.y,
        button: button.to_owned(),
        buttons,
        pointer_type: "mouse",
        click_count: (kind != "mouseMoved").then_some(1),
    };
    Ok(matches!(
        dialogs::race(target, &event).await?,
        Raced::Done(_)
    ))
}

/// moved → pressed → released at `p`; `false` when a dialog interrupted it (the click still happened up to
/// that point, as for a user).
pub async fn mouse_click(target: impl Into<Target>, p: Point) -> Result<bool> {
    let target = target.into();
    Ok(mouse(&target, "mouseMoved", p, "none", 0).await?
        && mouse(&target, "mousePressed", p, "left", 1).await?
        && mouse(&target, "mouseReleased", p, "left", 0).await?)
}
