import type { Queryable } from "@slotgate/storage";

/** Which accounts a sign-in attempt is for: end users (authorize and device pages) or developers. */
export type SignInRealm = "end_user" | "dev_user";

/** The backoff policy the database applies (see `SignInBackoffConfig`). */
export interface SignInBackoffPolicy {
  freeFailures: number;
  lockAfterFailures: number;
  lockSeconds: number;
}

/** Outcome of {@link claimSignInAttempt}. */
export type SignInClaim = { allowed: true; failures: number } | { allowed: false; failures: number; retryAfterSeconds: number };

/**
 * Reserves one password attempt for an account, atomically on every instance: the attempt counts as a
 * failure until {@link clearSignInAttempts} (a right password) removes the row, and sets when the next
 * attempt may start: at once for the first `freeFailures`, then 2, 4, 8, ... seconds, and `lockSeconds`
 * from the `lockAfterFailures`-th on. Refused (nothing counted) while the account must wait. A row idle
 * for a day starts over.
 */
export async function claimSignInAttempt(db: Queryable, realm: SignInRealm, account: string, policy: SignInBackoffPolicy): Promise<SignInClaim> {
  const next = "(CASE WHEN a.updated_at < now() - interval '1 day' THEN 0 ELSE a.failures END) + 1";
  const wait = (n: string) =>
    `CASE WHEN ${n} >= $4::int THEN $5::int WHEN ${n} > $3::int THEN least($5::int, power(2::float8, (${n} - $3::int)::float8)::int) ELSE 0 END`;
  const params = [realm, account, policy.freeFailures, policy.lockAfterFailures, policy.lockSeconds];
  const claimed = await db.query<{ failures: number }>(
    `INSERT INTO sign_in_attempts AS a (realm, account, failures, blocked_until, updated_at)
     VALUES ($1, $2, 1, now() + make_interval(secs => ${wait("1")}), now())
     ON CONFLICT (realm, account) DO UPDATE SET
       failures = ${next},
       blocked_until = now() + make_interval(secs => ${wait(`(${next})`)}),
       updated_at = now()
     WHERE a.blocked_until <= now()
     RETURNING failures`,
    params,
  );
  if (claimed[0]) return { allowed: true, failures: Number(claimed[0].failures) };
  const rows = await db.query<{ failures: number; wait: string | null }>(
    "SELECT failures, ceil(extract(epoch FROM blocked_until - now()))::text AS wait FROM sign_in_attempts WHERE realm = $1 AND account = $2",
    [realm, account],
  );
  return { allowed: false, failures: Number(rows[0]?.failures ?? 0), retryAfterSeconds: Math.max(1, Number(rows[0]?.wait ?? 1)) };
}

/** A right password: the account starts over. */
export async function clearSignInAttempts(db: Queryable, realm: SignInRealm, account: string): Promise<void> {
  await db.query("DELETE FROM sign_in_attempts WHERE realm = $1 AND account = $2", [realm, account]);
}

/** Deletes rows idle for a day whose wait is over (they would start over anyway). */
export async function purgeSignInAttempts(db: Queryable): Promise<number> {
  const rows = await db.query("DELETE FROM sign_in_attempts WHERE updated_at < now() - interval '1 day' AND blocked_until < now() RETURNING 1");
  return rows.length;
}
