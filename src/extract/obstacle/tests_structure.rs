//! Layer 4 on the structure of real forms: which password forms are sign-in, sign-up, checkout or
//! settings (SPEC §5 layer 4).

use super::tests::*;
use super::*;
use crate::extract::ax::AxElement;

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
    assert_classified(cases);
}
