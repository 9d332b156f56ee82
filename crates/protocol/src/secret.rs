//! The origins a named secret is bound to (SPEC §4 "Secrets"): how the bridge writes them on the request and
//! how the extension checks a tab against them. Origins are compared parsed (scheme, host, port), never as
//! string prefixes.

/// The ASCII origin of `url` (`https://bank.example`, `http://127.0.0.1:8080`), or `None` for a URL without
/// one (`about:blank`, `data:`, a file) or that does not parse. A bare host is read as `https://host`.
pub fn origin_of(url: &str) -> Option<String> {
    let url = url.trim();
    let parsed = url::Url::parse(url)
        .or_else(|_| url::Url::parse(&format!("https://{url}")))
        .ok()?;
    let origin = parsed.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// Whether the page at `url` is on one of `origins` (space-separated, as [`origin_of`] writes them).
pub fn origin_allowed(url: &str, origins: &str) -> bool {
    origin_of(url).is_some_and(|o| origins.split_ascii_whitespace().any(|a| a == o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_scheme_host_and_port() {
        assert_eq!(
            origin_of("https://Bank.Example/login?x=1").as_deref(),
            Some("https://bank.example")
        );
        assert_eq!(
            origin_of("http://127.0.0.1:8080/a").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            origin_of("bank.example").as_deref(),
            Some("https://bank.example")
        );
        assert_eq!(
            origin_of("https://bank.example:443/").as_deref(),
            Some("https://bank.example")
        );
        assert_eq!(origin_of("about:blank"), None);
        assert_eq!(origin_of("data:text/html,x"), None);
    }

    #[test]
    fn a_page_is_allowed_only_on_a_bound_origin() {
        let bound = "https://bank.example http://127.0.0.1:8080";
        assert!(origin_allowed("https://bank.example/login", bound));
        assert!(origin_allowed("http://127.0.0.1:8080/x", bound));
        assert!(!origin_allowed("http://127.0.0.1:8081/x", bound));
        assert!(!origin_allowed("http://localhost:8080/x", bound));
        assert!(!origin_allowed("https://bank.example.evil.test/", bound));
        assert!(!origin_allowed("http://bank.example/", bound));
        assert!(!origin_allowed("about:blank", bound));
    }
}
