//! The one static file server of the repository: HTTP/1.1 on 127.0.0.1 for the demo site
//! (`bua-bridge demo`), the benchmark's pages (`bua-bench`) and the end-to-end tests' fixtures.
//!
//! A [`StaticSite`] answers each request from, in order: a programmable [`Route`] for the exact path
//! (query string ignored: HTML from memory, any status and headers, redirects, slow answers), then the
//! folder mounted at the longest matching URL prefix ([`StaticSite::mount`]; `/` → `index.html`, a
//! folder → its `index.html`), else `404`. Paths are percent-decoded and resolved inside the mounted
//! folder only: `..` and absolute segments are refused, so the server cannot read other files. Every
//! answer carries `Cache-Control: no-store` (a reloaded page is fetched again, as the tests and the
//! benchmark's repeated loads expect) and `Connection: close`. Every request target (with its query
//! string) is recorded in [`StaticSite::hits`].
//!
//! The server runs on the caller's tokio runtime ([`StaticSite::start`]) or on a thread and runtime of
//! its own ([`StaticSite::start_on_own_thread`], for synchronous tests that share one server across
//! test runtimes). It stops accepting connections when dropped.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

/// The largest request head read, bytes; a longer one is answered `431`.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// A programmable answer for one path (matched without the query string).
#[derive(Debug, Clone)]
pub enum Route {
    /// 200 with `text/html; charset=utf-8`.
    Html(String),
    /// Any status, content type, body and extra headers.
    Response {
        /// The HTTP status code.
        status: u16,
        /// The `Content-Type` header.
        content_type: String,
        /// The body.
        body: String,
        /// Headers after the standard ones, in order.
        headers: Vec<(String, String)>,
    },
    /// A redirect (`status` 301/302/303/307/308) to `location`.
    Redirect {
        /// The HTTP status code.
        status: u16,
        /// The `Location` header.
        location: String,
    },
    /// Waits `delay`, then answers 200 with `body` as HTML.
    Slow {
        /// How long to wait before answering.
        delay: Duration,
        /// The HTML body.
        body: String,
    },
}

/// What every connection of one server reads.
#[derive(Default)]
struct Shared {
    /// `(URL prefix without a trailing '/', folder)`; `""` is the whole site.
    mounts: Mutex<Vec<(String, PathBuf)>>,
    routes: Mutex<HashMap<String, Route>>,
    hits: Mutex<Vec<String>>,
}

/// A running static site on a free loopback port; stops accepting connections when dropped.
pub struct StaticSite {
    port: u16,
    shared: Arc<Shared>,
    stop: CancellationToken,
}

impl StaticSite {
    /// Serves the folder `root` at `/` on the current tokio runtime.
    ///
    /// Errors: no port can be bound on 127.0.0.1.
    pub async fn start(root: impl Into<PathBuf>) -> std::io::Result<StaticSite> {
        let site = StaticSite::start_empty().await?;
        site.mount("/", root);
        Ok(site)
    }

    /// Serves nothing yet (every path is `404` until [`StaticSite::route`] or [`StaticSite::mount`]
    /// adds one) on the current tokio runtime.
    ///
    /// Errors: no port can be bound on 127.0.0.1.
    pub async fn start_empty() -> std::io::Result<StaticSite> {
        let (listener, site) = StaticSite::bind()?;
        let listener = TcpListener::from_std(listener)?;
        tokio::spawn(accept_loop(
            listener,
            site.shared.clone(),
            site.stop.clone(),
        ));
        Ok(site)
    }

    /// Serves the folder `root` at `/` on a thread with its own single-threaded runtime, so that the
    /// server outlives any one caller's runtime (a test binary shares one across its tests).
    ///
    /// Errors: no port can be bound on 127.0.0.1, or the thread or its runtime cannot be started.
    pub fn start_on_own_thread(root: impl Into<PathBuf>) -> std::io::Result<StaticSite> {
        let (listener, site) = StaticSite::bind()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let listener = {
            let _entered = runtime.enter();
            TcpListener::from_std(listener)?
        };
        let (shared, stop) = (site.shared.clone(), site.stop.clone());
        std::thread::Builder::new()
            .name(format!("static-site-{}", site.port))
            .spawn(move || runtime.block_on(accept_loop(listener, shared, stop)))?;
        site.mount("/", root);
        Ok(site)
    }

