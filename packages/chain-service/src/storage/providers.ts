import type { Queryable } from "@slotgate/storage";

/** A provider (client application) with its spend-call key. */
export interface ProviderRecord {
  clientId: string;
  /** The AES key sealed under the key-encryption key (`SecretSealer`, bound to the client and the IV). */
  aesKeyEnc: string;
  /** The provider's AES-256-CTR IV, hex (not secret on its own). */
  aesIv: string;
  /** Whether spend payloads must carry a fresh nonce and timestamp. */
  replayProtection: boolean;
  /** The key and IV before the last rotation, still decrypting until `validUntil`. */
  previous?: { aesKeyEnc: string; aesIv: string; validUntil: Date } | null;
  /** When the key was last rotated (null: never). */
  keyRotatedAt?: Date | null;
  /** When the first registration's answer showed the key (null: not yet; it is shown once). */
  keyShownAt?: Date | null;
}

interface ProviderRow {
  client_id: string;
  aes_key_enc: string;
  aes_iv: string;
  replay_protection: boolean;
  previous_aes_key_enc?: string | null;
  previous_aes_iv?: string | null;
  previous_valid_until?: Date | string | null;
  key_rotated_at?: Date | string | null;
  key_shown_at?: Date | string | null;
}

const toProvider = (row: ProviderRow): ProviderRecord => ({
  clientId: row.client_id,
  aesKeyEnc: row.aes_key_enc,
  aesIv: row.aes_iv,
  replayProtection: Boolean(row.replay_protection),
  previous:
    row.previous_aes_key_enc && row.previous_aes_iv && row.previous_valid_until
      ? { aesKeyEnc: row.previous_aes_key_enc, aesIv: row.previous_aes_iv, validUntil: new Date(row.previous_valid_until) }
      : null,
  keyRotatedAt: row.key_rotated_at ? new Date(row.key_rotated_at) : null,
  keyShownAt: row.key_shown_at ? new Date(row.key_shown_at) : null,
});

/** Inserts a provider unless it exists; answers the stored record and whether it was created now. */
export async function ensureProvider(db: Queryable, record: ProviderRecord): Promise<{ provider: ProviderRecord; created: boolean }> {
  const inserted = await db.query<ProviderRow>(
    `INSERT INTO cs_providers (client_id, aes_key_enc, aes_iv, replay_protection) VALUES ($1, $2, $3, $4)
     ON CONFLICT (client_id) DO NOTHING RETURNING *`,
    [record.clientId, record.aesKeyEnc, record.aesIv, record.replayProtection],
  );
  if (inserted[0]) return { provider: toProvider(inserted[0]), created: true };
  const existing = await findProvider(db, record.clientId);
  if (!existing) throw new Error("provider vanished");
  return { provider: existing, created: false };
}

/** The provider of a client id, or null. */
export async function findProvider(db: Queryable, clientId: string): Promise<ProviderRecord | null> {
  const rows = await db.query<ProviderRow>("SELECT * FROM cs_providers WHERE client_id = $1", [clientId]);
  return rows[0] ? toProvider(rows[0]) : null;
}

/**
 * Claims the showing of a provider's first key: true the first time only, and only while the record
 * still holds `aesKeyEnc`, the key its first registration issued (never rotated). One statement, so two
 * instances answering at once cannot both show it, nor a rotation slip in between.
 */
export async function claimIssuedKey(db: Queryable, clientId: string, aesKeyEnc: string): Promise<boolean> {
  const rows = await db.query(
    "UPDATE cs_providers SET key_shown_at = now() WHERE client_id = $1 AND key_shown_at IS NULL AND key_rotated_at IS NULL AND aes_key_enc = $2 RETURNING client_id",
    [clientId, aesKeyEnc],
  );
  return rows.length === 1;
}

/** Switches the opt-in replay protection of a provider. */
export async function setReplayProtection(db: Queryable, clientId: string, enabled: boolean): Promise<boolean> {
  const rows = await db.query("UPDATE cs_providers SET replay_protection = $2 WHERE client_id = $1 RETURNING client_id", [clientId, enabled]);
  return rows.length > 0;
}

/**
 * Replaces a provider's key and IV; the old ones keep decrypting until `previousValidUntil` (null: not
 * at all). False when the client has no provider record.
 */
