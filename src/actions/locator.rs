//! Locators (SPEC §4) → elements held in the page.
//!
//! * `uid` → the tab's extract cache → `backendNodeId` → `DOM.resolveNode` (works for nodes in same-origin
//!   iframes and closed shadow roots, which page scripts cannot reach); unknown or detached →
//!   `element_stale`.
//! * `selector` → `querySelectorAll`, `xpath` → `document.evaluate` (a matched text or attribute node
//!   stands for its element), `text` → visible text: exact match first, then substring, then
//!   case-insensitive substring, deepest elements only, in document order, reaching into open shadow roots.
//!   `index` picks among the matches. No match → `element_not_found` with a hint to extract; an invalid
//!   selector or XPath → `invalid_action`.

use super::page::{self, Arg, RemoteObject};
use crate::cdp::Target;
use crate::error::{Error, Result};
use bua_protocol::{ElementInfo, Locator};
use serde_json::Value;

/// An element resolved for one action: a `Runtime.RemoteObjectId` in the action's object group.
#[derive(Clone, Debug)]
pub struct Element {
    /// The target whose page holds the object: the tab, or the session of the cross-origin frame the element
    /// is in (SPEC §5 "Frames"); every command about the element goes there.
    pub target: Target,
    /// The object in the page (the element's own frame's context).
    pub object_id: String,
    /// How the agent named it, for messages (`selector "#save"`, `uid e7`).
    pub label: String,
    /// Whether it came from a uid (detached later → `element_stale`, not `element_not_found`).
    pub from_uid: bool,
}

/// Finds the element(s) for a selector / xpath / text locator. Returns the element at `index`, or the
/// number of matches when there are not enough. Every match is an Element; hidden elements count for
/// `selector` and `xpath`, only rendered ones for `text`.
pub const FIND: &str = r#"function bua_find(kind, value, index) {
  let found = [];
  if (kind === 'selector') {
    found = Array.from(document.querySelectorAll(value));
  } else if (kind === 'xpath') {
    const r = document.evaluate(value, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    for (let i = 0; i < r.snapshotLength; i++) {
      let n = r.snapshotItem(i);
      if (n.nodeType === 2) n = n.ownerElement; else if (n.nodeType !== 1) n = n.parentElement;
      if (n && !found.includes(n)) found.push(n);
    }
  } else {
    const norm = s => (s || '').replace(/\s+/g, ' ').trim();
    const want = norm(value), lower = want.toLowerCase();
    const skip = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link']);
    const isButtonInput = e => e.localName === 'input' && ['button', 'submit', 'reset'].includes(e.type);
    const raw = e => isButtonInput(e) ? e.value : e.textContent;
    const all = [];
    const visit = root => {
      for (let c = root.firstElementChild; c; c = c.nextElementSibling) {
        if (skip.has(c.localName)) continue;
        if (c.shadowRoot) visit(c.shadowRoot);
        if (c.shadowRoot || norm(raw(c)).toLowerCase().includes(lower)) all.push(c);
        visit(c);
      }
    };
    visit(document);
    const shown = e => e.getClientRects().length > 0 && (!e.checkVisibility || e.checkVisibility({ visibilityProperty: true }));
    const text = e => norm(isButtonInput(e) ? e.value : (e.innerText !== undefined ? e.innerText : e.textContent));
    const up = n => n.parentNode || n.host || null;
    const inside = (outer, inner) => { for (let n = up(inner); n; n = up(n)) if (n === outer) return true; return false; };
    const texts = new Map();
    for (const e of all) if (shown(e)) texts.set(e, text(e));
    const tiers = [t => t === want, t => t.includes(want), t => t.toLowerCase().includes(lower)];
    for (const pass of tiers) {
      const hits = [...texts].filter(([, t]) => pass(t)).map(([e]) => e);
      if (hits.length) { found = hits.filter(h => !hits.some(o => o !== h && inside(h, o))); break; }
    }
  }
  return index < found.length ? found[index] : found.length;
}"#;

