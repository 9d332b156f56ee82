//! A fixed set of wire words ([`Keyword`]) and [`keyword!`], which gives an enum its words.

/// What a keyword's JSON Schema is derived from: schemars' trait with the `schema` feature (the
/// bridge's), none without it (the extension never describes actions, and leaves schemars out).
#[cfg(feature = "schema")]
pub(crate) use schemars::JsonSchema as KeywordSchema;
/// See above: without the `schema` feature every type qualifies.
#[cfg(not(feature = "schema"))]
pub(crate) trait KeywordSchema {}
#[cfg(not(feature = "schema"))]
impl<T> KeywordSchema for T {}

/// A fixed set of wire words (`visible` / `attached` / `hidden`, …), implemented by [`keyword!`].
pub(crate) trait Keyword: Sized + Copy + PartialEq + KeywordSchema + 'static {
    /// Every value, in schema order.
    const ALL: &'static [Self];
    /// What one value is called in errors: `"state"`.
    const NOUN: &'static str;
    /// How the error names the choices: `"visible, attached or hidden"`.
    const CHOICES: &'static str;
    /// The wire spelling.
    fn word(&self) -> &'static str;
    /// Reads a wire word or one of its aliases.
    fn parse_word(s: &str) -> Option<Self>;
}

/// Gives a keyword enum its wire spelling (`as_str`) and its [`Keyword`] impl from one list, so each
/// word, the schema order, the error text and the extra spellings accepted are written once:
///
/// ```text
/// keyword! {
///     /// More of `as_str`'s doc (optional).
///     Enum: "noun" [, any case] [, listed "a, b, c"];
///     A = "a", B = "b", C = "c"
///     [; aliases "alt" => A, …]
/// }
/// ```
///
/// `any case` reads a word case-insensitively; an alias is read as its variant and written as that
/// variant's word. Errors list the words as `a, b or c` unless `listed` words them otherwise.
macro_rules! keyword {
    (@listed [$given:literal] $($word:literal),+) => { $given };
    (@listed [] $($word:literal),+) => { keyword!(@or $($word),+) };
    (@or $word:literal) => { $word };
    (@or $a:literal, $b:literal) => { concat!($a, " or ", $b) };
    (@or $a:literal, $($rest:literal),+) => { concat!($a, ", ", keyword!(@or $($rest),+)) };
    (
        $(#[$doc:meta])*
        $ty:ident: $noun:literal $(, any $case:ident)? $(, listed $choices:literal)?;
        $($variant:ident = $word:literal),+
        $(; aliases $($alias:literal => $target:ident),+)?
    ) => {
        impl $ty {
            /// The wire spelling.
            $(#[$doc])*
            pub fn as_str(&self) -> &'static str {
                match self {
                    $( $ty::$variant => $word, )+
                }
            }
        }

        impl $crate::field::keyword::Keyword for $ty {
            const ALL: &'static [Self] = &[$( $ty::$variant ),+];
            const NOUN: &'static str = $noun;
            const CHOICES: &'static str = keyword!(@listed [$($choices)?] $($word),+);
            fn word(&self) -> &'static str {
                self.as_str()
            }
            fn parse_word(s: &str) -> Option<Self> {
                match &*keyword!(@fold s $($case)?) {
                    $( $word => Some($ty::$variant), )+
                    $($( $alias => Some($ty::$target), )+)?
                    _ => None,
                }
            }
        }
    };
    (@fold $s:ident case) => { $s.to_ascii_lowercase() };
    (@fold $s:ident) => { $s };
}
pub(crate) use keyword;
