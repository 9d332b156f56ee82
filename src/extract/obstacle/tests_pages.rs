//! The classifier on whole pages (SPEC §5): each case is a page (URL, title, markdown, elements) and the
//! verdict it gets, layer by layer; then the password and sign-in forms of layers 4 and 5 (which are
//! sign-in, sign-up, checkout or settings by their structure). The causes of false alarms and misses
//! found on `corpus/forms` are in `tests_forms.rs`.

use super::tests::*;
use super::*;
use crate::extract::ax::AxElement;

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

/// Layer 4 reads the structure of the form that holds the password: the snippets are the
/// controls of real sign-up, checkout and sign-in pages (names as Chrome's AX tree gives them).
#[test]
fn password_forms_are_read_by_their_structure() {
    use Confidence::*;
    use ObstacleKind::*;
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
        case(
            "a sign-in form that sets autocomplete=new-password to stop autofill is still sign-in",
            "https://www.express-scripts.com/",
            "Express Scripts Members",
            "# Log in to Express Scripts",
        )
        .els(vec![
            inf(1, typed("textbox", "Username", "text")),
            inf(
                1,
                AxElement {
                    autocomplete: Some("new-password".into()),
                    ..typed("textbox", "Password", "password")
                },
            ),
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
            long_article(),
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
    assert_classified(cases);
}
