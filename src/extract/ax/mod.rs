//! Interactive elements (SPEC §5 `elements`).
//!
//! `extract` reads them from the page's [`Dom`](crate::extract::snapshot::Dom) ([`dom_elements`]:
//! roles by HTML-AAM and ARIA, names by a simplified accname, live values and checked states, layout
//! boxes for the `visible` flag).
//! Output: [`ElementList`] — the interactive nodes in document order, at most [`MAX_ELEMENTS`],
//! visible ones preferred, and how many there were in all. Building the list is kept apart from
//! assigning uids (`extract::uids`), which the wasm side does once per tab. The one AX read left,
//! [`AxTree::first_checked`], is an `indeterminate` checkbox's `mixed` state, which the snapshot lacks.
//!
//! Rooms: [`element`] (the element, the cap), [`from_dom`] (reading elements from the snapshot),
//! [`name`] (accessible names), [`nearby`] (a name from the text beside a field that has none),
//! [`options`] (what a select offers), [`context`] (where an element whose name repeats is),
//! [`links`] (links that repeat one another) and [`tree`] (the AX read of a checked state).

mod context;
mod element;
mod from_dom;
mod links;
mod name;
mod nearby;
mod options;
mod tree;

pub use super::uids::{parse_uid, uid};
pub use context::prune_contexts;
pub use element::{select, AxElement, ElementList, MAX_ELEMENTS, MAX_LABEL_CHARS};
pub use from_dom::dom_elements;
pub use links::repeats;
pub use tree::{AxError, AxTree};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod links_tests;

#[cfg(test)]
mod choice_tests;
