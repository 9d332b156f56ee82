//! Chrome's accessibility tree, read for the one thing the snapshot lacks: the `mixed` state of an
//! `indeterminate` checkbox (`Accessibility.getPartialAXTree`, [`AxTree::first_checked`]).

use bua_protocol::Checked;
use serde::Deserialize;

use super::element::{tristate, CHECKABLE_ROLES};

/// Why an AX tree could not be read.
#[derive(Debug, thiserror::Error)]
pub enum AxError {
    /// The value is not a list of CDP `Accessibility.AXNode`s.
    #[error("Accessibility.getFullAXTree nodes are malformed: {0}")]
    Json(#[from] serde_json::Error),
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawAxNode {
    role: Option<RawAxValue>,
    properties: Vec<RawAxProperty>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
struct RawAxValue {
    value: Option<serde_json::Value>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
struct RawAxProperty {
    name: String,
    value: RawAxValue,
}

impl RawAxValue {
    fn text(&self) -> Option<String> {
        match self.value.as_ref()? {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Number(n) => Some(n.to_string()),
            serde_json::Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }
}

impl RawAxNode {
    fn role(&self) -> String {
        self.role
            .as_ref()
            .and_then(RawAxValue::text)
            .unwrap_or_default()
    }

    fn prop(&self, name: &str) -> Option<&RawAxValue> {
        self.properties
            .iter()
            .find(|p| p.name == name)
            .map(|p| &p.value)
    }
}

/// The `nodes` of an `Accessibility.getPartialAXTree` answer (`getFullAXTree` has the same shape).
#[derive(Debug, Clone)]
pub struct AxTree {
    nodes: Vec<RawAxNode>,
}

impl AxTree {
    /// Parses a whole `Accessibility.getPartialAXTree` response (`{"nodes": [...]}`) given as JSON text.
    pub fn from_response_json(text: &str) -> Result<AxTree, AxError> {
        #[derive(Deserialize)]
        struct Response {
            nodes: Vec<RawAxNode>,
        }
        let r: Response = serde_json::from_str(text)?;
        Ok(AxTree { nodes: r.nodes })
    }

    /// The checked state of the first node of the tree when it has a checkbox-like role (the one
    /// node of an `Accessibility.getPartialAXTree` without relatives), else `None`.
    pub fn first_checked(&self) -> Option<Checked> {
        self.nodes.first().and_then(ax_checked)
    }
}

/// The checked state the AX node reports (its `checked` property: `"true"`, `"false"`, `"mixed"`, or
/// a boolean), for checkbox-like roles only; a missing property there means not checked.
fn ax_checked(node: &RawAxNode) -> Option<Checked> {
    let role = node.role().to_ascii_lowercase();
    if !CHECKABLE_ROLES.contains(&role.as_str()) {
        return None;
    }
    let value = node.prop("checked").and_then(|v| v.value.as_ref());
    Some(match value {
        Some(serde_json::Value::Bool(b)) => Checked::from_bool(*b),
        Some(serde_json::Value::String(s)) => tristate(s),
        _ => Checked::False,
    })
}
