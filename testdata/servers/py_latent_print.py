"""A hand-rolled MCP server (2025 era) that prints a banner at import time
and writes its replies straight to the byte stream, as the Python SDKs do:
under a block-buffered stdout the banner stays in the text buffer, and the
server does not leave on stdin EOF (as servers that ignore EOF do), so the
signal that stops it drops the buffer; run unbuffered (PYTHONUNBUFFERED=1),
it corrupts the stream. Only the standard library.
"""
import json
import os
import sys

print("weather server: loading stations")  # the latent pollution

out = sys.stdout.buffer


def reply(msg_id, result):
    out.write((json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n").encode())
    out.flush()


for line in sys.stdin:
    msg = json.loads(line)
    method, msg_id = msg.get("method"), msg.get("id")
    if method == "initialize":
        reply(msg_id, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                       "serverInfo": {"name": "latent", "version": "1.0"}})
    elif method == "tools/list":
        reply(msg_id, {"tools": [{"name": "stations", "description": "List stations.",
                                  "inputSchema": {"type": "object"}}]})
    elif msg_id is not None:
        out.write((json.dumps({"jsonrpc": "2.0", "id": msg_id,
                               "error": {"code": -32601, "message": "Method not found"}}) + "\n").encode())
        out.flush()
# EOF is ignored: the server waits to be stopped (at most 30 s, so a broken
# test leaves nothing behind for long).
import time  # noqa: E402

time.sleep(30)
os._exit(0)
