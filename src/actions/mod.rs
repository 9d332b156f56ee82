//! The `browser` actions of SPEC §4: [`dispatch`] runs one action and returns its result as JSON.

mod dispatcher;
pub mod tabs;

pub use dispatcher::dispatch;
