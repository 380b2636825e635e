import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { LIMITS } from "@slotgate/protocol";
import { ChainServiceError } from "../errors.js";

const IV_BYTES = LIMITS.aesIvBytes;
const KEY_BYTES = LIMITS.aesKeyBytes;

function aes(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Buffer {
  const cipher = createCipheriv("aes-256-ctr", key, iv);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

function unaes(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Buffer {
  const decipher = createDecipheriv("aes-256-ctr", key, iv);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

/**
 * AES-256-CTR with a fresh random IV: the answer is hex(iv ‖ ciphertext). Used for the stored
 * mnemonic (`Key` record `_MN`, under the server key-encryption key) and for the client's mnemonic
 * backup (under the key of {@link deriveBackupKey}).
 *
 * @example
 * ```ts
 * const sealed = sealHex(mnemonic, kek);
 * openHex(sealed, kek) === mnemonic; // true
 * ```
 */
export function sealHex(plaintext: string, key: Uint8Array): string {
  if (key.length !== KEY_BYTES) throw new ChainServiceError("internal_error", "encryption key must be 32 bytes");
  const iv = randomBytes(IV_BYTES);
  const data = Buffer.from(plaintext, "utf8");
  try {
    return Buffer.concat([iv, aes(key, iv, data)]).toString("hex");
  } finally {
    data.fill(0);
  }
}

/**
 * Opens {@link sealHex} output. CTR has no integrity: a wrong key yields garbage, so callers check
 * what they get (a mnemonic must be valid BIP-39 and derive the stored owner).
 *
 * @example
 * ```ts
 * const mnemonic = openHex(record.mnemonic_enc, kek);
 * ```
 */
export function openHex(sealed: string, key: Uint8Array): string {
  if (key.length !== KEY_BYTES) throw new ChainServiceError("internal_error", "encryption key must be 32 bytes");
  if (!/^([0-9a-fA-F]{2})*$/.test(sealed) || sealed.length < IV_BYTES * 2) {
    throw new ChainServiceError("internal_error", "sealed value is not hex iv and ciphertext");
  }
  const bytes = Buffer.from(sealed, "hex");
  const plain = unaes(key, bytes.subarray(0, IV_BYTES), bytes.subarray(IV_BYTES));
  try {
    return plain.toString("utf8");
  } finally {
    plain.fill(0);
  }
}

/** HKDF `info` of the client backup key. */
export const BACKUP_KEY_INFO = "slotgate/mnemonic-backup/v1";

/**
 * The key that encrypts the `mnemonic` field of the register / recover answer:
 * HKDF-SHA256(ikm = share_pin, salt = empty, info = "slotgate/mnemonic-backup/v1", 32 bytes).
 * The client derives `share_pin` from its own `pin_hash` (PBKDF2, same salt string and iterations as
 * the service), so only the PIN holder can read its backup words; the service never stores this key.
 *
 * @example
 * ```ts
 * const backupKey = deriveBackupKey(sharePin);
 * const words = openHex(answer.mnemonic, backupKey);
 * ```
 */
export function deriveBackupKey(sharePin: Uint8Array): Buffer {
  return Buffer.from(hkdfSync("sha256", sharePin, Buffer.alloc(0), BACKUP_KEY_INFO, KEY_BYTES));
}

/**
 * {@link sealHex} for raw bytes (key shares, AES keys): no intermediate string holds the secret.
 *
 * @example
 * ```ts
 * const stored = sealBytes(shareServer, kek);
 * const shareServerAgain = openBytes(stored, kek); // wipe after use
 * ```
 */
export function sealBytes(data: Uint8Array, key: Uint8Array): string {
  if (key.length !== KEY_BYTES) throw new ChainServiceError("internal_error", "encryption key must be 32 bytes");
  const iv = randomBytes(IV_BYTES);
  return Buffer.concat([iv, aes(key, iv, data)]).toString("hex");
}

/**
 * Opens {@link sealBytes} output into a Buffer the caller wipes.
 *
 * @example
 * ```ts
 * const shareServer = openBytes(record.serverShareEnc, kek);
 * ```
 */
export function openBytes(sealed: string, key: Uint8Array): Buffer {
  if (key.length !== KEY_BYTES) throw new ChainServiceError("internal_error", "encryption key must be 32 bytes");
  if (!/^([0-9a-fA-F]{2})*$/.test(sealed) || sealed.length < IV_BYTES * 2) {
    throw new ChainServiceError("internal_error", "sealed value is not hex iv and ciphertext");
  }
  const bytes = Buffer.from(sealed, "hex");
  return unaes(key, bytes.subarray(0, IV_BYTES), bytes.subarray(IV_BYTES));
}
