//! Typed results of SPEC §4, §5 and §7, as the extension builds them and clients read them:
//! camelCase on the wire, `Option` fields omitted when `None` (except where noted).

mod extract;
mod input;
mod outcomes;
mod page;
mod tabs;

pub use extract::*;
pub use input::*;
pub use outcomes::*;
pub use page::*;
pub use tabs::*;
