//! Commands whose answers are megabytes, read as text with `cdp::send_text`: `Accessibility` and
//! `DOMSnapshot`.

use crate::cdp::command::{Answer, Command};
use serde::Serialize;

command!(
    /// `Accessibility.getPartialAXTree` of one node, without its relatives (`fetchRelatives: false`).
    #[derive(Default)]
    pub struct AccessibilityGetPartialAxTree {
        /// The node whose AX node is wanted.
        pub backend_node_id: i64,
        /// Ancestors, siblings and children too; `false` for the node alone.
        pub fetch_relatives: bool,
    } => "Accessibility.getPartialAXTree", serde::de::IgnoredAny
);

/// `DOMSnapshot.captureSnapshot`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DomSnapshotCaptureSnapshot {
    /// The computed style properties to include for each node.
    pub computed_styles: Vec<&'static str>,
    /// Each box's paint order (`layout.paintOrders`): which box is painted over which.
    pub include_paint_order: bool,
}
impl Command for DomSnapshotCaptureSnapshot {
    const METHOD: &'static str = "DOMSnapshot.captureSnapshot";
    type Response = serde::de::IgnoredAny;
    const ANSWER: Answer = Answer::WithoutScriptText;
}
