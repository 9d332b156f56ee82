//! The idle-session guard (SPEC §6, the two end reasons that say the user is away): `chrome.idle` reports
//! `locked` → every session ends at once as `screen_locked`; `idle` (no input for the detection interval,
//! 30 min by default, at least 15 s) → every session ends as `system_idle`. `active` changes nothing. The
//! ending itself is [`super::manager::on_idle_state_changed`].

use bua_protocol::EndReason;

/// The end reason for a `chrome.idle.IdleState` (`"active"`, `"idle"`, `"locked"`), if it ends sessions.
pub fn reason_for_state(state: &str) -> Option<EndReason> {
    match state {
        "locked" => Some(EndReason::ScreenLocked),
        "idle" => Some(EndReason::SystemIdle),
        _ => None,
    }
}

/// Applies the idle timeout setting (`idleTimeoutSeconds`, SPEC §10) to `chrome.idle.setDetectionInterval`.
pub async fn configure() {
    let seconds = crate::settings::idle_seconds().await;
    crate::chrome::idle::set_detection_interval(seconds);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locked_and_idle_are_distinct_reasons_and_active_ends_nothing() {
        assert_eq!(reason_for_state("locked"), Some(EndReason::ScreenLocked));
        assert_eq!(reason_for_state("idle"), Some(EndReason::SystemIdle));
        assert_eq!(reason_for_state("active"), None);
        assert_eq!(reason_for_state("LOCKED"), None);
    }
}
