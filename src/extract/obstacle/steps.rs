//! Layer 5 of the obstacle classifier, sign-in pages without a password field (SPEC §5): the
//! identifier-first step (the password comes next), the second factor asked at sign-in, and the page
//! that only offers ways to sign in (identity providers, BankID, "Continue with …"). Each needs the
//! page to read as a sign-in step by its URL, title or heading, to be short, and not to be a page of
//! someone already signed in (it offers to sign out): their account settings ask for emails, phone
//! numbers and codes too.

use super::context::{reads_as_sign_in, reads_as_sign_up, url_words};
use super::form_words::{SIGN_IN_TITLE_WORDS, STAY_SIGNED_IN_WORDS};
use super::forms::{is_identifier_field, is_text_field};
use super::phrases::{any_word, normalise, strip_markdown};
use super::step_words::{ONE_TIME_CODE_WORDS, SECOND_FACTOR_WORDS, SIGN_OUT_WORDS};
use crate::extract::ax::AxElement;

/// The identifier's `<form>` has at most this many fields (text fields and selects): an identifier
/// step asks for little else, an account's settings form for much more.
const IDENTIFIER_FORM_FIELDS: usize = 3;

/// What kind of password-less sign-in step the page is, if any; `head` is the normalised lowercase
/// head of the markdown, `markdown` the page's markdown, `short` whether the page is short.
pub(super) fn sign_in_step(
    url: &str,
    title: &str,
    head: &str,
    markdown: &str,
    elements: &[AxElement],
    short: bool,
) -> Option<&'static str> {
    if !short || offers_sign_out(elements) {
        return None;
    }
    let sign_in = reads_as_sign_in(url, title);
    // "Sign in or register": a title that names both leaves it to the URL.
    let not_sign_up =
        !reads_as_sign_up(url, title) || (reads_as_sign_in(url, "") && !reads_as_sign_up(url, ""));
    let rendered = |f: &dyn Fn(&AxElement) -> bool| elements.iter().any(|e| e.rendered && f(e));
    if sign_in && not_sign_up && rendered(&|e| is_identifier_field(e) && in_small_form(elements, e))
    {
        return Some("a sign-in page asking for the account name");
    }
    // An account name with a "remember my username" box is a sign-in form whatever the page's title.
    if !reads_as_sign_up(url, title)
        && rendered(&|e| {
            is_identifier_field(e) && in_small_form(elements, e) && remembers(elements, e.form)
        })
    {
        return Some("a sign-in form asking for the account name");
    }
    let second_factor = any_word(&url_words(url), SECOND_FACTOR_WORDS)
        || any_word(title, SECOND_FACTOR_WORDS)
        || any_word(head, SECOND_FACTOR_WORDS);
    if (sign_in || second_factor)
        && !reads_as_sign_up(url, title)
        && rendered(&|e| is_one_time_code_field(e))
    {
        return Some("a sign-in step asking for a one-time code");
    }
    // A "two-factor authentication" title without a code field is the setting, not the step.
    if any_word(title, SIGN_IN_TITLE_WORDS)
        && !second_factor
        && !reads_as_sign_up(url, title)
        && first_heading(markdown).is_some_and(|h| any_word(&h, SIGN_IN_TITLE_WORDS))
    {
        return Some("a sign-in page (its title and heading)");
    }
    None
}

/// A rendered link or button signs the person out: they are signed in already.
pub(super) fn offers_sign_out(elements: &[AxElement]) -> bool {
    elements.iter().any(|e| {
        e.rendered
            && matches!(
                e.role.to_ascii_lowercase().as_str(),
                "link" | "button" | "menuitem"
            )
            && any_word(
                &normalise(&e.name.as_deref().unwrap_or("").to_lowercase()),
                SIGN_OUT_WORDS,
            )
    })
}

/// The `<form>` `form` has a "remember me" or "keep me signed in" box.
fn remembers(elements: &[AxElement], form: Option<i64>) -> bool {
    form.is_some()
        && elements.iter().any(|x| {
            x.form == form
                && matches!(x.role.to_ascii_lowercase().as_str(), "checkbox" | "switch")
                && any_word(
                    &normalise(&x.name.as_deref().unwrap_or("").to_lowercase()),
                    STAY_SIGNED_IN_WORDS,
                )
        })
}

/// `e` is outside any `<form>`, or in one with few fields.
fn in_small_form(elements: &[AxElement], e: &AxElement) -> bool {
    let Some(form) = e.form else { return true };
    let fields = elements
        .iter()
        .filter(|x| {
            x.form == Some(form) && (is_text_field(x) || x.role.eq_ignore_ascii_case("combobox"))
        })
        .count();
    fields <= IDENTIFIER_FORM_FIELDS
}

/// A field for a one-time code (`autocomplete=one-time-code`, or named so).
fn is_one_time_code_field(e: &AxElement) -> bool {
    is_text_field(e)
        && (e
            .autocomplete
            .as_deref()
            .is_some_and(|a| a.contains("one-time-code"))
            || any_word(
                &normalise(&e.name.as_deref().unwrap_or("").to_lowercase()),
                ONE_TIME_CODE_WORDS,
            ))
}

/// The text of the first markdown heading, lowercase.
fn first_heading(markdown: &str) -> Option<String> {
    markdown
        .lines()
        .take(40)
        .find(|l| l.trim_start().starts_with('#'))
        .map(|l| normalise(&strip_markdown(&l.to_lowercase())))
}
