//! A minimal static file server on 127.0.0.1 for the demo site (GET/HEAD only, no directory listings).
//!
//! The demo needs pages served over HTTP (the extension refuses nothing on `file://`, but real sites are
//! HTTP and so is every test fixture). Paths are resolved inside the root only: `..` and absolute segments
//! are refused, so the server cannot be used to read other files.

use std::path::{Component, Path, PathBuf};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A running static site; stops when dropped.
pub struct StaticSite {
    port: u16,
    task: tokio::task::JoinHandle<()>,
}

impl StaticSite {
    /// Serves `root` on a free loopback port.
    pub async fn start(root: impl Into<PathBuf>) -> std::io::Result<StaticSite> {
        let root = root.into();
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let root = root.clone();
                tokio::spawn(async move {
                    let _ = serve_one(stream, &root).await;
                });
            }
        });
        Ok(StaticSite { port, task })
    }

    /// `http://127.0.0.1:<port>/<path>`.
    pub fn url(&self, path: &str) -> String {
        format!(
            "http://127.0.0.1:{}/{}",
            self.port,
            path.trim_start_matches('/')
        )
    }
}

impl Drop for StaticSite {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve_one(mut stream: TcpStream, root: &Path) -> std::io::Result<()> {
    let mut buf = vec![0u8; 8192];
    let mut len = 0;
    // Read the request head (bodies are ignored: only GET and HEAD are served).
    while !buf[..len].windows(4).any(|w| w == b"\r\n\r\n") {
        if len == buf.len() {
            return respond(
                &mut stream,
                431,
                "text/plain",
                b"request head too large",
                false,
            )
            .await;
        }
        let n = stream.read(&mut buf[len..]).await?;
        if n == 0 {
            return Ok(());
        }
        len += n;
    }
    let head = String::from_utf8_lossy(&buf[..len]);
    let mut parts = head.lines().next().unwrap_or_default().split_whitespace();
    let method = parts.next().unwrap_or_default();
    let target = parts.next().unwrap_or("/");
    if method != "GET" && method != "HEAD" {
        return respond(&mut stream, 405, "text/plain", b"method not allowed", false).await;
    }
    let head_only = method == "HEAD";
    match resolve(root, target) {
        Some(path) => match tokio::fs::read(&path).await {
            Ok(body) => respond(&mut stream, 200, content_type(&path), &body, head_only).await,
            Err(_) => respond(&mut stream, 404, "text/plain", b"not found", head_only).await,
        },
        None => respond(&mut stream, 404, "text/plain", b"not found", head_only).await,
    }
}

/// Maps a request target onto a file under `root` (`/` → `index.html`); `None` for anything escaping it.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let mut out = root.to_path_buf();
    for component in Path::new(path.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if path.ends_with('/') || out == root {
        out.push("index.html");
    }
    Some(out)
}

fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css",
        "js" | "mjs" => "text/javascript",
        "json" => "application/json",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "jpg" | "jpeg" => "image/jpeg",
        _ => "application/octet-stream",
    }
}

async fn respond(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
    body: &[u8],
    head_only: bool,
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Request Header Fields Too Large",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    if !head_only {
        stream.write_all(body).await?;
    }
    stream.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::resolve;
    use std::path::Path;

    #[test]
    fn paths_stay_inside_the_root() {
        let root = Path::new("/srv/site");
        assert_eq!(resolve(root, "/"), Some(root.join("index.html")));
        assert_eq!(
            resolve(root, "/shop.html?x=1"),
            Some(root.join("shop.html"))
        );
        assert_eq!(resolve(root, "/a/"), Some(root.join("a/index.html")));
        assert_eq!(resolve(root, "/../etc/passwd"), None);
        assert_eq!(resolve(root, "/a/../../b"), None);
    }
}
