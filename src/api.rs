//! The popup/options API (SPEC §10): what the UI pages ask the service worker, as JSON messages over
//! `chrome.runtime.sendMessage`. The worker's `on_message` hands every message to [`handle_value`].
//!
//! Request: `{"cmd": "<name>", …params}` ([`UiCommand`]). Answer: the result object of the command, or
//! `{"error": {"code", "message"}}` (the protocol error shape, SPEC §8).
//!
//! | cmd | params | answer |
//! | --- | --- | --- |
//! | `list_sessions` | — | `{sessions:[Session], agentWindows:{owner: windowId}, now}` |
//! | `stop_session` | `tabId` | `{stopped:bool}` (`user_stopped`) |
//! | `stop_all` | — | `{stopped:n}` (`global_stop`, event first) |
//! | `show_agent_window` | `owner?` | `{shown:[windowId]}` (restored and focused) |
//! | `get_history` | — | `{entries:[HistoryEntry]}` newest first |
//! | `clear_history` | — | `{cleared:true}` |
//! | `get_blocklist` | — | `{blocklist:[entry]}` |
//! | `add_blocked` | `domain` | `{blocklist}`; an invalid domain is `invalid_action` with the reason |
//! | `remove_blocked` | `domain` | `{blocklist}` |
//! | `set_blocklist` | `entries:[string]` | `{blocklist, invalid:[{entry, message}]}` |
//! | `get_settings` | — | [`Settings`] |
//! | `set_settings` | any of [`Settings`]' fields | [`Settings`] after the change |
//! | `reconnect` | — | `{reconnecting:true}`: drops the bridge connection (and a fatal state) and re-pairs now |
//! | `answer_handoff` | `tabId`, `answer` (`done` / `cancel`) | `{answered:bool}`: the popup's Done / Cancel on a handoff |
//!
//! Changing the blocklist ends the sessions on newly blocked domains before the answer (`domain_blocked`).

use crate::chrome::storage;
use crate::error::{Error, Result};
use crate::session::history::{self, HistoryEntry};
use crate::session::{self, Session};
use crate::{blocklist, controls, settings, windows};
use bua_protocol::EndReason;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// One request from the popup or the options page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum UiCommand {
    /// The active sessions and agent windows.
    ListSessions,
    /// The popup's per-session Stop: ends the tab's session as `user_stopped`.
    #[serde(rename_all = "camelCase")]
    StopSession {
        /// The session's tab.
        tab_id: i64,
    },
    /// The popup's red Stop all: `global_stop`.
    StopAll,
    /// The popup's Show: restores and focuses the agent window(s).
    ShowAgentWindow {
        /// Only this bridge client's window; all when absent.
        #[serde(default)]
        owner: Option<String>,
    },
    /// The audit log, newest first.
    GetHistory,
    /// Clears the audit log (the options page asks for confirmation first).
    ClearHistory,
    /// The blocklist.
    GetBlocklist,
    /// Adds one domain to the blocklist.
    AddBlocked {
        /// A domain, `*.domain`, or URL.
        domain: String,
    },
    /// Removes one domain from the blocklist.
    RemoveBlocked {
        /// The entry (normalised before comparing).
        domain: String,
    },
    /// Replaces the blocklist.
    SetBlocklist {
        /// Raw entries; invalid ones are reported and skipped.
        entries: Vec<String>,
    },
    /// The settings.
    GetSettings,
    /// Changes some settings.
    SetSettings(SettingsPatch),
    /// The popup's Done / Cancel on the handoff waiting on a tab (SPEC §4 `handoff`).
    #[serde(rename_all = "camelCase")]
    AnswerHandoff {
        /// The handed-over tab.
        tab_id: i64,
        /// Done or Cancel.
        answer: crate::actions::handoff::Answer,
    },
    /// The options page's "Save and test connection" with unchanged settings: re-pair now, even after a fatal
    /// reject (the user acted, SPEC §2).
    Reconnect,
}

