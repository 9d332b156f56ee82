//! The browser-level blocklist for agents (SPEC §6, "Blocklist"): `declarativeNetRequest` session rules made by
//! [`blocklist::browser_rules`] (and [`controls::allow_rules`] for the allowlists, SPEC §10) from the blocklist, the agent tabs and the hosts of their pages, so a blocked site
//! is refused before any request is sent — `window.open`, form posts, redirects and meta refreshes included.
//!
//! [`request_sync`] rebuilds the rules from the current state and replaces them in one update. It is called on
//! every session start and end (a bus subscriber), on a blocklist change, on a new tab, on a URL change of an
//! agent tab, and at worker start (session rules do not survive a browser restart; they do survive a worker
//! restart, and rebuilding them then is harmless). Calls that arrive while an update runs coalesce into one more.
//! Rules equal to the last ones Chrome accepted from this worker are not sent again.

use super::bus::{self, SessionEvent};
use crate::chrome::{dnr, tabs};
use crate::windows;
use crate::{blocklist, controls};
use std::cell::{Cell, RefCell};

thread_local! {
    /// (an update is running, another was asked for meanwhile).
    static SYNC: Cell<(bool, bool)> = const { Cell::new((false, false)) };
    /// The rules of the last update Chrome accepted: the same rules again are not sent.
    static APPLIED: RefCell<Option<Vec<serde_json::Value>>> = const { RefCell::new(None) };
}

/// Subscribes [`request_sync`] to session starts and ends and builds the rules once.
pub fn install() {
    bus::subscribe(|event| {
        if matches!(event, SessionEvent::Started(_) | SessionEvent::Ended { .. }) {
            request_sync();
        }
    });
    request_sync();
}

/// Rebuilds the rules soon (now, or right after the update that is running).
pub fn request_sync() {
    let running = SYNC.with(|s| {
        let (running, _) = s.get();
        s.set((true, running));
        running
    });
    if running {
        return;
    }
    wasm_bindgen_futures::spawn_local(async {
        loop {
            if let Err(e) = sync_once().await {
                crate::log::warn(&format!(
                    "cannot update the browser-level blocklist rules: {e}"
                ));
            }
            let again = SYNC.with(|s| {
                let (_, again) = s.get();
                s.set((again, false));
                again
            });
            if !again {
                break;
            }
        }
    });
}

async fn sync_once() -> crate::Result<()> {
    let list = blocklist::load().await?;
    let (registered, agent_windows) = windows::state().await?;
    let all = tabs::query(&serde_json::json!({})).await?;
    let is_agent = |t: &tabs::Tab| {
        t.id.is_some_and(|id| registered.iter().any(|r| r.tab_id == id))
            || agent_windows.values().any(|w| *w == t.window_id)
    };
    let agent: Vec<&tabs::Tab> = all.iter().filter(|t| is_agent(t)).collect();
    let agent_ids: Vec<i64> = agent.iter().filter_map(|t| t.id).collect();
    let mut domains: Vec<String> = agent
        .iter()
        .filter_map(|t| blocklist::url_host(t.url()))
        .collect();
    domains.sort();
    domains.dedup();
    // A tab an agent tab opened is not the person's, even before `tabs.onCreated` registered it.
    let user_ids: Vec<i64> = all
        .iter()
        .filter(|t| !is_agent(t))
        .filter(|t| t.opener_tab_id.is_none_or(|o| !agent_ids.contains(&o)))
        .filter_map(|t| t.id)
        .collect();
    let mut rules = blocklist::browser_rules(&list, &agent_ids, &domains, &user_ids);
    // The allowlists of unattended runs (SPEC §10) the same way.
    let allowlists = controls::load().await?.allowlists();
    rules.extend(controls::allow_rules(
        &allowlists,
        &agent_ids,
        &domains,
        &user_ids,
    ));
    // Most syncs (an agent tab moving to another page of the same site) change nothing, and an update
    // makes Chrome rebuild its rule index, which delays the next few calls into the browser (docs/BENCHMARKS.md).
    if APPLIED.with(|a| a.borrow().as_ref() == Some(&rules)) {
        return Ok(());
    }
    APPLIED.with(|a| *a.borrow_mut() = None);
    let ids: Vec<i64> = blocklist::BROWSER_RULE_IDS
        .iter()
        .chain(&controls::ALLOW_RULE_IDS)
        .copied()
        .collect();
    dnr::update_session_rules(&ids, &rules).await?;
    APPLIED.with(|a| *a.borrow_mut() = Some(rules));
    Ok(())
}
