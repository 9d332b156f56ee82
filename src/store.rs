//! The storage write lock (SPEC §6): `chrome.storage.local` has no compare-and-set, so two read-modify-write
//! cycles that interleave at an `await` lose one of the writes. Every mutation of the session model's keys
//! (`activeSessions`, `agentTabs`, `buaWindowId`) goes through [`LockedStore::update`], which holds one async
//! mutex (the Rust form of a promise chain that serialises the writes) from the read to the write.
//!
//! The lock is generic over [`KvStore`], so a native test with a fake asynchronous store proves that 100
//! concurrent mutations lose none — and that the same test loses writes when the lock is bypassed.

use crate::error::Result;
use futures::lock::Mutex;
use serde::{de::DeserializeOwned, Serialize};
use serde_json::Value;
use std::future::Future;
use std::rc::Rc;

thread_local! {
    static LOCAL: Rc<LockedStore<ChromeLocal>> = Rc::new(LockedStore::new(ChromeLocal));
}

/// The locked `chrome.storage.local` every mutation of the session model's keys goes through (one per worker).
pub fn local() -> Rc<LockedStore<ChromeLocal>> {
    LOCAL.with(Rc::clone)
}

/// An asynchronous key-value store holding JSON values (`chrome.storage.local` in the extension).
pub trait KvStore {
    /// Reads `key`; `Ok(None)` when absent.
    fn get(&self, key: &str) -> impl Future<Output = Result<Option<Value>>>;
    /// Writes `key`.
    fn set(&self, key: &str, value: Value) -> impl Future<Output = Result<()>>;
}

/// `chrome.storage.local` as a [`KvStore`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ChromeLocal;

impl KvStore for ChromeLocal {
    async fn get(&self, key: &str) -> Result<Option<Value>> {
        crate::chrome::storage::get::<Value>(key).await
    }

    async fn set(&self, key: &str, value: Value) -> Result<()> {
        crate::chrome::storage::set(key, &value).await
    }
}

/// A [`KvStore`] whose read-modify-write cycles are serialised by one async mutex.
pub struct LockedStore<S> {
    store: S,
    lock: Mutex<()>,
}

impl<S: KvStore> LockedStore<S> {
    /// Wraps `store`.
    pub fn new(store: S) -> Self {
        LockedStore {
            store,
            lock: Mutex::new(()),
        }
    }

    /// Reads `key` as `T`: absent or unreadable → `T::default()`. An unreadable value (a shape this version
    /// cannot parse) is logged and read as empty, because a corrupt table must not wedge every action; the
    /// next [`LockedStore::update`] of the key replaces it.
    ///
    /// Errors: only a failure of the store itself (`chrome.storage` rejected the read).
    pub async fn read<T: DeserializeOwned + Default>(&self, key: &str) -> Result<T> {
        Ok(read_value(&self.store, key).await?.value)
    }

    /// Runs `f` on the current value of `key` and writes the result back, holding the write lock from the read
    /// to the write. Returns what `f` returned. The value is written only when `f` changed it, or when the
    /// stored value was unreadable (it is read as the default, as by [`LockedStore::read`], and replaced).
    pub async fn update<T, R>(&self, key: &str, f: impl FnOnce(&mut T) -> R) -> Result<R>
    where
        T: DeserializeOwned + Serialize + Default + PartialEq + Clone,
    {
        let _guard = self.lock.lock().await;
        self.update_unlocked(key, f).await
    }

    /// Runs `f` with the write lock held (for mutations of several keys that must not interleave).
    pub async fn with_lock<R>(&self, f: impl Future<Output = R>) -> R {
        let _guard = self.lock.lock().await;
        f.await
    }

    /// The same read-modify-write without the lock. Only for callers that already hold it through
    /// [`LockedStore::with_lock`] — and for the test that shows what goes wrong without it.
    pub async fn update_unlocked<T, R>(&self, key: &str, f: impl FnOnce(&mut T) -> R) -> Result<R>
    where
        T: DeserializeOwned + Serialize + Default + PartialEq + Clone,
    {
        let Stored {
            mut value,
            readable,
        }: Stored<T> = read_value(&self.store, key).await?;
        let before = value.clone();
        let out = f(&mut value);
        if value != before || !readable {
            let json = serde_json::to_value(&value)?;
            self.store.set(key, json).await?;
        }
        Ok(out)
    }
}

