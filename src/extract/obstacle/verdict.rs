//! What the obstacle classifier reads ([`ObstacleInput`]) and what it says ([`Verdict`]), SPEC §5.

use crate::extract::ax::AxElement;

/// How much of the markdown the classifier reads, in chars (SPEC §5: the first 4 K).
pub const MARKDOWN_HEAD_CHARS: usize = 4096;

/// A page with less markdown than this (chars) is "short": challenge and denial pages are.
pub const SHORT_PAGE_CHARS: usize = 1500;

/// What blocks the page (SPEC §5 `obstacle.type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObstacleKind {
    /// A sign-in form or sign-in requirement.
    AuthWall,
    /// A CAPTCHA or bot-check interstitial.
    Captcha,
    /// The site refuses the request (403, WAF block page).
    AccessDenied,
}

/// How sure the classifier is (SPEC §5: `high` is terminal for the agent, `low` a hint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confidence {
    /// A hint: try one alternative, then stop.
    Low,
    /// Terminal: stop the plan and report.
    High,
}

/// The classifier's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// auth_wall / captcha / access_denied.
    pub kind: ObstacleKind,
    /// low / high.
    pub confidence: Confidence,
    /// Short human-readable reason, naming the signal.
    pub message: String,
    /// Which layer (1–5) fired; for tests and logs.
    pub layer: u8,
}

/// What the classifier reads (SPEC §5). `url` and `title` may be given in any case; only the first
/// [`MARKDOWN_HEAD_CHARS`] chars of `markdown` are read.
#[derive(Debug, Clone, Copy)]
pub struct ObstacleInput<'a> {
    /// `location.href`.
    pub url: &'a str,
    /// `document.title`.
    pub title: &'a str,
    /// The page's markdown (or its head).
    pub markdown: &'a str,
    /// The interactive elements of the same extract.
    pub elements: &'a [AxElement],
    /// A known CAPTCHA iframe is on the page ([`crate::extract::snapshot::Dom::has_captcha_frame`]).
    pub captcha_frame: bool,
    /// A form on the page submits to an interstitial's endpoint (a Cloudflare challenge form, whose
    /// text may be hidden until its script runs): [`super::is_interstitial_url`] of its resolved `action`.
    pub challenge_form: bool,
}
