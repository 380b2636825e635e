import type { SpendPayload } from "@slotgate/protocol";
import { encryptHex } from "@slotgate/protocol/crypto";
import { spendPayloadSchema, summarizeDetails, validationDetails } from "@slotgate/protocol/schemas";
import { SlotgateBackendError } from "../errors.js";

/** The provider's AES-256-CTR key and IV, as issued by `init_permission_provider` (hex). */
export interface SpendKey {
  /** 32-byte key, 64 hex characters. */
  key: string;
  /** 16-byte IV, 32 hex characters. */
  iv: string;
}

const HEX = /^[0-9a-fA-F]*$/;

/**
 * Serialises a spend payload the one way the service and the shared test
 * vectors do: fields in the order client_id, user_dbkey, amount, cuid, then
 * the optional nonce and ts, whatever order the caller's object has.
 *
 * @throws {@link SlotgateBackendError} `invalid_argument` naming the bad field.
 * @example
 * ```ts
 * serializeSpendPayload({ cuid: "g", amount: "5", user_dbkey: "1", client_id: "c" });
 * // '{"client_id":"c","user_dbkey":"1","amount":"5","cuid":"g"}'
 * ```
 */
export function serializeSpendPayload(payload: SpendPayload): string {
  const parsed = spendPayloadSchema.safeParse(payload);
  if (!parsed.success) {
    throw new SlotgateBackendError("invalid_argument", {
      detail: `spend payload: ${summarizeDetails(validationDetails(parsed.error))}`,
    });
  }
  const p = parsed.data;
  const ordered: SpendPayload = { client_id: p.client_id, user_dbkey: p.user_dbkey, amount: p.amount, cuid: p.cuid };
  if (p.nonce !== undefined) ordered.nonce = p.nonce;
  if (p.ts !== undefined) ordered.ts = p.ts;
  return JSON.stringify(ordered);
}

/**
 * Builds the `encrypted_message` of `increase_used_content_token` (spec 4.7,
 * 4.8): hex AES-256-CTR of the payload's UTF-8 JSON under the provider's key
 * and IV. Pure JavaScript (`@noble/ciphers`): runs in Node, Deno, Bun and edge
 * runtimes, and reproduces `@slotgate/protocol/test-vectors` byte for byte.
 * Call it only on your backend: the key must never reach a browser or a game build.
 *
 * @throws {@link SlotgateBackendError} `invalid_argument` when the payload or the key/IV is malformed (the message never contains the key).
 * @example
 * ```ts
 * import { encryptSpendMessage } from "@slotgate/backend-sdk";
 * const encrypted_message = encryptSpendMessage(
 *   { client_id: "sg_abc", user_dbkey: "1001", amount: "25", cuid: "my-game" },
 *   { key: process.env.SLOTGATE_AES_KEY!, iv: process.env.SLOTGATE_AES_IV! },
 * );
 * await fetch(`${base}/v1/development-api/increase_used_content_token`, {
 *   method: "POST", headers: { "content-type": "application/json", authorization },
 *   body: JSON.stringify({ encrypted_message }),
 * });
 * ```
 */
export function encryptSpendMessage(payload: SpendPayload, spendKey: SpendKey): string {
  const plaintext = serializeSpendPayload(payload);
  return encryptWithSpendKey(plaintext, spendKey);
}

/**
 * Encrypts any UTF-8 string with the provider's key and IV: what
 * `test_encryption` answers for the same `test_string`, for comparing locally.
 *
 * @example
 * ```ts
 * const local = encryptWithSpendKey("hello", { key, iv });
 * const { encrypted_string } = await contentTokens.testEncryption("hello");
 * if (local !== encrypted_string) throw new Error("key or IV differs from the service's");
 * ```
 */
export function encryptWithSpendKey(plaintext: string, spendKey: SpendKey): string {
  if (typeof plaintext !== "string") throw new SlotgateBackendError("invalid_argument", { detail: "plaintext must be a string" });
  if (spendKey === null || typeof spendKey !== "object") {
    throw new SlotgateBackendError("invalid_argument", { detail: "expected { key, iv }" });
  }
  const { key, iv } = spendKey;
  if (typeof key !== "string" || key.length !== 64 || !HEX.test(key)) {
    throw new SlotgateBackendError("invalid_argument", { detail: "key must be 32 bytes as 64 hex characters" });
  }
  if (typeof iv !== "string" || iv.length !== 32 || !HEX.test(iv)) {
    throw new SlotgateBackendError("invalid_argument", { detail: "iv must be 16 bytes as 32 hex characters" });
  }
  return encryptHex(plaintext, key, iv);
}
