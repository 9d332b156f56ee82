//! Which nodes of the composed tree are content (SPEC §5 `markdown`): hidden or zero-size nodes,
//! scripts and styles, `nav`/`footer`/`aside`/site header and their ARIA roles, dialogs, `position:
//! fixed | sticky` overlays and link farms are not, unless they hold the page's `<main>` or more than
//! half of its visible text. A table of links in rows and columns (an admin's index: "Users | Add |
//! Change") is data, not a link farm, and a search form inside the content keeps its text (its result
//! count: "2 results (7 total)").

use crate::extract::snapshot::{is_heading_tag, Dom, DomNode, NodeKind, Sight};

/// Elements whose content is never page text.
const NEVER_TEXT: &[&str] = &[
    "script", "style", "noscript", "template", "svg", "head", "title", "meta", "link", "select",
    "option", "optgroup", "datalist", "input", "textarea", "canvas", "video", "audio", "object",
    "embed", "map", "dialog", "param", "source", "track",
];

/// Roles whose subtree is page furniture, not content (ARIA landmarks and overlays).
const BOILERPLATE_ROLES: &[&str] = &[
    "navigation",
    "contentinfo",
    "complementary",
    "banner",
    "search",
    "dialog",
    "alertdialog",
    "menubar",
    "menu",
    "toolbar",
];

/// A container with at least this many links …
const LINK_FARM_MIN_LINKS: usize = 3;
/// … and at least this share (%) of its text inside links is navigation, not content.
const LINK_FARM_MIN_PERCENT: usize = 70;
/// Elements never judged by link density (their text is content even when it is all links), besides
/// headings.
const NOT_LINK_FARMS: &[&str] = &[
    "html",
    "body",
    "main",
    "article",
    "p",
    "pre",
    "blockquote",
    "td",
    "th",
    "tr",
    "tbody",
    "thead",
    "a",
    "li",
    "dt",
    "dd",
];

/// For each node of `dom`, whether the markdown leaves it out: never-rendered or invisible (whatever
/// the page structure), or page furniture and link farms that do not hold the main content.
pub(super) fn skipped(dom: &Dom) -> Vec<bool> {
    let n = dom.nodes.len();
    // A page whose whole body is `visibility: hidden` is still loading (anti-flicker snippets
    // reveal it from a script): its text is what the user is about to see, so take it.
    let honour_visibility = !dom
        .nodes
        .iter()
        .find(|n| n.tag() == Some("body") && n.document == 0)
        .and_then(|b| b.layout.as_ref())
        .is_some_and(|l| l.style.is_invisible());
    // Pass 1: what is never rendered text, whatever the page structure.
    let mut hidden = vec![false; n];
    // Text a person cannot see (transparent, off the page, clipped, covered, …) is no page text either.
    let sight = dom.text_sight();
    for (i, node) in dom.nodes.iter().enumerate() {
        let parent_hidden = node.parent.is_some_and(|p| hidden[p]);
        hidden[i] = parent_hidden || is_hidden(node, honour_visibility) || sight[i] != Sight::Seen;
    }
    // Visible text per subtree (chars), the part of it inside links, links, and where `<main>` is.
    let mut text_len = vec![0usize; n];
    let mut link_len = vec![0usize; n];
    let mut links = vec![0usize; n];
    let mut has_main = vec![false; n];
    for i in (0..n).rev() {
        let node = &dom.nodes[i];
        if !hidden[i] {
            if let NodeKind::Text(t) = &node.kind {
                text_len[i] += t
                    .split_whitespace()
                    .map(|w| w.chars().count() + 1)
                    .sum::<usize>();
            }
            if node.tag() == Some("a") && node.attr("href").is_some() {
                link_len[i] = text_len[i];
                links[i] += 1;
            }
            if node.tag() == Some("main")
                || node
                    .attr("role")
                    .is_some_and(|r| r.trim().eq_ignore_ascii_case("main"))
            {
                has_main[i] = true;
            }
        }
        // A grid of links is a table's data: its links are not navigation to the containers above it.
        if !hidden[i] && node.tag() == Some("table") && is_grid(dom, i, &hidden) {
            link_len[i] = 0;
            links[i] = 0;
        }
        if let Some(p) = node.parent {
            text_len[p] += text_len[i];
            link_len[p] += link_len[i];
            links[p] += links[i];
            has_main[p] |= has_main[i];
        }
    }
    let total = text_len.first().copied().unwrap_or(0).max(1);
    // Pass 2: furniture, unless it holds the main content.
    let mut skip = hidden;
    for i in 0..n {
        if skip[i] {
            continue;
        }
        if dom.nodes[i].parent.is_some_and(|p| skip[p]) {
            skip[i] = true;
            continue;
        }
        let holds_main = has_main[i] || text_len[i] * 2 > total;
        if holds_main {
            continue;
        }
        // Link farms (menus, "related" lists, tag clouds): mostly link text, several links.
        let link_farm = links[i] >= LINK_FARM_MIN_LINKS
            && link_len[i] * 100 >= text_len[i] * LINK_FARM_MIN_PERCENT
            && dom.nodes[i]
                .tag()
                .is_some_and(|t| !NOT_LINK_FARMS.contains(&t) && !is_heading_tag(t));
        if link_farm || is_furniture(dom, i) {
            skip[i] = true;
        }
    }
    skip
}

