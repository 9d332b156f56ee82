//! The obstacle classifier (SPEC §5): is the page a login wall, a CAPTCHA or an access denial?
//!
//! A pure function over what `extract` already has — lowercased URL and title, the head of the
//! markdown, the interactive elements and whether a known CAPTCHA iframe is present — in five layers,
//! cheapest first; the first layer that fires decides:
//!
//! 1. a CAPTCHA provider's iframe → captcha, high;
//! 2. an interstitial's title or URL (Cloudflare, DDoS-Guard, bot walls, 403 pages) → captcha or
//!    access_denied, high;
//! 3. challenge / denial phrases near the top of the markdown → captcha or access_denied, high only
//!    on a short page;
//! 4. a password field of a sign-in form → auth_wall, high when the URL path or the title reads as a
//!    sign-in page and it offers no sign-up, else low. The form's structure decides what it is for
//!    (registration and password-change forms are not walls), and a page that lets the person go on
//!    without signing in (a guest checkout), is an article beside the site's account box or shows a
//!    form of its own (a contact or search form beside a header's sign-in box) is none;
//! 5. soft sign-in text ("sign in to continue", …), or a short sign-in step without a password (the
//!    account name first, a one-time code, only identity providers) → auth_wall, low.
//!
//! It prefers a miss to a false alarm: `high` makes the agent give up on the page. Phrases are
//! matched on word boundaries, in English and in the languages where they are known ([`words`]).
//!
//! Rooms: [`verdict`] (input and verdict types), [`words`], [`form_words`] and [`step_words`] (the word
//! lists of layers 1–3, 4 and 5, data only),
//! [`interstitial`] (layer 2), [`forms`] and [`context`] (layer 4: the form, the page around it),
//! [`steps`] (layer 5's sign-in steps without a password), [`phrases`] (matching on word boundaries);
//! this file runs the layers in order. `corpus/forms` (tests/corpus_forms.rs) measures layers 4 and 5
//! on form pages that are and are not for signing in.

mod context;
mod form_words;
mod forms;
mod interstitial;
mod phrases;
mod step_words;
mod steps;
mod verdict;
mod words;

pub use interstitial::is_interstitial_url;
pub use verdict::{
    Confidence, ObstacleInput, ObstacleKind, Verdict, MARKDOWN_HEAD_CHARS, SHORT_PAGE_CHARS,
};

use context::{
    has_task_form, is_article, offers_sign_up_in_headings, reads_as_checkout, reads_as_sign_in,
    reads_as_sign_up, sign_in_is_optional,
};
use forms::{password_forms, FormKind};
use interstitial::{title_matches, url_signature};
use phrases::{any_word, contains_phrase, normalise, phrase_positions, strip_markdown};
use step_words::{FEATURE_ONLY, HAVE_ACCOUNT_WORDS, SIGN_IN_PHRASES};
use words::{CAPTCHA_PHRASES, DENIED_PHRASES, DENIED_PHRASES_WEAK, TITLE_SIGNATURES};

/// On a long page, a layer-3 phrase counts only within this many chars of the top.
const TOP_CHARS: usize = 800;

fn verdict(
    kind: ObstacleKind,
    confidence: Confidence,
    layer: u8,
    message: String,
) -> Option<Verdict> {
    Some(Verdict {
        kind,
        confidence,
        message,
        layer,
    })
}

