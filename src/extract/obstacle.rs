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
//! 4. a password field among the elements → auth_wall, high when the URL path or the title reads as a
//!    sign-in page, else low (registration and password-change forms are not walls);
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

    // 4. A password field.
    let forms = password_forms(input.elements);
    if forms.contains(&FormKind::SignIn) {
        let sign_up_page = reads_as_sign_up(&url, &title);
        let registration = forms.contains(&FormKind::Registration)
            || sign_up_page
            || offers_sign_up_in_headings(input.markdown);
        let (confidence, message) = match (reads_as_sign_in(&url, &title), registration) {
            (true, false) => (High, "a sign-in page with a password field"),
            (true, true) => (Low, "a sign-in page that also offers sign-up"),
            // A registration page: its password field is for the new account.
            (false, _) if sign_up_page => return soft_layer(&head),
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

/// Words of a new-password field (registration, password change).
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
    "passwort bestätigen",
    "neues passwort",
    "confirmer le mot de passe",
    "nouveau mot de passe",
    "confirmar contraseña",
    "nueva contraseña",
    "confirmar senha",
    "nova senha",
];

fn is_password_field(e: &AxElement) -> bool {
    let role = e.role.to_ascii_lowercase();
    if !matches!(role.as_str(), "textbox" | "searchbox") {
        return false;
    }
    if e.input_type.as_deref() == Some("password")
        || e.autocomplete
            .as_deref()
            .is_some_and(|a| a.contains("current-password") || a.contains("new-password"))
    {
        return true;
    }
    let name = normalise(&e.name.as_deref().unwrap_or("").to_lowercase());
    PASSWORD_WORDS.iter().any(|w| contains_phrase(&name, w))
}

/// What a form with a password field is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FormKind {
    /// One current password, no personal details: signing in.
    SignIn,
    /// A new or repeated password, or personal details: signing up or changing the password.
    Registration,
}

/// Text fields read before a password field as part of its form.
const FIELDS_BEFORE: usize = 3;
/// Text fields read after a password field (and its confirmation) as part of its form.
const FIELDS_AFTER: usize = 2;

/// The password forms of the page, by kind. A form is a run of password fields (a password and its
/// confirmation) with the few text fields just before and after it in the same `<form>` — not the
/// whole `<form>`, which on some sites wraps the entire page. Forms whose password fields are all
/// out of reach (collapsed menus) are left out.
fn password_forms(elements: &[AxElement]) -> Vec<FormKind> {
    let fields: Vec<&AxElement> = elements
        .iter()
        .filter(|e| {
            matches!(
                e.role.to_ascii_lowercase().as_str(),
                "textbox" | "searchbox"
            )
        })
        .collect();
    let mut out = Vec::new();
    let mut run_end = 0;
    let mut k = 0;
    while k < fields.len() {
        if !is_password_field(fields[k]) {
            k += 1;
            continue;
        }
        let form = fields[k].form;
        let mut j = k;
        while j < fields.len() && is_password_field(fields[j]) && fields[j].form == form {
            j += 1;
        }
        let passwords = &fields[k..j];
        let before = fields[run_end.max(k.saturating_sub(FIELDS_BEFORE))..k]
            .iter()
            .filter(|e| e.form == form);
        let after = fields[j..]
            .iter()
            .take_while(|e| e.form == form && !is_password_field(e))
            .take(FIELDS_AFTER);
        let mut around = before.chain(after);
        if passwords.iter().any(|e| e.rendered) {
            let registration = passwords.len() >= 2
                || passwords.iter().any(|e| is_new_password(e))
                || around.any(|e| is_personal_details_field(e));
            out.push(if registration {
                FormKind::Registration
            } else {
                FormKind::SignIn
            });
        }
        run_end = j;
        k = j;
    }
    out
}

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
    "vorname",
    "nachname",
    "prénom",
    "nom de famille",
    "nombre",
    "apellido",
    "apellidos",
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
    if e.autocomplete
        .as_deref()
        .is_some_and(|a| a.contains("new-password"))
    {
        return true;
    }
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
    !phrase_positions(hay, needle).is_empty()
}

/// Byte offsets of the whole-word occurrences of `needle` in `hay` (see [`contains_phrase`]).
fn phrase_positions(hay: &str, needle: &str) -> Vec<usize> {
    let mut found = Vec::new();
    if needle.is_empty() {
        return found;
    }
    let cjk = needle.chars().any(|c| (c as u32) >= 0x2E80);
    let mut start = 0;
    while let Some(pos) = hay[start..].find(needle) {
        let at = start + pos;
        let end = at + needle.len();
        let before = hay[..at].chars().next_back();
        let after = hay[end..].chars().next();
        let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
        if cjk || (boundary(before) && boundary(after)) {
            found.push(at);
        }
        start = at + hay[at..].chars().next().map_or(1, char::len_utf8);
    }
    found
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
                "https://shop.test/checkout",
                "checkout",
                "Pay",
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
