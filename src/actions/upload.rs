//! `upload {locator, files}` (SPEC §4): puts files the bridge read on its machine into a file input, so the
//! page sees real `File`s (name, type, bytes) and gets `input` + `change`.
//!
//! The bytes arrive before the request as `file_chunk` frames (SPEC §3), kept here by upload id
//! ([`stage`]) until the request naming them (`staged`) takes them. In the page they are decoded chunk by
//! chunk into a holder object that only this action references, then built into `File`s and assigned with a
//! `DataTransfer` (`input.files = dt.files`). `DOM.setFileInputFiles` is not used: through `chrome.debugger`
//! it needs "Allow access to file URLs", which is off by default.
//!
//! The located element may be the input, a `<label>` of it, or a control whose click opens a file chooser:
//! then the click runs with `Page.setInterceptFileChooserDialog` on, and `Page.fileChooserOpened` names the
//! input (`backendNodeId`) the chooser was for; no chooser is shown.

use super::ctx::Ctx;
use super::handler::{Handler, Traits};
use super::locator::Element;
use super::page::{self, Arg};
use crate::cdp::commands::PageSetInterceptFileChooserDialog;
use crate::cdp::{self, events, Event};
use crate::error::{Error, Result};
use bua_protocol::{FileChunk, Upload, UploadResult, UploadedFile};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;

/// How long a clicked control may take to open its file chooser, ms.
const CHOOSER_WAIT_MS: u32 = 3_000;

/// One file's bytes as they arrived: base64 pieces in order.
#[derive(Debug, Default)]
struct StagedFile {
    name: String,
    mime: String,
    size: u64,
    chunks: Vec<String>,
}

thread_local! {
    static STAGED: RefCell<HashMap<String, Vec<StagedFile>>> = RefCell::new(HashMap::new());
}

/// Keeps one `file_chunk` until its upload request takes it.
pub fn stage(chunk: FileChunk) {
    STAGED.with(|s| {
        let mut s = s.borrow_mut();
        let files = s.entry(chunk.upload).or_default();
        let index = chunk.file as usize;
        while files.len() <= index {
            files.push(StagedFile::default());
        }
        let file = &mut files[index];
        file.name = chunk.name;
        file.mime = chunk.mime;
        file.size = chunk.size;
        if !chunk.data.is_empty() {
            file.chunks.push(chunk.data);
        }
    });
}

/// Drops the bytes of upload `id` (its request ended, whatever the outcome).
pub fn discard(id: &str) {
    STAGED.with(|s| s.borrow_mut().remove(id));
}

fn take(id: &str) -> Option<Vec<StagedFile>> {
    STAGED.with(|s| s.borrow_mut().remove(id))
}

/// The number of bytes a padded base64 text decodes to.
pub fn decoded_len(b64: &str) -> u64 {
    let pad = b64.bytes().rev().take_while(|b| *b == b'=').count() as u64;
    (b64.len() as u64 / 4) * 3 - pad.min(2)
}

/// The file input `this` stands for: itself, or a `<label>`'s control; otherwise null.
const FILE_INPUT: &str = r#"function() {
  const isFile = e => !!e && e.localName === 'input' && (e.type || '').toLowerCase() === 'file';
  if (isFile(this)) return this;
  if (this.localName === 'label' && isFile(this.control)) return this.control;
  return null;
}"#;

/// `[disabled, multiple]` of `this` file input.
const INPUT_STATE: &str = "function() { return [!!this.disabled, !!this.multiple]; }";

/// Appends one base64 piece of file `i`, decoded, to the holder `this`.
const PUSH_CHUNK: &str = r#"function(i, b64) {
  const s = atob(b64), bytes = new Uint8Array(s.length);
  for (let k = 0; k < s.length; k++) bytes[k] = s.charCodeAt(k);
  (this.parts[i] = this.parts[i] || []).push(bytes);
  return bytes.length;
}"#;

/// Builds the `File`s from the holder and the names/types, assigns them to `this` input, fires `input` and
/// `change` as a user's choice does, and returns what the input now holds.
const ASSIGN: &str = r#"function(holder, metas) {
  const dt = new DataTransfer();
  metas.forEach((m, i) => dt.items.add(new File(holder.parts[i] || [], m.name, { type: m.mime, lastModified: Date.now() })));
  this.files = dt.files;
  this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return Array.from(this.files, f => ({ name: f.name, size: f.size, mime: f.type }));
}"#;

