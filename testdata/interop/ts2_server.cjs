// An MCP server made with the official TypeScript SDK v2 (`serveStdio`).
// Usage: node ts2_server.cjs dual|modern-only|banner
//   dual         the default: serves 2026-07-28 and, on `initialize`, 2025
//   modern-only  `legacy: 'reject'`: `initialize` gets -32022
//   banner       dual, with a stdout banner (the bug this tool exists for)
const { McpServer } = require("@modelcontextprotocol/server");
const { serveStdio } = require("@modelcontextprotocol/server/stdio");
const { z } = require("zod");

const mode = process.argv[2] || "dual";
if (mode === "banner") {
  console.log("Starting weather server v0.3 ...");
}

function factory() {
  const server = new McpServer({ name: "weather", version: "0.3.0" });
  server.registerTool(
    "forecast",
    {
      description: "Return a canned forecast for a city.",
      inputSchema: z.object({ city: z.string(), days: z.number().int().optional() }),
      annotations: { readOnlyHint: true },
    },
    async ({ city, days }) => ({
      content: [{ type: "text", text: `${city}: sunny for ${days ?? 1} day(s)` }],
    })
  );
  server.registerResource(
    "stations",
    "weather://stations",
    { description: "The list of weather stations." },
    async (uri) => ({ contents: [{ uri: uri.href, text: "Oslo, Lima" }] })
  );
  server.registerPrompt(
    "plan-trip",
    { description: "Plan a trip.", argsSchema: z.object({ city: z.string() }) },
    ({ city }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Plan a day in ${city}.` } }],
    })
  );
  return server;
}

serveStdio(factory, { legacy: mode === "modern-only" ? "reject" : "serve" });
