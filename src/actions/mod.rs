//! The `browser` actions of SPEC §4. [`dispatch`] is the entry point (the pipeline of SPEC §6); [`run`] maps an
//! action that acts on a page onto its handler, one file per action family.

mod dispatcher;
pub mod tabs;

pub use dispatcher::{dispatch, DEFAULT_OWNER};

use crate::error::{Error, Result};
use bua_protocol::Action;

/// What a page action handler knows besides its parameters: the resolved tab (session ensured, per-tab lock held,
/// debugger attached) and the requesting owner.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub tab_id: i64,
    pub owner: String,
}

/// Runs a page action on `ctx.tab_id`.
pub(crate) async fn run(ctx: &Ctx, action: Action) -> Result<serde_json::Value> {
    let _ = ctx;
    Err(Error::InvalidAction(format!(
        "{} is not available in this build",
        action.name()
    )))
}
