//! The scripted agent: one for all three tools. It turns each intent into the calls of one tool and
//! finds targets only in the text that tool returned (parsed by [`super::text`]). It keeps the latest
//! page text it has; an action whose result carries a page view (Chrome DevTools MCP's
//! `includeSnapshot: true`, ours after a navigation) replaces it with that view, ours' `changes` are
//! applied to it ([`super::patch`]); an action that left the page (ours says
//! `navigated`, Playwright MCP's result gives the new URL) makes it obsolete; when a target is not in
//! the text it has, or it must see the page (an `expect`), it makes the tool's read call (ours
//! `extract`, Playwright MCP `browser_snapshot`, DevTools MCP `take_snapshot`). Each tool gets its
//! best options ([`plan`]): consecutive form fields in one form fill (all three), ours' `fill` also
//! clicking the form's button, typing sent with Enter in one call (ours, Playwright MCP), DevTools'
//! snapshot with each action, Playwright's key-by-key typing where the page listens for keys.

use std::time::Duration;

use serde_json::{json, Value};

mod calls;

use super::formats;
use super::list::Intent;
use super::patch::{self, After};
use super::text::{Node, Page, Role, Target};
use crate::mcp::McpServer;
use crate::peers::Tool;

/// One tool call as the agent made it.
#[derive(Debug, Clone)]
pub struct Call {
    /// The tool (for ours the action type).
    pub name: String,
    /// Its arguments.
    pub args: Value,
    /// ms from request to answer.
    pub ms: f64,
    /// The result's text: what the model reads.
    pub text: String,
    /// The call failed (a tool error or no answer).
    pub failed: bool,
}

/// One tool's agent.
pub struct Agent<'a> {
    tool: Tool,
    server: &'a mut McpServer,
    /// DevTools MCP's page id.
    devtools_page: i64,
    timeout: Duration,
    /// The latest page text, parsed; empty when obsolete.
    page: Page,
    /// `page` was read (or came with an action) after the last action.
    fresh: bool,
    /// Playwright MCP's last page URL (its results say it).
    url: String,
    /// Ours lists a `fill` action in its schema.
    ours_fill: bool,
    /// The calls of the current task.
    pub calls: Vec<Call>,
    /// What the agent noticed the text lacked (an expected text, a target).
    pub notes: Vec<String>,
}

/// A step that could not go on.
type Step = Result<(), String>;

