//! The WebSocket client of SPEC §2: the extension connects to `bua-bridge`, says `hello`, and then answers
//! `request`s one per action until the connection closes.
//!
//! State machine: `connecting` → (`ack`) → `connected` → (close) → `connecting` after a capped, jittered
//! backoff (0.25 s for the first 2 s, then 0.5 s → 10 s). `reject` is terminal ("fatal"): no more attempts until the backend URL or token
//! changes, and the reason is kept in `chrome.storage.local` (`connection`) for the popup. The worker pings every
//! 20 s, which both keeps the connection warm and keeps Chrome from stopping the worker (Chrome ≥ 116).

pub mod forward;
mod state;

pub use state::{ConnectionState, CONNECTION_KEY};

use crate::chrome::storage;
use crate::log;
use crate::settings;
use bua_protocol::{
    ErrorBody, FromExtension, Hello, Response, Role, ToExtension, PROTOCOL_VERSION,
};
use gloo_timers::callback::{Interval, Timeout};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

/// Keepalive period (SPEC §2: every 20 s, below the 30 s after which Chrome stops an idle worker).
const PING_MS: u32 = 20_000;
const BACKOFF_MIN_MS: f64 = 500.0;
/// Attempts at [`FAST_RETRY_MS`] before the exponential backoff: when a bridge process exits, another
/// (a second MCP server) takes its port over within about a second (SPEC §9 "Takeover"), and every
/// action waits for this extension to find it.
const FAST_RETRIES: u32 = 8;
const FAST_RETRY_MS: f64 = 250.0;
const BACKOFF_MAX_MS: f64 = 10_000.0;

/// One live socket with the closures that must live exactly as long as it.
struct Link {
    socket: WebSocket,
    /// Bumped for every new socket, so callbacks of a replaced socket are ignored.
    generation: u64,
    /// The URL and token it was opened with, to tell a real settings change from a rewrite of the same values.
    backend: settings::Backend,
    acked: bool,
    _on_open: Closure<dyn FnMut()>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
    _ping: Option<Interval>,
}

#[derive(Default)]
struct Client {
    link: Option<Link>,
    generation: u64,
    failures: u32,
    fatal: bool,
    reconnect: Option<Timeout>,
}

thread_local! {
    static CLIENT: RefCell<Client> = RefCell::new(Client::default());
}

/// Subscribes the event forwarder ([`forward`]) to the session bus, sending through this client.
pub fn install_forwarder() {
    forward::install(send);
}

/// Connects unless connected, connecting, or fatal. Called on worker start, on alarms and after backoff.
pub fn ensure_connected() {
    let busy = CLIENT.with(|c| {
        let c = c.borrow();
        c.fatal || c.link.is_some() || c.reconnect.is_some()
    });
    if !busy {
        wasm_bindgen_futures::spawn_local(connect());
    }
}

/// Restores the fatal flag from storage at worker start (a rejected pairing stays rejected across restarts);
/// whether it was set.
pub async fn restore_fatal() -> bool {
    if let Ok(Some(ConnectionState::Fatal { .. })) =
        storage::get::<ConnectionState>(CONNECTION_KEY).await
    {
        CLIENT.with(|c| c.borrow_mut().fatal = true);
        return true;
    }
    false
}

/// The backend URL or token was written (`chrome.storage.onChanged`): when either differs from what the current
/// socket was opened with, [`reconnect`]; else keep the socket. `bua-bridge launch` writes both while the worker
/// may already be connecting with them, and its `onChanged` can arrive after the pairing was acknowledged:
/// reconnecting then would drop a working connection, and an action sent in the gap would get `no_extension`.
pub fn settings_changed() {
    wasm_bindgen_futures::spawn_local(async {
        let Some(backend) = backend_or(reconnect).await else {
            return;
        };
        let current = CLIENT.with(|c| c.borrow().link.as_ref().map(|l| l.backend.clone()));
        if needs_reconnect(current.as_ref(), &backend) {
            reconnect();
        }
    });
}

