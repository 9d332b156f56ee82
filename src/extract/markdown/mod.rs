//! DOM → Markdown (SPEC §5 `markdown`): pure code over a [`Dom`], in two steps.
//!
//! [`build`] walks the composed tree and produces a small block IR ([`Block`], [`Inline`]): it decides
//! what is content (headings, paragraphs, links, lists, tables, code, quotes, images with alt text) and
//! what is not (hidden or zero-size nodes, scripts and styles, `nav`/`footer`/`aside`/site header and
//! their ARIA roles, dialogs, `position: fixed | sticky` overlays). [`render`] turns the IR into
//! Markdown text, and [`to_markdown`] caps it at [`MARKDOWN_MAX_BYTES`].
//!
//! Boilerplate removal never takes the main content with it: a landmark, overlay or `aria-hidden`
//! subtree is kept when it holds the page's `<main>` or more than half of its visible text (pages that
//! put everything in a fixed app shell, or hide the page behind a modal with `aria-hidden`).
//!
//! Rooms: [`ir`] (the block IR), [`content`] (what is content), [`build`] (DOM → IR, with [`math`] for
//! formulas), [`render`] (IR → text) and [`output`] (the cap and the links named by uid).

mod build;
mod content;
mod ir;
mod math;
mod output;
mod render;

pub use build::build;
pub use ir::{Block, Inline};
pub use output::{capped, name_refs, with_refs, Markdown, MARKDOWN_MAX_BYTES};
pub use render::render;

use crate::extract::snapshot::Dom;

/// Converts the page to markdown capped at [`MARKDOWN_MAX_BYTES`] (SPEC §5).
pub fn to_markdown(dom: &Dom) -> Markdown {
    capped(&build(dom))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod content_tests;