    fn bind() -> std::io::Result<(std::net::TcpListener, StaticSite)> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let site = StaticSite {
            port,
            shared: Arc::default(),
            stop: CancellationToken::new(),
        };
        Ok((listener, site))
    }

    /// The port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:<port>/<path>` (a leading `/` of `path` is optional).
    pub fn url(&self, path: &str) -> String {
        format!(
            "http://127.0.0.1:{}/{}",
            self.port,
            path.trim_start_matches('/')
        )
    }

    /// Serves the files of `dir` under the URL prefix `prefix` from now on (`/corpus` maps
    /// `/corpus/a/b.html` to `<dir>/a/b.html`); the longest matching prefix wins.
    pub fn mount(&self, prefix: &str, dir: impl Into<PathBuf>) {
        let prefix = prefix.trim_end_matches('/').to_string();
        let mut mounts = lock(&self.shared.mounts);
        mounts.retain(|(p, _)| *p != prefix);
        mounts.push((prefix, dir.into()));
        mounts.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
    }

    /// Answers `path` (without query string) with `route` from now on, before any mounted file.
    pub fn route(&self, path: &str, route: Route) {
        lock(&self.shared.routes).insert(path.to_string(), route);
    }

    /// The request targets received so far (with their query strings), oldest first.
    pub fn hits(&self) -> Vec<String> {
        lock(&self.shared.hits).clone()
    }
}

impl Drop for StaticSite {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

async fn accept_loop(listener: TcpListener, shared: Arc<Shared>, stop: CancellationToken) {
    loop {
        let stream = tokio::select! {
            _ = stop.cancelled() => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // A failed accept (a connection reset before it was taken, no file descriptors left)
                // concerns that one connection only.
                Err(_) => continue,
            },
        };
        let shared = shared.clone();
        tokio::spawn(async move {
            // A client that goes away mid-answer is not the server's problem.
            let _ = serve(stream, &shared).await;
        });
    }
}

/// One answer before it is written.
struct Answer {
    status: u16,
    content_type: String,
    body: Vec<u8>,
    headers: Vec<(String, String)>,
}

impl Answer {
    fn html(body: String) -> Answer {
        Answer::new(200, "text/html; charset=utf-8", body.into_bytes())
    }

    fn new(status: u16, content_type: &str, body: Vec<u8>) -> Answer {
        Answer {
            status,
            content_type: content_type.to_string(),
            body,
            headers: Vec::new(),
        }
    }

    fn not_found() -> Answer {
        Answer::new(404, "text/plain", b"not found".to_vec())
    }

    fn with_status(mut self, status: u16) -> Answer {
        self.status = status;
        self
    }
}

async fn serve(mut stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    // The request head only: bodies are not read (every method is answered as GET, HEAD without body).
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        if buf.len() > MAX_HEAD_BYTES {
            let answer = Answer::new(431, "text/plain", b"request head too large".to_vec());
            return respond(&mut stream, answer, false).await;
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf);
    let mut parts = head.lines().next().unwrap_or_default().split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or("/").to_string();
    lock(&shared.hits).push(target.clone());
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let route = lock(&shared.routes).get(path).cloned();
    let answer = match route {
        Some(Route::Html(html)) => Answer::html(html),
        Some(Route::Response {
            status,
            content_type,
            body,
            headers,
        }) => Answer {
            headers,
            ..Answer::new(status, &content_type, body.into_bytes())
        },
        Some(Route::Redirect { status, location }) => Answer {
            headers: vec![("Location".into(), location.clone())],
            ..Answer::html(format!("<a href=\"{location}\">moved</a>"))
        }
        .with_status(status),
        Some(Route::Slow { delay, body }) => {
            tokio::time::sleep(delay).await;
            Answer::html(body)
        }
        None => serve_file(shared, path).await,
    };
    respond(&mut stream, answer, method == "HEAD").await
}

/// The file for `path` under the mount with the longest matching prefix, or `404`.
async fn serve_file(shared: &Shared, path: &str) -> Answer {
    let mount = lock(&shared.mounts).iter().find_map(|(prefix, dir)| {
        let rest = path.strip_prefix(prefix.as_str())?;
        (rest.is_empty() || rest.starts_with('/')).then(|| (dir.clone(), rest.to_string()))
    });
    let Some(mut file) = mount.and_then(|(dir, rest)| resolve(&dir, &rest)) else {
        return Answer::not_found();
    };
    if tokio::fs::metadata(&file).await.is_ok_and(|m| m.is_dir()) {
        file.push("index.html");
    }
    match tokio::fs::read(&file).await {
        Ok(body) => Answer::new(200, content_type(&file), body),
        Err(_) => Answer::not_found(),
    }
}

