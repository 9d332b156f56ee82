//! The params of the `Page` events the extension reads.

use serde::Deserialize;

/// `Page.frameNavigated`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct FrameNavigated {
    /// The frame, as it is now.
    pub frame: NavigatedFrame,
}

/// The `Page.Frame` of [`FrameNavigated`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct NavigatedFrame {
    /// The frame id.
    pub id: String,
    /// The parent frame; `None` for the main frame.
    pub parent_id: Option<String>,
    /// The new document's URL.
    pub url: String,
}

/// `Page.navigatedWithinDocument`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct NavigatedWithinDocument {
    /// The frame.
    pub frame_id: String,
    /// Its new URL.
    pub url: String,
}

/// `Page.domContentEventFired`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct DomContentEventFired {
    /// `Network.MonotonicTime`, s.
    pub timestamp: Option<f64>,
}

/// `Page.loadEventFired`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct LoadEventFired {
    /// `Network.MonotonicTime`, s.
    pub timestamp: Option<f64>,
}

/// `Page.frameRequestedNavigation`, `Page.frameStartedNavigating`, `Page.frameStartedLoading`: a frame is
/// on its way to another document.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct FrameStarted {
    /// The frame.
    pub frame_id: String,
}

/// `Page.downloadWillBegin`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct DownloadWillBegin {
    /// What is downloaded.
    pub url: String,
    /// The file name the browser suggests.
    pub suggested_filename: String,
}

/// `Page.fileChooserOpened`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct FileChooserOpened {
    /// The `<input type=file>` whose chooser opened.
    pub backend_node_id: Option<i64>,
    /// `selectSingle` or `selectMultiple`.
    pub mode: String,
}

/// `Page.javascriptDialogOpening`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct JavascriptDialogOpening {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The dialog's message.
    pub message: String,
    /// A `prompt`'s default text.
    pub default_prompt: String,
}

/// `Page.javascriptDialogClosed`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct JavascriptDialogClosed {
    /// Whether it was accepted.
    pub result: bool,
}
