//! `console`, `network` (SPEC §4): what the tab logged and requested since the debugger attached, read from
//! its bounded buffers ([`crate::cdp::journal`]); and `pdf` (`Page.printToPDF`).

use crate::cdp::commands::PagePrintToPdf;
use crate::cdp::{self, journal};
use crate::error::{Error, Result};
use bua_protocol::{Console, ConsoleResult, Network, NetworkResult, Pdf, PdfResult};

/// `Page.printToPDF` time limit, ms (the action has 30 s).
const PRINT_TIMEOUT_MS: u32 = 25_000;

/// `console {level?, since?}`.
pub fn console(tab_id: i64, action: &Console) -> ConsoleResult {
    let page = journal::with(tab_id, |j| j.console(action.level, action.since));
    ConsoleResult {
        entries: page.entries,
        dropped: page.dropped,
        next: page.next,
        tab_id,
    }
}

/// `network {filter?, since?}`.
pub fn network(tab_id: i64, action: &Network) -> NetworkResult {
    let page = journal::with(tab_id, |j| {
        j.network(action.filter.as_deref(), action.since)
    });
    NetworkResult {
        requests: page.entries,
        dropped: page.dropped,
        next: page.next,
        tab_id,
    }
}

/// `pdf {landscape?, printBackground?}`.
///
/// Errors: `invalid_action` when the PDF is larger than the bridge carries, `timeout` when Chrome takes
/// longer than 25 s.
pub async fn pdf(tab_id: i64, action: &Pdf) -> Result<PdfResult> {
    let params = PagePrintToPdf {
        landscape: action.landscape,
        print_background: action.print_background,
    };
    let printed = cdp::send_with_timeout(tab_id, &params, PRINT_TIMEOUT_MS).await?;
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
        tab_id,
    })
}
