import type { Queryable } from "./database.js";

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
 * Marks an unused code as used and records the token issued from it, in one statement
 * (so the consumption and the token record are one transaction). Returns null when the code
 * is unknown or already used; expiry and bindings are checked by the caller on the returned row.
 */
export async function consumeCode(
  db: Queryable,
  codeHash: string,
  token: { jti: string; expiresAt: Date },
): Promise<(CodeRow & { expired: boolean }) | null> {
  const rows = await db.query<CodeRow & { expired: boolean }>(
    `UPDATE authorization_codes SET used_at = now(), token_jti = $2, token_expires_at = $3
     WHERE code_hash = $1 AND used_at IS NULL
     RETURNING kind, client_id, user_id::text, redirect_uri, code_challenge, expires_at, expires_at < now() AS expired`,
    [codeHash, token.jti, token.expiresAt],
  );
  return rows[0] ?? null;
}

/**
 * Handles a replayed code: when the code exists and was already used, revokes the token issued
 * from it (idempotent) and returns true.
 */
export async function revokeTokensOfUsedCode(db: Queryable, codeHash: string): Promise<boolean> {
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
  return rows.length > 0;
}

/** Deletes codes that expired more than a day ago. */
export async function purgeExpiredCodes(db: Queryable): Promise<number> {
  const rows = await db.query("DELETE FROM authorization_codes WHERE expires_at < now() - interval '1 day' RETURNING 1");
  return rows.length;
}
