//! `drag {from, to}` (SPEC §4): real mouse input from the element's centre to the target (press, several
//! moves, release), which mouse-driven sortable lists and boards follow. A page that starts an HTML5 drag
//! (`draggable=true`) would hand it to the platform, where no synthetic mouse can follow it; with
//! `Input.setInterceptDrags` on, Chrome reports it as `Input.dragIntercepted` instead, and the drag is
//! finished with `Input.dispatchDragEvent` (`dragEnter`, `dragOver`, `drop` at the target), so the page
//! sees `dragstart` … `drop` with its own `DataTransfer` data.

use super::ctx::Ctx;
use super::handler::{Handler, Traits};
use super::mouse::mouse;
use super::pointer::Point;
use crate::cdp::commands::{InputDispatchDragEvent, InputSetInterceptDrags};
use crate::cdp::{self, events, Event};
use crate::error::{Error, Result};
use bua_protocol::{Drag, DragResult, DropTarget};
use serde_json::Value;

/// Mouse moves between the press and the release.
const STEPS: u32 = 8;
/// Pause between moves, ms: one frame, for pages that follow the pointer per animation frame.
const STEP_MS: u32 = 16;
/// How long after the last move an HTML5 drag may still be reported, ms.
const INTERCEPT_GRACE_MS: u32 = 100;

/// `drag`.
///
/// Errors: locator errors for either element, `element_obstructed` / `element_not_found` as for `click`,
/// `invalid_action` for a point outside the viewport.
impl Handler for Drag {
    type Output = DragResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<DragResult> {
        let source = ctx.locate(&self.from).await?;
        let from = source.describe().await?;
        let (end, to) = match &self.to {
            DropTarget::Element(l) => {
                let target = ctx.locate(l).await?;
                let info = target.describe().await?;
                (target.clickable_point().await?, Some(info))
            }
            DropTarget::Point { x, y } => {
                let (w, h) = super::page::viewport(ctx.tab_id).await?.size();
                if *x >= w || *y >= h {
                    return Err(Error::InvalidAction(format!(
                    "to ({x}, {y}) is outside tab {tab_id}'s viewport ({w}×{h} CSS px); use a point inside it",
                    tab_id = ctx.tab_id
                )));
                }
                (Point { x: *x, y: *y }, None)
            }
        };
        let start = source.clickable_point().await?;
        let intercepting = cdp::send(ctx.tab_id, &InputSetInterceptDrags { enabled: true })
            .await
            .is_ok();
        let outcome = drag_between(ctx.tab_id, start, end).await;
        if intercepting {
            let _ = cdp::send(ctx.tab_id, &InputSetInterceptDrags { enabled: false }).await;
        }
        Ok(DragResult {
            from,
            to,
            x: end.x,
            y: end.y,
            html5: outcome?,
            tab_id: ctx.tab_id,
        })
    }
}

/// Press at `start`, move to `end`, drop; `true` when the page started an HTML5 drag.
async fn drag_between(tab_id: i64, start: Point, end: Point) -> Result<bool> {
    let mut intercepted = events::wait(tab_id, |event| matches!(event, Event::DragIntercepted(_)));
    mouse(tab_id, "mouseMoved", start, "none", 0).await?;
    mouse(tab_id, "mousePressed", start, "left", 1).await?;
    let mut data = None;
    for step in 1..=STEPS {
        let t = f64::from(step) / f64::from(STEPS);
        let p = Point {
            x: start.x + (end.x - start.x) * t,
            y: start.y + (end.y - start.y) * t,
        };
        mouse(tab_id, "mouseMoved", p, "left", 1).await?;
        if let Some(d) = drag_data(&mut intercepted) {
            data = Some(d);
            break;
        }
        cdp::sleep(STEP_MS).await;
    }
    if data.is_none() {
        if let Some(Ok(Some(Event::DragIntercepted(drag)))) =
            cdp::with_timeout(INTERCEPT_GRACE_MS, &mut intercepted).await
        {
            data = drag.data;
        }
    }
    let Some(data) = data else {
        mouse(tab_id, "mouseMoved", end, "left", 1).await?;
        mouse(tab_id, "mouseReleased", end, "left", 0).await?;
        return Ok(false);
    };
    for kind in ["dragEnter", "dragOver", "drop"] {
        let event = InputDispatchDragEvent {
            kind,
            x: end.x,
            y: end.y,
            data: data.clone(),
        };
        cdp::send(tab_id, &event).await?;
    }
    // The drop ended the drag; Chrome releases the button with it (a release now would be a stray mouseup).
    Ok(true)
}

/// The `Input.DragData` of a drag reported so far, if one was.
fn drag_data(rx: &mut events::Next) -> Option<Value> {
    match rx.try_recv() {
        Ok(Some(Some(Event::DragIntercepted(drag)))) => drag.data,
        _ => None,
    }
}
