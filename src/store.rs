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
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
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
///
/// It also keeps what it last read or wrote of each key: every action reads the session table several
/// times (resolve the tab, check its owner, ensure its session, count the action), and each
/// `chrome.storage` read is a round trip to the browser process (about a millisecond of an action that
/// takes ten). Every write of these keys in the extension goes through this one store in the worker;
/// a write from anywhere else (a test harness, the pairing of `bua-bridge launch`) reaches the worker as
/// `chrome.storage.onChanged` and [`LockedStore::changed`] drops the key, so the next read asks the
/// store again (the echo of the store's own write, a value it already holds, keeps it).
pub struct LockedStore<S> {
    store: S,
    lock: Mutex<()>,
    /// Key → its JSON as last read or written (`None`: absent).
    cache: RefCell<HashMap<String, Option<Value>>>,
    /// Bumped by every write and every [`LockedStore::forget`]: a read that was under way meanwhile
    /// does not fill the cache with what it read.
    generation: Cell<u64>,
}

impl<S: KvStore> LockedStore<S> {
    /// Wraps `store`.
    pub fn new(store: S) -> Self {
        LockedStore {
            store,
            lock: Mutex::new(()),
            cache: RefCell::new(HashMap::new()),
            generation: Cell::new(0),
        }
    }

    /// `chrome.storage.onChanged` said `key` now holds `new` (`None`: removed): the echo of this store's
    /// own write (the value it already holds) keeps the cache; anything else drops the key.
    pub fn changed(&self, key: &str, new: Option<Value>) {
        let same = match (self.cache.borrow().get(key), &new) {
            (Some(Some(held)), Some(new)) => same_json(held, new),
            (Some(None), None) => true,
            _ => false,
        };
        if !same {
            self.forget(key);
        }
    }

    /// Whether the cache holds `key` (what [`LockedStore::changed`] compares with).
    pub fn holds(&self, key: &str) -> bool {
        self.cache.borrow().contains_key(key)
    }

    /// Drops `key` from the cache (it changed outside this store, or may have).
    pub fn forget(&self, key: &str) {
        self.cache.borrow_mut().remove(key);
        self.generation.set(self.generation.get() + 1);
    }

    /// The JSON of `key`: from the cache, else from the store (then cached, unless a write or a
    /// [`LockedStore::forget`] happened while it was read).
    async fn get(&self, key: &str) -> Result<Option<Value>> {
        if let Some(v) = self.cache.borrow().get(key) {
            return Ok(v.clone());
        }
        let generation = self.generation.get();
        let v = self.store.get(key).await?;
        if self.generation.get() == generation {
            self.cache.borrow_mut().insert(key.to_owned(), v.clone());
        }
        Ok(v)
    }

    /// Writes `key`; readers in the worker see the new value at once, while the store's write is under
    /// way (a read sent to `chrome.storage` after the write was sent gets it too: one context's
    /// operations are answered in order). A failed write forgets the key.
    async fn set(&self, key: &str, value: Value) -> Result<()> {
        self.generation.set(self.generation.get() + 1);
        self.cache
            .borrow_mut()
            .insert(key.to_owned(), Some(value.clone()));
        let written = self.store.set(key, value).await;
        if written.is_err() {
            self.forget(key);
        }
        written
    }

    /// Reads `key` as `T`: absent or unreadable → `T::default()`. An unreadable value (a shape this version
    /// cannot parse) is logged and read as empty, because a corrupt table must not wedge every action; the
    /// next [`LockedStore::update`] of the key replaces it.
    ///
    /// Errors: only a failure of the store itself (`chrome.storage` rejected the read).
    pub async fn read<T: DeserializeOwned + Default>(&self, key: &str) -> Result<T> {
        Ok(parse(key, self.get(key).await?).value)
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
        }: Stored<T> = parse(key, self.get(key).await?);
        let before = value.clone();
        let out = f(&mut value);
        if value != before || !readable {
            let json = serde_json::to_value(&value)?;
            self.set(key, json).await?;
        }
        Ok(out)
    }
}

/// JSON equality with numbers compared by value: what Rust wrote as `1.0` comes back from JavaScript
/// as the integer `1`.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_json(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| same_json(a, b)))
        }
        _ => a == b,
    }
}

/// A value read from the store, and whether what was stored could be parsed.
struct Stored<T> {
    value: T,
    readable: bool,
}

