//! The CDP commands the extension sends (CDP 1.3 and the tip-of-tree fields Chrome accepts), one params struct
//! per method, grouped by domain, with only the fields the extension uses. Names are `DomainMethod`
//! (`PageNavigate` is `Page.navigate`); an `Option` param is left out when `None`.

use super::command::{Answer, Command, Empty};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// `impl Command for $params { METHOD = $method; Response = $response }`.
macro_rules! command {
    ($params:ty => $method:literal, $response:ty) => {
        impl Command for $params {
            const METHOD: &'static str = $method;
            type Response = $response;
        }
    };
}

// ---- Page ----

/// `Page.enable`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PageEnable {}
command!(PageEnable => "Page.enable", Empty);

/// `Page.addScriptToEvaluateOnNewDocument`: `source` runs in every new document before its own scripts.
#[derive(Clone, Debug, Serialize)]
pub struct PageAddScriptToEvaluateOnNewDocument {
    /// The script.
    pub source: String,
}
command!(PageAddScriptToEvaluateOnNewDocument => "Page.addScriptToEvaluateOnNewDocument", Empty);

/// `Page.navigate`.
#[derive(Clone, Debug, Serialize)]
pub struct PageNavigate {
    /// The URL to load.
    pub url: String,
}
command!(PageNavigate => "Page.navigate", PageNavigateResponse);

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

/// `Page.reload`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PageReload {}
command!(PageReload => "Page.reload", Empty);

/// `Page.stopLoading`: stops the pending navigation and the loading of the current document.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PageStopLoading {}
command!(PageStopLoading => "Page.stopLoading", Empty);

/// `Page.getNavigationHistory`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PageGetNavigationHistory {}
command!(PageGetNavigationHistory => "Page.getNavigationHistory", NavigationHistory);

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

/// `Page.navigateToHistoryEntry`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageNavigateToHistoryEntry {
    /// A [`NavigationEntry::id`].
    pub entry_id: i64,
}
command!(PageNavigateToHistoryEntry => "Page.navigateToHistoryEntry", Empty);

/// `Page.resetNavigationHistory`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PageResetNavigationHistory {}
command!(PageResetNavigationHistory => "Page.resetNavigationHistory", Empty);

/// `Page.handleJavaScriptDialog`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageHandleJavaScriptDialog {
    /// Accept (OK) or dismiss (Cancel).
    pub accept: bool,
    /// The text an accepted `prompt` returns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_text: Option<String>,
}
command!(PageHandleJavaScriptDialog => "Page.handleJavaScriptDialog", Empty);

/// `Page.getFrameTree`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PageGetFrameTree {}
command!(PageGetFrameTree => "Page.getFrameTree", FrameTreeResponse);

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

/// `Page.getLayoutMetrics`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PageGetLayoutMetrics {}
command!(PageGetLayoutMetrics => "Page.getLayoutMetrics", LayoutMetrics);

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

/// `Page.captureScreenshot`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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
}
command!(PageCaptureScreenshot => "Page.captureScreenshot", ScreenshotData);

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

// ---- Emulation ----

/// `Emulation.setFocusEmulationEnabled`: the page behaves as focused even when its window is not.
#[derive(Clone, Debug, Serialize)]
pub struct EmulationSetFocusEmulationEnabled {
    /// On or off.
    pub enabled: bool,
}
command!(EmulationSetFocusEmulationEnabled => "Emulation.setFocusEmulationEnabled", Empty);

// ---- Runtime ----

/// `Runtime.enable`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RuntimeEnable {}
command!(RuntimeEnable => "Runtime.enable", Empty);

/// `Runtime.evaluate` in the main frame's main world.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeEvaluate {
    /// The expression.
    pub expression: String,
    /// Object group of the result (released with [`RuntimeReleaseObjectGroup`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
    /// Answer the result as JSON instead of a reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_by_value: Option<bool>,
    /// Do not pause on exceptions or report them to the console.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silent: Option<bool>,
    /// Wait for a promise result to settle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub await_promise: Option<bool>,
    /// Run as if the user had interacted (transient activation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_gesture: Option<bool>,
    /// Evaluate as the DevTools console would.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repl_mode: Option<bool>,
    /// Terminate the script after this many ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u32>,
}
command!(RuntimeEvaluate => "Runtime.evaluate", ScriptResult);

/// `Runtime.callFunctionOn` with `this` = `object_id`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeCallFunctionOn {
    /// `this`.
    pub object_id: String,
    /// A JavaScript function declaration.
    pub function_declaration: String,
    /// Its arguments.
    pub arguments: Vec<CallArgument>,
    /// Answer the result as JSON instead of a reference.
    pub return_by_value: bool,
    /// Object group of the result.
    pub object_group: String,
    /// Do not pause on exceptions or report them to the console.
    pub silent: bool,
    /// Wait for a promise result to settle.
    pub await_promise: bool,
}
command!(RuntimeCallFunctionOn => "Runtime.callFunctionOn", ScriptResult);

