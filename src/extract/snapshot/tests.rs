use super::*;

/// A hand-written snapshot: html > body > [div#host (shadow: p > slot), iframe → doc 1].
fn sample() -> serde_json::Value {
    let strings = [
        "#document",
        "HTML",
        "BODY",
        "DIV",
        "#text",
        "light",
        "P",
        "SLOT",
        "shadowed ",
        "IFRAME",
        "src",
        "f.html",
        "http://h.test/a/",
        "http://h.test/a/f.html",
        "framed",
        "block",
        "visible",
        "static",
        "open",
        "#document-fragment",
        "inline",
        "main-frame",
        "child-frame",
        "id",
        "host",
    ];
    serde_json::json!({
        "strings": strings,
        "documents": [
            {
                "documentURL": 12, "baseURL": 12, "frameId": 21,
                "scrollOffsetX": 0.0, "scrollOffsetY": 100.0,
                "nodes": {
                    "parentIndex": [-1, 0, 1, 2, 3, 3, 5, 6, 7, 6, 2],
                    "nodeType":    [ 9, 1, 1, 1, 3, 11, 1, 1, 3, 3, 1],
                    "nodeName":    [ 0, 1, 2, 3, 4, 19, 6, 7, 4, 4, 9],
                    "nodeValue":   [-1,-1,-1,-1, 5, -1,-1,-1, 5, 8, -1],
                    "backendNodeId": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
                    "attributes": [[], [], [], [23, 24], [], [], [], [], [], [], [10, 11]],
                    "shadowRootType": {"index": [5], "value": [18]},
                    "contentDocumentIndex": {"index": [10], "value": [1]}
                },
                "layout": {
                    "nodeIndex": [1, 2, 3, 4, 6, 9, 10],
                    "styles": [[15,16,17,15,15],[15,16,17,15,15],[15,16,17,15,15],[20,16,17,15,15],
                               [15,16,17,15,15],[20,16,17,15,15],[20,16,17,15,15]],
                    "bounds": [[0,0,800,600],[8,8,784,500],[8,8,784,20],[8,8,40,20],[8,8,784,20],
                               [50,8,60,20],[8,300,400,200]]
                }
            },
            {
                "documentURL": 13, "baseURL": 13, "frameId": 22,
                "nodes": {
                    "parentIndex": [-1, 0, 1, 2],
                    "nodeType": [9, 1, 1, 3],
                    "nodeName": [0, 1, 2, 4],
                    "nodeValue": [-1, -1, -1, 14],
                    "backendNodeId": [20, 21, 22, 23]
                },
                "layout": {
                    "nodeIndex": [3],
                    "styles": [[20,16,17,15,15]],
                    "bounds": [[10, 10, 50, 20]]
                }
            }
        ]
    })
}

fn texts(dom: &Dom) -> Vec<String> {
    dom.nodes
        .iter()
        .filter_map(|n| n.text().map(str::to_string))
        .collect()
}

#[test]
fn shadow_root_replaces_light_children_and_slot_takes_them_in_order() {
    let dom = Dom::from_snapshot(&sample()).unwrap();
    // The light text is rendered where the slot is: first in the shadow <p>, before "shadowed".
    assert_eq!(texts(&dom), vec!["light", "shadowed ", "framed"]);
    let host = dom
        .nodes
        .iter()
        .position(|n| n.attr("id") == Some("host"))
        .unwrap();
    let p = dom.nodes[host].children[0];
    assert_eq!(dom.nodes[p].tag(), Some("p"));
    let slot = dom.nodes[p].children[0];
    assert_eq!(dom.nodes[slot].tag(), Some("slot"));
    assert_eq!(dom.nodes[dom.nodes[slot].children[0]].text(), Some("light"));
}

#[test]
fn a_light_child_goes_into_the_first_of_two_slots_of_one_name_only() {
    let mut snap = sample();
    // A second default <slot> in the shadow <p>, after its text.
    let nodes = &mut snap["documents"][0]["nodes"];
    for (key, v) in [
        ("parentIndex", serde_json::json!(6)),
        ("nodeType", serde_json::json!(1)),
        ("nodeName", serde_json::json!(7)),
        ("nodeValue", serde_json::json!(-1)),
        ("backendNodeId", serde_json::json!(12)),
        ("attributes", serde_json::json!([])),
    ] {
        nodes[key].as_array_mut().unwrap().push(v);
    }
    let dom = Dom::from_snapshot(&snap).unwrap();
    assert_eq!(texts(&dom), vec!["light", "shadowed ", "framed"]);
    let slots: Vec<usize> = (0..dom.nodes.len())
        .filter(|&i| dom.nodes[i].tag() == Some("slot"))
        .collect();
    assert_eq!(slots.len(), 2, "both slots are in the tree");
    assert!(dom.nodes[slots[1]].children.is_empty());
}

