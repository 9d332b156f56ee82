//! uids (`e0`, `e1`, …, SPEC §5) and the per-tab cache that maps them to `backendNodeId`s.

use std::collections::HashMap;

use super::element::AxElement;

/// The uid of the `i`-th element of an extract: `e0`, `e1`, … (SPEC §5).
pub fn uid(i: usize) -> String {
    format!("e{i}")
}

/// Parses `e<N>` (no sign, no leading zeros) into `N`.
pub fn parse_uid(uid: &str) -> Option<usize> {
    let digits = uid.strip_prefix('e')?;
    if digits.is_empty()
        || (digits.len() > 1 && digits.starts_with('0'))
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    digits.parse().ok()
}

/// uid → `backendNodeId` for one tab, as of its latest `extract` (SPEC §5). Replaced by every
/// extract, cleared on main-frame navigation and `navigate`; kept across SPA route changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UidCache {
    backend_ids: Vec<i64>,
}

impl UidCache {
    /// Replaces the cache with the elements of a fresh extract; returns their uids (`e0`, `e1`, …).
    pub fn replace(&mut self, elements: &[AxElement]) -> Vec<String> {
        self.backend_ids = elements.iter().map(|e| e.backend_node_id).collect();
        (0..self.backend_ids.len()).map(uid).collect()
    }

    /// The `backendNodeId` of `uid`, or `None` when the uid is not (or no longer) in the cache.
    pub fn resolve(&self, uid: &str) -> Option<i64> {
        parse_uid(uid).and_then(|i| self.backend_ids.get(i).copied())
    }

    /// Forgets every uid (main-frame navigation).
    pub fn clear(&mut self) {
        self.backend_ids.clear();
    }

    /// Number of uids held.
    pub fn len(&self) -> usize {
        self.backend_ids.len()
    }

    /// True when no uid is held.
    pub fn is_empty(&self) -> bool {
        self.backend_ids.is_empty()
    }
}

/// One [`UidCache`] per tab id.
#[derive(Debug, Clone, Default)]
pub struct TabUidCaches {
    tabs: HashMap<i64, UidCache>,
}

impl TabUidCaches {
    /// Stores a fresh extract's elements for `tab_id`; returns their uids.
    pub fn replace(&mut self, tab_id: i64, elements: &[AxElement]) -> Vec<String> {
        self.tabs.entry(tab_id).or_default().replace(elements)
    }

    /// `backendNodeId` of `uid` on `tab_id`, if cached.
    pub fn resolve(&self, tab_id: i64, uid: &str) -> Option<i64> {
        self.tabs.get(&tab_id).and_then(|c| c.resolve(uid))
    }

    /// Clears `tab_id`'s uids (main-frame navigation, `navigate`).
    pub fn invalidate(&mut self, tab_id: i64) {
        self.tabs.remove(&tab_id);
    }
}
