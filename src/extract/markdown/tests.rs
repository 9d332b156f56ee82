use super::*;
use crate::extract::snapshot::build::{backend_ids, dom, e, el, empty, et, t, T};
use crate::extract::snapshot::NodeKind;
use std::collections::HashMap;

const URL: &str = "https://news.test/section/story.html";

fn md(kids: Vec<T>) -> String {
    to_markdown(&dom(URL, kids)).text
}

#[test]
fn headings_paragraphs_and_collapsed_whitespace() {
    let got = md(vec![
        et("h1", "  The   title "),
        el(
            "p",
            vec![t("First\n   line"), empty("br", &[]), t("second line")],
        ),
        et("h3", "Sub"),
    ]);
    assert_eq!(got, "# The title\n\nFirst line\nsecond line\n\n### Sub");
}

#[test]
fn with_refs_links_of_the_list_carry_their_uid_and_only_same_origin_links_their_path() {
    let page = dom(
        URL,
        vec![el(
            "p",
            vec![
                e("a", &[("href", "/shop?item=2#top")], vec![t("Shop")]),
                t(", "),
                e("a", &[("href", "https://ads.test/c?id=9")], vec![t("Ad")]),
                t(" and "),
                e(
                    "a",
                    &[("href", "https://news.test:8443/x")],
                    vec![t("other port")],
                ),
                t(" and "),
                e("a", &[("href", "/unlisted")], vec![t("unlisted")]),
                t(", "),
                e("a", &[("href", "#top")], vec![t("Top")]),
            ],
        )],
    );
    let anchors = backend_ids(&page, "a");
    let uids: HashMap<i64, String> = [0, 1, 2, 4]
        .iter()
        .map(|&i| (anchors[i], format!("e{}", i + 4)))
        .collect();
    let (got, named) = with_refs(&build(&page), &uids, URL);
    assert_eq!(
        got.text,
        "[Shop](e4 /shop?item=2#top), [Ad](e5) and [other port](e6) and \
             [unlisted](https://news.test/unlisted), [Top](e8)"
    );
    assert!(!got.truncated);
    assert_eq!(named, ["e4", "e5", "e6", "e8"]);
    // The plain markdown of the same blocks keeps every URL.
    assert!(to_markdown(&page)
        .text
        .starts_with("[Shop](https://news.test/shop?item=2#top), [Ad](https://ads.test/c?id=9)"));
}

#[test]
fn brackets_of_the_page_text_are_escaped_so_text_cannot_pass_for_a_link_by_uid() {
    let page = dom(
        URL,
        vec![el(
            "p",
            vec![
                t("Follow [Keep my account](e1 /keep) now: "),
                e(
                    "a",
                    &[("href", "/help")],
                    vec![t("Help](e1 /keep) or [Help")],
                ),
            ],
        )],
    );
    let help = page
        .nodes
        .iter()
        .find(|n| n.tag() == Some("a"))
        .map(|n| n.backend_node_id)
        .unwrap();
    let uids: HashMap<i64, String> = [(help, "e0".to_string())].into_iter().collect();
    let (got, named) = with_refs(&build(&page), &uids, URL);
    assert_eq!(
        got.text,
        "Follow \\[Keep my account\\](e1 /keep) now: [Help\\](e1 /keep) or \\[Help](e0 /help)"
    );
    assert_eq!(named, ["e0"]);
}

#[test]
fn the_cap_never_leaves_half_a_link() {
    let para = || {
        el(
            "p",
            vec![
                t("Some words of the paragraph, then "),
                e(
                    "a",
                    &[("href", "/a/long/path/to/somewhere")],
                    vec![t("a link")],
                ),
                t(" [and a bracket]."),
            ],
        )
    };
    let page = dom(URL, (0..2000).map(|_| para()).collect());
    let got = to_markdown(&page);
    assert!(got.truncated);
    assert!(got.text.len() <= MARKDOWN_MAX_BYTES);
    let tail = &got.text[got.text.len() - 120..];
    let last_open = got.text.rfind("[a link]").unwrap();
    assert!(
        got.text[last_open..].contains("](https://news.test/a/long/path/to/somewhere)"),
        "{tail}"
    );
    assert!(!got.text.ends_with('!'), "{tail}");
}

