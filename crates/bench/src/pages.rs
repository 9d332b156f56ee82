//! Generated benchmark pages: an ordinary-looking document with an exact number of DOM
//! nodes and of interactive controls, and the small page the action round trips run on.
//!
//! "DOM nodes" are all nodes of the document but the document itself: the doctype, elements and
//! text nodes (what a tree walker over the document visits, and what the extension's DOM snapshot
//! counts). The markup has no whitespace between tags, so the parser makes no text node that is
//! not written here on purpose.
//!
//! A page is a header with navigation links, a `<main>` with a heading, a row of two fixed controls
//! (`#bench-click`, `#bench-input`), a list of rows each holding one control (button, link, labelled
//! text field or labelled checkbox, in turn), article-like filler blocks (headings, paragraphs with
//! inline markup, lists) up to the node count, and a footer. Text is drawn from a fixed word list by a
//! fixed pseudo-random sequence, so every run serves the same bytes.

/// One generated page's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSpec {
    /// Short name used in URLs and the report, e.g. `10k`.
    pub name: &'static str,
    /// DOM nodes: doctype + elements + text nodes.
    pub nodes: usize,
    /// Interactive controls: links with `href`, buttons, text fields and checkboxes.
    pub interactive: usize,
}

/// The three sizes the performance targets name: 1k/10k/50k DOM nodes with 100/1,000/5,000 interactive elements.
pub const SIZES: [PageSpec; 3] = [
    PageSpec {
        name: "1k",
        nodes: 1_000,
        interactive: 100,
    },
    PageSpec {
        name: "10k",
        nodes: 10_000,
        interactive: 1_000,
    },
    PageSpec {
        name: "50k",
        nodes: 50_000,
        interactive: 5_000,
    },
];

const WORDS: [&str; 32] = [
    "account", "browser", "network", "session", "report", "value", "render", "market", "signal",
    "quarter", "harbour", "engine", "garden", "window", "column", "ledger", "voltage", "river",
    "summary", "forest", "planet", "metric", "bridge", "cursor", "letter", "station", "theory",
    "module", "harvest", "pattern", "lantern", "orbit",
];

/// A tiny deterministic word source (LCG), so pages are identical from run to run.
struct Words(u64);

impl Words {
    fn next(&mut self) -> &'static str {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        WORDS[((self.0 >> 33) % WORDS.len() as u64) as usize]
    }

    fn sentence(&mut self, n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(self.next());
        }
        s
    }
}

/// HTML being written, with a count of the nodes it makes so far.
struct Doc {
    html: String,
    nodes: usize,
}

impl Doc {
    /// Appends markup that makes `nodes` nodes (elements plus non-empty text runs).
    fn push(&mut self, markup: &str, nodes: usize) {
        self.html.push_str(markup);
        self.nodes += nodes;
    }
}

/// Interactive controls outside the rows: five navigation links and the two fixed controls.
const FIXED_CONTROLS: usize = 7;

/// Nodes after the filler: `</main>`, then footer, p, text.
const FOOTER_NODES: usize = 3;

