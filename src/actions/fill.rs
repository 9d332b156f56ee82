//! `fill` (SPEC §4): several form fields in one action, in order, each written by the action for its kind —
//! a text field, textarea or contenteditable by `type` ([`TypeText`]), a `<select>` by `select_option`, a
//! checkbox, radio or switch by `check` — so a field is filled exactly as that action fills it, with its read
//! back. The first field that fails ends the action; its error names the field and the ones already filled.

use super::ctx::Ctx;
use super::handler::{Handler, Traits};
use crate::error::{Error, Result};
use bua_protocol::{
    Check, Click, DialogPolicy, ErrorBody, Fill, FillField, FillResult, FillValue, FilledField,
    Locator, OptionChoice, SelectOption, SetValue, TypeText,
};
use serde_json::Value;

/// What kind of field `this` is, for the action that fills it: `{kind: 'select', multiple, options:
/// [[value, label]…]}` (a `<select>`, its `<option>` or its `<label>`), `{kind: 'check'}` (a checkbox,
/// radio or switch, or its label), else `{kind: 'text'}` (`type` says what is wrong when it is none).
const KIND: &str = r#"function() {
  const el = this.localName === 'label' && this.control ? this.control : this;
  const sel = el.localName === 'option' ? el.closest('select') : el;
  if (sel && sel.localName === 'select')
    return { kind: 'select', multiple: sel.multiple, options: Array.from(sel.options).map(o => [o.value, o.label]) };
  const role = el.getAttribute('role') || '';
  if ((el.localName === 'input' && ['checkbox', 'radio'].includes(el.type))
      || ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role))
    return { kind: 'check' };
  return { kind: 'text' };
}"#;

/// The kind of a field, as [`KIND`] reads it.
#[derive(Debug, PartialEq)]
enum Kind {
    /// A `<select>`: whether it takes several options, and its options as (value, label).
    Select {
        multiple: bool,
        options: Vec<(String, String)>,
    },
    Check,
    Text,
}

impl Kind {
    fn read(v: &Value) -> Kind {
        match v.get("kind").and_then(Value::as_str) {
            Some("select") => Kind::Select {
                multiple: v.get("multiple").and_then(Value::as_bool) == Some(true),
                options: v
                    .get("options")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .map(|o| {
                        let s = |i: usize| o[i].as_str().unwrap_or_default().to_owned();
                        (s(0), s(1))
                    })
                    .collect(),
            },
            Some("check") => Kind::Check,
            _ => Kind::Text,
        }
    }
}

/// `fill {fields}`: each field in order; the result lists every field with its value read back.
///
/// Errors: the first field's error that fails (its code: locator errors, `invalid_action` for a disabled or
/// read-only field or a value of the wrong kind, `element_not_found` for a missing option, …), its message
/// prefixed by the field (`fields[2] (uid e9)`) and followed by the fields already filled.
impl Handler for Fill {
    type Output = FillResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<FillResult> {
        let mut filled = Vec::with_capacity(self.fields.len());
        for (i, field) in self.fields.iter().enumerate() {
            // Boxed: the three handlers' futures are large, and unoptimised builds copy them through the
            // wasm stack (as the router boxes every handler).
            match Box::pin(fill_one(ctx, field)).await {
                Ok(one) => filled.push(one),
                Err(e) => return Err(stopped(&self.fields, i, e)),
            }
        }
        // The form's button, clicked as `click` clicks it (a navigation it starts is waited for by
        // the click, and reported by the router as any action's).
        let clicked = match &self.submit {
            Some(locator) => {
                let click = Click {
                    locator: locator.clone(),
                    tab_id: Some(ctx.tab_id),
                    new_tab: false,
                    dialog: DialogPolicy::default(),
                };
                let done = Box::pin(click.run(ctx)).await;
                Some(done.map_err(|e| submit_failed(&filled, e))?.clicked)
            }
            None => None,
        };
        Ok(FillResult {
            filled,
            clicked,
            tab_id: ctx.tab_id,
        })
    }
}

