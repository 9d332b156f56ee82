//! Agent owners' lifetimes (SPEC §6): live connections per owner, and the grace timer that closes
//! a gone owner's agent tabs and window — also for the owners a previous bridge left behind (a
//! takeover or a restart, SPEC §9), adopted when an extension connects.

use std::sync::Arc;

use bua_protocol::Action;
use serde_json::Value;

use super::config::BRIDGE_OWNER;
use super::pending::dispatch;
use super::state::{lock, Shared};

/// Counts a new connection of `owner` (which cancels a grace timer running for it).
pub(super) fn owner_connected(shared: &Shared, owner: &str) {
    let mut owners = lock(&shared.owners);
    let live = owners.entry(owner.to_owned()).or_default();
    live.connections += 1;
    live.connects += 1;
}

/// Counts a connection of `owner` gone; when it was its last, starts the grace timer
/// ([`ServerConfig::agent_grace`]).
pub(super) fn owner_disconnected(shared: &Arc<Shared>, owner: &str) {
    let connects = {
        let mut owners = lock(&shared.owners);
        let Some(live) = owners.get_mut(owner) else {
            return;
        };
        live.connections = live.connections.saturating_sub(1);
        if live.connections > 0 {
            return;
        }
        live.connects
    };
    start_grace(shared, owner, connects);
}

/// After [`ServerConfig::agent_grace`], closes `owner`'s agent tabs and window unless it connected
/// again since its connect count was `connects` (SPEC §6). The extension ends their sessions as for
/// any closed agent tab (`tab_closed`, with their audit rows).
fn start_grace(shared: &Arc<Shared>, owner: &str, connects: u64) {
    let Some(grace) = shared.config.agent_grace else {
        return;
    };
    let (shared, owner) = (shared.clone(), owner.to_owned());
    tokio::spawn(async move {
        tokio::select! {
            _ = shared.shutdown.cancelled() => return,
            _ = tokio::time::sleep(grace) => {}
        }
        {
            let mut owners = lock(&shared.owners);
            match owners.get(&owner) {
                // Back meanwhile, or already closed by an earlier timer.
                Some(live) if live.connections > 0 || live.connects != connects => return,
                None => return,
                Some(_) => owners.remove(&owner),
            };
        }
        tracing::info!(%owner, grace_s = grace.as_secs_f64(), "agent owner gone for the grace period: closing its agent tabs and window");
        let owned = Some(owner.clone());
        let closes = [
            Action::CloseAgentTabs(bua_protocol::OwnerOnly {
                owner: owned.clone(),
            }),
            Action::CloseAgentWindow(bua_protocol::OwnerOnly { owner: owned }),
        ];
        for close in closes {
            let name = close.name();
            if let Err(e) = dispatch(&shared, &owner, close).await {
                tracing::warn!(%owner, action = name, error = %e.message, "could not close a gone agent's tabs");
            }
        }
    });
}

/// Starts the grace timer for every agent owner the extension has tabs for but no client of this
/// bridge is connected as: the owners of a bridge that went away (a takeover, SPEC §9) or of a
/// bridge restart are cleaned up too.
pub(super) fn adopt_agent_owners(shared: &Arc<Shared>) {
    if shared.config.agent_grace.is_none() {
        return;
    }
    let shared = shared.clone();
    tokio::spawn(async move {
        let Ok(tabs) = dispatch(&shared, BRIDGE_OWNER, Action::GetTabs).await else {
            return;
        };
        let mut seen = std::collections::BTreeSet::new();
        for tab in tabs
            .get("tabs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(owner) = tab.get("agentOwner").and_then(Value::as_str) {
                seen.insert(owner.to_owned());
            }
        }
        for owner in seen {
            let connects = {
                let mut owners = lock(&shared.owners);
                let live = owners.entry(owner.clone()).or_default();
                if live.connections > 0 {
                    continue;
                }
                live.connects
            };
            start_grace(&shared, &owner, connects);
        }
    });
}
