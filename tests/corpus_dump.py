#!/usr/bin/env python3
"""Dev-only: dump the CDP responses `extract` uses, for every page of the shared corpus.

Serves the corpus on 127.0.0.1, loads each page in headless Chromium (one browser, one tab),
and writes one JSON file per page to OUT/<folder>/<name>.json with:
  url, title, viewport {width, height} (CSS px), innerText,
  snapshot   (DOMSnapshot.captureSnapshot with the params of src/extract/snapshot.rs),
  ax         {"main": [AXNode], "frames": [{"frameId", "url", "nodes": [AXNode]}]}
  expectedText  innerText of readability/<name>/expected.html (readability pages only, else null)
The native runner (`cargo test -p bua-extension --release --test corpus_dumps -- --ignored --nocapture`,
tests/corpus_dumps.rs) reads these files.

Usage: python3 tests/corpus_dump.py [--corpus corpus, or $BUA_CORPUS_DIR] [--out /tmp/corpus-dumps] [--only SUBSTR]
       python3 tests/corpus_dump.py --fixtures --corpus tests/fixtures/extract --out /tmp/fixture-dumps
       python3 tests/corpus_dump.py --forms --corpus corpus/forms --out corpus/forms/dumps   (committed dumps)
Needs: pip install websockets; /usr/bin/chromium.
"""
import argparse
import asyncio
import functools
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import websockets

# Keep in sync with `snapshot::COMPUTED_STYLES` in src/extract/snapshot.rs.
COMPUTED_STYLES = ["display", "visibility", "position", "overflow-x", "overflow-y"]
VIEWPORT = (1280, 800)