/// A value read from the store, and whether what was stored could be parsed.
struct Stored<T> {
    value: T,
    readable: bool,
}

async fn read_value<S: KvStore, T: DeserializeOwned + Default>(
    store: &S,
    key: &str,
) -> Result<Stored<T>> {
    let Some(json) = store.get(key).await? else {
        return Ok(Stored {
            value: T::default(),
            readable: true,
        });
    };
    Ok(match serde_json::from_value(json) {
        Ok(value) => Stored {
            value,
            readable: true,
        },
        Err(e) => {
            crate::log::warn(&format!(
                "storage key {key} has an unexpected shape ({e}); reading it as empty, the next change \
                 replaces it"
            ));
            Stored {
                value: T::default(),
                readable: false,
            }
        }
    })
}

/// Test support for code built on [`LockedStore`]: an in-memory store that yields like a Chrome API promise.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    /// A fake asynchronous store: every get and set yields to the executor once, like a Chrome API promise,
    /// so concurrent read-modify-write cycles interleave exactly where the real ones can.
    #[derive(Default)]
    pub struct FakeAsyncStore {
        pub data: RefCell<HashMap<String, Value>>,
    }

    struct YieldOnce(bool);
    impl Future for YieldOnce {
        type Output = ();
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            if self.0 {
                Poll::Ready(())
            } else {
                self.0 = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        }
    }

    impl KvStore for FakeAsyncStore {
        async fn get(&self, key: &str) -> Result<Option<Value>> {
            YieldOnce(false).await;
            Ok(self.data.borrow().get(key).cloned())
        }
        async fn set(&self, key: &str, value: Value) -> Result<()> {
            YieldOnce(false).await;
            self.data.borrow_mut().insert(key.to_owned(), value);
            Ok(())
        }
    }

    /// Polls `future` to completion on this thread (every wake-up is a self-wake, so busy polling suffices).
    pub fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{block_on, FakeAsyncStore};
    use super::*;

    #[test]
    fn an_update_that_changes_nothing_does_not_write() {
        let store = LockedStore::new(FakeAsyncStore::default());
        let r = block_on(store.update("k", |v: &mut Vec<i64>| v.len())).expect("update");
        assert_eq!(r, 0);
        assert!(store.store.data.borrow().get("k").is_none());
        block_on(store.update("k", |v: &mut Vec<i64>| v.push(4))).expect("update");
        assert_eq!(
            store.store.data.borrow().get("k"),
            Some(&serde_json::json!([4]))
        );
    }

    #[test]
    fn an_unreadable_value_reads_as_the_default_and_the_next_update_replaces_it() {
        let store = LockedStore::new(FakeAsyncStore::default());
        let corrupt = serde_json::json!({"not": "a list"});
        store.store.data.borrow_mut().insert("k".into(), corrupt);
        let read: Vec<i64> =
            block_on(store.read("k")).expect("an unreadable value is not an error");
        assert_eq!(read, Vec::<i64>::new());
        // An update that changes nothing still replaces the unreadable value with the default.
        let len = block_on(store.update("k", |v: &mut Vec<i64>| v.len())).expect("update");
        assert_eq!(len, 0);
        assert_eq!(
            store.store.data.borrow().get("k"),
            Some(&serde_json::json!([]))
        );
    }

    #[test]
    fn a_failing_store_is_an_error_for_read_and_update() {
        struct Broken;
        impl KvStore for Broken {
            async fn get(&self, _key: &str) -> Result<Option<Value>> {
                Err(crate::Error::Internal("storage is unavailable".into()))
            }
            async fn set(&self, _key: &str, _value: Value) -> Result<()> {
                Err(crate::Error::Internal("storage is unavailable".into()))
            }
        }
        let store = LockedStore::new(Broken);
        let read = block_on(store.read::<Vec<i64>>("k")).expect_err("the read failed");
        assert_eq!(read.to_string(), "storage is unavailable");
        let update = block_on(store.update("k", |v: &mut Vec<i64>| v.push(1)));
        assert_eq!(
            update.expect_err("the update failed").to_string(),
            "storage is unavailable"
        );
    }
}
