import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { freeLoopbackPort } from "./free-port.js";

/** Options of {@link startReferenceServer}. */
export interface ReferenceServerOptions {
  /**
   * Environment overrides for the CLI runs and the server, on top of `process.env`; `undefined` removes a variable.
   * `PORT`, `HOST` and `SLOTGATE_DATA_DIR` are always chosen by `startReferenceServer`.
   */
  env?: Record<string, string | undefined>;
  /** `"off"` sets `CHAIN=off` (OAuth and login status only); `"in-process"` keeps the server's in-process chain. @default "in-process" */
  chain?: "off" | "in-process";
  /** `DATABASE_URL` of a PostgreSQL database to use. @default the embedded database in the fresh data directory */
  database?: string;
  /**
   * Runs before the server starts, e.g. to register clients with `slotgate-server client create`. `run` executes one CLI
   * command synchronously in the server's environment and returns its JSON output. With the embedded database only one
   * process can open it at a time, so use this hook (not {@link ReferenceServer.run}) for set-up on the embedded database.
   */
  before?: (run: (args: string[]) => unknown) => void | Promise<void>;
  /** How long to wait for `GET /healthz` to answer 200. @default 120000 */
  timeoutMs?: number;
}

/** A running reference server started by {@link startReferenceServer}. */
export interface ReferenceServer {
  /** Base URL, `http://127.0.0.1:{port}`, no trailing slash. */
  url: string;
  /** The server's fresh data directory (`SLOTGATE_DATA_DIR`), removed by {@link ReferenceServer.close}. */
  dataDir: string;
  /**
   * Runs one `slotgate-server` CLI command in the server's environment; resolves its JSON output. Rejects on a non-zero
   * exit. The embedded database is held by the running server, so commands that open the database only work here with a
   * PostgreSQL `database`; on the embedded database do that set-up in {@link ReferenceServerOptions.before}.
   */
  run(args: string[]): Promise<unknown>;
  /** Stops the server (SIGTERM, then waits for it to exit) and deletes its data directory. Safe to call twice. */
  close(): Promise<void>;
}

function serverBin(): string {
  const manifest = createRequire(import.meta.url).resolve("@slotgate/server/package.json");
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.["slotgate-server"];
  if (bin === undefined) throw new Error("@slotgate/server declares no slotgate-server bin");
  return join(dirname(manifest), bin);
}

function parseOutput(args: string[], stdout: string): unknown {
  const text = stdout.trim();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const last = text.split("\n").pop() ?? "";
    try {
      return JSON.parse(last) as unknown;
    } catch {
      throw new Error(`slotgate-server ${args.slice(0, 2).join(" ")} printed no JSON`);
    }
  }
}

function runSync(bin: string, env: NodeJS.ProcessEnv, args: string[]): unknown {
  const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`slotgate-server ${args.slice(0, 2).join(" ")} exited with ${r.status}: ${r.stderr}`);
  return parseOutput(args, r.stdout);
}

function runAsync(bin: string, env: NodeJS.ProcessEnv, args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [bin, ...args], { env, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new Error(`slotgate-server ${args.slice(0, 2).join(" ")} failed (${error.code ?? error.signal}): ${stderr}`));
      else {
        try {
          resolve(parseOutput(args, stdout));
        } catch (parseError) {
          reject(parseError);
        }
      }
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`slotgate-server exited (${child.exitCode ?? child.signalCode}) before it became healthy:\n${log()}`);
    }
    if (await fetch(`${url}/healthz`).then((r) => r.status === 200, () => false)) return;
    if (Date.now() > deadline) throw new Error(`slotgate-server not healthy (GET ${url}/healthz) within ${timeoutMs} ms:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Starts a throwaway Slotgate reference server for integration tests: `slotgate-server start` as a child process on a
 * free 127.0.0.1 port, with a fresh temporary data directory (`SLOTGATE_DATA_DIR`) and, unless `database` is given, the
 * embedded database. Resolves once `GET /healthz` answers 200; rejects (after stopping the child and removing the data
 * directory) if the server exits first or `timeoutMs` passes, with the tail of the server's output in the message.
 *
 * Not for production: it runs the server with whatever else `process.env` holds and deletes its data on `close()`.
 *
 * @example
 * ```ts
 * import { startReferenceServer } from "@slotgate/server/testing";
 *
 * let clientId = "";
 * const server = await startReferenceServer({
 *   chain: "off",
 *   env: { LOG_LEVEL: "warn", RATE_LIMIT: "off" },
 *   before(run) {
 *     const created = run(["client", "create", "--name", "My game", "--redirect-uri", "http://127.0.0.1:5173/cb",
 *       "--download-url", "https://game.example/dl", "--web-url", "https://game.example", "--platform", "web"]);
 *     clientId = String((created as { client_id: string }).client_id);
 *   },
 * });
 * try {
 *   const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
 *   // ... drive your game backend against server.url with clientId
 * } finally {
 *   await server.close();
 * }
 * ```
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const bin = serverBin();
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), "slotgate-reference-"));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  env["PORT"] = String(port);
  env["HOST"] = "127.0.0.1";
  env["SLOTGATE_DATA_DIR"] = dataDir;
  if (options.chain === "off") env["CHAIN"] = "off";
  if (options.database !== undefined) env["DATABASE_URL"] = options.database;
  else delete env["DATABASE_URL"];

  let child: ChildProcess | undefined;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      const running = child;
      if (running && running.exitCode === null && running.signalCode === null) {
        const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
        running.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return closed;
  };

  try {
    await options.before?.((args) => runSync(bin, env, args));
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    child = spawn(process.execPath, [bin, "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    await waitHealthy(url, child, options.timeoutMs ?? 120_000, () => output);
  } catch (error) {
    await close();
    throw error;
  }
  return { url, dataDir, run: (args) => runAsync(bin, env, args), close };
}
