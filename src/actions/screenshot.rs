//! `screenshot {fullPage?, format?, quality?, maxWidth?}` (SPEC §4): `Page.captureScreenshot`, which also
//! works for a tab in the minimized agent window (focus emulation is enabled on attach; the dispatcher shows the
//! window and brings a background tab forward first, `windows::with_window_shown`). `fullPage` captures
//! the whole document (`captureBeyondViewport`, at most [`MAX_FULL_PAGE_HEIGHT`] CSS px tall); `maxWidth`
//! scales the image down to at most that many pixels wide. `width`/`height` are read from the image itself.

use super::ctx::Ctx;
use super::handler::{Handler, Traits, Window};
use crate::cdp::commands::{Clip, PageCaptureScreenshot, PageGetLayoutMetrics};
use crate::cdp::{self, Failure};
use crate::error::{Error, Result};
use base64::Engine;
use bua_protocol::{ImageFormat, Screenshot, ScreenshotResult};

/// The tallest full-page capture, CSS px (GPU texture limits; longer pages are cut at the bottom).
pub const MAX_FULL_PAGE_HEIGHT: f64 = 16_384.0;
/// The largest image returned, bytes of base64 (the bridge frame cap is 16 MiB).
pub const MAX_DATA_BYTES: usize = 12 * 1024 * 1024;
/// `Page.captureScreenshot` time limit, ms (the action has 15 s).
const CAPTURE_TIMEOUT_MS: u32 = 12_000;

/// Image size in pixels from the first bytes of a PNG (IHDR) or JPEG (first SOFn marker).
pub fn image_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() >= 24 && bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        let w = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
        let h = u32::from_be_bytes([bytes[20], bytes[21], bytes[22], bytes[23]]);
        return Some((w, h));
    }
    if bytes.len() >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8 {
        let mut i = 2;
        while i + 9 < bytes.len() {
            if bytes[i] != 0xFF {
                i += 1;
                continue;
            }
            let marker = bytes[i + 1];
            if marker == 0xFF {
                i += 1;
                continue;
            }
            let len = usize::from(u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]));
            let is_sof = (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
            if is_sof {
                let h = u16::from_be_bytes([bytes[i + 5], bytes[i + 6]]);
                let w = u16::from_be_bytes([bytes[i + 7], bytes[i + 8]]);
                return Some((u32::from(w), u32::from(h)));
            }
            if matches!(marker, 0xD8 | 0x01 | 0xD0..=0xD7) {
                i += 2;
            } else {
                i += 2 + len;
            }
        }
    }
    None
}

/// Decodes enough of a base64 image for [`image_size`]: PNG needs 24 bytes, a JPEG's SOF usually sits in
/// the first few hundred; the whole image is decoded only when the prefix is not enough.
fn decoded_size(data: &str) -> Option<(u32, u32)> {
    let engine = base64::engine::general_purpose::STANDARD;
    let prefix_len = data.len().min(64 * 1024) / 4 * 4;
    engine
        .decode(&data[..prefix_len])
        .ok()
        .and_then(|b| image_size(&b))
        .or_else(|| engine.decode(data).ok().and_then(|b| image_size(&b)))
}

/// The element's border box in document CSS px `(x, y, width, height)`, after scrolling it into view
/// (`getBoundingClientRect` plus the scroll offset: `Page.captureScreenshot` clips in document coordinates).
///
/// Errors: locator errors; `element_not_found` when it has no box (hidden, `display:none`, zero size).
async fn element_box(tab_id: i64, locator: &bua_protocol::Locator) -> Result<(f64, f64, f64, f64)> {
    const RECT: &str = r#"function() {
  this.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = this.getBoundingClientRect(), v = this.ownerDocument.defaultView;
  return [r.left + v.scrollX, r.top + v.scrollY, r.width, r.height];
}"#;
    let element = super::locator::resolve(tab_id, locator).await?;
    let rect = element.call(RECT, &[]).await?;
    let n = |i: usize| {
        rect.get(i)
            .and_then(serde_json::Value::as_f64)
            .unwrap_or(0.0)
    };
    let (x, y, w, h) = (n(0), n(1), n(2), n(3));
    if w < 1.0 || h < 1.0 {
        return Err(Error::ElementNotFound(format!(
            "the element ({}) on tab {tab_id} has no visible box to capture (hidden, display:none or zero              size); call extract to see what is visible",
            element.label
        )));
    }
    Ok((x, y, w, h))
}

