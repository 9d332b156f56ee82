//! `extract` (SPEC §5): the page as markdown, text, interactive elements with uids, and an obstacle verdict.
//!
//! Everything that decides is pure and runs natively: [`snapshot`] (CDP `DOMSnapshot.captureSnapshot` →
//! composed DOM tree), [`markdown`] (DOM → block IR → Markdown), [`ax`] (`Accessibility.getFullAXTree` →
//! interactive elements, uid cache), [`obstacle`] (the five-layer classifier), [`text`] (size caps) and
//! [`page`] (all of it in one step).

pub mod ax;
pub mod markdown;
pub mod obstacle;
pub mod page;
pub mod snapshot;
pub mod text;
