import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";
import pg from "pg";
import { type SqlDatabase, fromPgPool, migrate } from "../../src/index.js";
import { defineStorageSuite } from "../helpers/storage-suite.js";

// Included by vitest.config.ts only when SLOTGATE_TEST_DATABASE_URL is set (scripts/test.mjs probes it).
const url = process.env.SLOTGATE_TEST_DATABASE_URL as string;
const schema = `cs_test_${randomBytes(6).toString("hex")}`;
let pool: pg.Pool | undefined;
let db: SqlDatabase | undefined;

defineStorageSuite("PostgreSQL", async () => {
  if (!db) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 10 });
    db = fromPgPool(pool);
    await migrate(db);
  }
  return db;
}, fresh);

const extraPools: pg.Pool[] = [];
let sharedFresh: string | undefined;
/** Three pools on one new, empty schema: three "processes" migrating at once. */
async function fresh(): Promise<SqlDatabase> {
  if (!sharedFresh) {
    sharedFresh = `${schema}_fresh`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${sharedFresh}`);
    await admin.end();
  }
  const p = new pg.Pool({ connectionString: url, options: `-c search_path=${sharedFresh}`, max: 2 });
  extraPools.push(p);
  return fromPgPool(p);
}

afterAll(async () => {
  for (const p of extraPools) await p.end();
  if (sharedFresh) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${sharedFresh} CASCADE`);
    await admin.end();
  }
  if (pool) {
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    await pool.end();
  }
});
