//! Fields that hold keywords: one word ([`Word`]) or a list of distinct ones ([`Words`]).

use super::codec::{Codec, Cx};
use super::keyword::Keyword;
#[cfg(feature = "schema")]
use super::tidy::derived;
use crate::wire::{kind, Fields, Res};
#[cfg(feature = "schema")]
use serde_json::json;
use serde_json::{Map, Value};
use std::marker::PhantomData;

/// A keyword field: `Word(default)` holds a keyword and reads an omitted field as `default`
/// (`state`, `format`); `Word(None::<K>)` holds an `Option<K>` without a default (`console`'s
/// `level`). Either way a field at its default is not written, and a word that is not one is
/// `unknown <noun> `…` (use …)`.
pub(crate) struct Word<V>(pub(crate) V);

/// What a [`Word`] field holds: a keyword (with a default) or an optional one.
pub(crate) trait WordValue: Copy + PartialEq {
    /// The keyword.
    type K: Keyword;
    /// The value of a field given as `word` (`None`: omitted), where `default` is the codec's.
    fn from_word(word: Option<Self::K>, default: Self) -> Self;
    /// The keyword the value names, if any.
    fn keyword(self) -> Option<Self::K>;
}

impl<K: Keyword> WordValue for K {
    type K = K;
    fn from_word(word: Option<K>, default: K) -> K {
        word.unwrap_or(default)
    }
    fn keyword(self) -> Option<K> {
        Some(self)
    }
}

impl<K: Keyword> WordValue for Option<K> {
    type K = K;
    fn from_word(word: Option<K>, default: Option<K>) -> Option<K> {
        word.or(default)
    }
    fn keyword(self) -> Option<K> {
        self
    }
}

impl<V: WordValue> Codec for Word<V> {
    type T = V;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<V> {
        let word = match f.opt_str(key)? {
            None => None,
            Some(s) => Some(V::K::parse_word(&s).ok_or_else(|| {
                f.err(
                    key,
                    format!("unknown {} `{s}` (use {})", V::K::NOUN, V::K::CHOICES),
                )
            })?),
        };
        Ok(V::from_word(word, self.0))
    }
    fn write(&self, v: &V, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if let (Some(word), false) = (v.keyword(), *v == self.0) {
            m.insert(key.into(), Value::String(word.word().into()));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        derived::<V::K>()
    }
}

/// `press_key`'s held modifiers: an array of distinct keywords, any alias of [`Keyword::parse_word`].
pub(crate) struct Words<K>(pub(crate) PhantomData<K>);

impl<K: Keyword> Codec for Words<K> {
    type T = Vec<K>;
    fn read(&self, f: &mut Fields<'_>, key: &'static str, _cx: &Cx) -> Res<Vec<K>> {
        let Some(v) = f.take(key) else {
            return Ok(Vec::new());
        };
        let Value::Array(items) = v else {
            let words: Vec<&str> = K::ALL.iter().map(Keyword::word).collect();
            return Err(f.err(
                key,
                format!("must be an array of {}, got {}", words.join("/"), kind(&v)),
            ));
        };
        let mut out = Vec::with_capacity(items.len());
        for item in &items {
            let word = match item {
                Value::String(s) => K::parse_word(s).ok_or_else(|| {
                    f.err(
                        key,
                        format!("unknown {} `{s}` (use {})", K::NOUN, K::CHOICES),
                    )
                })?,
                other => {
                    return Err(f.err(key, format!("items must be strings, got {}", kind(other))))
                }
            };
            if out.contains(&word) {
                return Err(f.err(key, format!("`{}` given twice", word.word())));
            }
            out.push(word);
        }
        Ok(out)
    }
    fn write(&self, v: &Vec<K>, m: &mut Map<String, Value>, key: &'static str, _cx: &Cx) {
        if !v.is_empty() {
            let words = v.iter().map(|k| Value::String(k.word().into())).collect();
            m.insert(key.into(), Value::Array(words));
        }
    }
    #[cfg(feature = "schema")]
    fn schema(&self) -> Value {
        json!({"type": "array", "items": derived::<K>(), "uniqueItems": true})
    }
}
