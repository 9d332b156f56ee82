//! Why a navigation failed (SPEC §8): the browser's `net::ERR_…` name classified into the error code of who can
//! fix it, with what the agent should do next; and the target URLs refused before any navigation.

use crate::error::{Error, Result};

/// Which tab a failed load happened in, for the "what now" of [`load_error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// A tab the agent already had (`navigate`): it stays usable, on the browser's error page.
    Existing(i64),
    /// A tab opened for this action (`open_tab`): the caller closes it and says so.
    Opened,
}

/// Why the browser could not load a URL, from the `net::ERR_…` name in `Page.navigate`'s `errorText`
/// (Chromium's `net/base/net_error_list.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadFailure {
    /// The host name did not resolve (DNS).
    NameNotResolved,
    /// The host refused, dropped or never took the connection, or the machine is offline.
    Unreachable,
    /// The connection or the response timed out.
    TimedOut,
    /// The URL itself cannot be loaded: malformed, an unsupported scheme, or a port the browser refuses.
    BadUrl,
    /// The secure connection failed (certificate, TLS, HTTPS on a plain HTTP port).
    Insecure,
    /// An extension, a policy or the response's own headers blocked it.
    Blocked,
    /// The server answered with something the browser cannot show (redirect loop, empty or broken response).
    BadResponse,
    /// Any other network error.
    Other,
}

impl LoadFailure {
    /// Classifies an `errorText` such as `net::ERR_NAME_NOT_RESOLVED`.
    pub fn classify(error_text: &str) -> LoadFailure {
        let name = error_text.trim().trim_start_matches("net::");
        let is = |names: &[&str]| names.contains(&name);
        let starts = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
        if is(&[
            "ERR_NAME_NOT_RESOLVED",
            "ERR_NAME_RESOLUTION_FAILED",
            "ERR_ICANN_NAME_COLLISION",
        ]) || starts(&["ERR_DNS_"])
        {
            LoadFailure::NameNotResolved
        } else if is(&["ERR_TIMED_OUT", "ERR_CONNECTION_TIMED_OUT"]) {
            LoadFailure::TimedOut
        } else if is(&[
            "ERR_CONNECTION_REFUSED",
            "ERR_CONNECTION_RESET",
            "ERR_CONNECTION_CLOSED",
            "ERR_CONNECTION_ABORTED",
            "ERR_CONNECTION_FAILED",
            "ERR_ADDRESS_UNREACHABLE",
            "ERR_INTERNET_DISCONNECTED",
            "ERR_NETWORK_CHANGED",
            "ERR_NETWORK_ACCESS_DENIED",
            "ERR_NETWORK_IO_SUSPENDED",
            "ERR_EMPTY_RESPONSE",
            "ERR_SOCKET_NOT_CONNECTED",
            "ERR_TUNNEL_CONNECTION_FAILED",
        ]) || starts(&["ERR_PROXY_", "ERR_SOCKS_"])
        {
            LoadFailure::Unreachable
        } else if is(&[
            "ERR_INVALID_URL",
            "ERR_UNKNOWN_URL_SCHEME",
            "ERR_DISALLOWED_URL_SCHEME",
            "ERR_UNSAFE_PORT",
            "ERR_ADDRESS_INVALID",
            "ERR_FILE_NOT_FOUND",
        ]) {
            LoadFailure::BadUrl
        } else if starts(&["ERR_CERT_", "ERR_SSL_", "ERR_BAD_SSL_"]) {
            LoadFailure::Insecure
        } else if starts(&["ERR_BLOCKED_BY_"]) {
            LoadFailure::Blocked
        } else if is(&[
            "ERR_TOO_MANY_REDIRECTS",
            "ERR_INVALID_REDIRECT",
            "ERR_UNSAFE_REDIRECT",
            "ERR_HTTP_RESPONSE_CODE_FAILURE",
            "ERR_INVALID_RESPONSE",
            "ERR_INVALID_HTTP_RESPONSE",
            "ERR_CONTENT_DECODING_FAILED",
            "ERR_RESPONSE_HEADERS_TOO_BIG",
        ]) {
            LoadFailure::BadResponse
        } else {
            LoadFailure::Other
        }
    }
}

