// The Playwright peer of bua-bench (issue 8). It launches its own headless /usr/bin/chromium through
// playwright-core and answers JSON lines on stdin/stdout, one answer per command, in order:
//
//   {"cmd":"start","executablePath":"/usr/bin/chromium","width":800,"height":600}
//        -> {"ok":true,"browser":"156.0.…","playwright":"1.65.1"}
//   {"cmd":"goto","url":"http://127.0.0.1:…/gen/1k.html"}      -> {"ok":true,"ms":…}
//   {"cmd":"aria"}   -> {"ok":true,"ms":…,"bytes":…}   ariaSnapshot() of <body>, timed here (ms)
//   {"cmd":"quit"}   -> {"ok":true}, then the browser is closed and the process exits
//
// Errors answer {"ok":false,"error":"…"}. The peer exits (closing its browser) when stdin closes.
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import readline from "node:readline";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const playwrightVersion = require("playwright-core/package.json").version;

let browser = null;
let context = null;
let page = null;
let profile = null;

const send = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

async function start(cmd) {
  profile = mkdtempSync(join(tmpdir(), "bua-bench-pw-"));
  // The house flags for headless Chromium; Playwright adds its own automation flags.
  const args = [
    "--headless=new",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    // Loopback only, as for the extension's browser: external hosts fail at once.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
  ];
  context = await chromium.launchPersistentContext(profile, {
    executablePath: cmd.executablePath || "/usr/bin/chromium",
    headless: true,
    args,
    viewport: { width: cmd.width || 1280, height: cmd.height || 720 },
  });
  browser = context.browser();
  page = context.pages()[0] || (await context.newPage());
  return { browser: browser ? browser.version() : "unknown", playwright: playwrightVersion };
}

async function handle(cmd) {
  switch (cmd.cmd) {
    case "start":
      return start(cmd);
    case "goto": {
      const t0 = performance.now();
      await page.goto(cmd.url, { waitUntil: "load", timeout: 60000 });
      return { ms: performance.now() - t0 };
    }
    case "aria": {
      const t0 = performance.now();
      const snapshot = await page.locator("body").ariaSnapshot({ timeout: 60000 });
      const ms = performance.now() - t0;
      return { ms, bytes: Buffer.byteLength(snapshot, "utf8") };
    }
    case "quit":
      await shutdown();
      return {};
    default:
      throw new Error(`unknown command ${JSON.stringify(cmd.cmd)}`);
  }
}

async function shutdown() {
  if (context) {
    const c = context;
    context = null;
    await c.close().catch(() => {});
  }
  if (profile) {
    rmSync(profile, { recursive: true, force: true });
    profile = null;
  }
}

const lines = readline.createInterface({ input: process.stdin });
let chain = Promise.resolve();
lines.on("line", (line) => {
  chain = chain.then(async () => {
    let cmd;
    try {
      cmd = JSON.parse(line);
    } catch (e) {
      send({ ok: false, error: `not JSON: ${e.message}` });
      return;
    }
    try {
      send({ ok: true, ...(await handle(cmd)) });
    } catch (e) {
      send({ ok: false, error: String(e && e.message ? e.message : e) });
    }
    if (cmd.cmd === "quit") process.exit(0);
  });
});
lines.on("close", () => {
  chain.then(shutdown).then(() => process.exit(0));
});