fn parse<T: DeserializeOwned + Default>(key: &str, json: Option<Value>) -> Stored<T> {
    let Some(json) = json else {
        return Stored {
            value: T::default(),
            readable: true,
        };
    };
    match serde_json::from_value(json) {
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
    }
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

    /// Writes `value` at key `k` behind the cache's back, as another context would.
    fn write_behind(store: &LockedStore<FakeAsyncStore>, value: Value) {
        store.store.data.borrow_mut().insert("k".into(), value);
    }

    /// What the store holds at key `k`.
    fn held(store: &LockedStore<FakeAsyncStore>) -> Option<Value> {
        store.store.data.borrow().get("k").cloned()
    }

    #[test]
    fn reads_come_from_the_cache_until_the_key_is_forgotten() {
        let store = LockedStore::new(FakeAsyncStore::default());
        block_on(store.update("k", |v: &mut Vec<i64>| v.push(1))).expect("update");
        // Written behind the store's back (another context): the cache still answers…
        write_behind(&store, serde_json::json!([1, 2]));
        let cached: Vec<i64> = block_on(store.read("k")).expect("read");
        assert_eq!(cached, [1]);
        // …until `chrome.storage.onChanged` makes the worker forget the key.
        store.forget("k");
        let fresh: Vec<i64> = block_on(store.read("k")).expect("read");
        assert_eq!(fresh, [1, 2]);
        // An update reads what the store holds now and writes through the cache.
        block_on(store.update("k", |v: &mut Vec<i64>| v.push(3))).expect("update");
        let both: Vec<i64> = block_on(store.read("k")).expect("read");
        assert_eq!(both, [1, 2, 3]);
        assert_eq!(held(&store), Some(serde_json::json!([1, 2, 3])));
    }

    #[test]
    fn an_update_that_changes_nothing_does_not_write() {
        let store = LockedStore::new(FakeAsyncStore::default());
        let r = block_on(store.update("k", |v: &mut Vec<i64>| v.len())).expect("update");
        assert_eq!(r, 0);
        assert_eq!(held(&store), None);
        block_on(store.update("k", |v: &mut Vec<i64>| v.push(4))).expect("update");
        assert_eq!(held(&store), Some(serde_json::json!([4])));
    }

    #[test]
    fn an_unreadable_value_reads_as_the_default_and_the_next_update_replaces_it() {
        let store = LockedStore::new(FakeAsyncStore::default());
        let corrupt = serde_json::json!({"not": "a list"});
        write_behind(&store, corrupt);
        let read: Vec<i64> =
            block_on(store.read("k")).expect("an unreadable value is not an error");
        assert_eq!(read, Vec::<i64>::new());
        // An update that changes nothing still replaces the unreadable value with the default.
        let len = block_on(store.update("k", |v: &mut Vec<i64>| v.len())).expect("update");
        assert_eq!(len, 0);
        assert_eq!(held(&store), Some(serde_json::json!([])));
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

    #[test]
    fn the_echo_of_an_own_write_keeps_the_cache_and_another_value_drops_it() {
        let store = LockedStore::new(FakeAsyncStore::default());
        block_on(store.update("k", |v: &mut Vec<f64>| v.push(1.0))).expect("update");
        write_behind(&store, serde_json::json!([9.0]));
        // `onChanged` of the store's own write: JavaScript gives `1.0` back as the integer 1.
        store.changed("k", Some(serde_json::json!([1])));
        let kept: Vec<f64> = block_on(store.read("k")).expect("read");
        assert_eq!(kept, [1.0], "the echo keeps the cache (no read)");
        // A value the store did not write (another context's) is read again.
        store.changed("k", Some(serde_json::json!([9])));
        let fresh: Vec<f64> = block_on(store.read("k")).expect("read");
        assert_eq!(fresh, [9.0]);
        // So is a removal of a key the cache holds.
        store.store.data.borrow_mut().remove("k");
        store.changed("k", None);
        let gone: Vec<f64> = block_on(store.read("k")).expect("read");
        assert!(gone.is_empty());
        assert!(same_json(
            &serde_json::json!({"a": [1.0, "x"], "b": null}),
            &serde_json::json!({"b": null, "a": [1, "x"]})
        ));
        assert!(!same_json(
            &serde_json::json!({"a": 1}),
            &serde_json::json!({"a": 1, "b": 2})
        ));
    }
}
