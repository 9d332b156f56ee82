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
//!    without signing in (a guest checkout) or is an article beside the site's account box is none;
//! 5. soft sign-in text ("sign in to continue", …) → auth_wall, low.
//!
//! It prefers a miss to a false alarm: `high` makes the agent give up on the page. Phrases are
//! matched on word boundaries, in English and in the languages below where they are known.

use super::ax::AxElement;

/// How much of the markdown the classifier reads, in chars (SPEC §5: the first 4 K).
pub const MARKDOWN_HEAD_CHARS: usize = 4096;

/// A page with less markdown than this (chars) is "short": challenge and denial pages are.
pub const SHORT_PAGE_CHARS: usize = 1500;

/// On a long page, a layer-3 phrase counts only within this many chars of the top.
const TOP_CHARS: usize = 800;

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
    /// A known CAPTCHA iframe is on the page ([`super::snapshot::Dom::has_captcha_frame`]).
    pub captcha_frame: bool,
    /// A form on the page submits to an interstitial's endpoint (a Cloudflare challenge form, whose
    /// text may be hidden until its script runs): [`is_interstitial_url`] of its resolved `action`.
    pub challenge_form: bool,
}

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
            (false, _) => (Low, "the page has a sign-in form with a password field"),
        };
        return verdict(AuthWall, confidence, 4, message.into());
    }
    if let Some(v) = soft_layer(&head) {
        return Some(v);
    }
    // An identifier-first sign-in page (the password comes on the next step): the title or URL reads
    // as sign-in, the page is short, and it asks for an email, username or phone number.
    let identifier = input
        .elements
        .iter()
        .any(|e| e.rendered && is_identifier_field(e));
    if short && identifier && reads_as_sign_in(&url, &title) && !reads_as_sign_up(&url, &title) {
        return verdict(
            AuthWall,
            Low,
            5,
            "a sign-in page asking for the account name".into(),
        );
    }
    None
}

/// Offers to go on without an account (a checkout's guest option).
const GUEST_WORDS: &[&str] = &[
    "guest checkout",
    "checkout as guest",
    "checkout as a guest",
    "check out as guest",
    "check out as a guest",
    "continue as guest",
    "continue as a guest",
    "proceed as guest",
    "proceed as a guest",
    "guest check out",
    "without an account",
    "without registering",
    "without registration",
    "als gast",
    "en tant qu'invité",
    "como invitado",
    "como convidado",
    "come ospite",
];

/// Title and URL words of a checkout.
const CHECKOUT_WORDS: &[&str] = &[
    "checkout",
    "check-out",
    "check out",
    "cart",
    "basket",
    "shopping bag",
    "kasse",
    "warenkorb",
    "panier",
    "commande",
    "carrito",
    "carrinho",
    "carrello",
    "winkelwagen",
];

/// URL path words of a checkout's steps (a title's "free shipping" is a slogan, not a step).
const CHECKOUT_PATH_WORDS: &[&str] = &["shipping", "payment", "billing", "delivery"];

fn reads_as_checkout(url: &str, title: &str) -> bool {
    let words = url_words(url);
    any_word(&words, CHECKOUT_WORDS)
        || any_word(&words, CHECKOUT_PATH_WORDS)
        || any_word(title, CHECKOUT_WORDS)
}

/// Fields of a shipping or payment form (with [`PERSONAL_DETAILS_WORDS`]).
const CHECKOUT_FIELD_WORDS: &[&str] = &[
    "address",
    "card number",
    "name on card",
    "cardholder",
    "expiration",
    "expiry",
    "state",
    "country",
    "apartment",
    "suite",
    "adresse",
    "dirección",
    "endereço",
    "indirizzo",
];

/// A shipping or payment form has at least this many name, address or card fields.
const CHECKOUT_FORM_FIELDS: usize = 3;

