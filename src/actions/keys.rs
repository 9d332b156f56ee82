//! `KeyboardEvent.key` values → the fields of CDP `Input.dispatchKeyEvent` (US layout), pure so it is
//! tested natively. Named keys are matched case-insensitively with the usual aliases (`Esc`, `Return`,
//! `Up`, `Space`, …); any single character is a key of its own.

use crate::cdp::commands::InputDispatchKeyEvent;
use bua_protocol::Modifier;

/// One key as CDP wants it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyDef {
    /// `KeyboardEvent.key`, e.g. `"Enter"`, `"a"`, `"ArrowDown"`.
    pub key: String,
    /// `KeyboardEvent.code`, e.g. `"Enter"`, `"KeyA"` (empty for characters off the US layout).
    pub code: String,
    /// `windowsVirtualKeyCode` (= legacy `keyCode`), 0 when unknown.
    pub key_code: u32,
    /// The text the key produces, if any (`"\r"` for Enter): sent as `keyDown` with text, which makes
    /// `keypress`/`input` happen (and implicit form submission for Enter).
    pub text: Option<String>,
    /// `KeyboardEvent.location` (1 = left modifier).
    pub location: u32,
}

const NAMED: &[(&str, &str, u32, Option<&str>)] = &[
    ("Enter", "Enter", 13, Some("\r")),
    ("Tab", "Tab", 9, None),
    ("Backspace", "Backspace", 8, None),
    ("Delete", "Delete", 46, None),
    ("Escape", "Escape", 27, None),
    ("ArrowLeft", "ArrowLeft", 37, None),
    ("ArrowUp", "ArrowUp", 38, None),
    ("ArrowRight", "ArrowRight", 39, None),
    ("ArrowDown", "ArrowDown", 40, None),
    ("Home", "Home", 36, None),
    ("End", "End", 35, None),
    ("PageUp", "PageUp", 33, None),
    ("PageDown", "PageDown", 34, None),
    ("Insert", "Insert", 45, None),
    ("CapsLock", "CapsLock", 20, None),
    ("ContextMenu", "ContextMenu", 93, None),
    ("Shift", "ShiftLeft", 16, None),
    ("Control", "ControlLeft", 17, None),
    ("Alt", "AltLeft", 18, None),
    ("Meta", "MetaLeft", 91, None),
    ("F1", "F1", 112, None),
    ("F2", "F2", 113, None),
    ("F3", "F3", 114, None),
    ("F4", "F4", 115, None),
    ("F5", "F5", 116, None),
    ("F6", "F6", 117, None),
    ("F7", "F7", 118, None),
    ("F8", "F8", 119, None),
    ("F9", "F9", 120, None),
    ("F10", "F10", 121, None),
    ("F11", "F11", 122, None),
    ("F12", "F12", 123, None),
];

const ALIASES: &[(&str, &str)] = &[
    ("esc", "Escape"),
    ("return", "Enter"),
    ("up", "ArrowUp"),
    ("down", "ArrowDown"),
    ("left", "ArrowLeft"),
    ("right", "ArrowRight"),
    ("del", "Delete"),
    ("ctrl", "Control"),
    ("cmd", "Meta"),
    ("command", "Meta"),
    ("option", "Alt"),
    ("pgup", "PageUp"),
    ("pgdn", "PageDown"),
];

/// US-layout punctuation: (unshifted, shifted, code, keyCode).
const PUNCTUATION: &[(char, char, &str, u32)] = &[
    ('`', '~', "Backquote", 192),
    ('-', '_', "Minus", 189),
    ('=', '+', "Equal", 187),
    ('[', '{', "BracketLeft", 219),
    (']', '}', "BracketRight", 221),
    ('\\', '|', "Backslash", 220),
    (';', ':', "Semicolon", 186),
    ('\'', '"', "Quote", 222),
    (',', '<', "Comma", 188),
    ('.', '>', "Period", 190),
    ('/', '?', "Slash", 191),
];

const SHIFTED_DIGITS: &str = ")!@#$%^&*(";

/// The CDP fields of `key`, or `None` for a multi-character name that is not a known key.
pub fn lookup(key: &str) -> Option<KeyDef> {
    let mut chars = key.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Some(char_key(c));
    }
    if key.eq_ignore_ascii_case("space") || key.eq_ignore_ascii_case("spacebar") {
        return Some(char_key(' '));
    }
    let lower = key.to_ascii_lowercase();
    let name = ALIASES
        .iter()
        .find(|(alias, _)| *alias == lower)
        .map(|(_, name)| *name)
        .unwrap_or(key);
    NAMED
        .iter()
        .find(|(k, ..)| k.eq_ignore_ascii_case(name))
        .map(|(k, code, key_code, text)| KeyDef {
            key: (*k).to_owned(),
            code: (*code).to_owned(),
            key_code: *key_code,
            text: text.map(str::to_owned),
            location: if matches!(*k, "Shift" | "Control" | "Alt" | "Meta") {
                1
            } else {
                0
            },
        })
}

