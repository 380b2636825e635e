import type { SqlDatabase } from "./database.js";

/** A provider (client application) with its spend-call key. */
export interface ProviderRecord {
  clientId: string;
  /** hex(iv ‖ AES-256-CTR(aes_key)) under the key-encryption key. */
  aesKeyEnc: string;
  /** The provider's AES-256-CTR IV, hex (not secret on its own). */
  aesIv: string;
  /** Whether spend payloads must carry a fresh nonce and timestamp. */
  replayProtection: boolean;
}

interface ProviderRow {
  client_id: string;
  aes_key_enc: string;
  aes_iv: string;
  replay_protection: boolean;
}

const toProvider = (row: ProviderRow): ProviderRecord => ({
  clientId: row.client_id,
  aesKeyEnc: row.aes_key_enc,
  aesIv: row.aes_iv,
  replayProtection: Boolean(row.replay_protection),
});

/** Inserts a provider unless it exists; answers the stored record and whether it was created now. */
export async function ensureProvider(
  db: SqlDatabase,
  record: ProviderRecord,
): Promise<{ provider: ProviderRecord; created: boolean }> {
  const inserted = await db.query<ProviderRow>(
    `INSERT INTO cs_providers (client_id, aes_key_enc, aes_iv, replay_protection) VALUES ($1, $2, $3, $4)
     ON CONFLICT (client_id) DO NOTHING RETURNING *`,
    [record.clientId, record.aesKeyEnc, record.aesIv, record.replayProtection],
  );
  if (inserted.rows[0]) return { provider: toProvider(inserted.rows[0]), created: true };
  const existing = await findProvider(db, record.clientId);
  if (!existing) throw new Error("provider vanished");
  return { provider: existing, created: false };
}

/** The provider of a client id, or null. */
export async function findProvider(db: SqlDatabase, clientId: string): Promise<ProviderRecord | null> {
  const { rows } = await db.query<ProviderRow>("SELECT * FROM cs_providers WHERE client_id = $1", [clientId]);
  return rows[0] ? toProvider(rows[0]) : null;
}

/** Switches the opt-in replay protection of a provider. */
export async function setReplayProtection(db: SqlDatabase, clientId: string, enabled: boolean): Promise<boolean> {
  const { rows } = await db.query("UPDATE cs_providers SET replay_protection = $2 WHERE client_id = $1 RETURNING client_id", [
    clientId,
    enabled,
  ]);
  return rows.length > 0;
}

/** Records a cuid registration. */
export async function insertCuid(db: SqlDatabase, cuid: string, clientId: string, txHash: string): Promise<void> {
  await db.query("INSERT INTO cs_provider_cuids (cuid, client_id, tx_hash) VALUES ($1, $2, $3)", [cuid, clientId, txHash]);
}

/** The client id that registered a cuid, or null. */
export async function findCuidOwner(db: SqlDatabase, cuid: string): Promise<string | null> {
  const { rows } = await db.query<{ client_id: string }>("SELECT client_id FROM cs_provider_cuids WHERE cuid = $1", [cuid]);
  return rows[0]?.client_id ?? null;
}

/**
 * Accepts a spend nonce once: true the first time, false for a replay. `now` is the service clock.
 * The client's nonces older than `forgetBefore` are deleted first (only for a provider with replay
 * protection, whose messages always carry a `ts`: one that old is refused as stale anyway).
 */
export async function acceptSpendNonce(
  db: SqlDatabase,
  clientId: string,
  nonce: string,
  now: Date = new Date(),
  forgetBefore?: Date,
): Promise<boolean> {
  if (forgetBefore !== undefined) {
    await db.query("DELETE FROM cs_spend_nonces WHERE client_id = $1 AND accepted_at < $2", [clientId, forgetBefore]);
  }
  const { rows } = await db.query(
    "INSERT INTO cs_spend_nonces (client_id, nonce, accepted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING nonce",
    [clientId, nonce, now],
  );
  return rows.length > 0;
}

/** Forgets a nonce again (the spend it guarded failed before reaching the chain). */
export async function releaseSpendNonce(db: SqlDatabase, clientId: string, nonce: string): Promise<void> {
  await db.query("DELETE FROM cs_spend_nonces WHERE client_id = $1 AND nonce = $2", [clientId, nonce]);
}

/** Remembers the cuid a slot last bought under (balance_adex without cuid). */
export async function rememberSlotCuid(db: SqlDatabase, slot: string, cuid: string): Promise<void> {
  await db.query(
    `INSERT INTO cs_slot_last_cuid (slot, cuid) VALUES (lower($1), $2)
     ON CONFLICT (slot) DO UPDATE SET cuid = EXCLUDED.cuid, updated_at = now()`,
    [slot, cuid],
  );
}

/** The cuid a slot last bought under, or null. */
export async function lastSlotCuid(db: SqlDatabase, slot: string): Promise<string | null> {
  const { rows } = await db.query<{ cuid: string }>("SELECT cuid FROM cs_slot_last_cuid WHERE slot = lower($1)", [slot]);
  return rows[0]?.cuid ?? null;
}
