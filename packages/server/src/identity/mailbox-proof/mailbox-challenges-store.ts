import type { Queryable } from "@slotgate/storage";

/** What an emailed one-time code proves the mailbox for. */
export type ChallengePurpose = "signup" | "verify" | "link" | "recover";

/** A challenge as its verification sees it. */
export interface ChallengeRow {
  id: string;
  purpose: ChallengePurpose;
  email: string;
  user_id: string | null;
  binding: string;
  code_hash: string;
  payload: Record<string, unknown>;
  /** Wrong and right entries so far, this one included. */
  attempts: number;
  expired: boolean;
}

/** Stores a new challenge (the code only as its keyed hash). */
export async function insertChallenge(
  db: Queryable,
  c: {
    id: string;
    purpose: ChallengePurpose;
    email: string;
    userId: string | null;
    binding: string;
    codeHash: string;
    payload: Record<string, unknown>;
    lifetimeSeconds: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO mailbox_challenges (id, purpose, email, user_id, binding, code_hash, payload, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
    [c.id, c.purpose, c.email, c.userId, c.binding, c.codeHash, JSON.stringify(c.payload), c.lifetimeSeconds],
  );
}

/** How many challenges for this address and purpose were created in the last hour, and when the oldest of them leaves that hour. */
export async function recentChallenges(db: Queryable, email: string, purpose: ChallengePurpose): Promise<{ count: number; retryAfterSeconds: number }> {
  const rows = await db.query<{ n: string; retry: string | null }>(
    `SELECT count(*)::text AS n, ceil(extract(epoch FROM min(created_at) + interval '1 hour' - now()))::text AS retry
     FROM mailbox_challenges WHERE email = $1 AND purpose = $2 AND created_at > now() - interval '1 hour'`,
    [email, purpose],
  );
  return { count: Number(rows[0]?.n ?? 0), retryAfterSeconds: Math.max(1, Number(rows[0]?.retry ?? 1)) };
}

/** Counts one entry against an unconsumed challenge and returns it; null when unknown or already used. */
export async function countAttempt(db: Queryable, id: string): Promise<ChallengeRow | null> {
  const rows = await db.query<ChallengeRow>(
    `UPDATE mailbox_challenges SET attempts = attempts + 1 WHERE id = $1 AND consumed_at IS NULL
     RETURNING id, purpose, email, user_id::text, binding, code_hash, payload, attempts, expires_at < now() AS expired`,
    [id],
  );
  return rows[0] ?? null;
}

/** Marks a challenge used; false when another request used it first. */
export async function consumeChallenge(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query("UPDATE mailbox_challenges SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING 1", [id]);
  return rows.length > 0;
}

/** Deletes challenges that expired more than a day ago. */
export async function purgeExpiredChallenges(db: Queryable): Promise<number> {
  const rows = await db.query("DELETE FROM mailbox_challenges WHERE expires_at < now() - interval '1 day' RETURNING 1");
  return rows.length;
}
