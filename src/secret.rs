//! Secrets stay with the person (SPEC §5 "Secrets"): which fields hold a secret, the fixed mask their values
//! are shown as, and the scrubber that takes every secret value the extension typed out of what it sends.
//!
//! A field is secret by its input `type` (`password`) or its `autocomplete` tokens (`current-password`,
//! `new-password`, `cc-number`, `cc-csc`, `one-time-code`). Its value is shown as [`MASK`], the same for
//! every length, so neither the value nor its length reaches the agent. A value typed into such a field, or
//! a named secret (SPEC §4 `type {secret}`), is remembered for the worker's life ([`remember`]) and every
//! message to the bridge is scrubbed of it ([`scrub`]): a page that echoes it (a console line, a GET form's
//! URL in the network log, a confirmation text) shows the mask instead.
//!
//! Pure logic apart from the one thread-local set of remembered values.

use serde_json::Value;
use std::cell::RefCell;

/// What a secret field's value reads as: fixed, so it does not tell the length. An empty field reads empty.
pub const MASK: &str = "••••••••";

/// Values shorter than this are not scrubbed from other text: a three-character secret would mask every
/// number and word that holds it. The field itself still reads [`MASK`].
pub const MIN_SCRUB_CHARS: usize = 4;

/// The most values remembered (past it, the shortest go first).
const MAX_REMEMBERED: usize = 64;

/// The `autocomplete` tokens that name a secret (HTML's autofill field names).
const SECRET_TOKENS: [&str; 5] = [
    "current-password",
    "new-password",
    "cc-number",
    "cc-csc",
    "one-time-code",
];

/// Whether a form field holds a secret: an `<input type=password>`, or any input or textarea whose
/// `autocomplete` attribute names a password, a card number, a card security code or a one-time code
/// (tokens in any case, among section and billing/shipping tokens). `tag` is the lowercase tag name,
/// `input_type` and `autocomplete` the attributes as written (absent: `None`).
pub fn is_secret_field(tag: &str, input_type: Option<&str>, autocomplete: Option<&str>) -> bool {
    if !matches!(tag, "input" | "textarea") {
        return false;
    }
    if tag == "input" && input_type.is_some_and(|t| t.trim().eq_ignore_ascii_case("password")) {
        return true;
    }
    autocomplete.is_some_and(|a| {
        a.split_ascii_whitespace()
            .any(|token| SECRET_TOKENS.iter().any(|s| token.eq_ignore_ascii_case(s)))
    })
}

/// A value as shown: a secret field's as [`MASK`] (empty stays empty), any other as it is.
pub fn shown(value: &str, secret: bool) -> String {
    if secret && !value.is_empty() {
        MASK.to_owned()
    } else {
        value.to_owned()
    }
}

/// A set of secret values and the forms they take in text (as typed, URL-encoded, form-encoded).
#[derive(Default, Debug, Clone)]
pub struct Scrubber {
    forms: Vec<String>,
}

impl Scrubber {
    /// Adds `value` (ignored when shorter than [`MIN_SCRUB_CHARS`] characters).
    pub fn add(&mut self, value: &str) {
        if value.chars().count() < MIN_SCRUB_CHARS {
            return;
        }
        for form in [
            value.to_owned(),
            percent_encoded(value, false),
            percent_encoded(value, true),
        ] {
            if !self.forms.contains(&form) {
                self.forms.push(form);
            }
        }
        // Longest first, so a value that holds another is masked whole.
        self.forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
        let excess = self.forms.len().saturating_sub(MAX_REMEMBERED * 3);
        self.forms.drain(self.forms.len() - excess..);
    }

    /// Whether nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }

    /// `text` with every remembered value replaced by [`MASK`].
    pub fn text(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for form in &self.forms {
            if out.contains(form.as_str()) {
                out = out.replace(form.as_str(), MASK);
            }
        }
        out
    }

