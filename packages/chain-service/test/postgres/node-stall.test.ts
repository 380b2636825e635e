import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";
import { type Database, openDatabase } from "@slotgate/storage";
import { defineNodeStallSuite } from "../helpers/node-stall-suite.js";

// Included by vitest.config.ts only when SLOTGATE_TEST_DATABASE_URL is set.
const url = process.env.SLOTGATE_TEST_DATABASE_URL as string;
const schema = `cs_stall_${randomBytes(6).toString("hex")}`;
let db: Database | undefined;

defineNodeStallSuite("PostgreSQL", async () => {
  db ??= await openDatabase({ databaseUrl: url, schema, poolSize: 10 });
  return db;
});

afterAll(async () => {
  if (db) {
    await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.close();
  }
});