def pages(corpus, only, fixtures=False, forms=False):
    if forms:
        # corpus/forms/: the pages its manifest lists, served as /p/<name>.html (a neutral path: the
        # page's own URL, which the classifier reads, is in the manifest and given by the runner).
        out = []
        for line in open(os.path.join(corpus, "manifest.tsv"), encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            name = line.split("\t")[0]
            out.append(("forms", name, f"p/{name}.html"))
        return [p for p in out if only is None or only in p[1]]
    if fixtures:
        names = sorted(f for f in os.listdir(corpus) if f.endswith(".html"))
        return [("fixtures", f[:-5], f) for f in names if only is None or only in f]
    out = []
    for name in sorted(os.listdir(os.path.join(corpus, "readability"))):
        out.append(("readability", name, f"readability/{name}/source.html"))
    for sub in ("positive", "negative"):
        for f in sorted(os.listdir(os.path.join(corpus, "login", sub))):
            out.append((f"login/{sub}", f[:-5], f"login/{sub}/{f}"))
    for f in sorted(os.listdir(os.path.join(corpus, "challenge"))):
        out.append(("challenge", f[:-5], f"challenge/{f}"))
    return [p for p in out if only is None or only in p[2]]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    # The saved pages are UTF-8 whatever their <meta charset> says (and expected.html has none).
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8"}

    def log_message(self, *args):
        pass

    def translate_path(self, path):
        # Pages are served under neutral aliases so that the folder names (which are the labels:
        # "login", "challenge") never reach the classifier through the URL.
        for alias, folder in ALIASES.items():
            if path.startswith(f"/{alias}/"):
                path = f"/{folder}/" + path[len(alias) + 2:]
                break
        return super().translate_path(path)


# URL prefix → corpus folder.
ALIASES = {"s1": "readability", "s2": "login/positive", "s3": "login/negative", "s4": "challenge", "p": "pages"}


def public_path(rel):
    for alias, folder in ALIASES.items():
        if rel.startswith(folder + "/"):
            return f"{alias}/" + rel[len(folder) + 1:]
    return rel


def serve(corpus):
    handler = functools.partial(QuietHandler, directory=corpus)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


class Cdp:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.pending = {}
        self.events = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        async for raw in self.ws:
            msg = json.loads(raw)
            if "id" in msg and msg["id"] in self.pending:
                self.pending.pop(msg["id"]).set_result(msg)
            elif msg.get("method") == "Page.javascriptDialogOpening":
                # alert() blocks the renderer until answered; answer like a user would.
                self.next_id += 1
                await self.ws.send(json.dumps({"id": self.next_id, "method": "Page.handleJavaScriptDialog",
                                               "params": {"accept": True}, "sessionId": msg.get("sessionId")}))
            elif "method" in msg:
                await self.events.put(msg)

    async def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        fut = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = fut
        await self.ws.send(json.dumps(msg))
        res = await asyncio.wait_for(fut, timeout)
        if "error" in res:
            raise RuntimeError(f"{method}: {res['error']}")
        return res["result"]

    async def wait_event(self, name, session, timeout):
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return False
            try:
                ev = await asyncio.wait_for(self.events.get(), left)
            except asyncio.TimeoutError:
                return False
            if ev.get("method") == name and ev.get("sessionId") == session:
                return True

    def drain(self):
        while not self.events.empty():
            self.events.get_nowait()


def frames_of(tree):
    for child in tree.get("childFrames", []) or []:
        yield child["frame"]
        yield from frames_of(child)


async def dump_page(cdp, session, url, out_path, with_ax=True):
    cdp.drain()
    await cdp.send("Page.navigate", {"url": url}, session)
    if not await cdp.wait_event("Page.loadEventFired", session, 15):
        print(f"  (no load event in 15 s) {url}", file=sys.stderr)
    await asyncio.sleep(0.3)
    ev = await cdp.send(
        "Runtime.evaluate",
        {
            "expression": "({url: location.href, title: document.title, width: innerWidth, height: innerHeight,"
            " text: document.body ? document.body.innerText : ''})",
            "returnByValue": True,
        },
        session,
    )
    page = ev["result"]["value"]
    snapshot = await cdp.send(
        "DOMSnapshot.captureSnapshot",
        {"computedStyles": COMPUTED_STYLES, "includeDOMRects": True},
        session,
        timeout=60,
    )
    ax_main = await cdp.send("Accessibility.getFullAXTree", {}, session, timeout=60) if with_ax else {"nodes": []}
    tree = await cdp.send("Page.getFrameTree", {}, session)
    frames = []
    for fr in frames_of(tree["frameTree"]) if with_ax else []:
        try:
            r = await cdp.send("Accessibility.getFullAXTree", {"frameId": fr["id"]}, session, timeout=30)
            frames.append({"frameId": fr["id"], "url": fr.get("url", ""), "nodes": r["nodes"]})
        except Exception as e:  # cross-process frames are not reachable from this session
            frames.append({"frameId": fr["id"], "url": fr.get("url", ""), "error": str(e)})
    expected = None
    if url.endswith("/source.html"):
        # The readability folder's expected article: its visible text is what recall is measured on.
        cdp.drain()
        await cdp.send("Page.navigate", {"url": url[: -len("source.html")] + "expected.html"}, session)
        await cdp.wait_event("Page.loadEventFired", session, 15)
        ev = await cdp.send(
            "Runtime.evaluate",
            {"expression": "document.body ? document.body.innerText : ''", "returnByValue": True},
            session,
        )
        expected = ev["result"].get("value", "")
    doc = {
        "expectedText": expected,
        "url": page["url"],
        "title": page["title"],
        "viewport": {"width": page["width"], "height": page["height"]},
        "innerText": page["text"],
        "snapshot": snapshot,
    }
    if with_ax:
        doc["ax"] = {"main": ax_main["nodes"], "frames": frames}
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w", encoding="utf-8") as f:
        if with_ax:
            json.dump(doc, f)
        else:
            # corpus/forms/dumps/ is committed: compact, one line per page.
            json.dump(doc, f, separators=(",", ":"), ensure_ascii=False)


async def run(args):
    httpd = serve(args.corpus)
    port = httpd.server_address[1]
    profile = tempfile.mkdtemp(prefix="bua-dump-")
    chrome = subprocess.Popen(
        [
            args.chrome,
            "--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-gpu", f"--user-data-dir={profile}",
            f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", "--remote-debugging-port=0",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        for _ in range(200):
            if os.path.exists(port_file) and len(open(port_file).read().split("\n")) >= 2:
                break
            await asyncio.sleep(0.1)
        dport, dpath = open(port_file).read().split("\n")[:2]
        async with websockets.connect(f"ws://127.0.0.1:{dport}{dpath}", max_size=1 << 30) as ws:
            cdp = Cdp(ws)
            target = await cdp.send("Target.createTarget", {"url": "about:blank"})
            att = await cdp.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
            session = att["sessionId"]
            await cdp.send("Page.enable", {}, session)
            todo = pages(args.corpus, args.only, args.fixtures, args.forms)
            t0 = time.monotonic()
            for i, (folder, name, rel) in enumerate(todo):
                url = f"http://127.0.0.1:{port}/{public_path(rel)}"
                out_path = (os.path.join(args.out, f"{name}.json") if args.forms
                            else os.path.join(args.out, folder, f"{name}.json"))
                if args.skip_existing and os.path.exists(out_path):
                    continue
                try:
                    await dump_page(cdp, session, url, out_path, with_ax=not args.forms)
                except Exception as e:
                    print(f"  FAILED {rel}: {e!r}", file=sys.stderr)
                if (i + 1) % 20 == 0:
                    print(f"{i + 1}/{len(todo)} pages, {time.monotonic() - t0:.0f} s", file=sys.stderr)
            print(f"dumped {len(todo)} pages to {args.out} in {time.monotonic() - t0:.0f} s", file=sys.stderr)
    finally:
        chrome.terminate()
        try:
            chrome.wait(10)
        except subprocess.TimeoutExpired:
            chrome.kill()
        shutil.rmtree(profile, ignore_errors=True)
        httpd.shutdown()


def on_sigterm(*_):
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGTERM, on_sigterm)
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("BUA_CORPUS_DIR", os.path.normpath(os.path.join(here, "..", "corpus"))))
    ap.add_argument("--out", default="/tmp/corpus-dumps")
    ap.add_argument("--only")
    ap.add_argument("--skip-existing", action="store_true")
    ap.add_argument("--fixtures", action="store_true", help="--corpus is a folder of *.html fixture pages")
    ap.add_argument("--forms", action="store_true",
                    help="--corpus is corpus/forms: dump its manifest's pages, without AX trees, to --out")
    ap.add_argument("--chrome", default="/usr/bin/chromium")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
