import type { Queryable } from "@slotgate/storage";

/** Reserves the exchange's one-time `state` (its SHA-256) for `fromUuid`; false when it was used before or is in flight. */
export async function reserveExchangeState(db: Queryable, fromUuid: number, stateHash: string): Promise<boolean> {
  const rows = await db.query("INSERT INTO cs_slot_exchange_states (from_uuid, state_hash) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING from_uuid", [
    fromUuid,
    stateHash,
  ]);
  return rows.length === 1;
}

/** Records the transaction of a completed exchange. */
export async function completeExchangeState(db: Queryable, fromUuid: number, stateHash: string, txHash: string): Promise<void> {
  await db.query("UPDATE cs_slot_exchange_states SET tx_hash = $3 WHERE from_uuid = $1 AND state_hash = $2", [fromUuid, stateHash, txHash]);
}

/** Frees a reservation whose exchange failed, so the same request may be retried. */
export async function releaseExchangeState(db: Queryable, fromUuid: number, stateHash: string): Promise<void> {
  await db.query("DELETE FROM cs_slot_exchange_states WHERE from_uuid = $1 AND state_hash = $2 AND tx_hash IS NULL", [fromUuid, stateHash]);
}
