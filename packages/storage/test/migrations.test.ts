import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, type MigrationSet, appliedVersions, migrate, openDatabase, splitStatements } from "../src/index.js";

const PG_URL = process.env.SLOTGATE_TEST_DATABASE_URL;
const opened: Database[] = [];

async function pglite(): Promise<Database> {
  const db = await openDatabase({});
  opened.push(db);
  return db;
}

async function postgres(schema: string, poolSize = 4): Promise<Database> {
  const db = await openDatabase({ databaseUrl: PG_URL, schema, poolSize });
  opened.push(db);
  return db;
}

afterAll(async () => {
  for (const db of opened.reverse()) await db.close();
});

const notes: MigrationSet = {
  table: "notes_schema_migrations",
  lockKey: 4242,
  migrations: [
    { version: 1, name: "notes", sql: "CREATE TABLE notes (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL);\nCREATE INDEX notes_body ON notes(body);" },
    { version: 2, name: "note tags", sql: "ALTER TABLE notes ADD COLUMN tag TEXT" },
  ],
};

describe("splitStatements", () => {
  it("ends a statement at a semicolon that ends a line, and keeps semicolons inside a line", () => {
    expect(splitStatements("CREATE TABLE a (x int);\n  CREATE TABLE b (y text DEFAULT 'a;b');  \nSELECT 1")).toEqual([
      "CREATE TABLE a (x int)",
      "CREATE TABLE b (y text DEFAULT 'a;b')",
      "SELECT 1",
    ]);
  });

  it("drops empty statements", () => {
    expect(splitStatements(";\n\n;\n")).toEqual([]);
  });
});

describe("migrate (PGlite)", () => {
  it("applies each migration once and records it", async () => {
    const db = await pglite();
    expect(await appliedVersions(db, notes)).toEqual([]);
    expect(await migrate(db, notes)).toEqual([1, 2]);
    expect(await migrate(db, notes)).toEqual([]);
    expect(await appliedVersions(db, notes)).toEqual([1, 2]);
    await db.query("INSERT INTO notes (body, tag) VALUES ($1, $2)", ["hello", "t"]);
    expect(await db.query("SELECT body, tag FROM notes")).toEqual([{ body: "hello", tag: "t" }]);
  });

  it("applies a later migration added to the set", async () => {
    const db = await pglite();
    await migrate(db, { ...notes, migrations: notes.migrations.slice(0, 1) });
    expect(await migrate(db, notes)).toEqual([2]);
  });

  it("rolls a failing migration back whole and leaves it unrecorded", async () => {
    const db = await pglite();
    const broken: MigrationSet = {
      ...notes,
      migrations: [...notes.migrations, { version: 3, name: "broken", sql: "CREATE TABLE extra (x int);\nSELECT * FROM missing_table" }],
    };
    await expect(migrate(db, broken)).rejects.toThrow(/missing_table/);
    expect(await appliedVersions(db, notes)).toEqual([1, 2]);
    expect(await db.query("SELECT to_regclass('extra')::text AS t")).toEqual([{ t: null }]);
  });

  it("keeps two sets in their own tables", async () => {
    const db = await pglite();
    const other: MigrationSet = {
      table: "other_schema_migrations",
      lockKey: 4343,
      migrations: [{ version: 1, name: "other", sql: "CREATE TABLE other_things (x int)" }],
    };
    expect(await migrate(db, notes)).toEqual([1, 2]);
    expect(await migrate(db, other)).toEqual([1]);
    expect(await appliedVersions(db, other)).toEqual([1]);
  });

  it("refuses versions that do not strictly increase, and a bad table name", async () => {
    const db = await pglite();
    await expect(migrate(db, { ...notes, migrations: [notes.migrations[1]!, notes.migrations[0]!] })).rejects.toThrow(/strictly increasing/);
    await expect(migrate(db, { ...notes, table: "bad name" })).rejects.toThrow(/identifier/);
  });
});

describe.runIf(PG_URL)("migrate (PostgreSQL)", () => {
  it("applies each migration exactly once when several processes migrate at the same moment", async () => {
    const schema = `sg_storage_${randomBytes(5).toString("hex")}`;
    // Three pools on one schema (opened one after the other: creating the schema is not what is tested).
    const migrators = [await postgres(schema), await postgres(schema), await postgres(schema)];
    try {
      const results = await Promise.all(migrators.map((db) => migrate(db, notes)));
      expect(results.flat().sort()).toEqual([1, 2]);
      expect(await appliedVersions(migrators[0]!, notes)).toEqual([1, 2]);
    } finally {
      await migrators[0]!.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  });
});
