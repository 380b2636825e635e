import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/** Anything that runs parameterised SQL (`$1`, `$2`, …) and returns rows. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

/** The server's database: PostgreSQL through `pg`, or embedded PGlite. Both speak the same SQL. */
export interface Database extends Queryable {
  /** `postgres` (DATABASE_URL) or `pglite` (embedded, development default). */
  readonly kind: "postgres" | "pglite";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Closes every connection. */
  close(): Promise<void>;
}

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string | undefined;
  /** Directory of the embedded database; `memory://` (or undefined) keeps it in memory. @default undefined */
  dataDir?: string | undefined;
  /** PostgreSQL schema to use (created when missing); for isolated test runs. @default "public" */
  schema?: string | undefined;
  /** Largest number of pooled PostgreSQL connections. @default 10 */
  poolSize?: number | undefined;
}

/**
 * Opens the database: PostgreSQL when `databaseUrl` is given, else an embedded PGlite.
 *
 * @example
 * ```ts
 * const db = await openDatabase({ dataDir: ".slotgate-data/db" });
 * await db.query("select 1");
 * ```
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema, options.poolSize ?? 10);
  return openPglite(options.dataDir);
}

async function openPostgres(url: string, schema: string | undefined, max: number): Promise<Database> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error("schema must be a lowercase SQL identifier");
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on("error", () => {
    // An idle client died (server restart); the pool replaces it. Nothing to log that is not noise.
  });
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  else await pool.query("select 1");
  return {
    kind: "postgres",
    async query<R>(sql: string, params: readonly unknown[] = []) {
      const res = await pool.query(sql, params as unknown[]);
      return res.rows as R[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn({
          async query<R>(sql: string, params: readonly unknown[] = []) {
            const res = await client.query(sql, params as unknown[]);
            return res.rows as R[];
          },
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir && dataDir !== "memory://") mkdirSync(dataDir, { recursive: true });
  const db = new PGlite(dataDir && dataDir !== "memory://" ? dataDir : undefined);
  await db.waitReady;
  return {
    kind: "pglite",
    async query<R>(sql: string, params: readonly unknown[] = []) {
      const res = await db.query(sql, params as unknown[]);
      return res.rows as R[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction(async (tx) =>
        fn({
          async query<R>(sql: string, params: readonly unknown[] = []) {
            const res = await tx.query(sql, params as unknown[]);
            return res.rows as R[];
          },
        }),
      );
    },
    async close() {
      await db.close();
    },
  };
}