#[test]
fn links_are_absolute_and_same_page_or_script_links_are_text() {
    let got = md(vec![el(
        "p",
        vec![
            t("See "),
            e("a", &[("href", "../other.html?a=1")], vec![t("the other")]),
            t(", "),
            e("a", &[("href", "#notes")], vec![t("notes")]),
            t(", "),
            e("a", &[("href", "javascript:void(0)")], vec![t("menu")]),
            t(" and "),
            e("a", &[("href", "https://x.test/a b")], vec![t(" spaced ")]),
        ],
    )]);
    assert_eq!(
            got,
            "See [the other](https://news.test/other.html?a=1), notes, menu and [spaced](https://x.test/a%20b)"
        );
}

#[test]
fn images_need_alt_text_and_are_alt_text_inside_links() {
    let got = md(vec![
        el(
            "p",
            vec![empty("img", &[("src", "/a.png"), ("alt", "A chart")])],
        ),
        el(
            "p",
            vec![empty("img", &[("src", "/deco.png"), ("alt", "")])],
        ),
        el(
            "p",
            vec![empty(
                "img",
                &[("src", "data:image/png;base64,xyz"), ("alt", "inline")],
            )],
        ),
        el(
            "p",
            vec![e(
                "a",
                &[("href", "/home")],
                vec![empty("img", &[("src", "/logo.png"), ("alt", "Home")])],
            )],
        ),
    ]);
    assert_eq!(
        got,
        "![A chart](https://news.test/a.png)\n\n[Home](https://news.test/home)"
    );
}

#[test]
fn nested_lists_keep_their_structure_and_numbering() {
    let got = md(vec![el(
        "ul",
        vec![
            et("li", "One"),
            el(
                "li",
                vec![
                    t("Two"),
                    e(
                        "ol",
                        &[("start", "3")],
                        vec![et("li", "Three"), et("li", "Four")],
                    ),
                ],
            ),
        ],
    )]);
    assert_eq!(got, "- One\n- Two\n  3. Three\n  4. Four");
}

#[test]
fn data_tables_become_markdown_tables_and_layout_tables_blocks() {
    let got = md(vec![el(
        "table",
        vec![el(
            "tbody",
            vec![
                el("tr", vec![et("th", "Name"), et("th", "Qty")]),
                el("tr", vec![et("td", "Apple | red"), et("td", "3")]),
                el("tr", vec![et("td", "Pear")]),
            ],
        )],
    )]);
    assert_eq!(
        got,
        "| Name | Qty |\n| --- | --- |\n| Apple \\| red | 3 |\n| Pear |  |"
    );
    let layout = md(vec![el(
        "table",
        vec![el(
            "tr",
            vec![
                el("td", vec![et("h2", "Story"), et("p", "Body text.")]),
                et("td", "Side"),
            ],
        )],
    )]);
    assert_eq!(layout, "## Story\n\nBody text.\n\nSide");
}

#[test]
fn pre_keeps_whitespace_and_fences_around_backticks() {
    let got = md(vec![
        el(
            "pre",
            vec![e(
                "code",
                &[("class", "language-rust")],
                vec![t("fn main() {\n    x();\n}\n")],
            )],
        ),
        el("p", vec![t("Use "), et("code", "a`b"), t(".")]),
        et("pre", "```\ninner\n```"),
    ]);
    assert_eq!(
        got,
        "```rust\nfn main() {\n    x();\n}\n```\n\nUse ``a`b``.\n\n````\n```\ninner\n```\n````"
    );
}

