//! The context of a page action (SPEC §6 pipeline): the tab it runs on and who asked.

use super::locator::{self, Element};
use crate::error::Result;
use bua_protocol::Locator;

/// What a page action handler knows besides its parameters: the resolved tab (session ensured, per-tab lock held,
/// debugger attached) and the requesting owner.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// The tab the action runs on (`chrome.tabs` id).
    pub tab_id: i64,
    /// The requesting bridge client (`cli-…`), owner of any agent tab the action opens.
    pub owner: String,
}

impl Ctx {
    /// The element `locator` names on the tab's current page; errors as [`locator::resolve`].
    pub async fn locate(&self, locator: &Locator) -> Result<Element> {
        locator::resolve(self.tab_id, locator).await
    }
}
