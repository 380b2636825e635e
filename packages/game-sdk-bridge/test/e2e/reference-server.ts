/**
 * How the end-to-end suite runs @slotgate/server, through its operator interfaces only
 * (no reaching into its source): the `slotgate-server` bin (`client create`, `start`),
 * the `PORT` / `HOST` / `SLOTGATE_DATA_DIR` / `DATABASE_URL` variables and `GET /healthz`.
 *
 * Each run gets its own data directory. `DATABASE_URL` is taken from
 * SLOTGATE_TEST_DATABASE_URL when the test runner found PostgreSQL; otherwise the
 * embedded database is used, which one process opens at a time, so clients are
 * registered before the server starts.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface ReferenceServer {
  url: string;
  /** JSON printed by each `client create`, in order (`client_id`, ...). */
  created: Record<string, unknown>[];
  /** Stops the server and deletes its data directory. */
  stop(): Promise<void>;
}

export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function serverBin(): string {
  const manifest = createRequire(import.meta.url).resolve("@slotgate/server/package.json");
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.["slotgate-server"];
  if (bin === undefined) throw new Error("@slotgate/server declares no slotgate-server bin");
  return join(dirname(manifest), bin);
}

async function waitHealthy(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`reference server exited with ${child.exitCode}:\n${log()}`);
    if (await fetch(`${url}/healthz`).then((r) => r.status === 200, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`reference server not healthy (GET /healthz) within 90 s:\n${log()}`);
}

/**
 * Starts a reference server with a fresh data directory after running
 * `slotgate-server client create` for each registration given.
 */
export async function startReferenceServer(clients: string[][]): Promise<ReferenceServer> {
  const bin = serverBin();
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), "slotgate-e2e-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    SLOTGATE_DATA_DIR: dataDir,
    SLOTGATE_SEED_DEMO: "false",
    // The loopback login needs no chain: run the OAuth part of the server only.
    CHAIN: "off",
  };
  const database = process.env["SLOTGATE_TEST_DATABASE_URL"];
  if (database) env["DATABASE_URL"] = database;
  else delete env["DATABASE_URL"];

  const created: Record<string, unknown>[] = [];
  for (const args of clients) {
    const { stdout } = await run(process.execPath, [bin, "client", "create", ...args], { env });
    created.push(JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>);
  }

  let output = "";
  const child = spawn(process.execPath, [bin, "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop, created };
}
