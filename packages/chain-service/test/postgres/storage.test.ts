import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";
import { type Database, openDatabase } from "@slotgate/storage";
import { migrateChainService } from "../../src/index.js";
import { defineStorageSuite } from "../helpers/storage-suite.js";

// Included by vitest.config.ts only when SLOTGATE_TEST_DATABASE_URL is set (scripts/test.mjs probes it).
const url = process.env.SLOTGATE_TEST_DATABASE_URL as string;
const schema = `cs_test_${randomBytes(6).toString("hex")}`;
let db: Database | undefined;

defineStorageSuite("PostgreSQL", async () => {
  if (!db) {
    db = await openDatabase({ databaseUrl: url, schema, poolSize: 10 });
    await migrateChainService(db);
  }
  return db;
});

afterAll(async () => {
  if (db) {
    await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.close();
  }
});
