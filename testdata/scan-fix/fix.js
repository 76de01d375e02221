"use strict";
// console.log("in a comment")
const label = "console.log(in a string)";

function start(port) {
  console.log("listening on", port);
  console.info(`port ${port}`);
  console.debug({ port });
  console.dir(label);
  process.stdout.write("ready\n");
}

module.exports = { start };
