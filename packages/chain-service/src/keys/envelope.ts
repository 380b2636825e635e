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
 * AES-256-CTR with a fresh random IV: the answer is hex(iv ‖ ciphertext). The format of the client's
 * mnemonic backup (the `mnemonic` of the register / recover / reset answers, spec 4.10, under the key of
 * {@link deriveBackupKey}), which the client opens offline with WebCrypto's AES-CTR. Secrets the
 * service stores are sealed with an authenticated mode instead (`SecretSealer`, the recovery vault).
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
 * Opens {@link sealHex} output: a client's backup, or a mnemonic stored before sealing at rest was
 * authenticated (read only by the start-up re-sealing). CTR has no integrity: a wrong key yields
 * garbage, so callers check what they get (a mnemonic must be valid BIP-39 and derive the stored owner).
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

/** HKDF `info` of the client backup key (v2: keyed by share_pin and share_user). */
export const BACKUP_KEY_INFO = "slotgate/mnemonic-backup/v2";

/**
 * The key that encrypts the `mnemonic` field of the register / recover / reset answers (and of a
 * verify answer that re-seals a PIN-only backup): HKDF-SHA256(ikm = share_pin ‖ share_user, salt =
 * empty, info = "slotgate/mnemonic-backup/v2", 32 bytes). The client derives `share_pin` from its
 * own `pin_hash` (PBKDF2, same salt string and iterations as the service) and holds `key_share_user`,
 * so it reads its backup offline; the PIN alone no longer opens it, and a backup kept apart from the
 * session share does not let anyone try PINs offline. The service never stores this key.
 *
 * @example
 * ```ts
 * const backupKey = deriveBackupKey(sharePin, shareUser);
 * const words = openHex(answer.mnemonic, backupKey);
 * ```
 */
export function deriveBackupKey(sharePin: Uint8Array, shareUser: Uint8Array): Buffer {
  if (sharePin.length !== KEY_BYTES || shareUser.length !== KEY_BYTES) {
    throw new ChainServiceError("invalid_request", `share_pin and share_user must be ${KEY_BYTES} bytes`);
  }
  const ikm = Buffer.concat([sharePin, shareUser]);
  try {
    return Buffer.from(hkdfSync("sha256", ikm, Buffer.alloc(0), BACKUP_KEY_INFO, KEY_BYTES));
  } finally {
    ikm.fill(0);
  }
}

/**
 * Opens a secret stored as bytes before sealing at rest was authenticated (hex(iv ‖ AES-256-CTR), under
 * the raw key-encryption key), into a Buffer the caller wipes. Only the start-up re-sealing reads this
 * format (`resealStoredSecrets`); nothing opens it for use.
 *
 * @example
 * ```ts
 * const shareServer = openLegacyBytes(row.b_key, kek);
 * ```
 */
export function openLegacyBytes(sealed: string, key: Uint8Array): Buffer {
  if (key.length !== KEY_BYTES) throw new ChainServiceError("internal_error", "encryption key must be 32 bytes");
  if (!/^([0-9a-fA-F]{2})*$/.test(sealed) || sealed.length < IV_BYTES * 2) {
    throw new ChainServiceError("internal_error", "sealed value is not hex iv and ciphertext");
  }
  const bytes = Buffer.from(sealed, "hex");
  return unaes(key, bytes.subarray(0, IV_BYTES), bytes.subarray(IV_BYTES));
}