/// One move of the agent: an intent, or several that the tool does in one call ([`plan`]).
enum Move<'s> {
    One(&'s Intent),
    /// Fields filled in one call, then (ours' `submit`) a button clicked.
    Fill(Vec<(Target, &'static str)>, Option<&'s Target>),
    TypeAndEnter(&'s Target, &'static str),
}

impl<'a> Agent<'a> {
    /// An agent for `tool` on `server`; `ours_fill` when our schema lists `fill`.
    pub fn new(
        tool: Tool,
        server: &'a mut McpServer,
        devtools_page: i64,
        timeout: Duration,
        ours_fill: bool,
    ) -> Agent<'a> {
        Agent {
            tool,
            server,
            devtools_page,
            timeout,
            page: Page::default(),
            fresh: false,
            url: String::new(),
            ours_fill,
            calls: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Runs the steps of one task; stops at the first step that cannot go on (the reason is in
    /// `notes`). The calls are in `calls`.
    pub async fn run(&mut self, base: &str, steps: &[Intent]) {
        self.calls.clear();
        self.notes.clear();
        let mut at = 0;
        while at < steps.len() {
            let (move_, intents) = plan(self.tool, self.ours_fill, &steps[at..]);
            at += intents;
            let Err(why) = self.step(base, &move_).await else {
                continue;
            };
            // A failed action: a model reads the page again and retries once with what it sees
            // (a stale uid, a page that had not finished loading).
            let retry = why.contains(" failed: ") && !matches!(move_, Move::One(Intent::Open(_)));
            self.notes.push(why);
            if !retry {
                return;
            }
            let again = match self.read().await {
                Ok(()) => self.step(base, &move_).await,
                Err(e) => Err(e),
            };
            if let Err(why) = again {
                self.notes.push(why);
                return;
            }
        }
    }

    async fn step(&mut self, base: &str, move_: &Move<'_>) -> Step {
        let step = match move_ {
            Move::One(step) => *step,
            Move::Fill(fields, button) => return self.fill(fields, *button).await,
            Move::TypeAndEnter(target, text) => {
                let node = self.resolve(target).await?;
                return self.type_and_enter(target, &node, text).await;
            }
        };
        match step {
            Intent::Open(path) => self.open(&format!("{base}{path}")).await,
            Intent::Type { target, text, keys } => {
                let node = self.resolve(target).await?;
                self.type_into(target, &node, text, *keys).await
            }
            Intent::Fill(fields) => self.fill(fields, None).await,
            Intent::Click(target) => {
                let node = self.resolve(target).await?;
                self.click(target, &node).await
            }
            Intent::Select(target, option) => self.select(target, option).await,
            Intent::Check(target, on) => {
                let node = self.resolve(target).await?;
                self.check(target, &node, *on).await
            }
            Intent::Press(key) => {
                let args = match self.tool {
                    Tool::Ours => json!({"type": "press_key", "key": key}),
                    Tool::Playwright => json!({"key": key}),
                    Tool::DevTools => json!({"key": key, "includeSnapshot": true}),
                };
                self.act(["press_key", "browser_press_key", "press_key"], args)
                    .await
            }
            Intent::Expect(text) => self.expect(text).await,
        }
    }

    /// Calls the tool; a failure is returned as its text. Every call is recorded.
    async fn call(&mut self, name: &str, args: Value) -> Result<String, String> {
        let mut args = args;
        if self.tool == Tool::DevTools && name != "list_pages" {
            args["pageId"] = json!(self.devtools_page);
        }
        let (tool_name, label) = match self.tool {
            Tool::Ours => (
                "browser",
                args["type"].as_str().unwrap_or("browser").to_string(),
            ),
            _ => (name, name.to_string()),
        };
        let started = std::time::Instant::now();
        let answer = self
            .server
            .call(tool_name, args.clone(), self.timeout)
            .await;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let (text, failed) = match answer {
            Ok(r) => (r.text, r.is_error),
            Err(e) => (e.to_string(), true),
        };
        self.calls.push(Call {
            name: label.clone(),
            args,
            ms,
            text: text.clone(),
            failed,
        });
        if failed {
            let short: String = text.chars().take(200).collect();
            return Err(format!("{label} failed: {short}"));
        }
        Ok(inside_boundary(self.tool, &text).to_string())
    }

    /// The tool's read call; its text becomes the page.
    async fn read(&mut self) -> Step {
        let (name, args) = match self.tool {
            Tool::Ours => ("extract", json!({"type": "extract"})),
            Tool::Playwright => ("browser_snapshot", json!({})),
            Tool::DevTools => ("take_snapshot", json!({})),
        };
        let text = self.call(name, args.clone()).await?;
        self.set_page(&text);
        // A page still loading reads as nothing to act on: a model would read it again.
        if !self.page.nodes.iter().any(|n| !n.id.is_empty()) {
            self.notes.push(format!(
                "{name} read a page with nothing to act on; read again"
            ));
            tokio::time::sleep(Duration::from_millis(300)).await;
            let text = self.call(name, args).await?;
            self.set_page(&text);
        }
        Ok(())
    }

    fn set_page(&mut self, text: &str) {
        self.page = formats::parse(self.tool, text);
        self.fresh = true;
        if let Some(url) = page_url(text) {
            self.url = url;
        }
    }

    /// An action: names per tool (ours, Playwright, DevTools); what its result says about the page.
    async fn act(&mut self, names: [&str; 3], args: Value) -> Step {
        let name = names[self.tool as usize];
        let text = self.call(name, args).await?;
        self.after_action(&text);
        Ok(())
    }

    fn after_action(&mut self, text: &str) {
        self.fresh = false;
        // Ours' result says what the action changed, or gives the new page: the page text is kept current
        // from it, as a model reading the result would.
        if self.tool == Tool::Ours {
            match patch::after(&self.page.text, text) {
                After::Page(page) | After::Patched(page) => return self.set_page(&page),
                After::Nothing => {}
            }
        }
        // A result that carries the page as it is now (DevTools MCP with includeSnapshot; ours or
        // Playwright MCP, should their action results ever carry a view inline) replaces the text.
        let view = match self.tool {
            Tool::Ours => "=== elements ===",
            Tool::Playwright => "```yaml",
            Tool::DevTools => "\nuid=",
        };
        if text.contains(view) {
            self.set_page(text);
            return;
        }
        match self.tool {
            Tool::Ours if text.contains("\"navigated\"") => self.page = Page::default(),
            Tool::Playwright => {
                if let Some(url) = page_url(text) {
                    if url != self.url {
                        self.page = Page::default();
                        self.url = url;
                    }
                }
            }
            _ => {}
        }
    }

    /// The target in the text the agent has, else in a new read.
    async fn resolve(&mut self, target: &Target) -> Result<Node, String> {
        if let Some(node) = self.page.find(target) {
            return Ok(node.clone());
        }
        if !self.fresh {
            self.read().await?;
            if let Some(node) = self.page.find(target) {
                return Ok(node.clone());
            }
        }
        Err(format!("not in the text: {}", target.describe()))
    }

    async fn expect(&mut self, wanted: &str) -> Step {
        if !self.fresh {
            self.read().await?;
        }
        if !self.page.shows(wanted) {
            // Perhaps still loading: one more look.
            tokio::time::sleep(Duration::from_millis(300)).await;
            self.read().await?;
        }
        if !self.page.shows(wanted) {
            self.notes
                .push(format!("the text did not show \"{wanted}\""));
        }
        Ok(())
    }
}

/// What the agent does next for `steps` (the rest of the task), and how many intents that carries out.
/// A model that can fill a form in one call does: consecutive fields become one fill (ours' `fill`,
/// both peers' form fill), and where the tool can also click the form's button in that call (ours'
/// `fill` with `submit`), the click on a button that follows joins it; a field typed and sent with Enter is one
/// call where the tool types with `submit` (ours' `type`, Playwright MCP's `browser_type`).
fn plan(tool: Tool, ours_fill: bool, steps: &[Intent]) -> (Move<'_>, usize) {
    let mut fields = Vec::new();
    let mut taken = 0;
    while let Some(more) = steps.get(taken).and_then(|s| fields_of(tool, ours_fill, s)) {
        fields.extend(more);
        taken += 1;
    }
    // One field alone is written by its own action, unless a click joins it.
    let alone = fields.len() < 2 && !matches!(steps.first(), Some(Intent::Fill(_)));
    match steps.get(taken) {
        Some(Intent::Click(button))
            if taken > 0 && tool == Tool::Ours && button.role == Role::Button =>
        {
            return (Move::Fill(fields, Some(button)), taken + 1)
        }
        _ if taken > 0 && !alone => return (Move::Fill(fields, None), taken),
        _ => {}
    }
    match (&steps[0], steps.get(1), tool) {
        (
            Intent::Type {
                target,
                text,
                keys: false,
            },
            Some(Intent::Press("Enter")),
            Tool::Ours | Tool::Playwright,
        ) => (Move::TypeAndEnter(target, text), 2),
        _ => (Move::One(&steps[0]), 1),
    }
}

/// The form fields `step` writes, when the tool's form fill can write them: text typed at once
/// (not key by key), checkboxes, a combobox's option — and for ours, whose `fill` selects in any
/// `<select>`, a list box's.
fn fields_of(tool: Tool, ours_fill: bool, step: &Intent) -> Option<Vec<(Target, &'static str)>> {
    if tool == Tool::Ours && !ours_fill {
        return None;
    }
    let field = match step {
        Intent::Fill(fields) => return Some(fields.clone()),
        Intent::Type {
            target,
            text,
            keys: false,
        } => (target.clone(), *text),
        Intent::Check(target, on) => (target.clone(), if *on { "true" } else { "false" }),
        Intent::Select(target, option)
            if target.role == Role::Combobox
                || (target.role == Role::Listbox && tool == Tool::Ours) =>
        {
            (target.clone(), *option)
        }
        _ => return None,
    };
    Some(vec![field])
}

/// What a model reads of a result: ours wraps the page in its boundary (SPEC §9 "Boundaries"),
/// `<<<page ORIGIN nonce=N>>>` … `<<<end page nonce=N>>>`, and the page is what is inside.
fn inside_boundary(tool: Tool, text: &str) -> &str {
    match bua_protocol::text::boundary::unwrap(text) {
        Some((_, _, inner)) if tool == Tool::Ours => inner,
        _ => text,
    }
}

/// The page URL a result states: Playwright MCP's `- Page URL: …`, ours' `url: …`.
fn page_url(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        l.strip_prefix("- Page URL: ")
            .or_else(|| l.strip_prefix("url: "))
            .map(|u| u.trim().to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::text::{Role, Target};

    fn check(name: &'static str) -> Intent {
        Intent::Check(Target::new(Role::Checkbox, name), true)
    }

    /// The rows of a bulk action: two ticks, the action's select, its button.
    fn bulk() -> Vec<Intent> {
        vec![
            check("bob"),
            check("bobby"),
            Intent::Select(Target::new(Role::Combobox, "Action"), "Delete"),
            Intent::Click(Target::new(Role::Button, "Go")),
        ]
    }

    #[test]
    fn ours_is_read_inside_its_boundary_and_still_names_its_targets() {
        let page = "url: http://a.test/\ntitle: A\n=== markdown ===\n# A\n=== elements ===\ne1 button \"Send\"";
        let text = bua_protocol::text::boundary::wrap("http://a.test", "0123456789ab", page);
        let inner = inside_boundary(Tool::Ours, &text);
        assert_eq!(inner, page);
        assert_eq!(page_url(inner).as_deref(), Some("http://a.test/"));
        let parsed = formats::parse(Tool::Ours, inner);
        assert!(parsed.nodes.iter().any(|n| n.id == "e1"), "{parsed:?}");
        assert_eq!(inside_boundary(Tool::Playwright, &text), text);
    }

    #[test]
    fn consecutive_fields_are_one_fill_and_ours_clicks_the_button_in_it() {
        let steps = bulk();
        let (ours, n) = plan(Tool::Ours, true, &steps);
        assert!(matches!(ours, Move::Fill(ref f, Some(b)) if f.len() == 3 && b.name == "Go"));
        assert_eq!(n, 4);
        for peer in [Tool::Playwright, Tool::DevTools] {
            let (m, n) = plan(peer, true, &steps);
            assert!(matches!(m, Move::Fill(ref f, None) if f.len() == 3));
            assert_eq!(n, 3);
        }
        // Without ours' fill, one action per intent.
        assert!(matches!(plan(Tool::Ours, false, &steps), (Move::One(_), 1)));
    }

    #[test]
    fn one_field_is_its_own_action_unless_a_button_or_enter_joins_it() {
        let tick = [check("bob"), Intent::Expect("done")];
        for tool in [Tool::Ours, Tool::Playwright, Tool::DevTools] {
            assert!(matches!(plan(tool, true, &tick), (Move::One(_), 1)));
        }
        let search = [
            Intent::Type {
                target: Target::new(Role::Textbox, "Search"),
                text: "bob",
                keys: false,
            },
            Intent::Press("Enter"),
        ];
        assert!(matches!(
            plan(Tool::Ours, true, &search),
            (Move::TypeAndEnter(..), 2)
        ));
        assert!(matches!(
            plan(Tool::Playwright, true, &search),
            (Move::TypeAndEnter(..), 2)
        ));
        assert!(matches!(
            plan(Tool::DevTools, true, &search),
            (Move::One(_), 1)
        ));
        // A link after a field is not the form's button.
        let link = [
            check("bob"),
            Intent::Click(Target::new(Role::Link, "Today")),
        ];
        assert!(matches!(plan(Tool::Ours, true, &link), (Move::One(_), 1)));
    }
}
