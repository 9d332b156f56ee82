//! Unattended-run controls (SPEC §10): an allowlist (agents may open only the listed sites) and switches that
//! turn `evaluate` and `upload` off. The person sets them in the options page (`chrome.storage.local`
//! [`ALLOWLIST_KEY`], [`NO_EVALUATE_KEY`], [`NO_UPLOAD_KEY`]); a bridge started with `--allow SITE`,
//! `--no-evaluate` or `--no-upload` sends its own in the handshake `ack`, kept in `chrome.storage.session`
//! under [`BRIDGE_CONTROLS_KEY`] (both survive a service-worker restart). An allowlist is on when it is not
//! empty; with both on, a site must be on both.
//!
//! The allowlist is enforced as the blocklist is (SPEC §6 "Blocklist"): in front of every action and, before the
//! first request, by `declarativeNetRequest` session rules ([`allow_rules`]). The pure functions are tested
//! natively; [`load`] reads storage.

use crate::blocklist::{host_matches, normalize_list, url_host};
use crate::chrome::storage;
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// Storage key of the person's allowlist: `string[]` of blocklist-style entries (SPEC §6 normal form).
pub const ALLOWLIST_KEY: &str = "allowlist";
/// Storage key of the person's switch turning `evaluate` off.
pub const NO_EVALUATE_KEY: &str = "noEvaluate";
/// Storage key of the person's switch turning `upload` off.
pub const NO_UPLOAD_KEY: &str = "noUpload";
/// `chrome.storage.session` key of the controls the bridge sent in its `ack`.
pub const BRIDGE_CONTROLS_KEY: &str = "bridgeControls";
/// The blocklist-style entry a refusal by the allowlist is reported under (`domain_blocked` events).
pub const ALLOWLIST_ENTRY: &str = "allowlist";
/// Ids of the `declarativeNetRequest` session rules [`allow_rules`] makes: two per allowlist.
pub const ALLOW_RULE_IDS: [i64; 4] = [3, 4, 5, 6];

/// The controls a bridge sent (`ack.controls`, SPEC §2): its `--allow` sites and the actions it turned off.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BridgeControls {
    /// `--allow` sites; empty: no allowlist.
    #[serde(default)]
    pub allow: Vec<String>,
    /// Action names turned off (`evaluate`, `upload`).
    #[serde(default)]
    pub off: Vec<String>,
}

/// Every control in force: the person's and the bridge's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Controls {
    /// The person's allowlist (normalised); empty: off.
    pub allowlist: Vec<String>,
    /// The person turned `evaluate` off.
    pub no_evaluate: bool,
    /// The person turned `upload` off.
    pub no_upload: bool,
    /// What the connected bridge sent.
    pub bridge: BridgeControls,
}

