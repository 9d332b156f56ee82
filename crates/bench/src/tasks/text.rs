//! What the scripted agent reads: each tool's page text parsed into the same list of nodes (id to act
//! on, role, accessible name, depth in the tree, line), and the one rule that finds a task's target in
//! it, whatever the tool. Only the text a tool returned is used: no uid, ref or selector is known in
//! advance.
//!
//! The three formats are parsed in [`super::formats`]:
//!
//! * ours (`bua-bridge mcp` `extract`): the markdown, where links carry their uid (`[alice](e12 /p)`),
//!   then `=== elements ===` with one flat line per element, `e7 textbox "Email" = "…"`, a line
//!   without a role being a link;
//! * Playwright MCP (`browser_snapshot`): indented YAML, `- textbox "Username:" [ref=e19]`;
//! * Chrome DevTools MCP (`take_snapshot`): indented lines, `uid=1_10 textbox "Username:" focusable`.

/// One line of a page text that can be acted on or that says something (a text node, a row).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What the tool wants to act on it: `e12` (ours, Playwright), `1_10` (DevTools); empty for text.
    pub id: String,
    /// Its role as the tool writes it (`textbox`, `button`, `row`, …; `link` for ours' role-less lines).
    pub role: String,
    /// Its accessible name (or a text node's text).
    pub name: String,
    /// Depth in the tree (0 for ours' flat list).
    pub depth: usize,
    /// The whole line, for states (`checked`, `[checked]`) and for text around it.
    pub line: String,
    /// Its place in document order: the line's for the trees; for ours twice the uid's number
    /// (uids are numbered in document order), and for a markdown line one more than twice the last
    /// uid the markdown named before it.
    pub order: usize,
}

/// A page text, parsed.
#[derive(Debug, Clone, Default)]
pub struct Page {
    /// The nodes in the order the text gives them (document order for the trees).
    pub nodes: Vec<Node>,
    /// The raw text, for `expect`.
    pub text: String,
    /// The controls are a list of their own, apart from the text (ours), not placed among it.
    pub flat: bool,
}

/// The kinds of target a task names (an ARIA role, as every tool's text names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A text field (`textbox`, `searchbox`).
    Textbox,
    /// A button.
    Button,
    /// A link.
    Link,
    /// A checkbox.
    Checkbox,
    /// A single-choice `<select>` (`combobox`).
    Combobox,
    /// A multiple-choice `<select>` (`listbox`).
    Listbox,
}

impl Role {
    fn matches(self, role: &str) -> bool {
        match self {
            Role::Textbox => matches!(role, "textbox" | "searchbox"),
            Role::Button => role == "button",
            Role::Link => role == "link",
            Role::Checkbox => role == "checkbox",
            Role::Combobox => role == "combobox",
            Role::Listbox => role == "listbox",
        }
    }

    /// The role's word in the tools' texts (and for Playwright's `fill_form` field types).
    pub fn word(self) -> &'static str {
        match self {
            Role::Textbox => "textbox",
            Role::Button => "button",
            Role::Link => "link",
            Role::Checkbox => "checkbox",
            Role::Combobox => "combobox",
            Role::Listbox => "listbox",
        }
    }
}