/// `{tag, role?, name?, id?, text?, type?}` of `this` (SPEC §4 result shapes); role and name are the
/// explicit ARIA ones or a close approximation of the implicit ones.
pub const DESCRIBE: &str = r#"function() {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el) return { tag: '#' + (this.nodeName || 'node').toLowerCase().replace(/^#/, '') };
  const tag = el.localName;
  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const cut = s => s.length > 100 ? s.slice(0, 99) + '…' : s;
  const type = el.getAttribute('type') || undefined;
  const implicit = () => {
    if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : undefined;
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'img') return 'img';
    if (tag === 'option') return 'option';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'input') {
      const t = (el.type || 'text').toLowerCase();
      return { checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox',
               button: 'button', submit: 'button', reset: 'button', image: 'button' }[t]
        || (['text', 'email', 'tel', 'url', 'password', ''].includes(t) ? 'textbox' : undefined);
    }
    if (el.isContentEditable) return 'textbox';
    return undefined;
  };
  const role = el.getAttribute('role') || implicit();
  const byIds = ids => ids.split(/\s+/).map(id => el.ownerDocument.getElementById(id)).filter(Boolean)
    .map(e => norm(e.innerText || e.textContent)).join(' ');
  let name = el.getAttribute('aria-label') || (el.getAttribute('aria-labelledby') && byIds(el.getAttribute('aria-labelledby')))
    || (el.labels && el.labels.length ? norm(el.labels[0].innerText) : '')
    || el.getAttribute('alt') || el.getAttribute('title') || el.getAttribute('placeholder') || '';
  if (!name && tag === 'input' && ['button', 'submit', 'reset'].includes(el.type)) name = el.value;
  const text = cut(norm(el.innerText !== undefined ? el.innerText : el.textContent));
  const out = { tag };
  if (role) out.role = role;
  if (norm(name)) out.name = cut(norm(name));
  if (el.id) out.id = el.id;
  if (text) out.text = text;
  if (type && (tag === 'input' || tag === 'button')) out.type = type;
  return out;
}"#;

/// Whether `this` is rendered with a box and not hidden by CSS.
pub const IS_VISIBLE: &str = r#"function() {
  const el = this.nodeType === 1 ? this : this.parentElement;
  return !!el && el.isConnected && el.getClientRects().length > 0
    && (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true }));
}"#;

/// Resolves `locator` on the tab's current page.
///
/// Errors: `element_stale` (uid unknown or detached), `element_not_found` (nothing matches, or `index` past
/// the matches; the message says how many matched and suggests extract), `invalid_action` (a selector or
/// XPath the browser cannot parse).
pub async fn resolve(tab_id: i64, locator: &Locator) -> Result<Element> {
    if let Locator::Uid(uid) = locator {
        return resolve_uid(tab_id, uid).await;
    }
    match find(tab_id, locator).await? {
        Found::Element(object_id) => Ok(Element {
            target: Target::tab(tab_id),
            object_id,
            label: locator.to_string(),
            from_uid: false,
        }),
        Found::Count(count) => Err(not_found(tab_id, locator, count)),
    }
}

/// What [`FIND`] gave.
pub enum Found {
    /// The element at the locator's index.
    Element(String),
    /// Not enough matches: how many there are.
    Count(u64),
}

/// Runs [`FIND`] for a selector / xpath / text locator.
pub async fn find(tab_id: i64, locator: &Locator) -> Result<Found> {
    let expression = find_expression(locator);
    let object = page::eval_object(tab_id, &expression)
        .await?
        .map_err(|message| invalid_locator(locator, &message))?;
    Ok(found(&object))
}

/// The expression that runs [`FIND`] for `locator`.
pub fn find_expression(locator: &Locator) -> String {
    format!(
        "({FIND})({}, {}, {})",
        page::js_str(locator.key()),
        page::js_str(locator.value()),
        locator.index()
    )
}

fn found(object: &RemoteObject) -> Found {
    match (&object.object_id, object.is_node()) {
        (Some(id), true) => Found::Element(id.clone()),
        _ => Found::Count(object.value.as_ref().and_then(Value::as_u64).unwrap_or(0)),
    }
}

async fn resolve_uid(tab_id: i64, uid: &str) -> Result<Element> {
    let (target, backend) = crate::extract::resolve_uid(tab_id, uid)?;
    let stale = || stale(tab_id, uid);
    let object_id = page::resolve_backend(&target, backend)
        .await?
        .ok_or_else(stale)?;
    let connected = page::call_value(
        &target,
        &object_id,
        "function() { return this.isConnected; }",
        &[],
    )
    .await?;
    if connected.as_bool() != Some(true) {
        return Err(stale());
    }
    Ok(Element {
        target,
        object_id,
        label: format!("uid {uid}"),
        from_uid: true,
    })
}

/// `element_stale` for a uid that no longer names a node in the document.
pub fn stale(tab_id: i64, uid: &str) -> Error {
    Error::ElementStale(format!(
        "the element of uid {uid} is no longer in tab {tab_id}'s page (the page removed or re-rendered it); \
         call extract and use the uid it lists for that element now"
    ))
}

/// `element_not_found` for a locator with `count` matches.
pub fn not_found(tab_id: i64, locator: &Locator, count: u64) -> Error {
    let what = match locator {
        Locator::Text { .. } => "visible element has that text",
        _ => "element matches",
    };
    if count == 0 {
        Error::ElementNotFound(format!(
            "no {what} ({locator}) on tab {tab_id}; call extract to see the page's elements and use a uid \
             (elements inside iframes are reachable by uid only), or wait_for it if it appears later"
        ))
    } else {
        Error::ElementNotFound(format!(
            "{locator} matches {count} element(s) on tab {tab_id}, so index {} is out of range (0..={}); \
             call extract to pick the right one by uid",
            locator.index(),
            count - 1
        ))
    }
}

