import init, { options_main } from "../pkg/bua_extension.js";
await init({ module_or_path: "../pkg/bua_extension_bg.wasm" });
options_main();
