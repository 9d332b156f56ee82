//! Layer 4 of the obstacle classifier, the page around a sign-in form: does it read as a sign-in,
//! sign-up or checkout page, is it an article, does it let the person go on without signing in.

use super::form_words::{
    SIGN_IN_PATH_WORDS, SIGN_IN_TITLE_WORDS, SIGN_UP_HEADING_WORDS, SIGN_UP_WORDS,
};
use super::forms::{is_password_field, is_personal_details_field, is_text_field};
use super::phrases::{any_word, normalise, strip_markdown};
use super::verdict::MARKDOWN_HEAD_CHARS;
use super::words::{CHECKOUT_FIELD_WORDS, CHECKOUT_PATH_WORDS, CHECKOUT_WORDS, GUEST_WORDS};
use crate::extract::ax::AxElement;

pub(super) fn reads_as_checkout(url: &str, title: &str) -> bool {
    let words = url_words(url);
    any_word(&words, CHECKOUT_WORDS)
        || any_word(&words, CHECKOUT_PATH_WORDS)
        || any_word(title, CHECKOUT_WORDS)
}

/// A shipping or payment form has at least this many name, address or card fields.
const CHECKOUT_FORM_FIELDS: usize = 3;

/// The page lets the person go on without signing in: a rendered control or the head of the
/// markdown offers a guest checkout, or a `<form>` without a password field asks for
/// [`CHECKOUT_FORM_FIELDS`] or more name, address or card fields (a checkout's own shipping form,
/// next to its "returning customer? sign in" box).
pub(super) fn sign_in_is_optional(elements: &[AxElement], head: &str) -> bool {
    if any_word(head, GUEST_WORDS)
        || elements.iter().any(|e| {
            e.rendered
                && any_word(
                    &normalise(&e.name.as_deref().unwrap_or("").to_lowercase()),
                    GUEST_WORDS,
                )
        })
    {
        return true;
    }
    let mut per_form: Vec<(i64, usize, bool)> = Vec::new();
    for e in elements.iter().filter(|e| is_text_field(e)) {
        let Some(form) = e.form else { continue };
        let name = normalise(&e.name.as_deref().unwrap_or("").to_lowercase());
        let checkout = !any_word(&name, &["email", "e-mail"])
            && (is_personal_details_field(e) || any_word(&name, CHECKOUT_FIELD_WORDS));
        let password = is_password_field(e);
        match per_form.iter_mut().find(|(f, _, _)| *f == form) {
            Some((_, n, pw)) => {
                *n += usize::from(checkout);
                *pw |= password;
            }
            None => per_form.push((form, usize::from(checkout), password)),
        }
    }
    per_form
        .iter()
        .any(|&(_, n, pw)| !pw && n >= CHECKOUT_FORM_FIELDS)
}

/// A `<form>` without a password field with at least this many fields (text fields and selects) is
/// a task of its own: a contact, search, booking or comment form.
const TASK_FORM_FIELDS: usize = 3;

/// The page has a rendered [`TASK_FORM_FIELDS`]-field `<form>` without a password field that shows
/// in the first viewport: what the page is for, beside which a site's sign-in box (a header's, a
/// sidebar's) is chrome. A form further down or in a closed popup (a footer's contact form, a "call
/// me back" box) is chrome itself.
pub(super) fn has_task_form(elements: &[AxElement]) -> bool {
    let mut per_form: Vec<(i64, usize, bool)> = Vec::new();
    let shown: Vec<i64> = elements
        .iter()
        .filter(|e| e.rendered && e.visible == Some(true) && is_text_field(e))
        .filter_map(|e| e.form)
        .collect();
    for e in elements.iter().filter(|e| e.rendered) {
        let Some(form) = e.form else { continue };
        let field = is_text_field(e) || e.role.eq_ignore_ascii_case("combobox");
        if !field {
            continue;
        }
        let password = is_password_field(e);
        match per_form.iter_mut().find(|(f, _, _)| *f == form) {
            Some((_, n, pw)) => {
                *n += 1;
                *pw |= password;
            }
            None => per_form.push((form, 1, password)),
        }
    }
    per_form
        .iter()
        .any(|&(f, n, pw)| !pw && n >= TASK_FORM_FIELDS && shown.contains(&f))
}

/// Share of the markdown head's visible text, in [0, 1], above which the page is an article.
const ARTICLE_SHARE: f64 = 0.75;
/// A paragraph of at least this many visible chars is prose.
const PROSE_PARAGRAPH_CHARS: usize = 200;

/// The head of the markdown is mostly prose: paragraphs of [`PROSE_PARAGRAPH_CHARS`] or more
/// (headings, lists, tables and images aside) make up more than [`ARTICLE_SHARE`] of its text.
pub(super) fn is_article(markdown: &str) -> bool {
    let head: String = markdown.chars().take(MARKDOWN_HEAD_CHARS).collect();
    let mut prose = 0usize;
    let mut total = 0usize;
    for block in head.split("\n\n") {
        let text = normalise(&strip_markdown(block));
        let n = text.chars().count();
        total += n;
        let t = block.trim_start();
        let structural = t.starts_with('#')
            || t.starts_with('|')
            || t.starts_with("- ")
            || t.starts_with("* ")
            || t.starts_with("![")
            || t.split_once(". ")
                .is_some_and(|(d, _)| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        if n >= PROSE_PARAGRAPH_CHARS && !structural {
            prose += n;
        }
    }
    total > 0 && prose as f64 > ARTICLE_SHARE * total as f64
}

/// A markdown heading in the classifier's head offers to create an account.
pub(super) fn offers_sign_up_in_headings(markdown: &str) -> bool {
    let head: String = markdown.chars().take(MARKDOWN_HEAD_CHARS).collect();
    head.lines()
        .filter(|l| l.trim_start().starts_with('#'))
        .map(|l| normalise(&strip_markdown(&l.to_lowercase())))
        .any(|h| any_word(&h, SIGN_UP_HEADING_WORDS))
}

/// The host's first label (`login` of login.example.com) and the path, as space-separated words.
pub(super) fn url_words(url: &str) -> String {
    let Ok(u) = url::Url::parse(url) else {
        return String::new();
    };
    let host = u.host_str().unwrap_or("");
    let first_label = host
        .split('.')
        .next()
        .filter(|_| host.contains('.'))
        .unwrap_or("");
    let path = u.path().replace(['/', '.', '_'], " ").replace("  ", " ");
    format!("{first_label} {path}")
}

pub(super) fn reads_as_sign_in(url: &str, title: &str) -> bool {
    let words = url_words(url);
    any_word(&words, SIGN_IN_PATH_WORDS)
        || any_word(&words.replace('-', ""), &["signin", "login", "logon"])
        || any_word(title, SIGN_IN_TITLE_WORDS)
}

pub(super) fn reads_as_sign_up(url: &str, title: &str) -> bool {
    any_word(&url_words(url), SIGN_UP_WORDS) || any_word(title, SIGN_UP_WORDS)
}
