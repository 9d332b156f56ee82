"""A real MCP client (the official Python MCP SDK) driving `bua-bridge mcp` over stdio.

Used by tests/e2e/mcp.rs (in the venv `./build.sh prereqs test` makes, with the pinned SDK), which asserts on what
this prints.
It runs a short agent session and prints one JSON report on stdout:

    python3 mcp_client.py <bua-bridge> <port> <token> <fixture-url>

Steps: initialize → list_tools → help(fill) → help → open_tab(fixture) → extract (the agent text) → extract of the text
only → click(uid of the "Count" button)
→ evaluate (read the counter) → screenshot → an invalid action (click with uid + index) → an
action with no type. Each tool call is reported as {isError, content:[{type, text | mimeType, bytes}]};
tool errors are data here, not exceptions. The Rust test decides what is right.
"""

import asyncio
import base64
import json
import re
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def content_report(result):
    items = []
    for block in result.content:
        kind = getattr(block, "type", None)
        if kind == "text":
            items.append({"type": "text", "text": block.text})
        elif kind == "image":
            raw = base64.b64decode(block.data)
            items.append({"type": "image", "mimeType": block.mime_type, "bytes": len(raw), "magic": raw[:8].hex()})
        else:
            items.append({"type": str(kind)})
    return {"isError": bool(result.is_error), "content": items}


# Page content comes inside a boundary (SPEC §9 "Boundaries"): <<<page ORIGIN nonce=N>>> … <<<end page nonce=N>>>.
BOUNDARY = re.compile(r"\A<<<page \S+ nonce=([0-9a-f]+)>>>\n(.*)\n<<<end page nonce=\1>>>\Z", re.S)


def inside(text):
    m = BOUNDARY.match(text)
    return m.group(2) if m else text


def first_json(report):
    for item in report["content"]:
        if item["type"] == "text":
            return json.loads(inside(item["text"]).split("\n")[0])
    return None


async def main():
    bridge, port, token, fixture = sys.argv[1:5]
    params = StdioServerParameters(command=bridge, args=["mcp", "--port", port, "--token", token, "--no-serve"])
    report = {"steps": {}}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            report["serverInfo"] = {"name": init.server_info.name, "version": init.server_info.version}
            report["instructions"] = init.instructions
            tools = await session.list_tools()
            report["tools"] = [
                {"name": t.name, "description": t.description, "inputSchema": t.input_schema} for t in tools.tools
            ]
            # The bytes of the tools/list result as the client received it (compact JSON): the fixed cost per session.
            listed = tools.model_dump(by_alias=True, exclude_none=True, mode="json")
            report["tools_list_bytes"] = len(json.dumps(listed, separators=(",", ":"), ensure_ascii=False).encode())

            async def call(step, arguments):
                result = await session.call_tool("browser", arguments)
                report["steps"][step] = content_report(result)
                return report["steps"][step]

            await call("help_fill", {"type": "help", "action": "fill"})
            await call("help", {"type": "help"})
            opened = first_json(await call("open_tab", {"type": "open_tab", "url": fixture}))
            tab_id = opened["tabId"]
            # extract answers in text: the uid is on the element's line, `e0 button "Count"`; a link
            # the markdown shows carries its uid there, `[page two](e2 /clients/mcp.html?page=2)`.
            page = await call("extract", {"type": "extract", "tabId": tab_id})
            lines = inside(page["content"][0]["text"]).splitlines()
            uid = next(m.group(1) for m in map(re.compile(r'^(e\d+) button "Count"').match, lines) if m)
            report["clicked_uid"] = uid
            link = re.search(r"\[page two\]\((e\d+) ", page["content"][0]["text"]).group(1)
            report["link_uid"] = link
            await call("extract_text", {"type": "extract", "tabId": tab_id, "include": ["text"]})
            await call("click", {"type": "click", "uid": uid, "tabId": tab_id})
            await call(
                "evaluate",
                {"type": "evaluate", "expression": "return document.querySelector('#count').textContent", "tabId": tab_id},
            )
            await call("screenshot", {"type": "screenshot", "tabId": tab_id})
            await call("click_link", {"type": "click", "uid": link, "tabId": tab_id})
            await call(
                "evaluate_link",
                {"type": "evaluate", "expression": "return location.search", "tabId": tab_id},
            )
            await call("invalid", {"type": "click", "uid": "e1", "index": 2, "tabId": tab_id})
            await call("untyped", {"uid": "e1"})
            await call("close_agent_tabs", {"type": "close_agent_tabs"})
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
