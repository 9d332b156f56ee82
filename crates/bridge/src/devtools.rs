//! A small Chrome DevTools Protocol client over the browser's DevTools WebSocket.
//!
//! `launch` uses it to find the extension's service worker and pair it; the end-to-end tests use it
//! to stop the worker, read and write extension storage and open pages. It speaks the flat-session
//! protocol: commands on an attached target carry `sessionId` (`Target.attachToTarget{flatten:true}`).
//! Chrome refuses DevTools WebSocket upgrades that carry an `Origin`; tungstenite sends none.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

use crate::error::{Error, Result};

/// Default time a CDP command may take before [`DevTools::send`] gives up (10 s).
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// One CDP event: `method`, `params` and the `sessionId` of the target it came from (if any).
#[derive(Debug, Clone)]
pub struct CdpEvent {
    /// E.g. `Target.targetCreated`.
    pub method: String,
    /// The event's parameters.
    pub params: Value,
    /// The flat session it belongs to; `None` for browser-level events.
    pub session_id: Option<String>,
}

impl CdpEvent {
    /// The URL of the target a `Target.targetCreated` announces; `None` for any other event.
    pub fn created_target_url(&self) -> Option<&str> {
        if self.method != "Target.targetCreated" {
            return None;
        }
        self.params
            .pointer("/targetInfo/url")
            .and_then(Value::as_str)
    }
}

/// A target as listed by `Target.getTargets`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetInfo {
    /// `targetId`.
    pub id: String,
    /// `type`: `page`, `service_worker`, `background_page`, `iframe`, `browser`, …
    pub kind: String,
    /// The target's URL.
    pub url: String,
    /// The target's title.
    pub title: String,
}

impl TargetInfo {
    fn from_value(v: &Value) -> Option<Self> {
        Some(TargetInfo {
            id: v.get("targetId")?.as_str()?.to_string(),
            kind: v.get("type")?.as_str()?.to_string(),
            url: v
                .get("url")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            title: v
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
        })
    }
}

type Reply = oneshot::Sender<std::result::Result<Value, String>>;

