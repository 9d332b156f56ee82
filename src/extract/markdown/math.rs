//! MathML formulas as markdown text (SPEC §5): their TeX, else their text.

use super::ir::MAX_DEPTH;
use crate::extract::snapshot::{Dom, NodeKind};
use crate::extract::text::collapse;

/// A formula as the markdown writes it.
pub(super) enum Formula {
    /// `$$tex$$`, in a paragraph of its own (`display="block"`).
    Display(String),
    /// `$tex$`, or the formula's text without TeX, in the line.
    Inline(String),
}

/// A MathML formula (SPEC §5): its TeX (`<annotation encoding="application/x-tex">`, else the
/// `alttext` attribute) as `$tex$`, or `$$tex$$` in a paragraph of its own for
/// `display="block"`; without TeX, the formula's text (`x=2`); `None` when it has neither. The layout
/// of the formula's nodes is not consulted: annotations are never rendered, and pages often keep the
/// readable copy in a `display: none` box next to an image (Wikipedia's MathML beside its SVG).
pub(super) fn formula(dom: &Dom, id: usize, depth: usize) -> Option<Formula> {
    let node = &dom.nodes[id];
    let tex = tex_annotation(dom, id, depth)
        .or_else(|| node.attr("alttext").map(str::to_string))
        .map(|t| strip_display_style(&collapse(&t)).to_string())
        .filter(|t| !t.is_empty());
    let block = node
        .attr("display")
        .is_some_and(|d| d.trim().eq_ignore_ascii_case("block"));
    match tex {
        Some(tex) if block => Some(Formula::Display(format!("$${tex}$$"))),
        Some(tex) => Some(Formula::Inline(format!("${tex}$"))),
        None => {
            let mut text = String::new();
            math_text(dom, id, &mut text, depth);
            let text = collapse(&text);
            (!text.is_empty()).then_some(Formula::Inline(text))
        }
    }
}

/// The text of the first TeX annotation inside a formula.
fn tex_annotation(dom: &Dom, id: usize, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    dom.nodes[id].children.iter().find_map(|&c| {
        let child = &dom.nodes[c];
        let tex = child.tag() == Some("annotation")
            && child.attr("encoding").is_some_and(|e| {
                let e = e.trim().to_ascii_lowercase();
                e == "application/x-tex" || e == "tex" || e == "text/x-tex"
            });
        if tex {
            let mut text = String::new();
            math_text(dom, c, &mut text, depth + 1);
            Some(text)
        } else {
            tex_annotation(dom, c, depth + 1)
        }
    })
}

/// The text of a formula's presentation markup, annotations left out.
fn math_text(dom: &Dom, id: usize, out: &mut String, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    for &c in &dom.nodes[id].children {
        let child = &dom.nodes[c];
        match &child.kind {
            NodeKind::Text(t) => out.push_str(t),
            NodeKind::Element { tag, .. } if tag == "annotation" || tag == "annotation-xml" => {}
            NodeKind::Element { .. } => math_text(dom, c, out, depth + 1),
            NodeKind::Document => {}
        }
    }
}

/// `{\displaystyle x}` → `x`: the wrapper Wikipedia puts around every formula's TeX says nothing.
fn strip_display_style(tex: &str) -> &str {
    ["{\\displaystyle ", "{\\textstyle "]
        .iter()
        .find_map(|p| tex.strip_prefix(p)?.strip_suffix('}'))
        .map(str::trim)
        .unwrap_or(tex)
}
