//! The CDP commands the extension sends (CDP 1.3 and the tip-of-tree fields Chrome accepts), one params struct
//! per method, one file per domain, with only the fields the extension uses. Names are `DomainMethod`
//! (`PageNavigate` is `Page.navigate`); an `Option` param is left out when `None`.

/// `impl Command for $params { METHOD = $method; Response = $response }`. A method is declared whole, its
/// doc comment first: `command!(pub struct Name { fields } => "Domain.method", Response)` also defines its
/// params struct (`Clone`, `Debug`, `Serialize`, fields camelCase on the wire; further attributes go before
/// `pub struct`), and `command!(pub struct Name => "Domain.method", Response)` its empty one (sent as `{}`).
macro_rules! command {
    ($params:ty => $method:literal, $response:ty) => {
        impl $crate::cdp::command::Command for $params {
            const METHOD: &'static str = $method;
            type Response = $response;
        }
    };
    (
        $(#[$attr:meta])*
        pub struct $name:ident { $($(#[$fattr:meta])* pub $field:ident: $ty:ty),* $(,)? }
        => $method:literal, $response:ty
    ) => {
        $(#[$attr])*
        #[derive(Clone, Debug, ::serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name { $($(#[$fattr])* pub $field: $ty),* }
        command!($name => $method, $response);
    };
    ($(#[$doc:meta])* pub struct $name:ident => $method:literal, $response:ty) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, ::serde::Serialize)]
        pub struct $name {}
        command!($name => $method, $response);
    };
}

mod dom;
mod input;
mod page;
mod runtime;
mod setup;
mod snapshot;
mod target;

pub use dom::*;
pub use input::*;
pub use page::*;
pub use runtime::*;
pub use setup::*;
pub use snapshot::*;
pub use target::*;