/// The backend settings; `None` when they cannot be read (logged), after `retry`.
async fn backend_or(retry: fn()) -> Option<settings::Backend> {
    match settings::backend().await {
        Ok(b) => Some(b),
        Err(e) => {
            log::warn(&format!("cannot read the backend settings: {e}"));
            retry();
            None
        }
    }
}

/// Whether new settings `new` call for a new socket, given the settings of the current one (`None`: no socket,
/// which includes the fatal state after a `reject`).
fn needs_reconnect(current: Option<&settings::Backend>, new: &settings::Backend) -> bool {
    current != Some(new)
}

/// Drops the current socket, clears a fatal state, and connects again at once (the options page's Save and test
/// connection with unchanged settings, or changed settings).
pub fn reconnect() {
    CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        c.fatal = false;
        c.failures = 0;
        c.reconnect = None;
        if let Some(link) = c.link.take() {
            let _ = link
                .socket
                .close_with_code_and_reason(1000, "settings changed");
            retire(link);
        }
    });
    wasm_bindgen_futures::spawn_local(connect());
}

/// Sends one message if a connection is open and acknowledged; returns whether it was sent.
///
/// Every secret value the extension typed is scrubbed out of it first ([`crate::secret::scrub`], SPEC §5
/// "Secrets"): responses, errors and events alike.
pub fn send(message: &FromExtension) -> bool {
    let serialized = if crate::secret::any_remembered() {
        serde_json::to_value(message).and_then(|mut v| {
            crate::secret::scrub(&mut v);
            serde_json::to_string(&v)
        })
    } else {
        serde_json::to_string(message)
    };
    let text = match serialized {
        Ok(t) => t,
        Err(e) => {
            log::warn(&format!("cannot serialize an outbound message: {e}"));
            return false;
        }
    };
    CLIENT.with(|c| match &c.borrow().link {
        Some(link) if link.acked => link.socket.send_with_str(&text).is_ok(),
        _ => false,
    })
}

/// Whether the bridge connection is up (acknowledged).
pub fn is_connected() -> bool {
    CLIENT.with(|c| c.borrow().link.as_ref().is_some_and(|l| l.acked))
}

async fn connect() {
    let Some(backend) = backend_or(schedule_reconnect).await else {
        return;
    };
    // Re-check after the await: another connect may have won the race.
    let generation = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        if c.fatal || c.link.is_some() {
            return None;
        }
        c.reconnect = None;
        c.generation += 1;
        Some(c.generation)
    });
    let Some(generation) = generation else { return };
    // No await from here until the link is stored: a concurrent connect() (settings change, alarm, backoff)
    // must see it, or two sockets would replace each other at the bridge.
    let connecting = ConnectionState::Connecting {
        url: backend.url.clone(),
    };
    wasm_bindgen_futures::spawn_local(async move { state::store(&connecting).await });
    let socket = match WebSocket::new(&backend.url) {
        Ok(s) => s,
        Err(e) => {
            // A malformed URL is a configuration error the user must fix; keep retrying slowly meanwhile.
            log::warn(&format!(
                "cannot open {}: {}",
                backend.url,
                crate::error::js_message(&e)
            ));
            schedule_reconnect();
            return;
        }
    };
    let hello = FromExtension::Hello(Hello {
        role: Role::Extension,
        protocol_version: Some(PROTOCOL_VERSION),
        extension_version: Some(crate::chrome::runtime::extension_version()),
        name: Some("chrome-main".to_owned()),
        token: backend.token.clone(),
        owner: None,
    });
    let hello = serde_json::to_string(&hello).unwrap_or_default();

    let s = socket.clone();
    let on_open = Closure::<dyn FnMut()>::new(move || {
        if s.send_with_str(&hello).is_err() {
            log::warn("cannot send hello");
        }
    });
    let url = backend.url.clone();
    let on_message =
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            match event.data().as_string() {
                Some(text) => on_text(generation, &url, &text),
                None => log::warn("ignored a binary frame from the bridge"),
            }
        });
    let on_close = Closure::<dyn FnMut(CloseEvent)>::new(move |event: CloseEvent| {
        on_closed(generation, event.code(), &event.reason());
    });
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    CLIENT.with(|c| {
        c.borrow_mut().link = Some(Link {
            socket,
            generation,
            backend,
            acked: false,
            _on_open: on_open,
            _on_message: on_message,
            _on_close: on_close,
            _ping: None,
        })
    });
}

