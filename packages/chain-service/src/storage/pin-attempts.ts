import type { Database, Queryable } from "@slotgate/storage";

/** PIN lockout policy. */
export interface PinLockoutPolicy {
  /** Wrong attempts allowed before the wallet locks. @default 5 */
  maxFailures: number;
  /** How long a lock lasts, in seconds. @default 900 */
  lockSeconds: number;
}

/** Outcome of {@link reservePinAttempt}. */
export type PinAttemptReservation = { allowed: true; remaining: number } | { allowed: false; lockedUntil: Date };

/**
 * Reserves one PIN attempt before the PIN is checked: the attempt counts as a failure until a correct
 * PIN clears the counter ({@link clearPinAttempts}). Reserving first (under a row lock) bounds the
 * guesses to `maxFailures` per lock window even when many requests arrive at once. The attempt that
 * reaches the limit starts the lock; the ones after it are refused without checking the PIN.
 */
export async function reservePinAttempt(db: Database, userUuid: number, now: Date, policy: PinLockoutPolicy): Promise<PinAttemptReservation> {
  return db.transaction(async (tx) => {
    await tx.query("INSERT INTO cs_pin_attempts (user_uuid, failures) VALUES ($1, 0) ON CONFLICT (user_uuid) DO NOTHING", [userUuid]);
    const rows = await tx.query<{ failures: number; locked_until: Date | string | null }>(
      "SELECT failures, locked_until FROM cs_pin_attempts WHERE user_uuid = $1 FOR UPDATE",
      [userUuid],
    );
    const row = rows[0];
    let failures = Number(row?.failures ?? 0);
    const lockedUntil = row?.locked_until ? new Date(row.locked_until) : null;
    if (lockedUntil && lockedUntil > now && failures >= policy.maxFailures) return { allowed: false, lockedUntil };
    if (lockedUntil && lockedUntil <= now) failures = 0;
    failures += 1;
    const lockFrom = failures >= policy.maxFailures ? new Date(now.getTime() + policy.lockSeconds * 1000) : null;
    await tx.query("UPDATE cs_pin_attempts SET failures = $2, locked_until = $3, updated_at = $4 WHERE user_uuid = $1", [userUuid, failures, lockFrom, now]);
    return { allowed: true, remaining: Math.max(0, policy.maxFailures - failures) };
  });
}

/** Clears the counter after a correct PIN, a reset or a recovery. */
export async function clearPinAttempts(db: Queryable, userUuid: number): Promise<void> {
  await db.query("DELETE FROM cs_pin_attempts WHERE user_uuid = $1", [userUuid]);
}
