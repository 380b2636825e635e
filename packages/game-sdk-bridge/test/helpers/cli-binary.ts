import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";

/**
 * Command and leading arguments that start the `slotgate-login` under test: the single executable named
 * by `SLOTGATE_LOGIN_BIN` (CI builds it with `npm run build:sea`), else `node dist/cli.js`. Every CLI
 * test runs against whichever is chosen.
 */
export function cliCommand(): { command: string; args: string[] } {
  const bin = process.env["SLOTGATE_LOGIN_BIN"];
  return bin ? { command: resolve(bin), args: [] } : { command: process.execPath, args: [resolve(import.meta.dirname, "../../dist/cli.js")] };
}

/** Starts the CLI under test with `args`; `env` is added to PATH only (nothing else leaks in). */
export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream } {
  const { command, args: lead } = cliCommand();
  return spawn(command, [...lead, ...args], { env: { PATH: process.env["PATH"] ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] }) as ChildProcess & {
    stdout: NodeJS.ReadableStream;
    stderr: NodeJS.ReadableStream;
  };
}

/** Runs the CLI under test; `firstLine` resolves with its first stdout line as soon as it is printed. */
export function runCliBinary(args: string[], env: Record<string, string> = {}) {
  const child = spawnCli(args, env);
  let stdout = "";
  let stderr = "";
  let gotLine: (line: string) => void = () => {};
  const firstLine = new Promise<string>((r) => {
    gotLine = r;
  });
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    stdout += chunk;
    const end = stdout.indexOf("\n");
    if (end >= 0) gotLine(stdout.slice(0, end));
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolveDone, fail) => {
    child.once("error", fail);
    child.once("close", (code) => resolveDone({ code, stdout, stderr }));
  });
  return { child, firstLine, done };
}
