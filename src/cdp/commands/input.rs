//! `Input` commands: mouse, keys, text, and HTML5 drags.

use crate::cdp::command::Empty;
use serde_json::Value;

command!(
    /// `Input.dispatchMouseEvent`.
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
    } => "Input.dispatchMouseEvent", Empty
);

command!(
    /// `Input.dispatchKeyEvent`.
    #[derive(PartialEq)]
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
    } => "Input.dispatchKeyEvent", Empty
);

command!(
    /// `Input.insertText`: text as an IME would commit it.
    pub struct InputInsertText {
        /// The text.
        pub text: String,
    } => "Input.insertText", Empty
);

command!(
    /// `Input.setInterceptDrags`: an HTML5 drag the page starts is reported as `Input.dragIntercepted`
    /// (with its data) instead of starting a platform drag, so it can be finished with
    /// [`InputDispatchDragEvent`].
    pub struct InputSetInterceptDrags {
        /// On or off.
        pub enabled: bool,
    } => "Input.setInterceptDrags", Empty
);

command!(
    /// `Input.dispatchDragEvent`.
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
    } => "Input.dispatchDragEvent", Empty
);
