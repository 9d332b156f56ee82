//! Screenshots within what an MCP host takes ([`ScreenshotCap`]): an image over the side or byte cap
//! is captured again scaled down or as JPEG, and the result says so.

use bua_protocol::{Action, ImageFormat, Screenshot};
use serde_json::{json, Value};

use super::BrowserMcp;
use crate::client::action_params;
use crate::error::Result;

/// The default [`ScreenshotCap::max_side`], px: the longest side MCP hosts take without shrinking the
/// image themselves (Anthropic's vision guidance: images up to about 1568 px on the long side).
pub const DEFAULT_SCREENSHOT_MAX_SIDE: u32 = 1568;
/// The default [`ScreenshotCap::max_png_bytes`]: 1 MiB of PNG.
pub const DEFAULT_SCREENSHOT_MAX_PNG_BYTES: usize = 1024 * 1024;
/// JPEG quality of a screenshot sent as JPEG because its PNG was too large.
const CAPPED_JPEG_QUALITY: u8 = 80;

/// How big a screenshot `bua-bridge mcp` hands to the MCP host (`--screenshot-max-side`,
/// `--screenshot-max-png-bytes`). The client API and the CLI send what they ask for; only MCP caps,
/// because its images go straight into a model's context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenshotCap {
    /// Longest side, px; a larger image is captured again scaled down to it (`maxWidth`). 0: no limit.
    pub max_side: u32,
    /// Largest PNG, bytes; a larger one is captured again as JPEG. 0: no limit.
    pub max_png_bytes: usize,
}

impl Default for ScreenshotCap {
    fn default() -> Self {
        ScreenshotCap {
            max_side: DEFAULT_SCREENSHOT_MAX_SIDE,
            max_png_bytes: DEFAULT_SCREENSHOT_MAX_PNG_BYTES,
        }
    }
}

impl ScreenshotCap {
    /// The `maxWidth` that brings a `width`×`height` image within [`Self::max_side`] (keeping the
    /// aspect ratio, rounded down so neither side passes the cap); `None` when it fits already.
    pub fn max_width_for(&self, width: u32, height: u32) -> Option<u32> {
        let longest = width.max(height);
        if self.max_side == 0 || longest <= self.max_side {
            return None;
        }
        let scaled = u64::from(width) * u64::from(self.max_side) / u64::from(longest);
        Some(u32::try_from(scaled).unwrap_or(self.max_side).max(1))
    }

    /// Whether base64 `data` of a PNG decodes to more than [`Self::max_png_bytes`].
    pub(super) fn png_too_large(&self, data: &str) -> bool {
        self.max_png_bytes > 0 && data.len() / 4 * 3 > self.max_png_bytes
    }
}

impl BrowserMcp {
    /// `screenshot` within [`McpOptions::screenshot_cap`]: captured as asked; when the image's longest
    /// side is over the cap it is captured again scaled down (`maxWidth`), and when a PNG is over the
    /// byte cap it is captured again as JPEG. The result then carries `scaledFrom {width, height}` and a
    /// `note` saying what was done and which flag changes it, so the agent knows the image is smaller
    /// than the page (e.g. a `fullPage` capture of a long page).
    ///
    /// Errors: those of the `screenshot` action.
    pub(super) async fn capped_screenshot(&self, shot: &Screenshot) -> Result<Value> {
        let cap = self.options.screenshot_cap;
        let capture = |shot: Screenshot| async move {
            let screenshot = Action::Screenshot(shot);
            self.call(screenshot.name(), action_params(&screenshot))
                .await
        };
        let size = |r: &Value| {
            let side = |k: &str| {
                r.get(k)
                    .and_then(Value::as_u64)
                    .and_then(|v| u32::try_from(v).ok())
                    .unwrap_or(0)
            };
            (side("width"), side("height"))
        };
        let mut result = capture(shot.clone()).await?;
        let (width, height) = size(&result);
        let mut asked = shot.clone();
        let mut notes = Vec::new();
        if let Some(max_width) = cap.max_width_for(width, height) {
            asked.max_width = Some(max_width);
            result = capture(asked.clone()).await?;
            let (w, h) = size(&result);
            notes.push(format!(
                "scaled down from {width}x{height} to {w}x{h} px to fit the MCP image limit of {} px on the longest side (bua-bridge mcp --screenshot-max-side)",
                cap.max_side
            ));
        }
        let data = result.get("data").and_then(Value::as_str).unwrap_or("");
        if asked.format == ImageFormat::Png && cap.png_too_large(data) {
            let png_bytes = data.len() / 4 * 3;
            asked.format = ImageFormat::Jpeg;
            asked.quality = Some(CAPPED_JPEG_QUALITY);
            result = capture(asked).await?;
            notes.push(format!(
                "sent as JPEG (quality {CAPPED_JPEG_QUALITY}): the PNG was {} KiB, over the MCP limit of {} KiB (bua-bridge mcp --screenshot-max-png-bytes)",
                png_bytes / 1024,
                cap.max_png_bytes / 1024
            ));
        }
        if !notes.is_empty() {
            if let Value::Object(m) = &mut result {
                m.insert(
                    "scaledFrom".into(),
                    json!({"width": width, "height": height}),
                );
                m.insert("note".into(), Value::String(notes.join("; ")));
            }
        }
        Ok(result)
    }
}