/// Nodes a [`math_beside`] search looks at.
const MATH_SEARCH_NODES: usize = 200;

/// Node `id`'s parent holds a `<math>` outside `id`: `id` is the formula drawn for the eye (an image, a
/// rendering marked `aria-hidden`) next to the MathML the markdown writes as TeX.
fn math_beside(dom: &Dom, id: usize) -> bool {
    let Some(parent) = dom.nodes[id].parent else {
        return false;
    };
    let mut stack: Vec<usize> = dom.nodes[parent]
        .children
        .iter()
        .copied()
        .filter(|&c| c != id)
        .collect();
    let mut seen = 0;
    while let Some(c) = stack.pop() {
        seen += 1;
        if seen > MATH_SEARCH_NODES {
            return false;
        }
        if dom.nodes[c].tag() == Some("math") {
            return true;
        }
        stack.extend(dom.nodes[c].children.iter().copied());
    }
    false
}

/// Never-rendered or invisible nodes (independent of page structure).
fn is_hidden(node: &DomNode, honour_visibility: bool) -> bool {
    match &node.kind {
        NodeKind::Document => false,
        NodeKind::Text(_) => match &node.layout {
            None => true,
            Some(l) => honour_visibility && l.style.is_invisible(),
        },
        NodeKind::Element { tag, .. } => {
            if NEVER_TEXT.contains(&tag.as_str()) || node.attr("hidden").is_some() {
                return true;
            }
            match &node.layout {
                Some(l) => {
                    let b = l.bounds;
                    // Zero-size (or 1 px screen-reader-only) boxes that clip their content.
                    (b.width <= 1.0 || b.height <= 1.0) && l.style.clips() && !l.style.is_inline()
                }
                None => false,
            }
        }
    }
}

/// Page furniture: landmarks that are not content, overlays, and the picture of a formula beside its
/// MathML. (Other `aria-hidden` content on the screen is read by a person, so it is content: SPEC §5.)
fn is_furniture(dom: &Dom, id: usize) -> bool {
    let node = &dom.nodes[id];
    let Some(tag) = node.tag() else { return false };
    if node
        .attr("aria-hidden")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        && math_beside(dom, id)
    {
        return true;
    }
    if node
        .layout
        .as_ref()
        .is_some_and(|l| l.style.is_fixed_or_sticky())
    {
        return true;
    }
    if let Some(role) = node.attr("role") {
        let role = role
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if role == "banner" {
            return !holds_title(dom, id);
        }
        // The site's search box is furniture; a search form in the content (a list's own search) says
        // what it found.
        if role == "search" {
            return !in_main_content(dom, id);
        }
        if BOILERPLATE_ROLES.contains(&role.as_str()) {
            return true;
        }
        if !role.is_empty() && role != "none" && role != "presentation" {
            return false;
        }
    }
    match tag {
        "nav" | "aside" | "footer" => true,
        // A `<header>` is the site banner unless it is scoped to an article or section.
        "header" => !scoped_to_content(dom, id) && !holds_title(dom, id),
        _ => false,
    }
}

