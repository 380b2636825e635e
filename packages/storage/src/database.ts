import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { lockFile } from "./lock-file.js";

/** Anything that runs parameterised SQL (`$1`, `$2`, …) and returns rows: a database or an open transaction. */
export interface Queryable {
  /**
   * Runs one statement and answers its rows.
   *
   * @example
   * ```ts
   * const rows = await db.query<{ n: number }>("SELECT $1::int AS n", [1]);
   * ```
   */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

/** A database: PostgreSQL through `pg`, or embedded PGlite. Both speak the same SQL. */
export interface Database extends Queryable {
  /** `postgres` (a connection string was given) or `pglite` (embedded, the development default). */
  readonly kind: "postgres" | "pglite";
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   *
   * @example
   * ```ts
   * await db.transaction(async (tx) => {
   *   await tx.query("UPDATE accounts SET n = n - 1 WHERE id = $1", [1]);
   *   await tx.query("UPDATE accounts SET n = n + 1 WHERE id = $1", [2]);
   * });
   * ```
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Closes every connection (and releases the embedded database's directory lock). */
  close(): Promise<void>;
}

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string | undefined;
  /**
   * Directory of the embedded database; `memory://` (or undefined) keeps it in memory. A directory is
   * locked for this process (`<dataDir>.lock`): the embedded database has one writer.
   * @default undefined
   */
  dataDir?: string | undefined;
  /** PostgreSQL schema to use (created when missing); for isolated test runs. @default "public" */
  schema?: string | undefined;
  /** Largest number of pooled PostgreSQL connections. @default 10 */
  poolSize?: number | undefined;
}

/**
 * Opens the database: PostgreSQL when `databaseUrl` is given, else an embedded PGlite (in memory, or
 * in `dataDir`, locked for this process).
 *
 * @example
 * ```ts
 * const db = await openDatabase({ dataDir: ".slotgate-data/db" });
 * await db.query("select 1");
 * await db.close();
 * ```
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema, options.poolSize ?? 10);
  return openPglite(options.dataDir);
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Anything whose `query(sql, params)` answers `{ rows }`: a `pg` pool or client, PGlite or its transaction. */
interface RowsClient {
  query(sql: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The {@link Queryable} of a driver client. */
function on(client: RowsClient): Queryable {
  return {
    async query<R>(sql: string, params: readonly unknown[] = []) {
      return (await client.query(sql, params as unknown[])).rows as R[];
    },
  };
}

async function openPostgres(url: string, schema: string | undefined, max: number): Promise<Database> {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error("schema must be a lowercase SQL identifier");
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on("error", () => {
    // An idle client died (server restart); the pool replaces it. Nothing to log that is not noise.
  });
  try {
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    else await pool.query("select 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return {
    kind: "postgres",
    ...on(pool),
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(on(client));
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

/**
 * PGlite's start parameters with a 16 MB buffer pool (PostgreSQL's default is 128 MB). The embedded
 * database's "disk" is the process's own memory (in memory) or the system's page cache (a directory), so a
 * large pool mostly holds a second copy of the same pages inside the WebAssembly heap, which never shrinks:
 * measured, about 110 MB less resident memory per database after 80,000 rows (docs/benchmarks.md, "Memory").
 */
const PGLITE_START = { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"] };

/**
 * The data directory of this process's first in-memory database, dumped right after initdb and before
 * anyone writes to it. initdb is most of an embedded database's start (about 6 CPU-seconds of 8 here):
 * every later in-memory database starts from a copy of this image instead (about 2), which is what makes
 * suites that open a fresh database per test server affordable. Directories still run their own initdb.
 */
let pristineImage: Promise<Blob | File> | undefined;

/** A new, empty in-memory PGlite: from the pristine image when this process has one, else by initdb. */
async function inMemory(): Promise<PGlite> {
  const image = await pristineImage?.catch(() => undefined);
  if (image) return PGlite.create({ ...PGLITE_START, loadDataDir: image });
  const db = await PGlite.create(PGLITE_START);
  if (!pristineImage) {
    pristineImage = db.dumpDataDir("none");
    // A failed dump leaves the next database to run initdb (and try again); this one is fine either way.
    await pristineImage.catch(() => {
      pristineImage = undefined;
    });
  }
  return db;
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const inDirectory = dataDir !== undefined && dataDir !== "memory://";
  let release: () => void = () => undefined;
  if (inDirectory) {
    mkdirSync(dataDir, { recursive: true });
    release = lockFile(`${dataDir}.lock`, `the embedded database in ${dataDir}`);
  }
  let db: PGlite;
  try {
    db = inDirectory ? await PGlite.create({ ...PGLITE_START, dataDir }) : await inMemory();
  } catch (error) {
    release();
    throw error;
  }
  return {
    kind: "pglite",
    ...on(db),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(on(tx))),
    async close() {
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}
