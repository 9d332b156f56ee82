//! The agent's view of each tab (SPEC §4 "Outcomes": `changes`, `view`): the `extract` result the agent last
//! got for the tab, in the form the agent text is made from (markdown with uids, elements) — from an
//! `extract` that asked for both with `refs`, or from an earlier action's `changes` / `view`. A main-frame
//! navigation forgets it, as it does the uids. What an action changed is read against it in
//! `actions::changes`.

use bua_protocol::ExtractResult;
use std::cell::RefCell;
use std::collections::HashMap;

thread_local! {
    static VIEWS: RefCell<HashMap<i64, ExtractResult>> = RefCell::new(HashMap::new());
}

/// Keeps `result` as the agent's view of `tab_id` when it is one (markdown and elements, with refs).
pub fn remember(tab_id: i64, params: &bua_protocol::Extract, result: &ExtractResult) {
    if params.refs && result.markdown.is_some() && result.elements.is_some() {
        VIEWS.with(|v| v.borrow_mut().insert(tab_id, result.clone()));
    }
}

/// Forgets `tab_id`'s view (main-frame navigation, tab closed).
pub fn forget(tab_id: i64) {
    VIEWS.with(|v| v.borrow_mut().remove(&tab_id));
}

/// The agent's view of `tab_id`, when it has one.
pub fn get(tab_id: i64) -> Option<ExtractResult> {
    VIEWS.with(|v| v.borrow().get(&tab_id).cloned())
}