/// The error of a failed load of `url` (`error_text` is Chromium's, e.g. `net::ERR_CONNECTION_REFUSED`), with
/// what the agent should do next (SPEC §8). The code follows who can fix it:
///
/// * `host_not_found` — the host name does not resolve (DNS): retrying will not help; check the host name.
/// * `timeout` — the site did not answer: connection refused or reset, offline, timed out. Not the caller's
///   malformed input; the message says to check the URL, and that a retry is worth at most one try later.
/// * `invalid_action` — the URL itself cannot be loaded (malformed, unsupported scheme, a port the browser
///   refuses, a missing file): fix the request.
/// * `internal_error` — the browser refused what came back (certificate, a blocking policy, a redirect
///   loop, a broken response): tell the user.
pub fn load_error(url: &str, error_text: &str, tab: Tab) -> Error {
    let host = url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| url.to_owned());
    let after = match tab {
        Tab::Existing(id) => format!(
            " Tab {id} stays usable (it shows the browser's error page): navigate it elsewhere or go on."
        ),
        Tab::Opened => String::new(),
    };
    let e = error_text;
    match LoadFailure::classify(error_text) {
        LoadFailure::NameNotResolved => Error::HostNotFound(format!(
            "{host} could not be found: the DNS lookup failed ({e}) loading {url}. Check the host name in the \
             URL; if it is right, the site or the network is down: do not retry now, tell the user.{after}"
        )),
        LoadFailure::Unreachable => Error::Timeout(format!(
            "{host} did not answer ({e}) loading {url}. Check the URL's host and port; if they are right, the \
             site is down or unreachable from this browser: retry at most once, later, else tell the user.{after}"
        )),
        LoadFailure::TimedOut => Error::Timeout(format!(
            "loading {url} timed out ({e}): the site is slow or down. Retry at most once, later, else tell the \
             user.{after}"
        )),
        LoadFailure::BadUrl => Error::InvalidAction(format!(
            "the browser cannot load {url} ({e}): the URL is malformed, names a missing file, or uses a scheme \
             or port the browser refuses. Fix the URL.{after}"
        )),
        LoadFailure::Insecure => Error::Internal(format!(
            "the secure connection to {host} failed ({e}): its certificate is not trusted, or it does not \
             speak HTTPS there. Check http:// against https:// in the URL; else tell the user, and do not try \
             to get around it.{after}"
        )),
        LoadFailure::Blocked => Error::Internal(format!(
            "the browser blocked {url} ({e}: an extension, a policy, or the site's own headers). Tell the \
             user.{after}"
        )),
        LoadFailure::BadResponse => Error::Internal(format!(
            "{host} answered {url} with something the browser cannot show ({e}: a redirect loop, or an \
             empty or broken response). Tell the user, or try another page of the site.{after}"
        )),
        LoadFailure::Other => Error::Internal(format!(
            "the browser could not load {url} ({e}). Check the URL; else tell the user.{after}"
        )),
    }
}

/// Whether `url` is a `data:` URL.
pub(super) fn is_data_url(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| u.scheme() == "data")
}

/// Whether a new tab should be created on `url` itself instead of on `about:blank` followed by
/// [`first_navigation`]: `about:blank` needs no navigation, and `Page.navigate` from an extension refuses
/// `data:` URLs (`ERR_ABORTED`) that `chrome.tabs.create` opens. Neither touches the network, so there is
/// no load failure to report.
pub fn opens_directly(url: &str) -> bool {
    url == "about:blank" || is_data_url(url)
}

