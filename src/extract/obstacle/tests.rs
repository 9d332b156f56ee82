use super::*;
use crate::extract::ax::AxElement;

pub(super) fn el(role: &str, name: &str) -> AxElement {
    AxElement {
        role: role.into(),
        name: Some(name.into()).filter(|n: &String| !n.is_empty()),
        visible: Some(true),
        rendered: true,
        ..AxElement::default()
    }
}

pub(super) fn pw_input() -> AxElement {
    AxElement {
        input_type: Some("password".into()),
        ..el("textbox", "")
    }
}

/// `e` inside the `<form>` with backendNodeId `form`.
pub(super) fn inf(form: i64, e: AxElement) -> AxElement {
    AxElement {
        form: Some(form),
        ..e
    }
}

pub(super) fn typed(role: &str, name: &str, input_type: &str) -> AxElement {
    AxElement {
        input_type: Some(input_type.into()),
        ..el(role, name)
    }
}

pub(super) struct Case {
    pub(super) name: &'static str,
    pub(super) url: &'static str,
    pub(super) title: &'static str,
    pub(super) markdown: &'static str,
    pub(super) elements: Vec<AxElement>,
    pub(super) frame: bool,
    pub(super) want: Option<(ObstacleKind, Confidence, u8)>,
}

pub(super) fn case(
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
    pub(super) fn els(mut self, e: Vec<AxElement>) -> Self {
        self.elements = e;
        self
    }
    fn frame(mut self) -> Self {
        self.frame = true;
        self
    }
    pub(super) fn want(mut self, k: ObstacleKind, c: Confidence, layer: u8) -> Self {
        self.want = Some((k, c, layer));
        self
    }
}

/// Classifies each case's page (no challenge form) and checks the verdict's kind, confidence and layer.
pub(super) fn assert_classified(cases: Vec<Case>) {
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

pub(super) const ARTICLE: &str = "# Local council approves new park\n\nThe council voted on Tuesday to approve the plan, \
        which had been debated for two years. Residents said the park would bring families together. \
        The project is expected to cost four million and open next spring, officials said, adding that \
        construction would begin once the final permits are issued by the state agency in charge.";

/// [`ARTICLE`] eight times: a page long enough that words deep in it are not what it is about.
pub(super) fn long_article() -> &'static str {
    static LONG: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LONG.get_or_init(|| ARTICLE.repeat(8))
}

#[test]
fn classifier_table() {
    use Confidence::*;
    use ObstacleKind::*;
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
            long_article(),
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
            long_article(),
        ),
        case(
            "denial words in a long page are not a denial",
            "https://news.test/a",
            "security",
            long_article(),
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
        case(
            "sign-in page that also offers an account is only low",
            "https://shop.test/sign_in.do",
            "Sign In | Shop",
            "### Sign in\n\nEmail\n\n### Create an account\n\nRegister to check out faster.",
        )
        .els(vec![
            AxElement {
                form: Some(1),
                ..el("textbox", "Email address")
            },
            AxElement {
                form: Some(1),
                ..pw_input()
            },
        ])
        .want(AuthWall, Low, 4),
        case(
            "sign-in needed only to comment is nothing",
            "https://news.test/a",
            "story",
            "Great story.\n\nPlease sign in to comment. Regístrate o inicia sesión para comentar",
        ),
        case(
            "sign up and sign in on one page is a low wall",
            "https://site.test/",
            "Log In or Sign Up",
            "",
        )
        .els(vec![
            AxElement {
                form: Some(1),
                ..el("textbox", "Email")
            },
            AxElement {
                form: Some(1),
                ..pw_input()
            },
            AxElement {
                form: Some(2),
                ..el("textbox", "First name")
            },
            AxElement {
                form: Some(2),
                ..pw_input()
            },
        ])
        .want(AuthWall, Low, 4),
        case(
            "a collapsed header login box is nothing",
            "https://shop.test/",
            "shop",
            ARTICLE,
        )
        .els(vec![AxElement {
            visible: Some(false),
            rendered: false,
            ..pw_input()
        }]),
        case(
            "login and register forms side by side on a my-account page",
            "https://shop.test/my-account",
            "My account",
            "",
        )
        .els(vec![
            AxElement {
                form: Some(1),
                ..el("textbox", "Username or email")
            },
            AxElement {
                form: Some(1),
                ..pw_input()
            },
            AxElement {
                form: Some(2),
                ..el("textbox", "Email address")
            },
            AxElement {
                form: Some(2),
                ..pw_input()
            },
            AxElement {
                form: Some(2),
                ..el("textbox", "Confirm password")
            },
        ])
        .want(AuthWall, Low, 4),
    ];
    assert_classified(cases);
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