/// Unhooks a socket's handlers and drops its closures only after the current JS callback has returned:
/// dropping a closure while it runs (e.g. from inside `onclose`) or before a late event fires is an error in
/// wasm-bindgen ("closure invoked recursively or after being dropped").
fn retire(link: Link) {
    link.socket.set_onopen(None);
    link.socket.set_onmessage(None);
    link.socket.set_onclose(None);
    wasm_bindgen_futures::spawn_local(async move { drop(link) });
}

fn current(generation: u64) -> bool {
    CLIENT.with(|c| {
        c.borrow()
            .link
            .as_ref()
            .is_some_and(|l| l.generation == generation)
    })
}

fn on_text(generation: u64, url: &str, text: &str) {
    if !current(generation) {
        return;
    }
    match bua_protocol::parse_to_extension(text) {
        Ok(ToExtension::Ack(ack)) => {
            // The bridge's unattended-run controls (SPEC §10), kept for the browser session.
            let sent = ack.controls.unwrap_or_default();
            let controls = crate::controls::BridgeControls {
                allow: sent.allow,
                off: sent.off,
            };
            wasm_bindgen_futures::spawn_local(async move {
                if let Err(e) = crate::controls::store_bridge(&controls).await {
                    log::warn(&format!("cannot keep the bridge's controls: {e}"));
                }
                crate::session::netrules::request_sync();
            });
            on_ack(generation, url)
        }
        Ok(ToExtension::Reject(reject)) => on_reject(reject.error),
        Ok(ToExtension::FileChunk(chunk)) => crate::actions::upload::stage(chunk),
        Ok(ToExtension::Request(request)) => {
            wasm_bindgen_futures::spawn_local(async move {
                let id = request.id.clone();
                let staged = match &request.action {
                    bua_protocol::Action::Upload(u) => u.staged.clone(),
                    _ => None,
                };
                // Session events still buffered go out before the action's own (SPEC §8: in order).
                crate::session::ready().await;
                forward::flush();
                let response = match crate::actions::dispatch(request.owner, request.action).await {
                    Ok(result) => Response::ok(id, result),
                    Err(e) => Response::err(id, e.to_body()),
                };
                // An upload that failed before it took its bytes (blocklist, no session) frees them.
                if let Some(staged) = staged {
                    crate::actions::upload::discard(&staged);
                }
                if !send(&FromExtension::Response(response)) {
                    log::warn("the bridge went away before a response could be sent");
                }
            });
        }
        Ok(ToExtension::Pong) => {}
        Ok(ToExtension::Error { id, error }) => {
            log::warn(&format!(
                "the bridge refused a frame (id {id:?}): {}",
                error.message
            ));
        }
        Err(frame) => {
            // A malformed request: answer it (with its id when readable) and keep the connection open.
            log::warn(&format!(
                "malformed frame from the bridge: {}",
                frame.error.message
            ));
            let response = Response::err(frame.id.unwrap_or_default(), frame.error);
            send(&FromExtension::Response(response));
        }
    }
}

fn on_ack(generation: u64, url: &str) {
    let ping = Interval::new(PING_MS, || {
        send(&FromExtension::Ping);
    });
    CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        c.failures = 0;
        if let Some(link) = c.link.as_mut().filter(|l| l.generation == generation) {
            link.acked = true;
            link._ping = Some(ping);
        }
    });
    log::info(&format!("connected to {url}"));
    // Session events emitted while disconnected (e.g. by the worker-start reconcile) go out now.
    forward::flush();
    let url = url.to_owned();
    wasm_bindgen_futures::spawn_local(async move {
        state::store(&ConnectionState::Connected { url }).await;
    });
}

