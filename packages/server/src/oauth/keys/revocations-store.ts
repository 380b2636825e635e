import type { Queryable } from "@slotgate/storage";

/** Records a revoked token id (idempotent). */
export async function insertRevocation(db: Queryable, jti: string, expiresAt: Date, reason: string): Promise<void> {
  await db.query("INSERT INTO revoked_tokens (jti, expires_at, reason) VALUES ($1, $2, $3) ON CONFLICT (jti) DO NOTHING", [jti, expiresAt, reason]);
}

/** Revocations recorded after `afterSeq` whose tokens have not expired yet. */
export async function listRevocationsSince(db: Queryable, afterSeq: string): Promise<Array<{ seq: string; jti: string; expires_at: Date }>> {
  return db.query("SELECT seq::text, jti, expires_at FROM revoked_tokens WHERE seq > $1 AND expires_at > now() ORDER BY seq", [afterSeq]);
}

/** Largest revocation sequence number, "0" when none. */
export async function maxRevocationSeq(db: Queryable): Promise<string> {
  const rows = await db.query<{ seq: string }>("SELECT COALESCE(MAX(seq), 0)::text AS seq FROM revoked_tokens");
  return rows[0]?.seq ?? "0";
}
