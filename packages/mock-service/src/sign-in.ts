import type { ErrorCode } from "@slotgate/protocol";
import type { MockContext } from "./context.js";
import { cookieValue } from "./http/auth.js";
import { HttpError } from "./http/http-error.js";
import { safeEqual } from "./random.js";
import { verifyPassword } from "./passwords.js";
import type { EndUserRecord } from "./state.js";

/** The outcome of a sign-in form: the user, or the error code and status to show the form again with. */
export type SignInOutcome = { user: EndUserRecord } | { user: null; error: ErrorCode; status: number; email: string };

/**
 * Signs an end user in (`email`, `password`), for the authorize and device pages. Sign-up goes through the
 * authorize page's mailbox step (handlers/authorize.ts); here, as on the real device page, it is refused.
 */
export async function signInOrSignUp(ctx: MockContext, form: Record<string, unknown>): Promise<SignInOutcome> {
  const email = typeof form["email"] === "string" ? form["email"] : "";
  const password = typeof form["password"] === "string" ? form["password"] : "";
  const fail = (error: ErrorCode, status: number): SignInOutcome => ({ user: null, error, status, email });
  if (form["intent"] === "signup") return fail("email_not_verified", 403);
  const found = ctx.state.findEndUserByEmail(email);
  const ok = found ? await verifyPassword(password, found.password) : false;
  return found && ok ? { user: found } : fail("invalid_credentials", 401);
}

/** Name of the double-submit CSRF cookie of the sign-in pages. */
export const CSRF_COOKIE = "slotgate_csrf";

/** Throws 403 csrf_failed unless the form's `csrf_token` equals the cookie. */
export function checkCsrf(ctx: MockContext, request: Request, form: Record<string, unknown>): void {
  const cookie = cookieValue(request, CSRF_COOKIE);
  const submitted = typeof form["csrf_token"] === "string" ? form["csrf_token"] : "";
  if (!ctx.faults.skipCsrfCheck && (!cookie || !submitted || !safeEqual(cookie, submitted))) throw new HttpError("csrf_failed");
}
