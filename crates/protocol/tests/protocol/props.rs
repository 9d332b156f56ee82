//! Property tests: valid messages round-trip; arbitrary bytes and mutated valid messages never
//! panic and are refused with `invalid_action` (or parse to a valid message that round-trips).

use crate::schema::{tool_validator, validator};
use crate::strategies::*;
use bua_protocol::*;
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Value};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A step into a JSON value.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    At(usize),
}

fn paths(v: &Value, prefix: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                prefix.push(Seg::Key(k.clone()));
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                prefix.push(Seg::At(i));
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    let mut cur = v;
    for seg in path {
        cur = match (seg, cur) {
            (Seg::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Seg::At(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// A value of a different JSON kind than `v`.
fn other_kind(v: &Value, pick: usize) -> Value {
    let candidates = [
        json!(null),
        json!(true),
        json!(-7),
        json!(2.5),
        json!("zz"),
        json!([1]),
        json!({"k": 1}),
    ];
    let same = |c: &Value| std::mem::discriminant(c) == std::mem::discriminant(v);
    let others: Vec<&Value> = candidates.iter().filter(|c| !same(c)).collect();
    others[pick % others.len()].clone()
}

#[derive(Clone, Debug)]
enum Mutation {
    Drop(Index),
    AddUnknown(Index),
    ChangeType(Index, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Drop),
        any::<Index>().prop_map(Mutation::AddUnknown),
        (any::<Index>(), 0usize..7).prop_map(|(i, k)| Mutation::ChangeType(i, k)),
    ]
}

/// Applies the mutation; returns the mutated value and the path it touched.
fn mutate(v: &Value, m: &Mutation) -> (Value, Vec<Seg>) {
    let mut out = v.clone();
    let mut all = Vec::new();
    paths(v, &mut Vec::new(), &mut all);
    match m {
        Mutation::Drop(i) => {
            // Only paths whose parent is an object (drop a field).
            let fields: Vec<&Vec<Seg>> = all
                .iter()
                .filter(|p| matches!(p.last(), Some(Seg::Key(_))))
                .collect();
            if fields.is_empty() {
                return (out, Vec::new());
            }
            let p = fields[i.index(fields.len())].clone();
            if let (Some(Seg::Key(k)), Some(Value::Object(parent))) =
                (p.last(), get_mut(&mut out, &p[..p.len() - 1]))
            {
                parent.remove(k);
            }
            (out, p)
        }
        Mutation::AddUnknown(i) => {
            let objects: Vec<&Vec<Seg>> = all
                .iter()
                .filter(|p| matches!(get_mut(&mut v.clone(), p), Some(Value::Object(_))))
                .collect();
            let p = objects[i.index(objects.len())].clone();
            if let Some(Value::Object(m)) = get_mut(&mut out, &p) {
                m.insert("zzUnknown".into(), json!(1));
            }
            (out, p)
        }
        Mutation::ChangeType(i, k) => {
            let p = all[i.index(all.len())].clone();
            if let Some(slot) = get_mut(&mut out, &p) {
                *slot = other_kind(slot, *k);
            }
            (out, p)
        }
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn every_valid_action_round_trips_through_json(a in action()) {
        let v = a.to_value();
        prop_assert_eq!(Action::from_value(&v), Ok(a.clone()), "{}", v);
        let text = a.to_json();
        let back: Action = serde_json::from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        prop_assert_eq!(back, a);
    }

    #[test]
    fn every_valid_action_validates_against_the_schema(a in action()) {
        let v = a.to_value();
        let errors: Vec<String> = validator().iter_errors(&v).map(|e| format!("{} at {}", e, e.instance_path)).collect();
        prop_assert!(errors.is_empty(), "{} → {:?}", v, errors);
        // The MCP tool's flat schema leaves rules to the validator but refuses nothing it accepts.
        let errors: Vec<String> = tool_validator().iter_errors(&v).map(|e| format!("{} at {}", e, e.instance_path)).collect();
        prop_assert!(errors.is_empty(), "tool schema: {} → {:?}", v, errors);
    }
}

proptest! {
    #![proptest_config(config(250))]

    #[test]
    fn valid_frames_round_trip(t in to_extension(), f in from_extension(), c in client_request()) {
        prop_assert_eq!(parse_to_extension(&t.to_json()), Ok(t.clone()));
        prop_assert_eq!(parse_from_extension(&f.to_json()), Ok(f.clone()));
        let text = c.to_json();
        prop_assert_eq!(parse_client_request(&text), Ok(c.clone()));
        prop_assert!(c.to_action().is_ok(), "{}", text);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_are_refused_as_invalid_action(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = lossy(&bytes);
        for r in [
            parse_to_extension(&text).map(|_| ()),
            parse_from_extension(&text).map(|_| ()),
            parse_client_request(&text).map(|_| ()),
            parse_to_client(&text).map(|_| ()),
        ] {
            if let Err(e) = r {
                prop_assert_eq!(e.error.code, ErrorCode::InvalidAction);
            }
        }
    }

    #[test]
    fn arbitrary_json_never_panics(v in arbitrary_json()) {
        let text = v.to_string();
        for r in [
            parse_to_extension(&text).map(|_| ()),
            parse_from_extension(&text).map(|_| ()),
            parse_client_request(&text).map(|_| ()),
            parse_to_client(&text).map(|_| ()),
            Action::from_value(&v).map(|_| ()).map_err(|error| FrameError { id: None, error }),
        ] {
            if let Err(e) = r {
                prop_assert_eq!(e.error.code, ErrorCode::InvalidAction);
            }
        }
    }

    #[test]
    fn mutated_bridge_frames_are_refused_or_still_valid(t in to_extension(), m in mutation()) {
        let (v, path) = mutate(&t.to_value(), &m);
        match parse_to_extension(&v.to_string()) {
            Err(e) => prop_assert_eq!(e.error.code, ErrorCode::InvalidAction, "{}", e),
            Ok(parsed) => {
                // An unknown field is never accepted in bridge → extension frames.
                prop_assert!(!matches!(m, Mutation::AddUnknown(_)), "accepted {} (added at {:?})", v, path);
                prop_assert_eq!(parse_to_extension(&parsed.to_json()), Ok(parsed));
            }
        }
    }

    #[test]
    fn mutated_extension_frames_are_refused_or_still_valid(f in from_extension(), m in mutation()) {
        let (v, path) = mutate(&f.to_value(), &m);
        match parse_from_extension(&v.to_string()) {
            Err(e) => prop_assert_eq!(e.error.code, ErrorCode::InvalidAction, "{}", e),
            Ok(parsed) => {
                // Unknown fields are tolerated only inside events (additions) and results (free-form).
                if matches!(m, Mutation::AddUnknown(_)) {
                    let inside_free = matches!(path.first(), Some(Seg::Key(k)) if k == "event" || k == "result");
                    prop_assert!(inside_free, "accepted {} (added at {:?})", v, path);
                }
                prop_assert_eq!(parse_from_extension(&parsed.to_json()), Ok(parsed));
            }
        }
    }

    #[test]
    fn mutated_client_requests_are_refused_or_still_valid(c in client_request(), m in mutation()) {
        let (v, _) = mutate(&serde_json::to_value(&c).unwrap_or_default(), &m);
        match parse_client_request(&v.to_string()) {
            Err(e) => prop_assert_eq!(e.error.code, ErrorCode::InvalidAction, "{}", e),
            Ok(parsed) => {
                if let Err(e) = parsed.to_action() {
                    prop_assert_eq!(e.code, ErrorCode::InvalidAction);
                }
                prop_assert_eq!(parse_client_request(&parsed.to_json()), Ok(parsed));
            }
        }
    }

    #[test]
    fn mutated_actions_are_refused_or_valid_and_agree_with_the_schema(a in action(), m in mutation()) {
        let (v, path) = mutate(&a.to_value(), &m);
        match Action::from_value(&v) {
            Err(e) => {
                prop_assert_eq!(e.code, ErrorCode::InvalidAction);
                // The schema refuses it too (it is no looser than the validator)...
                // except for a JSON null, which the validator reads as "omitted".
                let has_null = v.to_string().contains("null");
                if !has_null {
                    prop_assert!(!validator().is_valid(&v), "schema accepts {} refused by validator: {}", v, e.message);
                }
            }
            Ok(parsed) => {
                prop_assert!(!matches!(m, Mutation::AddUnknown(_)), "accepted {} (added at {:?})", v, path);
                let canon = parsed.to_value();
                prop_assert!(validator().is_valid(&canon), "canonical {} not schema-valid", canon);
                prop_assert_eq!(Action::from_value(&canon), Ok(parsed));
            }
        }
    }
}

/// One of the protocol's `words` or a string matching the regex `other`, each choice as likely as one
/// word (so the words, which the parsers look for, come up most of the time).
fn word_or(words: &'static [&'static str], other: &'static str) -> impl Strategy<Value = String> {
    let weight = u32::try_from(words.len()).unwrap_or(u32::MAX);
    prop_oneof![
        weight => proptest::sample::select(words).prop_map(str::to_owned),
        1 => other,
    ]
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        word_or(
            &["type", "click", "request", "e1", "hello", "response"],
            "[ -~]{0,8}"
        )
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map(
                word_or(
                    &[
                        "type", "id", "action", "uid", "selector", "index", "tabId", "error",
                        "event", "result", "method", "params",
                    ],
                    "[a-z]{1,6}"
                ),
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
