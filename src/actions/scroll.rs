//! `scroll {dx?, dy?, toEnd?, locator?}` (SPEC §4): scrolls the window, or the container the locator names
//! (or the nearest scrollable ancestor of that element), instantly, and reports the distance actually
//! moved, whether the end was reached, and the located element.

use super::ctx::Ctx;
use super::handler::{Handler, Traits};
use super::page::{self, Arg};
use crate::error::Result;
use bua_protocol::{Scroll, ScrollDelta, ScrollResult};
use serde_json::{json, Value};

/// Scrolls `target` (an element, or null for the page) by `dx`/`dy` CSS px, or to the bottom with `toEnd`.
/// Returns `{dx, dy, atEnd}` measured from `scrollLeft`/`scrollTop` before and after.
const SCROLL: &str = r#"function bua_scroll(target, dx, dy, toEnd) {
  const scrollable = e => {
    const cs = getComputedStyle(e);
    return (e.scrollHeight > e.clientHeight + 1 && /(auto|scroll|overlay)/.test(cs.overflowY))
        || (e.scrollWidth > e.clientWidth + 1 && /(auto|scroll|overlay)/.test(cs.overflowX));
  };
  let el = null;
  for (let e = target; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode().host || null)) {
    if (e === e.ownerDocument.documentElement || e === e.ownerDocument.body) break;
    if (scrollable(e)) { el = e; break; }
  }
  const doc = target ? target.ownerDocument : document;
  if (!el) el = doc.scrollingElement || doc.documentElement;
  const x0 = el.scrollLeft, y0 = el.scrollTop;
  if (toEnd) el.scrollTo({ left: x0, top: el.scrollHeight, behavior: 'instant' });
  else el.scrollBy({ left: dx || 0, top: dy || 0, behavior: 'instant' });
  const moved = { dx: el.scrollLeft - x0, dy: el.scrollTop - y0 };
  const vertical = toEnd || dy || !dx;
  const atEnd = vertical
    ? Math.ceil(el.scrollTop + el.clientHeight) >= el.scrollHeight - 1
    : Math.ceil(el.scrollLeft + el.clientWidth) >= el.scrollWidth - 1;
  return { dx: moved.dx, dy: moved.dy, atEnd };
}"#;

/// `scroll`.
///
/// Errors: locator errors.
impl Handler for Scroll {
    type Output = ScrollResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<ScrollResult> {
        let (dx, dy, to_end, locator) = (self.dx, self.dy, self.to_end, self.locator.as_ref());
        let args = [
            json!(dx.unwrap_or(0.0)),
            json!(dy.unwrap_or(0.0)),
            json!(to_end),
        ];
        let mut described = None;
        let r = match locator {
            None => {
                page::eval_value(
                    ctx.tab_id,
                    &format!("({SCROLL})(null, {}, {}, {})", args[0], args[1], args[2]),
                )
                .await?
            }
            Some(locator) => {
                let element = ctx.locate(locator).await?;
                described = Some(element.describe().await?);
                let mut call_args = vec![Arg::Object(element.object_id.clone())];
                call_args.extend(args.into_iter().map(Arg::Value));
                element
                    .call(
                        &format!(
                            "function(t, dx, dy, toEnd) {{ return ({SCROLL})(t, dx, dy, toEnd); }}"
                        ),
                        &call_args,
                    )
                    .await?
            }
        };
        let num = |k: &str| r.get(k).and_then(Value::as_f64).unwrap_or(0.0);
        Ok(ScrollResult {
            scrolled: ScrollDelta {
                dx: num("dx"),
                dy: num("dy"),
            },
            at_end: r.get("atEnd").and_then(Value::as_bool).unwrap_or(false),
            element: described,
            tab_id: ctx.tab_id,
        })
    }
}
