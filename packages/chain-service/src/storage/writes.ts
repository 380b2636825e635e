import type { Queryable } from "@slotgate/storage";

/** What a write does on chain: an operator call, a recorded spend (batched), or a user's sponsored operation. */
export type WriteKind = "call" | "spend" | "user_operation";

/** A write's state: accepted, in a signed transaction, settled. */
export type WriteStatus = "pending" | "submitted" | "confirmed" | "failed";

/** A durable chain write (an intent recorded with the request that asked for it). */
export interface WriteRecord {
  id: string;
  kind: WriteKind;
  /** The address of the key that sends it (the operator, or the bundler for user operations). */
  signer: string;
  /** Whose write it is: `client:<client_id>` or `user:<user_uuid>` (idempotency keys are per scope). */
  scope: string;
  idempotencyKey: string | null;
  /** SHA-256 of the request's canonical arguments: a reused key with another request is refused. */
  requestHash: string;
  payload: Record<string, unknown>;
  status: WriteStatus;
  /** The transaction that carries it (signer, nonce), once submitted. */
  txSigner: string | null;
  txNonce: string | null;
  attempts: number;
  /** Send alone (not in a batch): set after a batch it was in reverted. */
  solo: boolean;
  /** A user operation's sponsorship end: after it, the operation can no longer land. */
  validUntil: Date | null;
  /** The answer, once confirmed. */
  result: Record<string, unknown> | null;
  /** `{ code, message, details? }`, once failed. */
  error: { code: string; message: string; details?: Record<string, string | number> } | null;
  requestId: string | null;
  createdAt: Date;
  /** When its state last changed (an external bundler's hand-over). */
  updatedAt: Date;
}

