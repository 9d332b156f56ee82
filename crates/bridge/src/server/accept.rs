//! Accepting connections: the accept loop, and the WebSocket upgrade of each one, classified by
//! its `Origin` ([`crate::origin`]); a refused Origin gets HTTP 403 and never reaches the handshake.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::handshake::server::{
    ErrorResponse, Request as HttpRequest, Response as HttpResponse,
};
use tokio_tungstenite::tungstenite::http::StatusCode;

use super::config::HANDSHAKE_TIMEOUT;
use super::connection::Connection;
use super::frames::websocket_config;
use super::state::{Counters, Shared};
use crate::origin::{classify_origin, OriginClass};

/// Accepts TCP connections until shutdown; each one is upgraded and served on its own task.
pub(super) async fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        tokio::select! {
            _ = shared.shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let shared = shared.clone();
                    tokio::spawn(async move { handle_connection(shared, stream, peer).await });
                }
                Err(e) => {
                    // EMFILE and friends: back off instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }
    tracing::info!("bua-bridge stopped accepting connections");
}

/// The HTTP 403 answer to an upgrade whose Origin is refused.
fn forbidden(reason: &str) -> ErrorResponse {
    let mut response =
        ErrorResponse::new(Some(format!("bua-bridge: connection refused: {reason}\n")));
    *response.status_mut() = StatusCode::FORBIDDEN;
    response
}

// The callback's error type is fixed by tungstenite (`http::Response`), so it cannot be boxed.
#[allow(clippy::result_large_err)]
/// Upgrades one TCP connection after checking its `Origin` ([`classify_origin`]), then runs it.
async fn handle_connection(shared: Arc<Shared>, stream: TcpStream, peer: SocketAddr) {
    let mut class: Option<OriginClass> = None;
    let pinned = shared.config.extension_id.clone();
    let counters = &shared.counters;
    let callback = |request: &HttpRequest, response: HttpResponse| {
        Counters::bump(&counters.upgrade_requests);
        let origins: Vec<&[u8]> = request
            .headers()
            .get_all("origin")
            .iter()
            .map(|v| v.as_bytes())
            .collect();
        match classify_origin(&origins, pinned.as_deref()) {
            Ok(c) => {
                if matches!(c, OriginClass::Extension(_)) {
                    Counters::bump(&counters.extension_upgrades);
                }
                class = Some(c);
                Ok(response)
            }
            Err(reason) => {
                Counters::bump(&counters.refused_origins);
                tracing::warn!(%peer, %reason, "refused a WebSocket upgrade (Origin)");
                Err(forbidden(&reason))
            }
        }
    };
    let upgrade =
        tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(websocket_config()));
    let ws = match tokio::time::timeout(HANDSHAKE_TIMEOUT, upgrade).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            tracing::debug!(%peer, error = %e, "WebSocket upgrade failed");
            return;
        }
        Err(_) => {
            tracing::debug!(%peer, "WebSocket upgrade timed out");
            return;
        }
    };
    let Some(class) = class else { return };
    let connection = shared.next_connection.fetch_add(1, Ordering::Relaxed);
    Connection::run(shared, ws, class, peer, connection).await;
}
