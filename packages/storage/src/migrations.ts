import type { Database } from "./database.js";

/** One versioned schema change. Versions only grow; an applied migration is never edited. */
export interface Migration {
  /** Positive, strictly increasing within its set. */
  version: number;
  /** What it does, recorded with the version. */
  name: string;
  /** Statements separated by `;` at the end of a line. */
  sql: string;
}

/** The migrations of one component that owns tables (the server, the chain service). */
export interface MigrationSet {
  /** Table that records the applied versions of this set (a plain SQL identifier). */
  table: string;
  /** Key of the transaction-scoped advisory lock that serialises concurrent migrators of this set. */
  lockKey: number;
  /** Every migration, oldest first. */
  migrations: readonly Migration[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Splits a migration's SQL into statements: a `;` that ends a line ends a statement. (Neither PGlite's
 * extended protocol nor `pg` with parameters runs several statements in one call.)
 *
 * @example
 * ```ts
 * splitStatements("CREATE TABLE a (x int);\nCREATE TABLE b (y int);"); // two statements
 * ```
 */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

function checkSet(set: MigrationSet): void {
  if (!IDENTIFIER.test(set.table)) throw new Error(`migration table ${JSON.stringify(set.table)} must be a lowercase SQL identifier`);
  let previous = 0;
  for (const m of set.migrations) {
    if (!Number.isSafeInteger(m.version) || m.version <= previous) {
      throw new Error(`migration versions of ${set.table} must be positive and strictly increasing (${m.version} after ${previous})`);
    }
    previous = m.version;
  }
}

/**
 * Applies every migration of `set` not yet applied, each in its own transaction under the set's
 * advisory lock, so several processes starting at once apply each migration exactly once. Safe at
 * every start; answers the versions it applied now.
 *
 * @example
 * ```ts
 * const applied = await migrate(db, {
 *   table: "app_schema_migrations",
 *   lockKey: 42,
 *   migrations: [{ version: 1, name: "notes", sql: "CREATE TABLE notes (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)" }],
 * }); // [1] on a fresh database, [] afterwards
 * ```
 */
export async function migrate(db: Database, set: MigrationSet): Promise<number[]> {
  checkSet(set);
  const locked = async (tx: { query: Database["query"] }) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [set.lockKey]);
  };
  await db.transaction(async (tx) => {
    await locked(tx);
    await tx.query(`CREATE TABLE IF NOT EXISTS ${set.table} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  });
  const applied: number[] = [];
  for (const m of set.migrations) {
    const done = await db.transaction(async (tx) => {
      await locked(tx);
      const rows = await tx.query(`SELECT 1 FROM ${set.table} WHERE version = $1`, [m.version]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query(`INSERT INTO ${set.table} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}

/**
 * The versions of `set` recorded as applied, oldest first (empty before the first {@link migrate}).
 *
 * @example
 * ```ts
 * await appliedVersions(db, serverMigrations); // [1, 2, 3]
 * ```
 */
export async function appliedVersions(db: Database, set: Pick<MigrationSet, "table">): Promise<number[]> {
  if (!IDENTIFIER.test(set.table)) throw new Error("migration table must be a lowercase SQL identifier");
  const exists = await db.query<{ name: string | null }>("SELECT to_regclass($1)::text AS name", [set.table]);
  if (!exists[0]?.name) return [];
  const rows = await db.query<{ version: number }>(`SELECT version FROM ${set.table} ORDER BY version`);
  return rows.map((row) => Number(row.version));
}
