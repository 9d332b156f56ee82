//! Stable uids (SPEC §5): a node keeps its uid for as long as it is in the document — through later
//! extracts, an action's `changes`, a frame's re-attach — and a node seen for the first time gets the next
//! number. A main-frame navigation forgets the page's uids ([`UidCache::clear`]); numbering goes on, so a
//! uid of the page the tab left is never given to a node of the next one. Pure, so it is tested natively.
//!
//! A node is known by where its `backendNodeId` is valid (the tab, or a cross-origin frame's target: ids
//! are unique per renderer only) and that id, which Chrome keeps for the node's life.

use std::collections::HashMap;
use std::hash::Hash;

/// The uid of number `n`: `e0`, `e1`, … (SPEC §5).
pub fn uid(n: usize) -> String {
    format!("e{n}")
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

/// The most nodes one tab's cache remembers; past it (a long-lived page that keeps making new nodes) the
/// nodes the latest extract did not list are forgotten — their uids then say "stale" — and numbering goes on
/// from where it was, so a uid never names a second node.
pub const MAX_REMEMBERED: usize = 200_000;

/// Where a uid's number stands ([`UidCache::given`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Given {
    /// On a page the tab has left.
    EarlierPage,
    /// On the current page (its node may be gone since).
    ThisPage,
    /// Never on this tab (or not a uid).
    Never,
}

/// uid numbers of one tab's nodes, keyed by `K` (where the node's id is valid + the id).
#[derive(Debug, Clone)]
pub struct UidCache<K> {
    number_of: HashMap<K, usize>,
    node_of: HashMap<usize, K>,
    /// The next number to give: numbers are never given twice, not even across [`UidCache::clear`], so a
    /// uid of an earlier page never names a node of the next one.
    next: usize,
    /// The first number given on the current page.
    first: usize,
}

impl<K> Default for UidCache<K> {
    fn default() -> Self {
        UidCache {
            number_of: HashMap::new(),
            node_of: HashMap::new(),
            next: 0,
            first: 0,
        }
    }
}

impl<K: Clone + Eq + Hash> UidCache<K> {
    /// The uids of `nodes` (one extract's elements, in its order): the number each already has, the next
    /// free one for a node not seen before.
    pub fn assign(&mut self, nodes: impl IntoIterator<Item = K>) -> Vec<String> {
        let nodes: Vec<K> = nodes.into_iter().collect();
        if self.number_of.len() + nodes.len() > MAX_REMEMBERED {
            self.forget_all_but(&nodes);
        }
        nodes
            .into_iter()
            .map(|key| {
                let n = match self.number_of.get(&key) {
                    Some(&n) => n,
                    None => {
                        let n = self.next;
                        self.next += 1;
                        self.number_of.insert(key.clone(), n);
                        self.node_of.insert(n, key);
                        n
                    }
                };
                uid(n)
            })
            .collect()
    }

    /// Keeps only `keep`'s numbers (the numbering goes on).
    fn forget_all_but(&mut self, keep: &[K]) {
        let kept: HashMap<K, usize> = keep
            .iter()
            .filter_map(|k| Some((k.clone(), *self.number_of.get(k)?)))
            .collect();
        self.node_of = kept.iter().map(|(k, &n)| (n, k.clone())).collect();
        self.number_of = kept;
    }

    /// The node of `uid`, or `None` when it was never given (or was forgotten since).
    pub fn resolve(&self, uid: &str) -> Option<&K> {
        self.node_of.get(&parse_uid(uid)?)
    }

    /// Where `uid`'s number stands: given on an earlier page, on this one, or never.
    pub fn given(&self, uid: &str) -> Given {
        match parse_uid(uid) {
            Some(n) if n < self.first => Given::EarlierPage,
            Some(n) if n < self.next => Given::ThisPage,
            _ => Given::Never,
        }
    }

    /// The uids given on this page: `e<first>`…`e<next-1>` (empty when `first == next`).
    pub fn range(&self) -> std::ops::Range<usize> {
        self.first..self.next
    }

    /// Forgets every uid (main-frame navigation, `navigate`); numbering goes on.
    pub fn clear(&mut self) {
        self.number_of.clear();
        self.node_of.clear();
        self.first = self.next;
    }

    /// Number of nodes remembered.
    pub fn len(&self) -> usize {
        self.number_of.len()
    }

    /// True when no node is remembered.
    pub fn is_empty(&self) -> bool {
        self.number_of.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_extract_numbers_in_document_order() {
        let mut c = UidCache::default();
        assert_eq!(c.assign([10, 20, 30]), ["e0", "e1", "e2"]);
        assert_eq!(c.resolve("e1"), Some(&20));
        assert_eq!(c.resolve("e3"), None);
    }

    #[test]
    fn a_node_keeps_its_uid_when_others_are_inserted_before_it() {
        let mut c = UidCache::default();
        c.assign([10, 20, 30]);
        // Two rows inserted at the top, 20 removed: the others keep theirs, new ones get new numbers.
        assert_eq!(c.assign([40, 41, 10, 30]), ["e3", "e4", "e0", "e2"]);
        // A removed node's uid still names it (resolving it then says the node is gone).
        assert_eq!(c.resolve("e1"), Some(&20));
        assert_eq!(c.resolve("e4"), Some(&41));
    }

    #[test]
    fn the_same_id_in_another_target_is_another_node() {
        let mut c = UidCache::default();
        assert_eq!(c.assign([("tab", 5), ("frame", 5)]), ["e0", "e1"]);
        assert_eq!(c.resolve("e1"), Some(&("frame", 5)));
    }

    #[test]
    fn past_the_cap_unlisted_nodes_are_forgotten_and_numbers_are_never_given_twice() {
        let mut c = UidCache::default();
        let first: Vec<usize> = (0..MAX_REMEMBERED - 1).collect();
        c.assign(first.iter().copied());
        // Three new nodes overflow: only the listed ones are kept, and numbering goes on.
        assert_eq!(
            c.assign([5, usize::MAX, usize::MAX - 1, usize::MAX - 2]),
            [
                "e5",
                &uid(MAX_REMEMBERED - 1),
                &uid(MAX_REMEMBERED),
                &uid(MAX_REMEMBERED + 1)
            ]
        );
        assert_eq!(c.len(), 4);
        assert_eq!(c.resolve("e6"), None);
        assert_eq!(c.given("e6"), Given::ThisPage);
        assert_eq!(c.resolve("e5"), Some(&5));
    }

    #[test]
    fn a_new_page_forgets_the_old_uids_and_never_gives_their_numbers_again() {
        let mut c = UidCache::default();
        c.assign([1, 2]);
        c.clear();
        assert!(c.is_empty());
        // The same backend id on the next page is another node, with another number.
        assert_eq!(c.assign([2]), ["e2"]);
        assert_eq!(c.resolve("e1"), None);
        assert_eq!(c.given("e1"), Given::EarlierPage);
        assert_eq!(c.given("e2"), Given::ThisPage);
        assert_eq!(c.given("e3"), Given::Never);
        assert_eq!(c.range(), 2..3);
        for bad in ["e", "e01", "x1", "e-1", "e1x", ""] {
            assert_eq!(c.resolve(bad), None, "{bad}");
        }
    }
}
