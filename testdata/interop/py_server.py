"""An MCP server made with the official Python SDK 2.x (MCPServer), which
serves both eras: 2026-07-28 on `server/discover`, 2025 on `initialize`.

Usage: py_server.py clean|banner|stderr [marker]
"""
import logging
import sys

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

mode = sys.argv[1] if len(sys.argv) > 1 else "clean"

if mode == "banner":
    print("Starting weather server v0.3 ...")  # the bug this tool exists for
if mode == "stderr":
    logging.basicConfig(stream=sys.stderr, level=logging.INFO)
    logging.getLogger("weather").info("starting weather server on stdio")

mcp = MCPServer("weather")


# A canned answer: it changes nothing.
@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def forecast(city: str, days: int = 1) -> str:
    """Return a canned forecast for a city."""
    return f"{city}: sunny for {days} day(s)"


@mcp.resource("weather://stations")
def stations() -> str:
    """The list of weather stations."""
    return "Oslo, Lima"


@mcp.resource("weather://city/{city}")
def city_report(city: str) -> str:
    """The latest report for one city."""
    return f"{city}: sunny"


@mcp.prompt()
def plan_trip(city: str) -> str:
    """Ask for a trip plan that fits the forecast."""
    return f"Plan a day in {city} that suits the weather."


if __name__ == "__main__":
    mcp.run(transport="stdio")
