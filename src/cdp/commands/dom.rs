//! `DOM` commands: resolving and focusing nodes, their boxes and quads, hit tests, and the `<iframe>` that
//! holds a frame.

use super::RemoteObject;
use crate::cdp::command::Empty;
use serde::{Deserialize, Serialize};

/// `DOM.resolveNode`: a backend node as an object in the page.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DomResolveNode {
    /// The node.
    pub backend_node_id: i64,
    /// Object group of the result.
    pub object_group: String,
}
command!(DomResolveNode => "DOM.resolveNode", ResolvedNode);

/// The answer of [`DomResolveNode`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ResolvedNode {
    /// The node's object.
    #[serde(default)]
    pub object: RemoteObject,
}

/// `DOM.focus`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DomFocus {
    /// The element.
    pub object_id: String,
}
command!(DomFocus => "DOM.focus", Empty);

/// `DOM.scrollIntoViewIfNeeded`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DomScrollIntoViewIfNeeded {
    /// The element.
    pub object_id: String,
}
command!(DomScrollIntoViewIfNeeded => "DOM.scrollIntoViewIfNeeded", Empty);

/// `DOM.getContentQuads`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DomGetContentQuads {
    /// The element.
    pub object_id: String,
}
command!(DomGetContentQuads => "DOM.getContentQuads", ContentQuads);

/// The answer of [`DomGetContentQuads`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ContentQuads {
    /// One quad (`[x1, y1, … x4, y4]`, viewport CSS px) per box fragment.
    #[serde(default)]
    pub quads: Vec<Vec<f64>>,
}

/// `DOM.getNodeForLocation`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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
}
command!(DomGetNodeForLocation => "DOM.getNodeForLocation", NodeForLocation);

/// The answer of [`DomGetNodeForLocation`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeForLocation {
    /// The node at the point.
    #[serde(default)]
    pub backend_node_id: Option<i64>,
}

/// `DOM.getFrameOwner`: the `<iframe>` element that holds `frame_id`, in the target of its parent frame.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DomGetFrameOwner {
    /// The child frame (for an out-of-process frame: its target id).
    pub frame_id: String,
}
command!(DomGetFrameOwner => "DOM.getFrameOwner", FrameOwner);

/// The answer of [`DomGetFrameOwner`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FrameOwner {
    /// The `<iframe>` element.
    pub backend_node_id: i64,
}

/// `DOM.getBoxModel` of a backend node.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DomGetBoxModel {
    /// The element.
    pub backend_node_id: i64,
}
command!(DomGetBoxModel => "DOM.getBoxModel", BoxModelResponse);

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
