//! Names cut to length, and links that repeat one another (SPEC §5 `sameAs`).

use super::element::label;
use super::links::reads_its_element;
use super::*;

#[test]
fn long_names_are_cut_with_an_ellipsis() {
    let long = "word ".repeat(100);
    let got = label(&long).unwrap();
    assert_eq!(got.chars().count(), MAX_LABEL_CHARS);
    assert!(got.ends_with('…'));
    assert_eq!(label("  \n "), None);
}

#[test]
fn links_with_one_url_frame_target_and_inline_handlers_repeat_and_a_handler_reading_its_click_never_does(
) {
    let link = |context: &str| AxElement {
        role: "link".into(),
        href: Some("https://news.test/world".into()),
        click_context: context.into(),
        ..AxElement::default()
    };
    let track = "0\u{0}\u{0}onclick=_hmt.push(['_trackEvent', 'pic', 'click'])";
    let mut disabled = link("0\u{0}");
    disabled.disabled = true;
    let elements = [
        link(track),        // 0: listed
        link(track),        // 1: repeats 0
        link("0\u{0}"),     // 2: no handler: another click
        link("1\u{0}"),     // 3: the same in another frame: another click
        link("0\u{0}_top"), // 4: another target
        disabled,           // 5: disabled: stands for none…
        link("0\u{0}"),     // 6: …so this repeats 2
    ];
    assert_eq!(
        repeats(&elements, &[false; 7], "https://news.test/"),
        [None, Some(0), None, None, None, None, Some(2)]
    );
    for reads in [
        "toggle(this); return false",
        "event.preventDefault()",
        "go(`${x}`)",
        "go(arguments[0].target.id)",
        "go(document.activeElement.id)",
        "go(\\u0065vent.target.id)",
        "var r=/'/; go(event.target.id)",
        "/* ' */ go(event.target.id)",
        "// don't\ngo(event.target.id)",
        "<!-- it's\ngo(event.target.id)",
        "say('it\\'s'); this.x = 1",
    ] {
        assert!(reads_its_element(reads), "{reads}");
    }
    for not in [
        "_hmt.push(['_trackEvent', 'pic', 'click'])",
        "ga('send', 'event', 'Permalink page click')",
        "window.thisPage = 1",
        "say(\"it's this\")",
    ] {
        assert!(!reads_its_element(not), "{not}");
    }
}

#[test]
fn a_link_to_a_url_already_shown_repeats_the_first_one_and_script_links_never_do() {
    let link = |href: Option<&str>| AxElement {
        role: "link".into(),
        href: href.map(Into::into),
        ..AxElement::default()
    };
    let page = "https://news.test/story";
    let elements = [
        link(Some("https://news.test/world")),    // 0: listed
        link(Some("https://news.test/politics")), // 1: the markdown names it
        link(Some("https://news.test/world")),    // 2: repeats 0
        link(Some("https://news.test/politics")), // 3: repeats 1, named further down
        link(Some("javascript:void(0)")),         // 4, 5: scripts tell them apart
        link(Some("javascript:void(0)")),
        link(Some("https://news.test/story#")), // 6, 7: the page itself
        link(Some("https://news.test/story#top")),
        link(None), // 8: no href
    ];
    let in_markdown = [false, true, false, false, false, false, false, false, false];
    let got = repeats(&elements, &in_markdown, page);
    assert_eq!(
        got,
        [None, None, Some(0), Some(1), None, None, None, None, None]
    );
}
