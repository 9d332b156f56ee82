//! Pairing without pasting (SPEC §11): the extension asks `bua-bridge`'s native-messaging host
//! (`com.bua.bridge`, registered by `bua-bridge install`) for the bridge's URL and pairing token, and stores
//! them as the options page would (`backendUrl`, `token`), which reconnects the bridge client. It asks when
//! the worker starts (adopting the answer only while no token is set, so a token pasted by hand stays) and when
//! a connection is refused or rejected (adopting an answer that differs from the settings), at most once per
//! [`MIN_GAP_MS`]. Without the host (not installed, another browser) nothing changes: the options page still
//! takes a token by hand.

use crate::chrome::{native_messaging, storage};
use crate::settings::{self, Backend};
use std::cell::Cell;

/// The native-messaging host's name.
pub const HOST_NAME: &str = "com.bua.bridge";

/// Least time between two questions to the host, ms (each starts a process).
const MIN_GAP_MS: f64 = 5_000.0;

thread_local! {
    static LAST_ASKED: Cell<Option<f64>> = const { Cell::new(None) };
}

/// Why the host is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// The worker started.
    Start,
    /// The bridge refused the connection or rejected the handshake.
    Refused,
}

/// Whether to store `offered` over `stored` at `moment`: at start only when no token is set; after a refusal
/// whenever it differs.
pub fn adopt(moment: Moment, stored: &Backend, offered: &Backend) -> bool {
    match moment {
        Moment::Start => stored.token.is_none() && offered.token.is_some(),
        Moment::Refused => offered.token.is_some() && stored != offered,
    }
}

/// The host's answer as settings: `{"url","token"}`; `None` for anything else (an `error`, no URL).
pub fn offered(answer: &serde_json::Value) -> Option<Backend> {
    let url = answer.get("url")?.as_str()?.trim();
    let token = answer.get("token")?.as_str()?.trim();
    let ws = url.starts_with("ws://") || url.starts_with("wss://");
    (ws && !token.is_empty()).then(|| Backend {
        url: url.to_owned(),
        token: Some(token.to_owned()),
    })
}

/// [`ask_host`] once [`MIN_GAP_MS`] have passed since the last ask, for a handshake the bridge rejected: that
/// is the end of the bridge's own attempts (SPEC §2 "fatal"), so the ask must not be lost to the gap (a refused
/// connection a moment before, while the bridge restarted with a new token, asked already and found nothing new).
pub async fn ask_host_when_free(moment: Moment) -> bool {
    let since = LAST_ASKED.with(Cell::get).map(|t| js_sys::Date::now() - t);
    if let Some(wait) = since.map(|s| MIN_GAP_MS - s).filter(|w| *w > 0.0) {
        gloo_timers::future::TimeoutFuture::new(wait.ceil() as u32).await;
    }
    ask_host(moment).await
}

/// Asks the host (unless asked less than [`MIN_GAP_MS`] ago) and stores what it offers when [`adopt`] says so;
/// returns whether the settings changed.
pub async fn ask_host(moment: Moment) -> bool {
    let now = js_sys::Date::now();
    let recent = LAST_ASKED.with(|l| l.get().is_some_and(|t| now - t < MIN_GAP_MS));
    if recent {
        return false;
    }
    LAST_ASKED.with(|l| l.set(Some(now)));
    let answer =
        match native_messaging::send(HOST_NAME, &serde_json::json!({"type": "pairing"})).await {
            Ok(a) => a,
            Err(e) => {
                crate::log::info(&format!(
                    "no pairing from the native host ({e}); `bua-bridge install` registers it"
                ));
                return false;
            }
        };
    let Some(offer) = offered(&answer) else {
        crate::log::warn(&format!("the native host answered no pairing: {answer}"));
        return false;
    };
    let Ok(stored) = settings::backend().await else {
        return false;
    };
    if !adopt(moment, &stored, &offer) {
        return false;
    }
    crate::log::info(&format!(
        "paired through the native host with {}",
        offer.url
    ));
    let items = serde_json::json!({
        settings::BACKEND_URL_KEY: offer.url,
        settings::TOKEN_KEY: offer.token,
    });
    storage::set_items(&items).await.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(url: &str, token: Option<&str>) -> Backend {
        Backend {
            url: url.into(),
            token: token.map(Into::into),
        }
    }

    #[test]
    fn a_hand_set_token_stays_at_start_and_a_refused_one_is_replaced() {
        let offer = b("ws://127.0.0.1:9300", Some("t2"));
        assert!(adopt(
            Moment::Start,
            &b("ws://127.0.0.1:9225", None),
            &offer
        ));
        assert!(!adopt(
            Moment::Start,
            &b("ws://127.0.0.1:9225", Some("t1")),
            &offer
        ));
        assert!(adopt(
            Moment::Refused,
            &b("ws://127.0.0.1:9225", Some("t1")),
            &offer
        ));
        assert!(!adopt(Moment::Refused, &offer, &offer));
    }

    #[test]
    fn only_a_websocket_url_with_a_token_is_an_offer() {
        let ok = serde_json::json!({"url": "ws://127.0.0.1:9300", "token": "ab"});
        assert_eq!(offered(&ok), Some(b("ws://127.0.0.1:9300", Some("ab"))));
        for bad in [
            serde_json::json!({"error": "no token"}),
            serde_json::json!({"url": "http://x", "token": "ab"}),
            serde_json::json!({"url": "ws://x", "token": ""}),
        ] {
            assert_eq!(offered(&bad), None, "{bad}");
        }
    }
}
