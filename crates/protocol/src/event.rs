//! Events of SPEC §8: one-way, extension → bridge, wrapped as `{"type":"event","event":{…}}`.
//!
//! Times are ms since the Unix epoch (`Date.now()`, f64). Parsing ignores unknown fields, because
//! new optional event fields are pure additions (no version bump); known fields are checked.

use crate::action::{TabId, MAX_TAB_ID};
use crate::error::ErrorBody;
use crate::result::HandoffOutcome;
use crate::wire::{Fields, Res};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// Why a session ended (SPEC §6); every reason goes through one cleanup path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The tab was closed.
    TabClosed,
    /// The popup's Stop, or the debugger infobar's Cancel (`debugger.onDetach`).
    UserStopped,
    /// `chrome.idle` reported idle.
    SystemIdle,
    /// `chrome.idle` reported locked.
    ScreenLocked,
    /// The domain was blocklisted, or the tab navigated onto a blocked domain.
    DomainBlocked,
    /// The popup's Stop all.
    GlobalStop,
    /// Found ended when the service worker restarted.
    ExtensionReload,
}

const END_REASONS: [EndReason; 7] = [
    EndReason::TabClosed,
    EndReason::UserStopped,
    EndReason::SystemIdle,
    EndReason::ScreenLocked,
    EndReason::DomainBlocked,
    EndReason::GlobalStop,
    EndReason::ExtensionReload,
];

impl EndReason {
    /// The wire spelling, e.g. `"user_stopped"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            EndReason::TabClosed => "tab_closed",
            EndReason::UserStopped => "user_stopped",
            EndReason::SystemIdle => "system_idle",
            EndReason::ScreenLocked => "screen_locked",
            EndReason::DomainBlocked => "domain_blocked",
            EndReason::GlobalStop => "global_stop",
            EndReason::ExtensionReload => "extension_reload",
        }
    }

    /// Every reason.
    pub fn all() -> &'static [EndReason] {
        &END_REASONS
    }

    /// Parses the wire spelling.
    pub fn from_wire(s: &str) -> Option<EndReason> {
        END_REASONS.iter().copied().find(|r| r.as_str() == s)
    }
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One event (SPEC §8), tagged by `type`, camelCase fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// `{"type":"session_started","tabId":12,"domain":"example.com","startedAt":1.7e12,"owner":"agent"}`
    #[serde(rename_all = "camelCase")]
    SessionStarted {
        /// The session's tab.
        tab_id: TabId,
        /// The tab's registrable host, e.g. `"example.com"`.
        domain: String,
        /// ms since the Unix epoch.
        started_at: f64,
        /// `"agent"` (a tab the agent opened) or `"user"` (the user's own tab).
        owner: String,
    },
    /// `{"type":"session_ended","tabId":12,"domain":"…","reason":"user_stopped","startedAt":…,"endedAt":…,"actionCount":3}`
    #[serde(rename_all = "camelCase")]
    SessionEnded {
        /// The session's tab.
        tab_id: TabId,
        /// The session's domain.
        domain: String,
        /// Why it ended.
        reason: EndReason,
        /// ms since the Unix epoch.
        started_at: f64,
        /// ms since the Unix epoch.
        ended_at: f64,
        /// Actions run in the session.
        action_count: u32,
    },
    /// `{"type":"domain_blocked","domain":"bank.example","url":"https://…","tabId":12}`
    #[serde(rename_all = "camelCase")]
    DomainBlocked {
        /// The blocked domain (the blocklist entry that matched, normalised).
        domain: String,
        /// The URL that was refused.
        #[serde(skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        /// The tab, when there was one.
        #[serde(skip_serializing_if = "Option::is_none")]
        tab_id: Option<TabId>,
    },
    /// `{"type":"global_stop","at":1.7e12,"sessionCount":2}`: emitted before the per-session `session_ended`.
    #[serde(rename_all = "camelCase")]
    GlobalStop {
        /// ms since the Unix epoch.
        at: f64,
        /// Sessions that were active.
        session_count: u32,
    },
    /// `{"type":"tab_closed","tabId":12}`
    #[serde(rename_all = "camelCase")]
    TabClosed {
        /// The closed tab.
        tab_id: TabId,
    },
    /// `{"type":"handoff_started","tabId":12,"domain":"example.com","reason":"sign in","startedAt":1.7e12}`:
    /// the agent handed the tab to the person (`handoff`, SPEC §4).
    #[serde(rename_all = "camelCase")]
    HandoffStarted {
        /// The tab shown to the person.
        tab_id: TabId,
        /// Its domain.
        domain: String,
        /// The agent's one-line reason.
        reason: String,
        /// ms since the Unix epoch.
        started_at: f64,
    },
    /// `{"type":"handoff_ended","tabId":12,"domain":"…","outcome":"page","startedAt":…,"endedAt":…}`.
    #[serde(rename_all = "camelCase")]
    HandoffEnded {
        /// The tab.
        tab_id: TabId,
        /// Its domain when the handoff began.
        domain: String,
        /// page / user / cancelled / timeout / session_ended.
        outcome: HandoffOutcome,
        /// ms since the Unix epoch.
        started_at: f64,
        /// ms since the Unix epoch.
        ended_at: f64,
    },
}

