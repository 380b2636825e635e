import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** The one format of a sealed value: `v1.` then base64url(iv ‖ ciphertext ‖ tag). */
const VERSION = "v1";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A sealed value did not open: it was altered, moved to another record (its associated data differ),
 * sealed under another key, or is not a sealed value at all. `code` is the service's stable error code
 * for it. The message never carries the value.
 *
 * @example
 * ```ts
 * try {
 *   openSealed(key, row.secret, `users/${row.id}/secret`);
 * } catch (error) {
 *   if (error instanceof SealedValueError) log.error("a sealed record failed its integrity check", { id: row.id });
 * }
 * ```
 */
export class SealedValueError extends Error {
  /** The protocol's error code for a stored secret that fails its integrity check. */
  readonly code = "sealed_record_invalid" as const;

  constructor(message = "a sealed value failed its integrity check (altered, moved to another record, or sealed under another key)") {
    super(message);
    this.name = "SealedValueError";
  }
}

function checkKey(key: Uint8Array): void {
  if (key.length !== KEY_BYTES) throw new RangeError(`a sealing key must be ${KEY_BYTES} bytes`);
}

/**
 * A sealing key for one purpose: HKDF-SHA256 of `secret` with `purpose` as its info, 32 bytes. Derive
 * one per purpose (outbox codes, key shares, …), so a key never serves two formats or two jobs.
 *
 * @param secret - the secret the key comes from (a key-encryption key, a server pepper)
 * @param purpose - what the key seals, e.g. `"slotgate.outbox-seal.v1"`
 * @returns the 32-byte key; the caller keeps it out of logs and may wipe it
 *
 * @example
 * ```ts
 * const key = deriveSealingKey(process.env.CHAIN_KEK!, "slotgate/chain-service/sealed-at-rest/v1");
 * ```
 */
export function deriveSealingKey(secret: Uint8Array | string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), purpose, KEY_BYTES));
}

/**
 * Seals a secret for storage with AES-256-GCM (a fresh 96-bit IV each time) and binds it to
 * `associatedData`, the identity of the record that holds it (e.g. `server-share/42`): the value opens
 * only for that record, so an altered value, or one copied or swapped into another row, is refused.
 * The answer is `v1.<base64url(iv ‖ ciphertext ‖ tag)>`.
 *
 * @param key - 32 bytes, from {@link deriveSealingKey}
 * @param plaintext - the secret (bytes, or text as UTF-8)
 * @param associatedData - the record's identity; not secret, not stored in the value
 * @returns the sealed value
 *
 * @example
 * ```ts
 * const sealed = sealValue(key, shareServer, `server-share/${userUuid}`);
 * ```
 */
export function sealValue(key: Uint8Array, plaintext: Uint8Array | string, associatedData: string): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const body = Buffer.concat([typeof plaintext === "string" ? cipher.update(plaintext, "utf8") : cipher.update(plaintext), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url")}`;
}

/**
 * Opens what {@link sealValue} made, for the same record. Throws {@link SealedValueError} when the
 * tag does not verify (altered, another record's value, another key) or the value is not in the
 * format; nothing of the plaintext is released then.
 *
 * @param key - the key it was sealed with
 * @param sealed - the stored value
 * @param associatedData - the identity of the record it is read from
 * @returns the plaintext bytes; the caller wipes them when they are a key
 *
 * @example
 * ```ts
 * const shareServer = openSealed(key, row.b_key, `server-share/${userUuid}`);
 * ```
 */
export function openSealed(key: Uint8Array, sealed: string, associatedData: string): Buffer {
  checkKey(key);
  const raw = isSealedValue(sealed) ? Buffer.from(sealed.slice(VERSION.length + 1), "base64url") : Buffer.alloc(0);
  if (raw.length < IV_BYTES + TAG_BYTES) throw new SealedValueError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(associatedData, "utf8"));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SealedValueError();
  }
}

/**
 * Whether `value` is in the sealed format (`v1.` and base64url), as written by {@link sealValue}; an
 * older format (such as hex AES-256-CTR) is not. It says nothing about whether the value opens.
 *
 * @example
 * ```ts
 * if (!isSealedValue(row.b_key)) await resealRow(row); // written before sealing was authenticated
 * ```
 */
export function isSealedValue(value: string): boolean {
  return /^v1\.[A-Za-z0-9_-]+$/.test(value);
}