export async function replaceProviderKey(
  db: Queryable,
  clientId: string,
  next: { aesKeyEnc: string; aesIv: string },
  previousValidUntil: Date | null,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE cs_providers SET
       previous_aes_key_enc = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE aes_key_enc END,
       previous_aes_iv = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE aes_iv END,
       previous_valid_until = $4::timestamptz, aes_key_enc = $2, aes_iv = $3, key_rotated_at = $5
     WHERE client_id = $1 RETURNING client_id`,
    [clientId, next.aesKeyEnc, next.aesIv, previousValidUntil, now],
  );
  return rows.length > 0;
}

/** A cuid registration as recorded: enough to make it again on a chain that lost it. */
export interface CuidRecord {
  cuid: string;
  clientId: string;
  txHash: string;
  /** Null for registrations recorded before these were kept. */
  releasePer: number | null;
  ownerAddr: string | null;
  releaseEnabled: boolean;
}

/** Records a cuid registration (a registration made again after a chain lost it keeps its new transaction). */
export async function insertCuid(db: Queryable, record: Omit<CuidRecord, "releaseEnabled">): Promise<void> {
  await db.query(
    `INSERT INTO cs_provider_cuids (cuid, client_id, tx_hash, release_per, owner_addr) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (cuid) DO UPDATE SET tx_hash = EXCLUDED.tx_hash`,
    [record.cuid, record.clientId, record.txHash, record.releasePer, record.ownerAddr],
  );
}

/** Every cuid registration (or those of one client), oldest first. */
export async function listCuids(db: Queryable, clientId?: string): Promise<CuidRecord[]> {
  const rows = await db.query<{
    cuid: string;
    client_id: string;
    tx_hash: string;
    release_per: number | null;
    owner_addr: string | null;
    release_enabled: boolean;
  }>(
    `SELECT cuid, client_id, tx_hash, release_per, owner_addr, release_enabled FROM cs_provider_cuids
     ${clientId === undefined ? "" : "WHERE client_id = $1"} ORDER BY created_at, cuid`,
    clientId === undefined ? [] : [clientId],
  );
  return rows.map((r) => ({
    cuid: r.cuid,
    clientId: r.client_id,
    txHash: r.tx_hash,
    releasePer: r.release_per === null ? null : Number(r.release_per),
    ownerAddr: r.owner_addr,
    releaseEnabled: Boolean(r.release_enabled),
  }));
}

/** Records a cuid's release flag as the operator set it (and its registration's new transaction after a repair). */
export async function updateCuid(db: Queryable, cuid: string, change: { releaseEnabled?: boolean; txHash?: string }): Promise<void> {
  if (change.releaseEnabled !== undefined) await db.query("UPDATE cs_provider_cuids SET release_enabled = $2 WHERE cuid = $1", [cuid, change.releaseEnabled]);
  if (change.txHash !== undefined) await db.query("UPDATE cs_provider_cuids SET tx_hash = $2 WHERE cuid = $1", [cuid, change.txHash]);
}

/**
 * Deletes a provider record that has no cuid and no registration in flight (its first registration
 * failed: its key was never shown).
 */
export async function forgetUnissuedProvider(db: Queryable, clientId: string): Promise<void> {
  await db.query(
    `DELETE FROM cs_providers WHERE client_id = $1
       AND NOT EXISTS (SELECT 1 FROM cs_provider_cuids WHERE cs_provider_cuids.client_id = $1)
       AND NOT EXISTS (SELECT 1 FROM cs_writes WHERE scope = 'client:' || $1 AND status IN ('pending', 'submitted') AND payload->'answer'->>'kind' = 'provider')`,
    [clientId],
  );
}

/** The client id that registered a cuid, or null. */
export async function findCuidOwner(db: Queryable, cuid: string): Promise<string | null> {
  const rows = await db.query<{ client_id: string }>("SELECT client_id FROM cs_provider_cuids WHERE cuid = $1", [cuid]);
  return rows[0]?.client_id ?? null;
}

/**
 * Accepts a spend nonce once: true the first time, false for a replay. `now` is the service clock.
 * The client's nonces older than `forgetBefore` are deleted first (only for a provider with replay
 * protection, whose messages always carry a `ts`: one that old is refused as stale anyway).
 */
export async function acceptSpendNonce(db: Queryable, clientId: string, nonce: string, now: Date = new Date(), forgetBefore?: Date): Promise<boolean> {
  if (forgetBefore !== undefined) {
    await db.query("DELETE FROM cs_spend_nonces WHERE client_id = $1 AND accepted_at < $2", [clientId, forgetBefore]);
  }
  const rows = await db.query("INSERT INTO cs_spend_nonces (client_id, nonce, accepted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING nonce", [
    clientId,
    nonce,
    now,
  ]);
  return rows.length > 0;
}

/** Forgets a nonce again (the spend it guarded failed before reaching the chain). */
export async function releaseSpendNonce(db: Queryable, clientId: string, nonce: string): Promise<void> {
  await db.query("DELETE FROM cs_spend_nonces WHERE client_id = $1 AND nonce = $2", [clientId, nonce]);
}

/** Remembers the cuid a slot last bought under (balance_adex without cuid). */
export async function rememberSlotCuid(db: Queryable, slot: string, cuid: string): Promise<void> {
  await db.query(
    `INSERT INTO cs_slot_last_cuid (slot, cuid) VALUES (lower($1), $2)
     ON CONFLICT (slot) DO UPDATE SET cuid = EXCLUDED.cuid, updated_at = now()`,
    [slot, cuid],
  );
}

/** The cuid a slot last bought under, or null. */
export async function lastSlotCuid(db: Queryable, slot: string): Promise<string | null> {
  const rows = await db.query<{ cuid: string }>("SELECT cuid FROM cs_slot_last_cuid WHERE slot = lower($1)", [slot]);
  return rows[0]?.cuid ?? null;
}
