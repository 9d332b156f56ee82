//! Layer 2 of the obstacle classifier: an interstitial's title or URL (Cloudflare, DDoS-Guard, bot
//! walls, 403 pages).

use super::verdict::ObstacleKind;
use super::words::TITLE_SEPARATORS;

pub(super) fn title_matches(title: &str, sig: &str, exact: bool) -> bool {
    let title = title.trim();
    if title == sig {
        return true;
    }
    if !exact {
        return title.starts_with(sig);
    }
    TITLE_SEPARATORS.iter().any(|sep| {
        title
            .strip_prefix(sig)
            .is_some_and(|rest| rest.starts_with(sep))
            || title
                .strip_suffix(sig)
                .is_some_and(|rest| rest.ends_with(sep))
    })
}

/// `url` is the address of a known interstitial (a Cloudflare challenge endpoint, Google's "sorry"
/// page, a bot-check service).
pub fn is_interstitial_url(url: &str) -> bool {
    url_signature(&url.to_lowercase()).is_some()
}

pub(super) fn url_signature(url: &str) -> Option<(ObstacleKind, &'static str)> {
    let Ok(u) = url::Url::parse(url) else {
        return None;
    };
    let host = u.host_str().unwrap_or("");
    let path = u.path();
    let query = u.query().unwrap_or("");
    let on = |d: &str| host == d || host.ends_with(&format!(".{d}"));
    if path.starts_with("/cdn-cgi/challenge-platform/")
        || path.starts_with("/cdn-cgi/l/chk_")
        || query.contains("__cf_chl_")
    {
        return Some((ObstacleKind::Captcha, "Cloudflare challenge"));
    }
    if on("google.com") && path.starts_with("/sorry/") {
        return Some((ObstacleKind::Captcha, "Google unusual-traffic check"));
    }
    if path.contains("distil_r_captcha") || on("captcha-delivery.com") || on("perfdrive.com") {
        return Some((ObstacleKind::Captcha, "bot check"));
    }
    None
}
