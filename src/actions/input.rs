//! Mouse actions (SPEC §4): `click`, `click_at`, `hover`. The mouse events and the confirmed click on an
//! element are [`super::mouse`]'s; the point [`Element::clickable_point`] checked. A dialog the click raises is
//! answered by the action's dialog scope (SPEC §7, [`super::dialogs::answering`]) and the click completes. A
//! navigation the click starts is waited for ([`Watch`]), and so is the download a `download` link's click
//! starts.

use super::ctx::Ctx;
use super::handler::{Handler, Traits};
use super::locator;
use super::mouse::{self, mouse};
use super::navigation::Watch;
use super::page;
use super::pointer::{self, Point};
use crate::cdp;
use crate::error::{Error, Result};
use bua_protocol::{Click, ClickAt, ClickResult, ElementInfo, Hover, HoverResult};

/// How long `click` waits for a navigation it started to load, ms (the action has 10 s).
const CLICK_LOAD_BUDGET_MS: u32 = 7_000;

/// The `href` of the link `this` is or is inside (absolute), else null.
const LINK_HREF: &str = r#"function() {
  const a = this.closest ? this.closest('a[href], area[href]') : null;
  return a && typeof a.href === 'string' ? a.href : null;
}"#;

/// Whether `this` is, or is inside, a link with a `download` attribute: its click starts a download without
/// a navigation, so nothing else tells the click to wait for it.
const DOWNLOAD_LINK: &str = r#"function() {
  const a = this.closest ? this.closest('a[href][download], area[href][download]') : null;
  return !!a;
}"#;

/// How long a click on a `download` link waits for the download to begin (`Page.downloadWillBegin`), ms.
const DOWNLOAD_BEGIN_MS: u32 = 3_000;

/// Whether `this` is a form control the browser keeps from being clicked (`:disabled`: its own `disabled`
/// or a disabled `<fieldset>`'s): Chrome delivers no `click` to it, so the click could never be confirmed.
const DISABLED: &str = r#"function() { return !!(this.matches && this.matches(':disabled')); }"#;

/// Makes a link (or form) that would open a new tab or window open in this tab for the coming click,
/// restoring its `target` right after the click's activation (SPEC §4: links open in the same tab).
const SAME_TAB: &str = r#"function() {
  const el = this.closest ? this.closest('a[href], area[href], button, input') : null;
  let t = el && (el.localName === 'a' || el.localName === 'area') ? el : (el && el.form ? el.form : null);
  if (!t) return false;
  const target = t.getAttribute('target');
  if (!target || ['_self', '_top', '_parent'].includes(target.toLowerCase())) return false;
  t.setAttribute('target', '_self');
  const restore = () => t.setAttribute('target', target);
  t.ownerDocument.defaultView.addEventListener('click', () => setTimeout(restore, 0), { capture: true, once: true });
  setTimeout(restore, 3000);
  return true;
}"#;

/// `click {locator, newTab?}`.
///
/// Errors: locator errors, `element_not_found` (no visible box), `element_obstructed` (covered, names the
/// cover). A dialog raised by the click does not fail it.
impl Handler for Click {
    type Output = ClickResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<ClickResult> {
        let (locator, new_tab) = (&self.locator, self.new_tab);
        let element = ctx.locate(locator).await?;
        let clicked = element.describe().await?;
        if element.call(DISABLED, &[]).await?.as_bool() == Some(true) {
            return Err(Error::InvalidAction(format!(
            "the element to click is disabled (extract lists it with the flag `disabled`), so the page \
             takes no click on it; fill in what the form still needs, or wait_for the page to enable it, \
             then click again (a <{}>)",
            clicked.tag
        )));
        }
        if new_tab {
            if let Some(href) = element.call(LINK_HREF, &[]).await?.as_str() {
                crate::session::check_url_allowed(href, None).await?;
                let opened = crate::session::open_agent_tab(
                    &ctx.owner,
                    href,
                    &crate::session_domain(href),
                    false,
                )
                .await?;
                super::outcomes::opened(
                    ctx.tab_id,
                    bua_protocol::OpenedTab {
                        tab_id: opened.tab_id,
                        url: href.to_owned(),
                    },
                );
                return Ok(ClickResult {
                    clicked,
                    tab_id: opened.tab_id,
                    x: None,
                    y: None,
                });
            }
        }
        let point = element.clickable_point().await?;
        if !new_tab {
            element.call(SAME_TAB, &[]).await?;
        }
        let downloads = element.call(DOWNLOAD_LINK, &[]).await?.as_bool() == Some(true);
        // Registered before the click, so the result can report the download the click starts (SPEC §4).
        let download = downloads.then(|| {
            cdp::events::wait(ctx.tab_id, |e| {
                matches!(e, cdp::Event::DownloadWillBegin(_))
            })
        });
        Watch::around(ctx.tab_id, CLICK_LOAD_BUDGET_MS, element.click_at(point)).await?;
        if let Some(download) = download {
            if cdp::with_timeout(DOWNLOAD_BEGIN_MS, download)
                .await
                .is_none()
            {
                crate::log::info(&format!(
                "tab {tab_id}: the download link's click started no download within {DOWNLOAD_BEGIN_MS} ms",
                tab_id = ctx.tab_id
            ));
            }
        }
        Ok(ClickResult {
            clicked,
            tab_id: ctx.tab_id,
            x: None,
            y: None,
        })
    }
}

/// `click_at {x, y}`: clicks whatever is at the viewport point (CSS px).
///
/// Errors: `invalid_action` when the point is outside the viewport.
impl Handler for ClickAt {
    type Output = ClickResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<ClickResult> {
        let (x, y) = (self.x, self.y);
        let viewport = page::viewport(ctx.tab_id).await?;
        let (width, height) = viewport.size();
        if x < 0.0 || y < 0.0 || x >= width || y >= height {
            return Err(Error::InvalidAction(format!(
            "({x}, {y}) is outside tab {tab_id}'s viewport ({width}×{height} CSS px); use coordinates inside it \
             or scroll first",
             tab_id = ctx.tab_id
        )));
        }
        let point = Point { x, y };
        let clicked = match pointer::node_at(ctx.tab_id, point, viewport).await? {
            Some(object) => locator::describe_object(ctx.tab_id, &object).await?,
            None => ElementInfo {
                tag: "html".to_owned(),
                ..ElementInfo::default()
            },
        };
        let click = mouse::mouse_click(ctx.tab_id, point);
        Watch::around(ctx.tab_id, CLICK_LOAD_BUDGET_MS, click).await?;
        Ok(ClickResult {
            clicked,
            tab_id: ctx.tab_id,
            x: Some(x),
            y: Some(y),
        })
    }
}

/// `hover {locator}`: moves the mouse over the element's uncovered centre.
impl Handler for Hover {
    type Output = HoverResult;
    const TRAITS: Traits = Traits::INPUT;

    async fn run(&self, ctx: &Ctx) -> Result<HoverResult> {
        let locator = &self.locator;
        let element = ctx.locate(locator).await?;
        let hovered = element.describe().await?;
        let point = element.clickable_point().await?;
        mouse(ctx.tab_id, "mouseMoved", point, "none", 0).await?;
        Ok(HoverResult {
            hovered,
            tab_id: ctx.tab_id,
        })
    }
}
