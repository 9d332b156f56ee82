//! The params of the `Input` events the extension reads.

use serde::Deserialize;
use serde_json::Value;

/// `Input.dragIntercepted`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct DragIntercepted {
    /// The drag's `Input.DragData`, as Chrome sent it (handed back to `Input.dispatchDragEvent`).
    pub data: Option<Value>,
}