/// Rows of a data table a grid needs, and cells in each of them.
const GRID_MIN: usize = 2;

/// Table node `id` holds data in rows and columns: it says so as browsers tell a data table from a layout
/// table (a `<caption>`, `<thead>`, `<tfoot>` or `<colgroup>`, or header cells `<th>`; no `role` of
/// `presentation` or `none`), and has at least [`GRID_MIN`] shown rows (its own, not a nested table's) of
/// at least [`GRID_MIN`] shown cells each. A menu laid out in a table has none of the header parts.
fn is_grid(dom: &Dom, id: usize, hidden: &[bool]) -> bool {
    let layout_role = dom.nodes[id].attr("role").is_some_and(|r| {
        let r = r.trim();
        r.eq_ignore_ascii_case("presentation") || r.eq_ignore_ascii_case("none")
    });
    if layout_role || !has_header_parts(dom, id) {
        return false;
    }
    let mut rows = 0;
    let mut stack: Vec<usize> = dom.nodes[id].children.clone();
    while let Some(c) = stack.pop() {
        if hidden[c] {
            continue;
        }
        match dom.nodes[c].tag() {
            Some("tr") => {
                let cells = dom.nodes[c]
                    .children
                    .iter()
                    .filter(|&&k| !hidden[k] && matches!(dom.nodes[k].tag(), Some("td" | "th")))
                    .count();
                if cells >= GRID_MIN {
                    rows += 1;
                }
            }
            Some("thead" | "tbody" | "tfoot") => {
                stack.extend(dom.nodes[c].children.iter().copied())
            }
            _ => {}
        }
        if rows >= GRID_MIN {
            return true;
        }
    }
    false
}

/// Table node `id` has a `<caption>`, `<thead>`, `<tfoot>` or `<colgroup>`, or a `<th>` in a row of its
/// own (shown or not: a visually hidden header row still says what the columns are).
fn has_header_parts(dom: &Dom, id: usize) -> bool {
    let mut stack: Vec<usize> = dom.nodes[id].children.clone();
    while let Some(c) = stack.pop() {
        match dom.nodes[c].tag() {
            Some("caption" | "thead" | "tfoot" | "colgroup" | "th") => return true,
            Some("tbody" | "tr") => stack.extend(dom.nodes[c].children.iter().copied()),
            _ => {}
        }
    }
    false
}

/// Node `id` is inside the page's main content: a `<main>` (or `role=main`), an `<article>` or a
/// `<section>`.
fn in_main_content(dom: &Dom, id: usize) -> bool {
    dom.ancestors(id).any(|p| {
        let n = &dom.nodes[p];
        matches!(n.tag(), Some("main" | "article" | "section"))
            || n.attr("role")
                .is_some_and(|r| r.trim().eq_ignore_ascii_case("main"))
    })
}

/// `header`/`footer` inside `article`, `aside`, `main`, `nav` or `section` are not the site's banner.
fn scoped_to_content(dom: &Dom, id: usize) -> bool {
    let mut cur = dom.nodes[id].parent;
    while let Some(p) = cur {
        if matches!(
            dom.nodes[p].tag(),
            Some("article" | "aside" | "main" | "nav" | "section")
        ) {
            return true;
        }
        cur = dom.nodes[p].parent;
    }
    false
}

/// The subtree has an `<h1>` with text outside links: the page's title, not a linked site logo.
fn holds_title(dom: &Dom, id: usize) -> bool {
    fn unlinked_text(dom: &Dom, id: usize, depth: usize) -> bool {
        let n = &dom.nodes[id];
        match &n.kind {
            NodeKind::Text(t) => n.layout.is_some() && !t.trim().is_empty(),
            NodeKind::Element { tag, .. } if tag == "a" => false,
            _ if depth > 64 => false,
            _ => n.children.iter().any(|&c| unlinked_text(dom, c, depth + 1)),
        }
    }
    fn find(dom: &Dom, id: usize, depth: usize) -> bool {
        let n = &dom.nodes[id];
        if n.tag() == Some("h1") {
            return unlinked_text(dom, id, 0);
        }
        depth < 64 && n.children.iter().any(|&c| find(dom, c, depth + 1))
    }
    find(dom, id, 0)
}
