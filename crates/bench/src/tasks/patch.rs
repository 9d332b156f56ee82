//! Ours' page text kept current from action results: an input or navigation action's result ends with what
//! it changed (`changes:` lines) or the new page (`=== page ===`, SPEC §9). A model reading those results
//! keeps its picture of the page up to date the same way: this does it to the last page text, line by line,
//! so the scripted agent acts on what the results said without an `extract` in between.

/// What an action result of ours says about the page after it.
pub enum After {
    /// The whole new page text.
    Page(String),
    /// The page text the agent had, changed as the result says.
    Patched(String),
    /// The result says nothing about the page.
    Nothing,
}

/// Reads `result` (ours' action text) against `page` (the page text the agent has, empty when none).
pub fn after(page: &str, result: &str) -> After {
    if let Some((_, view)) = result.split_once("\n=== page ===\n") {
        return After::Page(view.to_string());
    }
    let Some(start) = result.find("\nchanges:") else {
        return After::Nothing;
    };
    if page.is_empty() {
        return After::Nothing;
    }
    After::Patched(patch(page, &result[start + 1..]))
}

/// `page` with `changes` (ours' changes text) applied.
fn patch(page: &str, changes: &str) -> String {
    let mut head: Vec<String> = Vec::new();
    let mut markdown: Vec<String> = Vec::new();
    let mut elements: Vec<String> = Vec::new();
    let mut part = 0;
    for line in page.lines() {
        match line {
            "=== markdown ===" => part = 1,
            "=== elements ===" => part = 2,
            _ if line.starts_with("=== ") => part = 3,
            _ => match part {
                0 => head.push(line.to_string()),
                1 => markdown.push(line.to_string()),
                2 => elements.push(line.to_string()),
                _ => {}
            },
        }
    }
    let uid_of = |line: &str| line.split(' ').next().unwrap_or_default().to_string();
    let mut section = "";
    for line in changes.lines() {
        if let Some(s) = line.strip_prefix("=== text ") {
            section = if s.starts_with("added") {
                "added"
            } else {
                "removed"
            };
            continue;
        }
        match section {
            "added" => markdown.push(line.to_string()),
            "removed" => {
                if let Some(i) = markdown.iter().position(|l| l == line) {
                    markdown.remove(i);
                }
            }
            _ => {
                if let Some(e) = line.strip_prefix("+ ") {
                    elements.push(e.to_string());
                } else if let Some(e) = line.strip_prefix("~ ") {
                    let uid = uid_of(e);
                    match elements.iter().position(|l| uid_of(l) == uid) {
                        Some(i) => elements[i] = e.to_string(),
                        None => elements.push(e.to_string()),
                    }
                } else if let Some(gone) = line.strip_prefix("- ") {
                    let gone: Vec<&str> = gone.split(' ').collect();
                    elements.retain(|l| !gone.contains(&uid_of(l).as_str()));
                } else if let Some(url) = line.strip_prefix("url: ") {
                    set_head(&mut head, "url: ", url);
                } else if let Some(title) = line.strip_prefix("title: ") {
                    set_head(&mut head, "title: ", title);
                }
            }
        }
    }
    let mut out = head.join("\n");
    out.push_str("\n=== markdown ===\n");
    out.push_str(&markdown.join("\n"));
    if !elements.is_empty() {
        out.push_str("\n=== elements ===\n");
        out.push_str(&elements.join("\n"));
    }
    out
}

fn set_head(head: &mut Vec<String>, key: &str, value: &str) {
    match head.iter_mut().find(|l| l.starts_with(key)) {
        Some(l) => *l = format!("{key}{value}"),
        None => head.push(format!("{key}{value}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "url: http://a.test/\ntitle: A\nelements: 3\nin viewport: e0-e2\n=== markdown ===\n# A\n\
        2 results (7 total)\n[Home](e0 /)\n=== elements ===\ne1 textbox \"Email\"\ne2 button \"Send\"";

    #[test]
    fn changes_patch_the_elements_and_the_markdown_lines() {
        let result = "{\"clicked\":{}}\nchanges: 1 added, 1 changed, 1 removed; text: 1 line added, 1 removed\n\
            + e9 button \"Delete\"\n~ e1 textbox \"Email\" = \"a@b.c\"\n- e2\n=== text added ===\n\
            3 results (8 total)\n=== text removed ===\n2 results (7 total)";
        let After::Patched(page) = after(PAGE, result) else {
            panic!("not patched")
        };
        assert!(
            page.contains("\ne1 textbox \"Email\" = \"a@b.c\"\n"),
            "{page}"
        );
        assert!(page.ends_with("\ne9 button \"Delete\""), "{page}");
        assert!(!page.contains("Send"), "{page}");
        assert!(
            page.contains("3 results (8 total)") && !page.contains("2 results"),
            "{page}"
        );
    }

    #[test]
    fn a_view_replaces_the_page_and_no_changes_say_nothing() {
        let result = "{\"url\":\"x\"}\n=== page ===\nurl: http://b.test/\ntitle: B";
        assert!(
            matches!(after(PAGE, result), After::Page(p) if p.starts_with("url: http://b.test/"))
        );
        assert!(matches!(after(PAGE, "{\"ok\":true}"), After::Nothing));
        let none = "{}\nchanges: none (the page looks the same)";
        assert!(matches!(after(PAGE, none), After::Patched(p) if p == PAGE));
    }
}