#[test]
fn blockquotes_and_rules() {
    let got = md(vec![
        el("blockquote", vec![et("p", "a"), et("p", "b")]),
        empty("hr", &[]),
    ]);
    assert_eq!(got, "> a\n>\n> b\n\n---");
}

#[test]
fn hidden_nodes_scripts_and_zero_size_boxes_are_dropped() {
    let got = md(vec![
        et(
            "p",
            "Shown: the visible text, longer than all the hidden ones together.",
        ),
        e("p", &[("style", "display:none")], vec![t("display none")]),
        e("p", &[("style", "visibility:hidden")], vec![t("invisible")]),
        e("p", &[("hidden", "")], vec![t("hidden attr")]),
        e(
            "p",
            &[("aria-hidden", "true")],
            vec![t("aria hidden but on the screen")],
        ),
        e(
            "div",
            &[("style", "width:0;height:0;overflow:hidden")],
            vec![t("zero size")],
        ),
        et("script", "var x = 1;"),
        et("style", ".a{}"),
        et("noscript", "enable js"),
        et("svg", "svg text"),
        e("p", &[("style", "opacity:0")], vec![t("transparent")]),
        e(
            "p",
            &[("style", "color:rgba(0, 0, 0, 0)")],
            vec![t("no colour")],
        ),
        e("p", &[("style", "font-size:1px")], vec![t("one pixel")]),
        e(
            "p",
            &[("style", "clip-path:inset(50%)")],
            vec![t("clipped")],
        ),
        e(
            "div",
            &[("style", "filter:opacity(0)")],
            vec![et("p", "filtered")],
        ),
    ]);
    // An aria-hidden paragraph a person reads is page text (SPEC §5).
    assert_eq!(
        got,
        "Shown: the visible text, longer than all the hidden ones together.\n\naria hidden but on the screen"
    );
}

#[test]
fn math_is_its_tex_annotation_else_its_alttext_else_its_text() {
    let got = md(vec![
        // Wikipedia: the MathML (with TeX) hidden next to an aria-hidden image.
        el(
            "p",
            vec![
                t("Hermitian when "),
                e(
                    "span",
                    &[("style", "display:none")],
                    vec![el(
                        "math",
                        vec![el(
                            "semantics",
                            vec![
                                el("mrow", vec![et("mi", "A")]),
                                e(
                                    "annotation",
                                    &[("encoding", "application/x-tex")],
                                    vec![t("{\\displaystyle A=\\overline {A^{T}}}")],
                                ),
                            ],
                        )],
                    )],
                ),
                empty(
                    "img",
                    &[("aria-hidden", "true"), ("alt", "A"), ("src", "a.svg")],
                ),
                t(" holds."),
            ],
        ),
        // MathJax's assistive MathML: presentation markup only.
        el(
            "p",
            vec![
                t("So "),
                el("math", vec![et("mi", "x"), et("mo", "+"), et("mn", "1")]),
                t(" grows."),
            ],
        ),
        e(
            "math",
            &[("display", "block"), ("alttext", "E = mc^2")],
            vec![et("mi", "E")],
        ),
    ]);
    assert_eq!(
        got,
        "Hermitian when $A=\\overline {A^{T}}$ holds.\n\nSo x+1 grows.\n\n$$E = mc^2$$"
    );
}

#[test]
fn sub_sup_abbr_ruby_and_output_keep_their_text_and_template_is_dropped() {
    let got = md(vec![
        el(
            "p",
            vec![
                t("H"),
                et("sub", "2"),
                t("O at 10"),
                et("sup", "3"),
                t(" "),
                e("abbr", &[("title", "kelvin")], vec![t("K")]),
                t(", "),
                el("ruby", vec![t("漢"), et("rt", "kan")]),
                t(", total "),
                et("output", "42"),
            ],
        ),
        et("template", "template text"),
    ]);
    assert_eq!(got, "H2O at 103 K, 漢kan, total 42");
}

