//! Layer 4 of the obstacle classifier, the form: which fields are passwords, and what a password form is
//! for (signing in, or signing up and changing a password), read from its structure.

use super::form_words::{
    CONSENT_WORDS, FORGOT_WORDS, NEW_PASSWORD_WORDS, OTHER_ACTION_SUBMIT_WORDS, OTHER_SECRET_WORDS,
    PASSWORD_WORDS, PERSONAL_DETAILS_WORDS, SECOND_SECRET_WORDS, SERVICE_PASSWORD_WORDS,
    SIGN_IN_TITLE_WORDS, SIGN_UP_SUBMIT_WORDS, STAY_SIGNED_IN_WORDS,
};
use super::phrases::{any_word, contains_phrase, normalise};
use super::words::IDENTIFIER_WORDS;
use crate::extract::ax::AxElement;

pub(super) fn is_password_field(e: &AxElement) -> bool {
    let role = e.role.to_ascii_lowercase();
    if !matches!(role.as_str(), "textbox" | "searchbox") {
        return false;
    }
    let name = normalise(&e.name.as_deref().unwrap_or("").to_lowercase());
    if any_word(&name, OTHER_SECRET_WORDS) && !any_word(&name, PASSWORD_WORDS) {
        return false;
    }
    if e.input_type.as_deref() == Some("password")
        || e.autocomplete
            .as_deref()
            .is_some_and(|a| a.contains("current-password") || a.contains("new-password"))
    {
        return true;
    }
    PASSWORD_WORDS.iter().any(|w| contains_phrase(&name, w))
}

pub(super) fn is_text_field(e: &AxElement) -> bool {
    matches!(
        e.role.to_ascii_lowercase().as_str(),
        "textbox" | "searchbox"
    )
}

/// What a form with a password field is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FormKind {
    /// One current password and one account name: signing in.
    SignIn,
    /// A new or repeated password, personal details, several identifiers, or a sign-up's consent
    /// and submit text: signing up or changing the password.
    Registration,
    /// A password that confirms or configures something else: its submit names another action
    /// ("Delete this account", "Change email", "Save settings", "Check balance").
    Other,
}

/// Text fields read before a password field as part of its form.
const FIELDS_BEFORE: usize = 3;
/// Text fields read after a password field (and its confirmation) as part of its form.
const FIELDS_AFTER: usize = 2;
/// A `<form>` with more text fields than this wraps more than one form (some sites put the whole
/// page in one `<form>`): its password fields are read with their neighbours only.
const FORM_MAX_FIELDS: usize = 10;
/// Elements after the last field of a password form's neighbourhood that still belong to it (its
/// "remember me" box, submit button, "forgot password" link).
const TRAILING_ELEMENTS: usize = 6;

/// The password forms of the page, by kind. A form is the `<form>` that holds a run of password
/// fields (a password and its confirmation) when that `<form>` is small; otherwise, or without a
/// `<form>`, the run with the few text fields just before and after it and the controls that follow.
/// Forms whose password fields are all out of reach (collapsed menus) are left out.
pub(super) fn password_forms(elements: &[AxElement]) -> Vec<FormKind> {
    let fields: Vec<usize> = (0..elements.len())
        .filter(|&i| is_text_field(&elements[i]))
        .collect();
    let mut out = Vec::new();
    let mut run_end = 0;
    let mut k = 0;
    while k < fields.len() {
        if !is_password_field(&elements[fields[k]]) {
            k += 1;
            continue;
        }
        let form = elements[fields[k]].form;
        let mut j = k;
        while j < fields.len()
            && is_password_field(&elements[fields[j]])
            && elements[fields[j]].form == form
        {
            j += 1;
        }
        let passwords: Vec<&AxElement> = fields[k..j].iter().map(|&i| &elements[i]).collect();
        let form_fields = form.map_or(usize::MAX, |f| {
            fields
                .iter()
                .filter(|&&i| elements[i].form == Some(f))
                .count()
        });
        // The form's own elements, and the text fields before its first password.
        let (scope, before): (Vec<&AxElement>, Vec<&AxElement>) = if form_fields <= FORM_MAX_FIELDS
        {
            let scope: Vec<&AxElement> = elements.iter().filter(|e| e.form == form).collect();
            let first = fields[k];
            let before = (0..first)
                .filter(|&i| is_text_field(&elements[i]) && elements[i].form == form)
                .map(|i| &elements[i])
                .collect();
            (scope, before)
        } else {
            let before: Vec<usize> = fields[run_end.max(k.saturating_sub(FIELDS_BEFORE))..k]
                .iter()
                .copied()
                .filter(|&i| elements[i].form == form)
                .collect();
            let after: Vec<usize> = fields[j..]
                .iter()
                .copied()
                .take_while(|&i| elements[i].form == form && !is_password_field(&elements[i]))
                .take(FIELDS_AFTER)
                .collect();
            let start = before.first().copied().unwrap_or(fields[k]);
            let last = after.last().copied().unwrap_or(fields[j - 1]);
            let stop = fields
                .get(j + after.len())
                .copied()
                .unwrap_or(elements.len())
                .min(last + 1 + TRAILING_ELEMENTS);
            let scope = elements[start..stop]
                .iter()
                .filter(|e| e.form == form)
                .collect();
            (scope, before.iter().map(|&i| &elements[i]).collect())
        };
        if passwords.iter().any(|e| e.rendered) {
            out.push(form_kind(&passwords, &scope, &before));
        }
        run_end = j;
        k = j;
    }
    out
}