/// Runs the five layers; `None` when the page looks usable.
pub fn classify(input: &ObstacleInput<'_>) -> Option<Verdict> {
    use Confidence::*;
    use ObstacleKind::*;
    let url = input.url.to_lowercase();
    let title = normalise(&input.title.to_lowercase());
    let head: String = input.markdown.chars().take(MARKDOWN_HEAD_CHARS).collect();
    let head = normalise(&strip_markdown(&head.to_lowercase()));
    let short = head.chars().count() < SHORT_PAGE_CHARS;

    // 1. A CAPTCHA provider's iframe.
    if input.captcha_frame {
        return verdict(
            Captcha,
            High,
            1,
            "a CAPTCHA iframe (Cloudflare, hCaptcha or reCAPTCHA) is on the page".into(),
        );
    }

    // 2. Interstitial signatures in the title or URL.
    for sig in TITLE_SIGNATURES {
        if title_matches(&title, sig.text, sig.exact) && (sig.any_length || short) {
            return verdict(
                sig.kind,
                High,
                2,
                format!("the page title \"{}\" is a {} page", title, sig.what),
            );
        }
    }
    if let Some((kind, what)) = url_signature(&url) {
        return verdict(kind, High, 2, format!("the URL is a {what}"));
    }
    if input.challenge_form {
        return verdict(
            Captcha,
            High,
            2,
            "the page holds a Cloudflare challenge form".into(),
        );
    }

    // 3. Challenge / denial phrases near the top.
    let top: String = head.chars().take(TOP_CHARS).collect();
    for (kind, phrases, weak) in [
        (Captcha, CAPTCHA_PHRASES, false),
        (AccessDenied, DENIED_PHRASES, false),
        (AccessDenied, DENIED_PHRASES_WEAK, true),
    ] {
        let hay = if short { &head } else { &top };
        if weak && !short {
            continue;
        }
        if let Some(p) = phrases.iter().find(|p| contains_phrase(hay, p)) {
            let confidence = if short { High } else { Low };
            let what = if kind == Captcha {
                "a bot check"
            } else {
                "an access denial"
            };
            return verdict(
                kind,
                confidence,
                3,
                format!("the page says \"{p}\" ({what})"),
            );
        }
    }

    // 4. A password field. Signing in is not a wall where the page offers to go on without it: a
    // checkout that takes a guest, or has its own shipping or payment form.
    if sign_in_is_optional(input.elements, &head) {
        return None;
    }
    let forms = password_forms(input.elements);
    if forms.contains(&FormKind::SignIn) {
        let sign_up_page = reads_as_sign_up(&url, &title);
        let registration = forms.contains(&FormKind::Registration)
            || sign_up_page
            || offers_sign_up_in_headings(input.markdown);
        let sign_in_page = reads_as_sign_in(&url, &title);
        if reads_as_checkout(&url, &title) {
            // A checkout's "returning customer? sign in" box, or its sign-in step: shops let a
            // guest check out, so this is at most a hint.
            if !sign_in_page {
                return None;
            }
            return verdict(AuthWall, Low, 4, "a checkout's sign-in step".into());
        }
        let (confidence, message) = match (sign_in_page, registration) {
            (true, false) => (High, "a sign-in page with a password field"),
            (true, true) => (Low, "a sign-in page that also offers sign-up"),
            // A registration page: its password field is for the new account.
            (false, _) if sign_up_page => return soft_layer(&head),
            // An article with the site's account box beside it: the page is readable.
            (false, false) if is_article(input.markdown) => return soft_layer(&head),
            // A contact, search or booking form is the page's task; the sign-in box is the site's.
            (false, _) if has_task_form(input.elements) => return soft_layer(&head),
            (false, _) => (Low, "the page has a sign-in form with a password field"),
        };
        return verdict(AuthWall, confidence, 4, message.into());
    }
    if let Some(v) = soft_layer(&head) {
        return Some(v);
    }
    // A sign-in step without a password field: the account name first, a one-time code, or only
    // the ways to sign in.
    let step = steps::sign_in_step(&url, &title, &head, input.markdown, input.elements, short)?;
    verdict(AuthWall, Low, 5, step.into())
}

/// Layer 5: soft sign-in text.
fn soft_layer(head: &str) -> Option<Verdict> {
    let p = soft_sign_in(head)?;
    verdict(
        ObstacleKind::AuthWall,
        Confidence::Low,
        5,
        format!("the page says \"{p}\""),
    )
}

/// The first sign-in phrase in `head` that is about the page rather than a feature of it.
fn soft_sign_in(head: &str) -> Option<&'static str> {
    SIGN_IN_PHRASES.iter().copied().find(|p| {
        phrase_positions(head, p).into_iter().any(|at| {
            // "Bitte melden Sie sich an, um zu kommentieren": the feature may follow a comma.
            let rest = head[at + p.len()..]
                .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | '-'));
            !FEATURE_ONLY.iter().any(|f| rest.starts_with(f)) && !offered_to_members(&head[..at])
        })
    })
}

/// How far back, in chars, a sign-in phrase's lead-in is read.
const LEAD_IN_CHARS: usize = 80;

/// The text before a sign-in phrase offers it to people who have an account ("Already have an
/// account? Then please sign in", "Have an account? Sign in to see your orders"): the page is for
/// everyone else. The lead-in is the last [`LEAD_IN_CHARS`] chars, from the last paragraph break on.
fn offered_to_members(before: &str) -> bool {
    let start = before
        .char_indices()
        .rev()
        .nth(LEAD_IN_CHARS)
        .map_or(0, |(i, _)| i);
    let lead_in = &before[start..];
    let lead_in = lead_in.rsplit_once('\n').map_or(lead_in, |(_, l)| l);
    any_word(lead_in, HAVE_ACCOUNT_WORDS)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_forms;
#[cfg(test)]
mod tests_pages;
