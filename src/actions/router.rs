//! Maps every action onto its handler ([`route`], SPEC §4), and runs a page action's handler inside what every
//! page action shares ([`run`]): JavaScript dialogs (SPEC §7), the outcomes the result reports
//! ([`outcomes`]), and the release of the objects the action resolved.

use super::changes;
use super::ctx::Ctx;
use super::dialogs::{self, Policy};
use super::handler::{Handler, OpenDialog, Pageless, Traits};
use super::{navigation, outcomes, page, tabs};
use crate::cdp::event::JavascriptDialogOpening;
use crate::error::Result;
use bua_protocol::{Action, DialogPolicy, ExtractResult, OpenDialog as OpenDialogInfo};
use futures::future::LocalBoxFuture;
use serde::Serialize;
use serde_json::Value;

/// Runs a page action on `ctx.tab_id` and returns its SPEC §4 result object with its outcomes.
///
/// Dialogs (SPEC §7): every dialog that opens while the action runs is answered by the action's `dialog` /
/// `promptText` (default: alert and beforeunload accepted, confirm and prompt dismissed) and reported. A
/// dialog already open when the action starts is answered by the default and reported on an agent's tab;
/// on a tab the user is using it is the user's ([`Traits::open_dialog`]): the action fails with
/// `element_obstructed` (`extract` says it is open instead), except `evaluate` and the navigations, which
/// answer it as they always did.
pub(crate) async fn run(
    ctx: &Ctx,
    action: Box<dyn PageAction>,
    dialog: DialogPolicy,
) -> Result<Value> {
    let tab_id = ctx.tab_id;
    let traits = action.traits();
    if let Some(open) = crate::cdp::events::open_dialog(tab_id) {
        if traits.open_dialog != OpenDialog::Answer && !crate::windows::is_agent_tab(tab_id).await {
            if traits.open_dialog == OpenDialog::Report {
                return json(blocked_extract(tab_id, &open).await?);
            }
            dialogs::ensure_none(tab_id)?;
        }
    }
    let policy = Policy {
        dialog,
        leaves_page: traits.navigation,
    };
    let collector = outcomes::Collector::start(ctx);
    let since = crate::cdp::journal::with(tab_id, |j| j.mark());
    let result = dialogs::answering(tab_id, policy.clone(), action.run(ctx)).await;
    // What the action changed, read in the action's dialog scope (settling the page runs its scripts).
    let after = match result.is_ok() && traits.changes && dialogs::left_open(tab_id).is_none() {
        true => {
            // A new document gets its view whole; a same-document route (`go_back` over `pushState`) its
            // changes.
            let fresh = collector.navigated();
            let read = Box::pin(changes::after_action(tab_id, fresh, since));
            Some(dialogs::answering(tab_id, policy, read).await)
        }
        false => None,
    };
    if dialogs::left_open(tab_id).is_none() {
        page::release(tab_id).await;
    }
    let mut value = result?;
    let mut outcomes = collector.finish(traits.navigation).await;
    if let Some(after) = after.and_then(|read| changes::or_logged(tab_id, read)) {
        after.report(&mut outcomes);
    }
    outcomes.merge_into(&mut value);
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
        page: None,
        pages: None,
        dialog: Some(OpenDialogInfo {
            r#type: dialog.kind.clone(),
            message: dialog.message.clone(),
        }),
        dialogs: Vec::new(),
    })
}

/// The one table: every action → its handler. Exhaustive, so an action without a handler does not compile.
pub(crate) fn route(action: Action) -> Routed {
    match action {
        Action::OpenTab(p) => pageless(p),
        Action::Navigate(p) => page(p),
        Action::GoBack(p) => page(navigation::GoBack(p)),
        Action::GoForward(p) => page(navigation::GoForward(p)),
        Action::Reload(p) => page(navigation::Reload(p)),
        Action::GetTabs => pageless(tabs::GetTabs),
        Action::ActivateTab(p) => pageless(p),
        Action::CloseTab(p) => pageless(p),
        Action::CloseAgentTabs(p) => pageless(tabs::CloseAgentTabs(p)),
        Action::CloseAgentWindow(p) => pageless(tabs::CloseAgentWindow(p)),
        Action::Click(p) => page(p),
        Action::ClickAt(p) => page(p),
        Action::Hover(p) => page(p),
        Action::Type(p) => page(p),
        Action::PressKey(p) => page(p),
        Action::Scroll(p) => page(p),
        Action::SelectOption(p) => page(p),
        Action::Check(p) => page(p),
        Action::Fill(p) => page(p),
        Action::SetValue(p) => page(p),
        Action::GetValue(p) => page(p),
        Action::WaitFor(p) => page(p),
        Action::Extract(p) => page(p),
        Action::Find(p) => page(p),
        Action::Evaluate(p) => page(p),
        Action::Scrape(p) => page(p),
        Action::Screenshot(p) => page(p),
        Action::Handoff(p) => page(p),
        Action::Upload(p) => page(p),
        Action::Drag(p) => page(p),
        Action::Console(p) => page(p),
        Action::Network(p) => page(p),
        Action::Pdf(p) => page(p),
        Action::Downloads(p) => pageless(p),
    }
}

/// An action with its handler, as [`route`] gives it.
pub(crate) enum Routed {
    /// It acts on a page: the dispatcher's full pipeline, then [`run`].
    Page(Box<dyn PageAction>),
    /// It manages tabs, windows or downloads: the dispatcher runs it as it is.
    Pageless(Box<dyn PagelessAction>),
}

fn page(handler: impl Handler) -> Routed {
    Routed::Page(Box::new(handler))
}

fn pageless(handler: impl Pageless) -> Routed {
    Routed::Pageless(Box::new(handler))
}

/// A [`Handler`] with its parameters, its output type erased to the result object.
pub(crate) trait PageAction {
    /// [`Handler::TRAITS`].
    fn traits(&self) -> Traits;
    /// [`Handler::run`], its output as JSON. Boxed: the handlers' futures are large, and unoptimised builds
    /// copy them through the wasm stack.
    fn run<'a>(self: Box<Self>, ctx: &'a Ctx) -> LocalBoxFuture<'a, Result<Value>>;
}

impl<H: Handler> PageAction for H {
    fn traits(&self) -> Traits {
        H::TRAITS
    }

    fn run<'a>(self: Box<Self>, ctx: &'a Ctx) -> LocalBoxFuture<'a, Result<Value>> {
        Box::pin(async move { json(Handler::run(&*self, ctx).await?) })
    }
}

/// A [`Pageless`] handler with its parameters, its output type erased to the result object.
pub(crate) trait PagelessAction {
    /// [`Pageless::run`], its output as JSON.
    fn run<'a>(self: Box<Self>, owner: &'a str) -> LocalBoxFuture<'a, Result<Value>>;
}

impl<H: Pageless> PagelessAction for H {
    fn run<'a>(self: Box<Self>, owner: &'a str) -> LocalBoxFuture<'a, Result<Value>> {
        Box::pin(async move { json(Pageless::run(&*self, owner).await?) })
    }
}

fn json<T: Serialize>(value: T) -> Result<Value> {
    Ok(serde_json::to_value(value)?)
}
