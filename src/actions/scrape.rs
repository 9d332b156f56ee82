//! `scrape {item, fields?, limit?, timeoutMs?}` (SPEC §4, the v1 bridge's `scrape`): static CSS queries
//! only (no agent code runs in the page). Each `item` match becomes an object; each field is
//! `"selector[@attr]"` inside the item — the element's text, or the attribute (`a@href` / `img@src` as
//! absolute URLs); `null` when the selector matches nothing. Without `fields` each item is `{text}`.
//! Waits up to `timeoutMs` for the first item to appear; none by then → `count: 0`.

use super::ctx::Ctx;
use super::handler::{Handler, Traits};
use super::page;
use crate::cdp;
use crate::error::{Error, Result};
use bua_protocol::{split_field_spec, Scrape, ScrapeResult, DEFAULT_SCRAPE_TIMEOUT_MS};
use serde_json::{json, Map, Value};

/// Runs the queries: `fields` is `[[name, selector, attr|null], …]`. Returns the items, or a string
/// naming the selector that does not parse.
const SCRAPE: &str = r#"(item, fields, limit) => {
  const check = s => { try { document.createDocumentFragment().querySelector(s); return null; } catch (e) { return s; } };
  const bad = [item, ...fields.map(f => f[1]).filter(Boolean)].map(check).find(Boolean);
  if (bad) return { bad };
  const norm = s => (s || '').replace(/[ \t\f\v\r]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
  const urlAttrs = ['href', 'src', 'action', 'poster', 'data'];
  const items = Array.from(document.querySelectorAll(item)).slice(0, limit > 0 ? limit : undefined);
  return { items: items.map(el => {
    const o = {};
    for (const [name, sel, attr] of fields) {
      const t = sel ? el.querySelector(sel) : el;
      if (!t) { o[name] = null; continue; }
      if (!attr) { o[name] = norm(t.innerText !== undefined ? t.innerText : t.textContent); continue; }
      const prop = urlAttrs.includes(attr) ? t[attr] : undefined;
      o[name] = typeof prop === 'string' && prop && t.hasAttribute(attr) ? prop : t.getAttribute(attr);
    }
    return o;
  }) };
}"#;

/// `scrape`.
///
/// Errors: `invalid_action` when `item` or a field selector is not valid CSS.
impl Handler for Scrape {
    type Output = ScrapeResult;
    const TRAITS: Traits = Traits::PAGE;

    async fn run(&self, ctx: &Ctx) -> Result<ScrapeResult> {
        let fields: Vec<Value> = match &self.fields {
            Some(fields) => fields
                .iter()
                .map(|(name, spec)| {
                    let (selector, attr) = split_field_spec(spec);
                    json!([name, selector, attr])
                })
                .collect(),
            None => vec![json!(["text", "", null])],
        };
        let expression = format!(
            "({SCRAPE})({}, {}, {})",
            page::js_str(&self.item),
            Value::Array(fields),
            self.limit.unwrap_or(0)
        );
        let timeout = self.timeout_ms.unwrap_or(DEFAULT_SCRAPE_TIMEOUT_MS) as f64;
        let deadline = page::now_ms() + timeout;
        loop {
            super::dialogs::ensure_none(ctx.tab_id)?;
            // While the page navigates the evaluation may fail: that is "no items yet".
            let r = match page::eval_value_with_timeout(ctx.tab_id, &expression, 5_000).await {
                Ok(v) => v,
                Err(e @ Error::SessionNotFound(_)) => return Err(e),
                Err(_) => Value::Null,
            };
            if let Some(bad) = r.get("bad").and_then(Value::as_str) {
                return Err(Error::InvalidAction(format!(
                    "scrape: {bad:?} is not a valid CSS selector"
                )));
            }
            let items: Vec<Map<String, Value>> = r
                .get("items")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|i| i.as_object().cloned()).collect())
                .unwrap_or_default();
            if !items.is_empty() || page::now_ms() >= deadline {
                return Ok(ScrapeResult {
                    count: u32::try_from(items.len()).unwrap_or(u32::MAX),
                    items,
                    tab_id: ctx.tab_id,
                });
            }
            cdp::sleep(200).await;
        }
    }
}