fn char_key(c: char) -> KeyDef {
    let (code, key_code) = if c.is_ascii_alphabetic() {
        let upper = c.to_ascii_uppercase();
        (format!("Key{upper}"), upper as u32)
    } else if c.is_ascii_digit() {
        (format!("Digit{c}"), c as u32)
    } else if let Some(i) = SHIFTED_DIGITS.find(c) {
        (format!("Digit{i}"), 48 + i as u32)
    } else if c == ' ' {
        ("Space".to_owned(), 32)
    } else if let Some((_, _, code, kc)) = PUNCTUATION
        .iter()
        .find(|(plain, shifted, ..)| *plain == c || *shifted == c)
    {
        ((*code).to_owned(), *kc)
    } else {
        (String::new(), 0)
    };
    KeyDef {
        key: c.to_string(),
        code,
        key_code,
        text: Some(c.to_string()),
        location: 0,
    }
}

/// One step of typing a text as a person does (SPEC §4 `type`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// A key pressed and released with the modifier mask held (shift for `A`, `?`): `keydown`, `keypress`,
    /// `beforeinput`, `input`, `keyup`, as a keyboard makes them.
    Key(KeyDef, u32),
    /// Text no key of ours makes without side effects (a tab character, which as a key would move the
    /// focus, and other control characters): inserted as an IME commits it (`beforeinput`, `input`).
    Insert(String),
}

/// The strokes that type `text`: a key per character; a line break (`\n`, `\r\n`, `\r`) is Enter in a
/// `multiline` field (textarea, contenteditable) and nothing in a one-line field, where Enter would
/// submit the form (a one-line field keeps no line break either way).
pub fn strokes(text: &str, multiline: bool) -> Vec<Stroke> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' | '\n' => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                if multiline {
                    if let Some(enter) = lookup("Enter") {
                        out.push(Stroke::Key(enter, 0));
                    }
                }
            }
            // A tab as a key moves the focus; other control characters are no key's text (Chrome inserts
            // none from a key event).
            c if c.is_control() => match out.last_mut() {
                Some(Stroke::Insert(s)) => s.push(c),
                _ => out.push(Stroke::Insert(c.to_string())),
            },
            c => out.push(Stroke::Key(char_key(c), if needs_shift(c) { 8 } else { 0 })),
        }
    }
    out
}

/// Whether `c` is typed with shift held on the US layout.
fn needs_shift(c: char) -> bool {
    c.is_ascii_uppercase()
        || SHIFTED_DIGITS.contains(c)
        || PUNCTUATION.iter().any(|(_, shifted, ..)| *shifted == c)
}

/// The CDP `modifiers` bitmask of `modifiers` (Alt=1, Ctrl=2, Meta=4, Shift=8).
pub fn mask(modifiers: &[Modifier]) -> u32 {
    modifiers.iter().fold(0, |m, k| m | k.cdp_bit())
}

/// The key that holds `modifier` down.
pub fn modifier_key(modifier: Modifier) -> KeyDef {
    let name = match modifier {
        Modifier::Alt => "Alt",
        Modifier::Ctrl => "Control",
        Modifier::Shift => "Shift",
        Modifier::Meta => "Meta",
    };
    // Every modifier name is in NAMED.
    lookup(name).unwrap_or(KeyDef {
        key: name.to_owned(),
        code: String::new(),
        key_code: 0,
        text: None,
        location: 1,
    })
}

/// Editing commands Chrome runs for a shortcut (`Input.dispatchKeyEvent` `commands`), so that e.g.
/// ctrl+a selects all in a text field as it does for a user.
pub fn editing_commands(def: &KeyDef, mask: u32) -> &'static [&'static str] {
    let accel = mask & (2 | 4) != 0; // ctrl or meta
    let shift = mask & 8 != 0;
    if !accel {
        return &[];
    }
    match (def.code.as_str(), shift) {
        ("KeyA", false) => &["selectAll"],
        ("KeyC", false) => &["copy"],
        ("KeyX", false) => &["cut"],
        ("KeyV", false) => &["paste"],
        ("KeyZ", false) => &["undo"],
        ("KeyZ", true) | ("KeyY", false) => &["redo"],
        _ => &[],
    }
}

