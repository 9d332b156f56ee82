//! Maps a page action onto its handler (SPEC §4), around what every page action shares: JavaScript dialogs
//! (SPEC §7), the outcomes the result reports ([`outcomes`]), and the release of the objects the action
//! resolved.

use super::ctx::Ctx;
use super::dialogs::{self, Policy};
use super::{
    evaluate, forms, handoff, input, navigation, outcomes, page, scrape, screenshot, scroll, tabs,
    wait,
};
use crate::cdp::event::JavascriptDialogOpening;
use crate::error::{Error, Result};
use bua_protocol::{Action, ExtractResult, OpenDialog};
use serde::Serialize;
use serde_json::Value;

/// Runs a page action on `ctx.tab_id` and returns its SPEC §4 result object with its outcomes.
///
/// Dialogs (SPEC §7): every dialog that opens while the action runs is answered by the action's `dialog` /
/// `promptText` (default: alert and beforeunload accepted, confirm and prompt dismissed) and reported. A
/// dialog already open when the action starts is answered by the default and reported on an agent's tab;
/// on a tab the user is using it is the user's: the action fails with `element_obstructed` (`extract`
/// says it is open instead), except `evaluate` and the navigations, which answer it as they always did.
pub(crate) async fn run(ctx: &Ctx, action: Action) -> Result<Value> {
    let tab_id = ctx.tab_id;
    let is_navigation = matches!(
        action,
        Action::Navigate(_)
            | Action::GoBack(_)
            | Action::GoForward(_)
            | Action::Reload(_)
            | Action::CloseTab(_)
    );
    if let Some(open) = crate::cdp::events::open_dialog(tab_id) {
        let answers_open = is_navigation || matches!(action, Action::Evaluate(_));
        if !answers_open && !crate::windows::is_agent_tab(tab_id).await {
            if matches!(action, Action::Extract(_)) {
                return json(blocked_extract(tab_id, &open).await?);
            }
            dialogs::ensure_none(tab_id)?;
        }
    }
    let policy = Policy {
        dialog: action.dialog(),
        leaves_page: is_navigation,
    };
    let collector = outcomes::Collector::start(ctx);
    // Boxed: the handlers' futures are large, and unoptimised builds copy them through the wasm stack.
    let result = dialogs::answering(tab_id, policy, Box::pin(route(ctx, action))).await;
    if dialogs::left_open(tab_id).is_none() {
        page::release(tab_id).await;
    }
    let mut value = result?;
    collector.finish(is_navigation).await.merge_into(&mut value);
    Ok(value)
}

/// `extract` of a tab whose page a dialog left to the user blocks: what the tab says, and the dialog.
async fn blocked_extract(tab_id: i64, dialog: &JavascriptDialogOpening) -> Result<ExtractResult> {
    let tab = crate::chrome::tabs::get(tab_id).await?;
    Ok(ExtractResult {
        url: tab.url().to_owned(),
        title: tab.title.clone().unwrap_or_default(),
        text: None,
        markdown: None,
        elements: None,
        obstacle: None,
        truncated: Default::default(),
        total_elements: 0,
        dialog: Some(OpenDialog {
            r#type: dialog.kind.clone(),
            message: dialog.message.clone(),
        }),
        dialogs: Vec::new(),
    })
}

async fn route(ctx: &Ctx, action: Action) -> Result<Value> {
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
        Action::Evaluate(a) => {
            json(evaluate::evaluate(tab_id, &a.expression, a.frame.as_deref()).await?)
        }
        Action::Scrape(a) => json(scrape::scrape(tab_id, &a).await?),
        Action::Screenshot(a) => json(screenshot::screenshot(tab_id, &a).await?),
        Action::Handoff(a) => json(handoff::handoff(ctx, &a).await?),
        Action::Upload(a) => json(super::upload::upload(ctx, &a).await?),
        Action::Drag(a) => json(super::drag::drag(ctx, &a).await?),
        Action::Console(a) => json(super::observe::console(tab_id, &a)),
        Action::Network(a) => json(super::observe::network(tab_id, &a)),
        Action::Pdf(a) => json(super::observe::pdf(tab_id, &a).await?),
        // Tab and window management runs in the dispatcher without a page; a close that reaches a page
        // answers its beforeunload guard (the answering scope around it) so it completes.
        Action::CloseTab(_) => json(tabs::close_tab(tab_id).await?),
        Action::ActivateTab(a) => json(tabs::activate_tab(a.tab_id).await?),
        other @ (Action::OpenTab(_)
        | Action::GetTabs
        | Action::CloseAgentTabs(_)
        | Action::CloseAgentWindow(_)
        | Action::Downloads(_)) => Err(Error::Internal(format!(
            "{} does not act on a page and is handled by the dispatcher",
            other.name()
        ))),
    }
}

fn json<T: Serialize>(value: T) -> Result<Value> {
    Ok(serde_json::to_value(value)?)
}