/// The page lets the person go on without signing in: a rendered control or the head of the
/// markdown offers a guest checkout, or a `<form>` without a password field asks for
/// [`CHECKOUT_FORM_FIELDS`] or more name, address or card fields (a checkout's own shipping form,
/// next to its "returning customer? sign in" box).
fn sign_in_is_optional(elements: &[AxElement], head: &str) -> bool {
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

/// Share of the markdown head's visible text, in [0, 1], above which the page is an article.
const ARTICLE_SHARE: f64 = 0.75;
/// A paragraph of at least this many visible chars is prose.
const PROSE_PARAGRAPH_CHARS: usize = 200;

/// The head of the markdown is mostly prose: paragraphs of [`PROSE_PARAGRAPH_CHARS`] or more
/// (headings, lists, tables and images aside) make up more than [`ARTICLE_SHARE`] of its text.
fn is_article(markdown: &str) -> bool {
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

/// Words of a sign-in identifier field.
const IDENTIFIER_WORDS: &[&str] = &[
    "email",
    "e-mail",
    "username",
    "user name",
    "user id",
    "login",
    "phone",
    "account",
    "benutzername",
    "courriel",
    "identifiant",
    "correo",
    "usuário",
    "utente",
    "邮箱",
    "用户名",
    "メールアドレス",
];

fn is_identifier_field(e: &AxElement) -> bool {
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

// ---- layer 2 ----

struct TitleSignature {
    text: &'static str,
    kind: ObstacleKind,
    what: &'static str,
    /// Whole title (or title plus a " | site" part) must be the signature; else a prefix will do.
    exact: bool,
    /// Fires on a page of any length; otherwise only on a short page.
    any_length: bool,
}

const fn sig(
    text: &'static str,
    kind: ObstacleKind,
    what: &'static str,
    exact: bool,
    any_length: bool,
) -> TitleSignature {
    TitleSignature {
        text,
        kind,
        what,
        exact,
        any_length,
    }
}

const TITLE_SIGNATURES: &[TitleSignature] = {
    use ObstacleKind::{AccessDenied as D, Captcha as C};
    &[
        sig("just a moment...", C, "Cloudflare challenge", false, true),
        sig("just a moment…", C, "Cloudflare challenge", false, true),
        sig(
            "attention required! | cloudflare",
            C,
            "Cloudflare challenge",
            false,
            true,
        ),
        sig(
            "please wait... | cloudflare",
            C,
            "Cloudflare challenge",
            false,
            true,
        ),
        sig(
            "one moment, please...",
            C,
            "Cloudflare challenge",
            false,
            true,
        ),
        sig("checking your browser", C, "bot check", false, true),
        sig("ddos-guard", C, "DDoS-Guard challenge", false, true),
        sig("ddos protection by", C, "bot check", false, true),
        sig("pardon our interruption", C, "bot check", false, true),
        sig("are you a robot?", C, "bot check", false, true),
        sig("are you a human?", C, "bot check", false, true),
        sig("robot check", C, "bot check", true, true),
        sig("human verification", C, "bot check", true, true),
        sig("security check", C, "bot check", true, false),
        sig("captcha", C, "CAPTCHA", true, false),
        // Cloudflare's localised "Just a moment..." titles.
        sig("einen moment…", C, "Cloudflare challenge", true, false),
        sig("un instant…", C, "Cloudflare challenge", true, false),
        sig("un momento…", C, "Cloudflare challenge", true, false),
        sig("um momento…", C, "Cloudflare challenge", true, false),
        sig("один момент…", C, "Cloudflare challenge", true, false),
        sig("请稍候…", C, "Cloudflare challenge", true, false),
        sig(
            "しばらくお待ちください...",
            C,
            "Cloudflare challenge",
            true,
            false,
        ),
        sig("access denied", D, "access denial", true, false),
        sig(
            "access to this page has been denied",
            D,
            "access denial",
            false,
            true,
        ),
        sig("403 forbidden", D, "403", true, false),
        sig("403 - forbidden", D, "403", true, false),
        sig("error 403", D, "403", true, false),
        sig("forbidden", D, "403", true, false),
        sig("you have been blocked", D, "block", false, true),
        sig("request rejected", D, "block", true, false),
        sig("zugriff verweigert", D, "access denial", true, false),
        sig("accès refusé", D, "access denial", true, false),
        sig("acceso denegado", D, "access denial", true, false),
        sig("acesso negado", D, "access denial", true, false),
        sig("доступ запрещен", D, "access denial", true, false),
        sig("访问被拒绝", D, "access denial", true, false),
    ]
};

/// Separators between a page's own title and the site name.
const TITLE_SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", " :: ", " · ", ": "];

fn title_matches(title: &str, sig: &str, exact: bool) -> bool {
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

fn url_signature(url: &str) -> Option<(ObstacleKind, &'static str)> {
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

// ---- layer 3 ----

const CAPTCHA_PHRASES: &[&str] = &[
    "verify you are human",
    "verify you are a human",
    "verifying you are human",
    "verify that you are human",
    "verify that you are a human",
    "confirm you are human",
    "confirm that you are human",
    "prove you are human",
    "are you a robot",
    "i'm not a robot",
    "i am not a robot",
    "checking your browser before accessing",
    "checking if the site connection is secure",
    "checking your browser",
    "enable javascript and cookies to continue",
    "please turn javascript on and reload the page",
    "unusual traffic from your computer network",
    "our systems have detected unusual traffic",
    "complete the security check to access",
    "please complete the security check",
    "why do i have to complete a captcha",
    "please stand by, while we are checking your browser",
    "press and hold the button",
    "press & hold",
    "ddos protection by",
    "please solve this captcha",
    "solve the captcha",
    // de, fr, es, pt, it, nl
    "bestätigen sie, dass sie ein mensch sind",
    "überprüfen, ob sie ein mensch sind",
    "ungewöhnlichen datenverkehr",
    "vérifiez que vous êtes humain",
    "vérifier que vous êtes un humain",
    "vérification que vous êtes un humain",
    "trafic inhabituel",
    "verifica que eres humano",
    "verificar que eres un ser humano",
    "verificando que eres un ser humano",
    "tráfico inusual",
    "verifique se você é humano",
    "verificando se você é humano",
    "tráfego incomum",
    "verifica di essere umano",
    "verifica che tu sia un essere umano",
    "traffico insolito",
    "controleer of u een mens bent",
    // ru, ja, zh, ko
    "подтвердите, что вы человек",
    "проверка, что вы человек",
    "необычный трафик",
    "ロボットではありません",
    "人間であることを確認",
    "验证您是人类",
    "确认您是真人",
    "人机验证",
    "异常流量",
    "사람인지 확인",
];

const DENIED_PHRASES: &[&str] = &[
    "you don't have permission to access",
    "you do not have permission to access",
    "access to this page has been denied",
    "access to this page is forbidden",
    "sorry, you have been blocked",
    "you have been blocked",
    "this request was blocked",
    "the requested url was rejected",
    "your access to this site has been limited",
    "you are being rate limited",
    "your ip address has been blocked",
    "your ip has been blocked",
];

/// Generic denial words: only on a short page.
const DENIED_PHRASES_WEAK: &[&str] = &[
    "access denied",
    "request blocked",
    "403 forbidden",
    "error 1020",
    "zugriff verweigert",
    "accès refusé",
    "acceso denegado",
    "acesso negado",
    "accesso negato",
    "доступ запрещен",
    "アクセスが拒否されました",
    "访问被拒绝",
    "拒绝访问",
];

// ---- layer 4 ----

/// Words naming a password field, whole words, in the languages we know (SPEC §5 names the English
/// `/\b(password|passcode|pwd)\b/i`).
const PASSWORD_WORDS: &[&str] = &[
    "password",
    "passcode",
    "pwd",
    "passwort",
    "kennwort",
    "mot de passe",
    "contraseña",
    "senha",
    "wachtwoord",
    "lösenord",
    "passord",
    "adgangskode",
    "salasana",
    "hasło",
    "heslo",
    "jelszó",
    "parola",
    "parolă",
    "пароль",
    "密码",
    "密碼",
    "パスワード",
    "비밀번호",
    "şifre",
    "mật khẩu",
    "kata sandi",
];

/// Words of a new-password field (registration, password change), including the rules a new password
/// must follow ("6 or more characters"), which only a form that sets a password states.
const NEW_PASSWORD_WORDS: &[&str] = &[
    "confirm password",
    "repeat password",
    "retype password",
    "re-enter password",
    "new password",
    "password again",
    "verify password",
    "choose a password",
    "create a password",
    "create password",
    "confirm your password",
    "or more characters",
    "at least",
    "characters minimum",
    "minimum of",
    "passwort bestätigen",
    "neues passwort",
    "mindestens",
    "confirmer le mot de passe",
    "nouveau mot de passe",
    "au moins",
    "confirmar contraseña",
    "nueva contraseña",
    "al menos",
    "confirmar senha",
    "nova senha",
    "pelo menos",
];

/// Names of masked fields that hold something other than an account's password: a card's security
/// code, a social security number. Checkout and enrolment forms mask them with `type=password`.
const OTHER_SECRET_WORDS: &[&str] = &[
    "cvv",
    "cvv2",
    "cvc",
    "csc",
    "security code",
    "card verification",
    "card number",
    "social security",
    "ssn",
    "tax id",
    "sozialversicherungsnummer",
    "cryptogramme",
    "código de seguridad",
];

fn is_password_field(e: &AxElement) -> bool {
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

fn is_text_field(e: &AxElement) -> bool {
    matches!(
        e.role.to_ascii_lowercase().as_str(),
        "textbox" | "searchbox"
    )
}

/// What a form with a password field is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FormKind {
    /// One current password and one account name: signing in.
    SignIn,
    /// A new or repeated password, personal details, several identifiers, or a sign-up's consent
    /// and submit text: signing up or changing the password.
    Registration,
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
fn password_forms(elements: &[AxElement]) -> Vec<FormKind> {
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
/// ("remember me", "forgot password", a "Sign in" submit), which only the weaker signs yield to.
fn form_kind(passwords: &[&AxElement], scope: &[&AxElement], before: &[&AxElement]) -> FormKind {
    let in_scope_passwords = scope.iter().filter(|e| is_password_field(e)).count();
    let texts = scope
        .iter()
        .filter(|e| is_text_field(e) && !is_password_field(e));
    let strong = passwords.len() >= 2
        || in_scope_passwords >= 2
        || passwords.iter().any(|e| is_new_password_name(e))
        || texts.clone().any(|e| is_personal_details_field(e))
        || before.iter().filter(|e| is_identifier_field(e)).count() >= 2;
    if strong {
        return FormKind::Registration;
    }
    let name = |e: &AxElement| normalise(&e.name.as_deref().unwrap_or("").to_lowercase());
    let role =
        |e: &AxElement, roles: &[&str]| roles.contains(&e.role.to_ascii_lowercase().as_str());
    let sign_in = scope.iter().any(|e| {
        let n = name(e);
        (role(e, &["checkbox", "switch"]) && any_word(&n, STAY_SIGNED_IN_WORDS))
            || (role(e, &["link", "button"]) && any_word(&n, FORGOT_WORDS))
            || (role(e, &["button"]) && any_word(&n, SIGN_IN_TITLE_WORDS))
            || e.autocomplete
                .as_deref()
                .is_some_and(|a| a.contains("current-password"))
    });
    if sign_in {
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

/// A sign-in form's "stay signed in" checkbox.
const STAY_SIGNED_IN_WORDS: &[&str] = &[
    "remember me",
    "remember my",
    "remember username",
    "remember email",
    "keep me signed in",
    "keep me logged in",
    "stay signed in",
    "stay logged in",
    "angemeldet bleiben",
    "se souvenir de moi",
    "rester connecté",
    "recordarme",
    "mantener la sesión iniciada",
    "lembrar de mim",
    "manter conectado",
    "ricordami",
    "onthoud mij",
    "ingelogd blijven",
    "запомнить меня",
    "ログインしたままにする",
    "记住我",
];

/// A sign-in form's "forgot password" control.
const FORGOT_WORDS: &[&str] = &[
    "forgot",
    "forgotten",
    "reset password",
    "reset your password",
    "trouble signing in",
    "trouble logging in",
    "can't sign in",
    "can't log in",
    "passwort vergessen",
    "mot de passe oublié",
    "olvidaste",
    "olvidé",
    "esqueceu",
    "esqueci",
    "dimenticato",
    "dimenticata",
    "wachtwoord vergeten",
    "забыли пароль",
    "忘记密码",
    "パスワードを忘れた",
];

/// A sign-up form's consent checkbox (terms, privacy policy, newsletter).
const CONSENT_WORDS: &[&str] = &[
    "i agree",
    "agree to",
    "i accept",
    "accept the",
    "terms",
    "privacy policy",
    "newsletter",
    "keep me updated",
    "send me",
    "receive emails",
    "receive email",
    "special offers",
    "subscribe",
    "ich stimme",
    "ich akzeptiere",
    "nutzungsbedingungen",
    "datenschutz",
    "j'accepte",
    "conditions générales",
    "acepto",
    "términos",
    "aceito",
    "termos",
    "accetto",
    "termini",
];

/// A sign-up form's submit text.
const SIGN_UP_SUBMIT_WORDS: &[&str] = &[
    "create",
    "register",
    "sign up",
    "signup",
    "join",
    "get started",
    "subscribe",
    "registrieren",
    "konto erstellen",
    "s'inscrire",
    "créer",
    "registrarse",
    "regístrate",
    "crear",
    "cadastrar",
    "criar",
    "registrati",
    "crea",
    "registreren",
    "зарегистрироваться",
    "注册",
    "登録",
];

/// Fields a sign-up form asks for and a sign-in form does not.
const PERSONAL_DETAILS_WORDS: &[&str] = &[
    "first name",
    "last name",
    "full name",
    "your name",
    "surname",
    "given name",
    "family name",
    "date of birth",
    "birthday",
    "birth date",
    "zip",
    "zip code",
    "postal code",
    "postcode",
    "street",
    "address line",
    "city",
    "vorname",
    "nachname",
    "geburtsdatum",
    "postleitzahl",
    "prénom",
    "nom de famille",
    "date de naissance",
    "code postal",
    "nombre",
    "apellido",
    "apellidos",
    "código postal",
    "sobrenome",
    "cognome",
];

fn is_personal_details_field(e: &AxElement) -> bool {
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

/// Path segments (split on `/`, `.`, `?`…) that name a sign-in page.
const SIGN_IN_PATH_WORDS: &[&str] = &[
    "login",
    "log-in",
    "log_in",
    "signin",
    "sign-in",
    "sign_in",
    "logon",
    "log-on",
    "auth",
    "authenticate",
    "authentication",
    "authorize",
    "sso",
    "cas",
    "wp-login",
    "session",
    "sessions",
    "anmelden",
    "connexion",
    "acceso",
    "entrar",
    "accedi",
    "inloggen",
    "accounts",
    "sign in",
    "log in",
];

/// Title words of a sign-in page.
const SIGN_IN_TITLE_WORDS: &[&str] = &[
    "sign in",
    "sign-in",
    "signin",
    "log in",
    "log-in",
    "login",
    "logon",
    "log on",
    "sign on",
    "anmelden",
    "anmeldung",
    "einloggen",
    "connexion",
    "se connecter",
    "identifiez-vous",
    "iniciar sesión",
    "inicia sesión",
    "iniciar sessão",
    "entrar",
    "accedi",
    "accesso",
    "inloggen",
    "aanmelden",
    "logga in",
    "zaloguj",
    "войти",
    "вход",
    "登录",
    "登入",
    "ログイン",
    "로그인",
    "giriş",
    "đăng nhập",
    "masuk",
    "member login",
    "authentication",
    "authenticate",
];

/// Path and title words of a registration page.
const SIGN_UP_WORDS: &[&str] = &[
    "signup",
    "sign-up",
    "sign_up",
    "sign up",
    "register",
    "registration",
    "create account",
    "create an account",
    "create your account",
    "join",
    "enroll",
    "enrollment",
    "enrolment",
    "registrieren",
    "registrierung",
    "inscription",
    "s'inscrire",
    "registro",
    "regístrate",
    "cadastro",
    "registrati",
    "registreren",
    "регистрация",
    "注册",
    "登録",
    "회원가입",
    "new account",
    "open an account",
    "reset",
    "forgot",
    "change password",
    "new password",
];

/// Headings that offer a new account next to the sign-in form.
const SIGN_UP_HEADING_WORDS: &[&str] = &[
    "create an account",
    "create account",
    "create your account",
    "register",
    "registration",
    "sign up",
    "signup",
    "new customer",
    "new customers",
    "new user",
    "new account",
    "join us",
    "not a member",
    "don't have an account",
    "neues konto",
    "registrieren",
    "créer un compte",
    "crear una cuenta",
    "criar conta",
    "registrati",
];

/// A markdown heading in the classifier's head offers to create an account.
fn offers_sign_up_in_headings(markdown: &str) -> bool {
    let head: String = markdown.chars().take(MARKDOWN_HEAD_CHARS).collect();
    head.lines()
        .filter(|l| l.trim_start().starts_with('#'))
        .map(|l| normalise(&strip_markdown(&l.to_lowercase())))
        .any(|h| any_word(&h, SIGN_UP_HEADING_WORDS))
}

/// True when a word list item occurs in `s` as whole words.
fn any_word(s: &str, words: &[&str]) -> bool {
    words.iter().any(|w| contains_phrase(s, w))
}

/// The host's first label (`login` of login.example.com) and the path, as space-separated words.
fn url_words(url: &str) -> String {
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

fn reads_as_sign_in(url: &str, title: &str) -> bool {
    let words = url_words(url);
    any_word(&words, SIGN_IN_PATH_WORDS)
        || any_word(&words.replace('-', ""), &["signin", "login", "logon"])
        || any_word(title, SIGN_IN_TITLE_WORDS)
}

fn reads_as_sign_up(url: &str, title: &str) -> bool {
    any_word(&url_words(url), SIGN_UP_WORDS) || any_word(title, SIGN_UP_WORDS)
}

// ---- layer 5 ----

const SIGN_IN_PHRASES: &[&str] = &[
    "sign in to continue",
    "log in to continue",
    "login to continue",
    "sign in to view",
    "log in to view",
    "sign in to see",
    "log in to see",
    "sign in to access",
    "log in to access",
    "sign in to read",
    "log in to read",
    "please sign in",
    "please log in",
    "please login",
    "you must be logged in",
    "you must log in",
    "you must sign in",
    "you need to sign in",
    "you need to log in",
    "you need to be logged in",
    "you have to be logged in",
    "login required",
    "sign in required",
    "sign-in required",
    "authentication required",
    "bitte melden sie sich an",
    "melden sie sich an, um fortzufahren",
    "connectez-vous pour continuer",
    "connectez-vous pour accéder",
    "veuillez vous connecter",
    "inicia sesión para continuar",
    "inicia sesión para ver",
    "inicia sesión para acceder",
    "debes iniciar sesión",
    "faça login para continuar",
    "accedi per continuare",
    "请登录",
    "请先登录",
    "ログインしてください",
    "로그인이 필요",
    "войдите, чтобы продолжить",
    "необходимо войти",
];

/// What may follow a sign-in phrase when only a page feature (comments, votes), not the page, needs it.
const FEATURE_ONLY: &[&str] = &[
    "to comment",
    "to reply",
    "to post",
    "to vote",
    "to like",
    "to rate",
    "to leave",
    "to join the",
    "to follow",
    "to save",
    "to add",
    "to write",
    "to review",
    "to participate",
    "para comentar",
    "pour commenter",
    "um zu kommentieren",
    "per commentare",
];

/// The first sign-in phrase in `head` that is about the page rather than a feature of it.
fn soft_sign_in(head: &str) -> Option<&'static str> {
    SIGN_IN_PHRASES.iter().copied().find(|p| {
        phrase_positions(head, p).into_iter().any(|at| {
            let rest = head[at + p.len()..].trim_start();
            !FEATURE_ONLY.iter().any(|f| rest.starts_with(f))
        })
    })
}

// ---- text helpers ----

/// Curly quotes to straight ones, runs of whitespace to one space.
fn normalise(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{02BC}' => '\'',
            '\u{201C}' | '\u{201D}' => '"',
            c => c,
        })
        .collect();
    super::markdown::collapse(&s)
}

/// Drops markdown link targets and markup so phrases split by formatting still match.
fn strip_markdown(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut chars = md.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // `](url)`: keep the text, drop the target.
            ']' if chars.peek() == Some(&'(') => {
                let mut depth = 0;
                for d in chars.by_ref() {
                    match d {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            '[' | ']' | '*' | '`' | '#' | '|' | '>' | '!' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `needle` occurs in `hay` with no letter or digit right before or after it (whole words). For
/// scripts without spaces (CJK) any occurrence counts.
fn contains_phrase(hay: &str, needle: &str) -> bool {
    phrases(hay, needle).next().is_some()
}

/// Byte offsets of the whole-word occurrences of `needle` in `hay` (see [`contains_phrase`]).
fn phrase_positions(hay: &str, needle: &str) -> Vec<usize> {
    phrases(hay, needle).collect()
}

/// The whole-word occurrences of `needle` in `hay`, as byte offsets, found lazily: most callers only ask
/// whether there is one, on a page's whole text.
fn phrases<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let cjk = needle.chars().any(|c| (c as u32) >= 0x2E80);
    let mut start = 0;
    std::iter::from_fn(move || {
        if needle.is_empty() {
            return None;
        }
        while let Some(pos) = hay.get(start..)?.find(needle) {
            let at = start + pos;
            let end = at + needle.len();
            start = at + hay[at..].chars().next().map_or(1, char::len_utf8);
            let before = hay[..at].chars().next_back();
            let after = hay[end..].chars().next();
            let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
            if cjk || (boundary(before) && boundary(after)) {
                return Some(at);
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(role: &str, name: &str) -> AxElement {
        AxElement {
            role: role.into(),
            name: Some(name.into()).filter(|n: &String| !n.is_empty()),
            visible: Some(true),
            rendered: true,
            ..AxElement::default()
        }
    }

    fn pw_input() -> AxElement {
        AxElement {
            input_type: Some("password".into()),
            ..el("textbox", "")
        }
    }

    struct Case {
        name: &'static str,
        url: &'static str,
        title: &'static str,
        markdown: &'static str,
        elements: Vec<AxElement>,
        frame: bool,
        want: Option<(ObstacleKind, Confidence, u8)>,
    }

    fn case(
        name: &'static str,
        url: &'static str,
        title: &'static str,
        markdown: &'static str,
    ) -> Case {
        Case {
            name,
            url,
            title,
            markdown,
            elements: Vec::new(),
            frame: false,
            want: None,
        }
    }

    impl Case {
        fn els(mut self, e: Vec<AxElement>) -> Self {
            self.elements = e;
            self
        }
        fn frame(mut self) -> Self {
            self.frame = true;
            self
        }
        fn want(mut self, k: ObstacleKind, c: Confidence, layer: u8) -> Self {
            self.want = Some((k, c, layer));
            self
        }
    }

    const ARTICLE: &str = "# Local council approves new park\n\nThe council voted on Tuesday to approve the plan, \
        which had been debated for two years. Residents said the park would bring families together. \
        The project is expected to cost four million and open next spring, officials said, adding that \
        construction would begin once the final permits are issued by the state agency in charge.";

    #[test]
    fn classifier_table() {
        use Confidence::*;
        use ObstacleKind::*;
        let long_article: &'static str = Box::leak(ARTICLE.repeat(8).into_boxed_str());
        let cases = vec![
            case(
                "plain article",
                "https://news.test/2024/park",
                "council approves park",
                ARTICLE,
            ),
            case(
                "captcha iframe wins over everything",
                "https://shop.test/",
                "shop",
                ARTICLE,
            )
            .frame()
            .want(Captcha, High, 1),
            case(
                "cloudflare just a moment",
                "https://x.test/",
                "Just a moment...",
                "Checking your browser",
            )
            .want(Captcha, High, 2),
            case(
                "cloudflare attention required",
                "https://x.test/",
                "Attention Required! | Cloudflare",
                "",
            )
            .want(Captcha, High, 2),
            case(
                "cloudflare please wait",
                "https://x.test/",
                "Please Wait... | Cloudflare",
                "",
            )
            .want(Captcha, High, 2),
            case("ddos-guard", "https://x.test/", "DDoS-Guard", "").want(Captcha, High, 2),
            case(
                "access denied title on a short page",
                "https://x.test/a",
                "Access Denied",
                "You don't have permission.",
            )
            .want(AccessDenied, High, 2),
            case(
                "403 title with site name",
                "https://x.test/a",
                "403 Forbidden - nginx",
                "nginx",
            )
            .want(AccessDenied, High, 2),
            case(
                "a long article titled access denied is not a denial",
                "https://news.test/a",
                "Access Denied | Movie review",
                long_article,
            ),
            case(
                "challenge url",
                "https://x.test/?__cf_chl_rt_tk=abc",
                "x",
                "",
            )
            .want(Captcha, High, 2),
            case(
                "google sorry page",
                "https://www.google.com/sorry/index?continue=x",
                "google.com",
                "",
            )
            .want(Captcha, High, 2),
            case(
                "verify you are human, short",
                "https://x.test/",
                "x.test",
                "## Verify you are human\n\nComplete the action below.",
            )
            .want(Captcha, High, 3),
            case(
                "curly apostrophe denial",
                "https://x.test/",
                "error",
                "You don\u{2019}t have permission to access this resource.",
            )
            .want(AccessDenied, High, 3),
            case(
                "german bot check",
                "https://x.test/",
                "x",
                "Bitte bestätigen Sie, dass Sie ein Mensch sind.",
            )
            .want(Captcha, High, 3),
            case(
                "chinese bot check",
                "https://x.test/",
                "x",
                "请完成人机验证以继续访问",
            )
            .want(Captcha, High, 3),
            case(
                "an article mentioning verify you are human deep down is nothing",
                "https://news.test/a",
                "bots",
                long_article,
            ),
            case(
                "denial words in a long page are not a denial",
                "https://news.test/a",
                "security",
                long_article,
            ),
            case(
                "sign-in page with password input",
                "https://site.test/login",
                "Sign in",
                "# Sign in",
            )
            .els(vec![
                el("textbox", "Email"),
                pw_input(),
                el("button", "Sign in"),
            ])
            .want(AuthWall, High, 4),
            case(
                "design-system password on a sign-in page",
                "https://app.test/signin",
                "app",
                "Welcome back",
            )
            .els(vec![
                el("textbox", "Email"),
                el("textbox", "Password"),
                el("button", "Continue"),
            ])
            .want(AuthWall, High, 4),
            case(
                "password field on a page that does not read as sign-in",
                "https://shop.test/rewards",
                "rewards",
                "Members",
            )
            .els(vec![el("textbox", "Passcode")])
            .want(AuthWall, Low, 4),
            case(
                "french password on connexion page",
                "https://site.test/",
                "Connexion – Site",
                "",
            )
            .els(vec![el("textbox", "Mot de passe")])
            .want(AuthWall, High, 4),
            case(
                "registration form is not a wall",
                "https://site.test/register",
                "Create your account",
                "",
            )
            .els(vec![
                el("textbox", "Email"),
                el("textbox", "Password"),
                el("textbox", "Confirm password"),
            ]),
            case(
                "password-change form is not a wall",
                "https://site.test/settings",
                "settings",
                "",
            )
            .els(vec![AxElement {
                autocomplete: Some("new-password".into()),
                ..el("textbox", "New password")
            }]),
            case(
                "passwordless words do not match",
                "https://site.test/",
                "tips",
                ARTICLE,
            )
            .els(vec![
                el("textbox", "Passwords manager search"),
                el("textbox", "pwdx"),
            ]),
            case(
                "a nav log in link is not a wall",
                "https://news.test/",
                "news",
                ARTICLE,
            )
            .els(vec![
                el("link", "Log in"),
                el("link", "Sign in"),
                el("button", "Subscribe"),
            ]),
            case(
                "soft sign-in text",
                "https://forum.test/t/1",
                "thread",
                "You must be logged in to view this page.",
            )
            .want(AuthWall, Low, 5),
            case(
                "sign in inside a longer word is nothing",
                "https://x.test/",
                "x",
                "Resign in two weeks? Designing continues.",
            ),
            case("sign-in page that also offers an account is only low", "https://shop.test/sign_in.do", "Sign In | Shop", "### Sign in\n\nEmail\n\n### Create an account\n\nRegister to check out faster.")
                .els(vec![AxElement { form: Some(1), ..el("textbox", "Email address") }, AxElement { form: Some(1), ..pw_input() }])
                .want(AuthWall, Low, 4),
            case(
                "sign-in needed only to comment is nothing",
                "https://news.test/a",
                "story",
                "Great story.\n\nPlease sign in to comment. Regístrate o inicia sesión para comentar",
            ),
            case("sign up and sign in on one page is a low wall", "https://site.test/", "Log In or Sign Up", "")
                .els(vec![
                    AxElement { form: Some(1), ..el("textbox", "Email") },
                    AxElement { form: Some(1), ..pw_input() },
                    AxElement { form: Some(2), ..el("textbox", "First name") },
                    AxElement { form: Some(2), ..pw_input() },
                ])
                .want(AuthWall, Low, 4),
            case("a collapsed header login box is nothing", "https://shop.test/", "shop", ARTICLE)
                .els(vec![AxElement { visible: Some(false), rendered: false, ..pw_input() }]),
            case("login and register forms side by side on a my-account page", "https://shop.test/my-account", "My account", "")
                .els(vec![
                    AxElement { form: Some(1), ..el("textbox", "Username or email") },
                    AxElement { form: Some(1), ..pw_input() },
                    AxElement { form: Some(2), ..el("textbox", "Email address") },
                    AxElement { form: Some(2), ..pw_input() },
                    AxElement { form: Some(2), ..el("textbox", "Confirm password") },
                ])
                .want(AuthWall, Low, 4),
        ];
        for c in cases {
            let got = classify(&ObstacleInput {
                url: c.url,
                title: c.title,
                markdown: c.markdown,
                elements: &c.elements,
                captcha_frame: c.frame,
                challenge_form: false,
            });
            let got = got.map(|v| (v.kind, v.confidence, v.layer));
            assert_eq!(got, c.want, "case: {}", c.name);
        }
    }

    /// `e` inside the `<form>` with backendNodeId `form`.
    fn inf(form: i64, e: AxElement) -> AxElement {
        AxElement {
            form: Some(form),
            ..e
        }
    }

    fn typed(role: &str, name: &str, input_type: &str) -> AxElement {
        AxElement {
            input_type: Some(input_type.into()),
            ..el(role, name)
        }
    }

    /// Layer 4 reads the structure of the form that holds the password: the snippets are the
    /// controls of real sign-up, checkout and sign-in pages (names as Chrome's AX tree gives them).
    #[test]
    fn password_forms_are_read_by_their_structure() {
        use Confidence::*;
        use ObstacleKind::*;
        let long_article: &'static str = Box::leak(ARTICLE.repeat(8).into_boxed_str());
        let cases = vec![
            case(
                "a sign-up form with a terms checkbox and a create submit is not a wall",
                "https://www.dropbox.com/",
                "Dropbox",
                "Create an account",
            )
            .els(vec![
                inf(1, typed("textbox", "Email", "email")),
                inf(1, typed("textbox", "Password", "password")),
                inf(
                    1,
                    typed("checkbox", "I agree to Dropbox terms.", "checkbox"),
                ),
                inf(1, el("button", "Create an account")),
            ]),
            case(
                "a sign-up form asking for a username and an email is not a wall",
                "https://www.ign.com/",
                "IGN",
                "",
            )
            .els(vec![
                inf(1, typed("textbox", "Username", "text")),
                inf(1, typed("textbox", "Email", "text")),
                inf(1, typed("textbox", "Password", "password")),
                inf(1, typed("button", "Continue", "submit")),
            ]),
            case(
                "a password that states its rules is a new one",
                "https://www.linkedin.com/",
                "LinkedIn",
                "",
            )
            .els(vec![
                inf(1, typed("textbox", "Email", "text")),
                inf(
                    1,
                    typed("textbox", "Password (6 or more characters)", "password"),
                ),
                inf(1, typed("button", "Continue", "submit")),
            ]),
            case(
                "a sign-up form with a zip code and a phone is not a wall",
                "https://www.homedepot.com/",
                "The Home Depot",
                "",
            )
            .els(vec![
                inf(1, typed("textbox", "Email", "text")),
                inf(1, typed("textbox", "", "password")),
                inf(1, typed("textbox", "Zip Code", "text")),
                inf(1, typed("textbox", "Phone", "text")),
                inf(1, el("button", "Create Account")),
            ]),
            case(
                "a sign-in form keeps its kind beside a rewards terms checkbox",
                "https://www.expedia.com/",
                "Cheap Flights",
                "",
            )
            .els(vec![
                typed("textbox", "Email address", "email"),
                typed("textbox", "Password", "password"),
                typed("checkbox", "Keep me signed in", "checkbox"),
                typed(
                    "checkbox",
                    "Join Expedia Rewards. By joining I accept all terms",
                    "checkbox",
                ),
                el("button", "Sign In"),
            ])
            .want(AuthWall, Low, 4),
            case(
                "a sign-in form with a remember-me box on a sign-in page is high",
                "https://site.test/",
                "Login",
                "## Sign in",
            )
            .els(vec![
                inf(1, typed("textbox", "Email:", "text")),
                inf(1, typed("textbox", "Password:", "password")),
                inf(1, typed("checkbox", "Remember me?", "checkbox")),
                inf(1, typed("button", "Log in", "submit")),
            ])
            .want(AuthWall, High, 4),
            case(
                "a page-wide form still reads the sign-in fields around the password",
                "https://site.test/",
                "Service Manuals - Login",
                "### Log In",
            )
            .els({
                let mut v: Vec<AxElement> = (0..12)
                    .map(|i| inf(1, el("textbox", if i == 0 { "Search" } else { "" })))
                    .collect();
                v.push(inf(1, typed("textbox", "", "text")));
                v.push(inf(1, typed("textbox", "", "password")));
                v.push(inf(1, typed("button", "Submit", "submit")));
                v
            })
            .want(AuthWall, High, 4),
            case("a sign-in form that sets autocomplete=new-password to stop autofill is still sign-in", "https://www.express-scripts.com/", "Express Scripts Members", "# Log in to Express Scripts")
                .els(vec![
                    inf(1, typed("textbox", "Username", "text")),
                    inf(1, AxElement { autocomplete: Some("new-password".into()), ..typed("textbox", "Password", "password") }),
                    inf(1, typed("checkbox", "Remember username", "checkbox")),
                    inf(1, el("button", "Log In")),
                ])
                .want(AuthWall, Low, 4),
            case(
                "a masked card security code is not a password",
                "https://shop.test/checkout",
                "Checkout",
                "Payment",
            )
            .els(vec![
                inf(1, typed("textbox", "Card number", "text")),
                inf(1, typed("textbox", "Security code (CVV)", "password")),
            ]),
            case(
                "a masked social security number is not a password",
                "https://bank.test/enroll",
                "Online Enrollment",
                "",
            )
            .els(vec![
                inf(
                    1,
                    typed("textbox", "Error Social Security number", "password"),
                ),
                inf(1, typed("button", "Continue", "submit")),
            ]),
            case(
                "a checkout's returning-customer sign-in beside its shipping form is not a wall",
                "https://shop.test/checkout/login",
                "Sign in - Checkout",
                "### Returning customer\n\n### Shipping address",
            )
            .els(vec![
                inf(1, typed("textbox", "Email", "email")),
                inf(1, typed("textbox", "Password", "password")),
                inf(1, el("button", "Sign in")),
                inf(2, typed("textbox", "First name", "text")),
                inf(2, typed("textbox", "Last name", "text")),
                inf(2, typed("textbox", "Street address", "text")),
                inf(2, typed("textbox", "City", "text")),
                inf(2, typed("textbox", "Email", "email")),
            ]),
            case(
                "a sign-in step that offers a guest checkout is not a wall",
                "https://shop.test/checkout/signin",
                "Sign In",
                "## Sign in for faster checkout",
            )
            .els(vec![
                inf(1, typed("textbox", "Email", "email")),
                inf(1, typed("textbox", "Password", "password")),
                inf(1, el("button", "Sign in")),
                el("button", "Continue as Guest"),
            ]),
            case(
                "a checkout's returning-customer box is not a wall",
                "https://shop.test/checkout",
                "ModCloth Checkout | ModCloth",
                "## Returning customers\n\n## New customers",
            )
            .els(vec![
                inf(1, typed("textbox", "Email address", "email")),
                inf(1, typed("textbox", "Password", "password")),
                inf(1, el("button", "Sign in")),
            ]),
            case(
                "a checkout's sign-in step is at most low",
                "https://shop.test/checkout/login",
                "Sign in",
                "## Sign in",
            )
            .els(vec![
                inf(1, typed("textbox", "Email", "email")),
                inf(1, typed("textbox", "Password", "password")),
                inf(1, el("button", "Sign in")),
            ])
            .want(AuthWall, Low, 4),
            case(
                "log in for faster checkout is an option",
                "https://shop.test/",
                "Shopping Bag | Shop",
                "## Log in for faster checkout",
            )
            .els(vec![
                inf(1, typed("textbox", "Email", "email")),
                inf(1, typed("textbox", "Password", "password")),
                inf(1, el("button", "Log in")),
            ]),
            case(
                "an article beside the site's account box is not a wall",
                "https://arstechnica.com/science/2015/05/x/",
                "Why we can't see the stars | Ars Technica",
                long_article,
            )
            .els(vec![
                inf(1, typed("textbox", "Username or Email", "text")),
                inf(1, typed("textbox", "Password", "password")),
                inf(1, typed("button", "Submit", "submit")),
                inf(1, typed("checkbox", "Stay logged in", "checkbox")),
            ]),
            case(
                "a shop page with the account box and little prose is a low wall",
                "https://shop.test/",
                "Office Supplies",
                "# Deals\n\n- Paper\n- Ink",
            )
            .els(vec![
                inf(1, typed("textbox", "", "text")),
                inf(1, typed("textbox", "", "password")),
                inf(1, el("button", "Log In")),
            ])
            .want(AuthWall, Low, 4),
        ];
        for c in cases {
            let got = classify(&ObstacleInput {
                url: c.url,
                title: c.title,
                markdown: c.markdown,
                elements: &c.elements,
                captcha_frame: c.frame,
                challenge_form: false,
            });
            let got = got.map(|v| (v.kind, v.confidence, v.layer));
            assert_eq!(got, c.want, "case: {}", c.name);
        }
    }

    #[test]
    fn an_article_is_a_head_of_long_paragraphs() {
        assert!(is_article(ARTICLE));
        assert!(!is_article(
            "# Sign in\n\nEmail\n\nPassword\n\n[Forgot your password?](https://x.test/f)"
        ));
        let body = ARTICLE.split("\n\n").nth(1).unwrap_or("");
        let list = format!("- {body}\n- {body}");
        assert!(!is_article(&list), "a list is not prose");
        assert!(!is_article(""));
    }

    #[test]
    fn a_cloudflare_challenge_form_is_a_captcha_even_when_its_text_is_hidden() {
        assert!(is_interstitial_url("http://shop.test/cdn-cgi/l/chk_jschl"));
        assert!(is_interstitial_url(
            "https://shop.test/?__cf_chl_jschl_tk__=abc"
        ));
        assert!(!is_interstitial_url("https://shop.test/search?q=cdn-cgi"));
        let v = classify(&ObstacleInput {
            url: "https://shop.test/",
            title: "Loading... please wait",
            markdown: "Loading... 7%",
            elements: &[],
            captcha_frame: false,
            challenge_form: true,
        });
        assert_eq!(
            v.map(|v| (v.kind, v.confidence, v.layer)),
            Some((ObstacleKind::Captcha, Confidence::High, 2))
        );
    }

    #[test]
    fn phrases_match_on_word_boundaries() {
        assert!(contains_phrase("please log in now", "log in"));
        assert!(!contains_phrase("catalog intro", "log in"));
        assert!(contains_phrase("请先登录后", "请先登录"));
        assert!(!contains_phrase("", "x"));
    }

    #[test]
    fn markdown_links_keep_text_and_lose_targets() {
        assert_eq!(
            normalise(&strip_markdown(
                "[sign in](https://x/login?a=(b)) to continue"
            )),
            "sign in to continue"
        );
    }

    #[test]
    fn only_the_markdown_head_is_read() {
        let md = format!("{}\n\nverify you are human", "word ".repeat(1000));
        let v = classify(&ObstacleInput {
            url: "https://x.test/",
            title: "x",
            markdown: &md,
            elements: &[],
            captcha_frame: false,
            challenge_form: false,
        });
        assert_eq!(v, None);
    }
}