impl Controls {
    /// The allowlists in force (normalised, non-empty).
    pub fn allowlists(&self) -> Vec<Vec<String>> {
        [self.allowlist.clone(), normalize_list(&self.bridge.allow)]
            .into_iter()
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// Why `url` may not be opened by an agent, when an allowlist refuses it: a phrase for the
    /// `domain_blocked` message. Pages without a web host (`about:blank`, `data:`) are never refused.
    pub fn refusal(&self, url: &str) -> Option<String> {
        let host = url_host(url)?;
        self.allowlists()
            .into_iter()
            .find(|list| !list.iter().any(|entry| host_matches(entry, &host)))
            .map(|list| {
                format!(
                    "is not on the allowlist the person set (agents may open only {})",
                    list.join(", ")
                )
            })
    }

    /// The `not_allowed` message when `action` is turned off, by the options page or the bridge.
    pub fn switched_off(&self, action: &str) -> Option<String> {
        let by_person = match action {
            "evaluate" => self.no_evaluate,
            "upload" => self.no_upload,
            _ => false,
        };
        let by_bridge = self.bridge.off.iter().any(|a| a == action);
        match (by_person, by_bridge) {
            (true, _) => Some(format!(
                "{action} is turned off: the person switched it off in the extension's options (Unattended runs); do without it or ask them to turn it on"
            )),
            (false, true) => Some(format!(
                "{action} is turned off: the person started the bridge with --no-{action}; do without it or ask them to restart it without that flag"
            )),
            _ => None,
        }
    }
}

thread_local! {
    /// What [`store_bridge`] kept, once read or written in this worker: it changes only with an `ack`, and
    /// [`load`] runs in front of every action, where each `chrome.storage` read is a round trip to the browser.
    static BRIDGE: std::cell::RefCell<Option<BridgeControls>> = const { std::cell::RefCell::new(None) };
}

/// Reads the controls (a missing key is off): the person's through the worker's storage cache
/// ([`crate::store`], which a write from the options page invalidates), the bridge's from memory after the
/// first read.
pub async fn load() -> Result<Controls> {
    let local = crate::store::local();
    let raw: Vec<String> = local.read(ALLOWLIST_KEY).await?;
    let no_evaluate: Option<bool> = local.read(NO_EVALUATE_KEY).await?;
    let no_upload: Option<bool> = local.read(NO_UPLOAD_KEY).await?;
    let bridge = match BRIDGE.with(|b| b.borrow().clone()) {
        Some(bridge) => bridge,
        None => {
            let bridge: BridgeControls = storage::session_get(BRIDGE_CONTROLS_KEY)
                .await?
                .unwrap_or_default();
            BRIDGE.with(|b| *b.borrow_mut() = Some(bridge.clone()));
            bridge
        }
    };
    Ok(Controls {
        allowlist: normalize_list(&raw),
        no_evaluate: no_evaluate.unwrap_or(false),
        no_upload: no_upload.unwrap_or(false),
        bridge,
    })
}

/// Keeps what a bridge sent in its `ack` (none: no controls), for the rest of the browser session.
pub async fn store_bridge(controls: &BridgeControls) -> Result<()> {
    BRIDGE.with(|b| *b.borrow_mut() = Some(controls.clone()));
    storage::session_set(BRIDGE_CONTROLS_KEY, controls).await
}

/// The `declarativeNetRequest` session rules that make the browser refuse every site off an allowlist for
/// agents before any request is sent, as [`crate::blocklist::browser_rules`] does for the blocklist: per
/// allowlist, one rule for `agent_tabs` and one for what pages on `agent_domains` open in any tab but
/// `user_tabs` (`window.open`, forms, redirects), both blocking `main_frame` and `sub_frame` requests to every
/// domain but the listed ones. IPv6 entries are left to the action-level check.
pub fn allow_rules(
    allowlists: &[Vec<String>],
    agent_tabs: &[i64],
    agent_domains: &[String],
    user_tabs: &[i64],
) -> Vec<serde_json::Value> {
    use serde_json::json;
    let initiators: Vec<&String> = agent_domains
        .iter()
        .filter(|d| !d.is_empty() && !d.contains(':'))
        .collect();
    let resource_types = ["main_frame", "sub_frame"];
    let mut rules = Vec::new();
    for (list, ids) in allowlists.iter().zip(ALLOW_RULE_IDS.chunks(2)) {
        let allowed: Vec<&String> = list.iter().filter(|e| !e.contains(':')).collect();
        // Only IPv6 entries: every request is refused here, and the action-level check has the last word.
        let base = match allowed.is_empty() {
            true => json!({"resourceTypes": resource_types}),
            false => json!({"excludedRequestDomains": allowed, "resourceTypes": resource_types}),
        };
        if !agent_tabs.is_empty() {
            let mut condition = base.clone();
            condition["tabIds"] = json!(agent_tabs);
            rules.push(json!({"id": ids[0], "priority": 1, "action": {"type": "block"}, "condition": condition}));
        }
        if !initiators.is_empty() {
            let mut condition = base.clone();
            condition["initiatorDomains"] = json!(initiators);
            if !user_tabs.is_empty() {
                condition["excludedTabIds"] = json!(user_tabs);
            }
            rules.push(json!({"id": ids[1], "priority": 1, "action": {"type": "block"}, "condition": condition}));
        }
    }
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn controls(allow: &[&str], bridge_allow: &[&str]) -> Controls {
        Controls {
            allowlist: normalize_list(allow),
            bridge: BridgeControls {
                allow: bridge_allow.iter().map(|s| s.to_string()).collect(),
                off: vec![],
            },
            ..Controls::default()
        }
    }

    #[test]
    fn an_allowlist_refuses_every_other_web_site_and_two_lists_both_apply() {
        let c = controls(&["shop.test", "127.0.0.1"], &[]);
        assert_eq!(c.refusal("https://www.shop.test/cart"), None);
        assert_eq!(c.refusal("http://127.0.0.1:4444/x"), None);
        assert_eq!(c.refusal("about:blank"), None);
        let refused = c.refusal("http://127.0.0.2/x").unwrap_or_default();
        assert!(refused.contains("only shop.test, 127.0.0.1"), "{refused}");
        assert!(c.refusal("https://notshop.test/").is_some());
        assert_eq!(controls(&[], &[]).refusal("https://any.test/"), None);
        let both = controls(&["a.test", "b.test"], &["b.test"]);
        assert!(both.refusal("https://a.test/").is_some());
        assert_eq!(both.refusal("https://b.test/"), None);
    }

    #[test]
    fn switches_name_who_turned_the_action_off() {
        let mut c = Controls {
            no_evaluate: true,
            ..Controls::default()
        };
        assert!(c
            .switched_off("evaluate")
            .is_some_and(|m| m.contains("options")));
        assert_eq!(c.switched_off("upload"), None);
        c.bridge.off = vec!["upload".into()];
        assert!(c
            .switched_off("upload")
            .is_some_and(|m| m.contains("--no-upload")));
        assert_eq!(c.switched_off("click"), None);
    }

    #[test]
    fn allow_rules_block_all_but_the_list_for_agent_tabs_and_what_their_pages_open() {
        let rules = allow_rules(
            &[vec!["127.0.0.1".into(), "::1".into()]],
            &[4],
            &["127.0.0.1".into()],
            &[1],
        );
        assert_eq!(
            rules,
            vec![
                json!({"id": 3, "priority": 1, "action": {"type": "block"}, "condition": {
                    "excludedRequestDomains": ["127.0.0.1"], "tabIds": [4], "resourceTypes": ["main_frame", "sub_frame"]}}),
                json!({"id": 4, "priority": 1, "action": {"type": "block"}, "condition": {
                    "excludedRequestDomains": ["127.0.0.1"], "initiatorDomains": ["127.0.0.1"],
                    "resourceTypes": ["main_frame", "sub_frame"], "excludedTabIds": [1]}}),
            ]
        );
        assert!(allow_rules(&[], &[4], &["a.test".into()], &[]).is_empty());
        assert_eq!(
            allow_rules(&[vec!["a".into()], vec!["b".into()]], &[4], &[], &[]).len(),
            2
        );
    }
}
