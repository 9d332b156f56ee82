//! Maps a page action onto its handler (SPEC §4), around the checks every page action shares: an open
//! JavaScript dialog and the release of the objects the action resolved (SPEC §7).

use super::ctx::Ctx;
use super::{
    dialogs, evaluate, forms, input, navigation, page, scrape, screenshot, scroll, tabs, wait,
};
use crate::error::{Error, Result};
use bua_protocol::Action;
use serde::Serialize;

/// Runs a page action on `ctx.tab_id` and returns its SPEC §4 result object.
///
/// A JavaScript dialog open on the tab fails every action with `element_obstructed` (the page is blocked),
/// except the ones that answer it: `evaluate` and the navigations (SPEC §7). Objects the action resolved in
/// the page are released afterwards.
pub(crate) async fn run(ctx: &Ctx, action: Action) -> Result<serde_json::Value> {
    let tab_id = ctx.tab_id;
    let answers_dialogs = matches!(
        action,
        Action::Evaluate(_)
            | Action::Navigate(_)
            | Action::GoBack(_)
            | Action::GoForward(_)
            | Action::Reload(_)
            | Action::CloseTab(_)
    );
    if !answers_dialogs {
        dialogs::ensure_none(tab_id)?;
    }
    let result = route(ctx, action).await;
    if crate::cdp::events::open_dialog(tab_id).is_none() {
        page::release(tab_id).await;
    }
    result
}

async fn route(ctx: &Ctx, action: Action) -> Result<serde_json::Value> {
    let tab_id = ctx.tab_id;
    match action {
        Action::Navigate(a) => {
            json(navigation::navigate(tab_id, &a.url, navigation::load_wait(a.load_wait_ms)).await?)
        }
        Action::GoBack(a) => {
            json(navigation::go(tab_id, -1, navigation::load_wait(a.load_wait_ms)).await?)
        }
        Action::GoForward(a) => {
            json(navigation::go(tab_id, 1, navigation::load_wait(a.load_wait_ms)).await?)
        }
        Action::Reload(a) => {
            json(navigation::reload(tab_id, navigation::load_wait(a.load_wait_ms)).await?)
        }
        Action::Click(a) => json(input::click(ctx, &a.locator, a.new_tab).await?),
        Action::ClickAt(a) => json(input::click_at(tab_id, a.x, a.y).await?),
        Action::Hover(a) => json(input::hover(tab_id, &a.locator).await?),
        Action::Type(a) => {
            json(input::type_text(tab_id, &a.locator, &a.text, a.clear, a.submit).await?)
        }
        Action::PressKey(a) => json(
            input::press_key(
                tab_id,
                &a.key,
                &a.modifiers,
                a.locator.as_ref(),
                a.wait_load,
                navigation::load_wait(a.load_wait_ms),
            )
            .await?,
        ),
        Action::Scroll(a) => {
            json(scroll::scroll(tab_id, a.dx, a.dy, a.to_end, a.locator.as_ref()).await?)
        }
        Action::SelectOption(a) => json(forms::select_option(tab_id, &a).await?),
        Action::Check(a) => json(forms::check(ctx, &a.locator, a.checked).await?),
        Action::SetValue(a) => json(forms::set_value(tab_id, &a.locator, &a.value).await?),
        Action::GetValue(a) => json(forms::get_value(tab_id, &a.locator).await?),
        Action::WaitFor(a) => json(wait::wait_for(tab_id, &a).await?),
        Action::Extract(a) => json(crate::extract::extract(tab_id, &a).await?),
        Action::Evaluate(a) => json(evaluate::evaluate(tab_id, &a.expression).await?),
        Action::Scrape(a) => json(scrape::scrape(tab_id, &a).await?),
        Action::Screenshot(a) => json(screenshot::screenshot(tab_id, &a).await?),
        // Tab and window management runs in the dispatcher without a page; a close that reaches a page
        // answers its beforeunload guard so it completes.
        Action::CloseTab(_) => json(dialogs::answering(tab_id, tabs::close_tab(tab_id)).await?),
        Action::ActivateTab(a) => json(tabs::activate_tab(a.tab_id).await?),
        other @ (Action::OpenTab(_)
        | Action::GetTabs
        | Action::CloseAgentTabs(_)
        | Action::CloseAgentWindow(_)) => Err(Error::Internal(format!(
            "{} does not act on a page and is handled by the dispatcher",
            other.name()
        ))),
    }
}

fn json<T: Serialize>(value: T) -> Result<serde_json::Value> {
    Ok(serde_json::to_value(value)?)
}
