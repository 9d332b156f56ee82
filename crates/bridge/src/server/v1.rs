//! The one v1-bridge method that is more than a renamed action (SPEC §9): `new_tab`.

use std::sync::Arc;

use bua_protocol::{Action, ErrorBody};
use serde_json::Value;

use super::pending::dispatch;
use super::state::Shared;

/// v1 `new_tab {url}` answers `{tab_id, url, title, active}` for the *loaded* page, but `open_tab`
/// answers `{tabId, windowId, domain}` as soon as the tab exists. So the bridge opens the agent tab
/// on `about:blank`, then `navigate`s it (which waits for the load, SPEC §4) and reads `active`
/// from `get_tabs`. A navigation that fails (e.g. `domain_blocked`) closes the blank tab again and
/// returns the navigation's error.
pub(super) async fn v1_new_tab(
    shared: &Arc<Shared>,
    owner: &str,
    action: Action,
) -> std::result::Result<Value, ErrorBody> {
    let Action::OpenTab(open) = action else {
        return dispatch(shared, owner, action).await;
    };
    let url = open.url.clone();
    let blank = url == "about:blank";
    let opened = dispatch(
        shared,
        owner,
        Action::OpenTab(bua_protocol::OpenTab {
            url: "about:blank".into(),
            focus: open.focus,
            load_wait_ms: None,
        }),
    )
    .await?;
    let Some(tab_id) = opened.get("tabId").and_then(Value::as_i64) else {
        return Ok(opened);
    };
    let mut result = opened;
    if !blank {
        let navigate = Action::Navigate(bua_protocol::Navigate {
            url,
            tab_id: Some(tab_id),
            dialog: Default::default(),
            load_wait_ms: open.load_wait_ms,
        });
        match dispatch(shared, owner, navigate).await {
            Ok(nav) => {
                if let (Value::Object(m), Value::Object(n)) = (&mut result, nav) {
                    for key in ["url", "title"] {
                        if let Some(v) = n.get(key) {
                            m.insert(key.to_string(), v.clone());
                        }
                    }
                    if let Some(domain) = m
                        .get("url")
                        .and_then(Value::as_str)
                        .and_then(|u| url::Url::parse(u).ok())
                        .and_then(|u| u.host_str().map(str::to_string))
                    {
                        m.insert("domain".into(), Value::String(domain));
                    }
                }
            }
            Err(e) => {
                let close = Action::CloseTab(bua_protocol::TabOnly {
                    tab_id: Some(tab_id),
                    dialog: Default::default(),
                });
                if let Err(close_error) = dispatch(shared, owner, close).await {
                    tracing::debug!(%tab_id, error = %close_error, "new_tab: closing the blank tab failed");
                }
                return Err(e);
            }
        }
    }
    if let Ok(tabs) = dispatch(shared, owner, Action::GetTabs).await {
        let tab = tabs
            .get("tabs")
            .and_then(Value::as_array)
            .and_then(|tabs| {
                tabs.iter()
                    .find(|t| t.get("tabId").and_then(Value::as_i64) == Some(tab_id))
            })
            .cloned();
        if let (Some(tab), Value::Object(m)) = (tab, &mut result) {
            for key in ["url", "title", "active"] {
                if let Some(v) = tab.get(key) {
                    // The navigation's url/title are the loaded page's; keep them.
                    m.entry(key.to_string()).or_insert_with(|| v.clone());
                }
            }
        }
    }
    Ok(result)
}