/// The user settings (SPEC §2, §6, §10).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// The bridge's WebSocket URL, e.g. `ws://127.0.0.1:9225`.
    pub backend_url: String,
    /// The pairing token (empty when not paired).
    pub token: String,
    /// Seconds without input before sessions end as `system_idle` (≥ 15; default 1800).
    pub idle_timeout_seconds: u32,
    /// Unattended runs (SPEC §10): the only sites agents may open (normalised; empty: any site).
    #[serde(default)]
    pub allowlist: Vec<String>,
    /// Unattended runs: `evaluate` is refused with `not_allowed`.
    #[serde(default)]
    pub no_evaluate: bool,
    /// Unattended runs: `upload` is refused with `not_allowed`.
    #[serde(default)]
    pub no_upload: bool,
    /// What the connected bridge turned on (`--allow`, `--no-evaluate`, `--no-upload`), for the popup.
    #[serde(default)]
    pub bridge_controls: controls::BridgeControls,
}

/// Fields of [`Settings`] to change.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SettingsPatch {
    /// New backend URL (`ws://` or `wss://`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend_url: Option<String>,
    /// New pairing token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// New idle timeout in seconds (15 … 86400).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_timeout_seconds: Option<u32>,
    /// New allowlist (raw entries, normalised; invalid ones dropped; empty turns it off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowlist: Option<Vec<String>>,
    /// Turn `evaluate` off (true) or on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_evaluate: Option<bool>,
    /// Turn `upload` off (true) or on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_upload: Option<bool>,
}

/// `list_sessions` answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionList {
    /// Active sessions, oldest first.
    pub sessions: Vec<Session>,
    /// `{owner: windowId}` of the agent windows.
    pub agent_windows: windows::WindowMap,
    /// The worker's clock (ms since the Unix epoch), to compute ages.
    pub now: f64,
}

/// `get_history` answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryList {
    /// Newest first.
    pub entries: Vec<HistoryEntry>,
}

/// Parses and runs one message; never fails: errors become `{"error":{code,message}}`.
pub async fn handle_value(message: Value) -> Value {
    let command = match serde_json::from_value::<UiCommand>(message) {
        Ok(c) => c,
        Err(e) => {
            return error_value(&Error::InvalidAction(format!(
                "not a UI command ({e}); send {{\"cmd\": \"list_sessions\"}} or another cmd of SPEC §10"
            )))
        }
    };
    match handle(command).await {
        Ok(v) => v,
        Err(e) => error_value(&e),
    }
}

fn error_value(e: &Error) -> Value {
    json!({ "error": e.to_body() })
}

/// Runs one command.
pub async fn handle(command: UiCommand) -> Result<Value> {
    Ok(match command {
        UiCommand::ListSessions => {
            let (_, agent_windows) = windows::state().await?;
            serde_json::to_value(SessionList {
                sessions: session::sessions().await?,
                agent_windows,
                now: crate::time::now(),
            })?
        }
        UiCommand::StopSession { tab_id } => {
            let stopped = session::end_session_by_tab(tab_id, EndReason::UserStopped)
                .await
                .is_some();
            json!({ "stopped": stopped })
        }
        UiCommand::StopAll => {
            json!({ "stopped": session::end_all_sessions(EndReason::GlobalStop).await })
        }
        UiCommand::ShowAgentWindow { owner } => {
            json!({ "shown": windows::show(owner.as_deref()).await? })
        }
        UiCommand::GetHistory => serde_json::to_value(HistoryList {
            entries: history::read().await?,
        })?,
        UiCommand::ClearHistory => {
            history::clear();
            history::drained().await;
            json!({ "cleared": true })
        }
        UiCommand::AnswerHandoff { tab_id, answer } => {
            json!({ "answered": crate::actions::handoff::answer(tab_id, answer) })
        }
        UiCommand::GetBlocklist => json!({ "blocklist": blocklist::load().await? }),
        UiCommand::AddBlocked { domain } => {
            let list = blocklist::add(&domain).await?;
            session::end_all_sessions_for_domain(&list).await;
            json!({ "blocklist": list })
        }
        UiCommand::RemoveBlocked { domain } => {
            json!({ "blocklist": blocklist::remove(&domain).await? })
        }
        UiCommand::SetBlocklist { entries } => {
            let invalid: Vec<Value> = entries
                .iter()
                .filter_map(|e| {
                    blocklist::normalize_entry(e)
                        .err()
                        .map(|err| json!({ "entry": e, "message": err.to_string() }))
                })
                .collect();
            let list = blocklist::save(&entries).await?;
            session::end_all_sessions_for_domain(&list).await;
            json!({ "blocklist": list, "invalid": invalid })
        }
        UiCommand::GetSettings => serde_json::to_value(read_settings().await?)?,
        UiCommand::SetSettings(patch) => {
            apply_settings(&patch).await?;
            serde_json::to_value(read_settings().await?)?
        }
        UiCommand::Reconnect => {
            crate::bridge::reconnect();
            json!({ "reconnecting": true })
        }
    })
}

