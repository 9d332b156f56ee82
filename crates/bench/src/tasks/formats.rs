//! Each tool's page text parsed into [`Page`]'s nodes (module doc of [`super::text`] for the three
//! formats): only what the text says, nothing known in advance.

use super::text::{Node, Page};
use crate::peers::Tool;

/// The first JSON-style quoted string at the start of `s` (after spaces), unescaped, and the rest.
fn quoted(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    let body = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, n)) = chars.next() {
                    out.push(match n {
                        'n' => '\n',
                        other => other,
                    });
                }
            }
            '"' => return Some((out, &body[i + 1..])),
            c => out.push(c),
        }
    }
    None
}

/// Parses `text` as `tool` writes a page.
pub fn parse(tool: Tool, text: &str) -> Page {
    let nodes = match tool {
        Tool::Ours => parse_ours(text),
        Tool::Playwright => parse_playwright(text),
        Tool::DevTools => parse_devtools(text),
    };
    Page {
        nodes,
        text: text.to_string(),
        flat: tool == Tool::Ours,
    }
}

/// The roles ours writes before a control's name (a line without one is a link, whose name may be a
/// lower-case word such as `reviewers`).
const CONTROL_ROLES: [&str; 14] = [
    "textbox",
    "searchbox",
    "button",
    "checkbox",
    "radio",
    "combobox",
    "listbox",
    "switch",
    "slider",
    "spinbutton",
    "tab",
    "menuitem",
    "option",
    "treeitem",
];

/// Ours: the markdown's lines (text nodes, with their `[name](eN …)` links) and the element list.
fn parse_ours(text: &str) -> Vec<Node> {
    let uid_order = |id: &str| id[1..].parse::<usize>().map_or(0, |n| 2 * n);
    let mut nodes = Vec::new();
    let mut in_elements = false;
    // The markdown's place between elements: after the last uid it named.
    let mut last_uid_order = 0;
    for line in text.lines() {
        if line.starts_with("=== ") {
            in_elements = line == "=== elements ===";
            continue;
        }
        if in_elements {
            let Some((id, rest)) = line.split_once(' ') else {
                continue;
            };
            if !id.starts_with('e') || !id[1..].chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            let single_role = CONTROL_ROLES.contains(&rest);
            let (role, name) = match quoted(rest) {
                Some((name, _)) => ("link".to_string(), name),
                // `e27 textbox`: a field without a name.
                None if single_role => (rest.to_string(), String::new()),
                None => match rest.split_once(' ') {
                    Some((role, tail)) if tail.trim_start().starts_with('"') => (
                        role.to_string(),
                        quoted(tail).map(|q| q.0).unwrap_or_default(),
                    ),
                    Some((role, _)) if CONTROL_ROLES.contains(&role) => {
                        (role.to_string(), String::new())
                    }
                    _ => ("link".to_string(), rest.trim().to_string()),
                },
            };
            nodes.push(Node {
                id: id.to_string(),
                role,
                name,
                depth: 0,
                line: line.to_string(),
                order: uid_order(id),
            });
            continue;
        }
        // A markdown line: its text, then each `[name](eN …)` link in it.
        nodes.push(Node {
            id: String::new(),
            role: "text".into(),
            name: line.to_string(),
            depth: 0,
            line: line.to_string(),
            order: last_uid_order + 1,
        });
        let mut rest = line;
        while let Some(open) = rest.find('[') {
            let after = &rest[open + 1..];
            let Some(close) = after.find("](e") else {
                break;
            };
            let name = &after[..close];
            let target = &after[close + 2..];
            let id: String = target
                .chars()
                .take_while(|c| *c != ' ' && *c != ')')
                .collect();
            if id.len() > 1 && id[1..].chars().all(|c| c.is_ascii_digit()) {
                last_uid_order = uid_order(&id);
                nodes.push(Node {
                    order: last_uid_order,
                    id,
                    role: "link".into(),
                    name: name.to_string(),
                    depth: 0,
                    line: line.to_string(),
                });
            }
            rest = &after[close + 2..];
        }
    }
    // Document order: the markdown's lines between the elements their uids place them.
    nodes.sort_by_key(|n| n.order);
    nodes
}

/// An indented tree, two spaces a level: a line that starts with `marker` after its indent is a node,
/// the rest of it read by `read` into (id, role, name).
fn parse_tree(
    text: &str,
    marker: &str,
    read: impl Fn(&str, &str) -> (String, String, String),
) -> Vec<Node> {
    let mut nodes = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let Some(rest) = trimmed.strip_prefix(marker) else {
            continue;
        };
        let (id, role, name) = read(line, rest);
        nodes.push(Node {
            id,
            role,
            name,
            depth: (line.len() - trimmed.len()) / 2,
            line: line.to_string(),
            order: 2 * nodes.len(),
        });
    }
    nodes
}

/// Playwright MCP's YAML: `- role "name" [attr] [ref=eN]: text`; a line may be wrapped in single quotes.
fn parse_playwright(text: &str) -> Vec<Node> {
    parse_tree(text, "- ", |line, item| {
        let item = item.trim_start_matches('\'').trim_end_matches(['\'', ':']);
        let (role, rest) = item.split_once(' ').unwrap_or((item, ""));
        let name = quoted(rest).map(|q| q.0).unwrap_or_else(|| {
            // `- generic [ref=e18]: "Username:"` and `- text: Hello`: the text after the colon.
            item.rsplit_once(": ")
                .map(|(_, t)| t.trim_matches('"').to_string())
                .unwrap_or_default()
        });
        let id = line
            .split("[ref=")
            .nth(1)
            .and_then(|r| r.split(']').next())
            .unwrap_or_default();
        (id.to_string(), role.trim_end_matches(':').to_string(), name)
    })
}

/// Chrome DevTools MCP's snapshot: `uid=1_10 role "name" flags…`; a text node has no role
/// (`uid=1_9 "Username:"`).
fn parse_devtools(text: &str) -> Vec<Node> {
    parse_tree(text, "uid=", |_, rest| {
        let (id, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        let (role, name) = match quoted(rest) {
            Some((name, _)) => ("text".to_string(), name),
            None => {
                let (role, tail) = rest.split_once(' ').unwrap_or((rest, ""));
                (
                    role.to_string(),
                    quoted(tail).map(|q| q.0).unwrap_or_default(),
                )
            }
        };
        (id.to_string(), role, name)
    })
}

#[cfg(test)]
mod tests;
