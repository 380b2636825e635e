import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { SlotgateBackendOptions } from "../../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..", "..");

/** What the child is configured with: the backend's options, and the shared Redis store when given. */
export interface HonoChildConfig extends Omit<SlotgateBackendOptions, "logger" | "pendingStore" | "fetch"> {
  redisUrl?: string;
  keyPrefix?: string;
}

/** The Hono callback app running in another Node process. */
export interface HonoChild {
  readonly origin: string;
  readonly pid: number;
  /** The status of each callback the child answered, in order. */
  readonly answered: readonly number[];
  /** Everything the child wrote to stderr (shown when a test fails). */
  readonly stderr: () => string;
  configure(config: HonoChildConfig): Promise<void>;
  close(): Promise<void>;
}

/**
 * Bundles `test/fixtures/hono-callback-app.ts` with the SDK's current sources (packages stay external,
 * resolved from node_modules) and starts it with `node` in a child process; resolves once it listens.
 *
 * @example
 * ```ts
 * const child = await startHonoChild();
 * await child.configure({ ...options, redirectUri: `${child.origin}/slotgate/callback`, redisUrl });
 * ```
 */
export async function startHonoChild(): Promise<HonoChild> {
  const outDir = join(packageDir, "node_modules", ".cache", "slotgate-test");
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `hono-callback-app-${process.pid}.mjs`);
  await build({
    entryPoints: [join(packageDir, "test", "fixtures", "hono-callback-app.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "silent",
  });
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [outfile], { cwd: packageDir, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const messages = createInterface({ input: child.stdout });
  const queue: Array<Record<string, unknown>> = [];
  const waiting: Array<(m: Record<string, unknown>) => void> = [];
  const answered: number[] = [];
  messages.on("line", (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    if (typeof message.callbacks === "number") {
      answered.push(Number(message.status));
      return;
    }
    const next = waiting.shift();
    if (next) next(message);
    else queue.push(message);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const nextMessage = (): Promise<Record<string, unknown>> =>
    Promise.race([
      new Promise<Record<string, unknown>>((resolve) => {
        const queued = queue.shift();
        if (queued) resolve(queued);
        else waiting.push(resolve);
      }),
      exited.then((code) => {
        throw new Error(`the Hono child exited (${code}): ${stderr}`);
      }),
    ]);
  const { port } = (await nextMessage()) as { port: number };
  rmSync(outfile, { force: true }); // loaded: the child no longer needs it
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    answered,
    stderr: () => stderr,
    async configure(config) {
      child.stdin.write(`${JSON.stringify(config)}\n`);
      const answer = await nextMessage();
      if (answer.ready !== true) throw new Error(`the Hono child did not get ready: ${JSON.stringify(answer)} ${stderr}`);
    },
    async close() {
      if (child.exitCode === null) {
        child.stdin.end();
        await exited;
      }
    },
  };
}
