//! The per-tab lock: actions on one tab run one at a time, actions on different tabs run concurrently (SPEC §6).

use futures::lock::{Mutex, OwnedMutexGuard};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

thread_local! {
    static LOCKS: RefCell<HashMap<i64, Arc<Mutex<()>>>> = RefCell::new(HashMap::new());
}

/// Waits for the tab's lock; the action holds the returned guard until it has answered.
pub async fn lock_tab(tab_id: i64) -> OwnedMutexGuard<()> {
    let mutex = LOCKS.with(|l| l.borrow_mut().entry(tab_id).or_default().clone());
    mutex.lock_owned().await
}

/// Drops the lock entry of a closed tab (waiters keep their own handle and still finish).
pub fn forget_tab(tab_id: i64) {
    LOCKS.with(|l| l.borrow_mut().remove(&tab_id));
}