interface WriteRow {
  id: string | number;
  kind: WriteKind;
  signer: string;
  scope: string;
  idempotency_key: string | null;
  request_hash: string;
  payload: Record<string, unknown>;
  status: WriteStatus;
  tx_signer: string | null;
  tx_nonce: string | number | null;
  attempts: number;
  solo: boolean;
  valid_until: Date | string | null;
  result: Record<string, unknown> | null;
  error: WriteRecord["error"];
  request_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const toRecord = (row: WriteRow): WriteRecord => ({
  id: String(row.id),
  kind: row.kind,
  signer: row.signer,
  scope: row.scope,
  idempotencyKey: row.idempotency_key,
  requestHash: row.request_hash,
  payload: row.payload,
  status: row.status,
  txSigner: row.tx_signer,
  txNonce: row.tx_nonce === null ? null : String(row.tx_nonce),
  attempts: Number(row.attempts),
  solo: Boolean(row.solo),
  validUntil: row.valid_until === null ? null : new Date(row.valid_until),
  result: row.result,
  error: row.error,
  requestId: row.request_id,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** What a new write needs. */
export type NewWrite = Pick<WriteRecord, "kind" | "signer" | "scope" | "idempotencyKey" | "requestHash" | "payload"> & {
  validUntil?: Date | null;
  requestId?: string | null;
};

/**
 * Records a write; with an idempotency key that its scope used before, answers the earlier write
 * instead (`created: false`) and records nothing.
 */
export async function insertWrite(db: Queryable, write: NewWrite): Promise<{ record: WriteRecord; created: boolean }> {
  const rows = await db.query<WriteRow>(
    `INSERT INTO cs_writes (kind, signer, scope, idempotency_key, request_hash, payload, status, valid_until, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8)
     ON CONFLICT (scope, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING *`,
    [
      write.kind,
      write.signer,
      write.scope,
      write.idempotencyKey,
      write.requestHash,
      JSON.stringify(write.payload),
      write.validUntil ?? null,
      write.requestId ?? null,
    ],
  );
  if (rows[0]) return { record: toRecord(rows[0]), created: true };
  const existing = write.idempotencyKey === null ? null : await findWriteByKey(db, write.scope, write.idempotencyKey);
  if (!existing) throw new Error("write vanished");
  return { record: existing, created: false };
}

const WRITE_ID = /^[1-9][0-9]{0,18}$/;

/** A write by id, or null. */
export async function findWrite(db: Queryable, id: string): Promise<WriteRecord | null> {
  if (!WRITE_ID.test(id)) return null;
  const rows = await db.query<WriteRow>("SELECT * FROM cs_writes WHERE id = $1", [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Several writes by id, in one statement: the ones found, by id. */
export async function findWrites(db: Queryable, ids: readonly string[]): Promise<Map<string, WriteRecord>> {
  const valid = ids.filter((id) => WRITE_ID.test(id));
  if (valid.length === 0) return new Map();
  // The ids are digits only (checked): the array literal is safe to build as text, for both drivers.
  const rows = await db.query<WriteRow>("SELECT * FROM cs_writes WHERE id = ANY($1::bigint[])", [`{${valid.join(",")}}`]);
  return new Map(rows.map((row) => [String(row.id), toRecord(row)]));
}

/** The write a scope made with an idempotency key, or null. */
export async function findWriteByKey(db: Queryable, scope: string, idempotencyKey: string): Promise<WriteRecord | null> {
  const rows = await db.query<WriteRow>("SELECT * FROM cs_writes WHERE scope = $1 AND idempotency_key = $2", [scope, idempotencyKey]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The oldest pending writes of a signer (only the holder of the signer's lease sends them). */
export async function pendingWrites(db: Queryable, signer: string, limit: number): Promise<WriteRecord[]> {
  const rows = await db.query<WriteRow>("SELECT * FROM cs_writes WHERE signer = $1 AND status = 'pending' ORDER BY id LIMIT $2", [signer, limit]);
  return rows.map(toRecord);
}

/** Marks pending writes to be sent alone next time (a batch with them failed its estimate). */
export async function markSolo(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.query("UPDATE cs_writes SET solo = TRUE, updated_at = now() WHERE id = ANY($1::bigint[]) AND status = 'pending'", [ids]);
}

/** The writes a transaction carries. */
export async function writesOfTransaction(db: Queryable, signer: string, nonce: bigint): Promise<WriteRecord[]> {
  const rows = await db.query<WriteRow>("SELECT * FROM cs_writes WHERE tx_signer = $1 AND tx_nonce = $2 ORDER BY id", [signer, nonce.toString()]);
  return rows.map(toRecord);
}

/** Marks writes as carried by the transaction (signer, nonce). */
export async function markSubmitted(tx: Queryable, ids: readonly string[], signer: string, nonce: bigint): Promise<void> {
  await tx.query(
    "UPDATE cs_writes SET status = 'submitted', tx_signer = $2, tx_nonce = $3, attempts = attempts + 1, updated_at = now() WHERE id = ANY($1::bigint[]) AND status = 'pending'",
    [ids, signer, nonce.toString()],
  );
}

/** Marks writes as handed to an external bundler (`signer` is its id; no transaction of ours carries them). */
export async function markHandedOver(db: Queryable, ids: readonly string[], signer: string): Promise<void> {
  await db.query(
    "UPDATE cs_writes SET status = 'submitted', tx_signer = $2, tx_nonce = NULL, attempts = attempts + 1, updated_at = now() WHERE id = ANY($1::bigint[]) AND status = 'pending'",
    [ids, signer],
  );
}

/** Notes that a handed-over write was handed over again (its bundler lost it). */
export async function touchWrite(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE cs_writes SET updated_at = now() WHERE id = $1", [id]);
}

/** The writes of a signer (or external bundler) that are submitted and not settled, oldest first. */
export async function submittedWrites(db: Queryable, signer: string): Promise<WriteRecord[]> {
  const rows = await db.query<WriteRow>("SELECT * FROM cs_writes WHERE signer = $1 AND status = 'submitted' ORDER BY id", [signer]);
  return rows.map(toRecord);
}

/** Settles a write with its answer; false when it was settled already. */
export async function markConfirmed(db: Queryable, id: string, result: Record<string, unknown>): Promise<boolean> {
  const rows = await db.query(
    "UPDATE cs_writes SET status = 'confirmed', result = $2, updated_at = now() WHERE id = $1 AND status NOT IN ('confirmed', 'failed') RETURNING id",
    [id, JSON.stringify(result)],
  );
  return rows.length === 1;
}

/**
 * Settles a write with its error (final: a retry with the same idempotency key answers the same
 * error); false when it was settled already.
 */
export async function markFailed(db: Queryable, id: string, error: NonNullable<WriteRecord["error"]>): Promise<boolean> {
  const rows = await db.query(
    "UPDATE cs_writes SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status NOT IN ('confirmed', 'failed') RETURNING id",
    [id, JSON.stringify(error)],
  );
  return rows.length === 1;
}

/** Puts writes back in the queue (their transaction did not land them); `solo` sends each alone next time. */
export async function requeueWrites(db: Queryable, ids: readonly string[], solo: boolean): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    "UPDATE cs_writes SET status = 'pending', tx_signer = NULL, tx_nonce = NULL, solo = solo OR $2, updated_at = now() WHERE id = ANY($1::bigint[]) AND status = 'submitted'",
    [ids, solo],
  );
}

/**
 * Deletes the writes that settled (confirmed or failed) before `before`, with their idempotency keys
 * and answers, `batchSize` rows per statement until none is left; answers how many it deleted. A
 * pending or submitted write is never deleted (settled is final: nothing turns a settled write back),
 * nor a platform write that carries a key of its own (a slot's `buy_slot` registration, which its
 * slot looks up for as long as the slot exists). Several instances may run it at once: each takes
 * rows no other statement holds (`FOR UPDATE SKIP LOCKED`), so each row is deleted once.
 */
export async function purgeSettledWrites(db: Queryable, before: Date, batchSize = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.query(
      `DELETE FROM cs_writes WHERE id IN (
         SELECT id FROM cs_writes
         WHERE status IN ('confirmed', 'failed') AND updated_at < $1 AND NOT (scope = 'platform' AND idempotency_key IS NOT NULL)
         ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ) AND status IN ('confirmed', 'failed') RETURNING id`,
      [before, batchSize],
    );
    total += rows.length;
    if (rows.length < batchSize) return total;
  }
}

/** Counts writes by status, every status present (the `writes` of `metrics()`). */
export async function countWrites(db: Queryable): Promise<Record<WriteStatus, number>> {
  const rows = await db.query<{ status: WriteStatus; n: string }>("SELECT status, count(*) AS n FROM cs_writes GROUP BY status");
  const counts: Record<WriteStatus, number> = { pending: 0, submitted: 0, confirmed: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/**
 * The user operations an external bundler landed (confirmed, carried by no transaction of this service)
 * that settled at or after `since`: a chain rebuild cannot send them again and checks they are still there.
 */
export async function confirmedHandedOverSince(db: Queryable, bundlerId: string, since: Date): Promise<WriteRecord[]> {
  const rows = await db.query<WriteRow>(
    "SELECT * FROM cs_writes WHERE status = 'confirmed' AND kind = 'user_operation' AND tx_signer = $1 AND tx_nonce IS NULL AND updated_at >= $2 ORDER BY id",
    [bundlerId, since],
  );
  return rows.map(toRecord);
}
