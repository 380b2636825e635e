import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { LIMITS } from "@slotgate/protocol";
import type { Logger } from "../../platform/config/logger.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import type { Mailer } from "../mail/mailer.js";
import type { Database } from "@slotgate/storage";
import { type ChallengePurpose, type ChallengeRow, consumeChallenge, countAttempt, insertChallenge, recentChallenges } from "./mailbox-challenges-store.js";
import { codeMail, maskEmail } from "./messages.js";

/** A code that was mailed. */
export interface SentChallenge {
  /** Names the challenge (`recovery_id`, or the sign-in form's hidden `challenge`). */
  id: string;
  expiresIn: number;
  /** The masked address. */
  sentTo: string;
}

/** A proven challenge: the mailbox of `email` is controlled by whoever sent the code. */
export type ProvenChallenge = Pick<ChallengeRow, "id" | "purpose" | "email" | "user_id" | "payload">;

/** SHA-256 of what a challenge is bound to (a browser's CSRF cookie, or a recovery request's fields). */
export function bindingOf(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("base64url");
}

/**
 * Mailbox proof: one-time codes mailed to an address and checked once. A code is `LIMITS.otpDigits`
 * random digits, kept only as an HMAC under the server pepper, valid `LIMITS.otpLifetimeSeconds`,
 * single use, dead after `LIMITS.otpMaxAttempts` entries, and bound to the request it was sent for
 * (`binding`): the same code on another request is refused. At most `LIMITS.otpPerHour` codes per
 * address and purpose an hour.
 *
 * @example
 * ```ts
 * const sent = await services.mailbox.send({ purpose: "recover", email, userId, binding: bindingOf("recover", uuid, pinHash, pinSalt) });
 * const proven = await services.mailbox.prove({ id: sent.id, code, purposes: ["recover"], binding: bindingOf("recover", uuid, pinHash, pinSalt) });
 * ```
 */
export class MailboxChallenges {
  private readonly key: Buffer;

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    pepper: string,
    private readonly log: Logger,
  ) {
    this.key = createHmac("sha256", pepper).update("slotgate.mailbox-code").digest();
  }

  private hash(id: string, code: string): string {
    return createHmac("sha256", this.key).update(`${id}:${code}`).digest("base64url");
  }

  /** Mails a new code; 429 rate_limited past the hourly budget, 503 service_unavailable when the mail cannot be sent. */
  async send(args: {
    purpose: ChallengePurpose;
    email: string;
    userId: string | null;
    binding: string;
    payload?: Record<string, unknown>;
    detail?: string;
  }): Promise<SentChallenge> {
    const recent = await recentChallenges(this.db, args.email, args.purpose);
    if (recent.count >= LIMITS.otpPerHour) {
      throw new SlotgateServerError("rate_limited", {
        message: `Too many codes were sent to this address; try again in ${Math.ceil(recent.retryAfterSeconds / 60)} minutes.`,
        headers: { "Retry-After": String(recent.retryAfterSeconds) },
      });
    }
    const id = randomBytes(24).toString("base64url");
    const code = String(randomInt(0, 10 ** LIMITS.otpDigits)).padStart(LIMITS.otpDigits, "0");
    await insertChallenge(this.db, {
      id,
      purpose: args.purpose,
      email: args.email,
      userId: args.userId,
      binding: args.binding,
      codeHash: this.hash(id, code),
      payload: args.payload ?? {},
      lifetimeSeconds: LIMITS.otpLifetimeSeconds,
    });
    try {
      await this.mailer.send(codeMail(args.purpose, args.email, code, args.detail));
    } catch (error) {
      this.log.error("mail not sent", { purpose: args.purpose, transport: this.mailer.kind, error: error instanceof Error ? error.name : "unknown" });
      throw new SlotgateServerError("service_unavailable", { message: "The email with the code could not be sent; try again later." });
    }
    this.log.info("one-time code mailed", { purpose: args.purpose });
    return { id, expiresIn: LIMITS.otpLifetimeSeconds, sentTo: maskEmail(args.email) };
  }

  /**
   * Checks a code and uses it up. Unknown, used, expired, another purpose or another binding:
   * otp_expired; wrong: otp_invalid (the entry counts); past the attempt limit: otp_locked.
   */
  async prove(args: { id: string; code: string; purposes: readonly ChallengePurpose[]; binding: string }): Promise<ProvenChallenge> {
    const row = await countAttempt(this.db, args.id);
    if (!row || row.expired || !args.purposes.includes(row.purpose) || !sameText(row.binding, args.binding)) {
      throw new SlotgateServerError("otp_expired");
    }
    if (row.attempts > LIMITS.otpMaxAttempts) throw new SlotgateServerError("otp_locked");
    if (!sameText(row.code_hash, this.hash(args.id, args.code))) {
      const left = LIMITS.otpMaxAttempts - row.attempts;
      if (left <= 0) throw new SlotgateServerError("otp_locked");
      throw new SlotgateServerError("otp_invalid", {
        message: `The code is wrong; ${left} ${left === 1 ? "try" : "tries"} left.`,
        details: [{ path: "attempts_left", message: String(left) }],
      });
    }
    if (!(await consumeChallenge(this.db, args.id))) throw new SlotgateServerError("otp_expired");
    return { id: row.id, purpose: row.purpose, email: row.email, user_id: row.user_id, payload: row.payload };
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
