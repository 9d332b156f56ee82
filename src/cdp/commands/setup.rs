//! The commands of the small domains a tab is set up with when the debugger attaches
//! ([`crate::cdp::ensure_attached`]): focus emulation, and the sources of `console` and `network`.

use crate::cdp::command::Empty;

command!(
    /// `Emulation.setFocusEmulationEnabled`: the page behaves as focused even when its window is not.
    pub struct EmulationSetFocusEmulationEnabled {
        /// On or off.
        pub enabled: bool,
    } => "Emulation.setFocusEmulationEnabled", Empty
);

command!(
    /// `Network.enable` (bodies are not asked for, so none are kept beyond Chrome's own buffer).
    pub struct NetworkEnable => "Network.enable", Empty
);

command!(
    /// `Log.enable`: browser-side messages (failed loads, interventions) as `Log.entryAdded`.
    pub struct LogEnable => "Log.enable", Empty
);
