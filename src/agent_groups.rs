//! One named tab group per agent in its agent window (SPEC §6 "Tab groups"): the person who shows the window
//! (or takes a handoff) sees whose tabs are whose. The group's title is the agent's owner name and its colour
//! is one no other group has while there is one free ([`pick_colour`], pure). Chrome removes a group with its
//! last tab, so a group goes when its agent's tabs go. Grouping is a courtesy: when it fails (no `tabGroups`
//! API) the tab is opened all the same.

use crate::chrome::tab_groups;
use futures::lock::Mutex;
use std::rc::Rc;

/// Chrome's tab group colours, in the order agents get them.
pub const COLOURS: [&str; 9] = [
    "blue", "red", "green", "purple", "orange", "cyan", "pink", "yellow", "grey",
];

/// Longest group title, chars (an owner is at most 64; a tab strip shows far fewer).
const MAX_TITLE_CHARS: usize = 40;

thread_local! {
    /// Serialises find-or-create, so two tabs of one agent opened at once land in one group.
    static LOCK: Rc<Mutex<()>> = Rc::new(Mutex::new(()));
}

/// The group title of `owner`: the owner name, cut at [`MAX_TITLE_CHARS`].
pub fn group_title(owner: &str) -> String {
    owner.chars().take(MAX_TITLE_CHARS).collect()
}

/// The colour for a new group of `owner`: the first of [`COLOURS`], starting at a place fixed by the owner
/// name, that no group in `used` has; when all are taken, the owner's own place.
pub fn pick_colour(owner: &str, used: &[String]) -> &'static str {
    let start = owner.bytes().fold(0usize, |h, b| {
        h.wrapping_mul(31).wrapping_add(usize::from(b))
    }) % COLOURS.len();
    (0..COLOURS.len())
        .map(|i| COLOURS[(start + i) % COLOURS.len()])
        .find(|c| !used.iter().any(|u| u == c))
        .unwrap_or(COLOURS[start])
}

/// Puts `tab_id` (in `owner`'s agent window `window_id`) into the owner's group there, creating the group
/// (titled, coloured, expanded) when the window has none. Failures are logged, never returned.
pub async fn join(tab_id: i64, owner: &str, window_id: i64) {
    let lock = LOCK.with(Rc::clone);
    let _guard = lock.lock().await;
    let title = group_title(owner);
    let existing = tab_groups::query(&serde_json::json!({ "windowId": window_id }))
        .await
        .ok()
        .and_then(|gs| gs.into_iter().find(|g| g.title.as_deref() == Some(&title)));
    let result = match existing {
        Some(g) => tab_groups::group(&[tab_id], Some(g.id), window_id)
            .await
            .map(|_| ()),
        None => create(tab_id, owner, &title, window_id).await,
    };
    if let Err(e) = result {
        crate::log::info(&format!(
            "tab {tab_id}: not grouped under agent {owner}: {e}"
        ));
    }
}

async fn create(tab_id: i64, owner: &str, title: &str, window_id: i64) -> crate::Result<()> {
    let used: Vec<String> = tab_groups::query(&serde_json::json!({}))
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|g| g.color)
        .collect();
    let id = tab_groups::group(&[tab_id], None, window_id).await?;
    let colour = pick_colour(owner, &used);
    tab_groups::update(
        id,
        &serde_json::json!({ "title": title, "color": colour, "collapsed": false }),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_agent_gets_a_colour_no_group_has_and_the_same_one_when_alone() {
        let a = pick_colour("mcp-1-ab12", &[]);
        assert_eq!(pick_colour("mcp-1-ab12", &[]), a);
        let b = pick_colour("mcp-2-cd34", &[a.to_owned()]);
        assert_ne!(a, b);
        let all: Vec<String> = COLOURS.iter().map(|c| c.to_string()).collect();
        assert!(COLOURS.contains(&pick_colour("x", &all)));
        let but_one: Vec<String> = all.iter().filter(|c| *c != "cyan").cloned().collect();
        assert_eq!(pick_colour("anyone", &but_one), "cyan");
    }

    #[test]
    fn the_title_is_the_owner_cut_at_forty_chars() {
        assert_eq!(group_title("cli"), "cli");
        assert_eq!(group_title(&"é".repeat(64)).chars().count(), 40);
    }
}
