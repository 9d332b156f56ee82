//! Which page a tool result is about, for the boundary its text is wrapped in (SPEC §9
//! "Boundaries", [`bua_protocol::text::boundary`]): the origin the marker names and a nonce made
//! for the one response.
//!
//! Most results name their tab but not its URL (`click` → `{clicked, tabId}`), so the server keeps
//! the origin of each tab as results last reported it (a result's `url`, `navigated`, `view`,
//! `openedTab`, the tabs of `get_tabs`); a tab it has not heard of is looked up with one `get_tabs`.
//! Pure apart from the caller's `get_tabs`.

use std::collections::HashMap;

use bua_protocol::text::boundary::{origin_of, wrap, ANY_ORIGIN};
use serde_json::Value;

/// A new nonce: 12 random hex digits (48 bits), drawn after the page was read.
pub fn nonce() -> String {
    let random = uuid::Uuid::new_v4().simple().to_string();
    random[..12].to_owned()
}

/// The boundary of one response: the page's origin and the response's nonce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageMark {
    /// `scheme://host[:port]`, or [`ANY_ORIGIN`] for a result about no one page.
    pub origin: String,
    /// This response's nonce.
    pub nonce: String,
}

impl PageMark {
    /// A mark for `origin` with a new [`nonce`].
    pub fn new(origin: String) -> Self {
        PageMark {
            origin,
            nonce: nonce(),
        }
    }

    /// `body` inside this boundary, neutralised.
    pub fn wrap(&self, body: &str) -> String {
        wrap(&self.origin, &self.nonce, body)
    }
}

/// The origin of each tab as the results last reported it.
#[derive(Debug, Default)]
pub struct TabOrigins {
    by_tab: HashMap<i64, String>,
}

/// What a result says about its page: (its tab, the URL of the page it shows now).
fn page_of(result: &Value) -> (Option<i64>, Option<&str>) {
    let tab = result.get("tabId").and_then(Value::as_i64);
    let url = ["navigated", "view"]
        .iter()
        .find_map(|k| result.get(k).and_then(|v| v.get("url")))
        .or_else(|| result.get("url"))
        .and_then(Value::as_str);
    (tab, url)
}

impl TabOrigins {
    /// Notes every tab origin `result` reports (`asked_tab`: the action's `tabId`, for results such as
    /// `extract` that carry the URL but not the tab).
    pub fn learn(&mut self, asked_tab: Option<i64>, result: &Value) {
        let (tab, url) = page_of(result);
        if let (Some(tab), Some(url)) = (tab.or(asked_tab), url) {
            self.by_tab.insert(tab, origin_of(url));
        }
        let opened = result.get("openedTab").into_iter();
        let listed = result.get("tabs").and_then(Value::as_array).into_iter();
        for t in opened.chain(listed.flatten()) {
            let (Some(tab), Some(url)) = (
                t.get("tabId").and_then(Value::as_i64),
                t.get("url").and_then(Value::as_str),
            ) else {
                continue;
            };
            self.by_tab.insert(tab, origin_of(url));
        }
    }

    /// The origin to name for `result`: the page it shows ([`TabOrigins::learn`] it first), else
    /// [`ANY_ORIGIN`] for a result about no one tab (`get_tabs`); `None` when its tab is unknown, to
    /// be looked up with `get_tabs`.
    pub fn origin(&self, asked_tab: Option<i64>, result: &Value) -> Option<String> {
        let (tab, url) = page_of(result);
        if let Some(url) = url {
            return Some(origin_of(url));
        }
        match tab.or(asked_tab) {
            Some(tab) => self.by_tab.get(&tab).cloned(),
            None => Some(ANY_ORIGIN.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_result_names_the_origin_of_the_page_it_shows_and_teaches_its_tab() {
        let mut tabs = TabOrigins::default();
        let extract = json!({"url": "https://shop.test/cart", "title": "Cart"});
        tabs.learn(Some(4), &extract);
        assert_eq!(
            tabs.origin(Some(4), &extract).as_deref(),
            Some("https://shop.test")
        );
        let click = json!({"clicked": {"tag": "button"}, "tabId": 4});
        assert_eq!(
            tabs.origin(None, &click).as_deref(),
            Some("https://shop.test")
        );
        // A click that navigated elsewhere names the new page, and the tab is there now.
        let left = json!({"tabId": 4, "navigated": {"url": "http://127.0.0.1:81/x", "title": ""}});
        tabs.learn(None, &left);
        assert_eq!(
            tabs.origin(None, &left).as_deref(),
            Some("http://127.0.0.1:81")
        );
        assert_eq!(
            tabs.origin(None, &click).as_deref(),
            Some("http://127.0.0.1:81")
        );
    }

    #[test]
    fn listed_and_opened_tabs_are_learnt_and_an_unknown_tab_asks_for_a_lookup() {
        let mut tabs = TabOrigins::default();
        let listing = json!({"tabs": [{"tabId": 7, "url": "https://a.test/"}, {"tabId": 8, "url": "about:blank"}]});
        tabs.learn(None, &listing);
        assert_eq!(tabs.origin(None, &listing).as_deref(), Some(ANY_ORIGIN));
        let opened = json!({"tabId": 7, "openedTab": {"tabId": 9, "url": "https://b.test/p"}});
        tabs.learn(None, &opened);
        assert_eq!(tabs.origin(Some(8), &json!({})).as_deref(), Some("about:"));
        assert_eq!(
            tabs.origin(None, &json!({"tabId": 9})).as_deref(),
            Some("https://b.test")
        );
        assert_eq!(tabs.origin(None, &json!({"tabId": 10})), None);
    }

    #[test]
    fn nonces_are_twelve_hex_digits_and_differ() {
        let (a, b) = (nonce(), nonce());
        assert_eq!(a.len(), 12);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()), "{a}");
        assert_ne!(a, b);
    }
}
