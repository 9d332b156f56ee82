//! The domain blocklist (SPEC §6): the one hard boundary the extension enforces.
//!
//! Stored in `chrome.storage.local` under [`BLOCKLIST_KEY`] as an array of normalised entries, e.g.
//! `["bank.example", "xn--bcher-kva.example", "127.0.0.1"]`. An entry blocks its host and every subdomain:
//! `example.com` blocks `example.com` and `a.b.example.com`, never `notexample.com`.
//!
//! Entries are normalised by [`normalize_entry`]: trimmed, lowercased, IDN → punycode (IDNA, as the `url` crate
//! does for URLs), scheme, port, path, query, userinfo and a trailing dot stripped, and a leading `*.` allowed
//! (it means the same as the bare domain). URLs are reduced to their host by [`url_host`] the same way, so a
//! host compares equal to an entry exactly when both name the same domain.
//!
//! The pure functions ([`normalize_entry`], [`url_host`], [`host_matches`], [`blocking_entry`]) have no
//! `web-sys` in their signatures and are tested natively; [`load`], [`save`], [`add`] and [`remove`] use storage.

use crate::error::Result;

/// Storage key of the blocklist: `string[]` of normalised entries.
pub const BLOCKLIST_KEY: &str = "blocklist";

/// Why an entry cannot be added to the blocklist.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// Nothing left after trimming (or only `*.`).
    #[error("the entry is empty; type a domain such as example.com")]
    Empty,
    /// Not a host name or IP address (spaces, bad characters, empty labels, a bare `*`).
    #[error("`{0}` is not a domain; type a domain such as example.com")]
    Invalid(String),
}

/// Normalises one blocklist entry (SPEC §6): `"  HTTPS://*.Bücher.Example:8443/path?q "` →
/// `"xn--bcher-kva.example"`. Accepts a bare domain, a `*.`-prefixed domain, an IPv4/IPv6 address, or a URL.
///
/// Errors: [`EntryError::Empty`], [`EntryError::Invalid`] (the message tells the user what to type).
pub fn normalize_entry(raw: &str) -> Result<String, EntryError> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err(EntryError::Empty);
    }
    let invalid = || EntryError::Invalid(trimmed.to_owned());
    // Keep only the authority: drop a scheme, then everything from the first path/query/fragment character.
    let without_scheme = match trimmed.find("://") {
        Some(i) => &trimmed[i + 3..],
        None => trimmed,
    };
    let authority = without_scheme
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default();
    // Userinfo (`user:pass@host`) is not part of the host.
    let authority = authority.rsplit('@').next().unwrap_or_default();
    let authority = authority.strip_prefix("*.").unwrap_or(authority);
    if authority.is_empty() {
        return Err(EntryError::Empty);
    }
    if authority.contains(['*', ' ', '\t', '\\']) {
        return Err(invalid());
    }
    // Let the URL parser do IDNA, lowercasing, IPv4/IPv6 canonicalisation and port stripping.
    let parsed = url::Url::parse(&format!("http://{authority}/")).map_err(|_| invalid())?;
    let host = match parsed.host() {
        Some(url::Host::Domain(d)) => d.trim_end_matches('.').to_owned(),
        Some(url::Host::Ipv4(ip)) => ip.to_string(),
        Some(url::Host::Ipv6(ip)) => format!("[{ip}]"),
        None => return Err(invalid()),
    };
    if host.is_empty() || host.split('.').any(str::is_empty) {
        return Err(invalid());
    }
    Ok(host)
}

/// The host of `url` in the blocklist's normal form (lowercase, punycode, no trailing dot), or `None` for URLs
/// without a network host (`about:blank`, `data:`, `chrome://` pages have a host but are not web pages: `None`
/// for every scheme other than http, https, ws, wss and ftp).
pub fn url_host(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url.trim()).ok()?;
    if !matches!(parsed.scheme(), "http" | "https" | "ws" | "wss" | "ftp") {
        return None;
    }
    let host = match parsed.host()? {
        url::Host::Domain(d) => d.trim_end_matches('.').to_ascii_lowercase(),
        url::Host::Ipv4(ip) => ip.to_string(),
        url::Host::Ipv6(ip) => format!("[{ip}]"),
    };
    (!host.is_empty()).then_some(host)
}