/// A `Runtime.CallArgument`: a JSON value or an object held in the page.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CallArgument {
    /// Passed by value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// A `Runtime.RemoteObjectId`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<String>,
}

/// `Runtime.releaseObjectGroup`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeReleaseObjectGroup {
    /// The group.
    pub object_group: String,
}
command!(RuntimeReleaseObjectGroup => "Runtime.releaseObjectGroup", Empty);

/// The answer of [`RuntimeEvaluate`] and [`RuntimeCallFunctionOn`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ScriptResult {
    /// The result (meaningless when `exception_details` is set).
    #[serde(default)]
    pub result: RemoteObject,
    /// Present when the script threw.
    #[serde(default)]
    pub exception_details: Option<ExceptionDetails>,
}

/// A `Runtime.RemoteObject` (the fields the actions read).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteObject {
    /// `object`, `function`, `string`, `number`, `boolean`, `undefined`, `symbol`, `bigint`.
    #[serde(rename = "type", default = "undefined")]
    pub kind: String,
    /// `node`, `array`, `null`, `map`, … for objects.
    #[serde(default)]
    pub subtype: Option<String>,
    /// CDP's description (`"button#save"`, `"Map(2)"`, …).
    #[serde(default)]
    pub description: Option<String>,
    /// Present for primitives (and for by-value results); a JSON `null` value is `Some(Null)`.
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Value>,
    /// `NaN`, `Infinity`, `-0`, `10n`: values JSON cannot carry.
    #[serde(default, rename = "unserializableValue")]
    pub unserializable: Option<String>,
    /// Present for objects held in the page.
    #[serde(default)]
    pub object_id: Option<String>,
}

impl Default for RemoteObject {
    fn default() -> Self {
        RemoteObject {
            kind: undefined(),
            subtype: None,
            description: None,
            value: None,
            unserializable: None,
            object_id: None,
        }
    }
}

impl RemoteObject {
    /// Parses a CDP `RemoteObject` JSON object; a malformed one reads as `undefined`.
    pub fn from_json(v: &Value) -> RemoteObject {
        RemoteObject::deserialize(v).unwrap_or_default()
    }

    /// Whether the object is a DOM node.
    pub fn is_node(&self) -> bool {
        self.subtype.as_deref() == Some("node")
    }
}

fn undefined() -> String {
    "undefined".to_owned()
}

/// A field that is present (even as `null`) is `Some`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A `Runtime.ExceptionDetails` (the fields the actions read).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ExceptionDetails {
    /// CDP's one-line text (`"Uncaught"`, a syntax error message).
    #[serde(default)]
    pub text: Option<String>,
    /// The thrown value.
    #[serde(default)]
    pub exception: Option<RemoteObject>,
}

// ---- DOM ----

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

// ---- Input ----

/// `Input.dispatchMouseEvent`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InputDispatchMouseEvent {
    /// `mouseMoved`, `mousePressed`, `mouseReleased`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Viewport x, CSS px.
    pub x: f64,
    /// Viewport y, CSS px.
    pub y: f64,
    /// `none`, `left`, …
    pub button: String,
    /// Buttons held, as a bit mask (1 = left).
    pub buttons: u32,
    /// `mouse`.
    pub pointer_type: &'static str,
    /// Clicks so far (for presses and releases).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub click_count: Option<u32>,
}
command!(InputDispatchMouseEvent => "Input.dispatchMouseEvent", Empty);

/// `Input.dispatchKeyEvent`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct InputDispatchKeyEvent {
    /// `keyDown` (with text), `rawKeyDown` (without), `keyUp`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Modifiers held: alt 1, ctrl 2, meta 4, shift 8.
    pub modifiers: u32,
    /// `KeyboardEvent.key`.
    pub key: String,
    /// `KeyboardEvent.code`.
    pub code: String,
    /// `keyCode`.
    pub windows_virtual_key_code: u32,
    /// `keyCode` again (CDP wants both).
    pub native_virtual_key_code: u32,
    /// `KeyboardEvent.location`.
    pub location: u32,
    /// The text the key produces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The text without modifiers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmodified_text: Option<String>,
    /// Editing commands the key runs (`selectAll`, `deleteBackward`, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<&'static str>,
}
command!(InputDispatchKeyEvent => "Input.dispatchKeyEvent", Empty);

/// `Input.insertText`: text as an IME would commit it.
#[derive(Clone, Debug, Serialize)]
pub struct InputInsertText {
    /// The text.
    pub text: String,
}
command!(InputInsertText => "Input.insertText", Empty);

// ---- Accessibility, DOMSnapshot (answers of megabytes, read as text with `cdp::send_text`) ----

/// `Accessibility.getFullAXTree` of the main frame, or of `frame_id`.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccessibilityGetFullAxTree {
    /// A same-origin frame; the main frame when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<String>,
}
command!(AccessibilityGetFullAxTree => "Accessibility.getFullAXTree", serde::de::IgnoredAny);

