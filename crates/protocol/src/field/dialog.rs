//! `dialog` + `promptText`: how an action answers the JavaScript dialogs it triggers (SPEC §7).

#[cfg(feature = "schema")]
use super::codec::described;
use super::codec::{Codec, Cx};
use super::types::{DialogAnswer, DialogPolicy};
use super::word::Word;
use crate::wire::{Fields, Res};
#[cfg(feature = "schema")]
use serde_json::json;
use serde_json::{Map, Value};

/// The description of `dialog` and `promptText`, written once: the flattened tool schema merges the
/// actions' fields into one property each.
#[cfg(feature = "schema")]
const DIALOG_DOC: &str =
    "Answer to JS dialogs it triggers. Default: alert accepted, confirm/prompt dismissed.";
#[cfg(feature = "schema")]
const PROMPT_DOC: &str = "Text for a prompt() (accepts it).";

/// `dialog` + `promptText` (see [`DialogPolicy`]).
pub(crate) struct Dialog;

impl Codec for Dialog {
    type T = DialogPolicy;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, cx: &Cx) -> Res<DialogPolicy> {
        let answer = ANSWER.read(f, key, cx)?;
        let prompt_text = f.opt_str(PROMPT_TEXT)?;
        if answer == Some(DialogAnswer::Dismiss) && prompt_text.is_some() {
            return Err(f.err(PROMPT_TEXT, "not allowed with dialog: \"dismiss\""));
        }
        Ok(DialogPolicy {
            answer,
            prompt_text,
        })
    }
    fn write(&self, v: &DialogPolicy, m: &mut Map<String, Value>, key: &'static str, cx: &Cx) {
        ANSWER.write(&v.answer, m, key, cx);
        if let Some(text) = &v.prompt_text {
            m.insert(PROMPT_TEXT.into(), Value::String(text.clone()));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        ANSWER.schema()
    }
    fn own_keys(&self, key: &'static str) -> Vec<&'static str> {
        vec![key, PROMPT_TEXT]
    }
    #[cfg(feature = "schema")]
    fn properties(&self, key: &'static str, _doc: &str, _cx: &Cx) -> Vec<(&'static str, Value)> {
        vec![
            (key, described(self.schema(), DIALOG_DOC)),
            (
                PROMPT_TEXT,
                described(json!({"type": "string"}), PROMPT_DOC),
            ),
        ]
    }
}

/// The wire key of [`DialogPolicy::prompt_text`].
const PROMPT_TEXT: &str = "promptText";

/// `dialog` itself: an optional [`DialogAnswer`] word.
const ANSWER: Word<Option<DialogAnswer>> = Word(None);
