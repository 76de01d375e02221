"""A Python MCP server with the usual mistakes.

print("a call in a docstring is text")
sys.stdout.write("so is this")
"""
import json
import logging
import sys

import click

print("weather server starting")  # expect: python-print-stdout startup-output
print("to stderr", file=sys.stderr)
print(
    "a long diagnostic",
    "split over lines",
    file=sys.stderr,
)
# print("in a comment")
note = 'print("in a string")'
raw = r"print(\"raw\")"
fmt = f"{note} print(x)"

logging.basicConfig(stream=sys.stdout, level=logging.INFO)  # expect: python-logging-stdout startup-output
logging.basicConfig(level=logging.INFO)
handler = logging.StreamHandler(sys.stdout)  # expect: python-logging-stdout startup-output
quiet = logging.StreamHandler()


def send(message):
    """Write one JSON-RPC message: the protocol channel."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def respond(message):
    line = json.dumps(message)
    print(line, flush=True)


def handle(request):
    print("handling", request["method"])  # expect: python-print-stdout
    print(  # expect: python-print-stdout
        "several",
        "lines",
        file=sys.stdout,  # to stdout on purpose, still wrong
    )  # the finding is on the line where print starts
    sys.stdout.write("ack\n")  # expect: python-sys-stdout-write
    click.echo("done")  # expect: python-click-echo-stdout
    click.echo("done", err=True)
    return {"ok": True}


class Server:
    print("class bodies run at import")  # expect: python-print-stdout startup-output

    def run(self):
        print(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {}}))


if __name__ == "__main__":
    print("ready")  # expect: python-print-stdout startup-output
