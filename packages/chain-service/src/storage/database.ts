/** Result of {@link SqlDatabase.query}. */
export interface SqlResult<Row> {
  rows: Row[];
}

/**
 * The small SQL surface the chain service needs (PostgreSQL dialect, `$1` placeholders). PGlite
 * satisfies it through {@link fromPGlite}, a `pg` Pool through {@link fromPgPool}.
 *
 * @example
 * ```ts
 * const db = fromPGlite(new PGlite());
 * await db.transaction(async (tx) => tx.query("SELECT 1"));
 * ```
 */
export interface SqlDatabase {
  /** Runs one statement. */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<SqlResult<Row>>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlDatabase) => Promise<T>): Promise<T>;
}

/** The part of a PGlite instance {@link fromPGlite} uses. */
export interface PGliteLike {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  transaction<T>(fn: (tx: { query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }> }) => Promise<T>): Promise<T>;
}

/**
 * Wraps a PGlite database (`@electric-sql/pglite`). Nested transactions run inside the outer one.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * const db = fromPGlite(new PGlite());
 * ```
 */
export function fromPGlite(pglite: PGliteLike): SqlDatabase {
  const inTx = (tx: { query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }> }): SqlDatabase => ({
    query: (text, params) => tx.query(text, params),
    transaction: (fn) => fn(inTx(tx)),
  });
  return {
    query: (text, params) => pglite.query(text, params),
    transaction: (fn) => pglite.transaction((tx) => fn(inTx(tx))),
  };
}

/** The part of a `pg` client {@link fromPgPool} uses. */
export interface PgClientLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  release(): void;
}

/** The part of a `pg` Pool {@link fromPgPool} uses. */
export interface PgPoolLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  connect(): Promise<PgClientLike>;
}

/**
 * Wraps a `pg` Pool: a transaction checks out one client and runs BEGIN / COMMIT / ROLLBACK on it.
 *
 * @example
 * ```ts
 * import pg from "pg";
 * const db = fromPgPool(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * ```
 */
export function fromPgPool(pool: PgPoolLike): SqlDatabase {
  const onClient = (client: PgClientLike): SqlDatabase => ({
    query: async <Row>(text: string, params?: unknown[]) => (await client.query(text, params)) as { rows: Row[] },
    transaction: (fn) => fn(onClient(client)),
  });
  return {
    query: async <Row>(text: string, params?: unknown[]) => (await pool.query(text, params)) as { rows: Row[] },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(onClient(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}