/// Every event type, in SPEC §8 order.
pub const EVENT_NAMES: [&str; 7] = [
    "session_started",
    "session_ended",
    "domain_blocked",
    "global_stop",
    "tab_closed",
    "handoff_started",
    "handoff_ended",
];

fn req_tab(f: &mut Fields<'_>) -> Res<TabId> {
    f.opt_int("tabId", 0, MAX_TAB_ID)?
        .ok_or_else(|| f.err("tabId", "required"))
}

fn req_time(f: &mut Fields<'_>, field: &str) -> Res<f64> {
    f.req_f64(field, 0.0, f64::MAX)
}

fn req_count(f: &mut Fields<'_>, field: &str) -> Res<u32> {
    f.opt_u32(field, 0, u32::MAX)?
        .ok_or_else(|| f.err(field, "required"))
}

impl Event {
    /// The wire `type`, e.g. `"session_ended"`.
    pub fn name(&self) -> &'static str {
        match self {
            Event::SessionStarted { .. } => "session_started",
            Event::SessionEnded { .. } => "session_ended",
            Event::DomainBlocked { .. } => "domain_blocked",
            Event::GlobalStop { .. } => "global_stop",
            Event::TabClosed { .. } => "tab_closed",
            Event::HandoffStarted { .. } => "handoff_started",
            Event::HandoffEnded { .. } => "handoff_ended",
        }
    }

    /// The tab the event is about, if any.
    pub fn tab_id(&self) -> Option<TabId> {
        match self {
            Event::SessionStarted { tab_id, .. }
            | Event::SessionEnded { tab_id, .. }
            | Event::TabClosed { tab_id }
            | Event::HandoffStarted { tab_id, .. }
            | Event::HandoffEnded { tab_id, .. } => Some(*tab_id),
            Event::DomainBlocked { tab_id, .. } => *tab_id,
            Event::GlobalStop { .. } => None,
        }
    }

    /// The wire JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Parses and checks one event; unknown fields are ignored, unknown types are refused
    /// (`invalid_action`, naming the field).
    pub fn from_value(v: &Value) -> Result<Event, ErrorBody> {
        let mut f = Fields::new("event", v, &[])?;
        let ty = f.req_str("type")?;
        let Some(name) = EVENT_NAMES.iter().copied().find(|n| *n == ty) else {
            return Err(f.err(
                "type",
                format!(
                    "unknown event `{ty}`; expected one of {}",
                    EVENT_NAMES.join(", ")
                ),
            ));
        };
        let mut f = Fields::new(name, v, &[])?;
        f.take("type");
        Ok(match name {
            "session_started" => Event::SessionStarted {
                tab_id: req_tab(&mut f)?,
                domain: f.req_str("domain")?,
                started_at: req_time(&mut f, "startedAt")?,
                owner: f.req_str("owner")?,
            },
            "session_ended" => Event::SessionEnded {
                tab_id: req_tab(&mut f)?,
                domain: f.req_str("domain")?,
                reason: {
                    let r = f.req_str("reason")?;
                    EndReason::from_wire(&r)
                        .ok_or_else(|| f.err("reason", format!("unknown end reason `{r}`")))?
                },
                started_at: req_time(&mut f, "startedAt")?,
                ended_at: req_time(&mut f, "endedAt")?,
                action_count: req_count(&mut f, "actionCount")?,
            },
            "domain_blocked" => Event::DomainBlocked {
                domain: f.req_str("domain")?,
                url: f.opt_str("url")?,
                tab_id: f.opt_int("tabId", 0, MAX_TAB_ID)?,
            },
            "global_stop" => Event::GlobalStop {
                at: req_time(&mut f, "at")?,
                session_count: req_count(&mut f, "sessionCount")?,
            },
            "handoff_started" => Event::HandoffStarted {
                tab_id: req_tab(&mut f)?,
                domain: f.req_str("domain")?,
                reason: f.req_str("reason")?,
                started_at: req_time(&mut f, "startedAt")?,
            },
            "handoff_ended" => Event::HandoffEnded {
                tab_id: req_tab(&mut f)?,
                domain: f.req_str("domain")?,
                outcome: {
                    let o = f.req_str("outcome")?;
                    HandoffOutcome::from_wire(&o)
                        .ok_or_else(|| f.err("outcome", format!("unknown handoff outcome `{o}`")))?
                },
                started_at: req_time(&mut f, "startedAt")?,
                ended_at: req_time(&mut f, "endedAt")?,
            },
            _ => Event::TabClosed {
                tab_id: req_tab(&mut f)?,
            },
        })
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(deserializer)?;
        Event::from_value(&v).map_err(|e| serde::de::Error::custom(e.message))
    }
}