/// The `Input.dispatchKeyEvent` params for pressing (`down`) or releasing `def` with `mask` held.
/// A key that produces text is sent as `keyDown` with its text unless ctrl/alt/meta is held
/// (then it is a shortcut: `rawKeyDown`, no text).
pub fn event(def: &KeyDef, mask: u32, down: bool) -> InputDispatchKeyEvent {
    let shortcut = mask & (1 | 2 | 4) != 0;
    let text = def.text.as_deref().filter(|_| down && !shortcut);
    let kind = match (down, text.is_some()) {
        (false, _) => "keyUp",
        (true, true) => "keyDown",
        (true, false) => "rawKeyDown",
    };
    InputDispatchKeyEvent {
        kind,
        modifiers: mask,
        key: def.key.clone(),
        code: def.code.clone(),
        windows_virtual_key_code: def.key_code,
        native_virtual_key_code: def.key_code,
        location: def.location,
        text: text.map(str::to_owned),
        unmodified_text: text.map(str::to_owned),
        commands: if down {
            editing_commands(def, mask).to_vec()
        } else {
            Vec::new()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn enter_carries_a_carriage_return_so_forms_submit() {
        let d = lookup("Enter").unwrap();
        assert_eq!(
            (d.code.as_str(), d.key_code, d.text.as_deref()),
            ("Enter", 13, Some("\r"))
        );
        let e = serde_json::to_value(event(&d, 0, true)).unwrap();
        assert_eq!(e["type"], "keyDown");
        assert_eq!(e["text"], "\r");
    }

    #[test]
    fn names_are_case_insensitive_with_aliases() {
        assert_eq!(lookup("escape").unwrap().key, "Escape");
        assert_eq!(lookup("Esc").unwrap().key_code, 27);
        assert_eq!(lookup("up").unwrap().key, "ArrowUp");
        assert_eq!(lookup("Space").unwrap().key, " ");
        assert_eq!(lookup("f5").unwrap().key_code, 116);
    }

    #[test]
    fn characters_map_to_us_layout_codes() {
        let a = lookup("a").unwrap();
        assert_eq!((a.code.as_str(), a.key_code), ("KeyA", 65));
        let big = lookup("A").unwrap();
        assert_eq!((big.key.as_str(), big.code.as_str()), ("A", "KeyA"));
        assert_eq!(lookup("7").unwrap().code, "Digit7");
        assert_eq!(lookup("@").unwrap().code, "Digit2");
        assert_eq!(lookup("?").unwrap().code, "Slash");
        let e = lookup("é").unwrap();
        assert_eq!(
            (e.code.as_str(), e.key_code, e.text.as_deref()),
            ("", 0, Some("é"))
        );
    }

    #[test]
    fn unknown_names_are_refused() {
        assert!(lookup("Hyper").is_none());
        assert!(lookup("").is_none());
    }

    #[test]
    fn ctrl_a_is_a_raw_select_all_shortcut() {
        let a = lookup("a").unwrap();
        let e = serde_json::to_value(event(&a, mask(&[Modifier::Ctrl]), true)).unwrap();
        assert_eq!(e["type"], "rawKeyDown");
        assert!(e.get("text").is_none());
        assert_eq!(e["commands"], json!(["selectAll"]));
        assert_eq!(e["modifiers"], 2);
    }

    #[test]
    fn key_up_has_no_text() {
        let a = lookup("a").unwrap();
        let e = serde_json::to_value(event(&a, 0, false)).unwrap();
        assert_eq!(e["type"], "keyUp");
        assert!(e.get("text").is_none());
    }

    #[test]
    fn modifier_mask_matches_cdp_bits() {
        assert_eq!(mask(&[Modifier::Alt, Modifier::Shift]), 9);
        assert_eq!(modifier_key(Modifier::Ctrl).key_code, 17);
    }

    #[test]
    fn typing_is_a_key_per_character_with_shift_where_a_keyboard_needs_it() {
        let s = strokes("aB?é", false);
        let keys: Vec<(String, u32)> = s
            .iter()
            .map(|k| match k {
                Stroke::Key(d, m) => (d.key.clone(), *m),
                Stroke::Insert(t) => (t.clone(), 99),
            })
            .collect();
        assert_eq!(
            keys,
            [
                ("a".into(), 0),
                ("B".into(), 8),
                ("?".into(), 8),
                ("é".into(), 0)
            ]
        );
        // Shift held is still text, not a shortcut.
        let Stroke::Key(b, m) = &s[1] else { panic!() };
        let e = serde_json::to_value(event(b, *m, true)).unwrap();
        assert_eq!(
            (e["type"].as_str(), e["text"].as_str()),
            (Some("keyDown"), Some("B"))
        );
    }

    #[test]
    fn line_breaks_are_enter_only_where_a_field_keeps_them() {
        let enter = |s: &[Stroke]| {
            s.iter()
                .filter(|k| matches!(k, Stroke::Key(d, _) if d.key == "Enter"))
                .count()
        };
        assert_eq!(enter(&strokes("a\r\nb\nc", true)), 2);
        assert_eq!(enter(&strokes("a\r\nb\nc", false)), 0);
        assert_eq!(strokes("a\nb", false).len(), 2);
        assert_eq!(strokes("\t\t", true), [Stroke::Insert("\t\t".into())]);
        assert_eq!(strokes("\u{7}", true), [Stroke::Insert("\u{7}".into())]);
    }
}
