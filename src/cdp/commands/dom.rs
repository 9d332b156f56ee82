//! `DOM` commands: resolving and focusing nodes, their boxes and quads, hit tests, and the `<iframe>` that
//! holds a frame.

use super::RemoteObject;
use crate::cdp::command::Empty;
use serde::Deserialize;

command!(
    /// `DOM.resolveNode`: a backend node as an object in the page.
    pub struct DomResolveNode {
        /// The node.
        pub backend_node_id: i64,
        /// Object group of the result.
        pub object_group: String,
    } => "DOM.resolveNode", ResolvedNode
);

/// The answer of [`DomResolveNode`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ResolvedNode {
    /// The node's object.
    #[serde(default)]
    pub object: RemoteObject,
}

command!(
    /// `DOM.focus`.
    pub struct DomFocus {
        /// The element.
        pub object_id: String,
    } => "DOM.focus", Empty
);

command!(
    /// `DOM.scrollIntoViewIfNeeded`.
    pub struct DomScrollIntoViewIfNeeded {
        /// The element.
        pub object_id: String,
    } => "DOM.scrollIntoViewIfNeeded", Empty
);

command!(
    /// `DOM.getContentQuads`.
    pub struct DomGetContentQuads {
        /// The element.
        pub object_id: String,
    } => "DOM.getContentQuads", ContentQuads
);

/// The answer of [`DomGetContentQuads`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ContentQuads {
    /// One quad (`[x1, y1, … x4, y4]`, viewport CSS px) per box fragment.
    #[serde(default)]
    pub quads: Vec<Vec<f64>>,
}

command!(
    /// `DOM.getNodeForLocation`.
    pub struct DomGetNodeForLocation {
        /// Document x, CSS px.
        pub x: i64,
        /// Document y, CSS px.
        pub y: i64,
        /// Whether user-agent shadow DOM nodes can be the answer.
        #[serde(rename = "includeUserAgentShadowDOM")]
        pub include_user_agent_shadow_dom: bool,
        /// Whether `pointer-events: none` elements are skipped (as a click does).
        pub ignore_pointer_events_none: bool,
    } => "DOM.getNodeForLocation", NodeForLocation
);

/// The answer of [`DomGetNodeForLocation`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeForLocation {
    /// The node at the point.
    #[serde(default)]
    pub backend_node_id: Option<i64>,
}

command!(
    /// `DOM.getFrameOwner`: the `<iframe>` element that holds `frame_id`, in the target of its parent frame.
    pub struct DomGetFrameOwner {
        /// The child frame (for an out-of-process frame: its target id).
        pub frame_id: String,
    } => "DOM.getFrameOwner", FrameOwner
);

/// The answer of [`DomGetFrameOwner`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FrameOwner {
    /// The `<iframe>` element.
    pub backend_node_id: i64,
}

command!(
    /// `DOM.getBoxModel` of a backend node.
    pub struct DomGetBoxModel {
        /// The element.
        pub backend_node_id: i64,
    } => "DOM.getBoxModel", BoxModelResponse
);

/// The answer of [`DomGetBoxModel`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct BoxModelResponse {
    /// The boxes.
    pub model: BoxModel,
}

/// The boxes of an element (quads `[x1, y1, … x4, y4]`, CSS px in its frame's viewport).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct BoxModel {
    /// The content box (inside padding and border): where a frame's document starts.
    #[serde(default)]
    pub content: Vec<f64>,
}