/// `screenshot`.
///
/// Errors: `invalid_action` when the image would be larger than the bridge can carry (use jpeg,
/// `maxWidth` or no `fullPage`), `timeout` when Chrome produces no frame in time.
impl Handler for Screenshot {
    type Output = ScreenshotResult;
    const TRAITS: Traits = Traits::PAGE.with_window(Window::Shown);

    async fn run(&self, ctx: &Ctx) -> Result<ScreenshotResult> {
        let metrics = cdp::send(ctx.tab_id, &PageGetLayoutMetrics {}).await?;
        let (vw, vh) = (
            metrics.css_layout_viewport.client_width.unwrap_or(800.0),
            metrics.css_layout_viewport.client_height.unwrap_or(600.0),
        );
        // Device pixels per CSS px: the deprecated device-px viewport over the CSS one.
        let dpr = metrics
            .layout_viewport
            .client_width
            .map(|d| d / vw)
            .filter(|r| r.is_finite() && *r > 0.0)
            .unwrap_or(1.0);
        let element = match &self.locator {
            Some(locator) => Some(element_box(ctx.tab_id, locator).await?),
            None => None,
        };
        let (x, y, width, height) = if let Some(rect) = element {
            rect
        } else if self.full_page {
            let w = metrics.css_content_size.width.unwrap_or(vw).max(vw).ceil();
            let h = metrics
                .css_content_size
                .height
                .unwrap_or(vh)
                .clamp(1.0, MAX_FULL_PAGE_HEIGHT)
                .ceil();
            (0.0, 0.0, w, h)
        } else {
            (
                metrics.css_visual_viewport.page_x.unwrap_or(0.0),
                metrics.css_visual_viewport.page_y.unwrap_or(0.0),
                vw,
                vh,
            )
        };
        let scale = match self.max_width {
            Some(max) if width * dpr > f64::from(max) => f64::from(max) / (width * dpr),
            _ => 1.0,
        };
        let params = PageCaptureScreenshot {
            format: self.format.as_str(),
            from_surface: true,
            capture_beyond_viewport: self.full_page,
            clip: (self.full_page || element.is_some() || scale < 1.0).then_some(Clip {
                x,
                y,
                width,
                height,
                scale,
            }),
            quality: (self.format == ImageFormat::Jpeg)
                .then(|| u32::from(self.quality.unwrap_or(80).min(100))),
        };
        super::dialogs::ensure_none(ctx.tab_id)?;
        let shot = cdp::send_with_timeout(ctx.tab_id, &params, CAPTURE_TIMEOUT_MS)
            .await
            .map_err(|e| match e.failure {
                Failure::Timeout => Error::Timeout(format!(
                    "tab {tab_id} produced no frame for the screenshot within {} s",
                    CAPTURE_TIMEOUT_MS / 1000,
                    tab_id = ctx.tab_id
                )),
                _ => e.into(),
            })?;
        let data = shot
            .data
            .ok_or_else(|| Error::Internal("Page.captureScreenshot returned no data".into()))?;
        if data.len() > MAX_DATA_BYTES {
            return Err(Error::InvalidAction(format!(
            "the screenshot is {} MB, more than the bridge carries; use format jpeg, a maxWidth, or fullPage:false",
            data.len() / (1024 * 1024)
        )));
        }
        let (w, h) = decoded_size(&data).unwrap_or((
            (width * dpr * scale).round() as u32,
            (height * dpr * scale).round() as u32,
        ));
        Ok(ScreenshotResult {
            mime: self.format.mime().to_owned(),
            data,
            width: w,
            height: h,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_size_from_ihdr() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&800u32.to_be_bytes());
        png.extend_from_slice(&600u32.to_be_bytes());
        assert_eq!(image_size(&png), Some((800, 600)));
    }

    #[test]
    fn jpeg_size_from_sof0_after_app0() {
        let mut jpg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
        jpg.extend_from_slice(&[0u8; 14]); // the rest of APP0 (16 bytes incl. length)
        jpg.extend_from_slice(&[0xFF, 0xC0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20, 0x03]);
        assert_eq!(image_size(&jpg), Some((800, 600)));
    }

    #[test]
    fn garbage_has_no_size() {
        assert_eq!(image_size(b"GIF89a"), None);
        assert_eq!(image_size(&[]), None);
    }

    #[test]
    fn decoded_size_reads_base64() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&3u32.to_be_bytes());
        png.extend_from_slice(&2u32.to_be_bytes());
        png.extend_from_slice(&[0u8; 30]);
        let data = base64::engine::general_purpose::STANDARD.encode(&png);
        assert_eq!(decoded_size(&data), Some((3, 2)));
    }
}
