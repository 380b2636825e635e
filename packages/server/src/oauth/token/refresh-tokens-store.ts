import type { Queryable } from "@slotgate/storage";

/** A refresh token as a redemption sees it, with its family. */
export interface RefreshTokenRow {
  token_hash: string;
  family_id: string;
  client_id: string;
  user_id: string;
  used_at: Date | null;
  /** The token's own lifetime or its family's has passed. */
  expired: boolean;
  /** The family was ended (logout, revocation, reuse). */
  ended: boolean;
  /** Seconds since the token's first use (null while unused). */
  used_seconds_ago: number | null;
}

/** Starts a family (one sign-in) and stores its first token (hash only). */
export async function insertFamily(
  db: Queryable,
  family: {
    familyId: string;
    clientId: string;
    userId: string;
    firstJti: string;
    tokenHash: string;
    tokenLifetimeSeconds: number;
    familyLifetimeSeconds: number;
  },
): Promise<void> {
  await db.query(
    `WITH f AS (
       INSERT INTO refresh_families (family_id, client_id, user_id, first_jti, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $7)) RETURNING family_id
     )
     INSERT INTO refresh_tokens (token_hash, family_id, expires_at) SELECT $5, family_id, now() + make_interval(secs => $6) FROM f`,
    [family.familyId, family.clientId, family.userId, family.firstJti, family.tokenHash, family.tokenLifetimeSeconds, family.familyLifetimeSeconds],
  );
}

/** Reads a token with its family and locks the token row (call inside a transaction). */
export async function lockRefreshToken(tx: Queryable, tokenHash: string): Promise<RefreshTokenRow | null> {
  const rows = await tx.query<RefreshTokenRow>(
    `SELECT t.token_hash, t.family_id, f.client_id, f.user_id::text, t.used_at,
            (t.expires_at < now() OR f.expires_at < now()) AS expired,
            (f.ended_at IS NOT NULL) AS ended,
            CASE WHEN t.used_at IS NULL THEN NULL ELSE EXTRACT(EPOCH FROM now() - t.used_at)::float8 END AS used_seconds_ago
       FROM refresh_tokens t JOIN refresh_families f ON f.family_id = t.family_id
      WHERE t.token_hash = $1
      FOR UPDATE OF t`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

/** Marks a token used and stores its successor (never beyond the family's end). */
export async function rotateRefreshToken(
  tx: Queryable,
  args: { tokenHash: string; successorHash: string; familyId: string; lifetimeSeconds: number },
): Promise<void> {
  await tx.query("UPDATE refresh_tokens SET used_at = now() WHERE token_hash = $1", [args.tokenHash]);
  await tx.query(
    `INSERT INTO refresh_tokens (token_hash, family_id, expires_at)
     SELECT $1, family_id, LEAST(now() + make_interval(secs => $3), expires_at) FROM refresh_families WHERE family_id = $2`,
    [args.successorHash, args.familyId, args.lifetimeSeconds],
  );
}

/** Whether a token exists and has not been used yet. */
export async function isUnusedRefreshToken(tx: Queryable, tokenHash: string): Promise<boolean> {
  const rows = await tx.query("SELECT 1 FROM refresh_tokens WHERE token_hash = $1 AND used_at IS NULL", [tokenHash]);
  return rows.length > 0;
}

/** Ends every live family of a client (disabled or deleted client); answers how many. */
export async function endClientFamilies(db: Queryable, clientId: string, reason: string): Promise<number> {
  const rows = await db.query("UPDATE refresh_families SET ended_at = now(), ended_reason = $2 WHERE client_id = $1 AND ended_at IS NULL RETURNING 1", [
    clientId,
    reason,
  ]);
  return rows.length;
}

/** Ends a family (idempotent; the first reason is kept). Returns whether this call ended it. */
export async function endFamily(db: Queryable, familyId: string, reason: string): Promise<boolean> {
  const rows = await db.query("UPDATE refresh_families SET ended_at = now(), ended_reason = $2 WHERE family_id = $1 AND ended_at IS NULL RETURNING 1", [
    familyId,
    reason,
  ]);
  return rows.length > 0;
}

/** The family started by the code exchange that issued the access token `jti`, if any. */
export async function familyOfFirstJti(db: Queryable, jti: string): Promise<string | null> {
  const rows = await db.query<{ family_id: string }>("SELECT family_id FROM refresh_families WHERE first_jti = $1", [jti]);
  return rows[0]?.family_id ?? null;
}

/** Deletes families (and their tokens) that ended or expired more than a day ago. */
export async function purgeFamilies(db: Queryable): Promise<number> {
  const rows = await db.query("DELETE FROM refresh_families WHERE expires_at < now() - interval '1 day' OR ended_at < now() - interval '1 day' RETURNING 1");
  return rows.length;
}
