//! The typed form of a CDP event, as chromiumoxide's `CdpEventMessage` has it: `chrome.debugger.onEvent`
//! gives a method name and params, which [`Event::decode`] turns once into one variant of [`Event`] with its
//! params as a struct (only the fields the extension reads). Waiters and listeners ([`super::events`]) then
//! match on the variant, never on the method name.
//!
//! The payloads are grouped by domain, one file each; a variant's method name is written only here.

mod input;
mod network;
mod page;
mod runtime;
mod target;

pub use input::*;
pub use network::*;
pub use page::*;
pub use runtime::*;
pub use target::*;

use serde::{Deserialize, Deserializer};

/// `enum Event { $variant($payload), …, Other(method) }` with the method name of each variant, and its decoder.
macro_rules! events {
    ($( $(#[$doc:meta])* $variant:ident($payload:ty) = $method:literal, )+) => {
        /// One CDP event of a tab (or of one of its frame targets), decoded ([`Event::decode`]).
        #[derive(Clone, Debug, PartialEq)]
        pub enum Event {
            $( $(#[$doc])* $variant($payload), )+
            /// Any other event, or one of the above whose params do not have its shape: only the method.
            Other(String),
        }

        impl Event {
            /// The CDP method name, e.g. `"Page.loadEventFired"`.
            pub fn method(&self) -> &str {
                match self {
                    $( Event::$variant(_) => $method, )+
                    Event::Other(method) => method,
                }
            }

            /// Decodes the params of the event `method` (from the JS object `chrome.debugger` gives, or
            /// from JSON in tests). An event the extension does not use, or whose params do not decode,
            /// is [`Event::Other`].
            pub fn decode<'de, D: Deserializer<'de>>(method: &str, params: D) -> Event {
                let decoded = match method {
                    $( $method => <$payload>::deserialize(params).map(Event::$variant), )+
                    _ => return Event::Other(method.to_owned()),
                };
                decoded.unwrap_or_else(|_| Event::Other(method.to_owned()))
            }
        }
    };
}

events! {
    // ---- Page ----
    /// `Page.frameNavigated`: a frame committed a new document (bfcache restores included).
    FrameNavigated(FrameNavigated) = "Page.frameNavigated",
    /// `Page.navigatedWithinDocument`: a fragment navigation or `history.pushState`.
    NavigatedWithinDocument(NavigatedWithinDocument) = "Page.navigatedWithinDocument",
    /// `Page.domContentEventFired`: the main frame's `DOMContentLoaded`.
    DomContentEventFired(DomContentEventFired) = "Page.domContentEventFired",
    /// `Page.loadEventFired`: the main frame's `load`.
    LoadEventFired(LoadEventFired) = "Page.loadEventFired",
    /// `Page.frameRequestedNavigation`: a frame asked to navigate (link, form, script).
    FrameRequestedNavigation(FrameStarted) = "Page.frameRequestedNavigation",
    /// `Page.frameStartedNavigating`: a frame's navigation began.
    FrameStartedNavigating(FrameStarted) = "Page.frameStartedNavigating",
    /// `Page.frameStartedLoading`: a frame began loading.
    FrameStartedLoading(FrameStarted) = "Page.frameStartedLoading",
    /// `Page.downloadWillBegin`: a navigation or a link became a download.
    DownloadWillBegin(DownloadWillBegin) = "Page.downloadWillBegin",
    /// `Page.fileChooserOpened` (while `Page.setInterceptFileChooserDialog` is on).
    FileChooserOpened(FileChooserOpened) = "Page.fileChooserOpened",
    /// `Page.javascriptDialogOpening`: an `alert`, `confirm`, `prompt` or `beforeunload` dialog opened.
    JavascriptDialogOpening(JavascriptDialogOpening) = "Page.javascriptDialogOpening",
    /// `Page.javascriptDialogClosed`.
    JavascriptDialogClosed(JavascriptDialogClosed) = "Page.javascriptDialogClosed",
    // ---- Input ----
    /// `Input.dragIntercepted` (while `Input.setInterceptDrags` is on): the page started an HTML5 drag.
    DragIntercepted(DragIntercepted) = "Input.dragIntercepted",
    // ---- Runtime, Log ----
    /// `Runtime.bindingCalled`: the page called a binding of `Runtime.addBinding`.
    BindingCalled(BindingCalled) = "Runtime.bindingCalled",
    /// `Runtime.consoleAPICalled`: `console.log` and its kin.
    ConsoleApiCalled(ConsoleApiCalled) = "Runtime.consoleAPICalled",
    /// `Runtime.exceptionThrown`: an uncaught exception.
    ExceptionThrown(ExceptionThrown) = "Runtime.exceptionThrown",
    /// `Log.entryAdded`: a message of the browser's own (failed loads, interventions).
    LogEntryAdded(LogEntryAdded) = "Log.entryAdded",
    // ---- Network ----
    /// `Network.requestWillBeSent` (also for each hop of a redirect).
    RequestWillBeSent(RequestWillBeSent) = "Network.requestWillBeSent",
    /// `Network.responseReceived`.
    ResponseReceived(ResponseReceived) = "Network.responseReceived",
    /// `Network.loadingFinished`.
    LoadingFinished(LoadingFinished) = "Network.loadingFinished",
    /// `Network.loadingFailed`.
    LoadingFailed(LoadingFailed) = "Network.loadingFailed",
    // ---- Target (SPEC §5 "Frames") ----
    /// `Target.attachedToTarget`: a child target (a frame from another site, a worker) was attached.
    AttachedToTarget(AttachedToTarget) = "Target.attachedToTarget",
    /// `Target.detachedFromTarget`: a child target's session ended.
    DetachedFromTarget(DetachedFromTarget) = "Target.detachedFromTarget",
    /// `Target.targetInfoChanged`: a target's URL or title changed.
    TargetInfoChanged(TargetInfoChanged) = "Target.targetInfoChanged",
}

impl Event {
    /// The URL a main-frame commit landed on: `Some` for a [`Event::FrameNavigated`] of a frame without
    /// `parentId` (a new document in the tab, bfcache restores included), `None` for any other event.
    pub fn main_frame_navigated(&self) -> Option<&str> {
        match self {
            Event::FrameNavigated(FrameNavigated { frame }) if frame.parent_id.is_none() => {
                Some(&frame.url)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_event_decodes_into_its_variant_and_keeps_its_method() {
        let event = Event::decode(
            "Page.frameNavigated",
            json!({"frame": {"id": "f", "url": "http://a.test/", "loaderId": "l"}}),
        );
        assert_eq!(event.main_frame_navigated(), Some("http://a.test/"));
        assert_eq!(event.method(), "Page.frameNavigated");
        let child = Event::decode(
            "Page.frameNavigated",
            json!({"frame": {"id": "c", "parentId": "f", "url": "http://a.test/x"}}),
        );
        assert!(matches!(child, Event::FrameNavigated(_)));
        assert_eq!(child.main_frame_navigated(), None);
        assert_eq!(
            Event::decode("Page.loadEventFired", json!({"timestamp": 12.5})),
            Event::LoadEventFired(LoadEventFired {
                timestamp: Some(12.5)
            })
        );
    }

    #[test]
    fn unknown_events_and_malformed_params_are_other() {
        let unknown = Event::decode("Network.dataReceived", json!({"requestId": "1"}));
        assert_eq!(unknown, Event::Other("Network.dataReceived".to_owned()));
        assert_eq!(unknown.method(), "Network.dataReceived");
        let malformed = Event::decode("Page.frameNavigated", json!({"frameId": "f"}));
        assert_eq!(malformed, Event::Other("Page.frameNavigated".to_owned()));
    }

    #[test]
    fn a_null_remote_object_value_is_present() {
        let Event::ConsoleApiCalled(called) = Event::decode(
            "Runtime.consoleAPICalled",
            json!({"type": "log", "args": [{"type": "object", "subtype": "null", "value": null}]}),
        ) else {
            panic!("not decoded");
        };
        assert_eq!(called.args[0].value, Some(serde_json::Value::Null));
    }
}
