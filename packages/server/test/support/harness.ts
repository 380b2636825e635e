import { randomBytes } from "node:crypto";
import pg from "pg";
import { type ServerConfig, createKeyStore, generateSigningKey, loadConfig, migrate, openDatabase, type RunningServer, startServer } from "../../src/index.js";
import type { PrivateJwk } from "../../src/keys/key-store.js";

/** Which database this test process runs on (set per vitest project). */
export const TEST_DB = (process.env["SLOTGATE_TEST_DB"] ?? "pglite") as "pglite" | "postgres";
const PG_URL = process.env["SLOTGATE_TEST_PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";

/** Cheap scrypt cost for tests (production default is N=2^15). */
export const TEST_SCRYPT = { N: 1024, r: 8, p: 1 };

export interface TestServer extends RunningServer {
  config: ServerConfig;
  /** Runs SQL against the server's database (to assert that nothing changed). */
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

/**
 * Boots the real server on 127.0.0.1:0 on the project's database: an in-memory PGlite, or a
 * fresh PostgreSQL schema that is dropped on close (so runs are independent).
 */
export async function startTestServer(env: Record<string, string> = {}, keys?: PrivateJwk[]): Promise<TestServer> {
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    CLIENT_SECRET_PEPPER: "test-pepper-0123456789abcdefghijklmnopqrstuv",
    OUTBOX_POLL_MS: "50",
    REVOCATION_POLL_MS: "100",
    SLOTGATE_SEED_DEMO: "off",
    CHAIN: "off", // suites that need the chain pass CHAIN: "in-process" (one chain per test file)
    RATE_LIMIT: "off",
    ...env,
  });
  const schema = `sg_test_${randomBytes(6).toString("hex")}`;
  const db =
    TEST_DB === "postgres" ? await openDatabase({ databaseUrl: PG_URL, schema, poolSize: 5 }) : await openDatabase({});
  await migrate(db);
  const keyStore = await createKeyStore(keys ?? [await generateSigningKey()]);
  const running = await startServer(config, { resources: { db, keys: keyStore, config, warnings: [] }, scrypt: TEST_SCRYPT });
  return {
    ...running,
    config,
    sql: (text, params) => db.query(text, params),
    async close() {
      await running.close();
      if (TEST_DB === "postgres") {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  };
}
