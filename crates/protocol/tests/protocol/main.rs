//! Tests of the protocol crate: validation rules (each error names its field), envelopes,
//! the client envelope, results, the JSON Schema, and property tests.

mod actions;
mod envelopes;
mod props;
mod schema;
mod strategies;
mod v1;

use bua_protocol::{Action, ErrorBody, ErrorCode};
use serde_json::Value;

/// Parses an action that must be valid.
pub fn ok(v: Value) -> Action {
    match Action::from_value(&v) {
        Ok(a) => a,
        Err(e) => panic!("expected {v} to be valid, got {e}"),
    }
}

/// Parses an action that must be refused, checks the code, returns the message.
pub fn refused(v: Value) -> String {
    match Action::from_value(&v) {
        Ok(a) => panic!("expected {v} to be refused, got {a:?}"),
        Err(ErrorBody { code, message }) => {
            assert_eq!(code, ErrorCode::InvalidAction, "{message}");
            message
        }
    }
}

/// Asserts `v` is refused with a message containing every one of `parts`.
pub fn refused_with(v: Value, parts: &[&str]) {
    let msg = refused(v.clone());
    for p in parts {
        assert!(
            msg.contains(p),
            "message for {v} should contain {p:?}: {msg}"
        );
    }
}
