//! What the crate knows about each action beside its parameters (its [`Spec`]: wire name,
//! description, bridge timeout, whether it only reads), and the [`actions!`] macro that turns the
//! catalogue's table into `Action`, `ActionKind` and the table of specs.

#[cfg(feature = "schema")]
use crate::locator::Loc;
#[cfg(feature = "schema")]
use serde_json::Value;
use std::time::Duration;

/// What the bridge adds to a caller-given `timeoutMs` for its own pending-pool timeout (SPEC §4).
pub const TIMEOUT_GRACE: Duration = Duration::from_secs(2);

/// An action's bridge timeout (SPEC §4 timeout column).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Timeout {
    /// A fixed number of seconds.
    Secs(u64),
    /// The action's own wait plus [`TIMEOUT_GRACE`]: the field `key` (`timeoutMs`, `waitMs`), in ms,
    /// or `default_ms` when it is omitted.
    OwnWait {
        /// The wire key of the wait.
        key: &'static str,
        /// The wait when the field is omitted, ms.
        default_ms: u64,
    },
}

/// The table's last column: the bridge timeout, and whether the action only reads (`.read()`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Traits {
    pub(crate) timeout: Timeout,
    /// Reads the page or the tab list and changes nothing an agent could see: sending it twice is
    /// harmless, so a client may re-send it when the bridge went away before answering (SPEC §9).
    pub(crate) reads: bool,
}

impl Traits {
    /// The same timeout, marked as a read.
    pub(crate) const fn read(self) -> Traits {
        Traits {
            timeout: self.timeout,
            reads: true,
        }
    }
}

/// A bridge timeout of `s` seconds.
pub(crate) const fn secs(s: u64) -> Traits {
    Traits {
        timeout: Timeout::Secs(s),
        reads: false,
    }
}

/// A bridge timeout of the action's own wait, the field `key` (`default_ms` when omitted), plus
/// [`TIMEOUT_GRACE`].
pub(crate) const fn waits(key: &'static str, default_ms: u64) -> Traits {
    Traits {
        timeout: Timeout::OwnWait { key, default_ms },
        reads: false,
    }
}

/// What the crate knows about one action, from the [`actions!`] table.
pub(crate) struct Spec {
    /// The wire `type`.
    pub(crate) name: &'static str,
    /// The description an agent reads (the variant's doc comment).
    #[cfg(feature = "schema")]
    pub(crate) doc: &'static [&'static str],
    pub(crate) traits: Traits,
    /// Field descriptions this action words differently from its shared parameter struct.
    #[cfg(feature = "schema")]
    pub(crate) doc_overrides: &'static [(&'static str, &'static str)],
    /// Every wire key besides `type`, in the order of the "expected one of" hint.
    pub(crate) keys: fn() -> Vec<&'static str>,
    /// The JSON Schema properties besides `type`.
    #[cfg(feature = "schema")]
    pub(crate) properties: fn() -> Vec<(&'static str, Value)>,
    /// The keys the wire form must carry besides `type`.
    #[cfg(feature = "schema")]
    pub(crate) required: fn() -> Vec<&'static str>,
    /// How the action takes a locator.
    #[cfg(feature = "schema")]
    pub(crate) loc: fn() -> Loc,
    /// The locator keys the action uses for its own parameters.
    #[cfg(feature = "schema")]
    pub(crate) taken: fn() -> Vec<&'static str>,
    /// The cross-field rules as JSON Schema.
    #[cfg(feature = "schema")]
    pub(crate) rules: fn() -> Vec<Value>,
}

/// Defines [`Action`] from a table: per action its doc comment (the description an agent reads),
/// `Variant(ParamStruct) = "wire_name", timeout` (with `.read()` for actions that only read), and optionally `"key": "doc"` pairs that word a
/// field of a shared parameter struct differently for this action.
macro_rules! actions {
    (@build $f:ident $variant:ident $params:ident) => { Action::$variant($params::read($f)?) };
    (@build $f:ident $variant:ident) => {{ NoParams::read($f)?; Action::$variant }};
    (@ty $params:ident) => { $params };
    (@ty) => { NoParams };
    (@pat $p:ident $variant:ident $params:ident) => { Action::$variant($p) };
    (@pat $p:ident $variant:ident) => { Action::$variant };
    (@some $p:ident $params:ident) => { Some($p) };
    (@some $p:ident) => { None };
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $(($params:ident))? = $name:literal, $timeout:expr $(, $okey:literal: $odoc:literal)*;
    )*) => {
        /// One `browser` action (SPEC §4), e.g. a click on the element with uid `e7` of tab 12.
        ///
        /// Serialize writes the canonical wire JSON (defaults omitted); Deserialize goes through
        /// [`Action::from_value`], so `from_value(to_value(a)) == a` for every valid action.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Action {
            $( $(#[doc = $doc])* $variant $(($params))?, )*
        }

        /// The actions without their parameters, in table order (an index into [`SPECS`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum ActionKind {
            $( $variant, )*
        }

        pub(crate) const ACTION_NAMES: &[&str] = &[$($name),*];

        pub(crate) const SPECS: &[Spec] = &[$(
            Spec {
                name: $name,
                #[cfg(feature = "schema")]
                doc: &[$($doc),*],
                traits: $timeout,
                #[cfg(feature = "schema")]
                doc_overrides: &[$(($okey, $odoc)),*],
                keys: <actions!(@ty $($params)?) as Params>::keys,
                #[cfg(feature = "schema")]
                properties: <actions!(@ty $($params)?) as Params>::properties,
                #[cfg(feature = "schema")]
                required: <actions!(@ty $($params)?) as Params>::required,
                #[cfg(feature = "schema")]
                loc: <actions!(@ty $($params)?) as Params>::loc,
                #[cfg(feature = "schema")]
                taken: || <actions!(@ty $($params)?) as Params>::cx().taken,
                #[cfg(feature = "schema")]
                rules: <actions!(@ty $($params)?) as Rules>::schema_rules,
            },
        )*];

        impl ActionKind {
            /// The action named `name` (its wire `type`).
            pub(crate) fn named(name: &str) -> Option<ActionKind> {
                match name {
                    $( $name => Some(ActionKind::$variant), )*
                    _ => None,
                }
            }
        }

        impl Action {
            /// Reads the parameters of an action of kind `kind`.
            pub(crate) fn parse(kind: ActionKind, f: &mut Fields<'_>) -> Res<Action> {
                Ok(match kind {
                    $( ActionKind::$variant => actions!(@build f $variant $($params)?), )*
                })
            }

            /// The action's kind.
            pub(crate) fn kind(&self) -> ActionKind {
                match self {
                    $( Action::$variant { .. } => ActionKind::$variant, )*
                }
            }

            pub(crate) fn values(&self) -> Option<&dyn ParamValues> {
                match self {
                    $( actions!(@pat p $variant $($params)?) => actions!(@some p $($params)?), )*
                }
            }

            pub(crate) fn values_mut(&mut self) -> Option<&mut dyn ParamValues> {
                match self {
                    $( actions!(@pat p $variant $($params)?) => actions!(@some p $($params)?), )*
                }
            }
        }
    };
}
pub(crate) use actions;