#[test]
fn checked_inputs_of_every_document_are_keyed_by_backend_id() {
    let mut snap = sample();
    snap["documents"][0]["nodes"]["inputChecked"] = serde_json::json!({"index": [3]});
    snap["documents"][1]["nodes"]["inputChecked"] = serde_json::json!({"index": [2, 99]});
    let dom = Dom::from_snapshot(&snap).unwrap();
    let mut got: Vec<i64> = dom.checked_inputs.iter().copied().collect();
    got.sort();
    assert_eq!(got, vec![4, 22]);
    assert!(Dom::from_snapshot(&sample())
        .unwrap()
        .checked_inputs
        .is_empty());
}

#[test]
fn capture_params_ask_for_the_styles_and_no_dom_rects() {
    let p = serde_json::to_value(capture_params()).expect("params");
    assert_eq!(p["computedStyles"], serde_json::json!(COMPUTED_STYLES));
    assert!(p.get("includeDOMRects").is_none(), "{p}");
}

#[test]
fn iframe_document_is_stitched_under_its_element_with_offset_rects() {
    let dom = Dom::from_snapshot(&sample()).unwrap();
    let iframe = dom
        .nodes
        .iter()
        .position(|n| n.tag() == Some("iframe"))
        .unwrap();
    let html = dom.nodes[iframe].children[0];
    assert_eq!(dom.nodes[html].tag(), Some("html"));
    assert_eq!(dom.nodes[html].document, 1);
    let framed = dom
        .nodes
        .iter()
        .find(|n| n.text() == Some("framed"))
        .unwrap();
    let b = framed.layout.as_ref().unwrap().bounds;
    assert_eq!((b.x, b.y), (18.0, 310.0));
    assert_eq!(
        dom.frame_of_iframe.get(&11).map(String::as_str),
        Some("child-frame")
    );
    assert_eq!(dom.iframe_urls, vec!["http://h.test/a/f.html".to_string()]);
    assert_eq!(dom.base_url_of(html), "http://h.test/a/f.html");
}

#[test]
fn viewport_rect_uses_main_document_scroll() {
    let dom = Dom::from_snapshot(&sample()).unwrap();
    assert_eq!(
        dom.viewport_rect(800.0, 600.0),
        Rect {
            x: 0.0,
            y: 100.0,
            width: 800.0,
            height: 600.0
        }
    );
    assert_eq!(
        dom.rects.get(&4),
        Some(&Rect {
            x: 8.0,
            y: 8.0,
            width: 784.0,
            height: 20.0
        })
    );
}

#[test]
fn malformed_and_empty_snapshots_are_errors_not_panics() {
    assert!(matches!(
        Dom::from_snapshot(&serde_json::json!({"documents": 3})),
        Err(SnapshotError::Json(_))
    ));
    assert!(matches!(
        Dom::from_snapshot(&serde_json::json!({"documents": [], "strings": []})),
        Err(SnapshotError::NoDocument)
    ));
    // Out-of-range string and parent indexes are tolerated.
    let v = serde_json::json!({"strings": ["#document"], "documents": [{"nodes": {
            "parentIndex": [-1, 99], "nodeType": [9, 3], "nodeName": [0, 42], "nodeValue": [-1, 7],
            "backendNodeId": [1]}}]});
    let dom = Dom::from_snapshot(&v).unwrap();
    assert_eq!(dom.nodes.len(), 2);
}

#[test]
fn captcha_frame_urls_are_recognised_by_host_not_substring() {
    for u in [
        "https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0",
        "https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html",
        "https://www.google.com/recaptcha/api2/anchor?k=x",
        "https://www.recaptcha.net/recaptcha/api2/bframe",
    ] {
        assert!(is_captcha_frame_url(u), "{u}");
    }
    for u in [
        "https://www.google.com/maps/embed",
        "https://hcaptcha.com.evil.test/",
        "https://example.com/?u=challenges.cloudflare.com",
        "about:blank",
        "not a url",
    ] {
        assert!(!is_captcha_frame_url(u), "{u}");
    }
}