/// Where a target is, besides its role and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Near {
    /// Anywhere: the first match in document order.
    Anywhere,
    /// In the table row that contains this text (as a whole word).
    Row(&'static str),
    /// The first match after the first line that contains this text.
    After(&'static str),
    /// The last match before the first element of this role whose name contains this text: the
    /// filter box above a list box.
    Before(Role, &'static str),
}

/// A semantic target: role, accessible name (empty: any name, e.g. an unlabelled field) and place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Its role.
    pub role: Role,
    /// Its accessible name, compared without case, a trailing colon or curly quotes; exact first, then
    /// as a part of the name.
    pub name: &'static str,
    /// Where it is.
    pub near: Near,
    /// Matches to pass over first (0: the first match).
    pub skip: usize,
}

impl Target {
    /// `role "name"` anywhere.
    pub const fn new(role: Role, name: &'static str) -> Target {
        Target {
            role,
            name,
            near: Near::Anywhere,
            skip: 0,
        }
    }

    /// This target, in the row containing `text`.
    pub const fn in_row(self, text: &'static str) -> Target {
        Target {
            near: Near::Row(text),
            ..self
        }
    }

    /// This target, the first after `text`.
    pub const fn after(self, text: &'static str) -> Target {
        Target {
            near: Near::After(text),
            ..self
        }
    }

    /// This target, the last before the `role` element named `text`.
    pub const fn before(self, role: Role, text: &'static str) -> Target {
        Target {
            near: Near::Before(role, text),
            ..self
        }
    }

    /// The second match, not the first (the time field after a date field).
    pub const fn second(self) -> Target {
        Target { skip: 1, ..self }
    }

    /// How the agent describes it to a tool that asks (Playwright's `element`).
    pub fn describe(&self) -> String {
        match (&self.near, self.name.is_empty()) {
            (Near::Row(t), _) => {
                format!("{} \"{}\" in the row of {t}", self.role.word(), self.name)
            }
            (Near::After(t), true) => format!("{} after \"{t}\"", self.role.word()),
            (Near::Before(_, t), _) => {
                format!("{} \"{}\" before \"{t}\"", self.role.word(), self.name)
            }
            _ => format!("{} \"{}\"", self.role.word(), self.name),
        }
    }
}

/// A name as compared: lower case, curly quotes straight, spaces collapsed, no trailing `:` or `*`.
pub fn normalize(s: &str) -> String {
    let s = s.replace(['’', '‘'], "'").to_lowercase();
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    s.trim_end_matches([':', '*', ' ']).to_string()
}

/// `word` occurs in `text` as a whole word (letters and digits around it do not continue it).
pub(super) fn has_word(text: &str, word: &str) -> bool {
    let (text, word) = (text.to_lowercase(), word.to_lowercase());
    text.match_indices(&word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

impl Page {
    /// The text of node `i` and everything below it in the tree (its own line for a flat list).
    fn subtree_text(&self, i: usize) -> String {
        let depth = self.nodes[i].depth;
        let mut out = self.nodes[i].line.clone();
        for n in self.nodes[i + 1..].iter().take_while(|n| n.depth > depth) {
            out.push('\n');
            out.push_str(&n.line);
        }
        out
    }

    /// In a tree without rows: the nearest line before node `i` that is a text of its own (not a
    /// control's label of the same name) is `text`, as a table's first cell is read before its
    /// controls.
    fn row_label(&self, i: usize, text: &str) -> bool {
        self.nodes[..i]
            .iter()
            .rev()
            .filter(|n| n.role == "text" && !n.name.is_empty())
            .find(|n| {
                !self.nodes[..i]
                    .iter()
                    .any(|c| !c.id.is_empty() && c.role != "text" && c.name == n.name)
            })
            .is_some_and(|n| normalize(&n.name) == normalize(text))
    }

    /// The nearest ancestor of node `i` whose role is `role`.
    fn ancestor(&self, i: usize, role: &str) -> Option<usize> {
        let mut depth = self.nodes[i].depth;
        for j in (0..i).rev() {
            if self.nodes[j].depth < depth {
                if self.nodes[j].role == role {
                    return Some(j);
                }
                depth = self.nodes[j].depth;
            }
        }
        None
    }

    /// Finds `target` (module doc); `None` when this text does not show it.
    pub fn find(&self, target: &Target) -> Option<&Node> {
        let want = normalize(target.name);
        let (after, before) = match target.near {
            Near::After(text) => {
                let text = text.to_lowercase();
                let anchor = self
                    .nodes
                    .iter()
                    .find(|n| n.line.to_lowercase().contains(&text))?;
                (Some(anchor.order), None)
            }
            Near::Before(role, text) => {
                let text = normalize(text);
                let anchor = self.nodes.iter().find(|n| {
                    !n.id.is_empty() && role.matches(&n.role) && normalize(&n.name).contains(&text)
                })?;
                (None, Some(anchor.order))
            }
            _ => (None, None),
        };
        let mut candidates: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| !self.nodes[i].id.is_empty() && target.role.matches(&self.nodes[i].role))
            .filter(|&i| after.is_none_or(|a| self.nodes[i].order > a))
            .filter(|&i| before.is_none_or(|b| self.nodes[i].order < b))
            .filter(|&i| match target.near {
                Near::Row(text) => match self.ancestor(i, "row") {
                    Some(row) => has_word(&self.subtree_text(row), text),
                    // No rows in the tree: the row's cells are lines before it, the nearest
                    // naming a row text being the row's.
                    None if !self.flat => self.row_label(i, text),
                    // A list apart from the text: the row's text can only be on the element's own
                    // line, in its name or its context (`e24 checkbox "WIKI_CREATE" (in "developer")`).
                    None => has_word(&self.nodes[i].line, text),
                },
                _ => true,
            })
            .collect();
        if before.is_some() {
            // The nearest before the anchor first.
            candidates.reverse();
        }
        let name = |i: &&usize| normalize(&self.nodes[**i].name);
        let exact: Vec<usize> = candidates
            .iter()
            .filter(|i| want.is_empty() || name(i) == want)
            .copied()
            .collect();
        let matches = if exact.len() > target.skip {
            exact
        } else {
            candidates
                .iter()
                .filter(|i| name(i).contains(&want))
                .copied()
                .collect()
        };
        matches.get(target.skip).map(|&i| &self.nodes[i])
    }

    /// The option named `name` inside the node `list` (a listbox's options in a tree text).
    pub fn option_in(&self, list: &Node, name: &str) -> Option<&Node> {
        let i = self.nodes.iter().position(|n| n == list)?;
        let want = normalize(name);
        self.nodes[i + 1..]
            .iter()
            .take_while(|n| n.depth > list.depth)
            .find(|n| n.role == "option" && normalize(&n.name) == want)
    }

    /// The page shows `text` (case-insensitive; curly quotes as straight ones).
    pub fn shows(&self, text: &str) -> bool {
        normalize(&self.text).contains(&normalize(text))
    }
}

/// Whether a checkbox's line says it is checked, in any tool's notation.
pub fn is_checked(node: &Node) -> bool {
    let line = node.line.as_str();
    line.contains("[checked]")
        || line.contains("[checked=true]")
        || line.split_whitespace().any(|w| w == "checked")
}
