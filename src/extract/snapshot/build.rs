//! A tiny DOM builder for the native tests of the modules that read a [`Dom`].

use super::*;

/// A node to build: element (tag, attributes, children) or text.
pub(crate) enum T {
    E(&'static str, Vec<(&'static str, &'static str)>, Vec<T>),
    X(&'static str),
}

/// An element.
pub(crate) fn e(tag: &'static str, attrs: &[(&'static str, &'static str)], kids: Vec<T>) -> T {
    T::E(tag, attrs.to_vec(), kids)
}

/// A text node.
pub(crate) fn t(text: &'static str) -> T {
    T::X(text)
}

/// An element without children (an `<input>`, an `<img>`, an empty `<div>`).
pub(crate) fn empty(tag: &'static str, attrs: &[(&'static str, &'static str)]) -> T {
    e(tag, attrs, Vec::new())
}

/// An element without attributes.
pub(crate) fn el(tag: &'static str, kids: Vec<T>) -> T {
    e(tag, &[], kids)
}

/// An element without attributes that holds one text node: `<li>One</li>` is `et("li", "One")`.
pub(crate) fn et(tag: &'static str, text: &'static str) -> T {
    el(tag, vec![t(text)])
}

fn default_display(tag: &str) -> &'static str {
    match tag {
        "li" => "list-item",
        "table" => "table",
        "tr" => "table-row",
        "td" | "th" => "table-cell",
        "thead" | "tbody" => "table-row-group",
        "button" | "input" | "img" => "inline-block",
        t if BLOCK_TAGS.contains(&t) => "block",
        _ => "inline",
    }
}

/// The backendNodeIds of `dom`'s `tag` elements, in document order.
pub(crate) fn backend_ids(dom: &Dom, tag: &str) -> Vec<i64> {
    dom.nodes
        .iter()
        .filter(|n| n.tag() == Some(tag))
        .map(|n| n.backend_node_id)
        .collect()
}

/// `html > body > kids` at `url`. Every rendered node gets a 800×20 px box, one below the other;
/// `style` understands `display:none`, `visibility:hidden`, `position:*`, `overflow:hidden`,
/// `width:N`, `height:N` (px), `top:N` (px).
pub(crate) fn dom(url: &str, kids: Vec<T>) -> Dom {
    let mut b = Builder {
        dom: Dom::default(),
        y: 0.0,
        backend: 100,
    };
    b.dom.documents.push(DocumentInfo {
        url: url.into(),
        base_url: url.into(),
        attached: true,
        ..DocumentInfo::default()
    });
    b.dom.nodes.push(DomNode {
        kind: NodeKind::Document,
        children: vec![],
        parent: None,
        backend_node_id: 1,
        document: 0,
        layout: None,
    });
    let body = e("html", &[], vec![e("body", &[], kids)]);
    b.add(
        body,
        0,
        Some(Style {
            visibility: "visible".into(),
            ..Style::default()
        }),
    );
    b.dom.by_backend = b
        .dom
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.backend_node_id, i))
        .collect();
    b.dom
}

struct Builder {
    dom: Dom,
    y: f64,
    backend: i64,
}

impl Builder {
    fn add(&mut self, node: T, parent: usize, inherited: Option<Style>) {
        self.backend += 1;
        let id = self.dom.nodes.len();
        match node {
            T::X(text) => {
                let layout = inherited.map(|style| Layout {
                    bounds: Rect {
                        x: 0.0,
                        y: self.y,
                        width: 100.0,
                        height: 20.0,
                    },
                    style,
                    paint_order: 0,
                });
                self.dom.nodes.push(DomNode {
                    kind: NodeKind::Text(text.into()),
                    children: vec![],
                    parent: Some(parent),
                    backend_node_id: self.backend,
                    document: 0,
                    layout,
                });
            }
            T::E(tag, attrs, kids) => {
                // Inherited as CSS inherits them: visibility, color, font size, text fill.
                let mut style = inherited.clone().map(|s| Style {
                    display: default_display(tag).into(),
                    visibility: s.visibility,
                    position: "static".into(),
                    overflow_x: "visible".into(),
                    overflow_y: "visible".into(),
                    color: s.color,
                    font_size: s.font_size,
                    text_fill: s.text_fill,
                    ..Style::default()
                });
                let mut bounds = Rect {
                    x: 0.0,
                    y: self.y,
                    width: 800.0,
                    height: 20.0,
                };
                if let Some(css) = attrs.iter().find(|(n, _)| *n == "style").map(|(_, v)| *v) {
                    for decl in css.split(';') {
                        let Some((k, v)) = decl.split_once(':') else {
                            continue;
                        };
                        let (k, v) = (k.trim(), v.trim());
                        let px = v.trim_end_matches("px").parse::<f64>().ok();
                        match (k, style.as_mut()) {
                            ("display", _) if v == "none" => style = None,
                            ("visibility", Some(s)) => s.visibility = v.into(),
                            ("position", Some(s)) => s.position = v.into(),
                            ("overflow", Some(s)) => {
                                s.overflow_x = v.into();
                                s.overflow_y = v.into();
                            }
                            ("opacity", Some(s)) => s.opacity = v.into(),
                            ("color", Some(s)) => s.color = v.into(),
                            ("background-color", Some(s)) => s.background_color = v.into(),
                            ("background-image", Some(s)) => s.background_image = v.into(),
                            ("background-clip", Some(s)) => s.background_clip = v.into(),
                            ("-webkit-text-fill-color", Some(s)) => s.text_fill = v.into(),
                            ("font-size", Some(s)) => s.font_size = v.into(),
                            ("clip", Some(s)) => s.clip = v.into(),
                            ("clip-path", Some(s)) => s.clip_path = v.into(),
                            ("filter", Some(s)) => s.filter = v.into(),
                            ("width", _) => bounds.width = px.unwrap_or(bounds.width),
                            ("height", _) => bounds.height = px.unwrap_or(bounds.height),
                            ("top", _) => bounds.y = px.unwrap_or(bounds.y),
                            _ => {}
                        }
                    }
                }
                self.y += 20.0;
                let layout = style.clone().map(|style| Layout {
                    bounds,
                    style,
                    paint_order: 0,
                });
                if let Some(l) = &layout {
                    self.dom.rects.insert(self.backend, l.bounds);
                }
                self.dom.nodes.push(DomNode {
                    kind: NodeKind::Element {
                        tag: tag.into(),
                        attrs: attrs
                            .iter()
                            .map(|(n, v)| (n.to_string(), v.to_string()))
                            .collect(),
                    },
                    children: vec![],
                    parent: Some(parent),
                    backend_node_id: self.backend,
                    document: 0,
                    layout,
                });
                for k in kids {
                    self.add(k, id, style.clone());
                }
            }
        }
        self.dom.nodes[parent].children.push(id);
    }
}