/// The HTML of a page with exactly `spec.nodes` DOM nodes and `spec.interactive` controls.
///
/// Sizes too small for the page frame are raised to its minimum (the frame alone has 40 nodes and
/// `FIXED_CONTROLS` controls); each control row makes four to six nodes, so `nodes` must be at least
/// about six times `interactive` to be met exactly.
pub fn generate(spec: &PageSpec) -> String {
    let mut words = Words(spec.nodes as u64 * 31 + spec.interactive as u64);
    let rows = spec.interactive.saturating_sub(FIXED_CONTROLS);
    let mut doc = Doc {
        html: String::with_capacity(spec.nodes * 40),
        nodes: 0,
    };
    // doctype, html, head, meta, title + text, style + text, body.
    doc.push(
        &format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Generated page: {} nodes, {} controls</title>\
             <style>body{{font:14px/1.4 sans-serif;margin:0 16px}}.row{{display:flex;gap:8px;padding:2px 0}}\
             .row span{{min-width:80px}}nav a{{margin-right:12px}}.card{{border-top:1px solid #ddd}}</style></head><body>",
            spec.nodes, spec.interactive
        ),
        9,
    );
    doc.push("<header><nav>", 2);
    for (i, label) in ["Home", "Products", "Pricing", "Docs", "Contact"]
        .iter()
        .enumerate()
    {
        doc.push(&format!("<a href=\"/nav/{i}\">{label}</a>"), 2);
    }
    doc.push("</nav></header><main><h1>Generated benchmark page</h1>", 3);
    // section, button + text, input.
    doc.push(
        "<section id=\"bench-controls\"><button id=\"bench-click\" onclick=\"this.dataset.n=(+this.dataset.n||0)+1\">Bench click</button>\
         <input id=\"bench-input\" aria-label=\"Bench input\"></section>",
        4,
    );
    for i in 0..rows {
        let label = format!("{} {}", words.next(), i);
        let (control, n) = match i % 4 {
            0 => (format!("<button type=\"button\">Open {label}</button>"), 2),
            1 => (format!("<a href=\"/item/{i}\">Item {label}</a>"), 2),
            2 => (
                format!("<input type=\"text\" aria-label=\"Note {label}\" value=\"\">"),
                1,
            ),
            _ => (
                format!("<label><input type=\"checkbox\"> Select {label}</label>"),
                3,
            ),
        };
        // div, span + text, the control.
        doc.push(
            &format!("<div class=\"row\"><span>Row {i}</span>{control}</div>"),
            3 + n,
        );
    }
    let target = spec.nodes.max(doc.nodes + FOOTER_NODES);
    let mut block = 0usize;
    while doc.nodes + FOOTER_NODES < target {
        let left = target - FOOTER_NODES - doc.nodes;
        if left >= 18 {
            // div, h3 + text, p + text, b + text, " and ", i + text, ".", ul, 3 × (li + text).
            let text = words.sentence(8);
            let (a, b, c) = (words.next(), words.next(), words.next());
            doc.push(
                &format!(
                    "<div class=\"card\"><h3>Section {block}: {a}</h3><p>{text} <b>{b}</b> and <i>{c}</i>.</p>\
                     <ul><li>{a}</li><li>{b}</li><li>{c}</li></ul></div>"
                ),
                18,
            );
        } else if left >= 2 {
            doc.push(&format!("<p>{}</p>", words.sentence(6)), 2);
        } else {
            doc.push("<hr>", 1);
        }
        block += 1;
    }
    doc.push(
        "</main><footer><p>Generated for bua-bench.</p></footer></body></html>",
        FOOTER_NODES,
    );
    doc.html
}

/// The page the action round trips run on: a button that counts its clicks, a text field, and a
/// little text. Clicking changes no layout, so every click does the same work.
pub fn actions_page() -> String {
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>bua-bench actions</title></head><body>\
     <h1>Actions</h1><p>Clicks so far: <output id=\"count\">0</output></p>\
     <button id=\"bench-click\" onclick=\"document.getElementById('count').value=+document.getElementById('count').value+1\">Bench click</button>\
     <input id=\"bench-input\" aria-label=\"Bench input\"></body></html>"
        .to_string()
}

/// The frame of the frames pages: a heading, a paragraph and one button.
pub fn frame_child() -> String {
    "<!doctype html><meta charset=\"utf-8\"><title>frame</title><h3>Frame heading</h3>\
     <p>Frame paragraph with some text.</p><button>Frame button</button>"
        .to_string()
}

/// A page of `count` iframes of `src` (`?i=<n>` each), 120 px high, one under the other.
pub fn frame_parent(src: &str, count: usize) -> String {
    let mut s =
        String::from("<!doctype html><meta charset=\"utf-8\"><title>frames</title><h1>Frames</h1>");
    for i in 0..count {
        s.push_str(&format!(
            "<iframe src=\"{src}?i={i}\" style=\"display:block;width:400px;height:120px\"></iframe>"
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Start tags in `html` (`<x`).
    fn count_elements(html: &str) -> usize {
        let b = html.as_bytes();
        (0..b.len().saturating_sub(1))
            .filter(|&i| b[i] == b'<' && b[i + 1].is_ascii_alphabetic())
            .count()
    }

    /// Non-empty runs of text between tags (text nodes; the generator writes no `<` or `>` in text,
    /// attributes or CSS).
    fn count_texts(html: &str) -> usize {
        html.split('<')
            .filter_map(|part| part.split_once('>').map(|(_, text)| text))
            .filter(|text| !text.is_empty())
            .count()
    }

    fn count_controls(html: &str) -> usize {
        html.matches("<a href=").count()
            + html.matches("<button").count()
            + html.matches("<input").count()
    }

    #[test]
    fn every_size_has_exactly_its_node_and_control_counts() {
        for spec in SIZES {
            let html = generate(&spec);
            // + 1: the doctype.
            assert_eq!(
                count_elements(&html) + count_texts(&html) + 1,
                spec.nodes,
                "{}",
                spec.name
            );
            assert_eq!(count_controls(&html), spec.interactive, "{}", spec.name);
            assert!(!html.contains(">\n<") && !html.ends_with('\n'));
        }
    }

    #[test]
    fn pages_are_the_same_on_every_call() {
        assert_eq!(generate(&SIZES[0]), generate(&SIZES[0]));
        assert!(generate(&SIZES[0]).contains("id=\"bench-click\""));
    }

    #[test]
    fn the_actions_page_has_the_two_controls() {
        let html = actions_page();
        assert_eq!(count_controls(&html), 2);
        assert!(html.contains("aria-label=\"Bench input\""));
    }
}
