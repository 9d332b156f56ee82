//! What the page-1 read of a page too long for one read laid out, per tab, for the reads of its later pages
//! (SPEC §5 "Pages"): the elements page 1 listed — which depend on the viewport then, and a later page lists the
//! others whatever was scrolled since — and whether its markdown went on in chunks. A default read that fits
//! forgets it, and so does a main-frame navigation.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// A node as the uid cache knows it: where its `backendNodeId` is valid (the frame's key) and the id.
pub type Node = (String, i64);

/// Page 1 of a tab's page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    /// The elements page 1 listed.
    pub first: HashSet<Node>,
    /// Whether page 1's markdown was cut into chunks.
    pub markdown_paged: bool,
}

thread_local! {
    static LAYOUTS: RefCell<HashMap<i64, Layout>> = RefCell::new(HashMap::new());
}

/// Keeps `layout` as `tab_id`'s page 1.
pub fn remember(tab_id: i64, layout: Layout) {
    LAYOUTS.with(|l| l.borrow_mut().insert(tab_id, layout));
}

/// Forgets `tab_id`'s page 1 (its page fits one read now, or it navigated).
pub fn forget(tab_id: i64) {
    LAYOUTS.with(|l| l.borrow_mut().remove(&tab_id));
}

/// `tab_id`'s page 1, when a read of it was cut.
pub fn get(tab_id: i64) -> Option<Layout> {
    LAYOUTS.with(|l| l.borrow().get(&tab_id).cloned())
}
