import { devUserCredentialsSchema } from "@slotgate/protocol/schemas";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { type EndUserRow, findEndUserByEmail } from "../../identity/users/end-users-store.js";
import { dummyPasswordHash, verifyPassword } from "../../identity/users/passwords.js";
import { passwordAttempt } from "../../identity/users/sign-in-backoff.js";
import { type Shown, shown } from "../../platform/i18n/translator.js";

/**
 * The outcome of a sign-in form post: the user, or the status and message to show the form again with
 * (`retryAfterSeconds` when the account must wait: 429 and a `Retry-After` header).
 */
export type SignInOutcome = { user: EndUserRow } | { user: null; status: number; error: Shown; email: string; retryAfterSeconds?: number };

/** A string form field, or "". */
export function formField(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  return typeof v === "string" ? v : "";
}

/** The consent button pressed (`decision` = approve or deny); 400 invalid_request otherwise. */
export function consentDecision(body: Record<string, unknown>): "approve" | "deny" {
  const decision = formField(body, "decision");
  if (decision !== "approve" && decision !== "deny") {
    throw new SlotgateServerError("invalid_request", {
      message: "Invalid request: decision must be approve or deny",
      details: [{ path: "decision", message: "must be approve or deny" }],
    });
  }
  return decision;
}

/**
 * The device verification page's sign-in (fields `email`, `password`): only accounts with a verified
 * mailbox. Creating an account, or confirming the email of an old one, needs the emailed code, which
 * the authorize page handles; here `intent=signup` and unverified accounts are answered 403 with a
 * pointer to it. Same answer and time for an unknown email as for a wrong password.
 */
export async function signInOrSignUp(services: Services, body: Record<string, unknown>): Promise<SignInOutcome> {
  const email = formField(body, "email").trim().toLowerCase();
  const password = formField(body, "password");
  const fail = (status: number, error: Shown) => ({ user: null, status, error, email });
  if (formField(body, "intent") === "signup") return fail(403, shown("error.needsMailbox"));
  const creds = devUserCredentialsSchema.safeParse({ email, password });
  const found = creds.success ? await findEndUserByEmail(services.db, email) : null;
  const verify = async () =>
    (await verifyPassword(password, found?.password_hash ?? (await dummyPasswordHash(services.scrypt)))) && Boolean(found?.password_hash);
  // A malformed email or password matches no account: checked against the dummy hash, nothing counted.
  const attempt = creds.success ? await passwordAttempt(services, "end_user", email, verify) : { checked: true as const, ok: await verify() };
  if (!attempt.checked) return { ...fail(429, throttled(attempt)), retryAfterSeconds: attempt.retryAfterSeconds };
  if (!found?.password_hash || !attempt.ok) return fail(401, shown("error.invalid_credentials"));
  return found.email_verified_at ? { user: found } : fail(403, shown("error.needsMailbox"));
}

/** What a sign-in page says while the account must wait (429 `sign_in_throttled`), in the page's language. */
export function throttled(attempt: { locked: boolean; retryAfterSeconds: number; lockSeconds: number }): Shown {
  return attempt.locked
    ? { id: "error.signInLocked", durations: { lock: attempt.lockSeconds, wait: attempt.retryAfterSeconds } }
    : { id: "error.signInThrottled", durations: { wait: attempt.retryAfterSeconds } };
}
