// An MCP server made with the official TypeScript SDK.
// Usage: node ts_server.cjs clean|banner|stderr [marker]
const { McpServer, ResourceTemplate } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const { z } = require("zod");

const mode = process.argv[2] || "clean";
if (mode === "banner") {
  console.log("Starting weather server v0.3 ..."); // the bug this tool exists for
}
if (mode === "stderr") {
  console.error("info: starting weather server on stdio");
}

const server = new McpServer({ name: "weather", version: "0.3.0" });
server.tool(
  "forecast",
  "Return a canned forecast for a city.",
  { city: z.string(), days: z.number().int().optional() },
  { readOnlyHint: true }, // a canned answer: it changes nothing
  async ({ city, days }) => ({
    content: [{ type: "text", text: `${city}: sunny for ${days ?? 1} day(s)` }],
  })
);

server.resource("stations", "weather://stations", async (uri) => ({
  contents: [{ uri: uri.href, text: "Oslo, Lima" }],
}));
server.resource(
  "city-report",
  new ResourceTemplate("weather://city/{city}", { list: undefined }),
  async (uri, { city }) => ({ contents: [{ uri: uri.href, text: `${city}: sunny` }] })
);
server.prompt("plan-trip", { city: z.string() }, ({ city }) => ({
  messages: [{ role: "user", content: { type: "text", text: `Plan a day in ${city}.` } }],
}));

server.connect(new StdioServerTransport()).catch((err) => {
  console.error(err);
  process.exit(1);
});