/// `Accessibility.getPartialAXTree` of one node, without its relatives (`fetchRelatives: false`).
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccessibilityGetPartialAxTree {
    /// The node whose AX node is wanted.
    pub backend_node_id: i64,
    /// Ancestors, siblings and children too; `false` for the node alone.
    pub fetch_relatives: bool,
}
command!(AccessibilityGetPartialAxTree => "Accessibility.getPartialAXTree", serde::de::IgnoredAny);

/// `DOMSnapshot.captureSnapshot`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DomSnapshotCaptureSnapshot {
    /// The computed style properties to include for each node.
    pub computed_styles: Vec<&'static str>,
}
impl Command for DomSnapshotCaptureSnapshot {
    const METHOD: &'static str = "DOMSnapshot.captureSnapshot";
    type Response = serde::de::IgnoredAny;
    const ANSWER: Answer = Answer::WithoutScriptText;
}

// ---- Target, frames (SPEC §5 "Frames") ----

/// `Target.setAutoAttach`: attach to the target's child frames (out-of-process iframes) as flat sessions that
/// `chrome.debugger` addresses as `{tabId, sessionId}`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetSetAutoAttach {
    /// Attach to existing and future children.
    pub auto_attach: bool,
    /// Whether new children wait for `Runtime.runIfWaitingForDebugger` (never: frames must not stall).
    pub wait_for_debugger_on_start: bool,
    /// Flat sessions (the only mode `chrome.debugger` supports).
    pub flatten: bool,
}
command!(TargetSetAutoAttach => "Target.setAutoAttach", Empty);

/// `Target.detachFromTarget`: lets go of a child we do not automate (workers).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetDetachFromTarget {
    /// The child's session.
    pub session_id: String,
}
command!(TargetDetachFromTarget => "Target.detachFromTarget", Empty);

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
/// `Runtime.addBinding`: `globalThis[name](payload)` in the page sends a `Runtime.bindingCalled` event; the
/// binding stays across navigations of the target until removed.
#[derive(Clone, Debug, Serialize)]
pub struct RuntimeAddBinding {
    /// The global function's name.
    pub name: String,
}
command!(RuntimeAddBinding => "Runtime.addBinding", Empty);

/// `Runtime.removeBinding`: stops the `Runtime.bindingCalled` events of [`RuntimeAddBinding`].
#[derive(Clone, Debug, Serialize)]
pub struct RuntimeRemoveBinding {
    /// The global function's name.
    pub name: String,
}
command!(RuntimeRemoveBinding => "Runtime.removeBinding", Empty);
// ---- Uploads, drags, logs and PDF ----

/// `Page.setInterceptFileChooserDialog`: a file chooser the page opens is reported as
/// `Page.fileChooserOpened` (with the input's `backendNodeId`) instead of being shown.
#[derive(Clone, Debug, Serialize)]
pub struct PageSetInterceptFileChooserDialog {
    /// On or off.
    pub enabled: bool,
}
command!(PageSetInterceptFileChooserDialog => "Page.setInterceptFileChooserDialog", Empty);

/// `Page.printToPDF` (the PDF comes back base64 in the answer).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PagePrintToPdf {
    /// Landscape pages.
    pub landscape: bool,
    /// Print background graphics.
    pub print_background: bool,
}
command!(PagePrintToPdf => "Page.printToPDF", PdfData);

/// The answer of [`PagePrintToPdf`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct PdfData {
    /// The PDF, base64.
    #[serde(default)]
    pub data: Option<String>,
}

/// `Input.setInterceptDrags`: an HTML5 drag the page starts is reported as `Input.dragIntercepted`
/// (with its data) instead of starting a platform drag, so it can be finished with
/// [`InputDispatchDragEvent`].
#[derive(Clone, Debug, Serialize)]
pub struct InputSetInterceptDrags {
    /// On or off.
    pub enabled: bool,
}
command!(InputSetInterceptDrags => "Input.setInterceptDrags", Empty);

/// `Input.dispatchDragEvent`.
#[derive(Clone, Debug, Serialize)]
pub struct InputDispatchDragEvent {
    /// `dragEnter`, `dragOver`, `drop` or `dragCancel`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Viewport x, CSS px.
    pub x: f64,
    /// Viewport y, CSS px.
    pub y: f64,
    /// The `Input.DragData` of the intercepted drag, as Chrome sent it.
    pub data: Value,
}
command!(InputDispatchDragEvent => "Input.dispatchDragEvent", Empty);

/// `Network.enable` (bodies are not asked for, so none are kept beyond Chrome's own buffer).
#[derive(Clone, Debug, Default, Serialize)]
pub struct NetworkEnable {}
command!(NetworkEnable => "Network.enable", Empty);

/// `Log.enable`: browser-side messages (failed loads, interventions) as `Log.entryAdded`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LogEnable {}
command!(LogEnable => "Log.enable", Empty);
