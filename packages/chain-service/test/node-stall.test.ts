import { type Database, openDatabase } from "@slotgate/storage";
import { afterAll } from "vitest";
import { defineNodeStallSuite } from "./helpers/node-stall-suite.js";

// A database of its own: the suite's shared one holds other files' records, sealed under their keys.
let db: Database | undefined;

defineNodeStallSuite("PGlite", async () => {
  db ??= await openDatabase({});
  return db;
});

afterAll(async () => {
  await db?.close();
});
