import type { Queryable } from "@slotgate/storage";

/** Which flow issued an authorization code; a code is only redeemable at its own endpoint. */
export type CodeKind = "oauth" | "meta";

/** A code row as the exchange needs it. */
export interface CodeRow {
  kind: CodeKind;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  expires_at: Date;
}

/** Stores a new code (only its SHA-256 hash is kept). */
export async function insertCode(
  db: Queryable,
  code: { codeHash: string; kind: CodeKind; clientId: string; userId: string; redirectUri: string; codeChallenge: string | null; lifetimeSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO authorization_codes (code_hash, kind, client_id, user_id, redirect_uri, code_challenge, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
    [code.codeHash, code.kind, code.clientId, code.userId, code.redirectUri, code.codeChallenge, code.lifetimeSeconds],
  );
}

/**
 * Consumes several codes in ONE statement (each row's consumption and token record are a single
 * row update, so per-code atomicity is unchanged). Code hashes must be distinct. Returns the
 * consumed rows by code hash; absent hashes were unknown or already used.
 */
export async function consumeCodes(
  db: Queryable,
  items: ReadonlyArray<{ codeHash: string; jti: string; expiresAt: Date }>,
): Promise<Map<string, CodeRow & { token_jti: string }>> {
  const rows = await db.query<CodeRow & { token_jti: string; code_hash: string }>(
    `UPDATE authorization_codes AS c SET used_at = now(), token_jti = v.jti, token_expires_at = v.exp
     FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS v(h, jti, exp)
     WHERE c.code_hash = v.h AND c.used_at IS NULL
     RETURNING c.code_hash, c.kind, c.client_id, c.user_id::text, c.redirect_uri, c.code_challenge, c.expires_at,
               c.token_jti`,
    [items.map((i) => i.codeHash), items.map((i) => i.jti), items.map((i) => i.expiresAt.toISOString())],
  );
  return new Map(rows.map((r) => [r.code_hash, r]));
}

/**
 * Handles a replayed code: when the code exists and was already used, revokes the token issued
 * from it (idempotent) and returns that token's jti (null when the code was not a used one).
 */
export async function revokeTokensOfUsedCode(db: Queryable, codeHash: string): Promise<string | null> {
  const rows = await db.query<{ jti: string | null }>(
    `WITH used AS (
       SELECT token_jti, token_expires_at FROM authorization_codes WHERE code_hash = $1 AND used_at IS NOT NULL
     ), revoked AS (
       INSERT INTO revoked_tokens (jti, expires_at, reason)
       SELECT token_jti, token_expires_at, 'code_replayed' FROM used WHERE token_jti IS NOT NULL
       ON CONFLICT (jti) DO NOTHING RETURNING jti
     )
     SELECT token_jti AS jti FROM used`,
    [codeHash],
  );
  return rows[0]?.jti ?? null;
}

/** Deletes codes that expired more than a day ago. */
export async function purgeExpiredCodes(db: Queryable): Promise<number> {
  const rows = await db.query("DELETE FROM authorization_codes WHERE expires_at < now() - interval '1 day' RETURNING 1");
  return rows.length;
}
