//! What the report needs besides the measurements: the machine, the wasm module's size, how the
//! extension was built and the command line.

use crate::machine::MachineInfo;

/// Sizes of the extension's wasm module.
#[derive(Debug, Clone, Copy, Default)]
pub struct WasmSize {
    /// `dist/pkg/bua_extension_bg.wasm`, bytes.
    pub raw: u64,
    /// The same, `gzip -9`, bytes.
    pub gzip: Option<u64>,
}

/// Everything the report needs besides the measurements.
#[derive(Debug, Clone)]
pub struct Context {
    /// The machine.
    pub machine: MachineInfo,
    /// The wasm module's size.
    pub wasm: WasmSize,
    /// The wasm profile the extension was built with (`release` unless `BUA_WASM_PROFILE` says else).
    pub wasm_profile: String,
    /// The command line that made the report.
    pub command: String,
}
