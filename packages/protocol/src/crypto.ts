/**
 * AES-256-CTR as the spec's encrypted spend call uses it (section 4.8), in
 * pure JavaScript (`@noble/ciphers`), so it runs in Node, Deno, Bun, edge
 * runtimes and browsers alike.
 *
 * @example
 * ```ts
 * import { encryptHex, decryptHex } from "@slotgate/protocol/crypto";
 * const hex = encryptHex('{"amount":"1"}', keyHex, ivHex);
 * decryptHex(hex, keyHex, ivHex); // '{"amount":"1"}'
 * ```
 *
 * @packageDocumentation
 */
import { ctr } from "@noble/ciphers/aes.js";
import { bytesToHex, hexToBytes } from "@noble/ciphers/utils.js";
import { LIMITS } from "./limits.js";

/** Thrown when a key, IV or ciphertext is not the hex of the right length. */
export class EncodingError extends Error {
  override name = "EncodingError";
}

function parseHex(value: string, bytes: number | null, what: string): Uint8Array {
  if (typeof value !== "string" || !/^([0-9a-fA-F]{2})*$/.test(value)) {
    throw new EncodingError(`${what} must be an even-length hex string`);
  }
  if (bytes !== null && value.length !== bytes * 2) {
    throw new EncodingError(`${what} must be ${bytes} bytes (${bytes * 2} hex characters)`);
  }
  return hexToBytes(value);
}

function cipher(keyHex: string, ivHex: string) {
  return ctr(parseHex(keyHex, LIMITS.aesKeyBytes, "key"), parseHex(ivHex, LIMITS.aesIvBytes, "iv"));
}

/**
 * Encrypts a UTF-8 string with AES-256-CTR and returns lowercase hex.
 *
 * @param plaintext - the text, e.g. `JSON.stringify(payload)`
 * @param keyHex - 32-byte key as 64 hex characters
 * @param ivHex - 16-byte IV as 32 hex characters
 * @example
 * ```ts
 * encryptHex("hello", "00".repeat(32), "00".repeat(16));
 * ```
 */
export function encryptHex(plaintext: string, keyHex: string, ivHex: string): string {
  return bytesToHex(cipher(keyHex, ivHex).encrypt(new TextEncoder().encode(plaintext)));
}

/**
 * Decrypts hex AES-256-CTR ciphertext into a UTF-8 string.
 *
 * CTR has no integrity check: a wrong key yields garbage, not an error, so
 * callers must validate what they decrypt. Invalid UTF-8 throws.
 *
 * @example
 * ```ts
 * const json = decryptHex(body.encrypted_message, keyHex, ivHex);
 * ```
 */
export function decryptHex(ciphertextHex: string, keyHex: string, ivHex: string): string {
  const bytes = cipher(keyHex, ivHex).decrypt(parseHex(ciphertextHex, null, "ciphertext"));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
