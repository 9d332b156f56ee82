//! Reading the tab (SPEC §4): `extract` ([`crate::extract`]); `console`, `network`: what the tab logged and
//! requested since the debugger attached, read from its bounded buffers ([`crate::cdp::journal`]); and `pdf`
//! (`Page.printToPDF`).

use super::ctx::Ctx;
use super::handler::{Handler, OpenDialog, Traits};
use crate::cdp::commands::PagePrintToPdf;
use crate::cdp::{self, journal};
use crate::error::{Error, Result};
use bua_protocol::{
    Console, ConsoleResult, Extract, ExtractResult, Network, NetworkResult, Pdf, PdfResult,
};

/// `Page.printToPDF` time limit, ms (the action has 30 s).
const PRINT_TIMEOUT_MS: u32 = 25_000;

/// `extract` (SPEC §4): [`crate::extract::extract`]. A dialog the user has open on the tab is reported in
/// its result instead of reading the page.
impl Handler for Extract {
    type Output = ExtractResult;
    const TRAITS: Traits = Traits::PAGE.with_open_dialog(OpenDialog::Report);

    async fn run(&self, ctx: &Ctx) -> Result<ExtractResult> {
        crate::extract::extract(ctx.tab_id, self).await
    }
}

/// `console {level?, since?}`.
impl Handler for Console {
    type Output = ConsoleResult;
    const TRAITS: Traits = Traits::PAGE;

    async fn run(&self, ctx: &Ctx) -> Result<ConsoleResult> {
        let page = journal::with(ctx.tab_id, |j| j.console(self.level, self.since));
        Ok(ConsoleResult {
            entries: page.entries,
            dropped: page.dropped,
            next: page.next,
            tab_id: ctx.tab_id,
        })
    }
}

/// `network {filter?, since?}`.
impl Handler for Network {
    type Output = NetworkResult;
    const TRAITS: Traits = Traits::PAGE;

    async fn run(&self, ctx: &Ctx) -> Result<NetworkResult> {
        let page = journal::with(ctx.tab_id, |j| {
            j.network(self.filter.as_deref(), self.since)
        });
        Ok(NetworkResult {
            requests: page.entries,
            dropped: page.dropped,
            next: page.next,
            tab_id: ctx.tab_id,
        })
    }
}

/// `pdf {landscape?, printBackground?}`.
///
/// Errors: `invalid_action` when the PDF is larger than the bridge carries, `timeout` when Chrome takes
/// longer than 25 s.
impl Handler for Pdf {
    type Output = PdfResult;
    const TRAITS: Traits = Traits::PAGE;

    async fn run(&self, ctx: &Ctx) -> Result<PdfResult> {
        let params = PagePrintToPdf {
            landscape: self.landscape,
            print_background: self.print_background,
        };
        let printed = cdp::send_with_timeout(ctx.tab_id, &params, PRINT_TIMEOUT_MS).await?;
        let data = printed
            .data
            .ok_or_else(|| Error::Internal("Page.printToPDF returned no data".into()))?;
        if data.len() > super::screenshot::MAX_DATA_BYTES {
            return Err(Error::InvalidAction(format!(
                "the PDF is {} MB, more than the bridge carries; print a shorter page",
                data.len() / (1024 * 1024)
            )));
        }
        Ok(PdfResult {
            mime: "application/pdf".to_owned(),
            data,
            tab_id: ctx.tab_id,
        })
    }
}