    /// Scrubs every string of `value` (object keys are the protocol's, left as they are).
    pub fn value(&self, value: &mut Value) {
        match value {
            Value::String(s) if self.forms.iter().any(|f| s.contains(f.as_str())) => {
                *s = self.text(s);
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.value(v)),
            Value::Object(map) => map.values_mut().for_each(|v| self.value(v)),
            _ => {}
        }
    }
}

/// `value` as `encodeURIComponent` writes it, or (`form`) as a form's `application/x-www-form-urlencoded`
/// body and GET query do (a space as `+`).
fn percent_encoded(value: &str, form: bool) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => {
                out.push(b as char)
            }
            b'!' | b'~' | b'\'' | b'(' | b')' if !form => out.push(b as char),
            b' ' if form => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

thread_local! {
    static REMEMBERED: RefCell<Scrubber> = RefCell::new(Scrubber::default());
}

/// Remembers a secret value the extension typed (into a secret field, or a named secret anywhere) or read in a
/// secret field (`extract`).
pub fn remember(value: &str) {
    REMEMBERED.with(|r| r.borrow_mut().add(value));
}

/// Scrubs every remembered secret out of the strings of `value` (a message about to leave the extension).
pub fn scrub(value: &mut Value) {
    REMEMBERED.with(|r| {
        let r = r.borrow();
        if !r.is_empty() {
            r.value(value);
        }
    });
}

/// Whether any secret is remembered (so a message needs [`scrub`]).
pub fn any_remembered() -> bool {
    REMEMBERED.with(|r| !r.borrow().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn passwords_cards_security_and_one_time_codes_are_secret_by_type_or_autocomplete() {
        assert!(is_secret_field("input", Some("password"), None));
        assert!(is_secret_field("input", Some(" PASSWORD "), None));
        assert!(is_secret_field("input", Some("text"), Some("cc-number")));
        assert!(is_secret_field(
            "input",
            Some("tel"),
            Some("section-pay billing CC-CSC")
        ));
        assert!(is_secret_field("input", None, Some("one-time-code")));
        // A password shown by a "show password" toggle keeps its autocomplete.
        assert!(is_secret_field(
            "input",
            Some("text"),
            Some("current-password")
        ));
        assert!(is_secret_field("textarea", None, Some("new-password")));
        assert!(!is_secret_field("input", Some("text"), Some("cc-name")));
        assert!(!is_secret_field("input", Some("email"), Some("username")));
        assert!(!is_secret_field("input", None, None));
        assert!(!is_secret_field(
            "select",
            Some("password"),
            Some("cc-number")
        ));
        assert!(!is_secret_field("div", Some("password"), None));
    }

    #[test]
    fn the_mask_does_not_tell_the_length() {
        assert_eq!(shown("s3cret", true), MASK);
        assert_eq!(shown("a much longer pass phrase", true), MASK);
        assert_eq!(shown("", true), "");
        assert_eq!(shown("s3cret", false), "s3cret");
    }

    #[test]
    fn a_remembered_value_is_masked_as_typed_and_url_encoded_in_every_string() {
        let mut s = Scrubber::default();
        s.add("hunter 2&x");
        s.add("ab");
        let mut v = json!({
            "text": "login with hunter 2&x",
            "url": "http://a/?p=hunter+2%26x",
            "uri": "http://a/#hunter%202%26x",
            "ab": ["about", 3],
        });
        s.value(&mut v);
        assert_eq!(
            v,
            json!({
                "text": format!("login with {MASK}"),
                "url": format!("http://a/?p={MASK}"),
                "uri": format!("http://a/#{MASK}"),
                "ab": ["about", 3],
            })
        );
    }

    #[test]
    fn a_value_that_holds_another_is_masked_whole() {
        let mut s = Scrubber::default();
        s.add("4242");
        s.add("4242424242424242");
        assert_eq!(s.text("card 4242424242424242"), format!("card {MASK}"));
    }
}
