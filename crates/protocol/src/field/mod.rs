//! How one field of an action is read from the wire, written back and described in the JSON
//! Schema: a [`Codec`] per kind of field (an optional tab id, a flag with its default, a
//! locator, …). The action table in `action/` names a codec for each field, so a field's
//! validation, canonical form and schema all come from that one line.

mod codec;
mod dialog;
mod element;
mod fill;
pub(crate) mod keyword;
mod number;
mod tab;
mod text;
#[cfg(feature = "schema")]
mod tidy;
mod types;
mod url;
mod word;

#[cfg(test)]
pub(crate) use self::url::suggest_absolute;
pub(crate) use self::url::Url;
pub use self::url::URL_SCHEMES;
#[cfg(feature = "schema")]
pub(crate) use codec::{described, doc_text};
pub(crate) use codec::{Codec, Cx, Required};
pub(crate) use dialog::Dialog;
pub(crate) use element::{DropAt, Element, NestedElement, OptElement, OptNestedElement};
pub(crate) use fill::FieldList;
pub use fill::{FillField, FillValue, MAX_FILL_FIELDS};
pub(crate) use keyword::{keyword, Keyword};
pub(crate) use number::{int, Px};
pub use tab::{DEFAULT_LOAD_WAIT_MS, MAX_LOAD_WAIT_MS};
pub(crate) use tab::{LOAD_WAIT, REQUIRED_TAB, TAB};
pub use text::MAX_UPLOAD_FILES;
pub(crate) use text::{FieldMap, Flag, FrameRef, OptText, Paths, Text, TextOrEmpty, Unlisted};
#[cfg(feature = "schema")]
pub(crate) use tidy::tidy;
pub use types::{DialogAnswer, DialogPolicy, DropTarget};
pub(crate) use word::{Word, Words};
