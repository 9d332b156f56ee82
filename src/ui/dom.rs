//! A tiny DOM helper for the popup and options pages: look elements up by id, build small subtrees, and own event
//! listeners (a [`Listener`] removes itself when dropped, as gloo's `EventListener` does).

use crate::chrome::storage::{self, ChangeListener};
use crate::error::{Error, Result};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Event, EventTarget, HtmlElement};

/// The page's document.
///
/// Errors: [`Error::Internal`] outside a window (e.g. if called in the service worker).
pub fn document() -> Result<Document> {
    web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| Error::Internal("the UI runs only in a page with a document".into()))
}

/// The element with id `id`, as type `T` (`Element`, `HtmlElement`, `HtmlInputElement`, …).
///
/// Errors: [`Error::Internal`] naming the id when it is missing or of another type (a mismatch between the
/// page's HTML and the Rust that drives it).
pub fn by_id<T: JsCast>(id: &str) -> Result<T> {
    document()?
        .get_element_by_id(id)
        .ok_or_else(|| Error::Internal(format!("the page has no #{id}")))?
        .dyn_into::<T>()
        .map_err(|_| Error::Internal(format!("#{id} is not the expected kind of element")))
}

/// Sets the text of `node` (no-op when unchanged, so live updates do not disturb screen readers or selection).
pub fn set_text(node: &impl AsRef<web_sys::Node>, text: &str) {
    let node = node.as_ref();
    if node.text_content().as_deref() != Some(text) {
        node.set_text_content(Some(text));
    }
}

/// Shows or hides an element with the `hidden` attribute.
pub fn set_hidden(element: &HtmlElement, hidden: bool) {
    if element.hidden() != hidden {
        element.set_hidden(hidden);
    }
}

/// Sets or removes an attribute (`None` removes it).
pub fn set_attr(element: &impl AsRef<Element>, name: &str, value: Option<&str>) {
    let element = element.as_ref();
    let result = match value {
        Some(v) if element.get_attribute(name).as_deref() != Some(v) => {
            element.set_attribute(name, v)
        }
        Some(_) => Ok(()),
        None => element.remove_attribute(name),
    };
    if let Err(e) = result {
        crate::log::warn(&format!(
            "cannot set {name}: {}",
            crate::error::js_message(&e)
        ));
    }
}

/// A builder for a small element subtree.
pub struct El(Element);

/// Starts an element `<tag>`.
///
/// Errors: [`Error::Internal`] when the document cannot create it.
pub fn el(tag: &str) -> Result<El> {
    document()?
        .create_element(tag)
        .map(El)
        .map_err(|e| Error::from_js("document.createElement", &e))
}

impl El {
    /// Sets the `class` attribute.
    pub fn class(self, class: &str) -> Self {
        self.0.set_class_name(class);
        self
    }

    /// Sets an attribute.
    pub fn attr(self, name: &str, value: &str) -> Self {
        set_attr(&self.0, name, Some(value));
        self
    }

    /// Sets the text content.
    pub fn text(self, text: &str) -> Self {
        self.0.set_text_content(Some(text));
        self
    }

    /// Appends a child.
    pub fn child(self, child: impl AsRef<web_sys::Node>) -> Self {
        if let Err(e) = self.0.append_child(child.as_ref()) {
            crate::log::warn(&format!(
                "cannot append a child: {}",
                crate::error::js_message(&e)
            ));
        }
        self
    }

    /// The element.
    pub fn build(self) -> Element {
        self.0
    }

    /// The element as an `HtmlElement` (every element the pages build is one).
    pub fn html(self) -> HtmlElement {
        self.0.unchecked_into()
    }
}

/// An event listener that is removed when dropped.
pub struct Listener {
    target: EventTarget,
    event: &'static str,
    callback: Closure<dyn FnMut(Event)>,
}

impl Listener {
    /// Listens for `event` on `target`.
    pub fn new(
        target: &impl AsRef<EventTarget>,
        event: &'static str,
        f: impl FnMut(Event) + 'static,
    ) -> Listener {
        let target: &EventTarget = target.as_ref();
        let callback = Closure::<dyn FnMut(Event)>::new(f);
        if let Err(e) =
            target.add_event_listener_with_callback(event, callback.as_ref().unchecked_ref())
        {
            crate::log::warn(&format!(
                "cannot listen for {event}: {}",
                crate::error::js_message(&e)
            ));
        }
        Listener {
            target: target.clone(),
            event,
            callback,
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.target.remove_event_listener_with_callback(
            self.event,
            self.callback.as_ref().unchecked_ref(),
        );
    }
}

/// What keeps a page live while it is open: its DOM listeners and its `chrome.storage` change listener
/// (each removed when dropped).
pub struct PageListeners {
    _dom: Vec<Listener>,
    _storage: ChangeListener,
}

impl PageListeners {
    /// Keeps `dom`, and calls `on_storage` for every change to `chrome.storage.local` ([`storage::on_changed`]).
    pub fn new(dom: Vec<Listener>, on_storage: impl FnMut(&JsValue) + 'static) -> Self {
        PageListeners {
            _dom: dom,
            _storage: storage::on_changed(on_storage),
        }
    }
}

/// Runs `f` on `event` of the element with id `id`, spawning its future (a click handler that calls the worker).
///
/// Errors: [`Error::Internal`] when the element is missing.
pub fn on_async<F, Fut>(id: &str, event: &'static str, f: F) -> Result<Listener>
where
    F: Fn(Event) -> Fut + 'static,
    Fut: std::future::Future<Output = ()> + 'static,
{
    let target: EventTarget = by_id(id)?;
    Ok(Listener::new(&target, event, move |e| {
        wasm_bindgen_futures::spawn_local(f(e))
    }))
}

/// The local time zone offset of `at_ms`, as `Date.prototype.getTimezoneOffset()` (minutes, UTC − local).
pub fn tz_offset_min(at_ms: f64) -> i32 {
    js_sys::Date::new(&JsValue::from_f64(at_ms)).get_timezone_offset() as i32
}