/// Whether normalised `entry` blocks normalised `host`: the same host, or a subdomain of it
/// (`example.com` blocks `a.example.com`, not `notexample.com`).
pub fn host_matches(entry: &str, host: &str) -> bool {
    if entry.is_empty() || host.is_empty() {
        return false;
    }
    host == entry
        || (host.len() > entry.len()
            && host.ends_with(entry)
            && host.as_bytes()[host.len() - entry.len() - 1] == b'.')
}

/// The pseudo-entry that blocks every `file:` URL (see [`blocking_entry`]).
pub const LOCAL_FILES_ENTRY: &str = "file://";

/// The first entry of `list` (already normalised) that blocks `url`, if any. `file:` URLs are always blocked
/// (reported as the entry [`LOCAL_FILES_ENTRY`]): an agent must not read the user's local files — the pairing
/// token, SSH keys, documents — through their browser.
pub fn blocking_entry<'a>(list: &'a [String], url: &str) -> Option<&'a str> {
    if url
        .get(..5)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("file:"))
    {
        return Some(LOCAL_FILES_ENTRY);
    }
    let host = url_host(url)?;
    list.iter()
        .map(String::as_str)
        .find(|entry| host_matches(entry, &host))
}

/// The first entry of `list` that blocks the bare host `domain` (a session's domain), if any.
pub fn blocking_entry_for_host<'a>(list: &'a [String], domain: &str) -> Option<&'a str> {
    let host = domain.trim_end_matches('.').to_ascii_lowercase();
    list.iter()
        .map(String::as_str)
        .find(|entry| host_matches(entry, &host))
}

