import winston from "winston";

type Args = { text: string };

export function echo(args: Args): string {
  console.log(`echo ${args.text}`); // expect: javascript-console-stdout
  return args.text;
}

export async function slow(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  console.count("slow"); // expect: javascript-console-stdout
}

export const log = winston.createLogger({
  transports: [new winston.transports.Console()], // expect: javascript-logger-stdout startup-output
});

export const safe = winston.createLogger({
  transports: [new winston.transports.Console({ stderrLevels: ["error", "warn", "info", "debug"] })],
});

/**
 * Docs mention console.log("x") and process.stdout.write(y) in prose.
 */
export function send(message: object): void {
  const frame: string = JSON.stringify(message);
  process.stdout.write(frame + "\n");
}

console.group("startup"); // expect: javascript-console-stdout startup-output
