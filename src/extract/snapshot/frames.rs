//! Cross-origin frame targets in one composed tree (SPEC §5 "Frames"): their snapshots as parts, the
//! frame ids `extract` shows (`f1`, `f2`, …) and the page-wide `backendNodeId`s.

use super::model::Dom;

/// The snapshot of a cross-origin frame target (SPEC §5 "Frames"), to be stitched in at its `<iframe>`.
#[derive(Debug, Clone, Copy)]
pub struct FramePart<'a> {
    /// The frame target's `DOMSnapshot.captureSnapshot` answer, as JSON text.
    pub snapshot: &'a str,
    /// The part whose document holds the `<iframe>` (0: the tab's own snapshot); an earlier part.
    pub parent: usize,
    /// The `<iframe>` element's `backendNodeId` in the parent part's target (as CDP gave it).
    pub owner: i64,
}

/// The frame id of part `part` that `extract` shows and `evaluate {frame}` takes: `f1`, `f2`, …
pub fn frame_label(part: usize) -> String {
    format!("f{part}")
}

/// The part of a frame id ([`frame_label`]), `None` when it is not one.
pub fn parse_frame_label(label: &str) -> Option<usize> {
    let digits = label.strip_prefix('f')?;
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Bits of a page-wide `backendNodeId` below the part number: ids are unique within one target (renderer
/// process) only, so the `k`-th frame target's ids are moved into a range of their own.
const PART_SHIFT: u32 = 32;

/// The page-wide id of `backend` of part `part` (see [`FramePart`]); part 0 keeps CDP's ids.
pub fn part_backend(part: usize, backend: i64) -> i64 {
    ((part as i64) << PART_SHIFT) | (backend & ((1i64 << PART_SHIFT) - 1))
}

/// The part and the target's own `backendNodeId` of a page-wide id ([`part_backend`]).
pub fn split_backend(id: i64) -> (usize, i64) {
    (
        usize::try_from(id >> PART_SHIFT).unwrap_or(0),
        id & ((1i64 << PART_SHIFT) - 1),
    )
}

impl Dom {
    /// The one-line marker the markdown puts where the cross-origin frame held by `<iframe>` node `id` starts
    /// (SPEC §5 "Frames"): `frame f<k>: <origin>`, `f<k>` being the frame id `evaluate` takes; `None` for
    /// other nodes.
    pub fn frame_marker(&self, id: usize) -> Option<String> {
        let part = *self.remote_frames.get(&id)?;
        let url = self
            .documents
            .iter()
            .find(|d| d.part == part)
            .map(|d| d.url.as_str())
            .unwrap_or("");
        let origin = url::Url::parse(url)
            .map(|u| u.origin().ascii_serialization())
            .ok()
            .filter(|o| o != "null")
            .unwrap_or_else(|| url.to_owned());
        Some(format!("frame {}: {origin}", frame_label(part)))
    }
}
