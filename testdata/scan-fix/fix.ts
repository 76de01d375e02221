export function start(port: number): void {
  console.log("listening on", port);
  console.info(`port ${port}`);
  process.stdout.write("ready\n");
}
