//! The details an agent asks for with `{"type":"help","action":"…"}` (SPEC §9 "Tool definition"): the
//! tool definition carries one line per action, and this text carries the rest — every parameter with
//! its type and description, the locator rule, the bridge's timeout — all rendered from the action
//! table's strict schema branch, so it cannot drift from what [`crate::Action::from_value`] accepts.
//! `help` without an action gives every error code and what to do about it ([`crate::ErrorCode::advice`]).

use serde_json::Value;

use crate::action::{action_names, timeout_words};
use crate::schema::{action_summaries, strict_branch, HELP_ACTION_KEY, HELP_TYPE};
use crate::ErrorCode;

/// The details of the action named `name`, or `None` for a name that is not an action.
///
/// Shape: its summary line, then `Parameters:` with one `- key (shape[, required]): description`
/// line each, the locator rule when it takes one, and `Timeout: …`.
pub fn action_help(name: &str) -> Option<String> {
    let branch = strict_branch(name)?;
    let summary = action_summaries()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, line)| line)?;
    let mut out = format!("{summary}\nParameters:\n");
    let required: Vec<&str> = branch["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let props = branch["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    for (key, schema) in &props {
        if key == "type" {
            continue;
        }
        let need = if required.contains(&key.as_str()) {
            ", required"
        } else {
            ""
        };
        let description = schema["description"].as_str().unwrap_or_default();
        out.push_str(&format!(
            "- {key} ({}{need}): {description}\n",
            shape(schema)
        ));
    }
    if props.len() <= 1 {
        out.push_str("- (none)\n");
    }
    if summary.contains("(locator") {
        out.push_str(
            "Locator: exactly one of uid, selector, text, xpath (or a nested `locator` object of the same keys); \
             index picks the n-th match of selector/text/xpath, never with uid.\n",
        );
    }
    if let Some(timeout) = timeout_words(name) {
        out.push_str(&format!("Timeout: {timeout}.\n"));
    }
    Some(out)
}

/// `help` without an action: how to ask for details, and every error code with what to do next.
pub fn errors_help() -> String {
    let mut out = format!(
        "Details of one action: {{\"type\":\"{HELP_TYPE}\",\"{HELP_ACTION_KEY}\":\"<name>\"}} (actions: {}).\nError codes (a tool error is {{\"code\",\"message\"}}; the message says what to do next):\n",
        action_names().join(", ")
    );
    for code in ErrorCode::all() {
        out.push_str(&format!("- {}: {}\n", code.as_str(), code.advice()));
    }
    out
}

/// A property's shape in a few words: `string`, `integer ≥ 0`, `"accept"|"dismiss"`, `array of string`, …
fn shape(schema: &Value) -> String {
    if let Some(values) = schema["enum"].as_array() {
        return values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join("|");
    }
    if let Some(alts) = schema["anyOf"].as_array() {
        return alts.iter().map(shape).collect::<Vec<_>>().join(" or ");
    }
    let kind = schema["type"].as_str().unwrap_or("any");
    match kind {
        "array" => format!("array of {}", shape(&schema["items"])),
        "integer" | "number" => match (schema["minimum"].as_i64(), schema["maximum"].as_i64()) {
            (Some(lo), Some(hi)) => format!("{kind} {lo}..{hi}"),
            (Some(lo), None) => format!("{kind} ≥ {lo}"),
            _ => kind.to_owned(),
        },
        _ => kind.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_details_naming_each_of_its_fields() {
        for name in action_names() {
            let text = action_help(name).expect(name);
            assert!(text.starts_with(&format!("{name}(")), "{text}");
            let branch = strict_branch(name).unwrap_or_default();
            let keys = branch["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            for key in keys.keys().filter(|k| *k != "type") {
                assert!(
                    text.contains(&format!("\n- {key} (")),
                    "{name}: {key}: {text}"
                );
            }
            assert!(text.contains("Timeout: "), "{text}");
        }
        assert!(action_help("fly").is_none());
        let click = action_help("click").unwrap_or_default();
        assert!(
            click.contains("- uid (string): From the latest extract"),
            "{click}"
        );
        assert!(click.contains("Timeout: 10 s."), "{click}");
    }

    #[test]
    fn help_without_an_action_gives_every_error_code() {
        let text = errors_help();
        for code in ErrorCode::all() {
            assert!(text.contains(&format!("\n- {}: ", code.as_str())), "{text}");
        }
    }
}
