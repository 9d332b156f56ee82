//! The obstacle classifier's word lists and interstitial signatures, by layer: data only, matched
//! lowercase on word boundaries (see [`super::phrases`]), in English and the languages where they are known.

use super::verdict::ObstacleKind;

/// Offers to go on without an account (a checkout's guest option).
pub(super) const GUEST_WORDS: &[&str] = &[
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
pub(super) const CHECKOUT_WORDS: &[&str] = &[
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
pub(super) const CHECKOUT_PATH_WORDS: &[&str] = &["shipping", "payment", "billing", "delivery"];

/// Fields of a shipping or payment form (with [`PERSONAL_DETAILS_WORDS`]).
pub(super) const CHECKOUT_FIELD_WORDS: &[&str] = &[
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

/// Words of a sign-in identifier field.
pub(super) const IDENTIFIER_WORDS: &[&str] = &[
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

// ---- layer 2 ----

/// A title that marks an interstitial page (layer 2).
pub(super) struct TitleSignature {
    /// The title, lowercase.
    pub(super) text: &'static str,
    /// What the page is.
    pub(super) kind: ObstacleKind,
    /// Its name in the verdict's message.
    pub(super) what: &'static str,
    /// Whole title (or title plus a " | site" part) must be the signature; else a prefix will do.
    pub(super) exact: bool,
    /// Fires on a page of any length; otherwise only on a short page.
    pub(super) any_length: bool,
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

pub(super) const TITLE_SIGNATURES: &[TitleSignature] = {
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
pub(super) const TITLE_SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", " :: ", " · ", ": "];

// ---- layer 3 ----

pub(super) const CAPTCHA_PHRASES: &[&str] = &[
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

pub(super) const DENIED_PHRASES: &[&str] = &[
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
pub(super) const DENIED_PHRASES_WEAK: &[&str] = &[
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