/// Decides what one password form is for, from its structure: `passwords` (the run), `scope` (every
/// element of the form, in document order) and `before` (its text fields before the first password).
/// A sign-up form is recognised by what only it has — a second or new password, personal details,
/// more than one identifier (username and email), a checkbox accepting terms or a newsletter, a
/// submit that creates the account — unless it also carries a sign-in form's own controls
/// ("remember me", "forgot password", a "Sign in" submit), which only the weaker signs yield to. A
/// form without those whose submit names another action (save, delete, change email, check, connect)
/// uses its password for that action, not to sign in (SPEC §5).
fn form_kind(passwords: &[&AxElement], scope: &[&AxElement], before: &[&AxElement]) -> FormKind {
    let in_scope: Vec<&AxElement> = scope
        .iter()
        .copied()
        .filter(|e| is_password_field(e))
        .collect();
    let texts = scope
        .iter()
        .filter(|e| is_text_field(e) && !is_password_field(e));
    let strong = several_passwords(passwords)
        || several_passwords(&in_scope)
        || passwords.iter().any(|e| is_new_password_name(e))
        || texts.clone().any(|e| is_personal_details_field(e))
        || before.iter().filter(|e| is_identifier_field(e)).count() >= 2;
    if strong {
        return FormKind::Registration;
    }
    let name = |e: &AxElement| normalise(&e.name.as_deref().unwrap_or("").to_lowercase());
    let role =
        |e: &AxElement, roles: &[&str]| roles.contains(&e.role.to_ascii_lowercase().as_str());
    if passwords.iter().all(|e| is_service_password(e)) {
        return FormKind::Other;
    }
    let sign_in_controls = scope.iter().any(|e| {
        let n = name(e);
        (role(e, &["checkbox", "switch"]) && any_word(&n, STAY_SIGNED_IN_WORDS))
            || (role(e, &["link", "button"]) && any_word(&n, FORGOT_WORDS))
            || (role(e, &["button"]) && any_word(&n, SIGN_IN_TITLE_WORDS))
    });
    if sign_in_controls {
        return FormKind::SignIn;
    }
    // A settings page asks for the current password to confirm a change (`current-password` is
    // right there too), a tool or an integration masks a PIN or a key: the submit says what for.
    // Only buttons after the password: a header's search box may precede a form-less sign-in.
    let first_password = scope.iter().position(|e| is_password_field(e)).unwrap_or(0);
    if scope[first_password..]
        .iter()
        .any(|e| role(e, &["button"]) && any_word(&name(e), OTHER_ACTION_SUBMIT_WORDS))
    {
        return FormKind::Other;
    }
    if passwords.iter().chain(scope).any(|e| {
        e.autocomplete
            .as_deref()
            .is_some_and(|a| a.contains("current-password"))
    }) {
        return FormKind::SignIn;
    }
    // Some sign-in forms set `autocomplete=new-password` only to keep the browser from filling them.
    let sign_up = passwords.iter().any(|e| is_new_password(e))
        || scope.iter().any(|e| {
            let n = name(e);
            (role(e, &["checkbox", "switch"]) && any_word(&n, CONSENT_WORDS))
                || (role(e, &["button"]) && any_word(&n, SIGN_UP_SUBMIT_WORDS))
        });
    if sign_up {
        FormKind::Registration
    } else {
        FormKind::SignIn
    }
}

/// Two or more passwords, a new one and its confirmation, unless the others beside one password are
/// second secrets (a token's passcode, a PIN, a one-time code: a VPN's sign-in asks for both).
fn several_passwords(passwords: &[&AxElement]) -> bool {
    let name = |e: &AxElement| normalise(&e.name.as_deref().unwrap_or("").to_lowercase());
    let plain = passwords
        .iter()
        .filter(|e| !any_word(&name(e), SECOND_SECRET_WORDS))
        .count();
    if plain >= 1 {
        plain >= 2
    } else {
        passwords.len() >= 2
    }
}

/// The field is a password for another system than the site's account (a database, a mail server,
/// a Wi-Fi network that a settings or set-up form configures).
pub(super) fn is_service_password(e: &AxElement) -> bool {
    any_word(
        &normalise(&e.name.as_deref().unwrap_or("").to_lowercase()),
        SERVICE_PASSWORD_WORDS,
    )
}

pub(super) fn is_personal_details_field(e: &AxElement) -> bool {
    // A field called just "Name" is the new account's owner, not a username.
    let bare = e.name.as_deref().unwrap_or("");
    let bare = bare.trim_matches(|c: char| c == '*' || c == ':' || c.is_whitespace());
    if e.role.eq_ignore_ascii_case("textbox")
        && ["name", "nom", "nombre"].contains(&bare.to_lowercase().as_str())
    {
        return true;
    }
    e.role.eq_ignore_ascii_case("textbox") && {
        let name = normalise(&e.name.as_deref().unwrap_or("").to_lowercase());
        PERSONAL_DETAILS_WORDS
            .iter()
            .any(|w| contains_phrase(&name, w))
    }
}

fn is_new_password(e: &AxElement) -> bool {
    e.autocomplete
        .as_deref()
        .is_some_and(|a| a.contains("new-password"))
        || is_new_password_name(e)
}

/// The field's name (not its `autocomplete`) says it takes a new password.
fn is_new_password_name(e: &AxElement) -> bool {
    let name = normalise(&e.name.as_deref().unwrap_or("").to_lowercase());
    NEW_PASSWORD_WORDS.iter().any(|w| contains_phrase(&name, w))
}

pub(super) fn is_identifier_field(e: &AxElement) -> bool {
    e.role.eq_ignore_ascii_case("textbox")
        && (matches!(e.input_type.as_deref(), Some("email" | "tel"))
            || e.autocomplete
                .as_deref()
                .is_some_and(|a| a.contains("username") || a.contains("email"))
            || any_word(
                &normalise(&e.name.as_deref().unwrap_or("").to_lowercase()),
                IDENTIFIER_WORDS,
            ))
}
