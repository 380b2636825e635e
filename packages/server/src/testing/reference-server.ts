import { randomBytes } from "node:crypto";
import { openDatabase } from "@slotgate/storage";
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Options of {@link startReferenceServer}. */
export interface ReferenceServerOptions {
  /**
   * Environment overrides for the CLI runs and the server, on top of `process.env`; `undefined` removes a variable.
   * `PORT`, `HOST` and `SLOTGATE_DATA_DIR` are always chosen by `startReferenceServer`; `PUBLIC_URL` is unset (the
   * server's address is the one it listens on) unless given here, e.g. the one address of several instances.
   */
  env?: Record<string, string | undefined>;
  /**
   * `"off"` sets `CHAIN=off` (OAuth and login status only); `"anvil"` keeps the server's development chain (an Anvil
   * node on a free port, its state in the fresh data directory). @default "anvil"
   */
  chain?: "off" | "anvil";
  /**
   * `DATABASE_URL` of a PostgreSQL database to use: the server gets a fresh schema in it (dropped by
   * {@link ReferenceServer.close}), so runs never see each other's tables. @default the embedded database in the fresh data directory
   */
  database?: string;
  /**
   * With `database`: run in this existing schema instead of a fresh one, and leave it in place on close. Several servers
   * given the same schema share one database, as instances of one deployment behind a load balancer do.
   */
  schema?: string;
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
  /** The server's fresh PostgreSQL schema (with a `database`), dropped by {@link ReferenceServer.close}; else null. */
  schema: string | null;
  /**
   * Runs one `slotgate-server` CLI command in the server's environment; resolves its JSON output. Rejects on a non-zero
   * exit. The embedded database is held by the running server, so commands that open the database only work here with a
   * PostgreSQL `database`; on the embedded database do that set-up in {@link ReferenceServerOptions.before}.
   */
  run(args: string[]): Promise<unknown>;
  /**
   * Sends `signal` to the server process and waits for it to exit, keeping the data directory and schema (e.g.
   * `SIGKILL`, to test what a crash leaves behind). @default "SIGKILL"
   */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the server again (same environment, data directory and port) after {@link ReferenceServer.kill}; resolves when healthy. */
  restart(): Promise<void>;
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

/**
 * The server prints `Slotgate is running at <url>` once it listens (on the port the OS gave it), and `Listening on <url>`
 * when its PUBLIC_URL is another address.
 */
const LISTENING = /Listening on (http:\/\/127\.0\.0\.1:[0-9]+)|Slotgate is running at (http:\/\/127\.0\.0\.1:[0-9]+)(?![^\n]*\n {2}Listening on)/;

function listeningUrl(output: string): string | undefined {
  const match = LISTENING.exec(output);
  return match?.[1] ?? match?.[2];
}

/** Runs one statement on a PostgreSQL database (schema set-up of a reference server). */
async function adminQuery(url: string, sql: string): Promise<void> {
  const db = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    await db.query(sql);
  } finally {
    await db.close();
  }
}

/** Waits for `GET /healthz` at the address the server prints once it listens. */
async function waitHealthy(child: ChildProcess, timeoutMs: number, log: () => string): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let lastAnswer = "";
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`slotgate-server exited (${child.exitCode ?? child.signalCode}) before it became healthy:\n${log()}`);
    }
    const url = listeningUrl(log());
    if (url !== undefined) {
      const health = await fetch(`${url}/healthz`).then(
        async (r) => ({ ok: r.status === 200, said: `${r.status} ${(await r.text()).slice(0, 300)}` }),
        (error: unknown) => ({ ok: false, said: String(error) }),
      );
      if (health.ok) return url;
      lastAnswer = health.said;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `slotgate-server not healthy (GET ${url ?? "(not listening yet)"}/healthz${lastAnswer ? `: ${lastAnswer}` : ""}) within ${timeoutMs} ms:\n${log()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Starts a throwaway Slotgate reference server for integration tests: `slotgate-server start` as a child process on a
 * 127.0.0.1 port the OS picks when the server binds (no other process can take it in between), with a fresh temporary data directory (`SLOTGATE_DATA_DIR`) and, unless `database` is given, the
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
  const dataDir = mkdtempSync(join(tmpdir(), "slotgate-reference-"));
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env["PUBLIC_URL"];
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  env["PORT"] = "0";
  env["HOST"] = "127.0.0.1";
  env["SLOTGATE_DATA_DIR"] = dataDir;
  if (options.chain === "off") env["CHAIN"] = "off";
  // Several reference servers (and a developer's own chain on 8545) may run at once.
  env["ANVIL_PORT"] ??= "0";
  let schema: { url: string; name: string } | undefined;
  const ownSchema = options.schema === undefined;
  if (options.database !== undefined) {
    if (options.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema)) throw new Error("schema must be a lower-case SQL identifier");
    schema = { url: options.database, name: options.schema ?? `sg_reference_${randomBytes(6).toString("hex")}` };
    if (ownSchema) await adminQuery(schema.url, `CREATE SCHEMA ${schema.name}`);
    const url = new URL(options.database);
    url.searchParams.set("options", `-c search_path=${schema.name}`);
    env["DATABASE_URL"] = url.toString();
  } else delete env["DATABASE_URL"];

  let child: ChildProcess | undefined;
  let url = "";
  let closed: Promise<void> | undefined;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    if (running && running.exitCode === null && running.signalCode === null) {
      const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
      running.kill(signal);
      await exited;
    }
  };
  const close = (): Promise<void> => {
    closed ??= (async () => {
      await stop("SIGTERM");
      rmSync(dataDir, { recursive: true, force: true });
      if (schema && ownSchema) await adminQuery(schema.url, `DROP SCHEMA IF EXISTS ${schema.name} CASCADE`);
    })();
    return closed;
  };
  const launch = async (): Promise<void> => {
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    child = spawn(process.execPath, [bin, "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    url = await waitHealthy(child, options.timeoutMs ?? 120_000, () => output);
    // A restart listens where the first start did.
    env["PORT"] = new URL(url).port;
  };

  try {
    await options.before?.((args) => runSync(bin, env, args));
    await launch();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    get url() {
      return url;
    },
    dataDir,
    schema: schema?.name ?? null,
    run: (args) => runAsync(bin, env, args),
    kill: (signal = "SIGKILL") => stop(signal),
    restart: async () => {
      if (closed) throw new Error("the reference server was closed");
      await stop("SIGTERM");
      await launch();
    },
    close,
  };
}
