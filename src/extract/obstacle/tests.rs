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
    pub(super) fn frame(mut self) -> Self {
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
