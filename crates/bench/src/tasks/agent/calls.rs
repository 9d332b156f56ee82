//! Each intent as the calls of one tool (module doc of [`super`]): ours one `browser` action per
//! call, Playwright MCP's `browser_*` tools with its refs, Chrome DevTools MCP's tools with its uids and
//! `includeSnapshot: true`.

use serde_json::{json, Value};

use super::{page_url, Agent, Step};
use crate::peers::Tool;
use crate::tasks::text::{self, Node, Page, Role, Target};

impl Agent<'_> {
    pub(super) async fn open(&mut self, url: &str) -> Step {
        self.page = Page::default();
        let args = match self.tool {
            Tool::Ours => json!({"type": "navigate", "url": url}),
            Tool::Playwright => json!({"url": url}),
            Tool::DevTools => json!({"type": "url", "url": url}),
        };
        let text = self
            .call(
                ["navigate", "browser_navigate", "navigate_page"][self.tool as usize],
                args,
            )
            .await?;
        // A navigation whose result carries the new page (ours' `view`; Playwright MCP's snapshot when
        // it is inline) is read from it.
        self.after_action(&text);
        if let Some(u) = page_url(&text) {
            self.url = u;
        }
        Ok(())
    }

    pub(super) async fn type_into(
        &mut self,
        target: &Target,
        node: &Node,
        text: &str,
        keys: bool,
    ) -> Step {
        match self.tool {
            Tool::Ours => {
                let args = json!({"type": "type", "uid": node.id, "text": text});
                self.act(["type", "", ""], args).await
            }
            Tool::Playwright => {
                let mut args =
                    json!({"element": target.describe(), "target": node.id, "text": text});
                if keys {
                    args["slowly"] = json!(true);
                }
                self.act(["", "browser_type", ""], args).await
            }
            // DevTools' fill sets the value at once; where the page listens for keys, focus the field
            // and type the keys.
            Tool::DevTools if keys => {
                self.act(["", "", "click"], json!({"uid": node.id})).await?;
                self.act(["", "", "type_text"], json!({"text": text})).await
            }
            Tool::DevTools => {
                let args = json!({"uid": node.id, "value": text, "includeSnapshot": true});
                self.act(["", "", "fill"], args).await
            }
        }
    }

    /// The fields in one call where the tool can; `button` (ours only: `fill`'s `submit`) clicked in
    /// the same call.
    pub(super) async fn fill(
        &mut self,
        fields: &[(Target, &'static str)],
        button: Option<&Target>,
    ) -> Step {
        let mut nodes = Vec::new();
        for (target, _) in fields {
            nodes.push(self.resolve(target).await?);
        }
        match self.tool {
            Tool::Ours if !self.ours_fill => {
                for ((target, value), node) in fields.iter().zip(&nodes) {
                    match target.role {
                        Role::Checkbox => self.check(target, node, *value == "true").await?,
                        Role::Combobox | Role::Listbox => self.select_node(node, value).await?,
                        _ => self.type_into(target, node, value, false).await?,
                    }
                }
                Ok(())
            }
            Tool::Ours => {
                let mut args = json!({"type": "fill", "fields": uid_values(fields, &nodes)});
                if let Some(button) = button {
                    args["submit"] = json!({"uid": self.resolve(button).await?.id});
                }
                self.act(["fill", "", ""], args).await
            }
            Tool::Playwright => {
                let list: Vec<Value> = fields
                    .iter()
                    .zip(&nodes)
                    .map(|((target, value), node)| {
                        json!({"element": target.describe(), "target": node.id,
                               "name": target.describe(), "type": target.role.word(), "value": value})
                    })
                    .collect();
                self.act(["", "browser_fill_form", ""], json!({"fields": list}))
                    .await
            }
            Tool::DevTools => {
                let list = uid_values(fields, &nodes);
                let args = json!({"elements": list, "includeSnapshot": true});
                self.act(["", "", "fill_form"], args).await
            }
        }
    }

    /// Typing that ends with Enter, in one call: ours' `type` and Playwright MCP's `browser_type` with
    /// `submit`.
    pub(super) async fn type_and_enter(
        &mut self,
        target: &Target,
        node: &Node,
        text: &str,
    ) -> Step {
        let args = match self.tool {
            Tool::Ours => json!({"type": "type", "uid": node.id, "text": text, "submit": true}),
            _ => {
                json!({"element": target.describe(), "target": node.id, "text": text, "submit": true})
            }
        };
        self.act(["type", "browser_type", ""], args).await
    }

    pub(super) async fn click(&mut self, target: &Target, node: &Node) -> Step {
        let args = match self.tool {
            Tool::Ours => json!({"type": "click", "uid": node.id}),
            Tool::Playwright => json!({"element": target.describe(), "target": node.id}),
            Tool::DevTools => json!({"uid": node.id, "includeSnapshot": true}),
        };
        self.act(["click", "browser_click", "click"], args).await
    }

    /// Ours' `select_option` by label (the adapter for ours and for ours' per-field fill).
    pub(super) async fn select_node(&mut self, node: &Node, option: &str) -> Step {
        let args = json!({"type": "select_option", "uid": node.id, "label": option});
        self.act(["select_option", "", ""], args).await
    }

    pub(super) async fn select(&mut self, target: &Target, option: &str) -> Step {
        let node = self.resolve(target).await?;
        match self.tool {
            Tool::Ours => self.select_node(&node, option).await,
            Tool::Playwright => {
                let args =
                    json!({"element": target.describe(), "target": node.id, "values": [option]});
                self.act(["", "browser_select_option", ""], args).await
            }
            // DevTools MCP selects a combobox's option with fill; a list box's option is clicked.
            Tool::DevTools if target.role == Role::Combobox => {
                let args = json!({"uid": node.id, "value": option, "includeSnapshot": true});
                self.act(["", "", "fill"], args).await
            }
            Tool::DevTools => {
                let Some(item) = self.page.option_in(&node, option).cloned() else {
                    return Err(format!(
                        "not in the text: option \"{option}\" of {}",
                        target.describe()
                    ));
                };
                let args = json!({"uid": item.id, "includeSnapshot": true});
                self.act(["", "", "click"], args).await
            }
        }
    }

    pub(super) async fn check(&mut self, target: &Target, node: &Node, on: bool) -> Step {
        match self.tool {
            Tool::Ours => {
                let args = json!({"type": "check", "uid": node.id, "checked": on});
                self.act(["check", "", ""], args).await
            }
            // The peers have no check tool: click when the text shows the other state.
            _ if text::is_checked(node) == on => Ok(()),
            _ => self.click(target, node).await,
        }
    }
}

/// `[{uid, value}]` for `fill`'s fields, each with the node it resolved to: the shape ours and Chrome
/// DevTools MCP both take.
fn uid_values(fields: &[(Target, &'static str)], nodes: &[Node]) -> Vec<Value> {
    fields
        .iter()
        .zip(nodes)
        .map(|((_, value), node)| json!({"uid": node.id, "value": value}))
        .collect()
}
