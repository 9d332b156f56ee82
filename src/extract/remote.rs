//! The cross-origin frames of an extract (SPEC §5 "Frames"): each frame target's snapshot, read at once
//! with the tab's, and the key that names a frame across extracts and re-attaches ([`FrameKey`]).

use super::snapshot;
use crate::cdp::commands::PageGetLayoutMetrics;
use crate::cdp::{self, Command, Target};
use crate::error::Result;

/// Most cross-origin frame targets read by one extract (SPEC §5 "Frames").
const MAX_REMOTE_FRAMES: usize = 20;

/// Time allowed for `DOMSnapshot.captureSnapshot` on a big page, ms.
const SNAPSHOT_TIMEOUT_MS: u32 = 15_000;

/// Where a `backendNodeId` is valid, in a form that outlives one extract's part numbers and a frame
/// session's re-attach: `""` for the tab's own documents, the parent's key + `/` + the `<iframe>`'s
/// `backendNodeId` there for a cross-origin frame.
pub(super) type FrameKey = String;

/// The [`FrameKey`] of each part of an extract: part 0 the tab's, part `k` frame `k-1`'s.
pub(super) fn frame_keys(frames: &[RemoteFrame]) -> Vec<FrameKey> {
    let mut keys: Vec<FrameKey> = vec![String::new()];
    for f in frames {
        let parent = keys.get(f.parent).cloned().unwrap_or_default();
        // A frame whose owner could not be read is known by its session until it is read again.
        keys.push(match (f.owner, f.target.session()) {
            (0, Some(session)) => format!("{parent}/s{session}"),
            (owner, _) => format!("{parent}/{owner}"),
        });
    }
    keys
}

/// One CDP command whose (big) result is wanted as JSON text, with the snapshot timeout.
pub(super) async fn send_text<C: Command>(
    target: impl Into<Target>,
    command: &C,
) -> Result<String> {
    Ok(cdp::send_text(target, command, SNAPSHOT_TIMEOUT_MS).await?)
}

/// What one cross-origin frame target gave for an extract.
pub(super) struct RemoteFrame {
    /// Its session.
    pub(super) target: Target,
    /// The part holding its `<iframe>` (0: the tab's own documents).
    pub(super) parent: usize,
    /// The `<iframe>`'s `backendNodeId` in the parent's target.
    pub(super) owner: i64,
    /// `DOMSnapshot.captureSnapshot`, as JSON text.
    pub(super) snapshot: String,
}

/// A cross-origin frame's snapshot, or `None` when it failed or the frame has no room to show anything:
/// a frame whose `<iframe>` is `display: none` or a pixel wide (trackers, ad beacons, social widgets' message
/// channels — a real page has a dozen) has an empty viewport, and the markdown and the elements would drop
/// its content anyway (SPEC §5: hidden and zero-size nodes are not content). One `Page.getLayoutMetrics`
/// in the frame's own renderer is much cheaper than its snapshot, which would also compete with the
/// page's.
async fn frame_snapshot(target: &Target) -> Option<String> {
    // Only a viewport known to be empty skips the frame: without an answer it is read as before.
    if let Ok(metrics) = cdp::send(target, &PageGetLayoutMetrics {}).await {
        let viewport = metrics.css_layout_viewport;
        let too_small = |side: Option<f64>| side.is_some_and(|px| px < MIN_FRAME_SIDE_PX);
        if too_small(viewport.client_width) || too_small(viewport.client_height) {
            return None;
        }
    }
    send_text(target, &snapshot::capture_params()).await.ok()
}

/// A cross-origin frame narrower or lower than this (CSS px) is not read (see [`frame_snapshot`]).
const MIN_FRAME_SIDE_PX: f64 = 2.0;

/// The snapshots of the tab's cross-origin frame targets (at most [`MAX_REMOTE_FRAMES`]), in
/// the order they were attached, parents before children; part `k` is the `k-1`-th of the list. A frame that
/// fails (it navigated away meanwhile) or has no room to show anything ([`frame_snapshot`]) is left out, and
/// so is its content.
pub(super) async fn remote_frames(tab_id: i64) -> Vec<RemoteFrame> {
    cdp::frames::settled(tab_id).await;
    let mut sessions = cdp::target::sessions(tab_id);
    // Only frames whose parent is read too: the part numbers must point back at an earlier part.
    let mut kept: Vec<cdp::target::FrameSession> = Vec::new();
    for s in sessions.drain(..) {
        let parent_kept = s
            .parent
            .as_ref()
            .is_none_or(|p| kept.iter().any(|k| &k.session_id == p));
        if parent_kept && kept.len() < MAX_REMOTE_FRAMES {
            kept.push(s);
        }
    }
    let fetched = futures::future::join_all(kept.iter().map(|s| async move {
        let target = Target::frame(tab_id, &s.session_id);
        // At once: the owner is asked of the parent's renderer, busy with its own snapshot, while the
        // frame's renderer builds the frame's.
        let (owner, snapshot) =
            futures::future::join(cdp::frames::owner(tab_id, s), frame_snapshot(&target)).await;
        Some((snapshot?, owner.ok()?))
    }))
    .await;
    let mut out: Vec<RemoteFrame> = Vec::with_capacity(kept.len());
    for (s, got) in kept.iter().zip(fetched) {
        let parent = match &s.parent {
            None => 0,
            Some(p) => match kept.iter().position(|k| &k.session_id == p) {
                Some(i) => i + 1,
                None => continue,
            },
        };
        // A frame that failed keeps its slot (an empty snapshot) so that the part numbers stay put.
        let (snapshot, owner) = got.unwrap_or_else(|| ("{}".to_owned(), 0));
        out.push(RemoteFrame {
            target: Target::frame(tab_id, &s.session_id),
            parent,
            owner,
            snapshot,
        });
    }
    out
}
