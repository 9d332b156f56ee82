import init, { popup_main } from "../pkg/bua_extension.js";
await init({ module_or_path: "../pkg/bua_extension_bg.wasm" });
popup_main();
