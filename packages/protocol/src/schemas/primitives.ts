import { z } from "zod";
import { LIMITS } from "../limits.js";

/** A non-empty string of at most `max` characters, trimmed of nothing (exact values matter in OAuth). */
export const text = (max = 512) => z.string().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

/** A 20-byte hex address with 0x prefix (checksum not enforced; any case accepted). */
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");

/** A non-negative integer in decimal, as a string (wei amounts exceed JavaScript numbers). */
export const uintString = z.string().regex(/^(0|[1-9][0-9]{0,77})$/, "must be a non-negative integer in decimal, as a string");

/** A positive XOTN amount: wei integer string, or an ether decimal string with up to 18 decimals. */
export const xotnAmount = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,59})(\.[0-9]{1,18})?$/, "must be a wei integer string or an ether decimal string such as 1.5")
  .refine((v) => /[1-9]/.test(v), "must be greater than zero");

/** A positive integer amount of content tokens, as a string. */
export const positiveUintString = uintString.refine((v) => v !== "0", "must be greater than zero");

/** Exactly `bytes` bytes in lowercase or uppercase hex, no prefix. */
export const hexBytes = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`), `must be ${bytes * 2} hex characters`);

/** SHA-256 digest in hex (64 characters). */
export const sha256Hex = hexBytes(32);

/** A `pin_salt`: 64 hex characters. */
export const pinSalt = z.string().regex(new RegExp(`^[0-9a-fA-F]{${LIMITS.pinSaltHexLength}}$`), `must be ${LIMITS.pinSaltHexLength} hex characters`);

/** A key share: 32 bytes as 64 hex characters. */
export const keyShare = hexBytes(LIMITS.keyShareBytes);

/** A numeric user id (spec 4.10 types `user_uuid` as a number). */
export const userUuid = z.number().int("must be an integer").positive("must be positive").max(Number.MAX_SAFE_INTEGER);

/** A user id in decimal, as a string (user ids travel as strings in OAuth answers and spec 4.9). */
export const userIdString = z.string().regex(/^[1-9][0-9]{0,15}$/, "must be a user id (decimal)");

/** An absolute http(s) URL. */
export const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "https:" || u.protocol === "http:";
    } catch {
      return false;
    }
  }, "must be an absolute http or https URL");

/** An email address. */
export const email = z.string().max(254).pipe(z.email("must be an email address"));

/** An emailed one-time code: exactly `LIMITS.otpDigits` digits. */
export const oneTimeCode = z.string().regex(new RegExp(`^[0-9]{${LIMITS.otpDigits}}$`), `must be the ${LIMITS.otpDigits} digits from the email`);

/** The id of a mailbox challenge (`recovery_id`): 22 to 64 base64url characters. */
export const recoveryId = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, "must be the recovery_id from the code request");

/**
 * An `Idempotency-Key` (the header of the money endpoints): 1-255 printable characters without spaces
 * (a UUID is a good one). A retry with the same key and the same request answers the first outcome.
 */
export const idempotencyKey = z
  .string()
  .regex(
    new RegExp(`^[A-Za-z0-9._:~+/=-]{1,${LIMITS.idempotencyKeyMaxLength}}$`),
    `must be 1-${LIMITS.idempotencyKeyMaxLength} characters of letters, digits and . _ : ~ + / = - (a UUID works)`,
  );

/** The id of a durable chain write (`write_id` of a 202 answer): a positive integer in decimal. */
export const writeId = z.string().regex(/^[1-9][0-9]{0,18}$/, "must be a write_id as answered (a positive integer in decimal)");
