//! Frame targets (SPEC §5 "Frames"): a frame from another site runs in another renderer process and is a CDP
//! target of its own, which the tab's target cannot see into. Every attached tab (and, recursively, every frame
//! session) gets `Target.setAutoAttach {autoAttach, flatten}`; Chrome then reports each child frame with
//! `Target.attachedToTarget` and its end with `Target.detachedFromTarget`, and `chrome.debugger` addresses it as
//! `{tabId, sessionId}`. This module keeps the per-tab map of those sessions ([`super::target`]) up to date,
//! prepares each new frame session, and translates a frame's coordinates into the tab's viewport.

use super::commands::{
    DomGetBoxModel, DomGetFrameOwner, EmulationSetFocusEmulationEnabled,
    PageAddScriptToEvaluateOnNewDocument, RuntimeEvaluate, TargetDetachFromTarget,
};
use super::event::{AttachedToTarget, Event};
use super::target::{self, auto_attach_params, FrameSession, Target};
use super::{CdpError, Command};

/// Longest wait for frame sessions still being prepared before an extract reads the frames, ms.
const SETTLE_MS: u32 = 2_000;

/// Asks `target` to attach its child frames. A Chrome that refuses leaves cross-origin frames out of reach
/// (logged), as they were before this existed; nothing else depends on it.
pub async fn auto_attach(target: Target) {
    if let Err(e) = super::send(&target, &auto_attach_params()).await {
        crate::log::info(&format!(
            "tab {}: cannot auto-attach to frames: {e}",
            target.tab_id
        ));
    }
}

/// Waits (at most [`SETTLE_MS`]) until every frame session attached so far has asked for its own children,
/// so that a frame inside a frame is in the map before an extract reads it.
pub async fn settled(tab_id: i64) {
    let mut waited = 0;
    while target::pending(tab_id) > 0 && waited < SETTLE_MS {
        super::sleep(10).await;
        waited += 10;
    }
}

/// Handles the `Target` events of a tab's targets: `source_session` is the session the event came from
/// (`None`: the tab's own target). Returns whether the event was about frame targets.
pub fn on_event(tab_id: i64, source_session: Option<&str>, event: &Event) -> bool {
    match event {
        Event::AttachedToTarget(child) => {
            attached(tab_id, source_session, child);
            true
        }
        Event::DetachedFromTarget(child) => {
            target::session_gone(tab_id, &child.session_id);
            true
        }
        Event::TargetInfoChanged(changed) => {
            let info = &changed.target_info;
            target::set_url(tab_id, &info.target_id, &info.url);
            true
        }
        _ => false,
    }
}

fn attached(tab_id: i64, parent: Option<&str>, child: &AttachedToTarget) {
    let session_id = child.session_id.as_str();
    let info = &child.target_info;
    let target = Target::frame(tab_id, session_id);
    if info.kind != "iframe" {
        // Workers and the like: not ours to automate, and a paused one would stall its page.
        let parent = Target {
            tab_id,
            session_id: parent.map(str::to_owned),
        };
        let detach = TargetDetachFromTarget {
            session_id: session_id.to_owned(),
        };
        wasm_bindgen_futures::spawn_local(async move {
            let _ = super::send(&parent, &detach).await;
        });
        return;
    }
    let frame = FrameSession {
        session_id: session_id.to_owned(),
        frame_id: info.target_id.clone(),
        parent: parent.map(str::to_owned),
        url: info.url.clone(),
    };
    target::record(tab_id, frame);
    wasm_bindgen_futures::spawn_local(async move {
        prepare(&target).await;
        target::prepared(tab_id);
    });
}

/// What a frame target needs, as the tab got it in [`super::ensure_attached`]: its own children attached,
/// `navigator.webdriver === false`, and focus emulation so that a frame of a tab in the minimized agent
/// window counts as focused (SPEC §6).
async fn prepare(target: &Target) {
    auto_attach(target.clone()).await;
    let _ = super::send(
        target,
        &PageAddScriptToEvaluateOnNewDocument {
            source: super::WEBDRIVER_FALSE.to_owned(),
        },
    )
    .await;
    let _ = super::send(target, &EmulationSetFocusEmulationEnabled { enabled: true }).await;
    let _ = super::send(
        target,
        &RuntimeEvaluate {
            expression: format!("{} 0", super::WEBDRIVER_FALSE),
            ..Default::default()
        },
    )
    .await;
}

/// Where the viewport of `target`'s frame starts in the tab's top-level viewport, CSS px: the content boxes of
/// the `<iframe>` elements from the frame up to the tab, added up. `(0, 0)` for the top-level target.
///
/// Errors: [`CdpError`] with [`super::Failure::FrameGone`] when a frame of the chain is no longer attached.
pub async fn offset(target: &Target) -> Result<(f64, f64), CdpError> {
    let mut at = (0.0, 0.0);
    let mut current = target.session_id.clone();
    // A chain longer than the map is a cycle in a malformed map: stop.
    let mut hops = target::sessions(target.tab_id).len() + 1;
    while let Some(session) = current {
        let Some(frame) = target::session(target.tab_id, &session) else {
            return Err(CdpError {
                method: DomGetFrameOwner::METHOD,
                tab_id: target.tab_id,
                code: None,
                message: format!("frame session {session} is no longer attached"),
                failure: super::Failure::FrameGone,
            });
        };
        let parent = frame.parent_target(target.tab_id);
        let (x, y) = owner_origin(&parent, &frame.frame_id).await?;
        at = (at.0 + x, at.1 + y);
        current = frame.parent;
        hops = hops.saturating_sub(1);
        if hops == 0 {
            break;
        }
    }
    Ok(at)
}

/// The top-left corner of the content box of the `<iframe>` holding `frame_id`, in `parent`'s viewport.
async fn owner_origin(parent: &Target, frame_id: &str) -> Result<(f64, f64), CdpError> {
    let owner = super::send(
        parent,
        &DomGetFrameOwner {
            frame_id: frame_id.to_owned(),
        },
    )
    .await?;
    let boxes = super::send(
        parent,
        &DomGetBoxModel {
            backend_node_id: owner.backend_node_id,
        },
    )
    .await?;
    let q = &boxes.model.content;
    if q.len() < 8 {
        return Ok((0.0, 0.0));
    }
    let x = [q[0], q[2], q[4], q[6]]
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    let y = [q[1], q[3], q[5], q[7]]
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    Ok((x, y))
}

/// The `backendNodeId` of the `<iframe>` element holding frame session `frame`, in its parent's target.
pub async fn owner(tab_id: i64, frame: &FrameSession) -> Result<i64, CdpError> {
    let answer = super::send(
        frame.parent_target(tab_id),
        &DomGetFrameOwner {
            frame_id: frame.frame_id.clone(),
        },
    )
    .await?;
    Ok(answer.backend_node_id)
}