/// One document `<html><body><p>{text}</p>[<iframe>]</body></html>` as a whole snapshot answer; the
/// backend ids are 1…6 in every target (so parts collide unless moved apart).
fn frame_snapshot(url: &str, text: &str, with_iframe: bool) -> String {
    let n = if with_iframe { 6 } else { 5 };
    let parent = &[-1, 0, 1, 2, 3, 2][..n];
    let kind = &[9, 1, 1, 1, 3, 1][..n];
    let name = &[0, 1, 2, 3, 6, 4][..n];
    let value = &[-1, -1, -1, -1, 6, -1][..n];
    let backend = &[1, 2, 3, 4, 5, 6][..n];
    serde_json::json!({
        "strings": ["#document", "HTML", "BODY", "P", "IFRAME", url, text, "fid"],
        "documents": [{
            "documentURL": 5, "baseURL": 5, "frameId": 7,
            "nodes": {
                "parentIndex": parent,
                "nodeType": kind,
                "nodeName": name,
                "nodeValue": value,
                "backendNodeId": backend
            },
            "layout": {"nodeIndex": [4], "styles": [[]], "bounds": [[10, 10, 50, 20]]}
        }]
    })
    .to_string()
}

/// Part 1 (`mid`, in the top document's `<iframe>` of backend 6) and part 2 (`leaf`, in part 1's).
fn nested<'a>(mid: &'a str, leaf: &'a str) -> [FramePart<'a>; 2] {
    let part = |snapshot, parent| FramePart {
        snapshot,
        parent,
        owner: 6,
    };
    [part(mid, 0), part(leaf, 1)]
}

#[test]
fn cross_origin_frame_parts_are_stitched_in_at_their_iframe_with_ids_of_their_own() {
    let main = frame_snapshot("http://a.test/", "top text", true);
    let mid = frame_snapshot("http://b.test/mid.html", "middle text", true);
    let leaf = frame_snapshot("http://c.test:8080/leaf.html", "leaf text", false);
    let parts = nested(&mid, &leaf);
    let dom = Dom::from_parts(&main, &parts).unwrap();
    assert_eq!(texts(&dom), ["top text", "middle text", "leaf text"]);
    // The leaf's text node: backend 5 of part 2, distinct from the top's and the middle's 5.
    let leaf_text = part_backend(2, 5);
    assert_eq!(split_backend(leaf_text), (2, 5));
    assert!(dom.by_backend.contains_key(&leaf_text) && dom.by_backend.contains_key(&5));
    let markers: Vec<String> = (0..dom.nodes.len())
        .filter_map(|i| dom.frame_marker(i))
        .collect();
    assert_eq!(
        markers,
        ["frame f1: http://b.test", "frame f2: http://c.test:8080"]
    );
    assert_eq!(parse_frame_label("f2"), Some(2));
    assert_eq!(parse_frame_label("f02"), None);
    // A frame whose snapshot is unusable is left out; the others keep their part numbers.
    let parts = nested("{}", &leaf);
    assert_eq!(
        texts(&Dom::from_parts(&main, &parts).unwrap()),
        ["top text"]
    );
}

mod seen {
    use super::super::seen::{clip_is_empty, clip_path_is_empty, filter_opacity};

    #[test]
    fn filters_clips_and_clip_paths_that_leave_nothing_are_told_from_those_that_leave_some() {
        assert_eq!(filter_opacity("none"), 1.0);
        assert_eq!(filter_opacity("opacity(0)"), 0.0);
        assert!((filter_opacity("blur(2px) opacity(50%) opacity(0.5)") - 0.25).abs() < 1e-9);
        assert!(clip_is_empty("rect(0px, 0px, 0px, 0px)"));
        assert!(clip_is_empty("rect(1px, 1px, 1px, 1px)"));
        assert!(!clip_is_empty("rect(0px, 200px, 30px, 0px)"));
        assert!(!clip_is_empty("auto"));
        assert!(clip_path_is_empty("inset(50%)", 300.0, 20.0));
        assert!(clip_path_is_empty("inset(0px 0px 20px 0px)", 300.0, 20.0));
        assert!(clip_path_is_empty("inset(0px 150px)", 300.0, 20.0));
        assert!(!clip_path_is_empty("inset(10%)", 300.0, 20.0));
        assert!(!clip_path_is_empty("inset(0px round 8px)", 300.0, 20.0));
        assert!(clip_path_is_empty("circle(0px at 50% 50%)", 300.0, 20.0));
        assert!(clip_path_is_empty("ellipse(0px 0px)", 300.0, 20.0));
        assert!(!clip_path_is_empty("circle(40%)", 300.0, 20.0));
        assert!(!clip_path_is_empty("none", 300.0, 20.0));
        assert!(!clip_path_is_empty(
            "polygon(0 0, 100% 0, 100% 100%)",
            300.0,
            20.0
        ));
    }
}
