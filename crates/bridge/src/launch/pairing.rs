//! Pairing the launched extension (SPEC §2): through Chromium's DevTools, the bridge URL and the
//! token are written into the extension service worker's `chrome.storage.local`, and the launch
//! waits for the extension's `ack`.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::launched::Launched;
use crate::devtools::{self, DevTools};
use crate::error::{Error, Result};

/// How long `launch` may take from start to `READY` (15 s, the budget on a 2-core machine).
pub const READY_TIMEOUT: Duration = Duration::from_secs(15);

/// The time left until `deadline` (zero once it passed).
fn remaining(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

pub(super) async fn pair(
    launched: &mut Launched,
    pinned: Option<&str>,
    deadline: Instant,
) -> Result<()> {
    let profile = launched.profile_dir().to_path_buf();
    let (port, url) = tokio::select! {
        r = devtools::active_port(&profile, remaining(deadline)) => r?,
        status = launched.browser.child.wait() => {
            return Err(Error::Launch(format!(
                "Chromium exited during startup ({}); run with --chrome-output to see why",
                status.map(|s| s.to_string()).unwrap_or_else(|e| e.to_string())
            )))
        }
    };
    launched.devtools_port = port;
    launched.devtools_url = url.clone();
    let cdp = DevTools::connect(&url).await?;
    let worker = cdp
        .wait_for_target(
            "service_worker",
            |u| match pinned {
                Some(id) => u == devtools::service_worker_url(id),
                None => u.starts_with("chrome-extension://") && u.ends_with("/background.js"),
            },
            remaining(deadline),
        )
        .await
        .map_err(|e| {
            Error::Launch(format!(
                "the extension's service worker did not start ({e}); check that the extension folder is a built extension (./build.sh)"
            ))
        })?;
    if pinned.is_none() {
        // chrome-extension://<id>/background.js
        if let Some(id) = worker
            .url
            .strip_prefix("chrome-extension://")
            .and_then(|rest| rest.split('/').next())
        {
            launched.extension_id = id.to_string();
        }
    }
    let backend = format!("ws://127.0.0.1:{}", launched.server.port());
    write_pairing(
        &cdp,
        &worker.id,
        &backend,
        launched.server.token(),
        deadline,
    )
    .await?;
    tracing::info!(%backend, worker = %worker.url, "pairing written to the extension's storage");
    let info = launched
        .server
        .wait_for_extension(remaining(deadline))
        .await
        .map_err(|e| Error::Launch(format!("the extension did not complete the handshake: {e}")))?;
    launched.extension_id = info.extension_id;
    Ok(())
}

/// Writes `{backendUrl, token}` to the extension's storage through its service worker's DevTools target;
/// the extension then connects there (SPEC §2).
async fn write_pairing(
    cdp: &DevTools,
    worker_id: &str,
    backend: &str,
    token: &str,
    deadline: Instant,
) -> Result<()> {
    let expression = format!(
        "chrome.storage.local.set({{backendUrl: {}, token: {}}}).then(() => true)",
        devtools::js_string(backend),
        devtools::js_string(token)
    );
    // Right after the worker target appears its script may not have run yet (`chrome` is then
    // undefined in the worker's global scope): poll until the extension APIs are there.
    let session = cdp.attach(worker_id).await?;
    let ready = "typeof chrome === 'object' && !!(chrome.storage && chrome.storage.local)";
    loop {
        match cdp.evaluate(&session, ready).await {
            Ok(Value::Bool(true)) => break,
            Ok(_) | Err(Error::DevTools { .. }) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Ok(v) => {
                return Err(Error::Launch(format!(
                    "the extension's service worker never exposed chrome.storage (last check: {v})"
                )))
            }
            Err(e) => return Err(e),
        }
    }
    cdp.evaluate(&session, &expression).await?;
    cdp.detach(&session).await;
    Ok(())
}

impl Launched {
    /// Points the launched browser's extension at another bridge on 127.0.0.1 (`port`, `token`) — one a
    /// `bua-bridge mcp` serves in-process, as it does by default — instead of this launch's own server.
    /// Returns once the pairing is written; the extension connects on its own (SPEC §2).
    pub async fn pair_with(&self, port: u16, token: &str) -> Result<()> {
        let deadline = Instant::now() + READY_TIMEOUT;
        let cdp = DevTools::connect(&self.devtools_url).await?;
        let worker_url = devtools::service_worker_url(&self.extension_id);
        let worker = cdp
            .wait_for_target("service_worker", |u| u == worker_url, remaining(deadline))
            .await?;
        write_pairing(
            &cdp,
            &worker.id,
            &format!("ws://127.0.0.1:{port}"),
            token,
            deadline,
        )
        .await
    }
}