/// `upload`.
///
/// Errors: `invalid_action` when the request carries no bytes (it did not come through the bridge), when
/// the element is not a file input and opens no file chooser, when the input is disabled, or when it takes
/// one file and more were given; locator errors as for `click`.
impl Handler for Upload {
    type Output = UploadResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<UploadResult> {
        let staged = self.staged.as_deref().ok_or_else(|| {
        Error::InvalidAction(
            "upload: the file bytes are read by bua-bridge from its --files-dir folders; send upload through \
             the bridge (bua-bridge call, its MCP server or its client API)"
                .into(),
        )
    })?;
        let files = take(staged).unwrap_or_default();
        check_complete(&files, self.files.len())?;
        let located = ctx.locate(&self.locator).await?;
        let (input, chooser, multiple_chooser) =
            match located.call_for_element(FILE_INPUT, &[]).await? {
                Ok(input) => (input, false, None),
                Err(_) => {
                    let (input, multiple) = chooser_input(ctx.tab_id, &located).await?;
                    (input, true, Some(multiple))
                }
            };
        let state = input.call(INPUT_STATE, &[]).await?;
        let disabled = state.get(0).and_then(Value::as_bool).unwrap_or(false);
        let multiple =
            multiple_chooser.unwrap_or(state.get(1).and_then(Value::as_bool).unwrap_or(false));
        if disabled {
            return Err(Error::InvalidAction(format!(
            "the file input ({}) on tab {tab_id} is disabled; enable it first (extract shows the form)",
            located.label,
            tab_id = ctx.tab_id
        )));
        }
        if files.len() > 1 && !multiple {
            return Err(Error::InvalidAction(format!(
            "the file input ({}) on tab {tab_id} takes one file (no `multiple`), and {} were given; upload one",
            located.label,
            files.len(),
            tab_id = ctx.tab_id
        )));
        }
        // The holder lives in the input's own frame target (SPEC §5 "Frames"): the page script that
        // builds the files runs there.
        let holder = page::eval_object(input.target.clone(), "({ parts: [] })")
            .await?
            .map_err(|m| Error::Internal(format!("upload: page script failed: {m}")))?
            .object_id
            .ok_or_else(|| Error::Internal("upload: the page kept no holder object".into()))?;
        for (i, file) in files.iter().enumerate() {
            for chunk in &file.chunks {
                page::call_value(
                    input.target.clone(),
                    &holder,
                    PUSH_CHUNK,
                    &[
                        Arg::Value(json!(i)),
                        Arg::Value(Value::String(chunk.clone())),
                    ],
                )
                .await?;
            }
        }
        let metas: Vec<Value> = files
            .iter()
            .map(|f| json!({"name": f.name, "mime": f.mime}))
            .collect();
        let assigned = input
            .call(
                ASSIGN,
                &[Arg::Object(holder), Arg::Value(Value::Array(metas))],
            )
            .await?;
        let files: Vec<UploadedFile> = serde_json::from_value(assigned)?;
        Ok(UploadResult {
            element: input.describe().await?,
            files,
            chooser,
            tab_id: ctx.tab_id,
        })
    }
}

/// Checks that every file of the request arrived whole.
fn check_complete(files: &[StagedFile], expected: usize) -> Result<()> {
    let whole = files.len() == expected
        && files
            .iter()
            .all(|f| f.chunks.iter().map(|c| decoded_len(c)).sum::<u64>() == f.size);
    if whole {
        Ok(())
    } else {
        Err(Error::Internal(format!(
            "upload: the bytes of {expected} file(s) did not all arrive from the bridge; send the upload again"
        )))
    }
}

/// Clicks `control` with file choosers intercepted and returns the input whose chooser opened, and whether
/// the chooser takes several files.
async fn chooser_input(tab_id: i64, control: &Element) -> Result<(Element, bool)> {
    let opened = events::wait(tab_id, |event| matches!(event, Event::FileChooserOpened(_)));
    cdp::send(tab_id, &PageSetInterceptFileChooserDialog { enabled: true }).await?;
    let clicked = async {
        control.click().await?;
        Ok::<_, Error>(cdp::with_timeout(CHOOSER_WAIT_MS, opened).await)
    }
    .await;
    let _ = cdp::send(
        tab_id,
        &PageSetInterceptFileChooserDialog { enabled: false },
    )
    .await;
    let chooser = match clicked? {
        Some(Ok(Some(Event::FileChooserOpened(chooser)))) => chooser,
        _ => {
            return Err(Error::InvalidAction(format!(
                "the element ({}) on tab {tab_id} is not a file input and opened no file chooser within {} s; \
                 locate the <input type=file> or the button that opens the chooser (extract lists them)",
                control.label,
                CHOOSER_WAIT_MS / 1000
            )))
        }
    };
    let multiple = chooser.mode == "selectMultiple";
    let backend = chooser
        .backend_node_id
        .ok_or_else(|| Error::Internal("Page.fileChooserOpened named no input".into()))?;
    let object_id = page::resolve_backend(control.target.clone(), backend)
        .await?
        .ok_or_else(|| control.gone())?;
    Ok((
        Element {
            target: control.target.clone(),
            object_id,
            label: format!("the file input {} opened", control.label),
            from_uid: false,
        },
        multiple,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoded_len_counts_padding() {
        assert_eq!(decoded_len(""), 0);
        assert_eq!(decoded_len("QQ=="), 1);
        assert_eq!(decoded_len("QUI="), 2);
        assert_eq!(decoded_len("QUJD"), 3);
    }

    #[test]
    fn an_upload_with_a_missing_piece_is_refused() {
        let file = |size, chunks: &[&str]| StagedFile {
            size,
            chunks: chunks.iter().map(|c| c.to_string()).collect(),
            ..StagedFile::default()
        };
        assert!(check_complete(&[file(4, &["QUJD", "QQ=="])], 1).is_ok());
        assert!(check_complete(&[file(5, &["QUJD"])], 1).is_err());
        assert!(check_complete(&[file(0, &[])], 2).is_err());
    }
}
