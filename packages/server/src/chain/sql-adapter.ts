import type { SqlDatabase } from "@slotgate/chain-service";
import type { Database, Queryable } from "../storage/database.js";

function wrap(q: Queryable, transaction: SqlDatabase["transaction"]): SqlDatabase {
  return {
    query: async <Row>(text: string, params?: unknown[]) => ({ rows: await q.query<Row>(text, params ?? []) }),
    transaction,
  };
}

/**
 * The server's database as the chain service's `SqlDatabase`: the chain service keeps its `cs_`
 * tables in the same PGlite or PostgreSQL database (and schema). A nested transaction runs inside
 * the outer one.
 *
 * @example
 * ```ts
 * const chain = await createChainService({ db: chainDatabaseOf(db), keyEncryptionKey });
 * ```
 */
export function chainDatabaseOf(db: Database): SqlDatabase {
  const inTx = (tx: Queryable): SqlDatabase => wrap(tx, (fn) => fn(inTx(tx)));
  return wrap(db, (fn) => db.transaction((tx) => fn(inTx(tx))));
}
