//! `type {secret}` (SPEC §4 "Secrets"): the bridge put the secret's value in `text` and the origins it is
//! bound to in `secretOrigins`; before a key is pressed the extension checks that the tab's page is on one of
//! them and that the field is in the tab's top document, and remembers the value so no message carries it.
//!
//! The tab's URL is the browser's (`Page.getNavigationHistory`), never the page's word; a field in a frame is
//! refused, since a frame may be of another origin than the tab.

use super::locator::Element;
use crate::cdp;
use crate::cdp::commands::PageGetNavigationHistory;
use crate::error::{Error, Result};

/// Whether `this` is in the tab's top document (`window.top` cannot be redefined by the page).
const IN_TOP_DOCUMENT: &str = r#"function() { return window.top === window; }"#;

/// Refuses, with `not_allowed`, to type secret `name` into `field` unless the tab's page is on one of
/// `origins` (space-separated) and `field` is in its top document; on success remembers `value`.
///
/// Errors: `not_allowed` as above; `invalid_action` when `origins` is missing (only the bridge sets it:
/// the secret came from no secrets file); CDP errors.
pub async fn check_bound(
    tab_id: i64,
    field: &Element,
    name: &str,
    origins: Option<&str>,
    value: &str,
) -> Result<()> {
    let Some(origins) = origins else {
        return Err(Error::InvalidAction(format!(
            "secret {name:?}: the bridge named no origins for it; send type {{secret}} through bua-bridge with a secrets file"
        )));
    };
    let history = cdp::send(tab_id, &PageGetNavigationHistory {}).await?;
    let url = usize::try_from(history.current_index)
        .ok()
        .and_then(|i| history.entries.get(i))
        .map(|e| e.url.clone())
        .unwrap_or_default();
    let here = bua_protocol::secret::origin_of(&url).unwrap_or_else(|| "(no origin)".into());
    if !bua_protocol::secret::origin_allowed(&url, origins) {
        return Err(Error::NotAllowed(format!(
            "secret {name:?} may be typed only on {}, not on {here}; nothing was typed. Do not retry: the \
             person binds a secret to its sites in their secrets file",
            origins.split_ascii_whitespace().collect::<Vec<_>>().join(", ")
        )));
    }
    if field.call(IN_TOP_DOCUMENT, &[]).await?.as_bool() != Some(true) {
        return Err(Error::NotAllowed(format!(
            "secret {name:?} is typed only into a field of the page itself ({here}), not of a frame in it; \
             nothing was typed"
        )));
    }
    crate::secret::remember(value);
    Ok(())
}