/// Refuses target URLs that would land on the browser's own pages: `about:` URLs other than `about:blank`
/// and `about:srcdoc` are `chrome://` pages (e.g. `about:version`), which extensions cannot control — and
/// `Page.navigate` onto one from `chrome.debugger` crashes Chromium 156.
///
/// Errors: `invalid_action` naming the URL.
pub fn check_target(url: &str) -> Result<()> {
    let Ok(parsed) = url::Url::parse(url) else {
        return Ok(());
    };
    if parsed.scheme() == "about" && !matches!(parsed.path(), "blank" | "srcdoc") {
        return Err(Error::InvalidAction(format!(
            "{url} is one of the browser's own pages, which extensions cannot open or control; use an \
             http(s) URL (or about:blank)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bua_protocol::ErrorCode;

    #[test]
    fn load_failures_are_classified_by_chromium_error_name() {
        let cases = [
            ("net::ERR_NAME_NOT_RESOLVED", LoadFailure::NameNotResolved),
            (
                "net::ERR_NAME_RESOLUTION_FAILED",
                LoadFailure::NameNotResolved,
            ),
            ("net::ERR_DNS_TIMED_OUT", LoadFailure::NameNotResolved),
            ("net::ERR_CONNECTION_REFUSED", LoadFailure::Unreachable),
            ("net::ERR_CONNECTION_RESET", LoadFailure::Unreachable),
            ("net::ERR_ADDRESS_UNREACHABLE", LoadFailure::Unreachable),
            ("net::ERR_INTERNET_DISCONNECTED", LoadFailure::Unreachable),
            ("net::ERR_EMPTY_RESPONSE", LoadFailure::Unreachable),
            ("net::ERR_PROXY_CONNECTION_FAILED", LoadFailure::Unreachable),
            ("net::ERR_TIMED_OUT", LoadFailure::TimedOut),
            ("net::ERR_CONNECTION_TIMED_OUT", LoadFailure::TimedOut),
            ("net::ERR_UNSAFE_PORT", LoadFailure::BadUrl),
            ("net::ERR_INVALID_URL", LoadFailure::BadUrl),
            ("net::ERR_UNKNOWN_URL_SCHEME", LoadFailure::BadUrl),
            ("net::ERR_CERT_AUTHORITY_INVALID", LoadFailure::Insecure),
            ("net::ERR_SSL_PROTOCOL_ERROR", LoadFailure::Insecure),
            ("net::ERR_BLOCKED_BY_ADMINISTRATOR", LoadFailure::Blocked),
            ("net::ERR_TOO_MANY_REDIRECTS", LoadFailure::BadResponse),
            (
                "net::ERR_HTTP_RESPONSE_CODE_FAILURE",
                LoadFailure::BadResponse,
            ),
            ("net::ERR_SOMETHING_NEW", LoadFailure::Other),
            // Without the `net::` prefix too.
            ("ERR_NAME_NOT_RESOLVED", LoadFailure::NameNotResolved),
        ];
        for (text, want) in cases {
            assert_eq!(LoadFailure::classify(text), want, "{text}");
        }
    }

    #[test]
    fn an_unknown_host_is_host_not_found_a_refused_one_timeout_both_say_to_check_the_url() {
        // DNS failure: its own code (an agent branching on `timeout` would retry it), never "retry as is".
        let e = load_error(
            "http://nonexistent.example/a",
            "net::ERR_NAME_NOT_RESOLVED",
            Tab::Existing(7),
        );
        assert_eq!(e.code(), ErrorCode::HostNotFound, "{e}");
        let m = e.to_string();
        for part in [
            "nonexistent.example could not be found",
            "DNS lookup failed (net::ERR_NAME_NOT_RESOLVED)",
            "Check the host name",
            "do not retry now",
            "Tab 7 stays usable",
        ] {
            assert!(m.contains(part), "{part:?} not in {m:?}");
        }
        // A closed port: the host did not answer.
        let e = load_error(
            "http://127.0.0.1:9/",
            "net::ERR_CONNECTION_REFUSED",
            Tab::Existing(7),
        );
        assert_eq!(e.code(), ErrorCode::Timeout, "{e}");
        let m = e.to_string();
        assert!(
            m.starts_with("127.0.0.1 did not answer (net::ERR_CONNECTION_REFUSED)"),
            "{m}"
        );
        assert!(m.contains("Check the URL's host and port"), "{m}");
        assert!(m.contains("retry at most once"), "{m}");
        // open_tab closes the tab it opened and says so itself: no "stays usable" here.
        let e = load_error(
            "http://nonexistent.example/",
            "net::ERR_NAME_NOT_RESOLVED",
            Tab::Opened,
        );
        assert_eq!(e.code(), ErrorCode::HostNotFound);
        assert!(!e.to_string().contains("stays usable"), "{e}");
    }

    #[test]
    fn a_url_the_browser_refuses_is_invalid_action_and_a_refused_answer_internal_error() {
        let e = load_error(
            "http://127.0.0.1:1/",
            "net::ERR_UNSAFE_PORT",
            Tab::Existing(3),
        );
        assert_eq!(e.code(), ErrorCode::InvalidAction, "{e}");
        assert!(e.to_string().contains("Fix the URL"), "{e}");
        let e = load_error(
            "https://self-signed.test/",
            "net::ERR_CERT_AUTHORITY_INVALID",
            Tab::Opened,
        );
        assert_eq!(e.code(), ErrorCode::InternalError, "{e}");
        assert!(e.to_string().contains("do not try to get around it"), "{e}");
        let e = load_error(
            "http://loop.test/",
            "net::ERR_TOO_MANY_REDIRECTS",
            Tab::Opened,
        );
        assert_eq!(e.code(), ErrorCode::InternalError, "{e}");
        assert!(e.to_string().contains("redirect loop"), "{e}");
    }

    #[test]
    fn only_blank_and_data_urls_open_directly() {
        assert!(opens_directly("about:blank"));
        assert!(opens_directly("data:text/html,<p>hi"));
        assert!(opens_directly("DATA:text/plain,x"));
        assert!(!opens_directly("http://127.0.0.1:8000/"));
        assert!(!opens_directly("https://example.com/data:x"));
    }

    #[test]
    fn browser_pages_behind_about_urls_are_refused_before_navigating() {
        for url in ["about:version", "about:settings", "about:gpu"] {
            let e = check_target(url).expect_err(url);
            assert_eq!(e.code(), bua_protocol::ErrorCode::InvalidAction);
            assert!(e.to_string().contains("browser's own pages"), "{e}");
        }
        for url in [
            "about:blank",
            "about:srcdoc",
            "http://127.0.0.1:8000/about:version",
            "https://example.com/",
            "data:text/html,hi",
        ] {
            assert_eq!(check_target(url), Ok(()), "{url}");
        }
    }
}
