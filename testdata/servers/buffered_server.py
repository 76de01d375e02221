"""A minimal MCP stdio server in plain Python that never flushes: piped,
its stdout is block-buffered and every reply waits for the exit (run it
with -u, or PYTHONUNBUFFERED=1, and it works)."""
import json
import sys

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if "id" not in msg:
        continue
    if msg.get("method") == "initialize":
        result = {
            "protocolVersion": msg["params"]["protocolVersion"],
            "capabilities": {},
            "serverInfo": {"name": "buffered-python", "version": "1.0.0"},
        }
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\n")
    else:
        error = {"code": -32601, "message": "Method not found"}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": error}) + "\n")
