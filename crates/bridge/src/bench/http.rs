//! The benchmark's page server: HTTP/1.1 on 127.0.0.1, generated pages from memory and the corpus
//! from disk. Both browsers (ours and the Playwright peer's) load every page from here, so they get
//! the same bytes from the same origin.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::BenchError;

/// A running page server; it stops when the runtime does (or on [`PageServer::stop`]).
pub struct PageServer {
    port: u16,
    task: tokio::task::JoinHandle<()>,
}

struct Site {
    pages: HashMap<String, String>,
    /// `(URL prefix, folder)`: `/corpus/x/source.html` → `<folder>/x/source.html`.
    mount: Option<(String, PathBuf)>,
}

impl PageServer {
    /// Serves `pages` (path → HTML) and, under `mount.0`, the files of folder `mount.1`.
    ///
    /// Errors: [`BenchError::Io`] when no port can be bound on 127.0.0.1.
    pub async fn start(
        pages: HashMap<String, String>,
        mount: Option<(String, PathBuf)>,
    ) -> Result<PageServer, BenchError> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| BenchError::io("binding the page server", e))?;
        let port = listener
            .local_addr()
            .map_err(|e| BenchError::io("reading the page server's address", e))?
            .port();
        let site = Arc::new(Site { pages, mount });
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let site = site.clone();
                tokio::spawn(async move {
                    let _ = serve(stream, &site).await;
                });
            }
        });
        Ok(PageServer { port, task })
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{}", self.port, path)
    }

    /// Stops accepting connections.
    pub fn stop(&self) {
        self.task.abort();
    }
}

async fn serve(mut stream: TcpStream, site: &Site) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk).await?;
        if n == 0 || buf.len() > 64 * 1024 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf);
    let mut parts = head.lines().next().unwrap_or_default().split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let (status, ctype, body) = match site.pages.get(path) {
        Some(html) => (200, "text/html; charset=utf-8", html.clone().into_bytes()),
        None => match site
            .mount
            .as_ref()
            .and_then(|(prefix, dir)| file_under(dir, path.strip_prefix(prefix.as_str())?))
            .and_then(|file| Some((content_type(&file), std::fs::read(&file).ok()?)))
        {
            Some((ctype, bytes)) => (200, ctype, bytes),
            None => (404, "text/plain", b"not found".to_vec()),
        },
    };
    let reason = if status == 200 { "OK" } else { "Not Found" };
    let header = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(header.as_bytes()).await?;
    if method != "HEAD" {
        stream.write_all(&body).await?;
    }
    stream.shutdown().await
}

/// `dir/relative` when `relative` stays inside `dir` (no `..`, no absolute parts).
fn file_under(dir: &Path, relative: &str) -> Option<PathBuf> {
    let relative = Path::new(relative.trim_start_matches('/'));
    relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| dir.join(relative))
        .filter(|p| p.is_file())
}

fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css",
        "js" => "text/javascript",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_cannot_leave_the_mounted_folder() {
        let dir = std::env::temp_dir();
        assert!(file_under(&dir, "../etc/passwd").is_none());
        assert!(file_under(&dir, "a/../../x").is_none());
    }
}