async fn read_settings() -> Result<Settings> {
    let backend = settings::backend().await?;
    let controls = controls::load().await?;
    Ok(Settings {
        backend_url: backend.url,
        token: backend.token.unwrap_or_default(),
        idle_timeout_seconds: settings::idle_seconds().await,
        allowlist: controls.allowlist,
        no_evaluate: controls.no_evaluate,
        no_upload: controls.no_upload,
        bridge_controls: controls.bridge,
    })
}

/// Checks a settings patch: `ws://`/`wss://` URL with a host, idle timeout 15 … 86400 s.
pub fn validate_settings(patch: &SettingsPatch) -> Result<()> {
    if let Some(u) = &patch.backend_url {
        let ok = url::Url::parse(u.trim())
            .ok()
            .is_some_and(|p| matches!(p.scheme(), "ws" | "wss") && p.host().is_some());
        if !ok {
            return Err(Error::InvalidAction(format!(
                "backendUrl `{u}` is not a WebSocket URL; use e.g. ws://127.0.0.1:9225"
            )));
        }
    }
    if let Some(s) = patch.idle_timeout_seconds {
        if !(15..=86_400).contains(&s) {
            return Err(Error::InvalidAction(format!(
                "idleTimeoutSeconds {s} is out of range; use 15 … 86400 (Chrome's minimum is 15 s)"
            )));
        }
    }
    Ok(())
}

async fn apply_settings(patch: &SettingsPatch) -> Result<()> {
    validate_settings(patch)?;
    if let Some(u) = &patch.backend_url {
        storage::set(settings::BACKEND_URL_KEY, u.trim()).await?;
    }
    if let Some(t) = &patch.token {
        storage::set(settings::TOKEN_KEY, t.trim()).await?;
    }
    if let Some(s) = patch.idle_timeout_seconds {
        storage::set(settings::IDLE_SECONDS_KEY, &s).await?;
        session::idle::configure().await;
    }
    if let Some(list) = &patch.allowlist {
        let list = blocklist::normalize_list(list);
        crate::store::local()
            .update(controls::ALLOWLIST_KEY, move |raw: &mut Vec<String>| {
                *raw = list
            })
            .await?;
    }
    // Through the worker's store, whose cache the controls are read from in front of every action.
    for (key, off) in [
        (controls::NO_EVALUATE_KEY, patch.no_evaluate),
        (controls::NO_UPLOAD_KEY, patch.no_upload),
    ] {
        if let Some(off) = off {
            crate::store::local()
                .update(key, move |v: &mut Option<bool>| *v = Some(off))
                .await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_from_the_json_the_pages_send() {
        let parse = |v: Value| serde_json::from_value::<UiCommand>(v).expect("command");
        assert_eq!(
            parse(json!({"cmd":"list_sessions"})),
            UiCommand::ListSessions
        );
        assert_eq!(
            parse(json!({"cmd":"stop_session","tabId":12})),
            UiCommand::StopSession { tab_id: 12 }
        );
        assert_eq!(
            parse(json!({"cmd":"show_agent_window"})),
            UiCommand::ShowAgentWindow { owner: None }
        );
        assert_eq!(
            parse(json!({"cmd":"set_settings","idleTimeoutSeconds":60})),
            UiCommand::SetSettings(SettingsPatch {
                idle_timeout_seconds: Some(60),
                ..Default::default()
            })
        );
        assert!(serde_json::from_value::<UiCommand>(json!({"cmd":"explode"})).is_err());
    }

    #[test]
    fn settings_are_validated_with_a_message_that_says_what_to_use() {
        let ok = SettingsPatch {
            backend_url: Some("ws://127.0.0.1:9225".into()),
            idle_timeout_seconds: Some(15),
            ..Default::default()
        };
        assert_eq!(validate_settings(&ok), Ok(()));
        let bad_url = SettingsPatch {
            backend_url: Some("http://127.0.0.1:9225".into()),
            ..Default::default()
        };
        let err = validate_settings(&bad_url).expect_err("http is not ws");
        assert!(err.to_string().contains("ws://"), "{err}");
        let short = SettingsPatch {
            idle_timeout_seconds: Some(5),
            ..Default::default()
        };
        assert!(validate_settings(&short).is_err());
    }
}
