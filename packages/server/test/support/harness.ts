import { freeLoopbackPort } from "../../src/testing/free-port.js";
import { type Database, openDatabase } from "@slotgate/storage";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import {
  type Logger,
  type ServerConfig,
  createKeyStore,
  generateSigningKey,
  loadConfig,
  migrateServer,
  type RunningServer,
  startServer,
} from "../../src/index.js";
import type { ChainHandle } from "../../src/chain-api/chain/start-chain.js";
import type { PrivateJwk } from "../../src/oauth/keys/key-store.js";
import { readMailbox, waitForMailedCode } from "../../src/testing/index.js";
import { type SmtpSink, startSmtpSink } from "./smtp.js";

/** Which database this test process runs on (set per vitest project). */
export const TEST_DB = (process.env["SLOTGATE_TEST_DB"] ?? "pglite") as "pglite" | "postgres";
const PG_URL = process.env["SLOTGATE_TEST_PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";

/** Cheap scrypt cost for tests (production default is N=2^15). */
export const TEST_SCRYPT = { N: 1024, r: 8, p: 1 };

export interface TestServer extends RunningServer {
  config: ServerConfig;
  /** The real SMTP server (smtp-server, in process) the test server mails its one-time codes to. */
  mail: SmtpSink;
  /** Runs SQL against the server's database (to assert that nothing changed). */
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** The server's database, for {@link startTestServer}'s `shareDatabaseOf`. */
  db: Database;
}

/** Where a test reads the codes a server mails: its SMTP sink, or a development mailbox. */
export interface MailedCodes {
  nextCode(to: string): Promise<string>;
}

const mailboxes = new Map<string, MailedCodes>();

/** The codes in a server's development mailbox (`{dataDir}/mailbox`, no SMTP_URL), each read once. */
export function devMailboxCodes(dataDir: string): MailedCodes {
  const seen = new Map<string, string>();
  return {
    async nextCode(to) {
      const after = seen.get(to);
      const code = await waitForMailedCode(dataDir, to, after === undefined ? {} : { after });
      seen.set(to, readMailbox(dataDir, { to, limit: 1 })[0]!.id);
      return code;
    },
  };
}

/** Lets {@link mailOf} find `sink` for a server at `base` that a test started itself (with the harness's SMTP_URL). */
export function attachMail(base: string, sink: MailedCodes): void {
  mailboxes.set(base, sink);
}

/** The SMTP sink of the test server at `base` (for flows that only know the URL). */
export function mailOf(base: string): MailedCodes {
  const sink = mailboxes.get(base);
  if (!sink) throw new Error(`no test server with mail at ${base}`);
  return sink;
}

/**
 * An empty database of the project: an in-memory PGlite, or a fresh PostgreSQL schema that `drop`
 * removes (after closing the connection pool).
 */
export async function openTestDatabase(): Promise<{ db: Database; drop(): Promise<void> }> {
  const schema = `sg_test_${randomBytes(6).toString("hex")}`;
  const db = TEST_DB === "postgres" ? await openDatabase({ databaseUrl: PG_URL, schema, poolSize: 5 }) : await openDatabase({});
  return {
    db,
    async drop() {
      if (TEST_DB !== "postgres") return;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

/**
 * Boots the real server on 127.0.0.1:0 on the project's database: an in-memory PGlite, or a
 * fresh PostgreSQL schema that is dropped on close (so runs are independent).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  keys?: PrivateJwk[],
  options: {
    log?: Logger;
    /**
     * Run as a second instance on this server's database (PGlite or the PostgreSQL schema), as instances
     * behind a load balancer do. Close this one first: the first server owns the database.
     */
    shareDatabaseOf?: TestServer;
    /** The chain service handle to serve with (a test double at the ChainService boundary) instead of `CHAIN`'s. */
    chain?: ChainHandle;
  } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "sg-test-server-"));
  const mail = await startSmtpSink();
  const config = loadConfig({
    SMTP_URL: mail.url,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    CLIENT_SECRET_PEPPER: "test-pepper-0123456789abcdefghijklmnopqrstuv",
    OUTBOX_POLL_MS: "50",
    REVOCATION_POLL_MS: "100",
    SLOTGATE_SEED_DEMO: "off",
    CHAIN: "off", // suites that need the chain pass CHAIN: "anvil" (one development chain per test server)
    ANVIL_PORT: "0",
    SLOTGATE_DATA_DIR: dataDir,
    RATE_LIMIT: "off",
    ...env,
  });
  const shared = options.shareDatabaseOf?.db;
  const { db, drop }: { db: Database; drop(): Promise<void> } = shared
    ? {
        db: {
          kind: shared.kind,
          query: (text, params) => shared.query(text, params),
          transaction: (fn) => shared.transaction(fn),
          close: async () => undefined,
        },
        drop: async () => undefined,
      }
    : await openTestDatabase();
  await migrateServer(db);
  const keyStore = await createKeyStore(keys ?? [await generateSigningKey()]);
  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer(config, {
      resources: { db, keys: keyStore, config, warnings: [] },
      scrypt: TEST_SCRYPT,
      ...(options.log ? { log: options.log } : {}),
      ...(options.chain ? { chain: options.chain } : {}),
    });
  } catch (error) {
    // Nothing of a server that did not start stays behind (its port taken: see onFreeLoopbackPort).
    rmSync(dataDir, { recursive: true, force: true });
    await mail.close();
    await drop();
    throw error;
  }
  mailboxes.set(running.url, mail);
  return {
    ...running,
    config,
    mail,
    sql: (text, params) => db.query(text, params),
    db,
    async close() {
      mailboxes.delete(running.url);
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
      await mail.close();
      await drop();
    },
  };
}

/**
 * Runs `start(port)` on a loopback port that was free a moment before, for a server whose URL must be known
 * before it listens (`PUBLIC_URL` for passkeys, an identity provider that redirects to it). Between the probe
 * and the server's bind another process can take the port (test files run in parallel): `start` then fails
 * with `EADDRINUSE` and runs again on a new port, at most five times; any other failure is thrown at once.
 * `start` must close what it opened before it throws.
 *
 * @example
 * ```ts
 * const server = await onFreeLoopbackPort((port) => startTestServer({ PORT: String(port), PUBLIC_URL: `http://localhost:${port}` }));
 * ```
 */
export async function onFreeLoopbackPort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freeLoopbackPort();
    try {
      return await start(port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt === 5) throw error;
    }
  }
}
