//! The causes of false alarms and misses the classifier had on `corpus/forms` (SPEC §5, docs in
//! corpus/README.md), one whole-page case each, in the shape the pages had.

use super::tests::*;
use super::*;
use crate::extract::ax::AxElement;

fn with_ac(e: AxElement, autocomplete: &str) -> AxElement {
    AxElement {
        autocomplete: Some(autocomplete.into()),
        ..e
    }
}

fn below_fold(e: AxElement) -> AxElement {
    AxElement {
        visible: Some(false),
        ..e
    }
}

/// The causes of false alarms and misses found on corpus/forms (SPEC §5, docs in corpus/README.md),
/// one case each, in the shape the pages had.
#[test]
fn form_pages_that_are_not_sign_in_and_sign_in_steps_without_a_password() {
    use Confidence::*;
    use ObstacleKind::*;
    let header_login = || {
        vec![
            inf(1, typed("textbox", "Benutzername", "text")),
            inf(1, typed("textbox", "Passwort", "password")),
            inf(1, el("button", "Anmelden")),
        ]
    };
    let contact = |shown: bool| {
        let f = |e: AxElement| {
            if shown {
                inf(2, e)
            } else {
                below_fold(inf(2, e))
            }
        };
        vec![
            f(typed("textbox", "Vorname", "text")),
            f(typed("textbox", "Nachname", "text")),
            f(typed("textbox", "E-Mail", "email")),
            f(el("textbox", "Ihre Nachricht")),
            f(el("button", "Absenden")),
        ]
    };
    let cases = vec![
        case(
            "a settings form that confirms a new email with the current password is not a wall",
            "https://app.test/settings/email",
            "Email settings",
            "# Change your email",
        )
        .els(vec![
            inf(
                1,
                with_ac(typed("textbox", "New email address", "email"), "email"),
            ),
            inf(
                1,
                with_ac(
                    typed("textbox", "Current password", "password"),
                    "current-password",
                ),
            ),
            inf(1, el("button", "Change email")),
        ]),
        case(
            "a contact form in view makes the header's sign-in box chrome",
            "https://firma.test/kontakt",
            "Kontakt",
            "# Kontakt",
        )
        .els([header_login(), contact(true)].concat()),
        case(
            "a contact form below the fold does not",
            "https://firma.test/",
            "Firma",
            "# Willkommen",
        )
        .els([header_login(), contact(false)].concat())
        .want(AuthWall, Low, 4),
        case(
            "a token passcode beside the password is not a confirmation",
            "https://vpn.test/vpn/index.html",
            "Gateway",
            "# Please log on",
        )
        .els(vec![
            inf(1, typed("textbox", "User name", "text")),
            inf(1, typed("textbox", "Password", "password")),
            inf(1, typed("textbox", "Passcode", "password")),
            inf(1, el("button", "Log On")),
        ])
        .want(AuthWall, Low, 4),
        case(
            "a database password in a set-up wizard is not the account's",
            "https://wiki.test/install/index.php",
            "Installation",
            "# Connect to database",
        )
        .els(vec![
            inf(1, typed("textbox", "Database username", "text")),
            inf(1, typed("textbox", "Database password", "password")),
            inf(1, el("button", "Continue")),
        ]),
        case(
            "a comment box's sign-in phrase after a comma is a feature",
            "https://zeitung.test/kultur/buchmesse.html",
            "Buchmesse",
            "# Kommentare\n\nBitte melden Sie sich an, um zu kommentieren.",
        ),
        case(
            "a sign-in phrase offered to members is not a wall",
            "https://site.test/accounts/signup/",
            "Signup",
            "# Sign Up\n\nAlready have an account? Then please sign in.",
        ),
        case(
            "a sign-in phrase about the person's own things is a feature",
            "https://shop.test/cart",
            "Your cart",
            "# Your cart\n\nSign in to see your saved items.",
        ),
        case(
            "an email field on a signed-in account page is not an identifier step",
            "https://site.test/accounts/email/",
            "Email Addresses",
            "# Email Addresses",
        )
        .els(vec![
            el("link", "Sign Out"),
            inf(1, typed("textbox", "Email:", "email")),
            inf(1, el("button", "Add Email")),
        ]),
        case(
            "an identifier in a large form is not an identifier step",
            "https://site.test/admin/auth/user/2/change/",
            "Change user",
            "# Change user",
        )
        .els(vec![
            inf(1, typed("textbox", "Username", "text")),
            inf(1, typed("textbox", "First name", "text")),
            inf(1, typed("textbox", "Last name", "text")),
            inf(1, typed("textbox", "Email address", "email")),
            inf(1, el("button", "Save")),
        ]),
        case(
            "an identifier step on a sign-in URL is a low wall",
            "https://accounts.test/v3/signin/identifier",
            "Sign in",
            "# Sign in",
        )
        .els(vec![
            inf(1, typed("textbox", "Email or phone", "email")),
            inf(1, el("button", "Next")),
        ])
        .want(AuthWall, Low, 5),
        case(
            "an account name with a remember box is a sign-in form whatever the title",
            "https://banque.test/particuliers/acces",
            "Accéder à mes comptes",
            "# Accéder à mes comptes",
        )
        .els(vec![
            inf(1, typed("textbox", "Identifiant client", "text")),
            inf(
                1,
                typed("checkbox", "Mémoriser mon identifiant", "checkbox"),
            ),
            inf(1, el("button", "Valider")),
        ])
        .want(AuthWall, Low, 5),
        case(
            "a one-time code asked at sign-in is a low wall",
            "https://code.test/sessions/two-factor",
            "Two-factor authentication",
            "# Two-factor authentication",
        )
        .els(vec![
            inf(
                1,
                with_ac(
                    typed("textbox", "Authentication code", "text"),
                    "one-time-code",
                ),
            ),
            inf(1, el("button", "Verify")),
        ])
        .want(AuthWall, Low, 5),
        case(
            "a two-factor settings page without a code field is not",
            "https://site.test/account/two_factor/setup/",
            "Enable Two-Factor Authentication",
            "# Enable Two-Factor Authentication",
        )
        .els(vec![inf(1, el("button", "Next"))]),
        case(
            "a page titled and headed as sign-in that only offers providers is a low wall",
            "https://bank.test/privat/logga-in",
            "Logga in | Banken",
            "# Logga in\n\n[BankID på den här enheten](https://bank.test/bankid)",
        )
        .els(vec![el("link", "BankID på den här enheten")])
        .want(AuthWall, Low, 5),
    ];
    assert_classified(cases);
}