struct Inner {
    pending: Mutex<HashMap<u64, Reply>>,
    events: broadcast::Sender<CdpEvent>,
    next_id: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A connection to the browser's DevTools endpoint.
pub struct DevTools {
    tx: mpsc::Sender<Message>,
    inner: Arc<Inner>,
    reader: tokio::task::JoinHandle<()>,
    ws_url: String,
}

impl Drop for DevTools {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// Reads `DevToolsActivePort` (line 1: port, line 2: browser path) from a profile directory and
/// returns `(port, ws://127.0.0.1:<port><path>)`, waiting up to `limit` for Chrome to write it.
pub async fn active_port(profile: &Path, limit: Duration) -> Result<(u16, String)> {
    let file = profile.join("DevToolsActivePort");
    let deadline = Instant::now() + limit;
    loop {
        if let Ok(text) = tokio::fs::read_to_string(&file).await {
            let mut lines = text.lines();
            let port = lines.next().and_then(|l| l.trim().parse::<u16>().ok());
            let path = lines.next().map(str::trim).filter(|p| p.starts_with('/'));
            if let (Some(port), Some(path)) = (port, path) {
                return Ok((port, format!("ws://127.0.0.1:{port}{path}")));
            }
        }
        if Instant::now() >= deadline {
            return Err(Error::Timeout {
                what: format!(
                    "{} (is Chromium running with --remote-debugging-port?)",
                    file.display()
                ),
                ms: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
            });
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

impl DevTools {
    /// Connects to a browser DevTools WebSocket URL (`ws://127.0.0.1:<port>/devtools/browser/<id>`).
    pub async fn connect(ws_url: &str) -> Result<Self> {
        let config = crate::server::websocket_config();
        let (ws, _) =
            tokio_tungstenite::connect_async_with_config(ws_url, Some(config), false).await?;
        let (mut sink, mut stream) = ws.split();
        let (events, _) = broadcast::channel(4096);
        let inner = Arc::new(Inner {
            pending: Mutex::new(HashMap::new()),
            events,
            next_id: AtomicU64::new(1),
        });
        let (tx, mut rx) = mpsc::channel::<Message>(256);
        let writer = tokio::spawn(async move {
            while let Some(m) = rx.recv().await {
                if sink.send(m).await.is_err() {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let reader_inner = inner.clone();
        let reader = tokio::spawn(async move {
            while let Some(Ok(message)) = stream.next().await {
                if let Message::Text(text) = message {
                    route(&reader_inner, text.as_str());
                }
            }
            writer.abort();
            let pending = std::mem::take(&mut *lock(&reader_inner.pending));
            for reply in pending.into_values() {
                let _ = reply.send(Err("the DevTools connection closed".to_string()));
            }
        });
        Ok(DevTools {
            tx,
            inner,
            reader,
            ws_url: ws_url.to_string(),
        })
    }

    /// Connects using the `DevToolsActivePort` file of a running browser's profile directory.
    pub async fn connect_to_profile(profile: &Path, limit: Duration) -> Result<Self> {
        let (_, url) = active_port(profile, limit).await?;
        Self::connect(&url).await
    }

    /// The browser WebSocket URL this client is connected to.
    pub fn ws_url(&self) -> &str {
        &self.ws_url
    }

    /// Every CDP event from now on (browser-level and from attached sessions).
    pub fn events(&self) -> broadcast::Receiver<CdpEvent> {
        self.inner.events.subscribe()
    }

    /// Sends one command (to the browser, or to a flat `session_id`) and returns its `result`,
    /// waiting at most [`COMMAND_TIMEOUT`].
    ///
    /// Errors: [`Error::DevTools`] with CDP's error message, [`Error::Timeout`], [`Error::Closed`].
    pub async fn send(
        &self,
        method: &str,
        params: Value,
        session_id: Option<&str>,
    ) -> Result<Value> {
        self.send_timeout(method, params, session_id, COMMAND_TIMEOUT)
            .await
    }

    /// [`DevTools::send`] with an explicit time limit.
    pub async fn send_timeout(
        &self,
        method: &str,
        params: Value,
        session_id: Option<&str>,
        limit: Duration,
    ) -> Result<Value> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let mut command = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session_id {
            command["sessionId"] = Value::String(session.to_string());
        }
        let (reply, answer) = oneshot::channel();
        lock(&self.inner.pending).insert(id, reply);
        if self
            .tx
            .send(Message::text(command.to_string()))
            .await
            .is_err()
        {
            lock(&self.inner.pending).remove(&id);
            return Err(Error::Closed("the DevTools connection is closed".into()));
        }
        match tokio::time::timeout(limit, answer).await {
            Ok(Ok(Ok(result))) => Ok(result),
            Ok(Ok(Err(message))) => Err(Error::DevTools {
                method: method.to_string(),
                message,
            }),
            Ok(Err(_)) => Err(Error::Closed("the DevTools connection is closed".into())),
            Err(_) => {
                lock(&self.inner.pending).remove(&id);
                Err(Error::Timeout {
                    what: format!("DevTools {method}"),
                    ms: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
                })
            }
        }
    }

    /// All targets (`Target.getTargets`): pages, workers, service workers, …
    pub async fn targets(&self) -> Result<Vec<TargetInfo>> {
        let result = self.send("Target.getTargets", json!({}), None).await?;
        Ok(result
            .get("targetInfos")
            .and_then(Value::as_array)
            .map(|infos| infos.iter().filter_map(TargetInfo::from_value).collect())
            .unwrap_or_default())
    }

    /// The first target of type `kind` whose URL satisfies `url_matches`.
    pub async fn find_target(
        &self,
        kind: &str,
        url_matches: impl Fn(&str) -> bool,
    ) -> Result<Option<TargetInfo>> {
        Ok(self
            .targets()
            .await?
            .into_iter()
            .find(|t| t.kind == kind && url_matches(&t.url)))
    }

    /// Polls [`DevTools::find_target`] every 50 ms until a target matches or `limit` passes.
    pub async fn wait_for_target(
        &self,
        kind: &str,
        url_matches: impl Fn(&str) -> bool,
        limit: Duration,
    ) -> Result<TargetInfo> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(t) = self.find_target(kind, &url_matches).await? {
                return Ok(t);
            }
            if Instant::now() >= deadline {
                return Err(Error::Timeout {
                    what: format!("a DevTools target of type {kind}"),
                    ms: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
                });
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Attaches to a target in flat mode and returns the `sessionId`.
    pub async fn attach(&self, target_id: &str) -> Result<String> {
        let result = self.send(ATTACH, attach_params(target_id), None).await?;
        result_str(&result, "sessionId").ok_or_else(|| Error::UnexpectedMessage {
            peer: "DevTools",
            detail: format!("{ATTACH} answered without sessionId: {result}"),
        })
    }

    /// Detaches a flat session (errors ignored: the target may already be gone).
    pub async fn detach(&self, session_id: &str) {
        let _ = self
            .send(
                "Target.detachFromTarget",
                json!({"sessionId": session_id}),
                None,
            )
            .await;
    }

    /// Evaluates `expression` in an attached session (`Runtime.evaluate` with `awaitPromise` and
    /// `returnByValue`) and returns the value (`Value::Null` for `undefined`).
    ///
    /// Errors: [`Error::DevTools`] carrying the JS exception text when it throws.
    pub async fn evaluate(&self, session_id: &str, expression: &str) -> Result<Value> {
        let result = self
            .send(EVALUATE, evaluate_params(expression), Some(session_id))
            .await?;
        evaluated_value(&result).map_err(|message| Error::DevTools {
            method: EVALUATE.to_string(),
            message,
        })
    }

    /// Attaches to `target_id`, evaluates `expression`, detaches, and returns the value.
    pub async fn evaluate_in_target(&self, target_id: &str, expression: &str) -> Result<Value> {
        let session = self.attach(target_id).await?;
        let result = self.evaluate(&session, expression).await;
        self.detach(&session).await;
        result
    }

    /// Opens a new page target at `url` (`Target.createTarget`) and returns its `targetId`.
    pub async fn open_page(&self, url: &str) -> Result<String> {
        let result = self
            .send("Target.createTarget", json!({"url": url}), None)
            .await?;
        result_str(&result, "targetId").ok_or_else(|| Error::UnexpectedMessage {
            peer: "DevTools",
            detail: format!("Target.createTarget answered without targetId: {result}"),
        })
    }

    /// Closes a target (`Target.closeTarget`): a page, or a service worker (which stops it).
    pub async fn close_target(&self, target_id: &str) -> Result<()> {
        self.send("Target.closeTarget", json!({"targetId": target_id}), None)
            .await
            .map(|_| ())
    }
}

fn route(inner: &Inner, text: &str) {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return;
    };
    if let Some(id) = value.get("id").and_then(Value::as_u64) {
        let Some(reply) = lock(&inner.pending).remove(&id) else {
            return;
        };
        let outcome = match value.get("error") {
            Some(error) => Err(error
                .get("message")
                .and_then(Value::as_str)
                .map(|m| match error.get("data").and_then(Value::as_str) {
                    Some(data) => format!("{m} ({data})"),
                    None => m.to_string(),
                })
                .unwrap_or_else(|| error.to_string())),
            None => Ok(value.get("result").cloned().unwrap_or(Value::Null)),
        };
        let _ = reply.send(outcome);
    } else if let Some(method) = value.get("method").and_then(Value::as_str) {
        let _ = inner.events.send(CdpEvent {
            method: method.to_string(),
            params: value.get("params").cloned().unwrap_or(Value::Null),
            session_id: value
                .get("sessionId")
                .and_then(Value::as_str)
                .map(str::to_string),
        });
    }
}

/// The URL of an extension's service worker script (`chrome-extension://<id>/background.js`).
pub fn service_worker_url(extension_id: &str) -> String {
    format!("chrome-extension://{extension_id}/background.js")
}

/// A JS string literal for `s` (JSON string syntax is valid JS).
pub fn js_string(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

// ---------------------------------------------------------------------------------------------
// Command shapes, shared with the bench's raw CDP floor (`bua-bench`'s `rawcdp`)

/// CDP `Target.attachToTarget`.
pub const ATTACH: &str = "Target.attachToTarget";

/// CDP `Runtime.evaluate`.
pub const EVALUATE: &str = "Runtime.evaluate";

/// [`ATTACH`]'s params for `target_id` in flat mode: commands to the target then carry the `sessionId`.
pub fn attach_params(target_id: &str) -> Value {
    json!({"targetId": target_id, "flatten": true})
}

/// [`EVALUATE`]'s params for `expression`, awaiting a promise and returning the value itself.
pub fn evaluate_params(expression: &str) -> Value {
    json!({"expression": expression, "awaitPromise": true, "returnByValue": true})
}

/// The value an [`EVALUATE`] `result` holds (`Value::Null` for `undefined`), or the text of the exception
/// the expression threw (its description, else its text).
pub fn evaluated_value(result: &Value) -> std::result::Result<Value, String> {
    if let Some(details) = result.get("exceptionDetails") {
        return Err(details
            .pointer("/exception/description")
            .and_then(Value::as_str)
            .or_else(|| details.get("text").and_then(Value::as_str))
            .unwrap_or("exception")
            .to_string());
    }
    Ok(result
        .pointer("/result/value")
        .cloned()
        .unwrap_or(Value::Null))
}

/// The string `key` of a command's `result` (`sessionId`, `targetId`).
pub fn result_str(result: &Value, key: &str) -> Option<String> {
    result.get(key).and_then(Value::as_str).map(str::to_string)
}
