import type { Request } from "express";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { bindingOf, type ProvenChallenge } from "../../identity/mailbox-proof/challenges.js";
import type { ChallengePurpose } from "../../identity/mailbox-proof/mailbox-challenges-store.js";
import { findEndUserByEmail, markEmailVerified, upsertVerifiedEndUser } from "../../identity/users/end-users-store.js";
import { linkIdentity } from "../../identity/identity-providers/identity-links-store.js";
import { CSRF_COOKIE, readCookie } from "./csrf.js";
import type { AuthorizeViews } from "./views.js";
import { type Shown, shown } from "../../platform/i18n/translator.js";

/** Why the code page is shown, per purpose. */
const REASONS: Record<Exclude<ChallengePurpose, "recover">, Shown> = {
  signup: shown("code.reason.signup"),
  verify: shown("code.reason.verify"),
  link: shown("code.reason.link"),
};

/** What a proven code carries on to the end of the sign-in. */
export interface PendingSignIn {
  /** The new account's password hash (sign-up). */
  password_hash?: string | null;
  /** The identity-provider subject to link (purpose `link`). */
  link?: { provider_id: string; issuer: string; subject: string };
  /** Register a passkey once signed in. */
  add_passkey?: boolean;
}

/** A sign-in step is bound to the browser that started it (its CSRF cookie). */
export function browserBinding(req: Request): string {
  return bindingOf("authorize", readCookie(req, CSRF_COOKIE) ?? "");
}

/**
 * Mails a code for a sign-in step and shows the code page. A budget or mail failure shows the
 * sign-in page again with the reason (429 / 503).
 */
export async function askForCode(
  services: Services,
  req: Request,
  views: AuthorizeViews,
  args: { purpose: Exclude<ChallengePurpose, "recover">; email: string; userId: string | null; pending: PendingSignIn; detail?: string },
): Promise<void> {
  try {
    const sent = await services.mailbox.send({
      purpose: args.purpose,
      email: args.email,
      userId: args.userId,
      binding: browserBinding(req),
      payload: args.pending as Record<string, unknown>,
      ...(args.detail ? { detail: args.detail } : {}),
    });
    views.code(200, { challenge: sent.id, sentTo: sent.sentTo, reason: REASONS[args.purpose] });
  } catch (error) {
    if (error instanceof SlotgateServerError && (error.code === "rate_limited" || error.code === "service_unavailable")) {
      return views.signIn(error.status, { error, email: args.email }, error.headers);
    }
    throw error;
  }
}

/**
 * Checks the code of the code page and completes what it was for: creates the account (sign-up),
 * marks the mailbox verified, or links the identity provider. Returns the user id and what is
 * pending, or null after showing the page again (wrong code: the code page; expired, used or
 * locked: the sign-in page).
 */
export async function completeCode(
  services: Services,
  req: Request,
  views: AuthorizeViews,
  fields: { challenge: string; otp: string },
): Promise<{ userId: string; pending: PendingSignIn } | null> {
  let proven: ProvenChallenge;
  try {
    proven = await services.mailbox.prove({ id: fields.challenge, code: fields.otp, purposes: ["signup", "verify", "link"], binding: browserBinding(req) });
  } catch (error) {
    if (!(error instanceof SlotgateServerError)) throw error;
    if (error.code === "otp_invalid") {
      const left = Number(error.details?.find((d) => d.path === "attempts_left")?.message);
      const wrong = Number.isInteger(left) ? shown("error.otpWrong", { left }) : error;
      views.code(401, { challenge: fields.challenge, sentTo: shown("code.yourAddress"), reason: shown("code.reason.retry"), error: wrong });
      return null;
    }
    if (error.code === "otp_expired" || error.code === "otp_locked") {
      views.signIn(error.status, { error });
      return null;
    }
    throw error;
  }
  const pending = proven.payload as PendingSignIn;
  let userId: string;
  if (proven.purpose === "signup") {
    const user = await upsertVerifiedEndUser(services.db, { email: proven.email, passwordHash: pending.password_hash ?? null });
    if (!user) {
      views.signIn(409, { error: shown("error.accountExists"), email: proven.email });
      return null;
    }
    userId = user.id;
  } else if (proven.purpose === "verify") {
    userId = proven.user_id!;
    await markEmailVerified(services.db, userId);
  } else {
    const existing = proven.user_id
      ? { id: proven.user_id }
      : ((await upsertVerifiedEndUser(services.db, { email: proven.email, passwordHash: null })) ?? (await findEndUserByEmail(services.db, proven.email)));
    if (!existing || !pending.link) throw new SlotgateServerError("otp_expired");
    userId = existing.id;
    await markEmailVerified(services.db, userId);
    await linkIdentity(services.db, { ...pending.link, userId });
  }
  return { userId, pending };
}