fn invalid_locator(locator: &Locator, message: &str) -> Error {
    Error::InvalidAction(format!(
        "{}: {:?} cannot be used: {message}",
        locator.key(),
        locator.value()
    ))
}

/// What an element does (chromiumoxide's `Element` is the model): [`Element::describe`], [`Element::call`] here;
/// [`Element::clickable_point`] and [`Element::scroll_into_view`] in [`super::pointer`]; [`Element::click`]
/// in [`super::mouse`]; [`Element::focus`] in [`super::typing`].
impl Element {
    /// `{tag, role?, name?, id?, text?, type?}` (SPEC §4).
    pub async fn describe(&self) -> Result<ElementInfo> {
        describe_object(&self.target, &self.object_id).await
    }

    /// The tab whose page holds the element (in one of its frames).
    pub fn tab_id(&self) -> i64 {
        self.target.tab_id
    }

    /// An error for this element having left the document mid-action.
    pub fn gone(&self) -> Error {
        let tab_id = self.tab_id();
        if self.from_uid {
            Error::ElementStale(format!(
                "the element ({}) left tab {tab_id}'s document during the action; call extract again",
                self.label
            ))
        } else {
            Error::ElementNotFound(format!(
                "the element ({}) left tab {tab_id}'s document during the action; call extract or wait_for it",
                self.label
            ))
        }
    }

    /// Calls `function` on the element (in its frame's target) and returns its JSON value.
    pub async fn call(&self, function: &str, args: &[Arg]) -> Result<Value> {
        page::call_value(&self.target, &self.object_id, function, args).await
    }

    /// Calls `function` on the element and returns the element it returns (`this`, or another one such as a
    /// label's control), or `None` when it returned something else.
    pub async fn call_for_element(
        &self,
        function: &str,
        args: &[Arg],
    ) -> Result<std::result::Result<Element, Value>> {
        let object = page::call_function(&self.target, &self.object_id, function, args, false)
            .await?
            .map_err(|m| Error::Internal(format!("page script failed: {m}")))?;
        let is_node = object.is_node();
        match (object.object_id, is_node) {
            (Some(id), true) => Ok(Ok(Element {
                target: self.target.clone(),
                object_id: id,
                label: self.label.clone(),
                from_uid: self.from_uid,
            })),
            _ => Ok(Err(object.value.unwrap_or(Value::Null))),
        }
    }

    /// [`Element::call_for_element`] for an element the action needs: when `function` returns none, the
    /// action fails with `invalid_action` and the message `refusal` makes of the reason the script returned
    /// (`unfit` when it returned no string).
    pub async fn element_for(
        &self,
        function: &str,
        unfit: &str,
        refusal: impl FnOnce(&str) -> String,
    ) -> Result<Element> {
        self.call_for_element(function, &[])
            .await?
            .map_err(|reason| Error::InvalidAction(refusal(reason.as_str().unwrap_or(unfit))))
    }
}

/// [`DESCRIBE`] of any object in the page of `target`.
pub async fn describe_object(target: impl Into<Target>, object_id: &str) -> Result<ElementInfo> {
    let v = page::call_value(target, object_id, DESCRIBE, &[]).await?;
    Ok(serde_json::from_value(v)?)
}

#[cfg(test)]
mod tests {
    use bua_protocol::ErrorCode;

    #[test]
    fn a_uid_beyond_the_last_extract_is_said_plainly_to_be_unknown() {
        use crate::extract::uids::Given;
        let e = crate::extract::stale(5, "e999", Given::Never, 0..42);
        assert_eq!(e.code(), ErrorCode::ElementStale);
        let m = e.to_string();
        assert!(
            m.contains("e999 was never given on tab 5's current page"),
            "{m}"
        );
        assert!(m.contains("e0…e41"), "{m}");
        assert!(!m.contains("navigated"), "{m}");
        // No extract held (never extracted, or the page navigated): the stale message.
        let m = crate::extract::stale(5, "e3", Given::Never, 0..0).to_string();
        assert!(m.contains("navigated"), "{m}");
        let m = crate::extract::stale(5, "e3", Given::EarlierPage, 40..42).to_string();
        assert!(m.contains("before it navigated"), "{m}");
        assert!(m.contains("e40…e41"), "{m}");
        // A uid given on the page whose node was forgotten, or a non-uid, reads as stale.
        let m = crate::extract::stale(5, "button", Given::Never, 0..42).to_string();
        assert!(m.contains("call extract"), "{m}");
    }
}
