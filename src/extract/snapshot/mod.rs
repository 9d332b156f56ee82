//! The page as one owned DOM tree, built from a CDP `DOMSnapshot.captureSnapshot` response (SPEC §5).
//!
//! The snapshot is a set of flat, column-oriented documents (the main frame and every same-process
//! iframe) sharing one string table. [`Dom::from_snapshot`] turns it into the *composed* tree a user
//! sees: open and closed shadow roots replace their host's light children (with `<slot>`s filled by the
//! assigned light nodes), and a same-origin iframe's document is stitched in as the children of its
//! `<iframe>` element, all in document order. Every node keeps its `backendNodeId`, its computed style
//! ([`COMPUTED_STYLES`]) and its layout box, so the markdown converter and the AX filter need no
//! further CDP round trips.
//!
//! Rooms: [`model`] (the tree's types and whole-tree questions), [`decode`] (the raw response into
//! per-node rows), [`compose`] (rows → composed tree), [`frames`] (cross-origin frame parts) and
//! [`reach`] (what can be seen and reached); this file says what to ask CDP for.

mod compose;
mod decode;
mod frames;
mod model;
mod reach;
mod seen;

pub use compose::resolve_url;
pub use decode::SnapshotError;
pub use frames::{frame_label, parse_frame_label, part_backend, split_backend, FramePart};
pub use model::{
    is_captcha_frame_url, is_heading_tag, DocumentInfo, Dom, DomNode, Layout, NodeKind, Rect,
    Sight, Style, BLOCK_TAGS,
};

use crate::cdp::commands::DomSnapshotCaptureSnapshot;

/// The computed style properties requested from `DOMSnapshot.captureSnapshot`, in the order the
/// response's `layout.styles[i]` lists their values. Pass them as `computedStyles`.
pub const COMPUTED_STYLES: [&str; 15] = [
    "display",
    "visibility",
    "position",
    "overflow-x",
    "overflow-y",
    // What a person can see of a text (`seen`).
    "opacity",
    "color",
    "background-color",
    "font-size",
    "clip",
    "clip-path",
    "filter",
    "-webkit-text-fill-color",
    "background-clip",
    "background-image",
];

/// The `DOMSnapshot.captureSnapshot` params this module expects: the computed styles above, and
/// nothing optional. Layout `bounds` and the documents' scroll offsets are always in the answer;
/// `includeDOMRects` (offset, client and scroll rects of every box) is not asked for: nothing here
/// reads them, and they made the capture 30–60 % slower and its answer ~25 % bigger (measured with `bua-bench`).
pub fn capture_params() -> DomSnapshotCaptureSnapshot {
    DomSnapshotCaptureSnapshot {
        computed_styles: COMPUTED_STYLES.to_vec(),
        include_paint_order: true,
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) mod build;
