//! The params of the `Target` events that keep a tab's map of frame sessions (SPEC §5 "Frames").

use serde::Deserialize;

/// `Target.attachedToTarget`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AttachedToTarget {
    /// The new child's session (flat: `chrome.debugger` addresses it as `{tabId, sessionId}`).
    pub session_id: String,
    /// What the child is.
    #[serde(default)]
    pub target_info: TargetInfo,
}

/// `Target.detachedFromTarget`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DetachedFromTarget {
    /// The session that ended.
    pub session_id: String,
}

/// `Target.targetInfoChanged`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TargetInfoChanged {
    /// The target as it is now.
    pub target_info: TargetInfo,
}

/// A `Target.TargetInfo`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct TargetInfo {
    /// The target id (for a frame, its frame id).
    pub target_id: String,
    /// `iframe`, `worker`, `service_worker`, …
    #[serde(rename = "type")]
    pub kind: String,
    /// Its URL.
    pub url: String,
}
