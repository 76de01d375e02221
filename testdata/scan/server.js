// A small Node MCP server with the usual mistakes, and the traps around them.
const { spawn } = require("child_process");
const pino = require("pino");

console.log("weather server starting"); // expect: javascript-console-stdout startup-output
console.error("diagnostics belong on stderr");
console.warn("so do warnings");
console.trace("console.trace prints to stderr in Node");

// console.log("a call inside a line comment is not code");
/* console.info("nor inside a block comment")
   process.stdout.write("across lines") */
const help = "run console.log('x') to debug"; // inside a string
const also = 'process.stdout.write("y")';
const tpl = `console.log(${help.length}) is text, but ${describe(console.dir)} is code`;
const re = /console\.log\(/g; // a regex literal, not a call

const logger = pino(pino.destination(1)); // expect: javascript-logger-stdout startup-output
const quiet = pino(pino.destination(2));

function handle(request) {
  console.info("handling", request.method); // expect: javascript-console-stdout
  if (request.method === "debug") {
    console.debug( // expect: javascript-console-stdout
      "split over",
      "several lines",
    );
  }
  return { ok: true };
}

const onExit = () => console.table({ code: 0 }); // expect: javascript-console-stdout

class Transport {
  send(message) {
    // The protocol channel: JSON on stdout is what MCP wants.
    process.stdout.write(JSON.stringify(message) + "\n");
  }
  banner() {
    process.stdout.write("Transport ready\n"); // expect: javascript-process-stdout-write
  }
}

const line = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
process.stdout.write(line + "\n");
console.log(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }));
console.log("sending", JSON.stringify({})); // expect: javascript-console-stdout startup-output

if (process.env.DEBUG) {
  console.dir(process.env); // expect: javascript-console-stdout startup-output
}

const child = spawn("worker");
child.stdout.pipe(process.stdout); // expect: javascript-logger-stdout startup-output
child.stderr.pipe(process.stderr);

function describe(x) {
  return typeof x;
}

module.exports = { handle, Transport, logger, quiet, onExit, also, tpl, re };
