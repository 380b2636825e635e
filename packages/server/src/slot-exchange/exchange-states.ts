import type { Database, Queryable } from "../storage/database.js";

/**
 * Creates the table of accepted slot-exchange `state` tokens (one per owner and state). Owned by the
 * chain part of the server and created with the chain service's tables, not by the core migrations,
 * so an OAuth-only server (`CHAIN=off`) has no chain tables.
 */
export async function ensureExchangeTable(db: Database): Promise<void> {
  await db.query(
    "CREATE TABLE IF NOT EXISTS slot_exchange_states (from_uuid TEXT NOT NULL, state_hash TEXT NOT NULL, tx_hash TEXT, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (from_uuid, state_hash))",
  );
}

/** Reserves `state` for `fromUuid`; false when it was used before (or is in flight). */
export async function reserveExchangeState(db: Queryable, fromUuid: string, stateHash: string): Promise<boolean> {
  const rows = await db.query("INSERT INTO slot_exchange_states (from_uuid, state_hash) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING from_uuid", [fromUuid, stateHash]);
  return rows.length === 1;
}

/** Records the transaction of a completed exchange. */
export async function completeExchangeState(db: Queryable, fromUuid: string, stateHash: string, txHash: string): Promise<void> {
  await db.query("UPDATE slot_exchange_states SET tx_hash = $3 WHERE from_uuid = $1 AND state_hash = $2", [fromUuid, stateHash, txHash]);
}

/** Frees a reservation whose exchange failed, so the same request may be retried. */
export async function releaseExchangeState(db: Queryable, fromUuid: string, stateHash: string): Promise<void> {
  await db.query("DELETE FROM slot_exchange_states WHERE from_uuid = $1 AND state_hash = $2 AND tx_hash IS NULL", [fromUuid, stateHash]);
}
