import { createHash } from "node:crypto";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { claimSignInAttempt, clearSignInAttempts, type SignInRealm } from "./sign-in-attempts-store.js";

/** What {@link passwordAttempt} found. */
export type PasswordAttempt =
  /** The password was checked: `ok` says whether it was right (a right one reset the account's backoff). */
  | { checked: true; ok: boolean }
  /** The account must wait: the password was not checked. `message` tells the person how long (English; the pages translate from the numbers). */
  | { checked: false; retryAfterSeconds: number; locked: boolean; lockSeconds: number; message: string };

/**
 * Checks a password under the account's backoff (docs/decisions/brute-force.md), which lives in the
 * database so every instance enforces it: while the account must wait, `check` is not run and the answer
 * says how long; otherwise the attempt is counted before `check` runs (so parallel guesses cannot slip
 * through) and a right password clears the count. The same applies to an unknown address as to a known
 * one, so the answers reveal no account.
 *
 * @param email - the normalised (trimmed, lower-case) address the person typed
 * @param check - verifies the password (against the account's hash, or a dummy one)
 *
 * @example
 * ```ts
 * const attempt = await passwordAttempt(services, "dev_user", email, () => verifyPassword(password, hash));
 * if (!attempt.checked) throw signInThrottled(attempt);
 * if (!attempt.ok) throw new SlotgateServerError("invalid_credentials");
 * ```
 */
export async function passwordAttempt(
  services: Pick<Services, "db" | "config">,
  realm: SignInRealm,
  email: string,
  check: () => Promise<boolean>,
): Promise<PasswordAttempt> {
  const account = createHash("sha256").update(email).digest("hex");
  const policy = services.config.signInBackoff;
  const claim = await claimSignInAttempt(services.db, realm, account, policy);
  if (!claim.allowed) {
    const locked = claim.failures >= policy.lockAfterFailures;
    const wait = describeWait(claim.retryAfterSeconds);
    const message = locked
      ? `Too many wrong passwords for this account: sign-in is locked for ${describeWait(policy.lockSeconds)}. Try again in ${wait}, or sign in another way.`
      : `Too many wrong passwords for this account: wait ${wait} before the next try.`;
    return { checked: false, retryAfterSeconds: claim.retryAfterSeconds, locked, lockSeconds: policy.lockSeconds, message };
  }
  const ok = await check();
  if (ok) await clearSignInAttempts(services.db, realm, account);
  return { checked: true, ok };
}

/**
 * The JSON answer of an account that must wait: 429 `sign_in_throttled` with `Retry-After`, the wait in
 * the message and in `details` (`retry_after_seconds`, `locked`).
 *
 * @example
 * ```ts
 * if (!attempt.checked) throw signInThrottled(attempt);
 * ```
 */
export function signInThrottled(attempt: Extract<PasswordAttempt, { checked: false }>): SlotgateServerError {
  return new SlotgateServerError("sign_in_throttled", {
    message: attempt.message,
    headers: { "Retry-After": String(attempt.retryAfterSeconds) },
    details: [
      { path: "retry_after_seconds", message: String(attempt.retryAfterSeconds) },
      { path: "locked", message: String(attempt.locked) },
    ],
  });
}

/** "1 second", "40 seconds", "15 minutes" (rounded up). */
function describeWait(seconds: number): string {
  if (seconds < 120) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