#[test]
fn navigation_footer_aside_banner_and_overlays_are_dropped() {
    let article = "The council voted on Tuesday to approve the plan after two years of debate.";
    let got = md(vec![
        el(
            "header",
            vec![
                e("a", &[("href", "/")], vec![t("Site")]),
                et("nav", "Home News Sport"),
            ],
        ),
        e("div", &[("role", "navigation")], vec![t("Menu")]),
        e(
            "div",
            &[("style", "position:fixed")],
            vec![t("We use cookies")],
        ),
        el(
            "main",
            vec![et("h1", "Council approves park"), et("p", article)],
        ),
        et("aside", "Related"),
        e("div", &[("role", "complementary")], vec![t("Ads")]),
        et("footer", "Copyright"),
    ]);
    assert_eq!(got, format!("# Council approves park\n\n{article}"));
}

#[test]
fn an_article_header_with_the_title_is_kept() {
    let got = md(vec![el(
        "article",
        vec![el("header", vec![et("h1", "Title")]), et("p", "Text")],
    )]);
    assert_eq!(got, "# Title\n\nText");
}

#[test]
fn boilerplate_that_holds_the_main_content_is_kept() {
    // An app shell in a fixed container, and a page hidden from AT behind a modal.
    let got = md(vec![e(
        "div",
        &[("style", "position:fixed")],
        vec![et("p", "All the content of the app.")],
    )]);
    assert_eq!(got, "All the content of the app.");
    let got = md(vec![
        e(
            "div",
            &[("aria-hidden", "true")],
            vec![et("p", "The article, long enough to be the page.")],
        ),
        e("div", &[("role", "dialog")], vec![t("Subscribe!")]),
    ]);
    assert_eq!(got, "The article, long enough to be the page.");
}

#[test]
fn link_farms_are_dropped_but_a_page_that_is_a_list_of_links_is_kept() {
    let link = |s: &'static str| el("li", vec![e("a", &[("href", "/x")], vec![t(s)])]);
    let story =
        "A long paragraph of the story that is what the reader came for, with many words in it.";
    let got = md(vec![
        et("p", story),
        e(
            "div",
            &[("class", "related")],
            vec![el("ul", vec![link("One"), link("Two"), link("Three")])],
        ),
    ]);
    assert_eq!(got, story);
    let got = md(vec![el(
        "ul",
        vec![
            link("First result"),
            link("Second result"),
            link("Third result"),
        ],
    )]);
    assert_eq!(got, "- [First result](https://news.test/x)\n- [Second result](https://news.test/x)\n- [Third result](https://news.test/x)");
}

#[test]
fn inline_blocks_are_separated() {
    let got = md(vec![el(
        "p",
        vec![et("button", "Save"), et("button", "Cancel")],
    )]);
    assert_eq!(got, "Save Cancel");
}

#[test]
fn a_body_hidden_until_its_script_runs_is_still_read() {
    let got = md(vec![empty("div", &[("style", "visibility:hidden")])]);
    assert_eq!(got, "");
    let d = dom(URL, vec![et("p", "Loaded text")]);
    let mut d = d;
    for n in d.nodes.iter_mut() {
        if let Some(l) = n.layout.as_mut() {
            if n.kind != NodeKind::Document {
                l.style.visibility = "hidden".into();
            }
        }
    }
    assert_eq!(to_markdown(&d).text, "Loaded text");
}

#[test]
fn markdown_is_capped_at_30_kib_on_a_char_boundary() {
    let para: &'static str = Box::leak("ж".repeat(1000).into_boxed_str()); // 2000 bytes
    let kids = (0..40).map(|_| et("p", para)).collect();
    let got = to_markdown(&dom(URL, kids));
    assert!(got.truncated);
    assert!(got.text.len() <= MARKDOWN_MAX_BYTES && got.text.len() > MARKDOWN_MAX_BYTES - 4);
    assert!(got.text.chars().all(|c| c == 'ж' || c == '\n'));
    let small = to_markdown(&dom(URL, vec![et("p", "x")]));
    assert!(!small.truncated);
}
