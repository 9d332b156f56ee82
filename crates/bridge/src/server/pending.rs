//! Routing actions to the extension (SPEC §3, §4): each gets a UUIDv4 request id and the action's
//! timeout, and waits in the pending pool until the extension answers, the timeout passes, or its
//! extension connection goes (then every request sent on it fails with `no_extension`).

use std::sync::Arc;
use std::time::Instant;

use bua_protocol::{Action, ErrorBody, ErrorCode, Request, ToExtension};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

use super::frames::{millis, to_text};
use super::state::{lock, Pending, Shared};

/// Forwards one action to the current extension and waits for its answer or its timeout.
pub(super) async fn dispatch(
    shared: &Arc<Shared>,
    owner: &str,
    mut action: Action,
) -> std::result::Result<Value, ErrorBody> {
    if shared.config.switched_off.contains(&action.name()) {
        let name = action.name();
        return Err(ErrorBody::new(
            ErrorCode::NotAllowed,
            format!(
                "{name} is turned off: the person started the bridge with --no-{name}; do the task with the other \
                 actions, or tell the person it needs {name}"
            ),
        ));
    }
    // A named secret is read from the person's file here and travels only in the request (SPEC §4).
    crate::secrets::refuse_client_origins(&action)?;
    crate::secrets::resolve(&mut action, shared.config.secrets.as_deref())?;
    // An upload's files are read here, before any extension is asked, so a refused path costs nothing.
    let upload = match &action {
        Action::Upload(u) if u.staged.is_some() => {
            return Err(ErrorBody::invalid(
                "upload: staged: set by the bridge only; give the files as paths in `files`",
            ))
        }
        Action::Upload(u) => Some(crate::files::read(&u.files, &shared.config.files_dirs).await?),
        _ => None,
    };
    let Some((connection, tx)) = current_extension(shared).await else {
        let wait = shared.config.extension_wait;
        let waited = if wait.is_zero() {
            String::new()
        } else {
            format!(
                " (none connected within {} s of the bridge's start or the extension's last disconnect)",
                wait.as_secs_f64()
            )
        };
        return Err(ErrorBody::new(
            ErrorCode::NoExtension,
            format!("no extension is connected to the bridge{waited}: open Chrome with the BUA extension and pair it with the token printed by `bua-bridge serve`"),
        ));
    };
    let id = uuid::Uuid::new_v4().to_string();
    if let (Some(files), Action::Upload(u)) = (&upload, &mut action) {
        u.staged = Some(id.clone());
        for chunk in crate::files::chunks(&id, files) {
            if tx
                .send(to_text(&ToExtension::FileChunk(chunk)))
                .await
                .is_err()
            {
                return Err(ErrorBody::new(
                    ErrorCode::NoExtension,
                    "the extension disconnected while the upload's files were sent; send the action again",
                ));
            }
        }
    }
    drop(upload);
    let name = action.name();
    let limit = action.timeout();
    let (reply, answer) = oneshot::channel();
    lock(&shared.pending).insert(
        id.clone(),
        Pending {
            connection,
            action: name,
            started: Instant::now(),
            reply,
        },
    );
    let frame = to_text(&ToExtension::Request(Request {
        id: id.clone(),
        owner: Some(owner.to_string()),
        action,
    }));
    if tx.send(frame).await.is_err() {
        lock(&shared.pending).remove(&id);
        return Err(ErrorBody::new(
            ErrorCode::NoExtension,
            "the extension disconnected before the request could be sent; send the action again",
        ));
    }
    match tokio::time::timeout(limit, answer).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(_)) => Err(ErrorBody::new(
            ErrorCode::InternalError,
            "the bridge dropped the request without an answer",
        )),
        Err(_) => {
            lock(&shared.pending).remove(&id);
            tracing::warn!(%id, action = name, ms = millis(limit), "request timed out");
            Err(ErrorBody::new(
                ErrorCode::Timeout,
                format!(
                    "`{name}` got no answer from the extension within {} ms; check the page state (extract) before retrying",
                    millis(limit)
                ),
            ))
        }
    }
}

/// The connected extension's connection id and queue. With none connected, waits for one until
/// [`ServerConfig::extension_wait`] after the server's start or the last extension disconnect
/// (whichever is later); `None` when none came by then or the server shuts down.
async fn current_extension(shared: &Shared) -> Option<(u64, mpsc::Sender<Message>)> {
    let now = || {
        lock(&shared.extension)
            .as_ref()
            .map(|slot| (slot.info.connection, slot.tx.clone()))
    };
    if let Some(found) = now() {
        return Some(found);
    }
    let deadline = *lock(&shared.extension_expected_since) + shared.config.extension_wait;
    if Instant::now() >= deadline {
        return None;
    }
    let mut state = shared.extension_state.subscribe();
    let arrived = async {
        loop {
            if let Some(found) = now() {
                return Some(found);
            }
            if state.changed().await.is_err() {
                return None;
            }
        }
    };
    tracing::debug!("no extension connected: waiting for one");
    tokio::select! {
        found = tokio::time::timeout_at(deadline.into(), arrived) => found.ok().flatten(),
        _ = shared.shutdown.cancelled() => None,
    }
}

/// Fails every pending request sent on `connection` (all of them when `None`): `why` it got no answer,
/// then what to do ([`after_no_answer`]).
pub(super) fn fail_pending(shared: &Shared, connection: Option<u64>, code: ErrorCode, why: &str) {
    let failed: Vec<Pending> = {
        let mut pending = lock(&shared.pending);
        let ids: Vec<String> = pending
            .iter()
            .filter(|(_, p)| connection.is_none_or(|c| p.connection == c))
            .map(|(id, _)| id.clone())
            .collect();
        ids.iter().filter_map(|id| pending.remove(id)).collect()
    };
    for p in failed {
        tracing::info!(action = p.action, "failing a pending request: {why}");
        let message = format!("{why}; {}", after_no_answer(p.action));
        let _ = p.reply.send(Err(ErrorBody::new(code, message)));
    }
}

/// What to do about an action sent to the extension that got no answer (SPEC §9): an action that only
/// reads is sent again; any other may have happened (a tab opened, a click landed), and sending it again
/// blindly would do it twice.
fn after_no_answer(action: &str) -> String {
    if bua_protocol::is_read_action(action) {
        "send the action again".to_owned()
    } else {
        format!(
            "whether {action} happened is unknown (a tab may have opened, a click landed, a form been sent): \
             call get_tabs or extract to see the page before doing it again"
        )
    }
}