fn on_reject(error: ErrorBody) {
    log::warn(&format!(
        "the bridge rejected the handshake: {}",
        error.message
    ));
    // The native host may know the right token (SPEC §11); a change it stores reconnects.
    wasm_bindgen_futures::spawn_local(async {
        crate::pairing::ask_host_when_free(crate::pairing::Moment::Refused).await;
    });
    CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        c.fatal = true;
        c.reconnect = None;
        if let Some(link) = c.link.take() {
            let _ = link.socket.close();
            retire(link);
        }
    });
    wasm_bindgen_futures::spawn_local(async move {
        state::store(&ConnectionState::fatal(error)).await;
    });
}

fn on_closed(generation: u64, code: u16, reason: &str) {
    // Some(acked) when it was the current socket.
    let was_current = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        if c.link.as_ref().is_some_and(|l| l.generation == generation) {
            c.link.take().map(|link| {
                let acked = link.acked;
                retire(link);
                acked
            })
        } else {
            None
        }
    });
    let Some(acked) = was_current else {
        return;
    };
    if !acked {
        // Refused before any ack: the native host may name another bridge (SPEC §11).
        wasm_bindgen_futures::spawn_local(async {
            crate::pairing::ask_host(crate::pairing::Moment::Refused).await;
        });
    }
    log::info(&format!("connection closed ({code} {reason})"));
    schedule_reconnect();
}

fn schedule_reconnect() {
    CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        if c.fatal {
            return;
        }
        let delay = backoff_ms(c.failures, js_sys::Math::random());
        c.failures = c.failures.saturating_add(1);
        c.reconnect = Some(Timeout::new(delay, || {
            CLIENT.with(|c| c.borrow_mut().reconnect = None);
            wasm_bindgen_futures::spawn_local(connect());
        }));
    });
}

/// Retries every 0.25 s for the first [`FAST_RETRIES`] attempts (about 2 s), then a capped exponential
/// backoff: 0.5 s, 1 s, 2 s … 10 s; each delay scaled by a factor in [0.75, 1.25) (jitter).
pub fn backoff_ms(failures: u32, random: f64) -> u32 {
    let base = match failures.checked_sub(FAST_RETRIES) {
        None => FAST_RETRY_MS,
        Some(n) => (BACKOFF_MIN_MS * 2f64.powi(n.min(16) as i32)).min(BACKOFF_MAX_MS),
    };
    (base * (0.75 + 0.5 * random.clamp(0.0, 1.0))) as u32
}

#[cfg(test)]
mod tests {
    use super::{backoff_ms, needs_reconnect};
    use crate::settings::Backend;

    fn backend(url: &str, token: Option<&str>) -> Backend {
        Backend {
            url: url.to_owned(),
            token: token.map(str::to_owned),
        }
    }

    #[test]
    fn only_a_changed_url_or_token_replaces_the_socket() {
        let paired = backend("ws://127.0.0.1:9225", Some("abc"));
        assert!(
            !needs_reconnect(Some(&paired), &paired.clone()),
            "the same URL and token written again keep the socket"
        );
        assert!(needs_reconnect(
            Some(&paired),
            &backend("ws://127.0.0.1:9300", Some("abc"))
        ));
        assert!(needs_reconnect(
            Some(&paired),
            &backend("ws://127.0.0.1:9225", Some("def"))
        ));
        assert!(needs_reconnect(
            Some(&paired),
            &backend("ws://127.0.0.1:9225", None)
        ));
        assert!(
            needs_reconnect(None, &paired),
            "no socket (or a rejected one): connect with the settings"
        );
    }

    #[test]
    fn backoff_retries_fast_for_two_seconds_then_doubles_from_half_a_second_and_caps_at_ten() {
        assert_eq!(backoff_ms(0, 0.5), 250);
        assert_eq!(backoff_ms(7, 0.5), 250);
        assert_eq!(backoff_ms(8, 0.5), 500);
        assert_eq!(backoff_ms(9, 0.5), 1000);
        assert_eq!(backoff_ms(12, 0.5), 8000);
        assert_eq!(backoff_ms(13, 0.5), 10_000);
        assert_eq!(backoff_ms(100, 0.5), 10_000);
        assert_eq!(backoff_ms(8, 0.0), 375);
        assert!(backoff_ms(30, 1.0) <= 12_500);
    }
}
