//! What a peer run measured: each tool call as the agent experiences it, per page and tool, and the
//! run as a whole.

/// One tool call as the agent experiences it.
#[derive(Debug, Clone, Default)]
pub struct Call {
    /// ms from request to answer.
    pub ms: f64,
    /// UTF-8 bytes of the result's text.
    pub bytes: usize,
    /// Why it failed (a tool error's text, a timeout), when it did.
    pub error: Option<String>,
}

/// One page with one tool.
#[derive(Debug, Clone, Default)]
pub struct Measured {
    /// The navigate call.
    pub nav: Call,
    /// The read call (absent when the navigation failed).
    pub read: Option<Call>,
    /// Recall of the expected article's words in the read's text (pages whose expected text is
    /// under `RECALL_MAX_EXPECTED_BYTES`).
    pub recall: Option<f64>,
}

impl Measured {
    /// The read, when navigate and read both worked.
    pub fn ok_read(&self) -> Option<&Call> {
        self.read
            .as_ref()
            .filter(|r| r.error.is_none() && self.nav.error.is_none())
    }
}

/// One corpus page.
#[derive(Debug, Clone, Default)]
pub struct PageRow {
    /// The corpus folder name.
    pub name: String,
    /// Per tool, in [`TOOLS`](super::TOOLS) order.
    pub tools: [Measured; 3],
}

/// The whole run.
#[derive(Debug, Clone, Default)]
pub struct PeerResults {
    /// Per page.
    pub pages: Vec<PageRow>,
    /// `serverInfo` per tool, in [`TOOLS`](super::TOOLS) order.
    pub servers: [String; 3],
    /// The 1-minute load average before and after.
    pub load: (String, String),
    /// Wall time, s.
    pub seconds: f64,
    /// Pages whose expected text counts for recall.
    pub recall_pages: usize,
}

/// The 1-minute load average now.
pub fn load_now() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}