/// Fills one field with the action for its kind and reads it back.
async fn fill_one(ctx: &Ctx, field: &FillField) -> Result<FilledField> {
    let element = ctx.locate(&field.locator).await?;
    let kind = Kind::read(&element.call(KIND, &[]).await?);
    let locator = field.locator.clone();
    let (tab_id, dialog) = (Some(ctx.tab_id), DialogPolicy::default());
    if field.secret.is_some() && kind != Kind::Text {
        return Err(Error::InvalidAction(
            "a secret is typed into a text field only; give this field a value".into(),
        ));
    }
    let (value, label) = match (&field.value, kind) {
        (FillValue::Checked(checked), _) => {
            let check = Check {
                locator,
                checked: *checked,
                tab_id,
                dialog,
            };
            (FillValue::Checked(check.run(ctx).await?.checked), None)
        }
        (wanted, Kind::Select { multiple, options }) => {
            let wanted = match wanted {
                FillValue::Many(many) => many.clone(),
                other => vec![text_of(other)],
            };
            let select = SelectOption {
                locator,
                choice: option_choice(wanted, &options),
                tab_id,
                dialog,
            };
            let selected = select.run(ctx).await?.selected;
            let (values, labels) = selected.into_iter().map(|o| (o.value, o.label)).unzip();
            (
                one_or_many(values, multiple),
                Some(one_or_many(labels, multiple)),
            )
        }
        (FillValue::Many(_), _) => return Err(Error::InvalidAction(
            "an array names the options of a <select multiple>, and this field is none; give it \
                 text (or true/false for a checkbox)"
                .into(),
        )),
        (FillValue::Text(text), Kind::Check) => {
            let checked = checked_word(text)?;
            let check = Check {
                locator,
                checked,
                tab_id,
                dialog,
            };
            (FillValue::Checked(check.run(ctx).await?.checked), None)
        }
        (FillValue::Text(text), Kind::Text) => {
            let typed = TypeText {
                locator: locator.clone(),
                text: text.clone(),
                secret: field.secret.clone(),
                secret_origins: field.secret_origins.clone(),
                clear: true,
                submit: false,
                tab_id,
                dialog: dialog.clone(),
            };
            let typed = typed.run(ctx).await?;
            // A page that refused some of the keys (a date picker taking only the characters of its own
            // format) left the field short of the value asked for, and a date or time input takes keys per
            // segment in the browser's locale, not its value's text: fill sets such a field as set_value
            // would, with input and change events, as a form filler does (SPEC §4).
            let segmented = typed
                .element
                .r#type
                .as_deref()
                .is_some_and(|t| SEGMENTED_INPUTS.contains(&t));
            let typed = typed.value;
            // A secret is never set another way: its read-back is the mask whatever the field made of it.
            let refused = segmented && typed != *text || keys_refused(text, &typed);
            let value = match refused && field.secret.is_none() {
                true => {
                    let set = SetValue {
                        locator,
                        value: text.clone(),
                        tab_id,
                        dialog,
                    };
                    set.run(ctx).await?.value
                }
                false => typed,
            };
            (FillValue::Text(value), None)
        }
    };
    let (uid, locator) = match &field.locator {
        Locator::Uid(uid) => (Some(uid.clone()), None),
        other => (None, Some(other.to_string())),
    };
    Ok(FilledField {
        uid,
        locator,
        value,
        label,
    })
}

/// Input types whose keys fill segments (day, month, hour…) in the browser's own order, not text.
const SEGMENTED_INPUTS: [&str; 5] = ["date", "time", "datetime-local", "month", "week"];

/// Whether typing `wanted` left `got`: some of its characters and nothing else, in order — keys the page
/// refused. A prefix is a field's length limit, which stands; a value with characters of its own is the
/// page's formatting (an input mask), which stands too.
fn keys_refused(wanted: &str, got: &str) -> bool {
    if got == wanted || wanted.starts_with(got) {
        return false;
    }
    let mut rest = wanted.chars();
    got.chars().all(|c| rest.any(|w| w == c))
}

fn text_of(value: &FillValue) -> String {
    match value {
        FillValue::Text(s) => s.clone(),
        FillValue::Checked(b) => b.to_string(),
        FillValue::Many(v) => v.join(", "),
    }
}

fn one_or_many(mut values: Vec<String>, multiple: bool) -> FillValue {
    match (multiple, values.len()) {
        (false, 1) => FillValue::Text(values.remove(0)),
        (false, 0) => FillValue::Text(String::new()),
        _ => FillValue::Many(values),
    }
}

/// A checkbox's value given as text: `"true"` or `"false"` (any case).
fn checked_word(text: &str) -> Result<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(Error::InvalidAction(format!(
            "it is a checkbox, radio or switch, which takes true or false, not {text:?}"
        ))),
    }
}

/// How `select_option` is to pick the wanted options: by label when every one is an option's label (as
/// extract shows them: whitespace collapsed, any case), else by value when every one is an option's value,
/// else by label (whose error lists the options).
fn option_choice(wanted: Vec<String>, options: &[(String, String)]) -> OptionChoice {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let is_label = |w: &String| options.iter().any(|(_, label)| norm(label) == norm(w));
    let is_value = |w: &String| options.iter().any(|(value, _)| value == w);
    if !wanted.iter().all(is_label) && wanted.iter().all(is_value) {
        OptionChoice::Value(wanted)
    } else {
        OptionChoice::Label(wanted)
    }
}

/// The error of `submit`'s click after every field was filled: its code, and that the fields stay filled.
fn submit_failed(filled: &[FilledField], error: Error) -> Error {
    let why = error.to_string();
    let message = format!(
        "fill filled its {} field(s), then the click on submit failed: {}; the fields stay filled: click \
         the form's button (or press_key Enter) instead of filling again",
        filled.len(),
        why.trim_end().trim_end_matches('.')
    );
    Error::from(ErrorBody::new(error.code(), message))
}