/// Normalises a whole list: invalid entries are dropped, duplicates removed, order kept.
pub fn normalize_list<S: AsRef<str>>(raw: &[S]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for entry in raw {
        if let Ok(e) = normalize_entry(entry.as_ref()) {
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    out
}

/// Reads the blocklist from storage, normalising whatever is stored (a hand-edited or test-written list of raw
/// domains works too). A missing key is an empty list.
pub async fn load() -> Result<Vec<String>> {
    // Through the session model's store, which every blocklist write goes through: read from its cache.
    let raw: Vec<String> = crate::store::local().read(BLOCKLIST_KEY).await?;
    Ok(normalize_list(&raw))
}

/// Replaces the blocklist (normalised, deduplicated) under the session model's storage write lock. The storage
/// change listener then ends the sessions on newly blocked domains ([`crate::session::enforce_blocklist`]).
pub async fn save(entries: &[String]) -> Result<Vec<String>> {
    let list = normalize_list(entries);
    let stored = list.clone();
    crate::store::local()
        .update(BLOCKLIST_KEY, move |raw: &mut Vec<String>| *raw = stored)
        .await?;
    Ok(list)
}

/// Adds one entry (normalised) under the write lock and returns the new list; an invalid entry is
/// `invalid_action` with the reason for the user.
pub async fn add(raw: &str) -> Result<Vec<String>, crate::Error> {
    let entry = normalize_entry(raw).map_err(|e| crate::Error::InvalidAction(e.to_string()))?;
    crate::store::local()
        .update(BLOCKLIST_KEY, |stored: &mut Vec<String>| {
            let mut list = normalize_list(stored);
            if !list.contains(&entry) {
                list.push(entry);
            }
            *stored = list.clone();
            list
        })
        .await
}

/// Removes one entry (compared after normalisation) under the write lock and returns the new list.
pub async fn remove(raw: &str) -> Result<Vec<String>> {
    let entry = normalize_entry(raw).unwrap_or_else(|_| raw.trim().to_ascii_lowercase());
    crate::store::local()
        .update(BLOCKLIST_KEY, |stored: &mut Vec<String>| {
            let mut list = normalize_list(stored);
            list.retain(|e| *e != entry);
            *stored = list.clone();
            list
        })
        .await
}

/// Ids of the `declarativeNetRequest` session rules [`browser_rules`] makes; every update replaces exactly these.
pub const BROWSER_RULE_IDS: [i64; 2] = [1, 2];

/// The `declarativeNetRequest` session rules that make the browser itself refuse the blocklist for agents
/// (SPEC §6, "Blocklist"), before any request is sent — `window.open`, form posts, redirects and meta refreshes
/// included; the action-level check stays in front of every action.
///
/// * Rule 1 blocks the blocked domains (and their subdomains: `requestDomains` matches them) for `main_frame` and
///   `sub_frame` requests of `agent_tabs`.
/// * Rule 2 covers a tab an agent page opens (`window.open`, `target=_blank`): its first request leaves before
///   the extension can learn the new tab's id, so no `tabIds` rule can hold it. It blocks the same requests when
///   their initiator is on one of `agent_domains` (the hosts of the agent tabs) in any tab except `user_tabs`
///   (the person's tabs known when the rule was made), so the person's own browsing is never blocked by it.
///   Once the new tab is known it is an agent tab under rule 1.
///
/// IPv6 entries are left to the action-level check (`requestDomains` takes host names and IPv4 only). No rule
/// is made when there is nothing to block or no agent to block it for.
pub fn browser_rules(
    list: &[String],
    agent_tabs: &[i64],
    agent_domains: &[String],
    user_tabs: &[i64],
) -> Vec<serde_json::Value> {
    use serde_json::json;
    let blocked: Vec<&String> = list.iter().filter(|e| !e.contains(':')).collect();
    let initiators: Vec<&String> = agent_domains
        .iter()
        .filter(|d| !d.is_empty() && !d.contains(':'))
        .collect();
    let mut rules = Vec::new();
    if blocked.is_empty() {
        return rules;
    }
    let resource_types = ["main_frame", "sub_frame"];
    if !agent_tabs.is_empty() {
        rules.push(json!({
            "id": BROWSER_RULE_IDS[0],
            "priority": 1,
            "action": {"type": "block"},
            "condition": {"requestDomains": blocked, "tabIds": agent_tabs, "resourceTypes": resource_types},
        }));
    }
    if !initiators.is_empty() {
        let mut condition = json!({
            "requestDomains": blocked,
            "initiatorDomains": initiators,
            "resourceTypes": resource_types,
        });
        if !user_tabs.is_empty() {
            condition["excludedTabIds"] = json!(user_tabs);
        }
        rules.push(json!({
            "id": BROWSER_RULE_IDS[1],
            "priority": 1,
            "action": {"type": "block"},
            "condition": condition,
        }));
    }
    rules
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_rules_block_agent_tabs_and_what_agent_pages_open_but_never_the_users_tabs() {
        let list = vec!["blocked.test".to_owned(), "::1".to_owned()];
        let rules = browser_rules(&list, &[4, 7], &["app.test".to_owned()], &[1, 2]);
        assert_eq!(
            rules,
            vec![
                serde_json::json!({"id": 1, "priority": 1, "action": {"type": "block"}, "condition": {
                    "requestDomains": ["blocked.test"], "tabIds": [4, 7], "resourceTypes": ["main_frame", "sub_frame"]}}),
                serde_json::json!({"id": 2, "priority": 1, "action": {"type": "block"}, "condition": {
                    "requestDomains": ["blocked.test"], "initiatorDomains": ["app.test"],
                    "resourceTypes": ["main_frame", "sub_frame"], "excludedTabIds": [1, 2]}}),
            ]
        );
        assert!(browser_rules(&[], &[4], &["app.test".to_owned()], &[]).is_empty());
        assert!(
            browser_rules(&list, &[], &[], &[1]).is_empty(),
            "no agent: no rule"
        );
    }

    fn n(s: &str) -> String {
        normalize_entry(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    #[test]
    fn entries_are_lowercased_and_stripped_of_scheme_port_path_and_trailing_dot() {
        assert_eq!(n("Example.COM"), "example.com");
        assert_eq!(n("  example.com  "), "example.com");
        assert_eq!(n("https://example.com/login?next=/"), "example.com");
        assert_eq!(n("http://user:pw@Example.com:8080/x#y"), "example.com");
        assert_eq!(n("example.com:8443"), "example.com");
        assert_eq!(n("example.com."), "example.com");
        assert_eq!(n("wss://chat.example.com"), "chat.example.com");
    }

    #[test]
    fn a_leading_star_dot_means_the_domain_and_its_subdomains() {
        assert_eq!(n("*.example.com"), "example.com");
        assert_eq!(n("https://*.Example.com/"), "example.com");
        assert!(host_matches(&n("*.example.com"), "example.com"));
        assert!(host_matches(&n("*.example.com"), "a.example.com"));
    }

    /// Checks which entry of the list of `entries` (normalised) blocks each URL of `cases`.
    fn assert_blocks(entries: &[&str], cases: &[(&str, Option<&str>)]) {
        let list: Vec<String> = entries.iter().map(|e| n(e)).collect();
        for &(url, want) in cases {
            assert_eq!(blocking_entry(&list, url), want, "{url}");
        }
    }

    #[test]
    fn idn_entries_and_hosts_become_punycode_and_match_each_other() {
        assert_eq!(n("Bücher.example"), "xn--bcher-kva.example");
        assert_eq!(n("https://MÜNCHEN.de/"), "xn--mnchen-3ya.de");
        assert_eq!(n("xn--bcher-kva.example"), "xn--bcher-kva.example");
        let punycode = Some("xn--bcher-kva.example");
        assert_blocks(
            &["bücher.example"],
            &[
                ("https://www.bücher.example/kaufen", punycode),
                ("https://shop.xn--bcher-kva.example/", punycode),
            ],
        );
    }

    #[test]
    fn ip_addresses_are_valid_entries_and_ports_do_not_matter() {
        assert_eq!(n("127.0.0.1"), "127.0.0.1");
        assert_eq!(n("http://127.0.0.1:9225/x"), "127.0.0.1");
        assert_eq!(n("[::1]:8080"), "[::1]");
        assert_blocks(
            &["127.0.0.1"],
            &[
                ("http://127.0.0.1:4444/page", Some("127.0.0.1")),
                ("http://127.0.0.2/", None),
            ],
        );
        assert_blocks(
            &["example.com"],
            &[("https://example.com:8443/", Some("example.com"))],
        );
    }

    #[test]
    fn a_domain_blocks_itself_and_subdomains_but_not_lookalikes() {
        let blocked = Some("example.com");
        assert_blocks(
            &["example.com"],
            &[
                ("https://example.com/", blocked),
                ("https://a.b.example.com/x", blocked),
                ("https://EXAMPLE.com./", blocked),
                ("https://notexample.com/", None),
                ("https://example.com.evil.net/", None),
                ("https://example.co/", None),
                ("https://xexample.com/", None),
            ],
        );
        // A subdomain entry does not block its parent.
        assert_blocks(
            &["mail.example.com"],
            &[
                ("https://example.com/", None),
                ("https://eu.mail.example.com/", Some("mail.example.com")),
            ],
        );
    }

    #[test]
    fn pages_without_a_web_host_are_never_blocked() {
        for url in [
            "about:blank",
            "data:text/html,example.com",
            "chrome://settings",
            "",
            "not a url",
            // A URL that only mentions the domain in its path or query is not on it.
            "https://other.net/?u=https://example.com/",
        ] {
            assert_blocks(&["example.com"], &[(url, None)]);
        }
    }

    #[test]
    fn session_domains_match_like_hosts() {
        let list = vec![n("example.com")];
        assert_eq!(
            blocking_entry_for_host(&list, "Shop.Example.com"),
            Some("example.com")
        );
        assert_eq!(blocking_entry_for_host(&list, "notexample.com"), None);
        assert_eq!(blocking_entry_for_host(&list, ""), None);
    }

    #[test]
    fn invalid_entries_are_refused_with_a_message() {
        assert_eq!(normalize_entry("   "), Err(EntryError::Empty));
        assert_eq!(normalize_entry("*."), Err(EntryError::Empty));
        assert_eq!(normalize_entry("https://"), Err(EntryError::Empty));
        for bad in [
            "*",
            "exa mple.com",
            "a..b",
            "*.*.example.com",
            "ex*ample.com",
            "http://[zz]/",
        ] {
            assert!(
                matches!(normalize_entry(bad), Err(EntryError::Invalid(_))),
                "{bad:?} → {:?}",
                normalize_entry(bad)
            );
        }
        let message = normalize_entry("exa mple.com")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(message.contains("example.com"), "{message}");
    }

    #[test]
    fn lists_are_normalised_deduplicated_and_keep_their_order() {
        let raw = [
            "B.example",
            "a.example",
            "*.b.example",
            "bad entry",
            "https://a.example/x",
        ];
        assert_eq!(normalize_list(&raw), vec!["b.example", "a.example"]);
    }

    #[test]
    fn file_urls_are_always_blocked() {
        assert_eq!(
            blocking_entry(&[], "file:///root/.config/bua/token"),
            Some(LOCAL_FILES_ENTRY)
        );
        assert_eq!(
            blocking_entry(&[], "FILE:///etc/passwd"),
            Some(LOCAL_FILES_ENTRY)
        );
        assert_eq!(blocking_entry(&[], "https://example.com/file:///x"), None);
    }
}