/// Maps a request path onto a file under `root` after percent-decoding it (`/` and a path ending in
/// `/` → its `index.html`); `None` for anything that would leave `root` (`..`, absolute segments).
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = percent_decode(target.split(['?', '#']).next().unwrap_or("/"));
    let mut out = root.to_path_buf();
    for component in Path::new(path.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if path.ends_with('/') || path.is_empty() || out == root {
        out.push("index.html");
    }
    Some(out)
}

/// `%XX` escapes decoded (invalid UTF-8 replaced); anything else kept as it is.
fn percent_decode(s: &str) -> String {
    let hex = |b: u8| (b as char).to_digit(16);
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `Content-Type` of a served file, by its extension (the one MIME table of the repository).
pub fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase()
        .as_str()
    {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "txt" | "md" => "text/plain; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        403 => "Forbidden",
        404 => "Not Found",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        _ => "Status",
    }
}

async fn respond(stream: &mut TcpStream, answer: Answer, head_only: bool) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
        answer.status,
        reason(answer.status),
        answer.content_type,
        answer.body.len()
    );
    for (name, value) in &answer.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    if !head_only {
        stream.write_all(&answer.body).await?;
    }
    stream.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_root() {
        let root = Path::new("/srv/site");
        assert_eq!(resolve(root, "/"), Some(root.join("index.html")));
        assert_eq!(resolve(root, ""), Some(root.join("index.html")));
        assert_eq!(
            resolve(root, "/shop.html?x=1"),
            Some(root.join("shop.html"))
        );
        assert_eq!(resolve(root, "/a/"), Some(root.join("a/index.html")));
        assert_eq!(resolve(root, "/a%20b.html"), Some(root.join("a b.html")));
        assert_eq!(resolve(root, "/../etc/passwd"), None);
        assert_eq!(resolve(root, "/a/../../b"), None);
        assert_eq!(resolve(root, "/%2e%2e/etc/passwd"), None);
    }

    #[test]
    fn one_mime_table_for_every_server() {
        assert_eq!(
            content_type(Path::new("a/index.HTML")),
            "text/html; charset=utf-8"
        );
        assert_eq!(
            content_type(Path::new("app.mjs")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type(Path::new("logo.svg")), "image/svg+xml");
        assert_eq!(content_type(Path::new("blob")), "application/octet-stream");
    }

    /// A raw `GET` of `path`: the whole answer as text.
    async fn get(site: &StaticSite, path: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", site.port()))
            .await
            .unwrap();
        let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).await.unwrap();
        text
    }

    #[tokio::test]
    async fn routes_come_before_files_and_the_longest_mount_wins() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("corpus/a")).unwrap();
        std::fs::write(dir.path().join("index.html"), "root index").unwrap();
        std::fs::write(dir.path().join("corpus/a/source.html"), "corpus page").unwrap();
        std::fs::write(dir.path().join("page.html"), "from disk").unwrap();
        let site = StaticSite::start_empty().await.unwrap();
        site.mount("/", dir.path());
        site.mount("/c/", dir.path().join("corpus"));
        site.route("/page.html", Route::Html("from memory".into()));

        let root = get(&site, "/").await;
        assert!(root.starts_with("HTTP/1.1 200 OK\r\n"), "{root}");
        assert!(root.ends_with("\r\n\r\nroot index"), "{root}");
        let page = get(&site, "/page.html?n=1").await;
        assert!(page.ends_with("\r\n\r\nfrom memory"), "{page}");
        assert!(page.contains("Cache-Control: no-store\r\n"), "{page}");
        let corpus = get(&site, "/c/a/source.html").await;
        assert!(corpus.ends_with("\r\n\r\ncorpus page"), "{corpus}");
        assert!(get(&site, "/c/a")
            .await
            .starts_with("HTTP/1.1 404 Not Found"));
        assert!(get(&site, "/c/../page.html")
            .await
            .starts_with("HTTP/1.1 404 Not Found"));

        site.route(
            "/moved",
            Route::Redirect {
                status: 302,
                location: "/page.html".into(),
            },
        );
        let moved = get(&site, "/moved").await;
        assert!(moved.starts_with("HTTP/1.1 302 Found\r\n"), "{moved}");
        assert!(moved.contains("\r\nLocation: /page.html\r\n"), "{moved}");
        assert_eq!(
            site.hits(),
            [
                "/",
                "/page.html?n=1",
                "/c/a/source.html",
                "/c/a",
                "/c/../page.html",
                "/moved"
            ]
        );
    }
}