/// The error of the field at `at`: its code, its message after the field's index and locator, then what
/// `fill` had done and what it left.
fn stopped(fields: &[FillField], at: usize, error: Error) -> Error {
    let name = |i: usize| format!("fields[{i}] ({})", fields[i].locator);
    let done = if at == 0 {
        "nothing was filled".to_owned()
    } else {
        let names: Vec<String> = (0..at).map(name).collect();
        format!("already filled: {}", names.join(", "))
    };
    let left = match fields.len() - at - 1 {
        0 => String::new(),
        1 => format!("; fields[{}] was not touched", at + 1),
        _ => format!(
            "; fields[{}] to [{}] were not touched",
            at + 1,
            fields.len() - 1
        ),
    };
    let why = error.to_string();
    let message = format!(
        "fill stopped at {}: {}; {done}{left}; fix fields[{at}], then fill from it on",
        name(at),
        why.trim_end().trim_end_matches('.')
    );
    Error::from(ErrorBody::new(error.code(), message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bua_protocol::ErrorCode;

    fn options() -> Vec<(String, String)> {
        [
            ("fr", "France"),
            ("de", "Germany"),
            ("uk", "United  Kingdom"),
        ]
        .map(|(v, l)| (v.to_owned(), l.to_owned()))
        .to_vec()
    }

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn keys_a_page_refused_are_told_from_a_length_limit_and_a_mask() {
        assert!(keys_refused("2027-03-15T12:00:00Z", "2027031512:00:00"));
        assert!(!keys_refused("2027-03-15", "2027-03-15"));
        assert!(!keys_refused("abcdef", "abc"), "maxlength");
        assert!(
            !keys_refused("5551234", "(555) 1234"),
            "a mask adds its own characters"
        );
        assert!(
            !keys_refused("secret", crate::secret::MASK),
            "a masked password reads as the mask"
        );
    }

    #[test]
    fn an_option_is_picked_by_its_label_else_by_its_value() {
        let pick = |w: &[&str]| option_choice(strings(w), &options());
        assert_eq!(pick(&["France"]), OptionChoice::Label(strings(&["France"])));
        assert_eq!(
            pick(&["united kingdom"]),
            OptionChoice::Label(strings(&["united kingdom"]))
        );
        assert_eq!(pick(&["de"]), OptionChoice::Value(strings(&["de"])));
        assert_eq!(
            pick(&["fr", "uk"]),
            OptionChoice::Value(strings(&["fr", "uk"]))
        );
        // Neither all labels nor all values: by label, whose error lists the options.
        assert_eq!(
            pick(&["France", "de"]),
            OptionChoice::Label(strings(&["France", "de"]))
        );
        assert_eq!(pick(&["Spain"]), OptionChoice::Label(strings(&["Spain"])));
    }

    #[test]
    fn a_checkbox_takes_true_or_false_as_text() {
        assert_eq!(checked_word("true"), Ok(true));
        assert_eq!(checked_word(" FALSE "), Ok(false));
        let e = checked_word("yes please").unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidAction);
        assert!(e.to_string().contains("takes true or false"), "{e}");
    }

    #[test]
    fn the_kind_of_a_field_is_read_from_the_page() {
        let v =
            serde_json::json!({"kind": "select", "multiple": true, "options": [["fr", "France"]]});
        assert_eq!(
            Kind::read(&v),
            Kind::Select {
                multiple: true,
                options: vec![("fr".into(), "France".into())]
            }
        );
        assert_eq!(
            Kind::read(&serde_json::json!({"kind": "check"})),
            Kind::Check
        );
        assert_eq!(Kind::read(&serde_json::json!({})), Kind::Text);
    }

    fn field(locator: Locator) -> FillField {
        FillField {
            locator,
            value: FillValue::Text("x".into()),
            secret: None,
            secret_origins: None,
        }
    }

    #[test]
    fn a_failure_names_the_field_what_was_filled_and_what_was_not() {
        let fields = [
            field(Locator::uid("e3")),
            field(Locator::selector("#bio")),
            field(Locator::uid("e9")),
            field(Locator::uid("e10")),
            field(Locator::uid("e11")),
        ];
        let e = stopped(
            &fields,
            2,
            Error::InvalidAction("cannot type into the element: it is disabled".into()),
        );
        assert_eq!(e.code(), ErrorCode::InvalidAction);
        assert_eq!(
            e.to_string(),
            "fill stopped at fields[2] (uid e9): cannot type into the element: it is disabled; already \
             filled: fields[0] (uid e3), fields[1] (selector \"#bio\"); fields[3] to [4] were not touched; fix \
             fields[2], then fill from it on"
        );
        let e = stopped(&fields[..1], 0, Error::ElementStale("call extract.".into()));
        assert_eq!(e.code(), ErrorCode::ElementStale);
        assert_eq!(
            e.to_string(),
            "fill stopped at fields[0] (uid e3): call extract; nothing was filled; fix fields[0], then fill \
             from it on"
        );
    }
}
