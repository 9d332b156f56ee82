//! `Page` commands: enabling the domain, navigation and history, dialogs, frames, layout metrics,
//! screenshots, the file chooser and PDF printing.

use crate::cdp::command::Empty;
use serde::{Deserialize, Serialize};

command!(
    /// `Page.enable`.
    pub struct PageEnable => "Page.enable", Empty
);

command!(
    /// `Page.addScriptToEvaluateOnNewDocument`: `source` runs in every new document before its own scripts.
    pub struct PageAddScriptToEvaluateOnNewDocument {
        /// The script.
        pub source: String,
    } => "Page.addScriptToEvaluateOnNewDocument", Empty
);

command!(
    /// `Page.navigate`.
    pub struct PageNavigate {
        /// The URL to load.
        pub url: String,
    } => "Page.navigate", PageNavigateResponse
);

/// The answer of [`PageNavigate`], once the response has started (or the load failed).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PageNavigateResponse {
    /// Present when a new document is on its way (absent for a same-document navigation).
    #[serde(default)]
    pub loader_id: Option<String>,
    /// Chromium's net error name (`net::ERR_NAME_NOT_RESOLVED`, `net::ERR_ABORTED`) when the load failed.
    #[serde(default)]
    pub error_text: Option<String>,
}

command!(
    /// `Page.reload`.
    pub struct PageReload => "Page.reload", Empty
);

command!(
    /// `Page.stopLoading`: stops the pending navigation and the loading of the current document.
    pub struct PageStopLoading => "Page.stopLoading", Empty
);

command!(
    /// `Page.getNavigationHistory`.
    pub struct PageGetNavigationHistory => "Page.getNavigationHistory", NavigationHistory
);

/// The answer of [`PageGetNavigationHistory`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NavigationHistory {
    /// Index of the current entry in `entries`.
    #[serde(default)]
    pub current_index: i64,
    /// Oldest first.
    #[serde(default)]
    pub entries: Vec<NavigationEntry>,
}

/// One `Page.NavigationEntry`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct NavigationEntry {
    /// The entry's id (for [`PageNavigateToHistoryEntry`]).
    #[serde(default)]
    pub id: i64,
    /// Its URL (an error page keeps the URL that failed).
    #[serde(default)]
    pub url: String,
    /// Its title (may be empty).
    #[serde(default)]
    pub title: String,
}

command!(
    /// `Page.navigateToHistoryEntry`.
    pub struct PageNavigateToHistoryEntry {
        /// A [`NavigationEntry::id`].
        pub entry_id: i64,
    } => "Page.navigateToHistoryEntry", Empty
);

command!(
    /// `Page.resetNavigationHistory`.
    pub struct PageResetNavigationHistory => "Page.resetNavigationHistory", Empty
);

command!(
    /// `Page.handleJavaScriptDialog`.
    pub struct PageHandleJavaScriptDialog {
        /// Accept (OK) or dismiss (Cancel).
        pub accept: bool,
        /// The text an accepted `prompt` returns.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub prompt_text: Option<String>,
    } => "Page.handleJavaScriptDialog", Empty
);

command!(
    /// `Page.getFrameTree`.
    pub struct PageGetFrameTree => "Page.getFrameTree", FrameTreeResponse
);

/// The answer of [`PageGetFrameTree`] (the main frame only).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FrameTreeResponse {
    /// The tree, rooted at the main frame.
    pub frame_tree: FrameTree,
}

/// A `Page.FrameTree` node.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct FrameTree {
    /// The frame.
    pub frame: Frame,
}

/// A `Page.Frame`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Frame {
    /// The frame id.
    pub id: String,
}

command!(
    /// `Page.getLayoutMetrics`.
    pub struct PageGetLayoutMetrics => "Page.getLayoutMetrics", LayoutMetrics
);

/// The answer of [`PageGetLayoutMetrics`]; every size in CSS px unless said otherwise.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LayoutMetrics {
    /// The layout viewport.
    #[serde(default)]
    pub css_layout_viewport: LayoutViewport,
    /// The layout viewport in device px (deprecated by CDP, still the way to the device pixel ratio).
    #[serde(default)]
    pub layout_viewport: LayoutViewport,
    /// The visual viewport (pinch zoom included).
    #[serde(default)]
    pub css_visual_viewport: VisualViewport,
    /// The size of the whole document.
    #[serde(default)]
    pub css_content_size: ContentSize,
}

/// A `Page.LayoutViewport`.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LayoutViewport {
    /// Horizontal scroll offset.
    pub page_x: Option<f64>,
    /// Vertical scroll offset.
    pub page_y: Option<f64>,
    /// Width.
    pub client_width: Option<f64>,
    /// Height.
    pub client_height: Option<f64>,
}

/// A `Page.VisualViewport` (the offsets the extension reads).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct VisualViewport {
    /// Horizontal offset relative to the document.
    pub page_x: Option<f64>,
    /// Vertical offset relative to the document.
    pub page_y: Option<f64>,
}

/// A `DOM.Rect`'s size.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq)]
pub struct ContentSize {
    /// Width.
    pub width: Option<f64>,
    /// Height.
    pub height: Option<f64>,
}

command!(
    /// `Page.captureScreenshot`.
    pub struct PageCaptureScreenshot {
        /// `"png"` or `"jpeg"`.
        pub format: &'static str,
        /// Capture from the surface rather than the view.
        pub from_surface: bool,
        /// Capture the page beyond the viewport (full-page shots).
        pub capture_beyond_viewport: bool,
        /// The region to capture, in CSS px of the document, and its scale.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub clip: Option<Clip>,
        /// JPEG quality, 0–100.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub quality: Option<u32>,
    } => "Page.captureScreenshot", ScreenshotData
);

/// A `Page.Viewport` used as a screenshot clip.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Clip {
    /// Left, CSS px.
    pub x: f64,
    /// Top, CSS px.
    pub y: f64,
    /// Width, CSS px.
    pub width: f64,
    /// Height, CSS px.
    pub height: f64,
    /// Page scale factor.
    pub scale: f64,
}

/// The answer of [`PageCaptureScreenshot`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ScreenshotData {
    /// The image, base64.
    #[serde(default)]
    pub data: Option<String>,
}

command!(
    /// `Page.setInterceptFileChooserDialog`: a file chooser the page opens is reported as
    /// `Page.fileChooserOpened` (with the input's `backendNodeId`) instead of being shown.
    pub struct PageSetInterceptFileChooserDialog {
        /// On or off.
        pub enabled: bool,
    } => "Page.setInterceptFileChooserDialog", Empty
);

command!(
    /// `Page.printToPDF` (the PDF comes back base64 in the answer).
    pub struct PagePrintToPdf {
        /// Landscape pages.
        pub landscape: bool,
        /// Print background graphics.
        pub print_background: bool,
    } => "Page.printToPDF", PdfData
);

/// The answer of [`PagePrintToPdf`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct PdfData {
    /// The PDF, base64.
    #[serde(default)]
    pub data: Option<String>,
}
