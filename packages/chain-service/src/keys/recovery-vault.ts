import { timingSafeEqual } from "node:crypto";
import { ChainServiceError } from "../errors.js";
import { openHex, sealHex } from "./envelope.js";

/**
 * Seals and opens the stored owner mnemonics (the `_MN` key records, spec 2.6), the only secret from
 * which the service alone can rebuild an owner key. It is separate from the key-encryption key (server
 * shares, providers' AES keys) so that the database plus `CHAIN_KEK` is not enough to rebuild owner
 * keys. The default is {@link aesRecoveryVault} over a 32-byte recovery key; a deployment that keeps
 * that key in a KMS or an HSM implements this interface with the KMS's encrypt / decrypt calls and
 * passes it as `recoveryKey`. The service opens a mnemonic only for PIN reset (to compare), recovery
 * (to sign `changeOwner`), the PIN registration of a provisioned wallet, the re-sealing of a PIN-only
 * backup, and the development faucet.
 *
 * @example
 * ```ts
 * const vault: RecoveryVault = {
 *   seal: async (mnemonic) => (await kms.encrypt({ KeyId, Plaintext: Buffer.from(mnemonic) })).CiphertextBlob.toString("base64"),
 *   open: async (sealed) => Buffer.from((await kms.decrypt({ CiphertextBlob: Buffer.from(sealed, "base64") })).Plaintext).toString("utf8"),
 * };
 * const chain = await createChainService({ db, keyEncryptionKey, recoveryKey: vault, chain });
 * ```
 */
export interface RecoveryVault {
  /** Seals the 12 words; the answer is stored as it is (text). */
  seal(mnemonic: string): Promise<string>;
  /** Opens what {@link RecoveryVault.seal} returned. */
  open(sealed: string): Promise<string>;
}

/** @internal A 32-byte key from 64 hex characters or bytes, or `invalid_request` naming `what`. */
export function parseKey(value: string | Uint8Array, what: string): Buffer {
  const key = typeof value === "string" ? Buffer.from(/^[0-9a-fA-F]{64}$/.test(value) ? value : "", "hex") : Buffer.from(value);
  if (key.length !== 32) throw new ChainServiceError("invalid_request", `${what} must be 32 bytes (64 hex characters)`);
  return key;
}

/**
 * The default {@link RecoveryVault}: AES-256-CTR with a fresh IV per record under a 32-byte recovery
 * key (hex(iv ‖ ciphertext), the service's one envelope format).
 *
 * @param key - the recovery key, 64 hex characters or 32 bytes
 * @returns the vault
 *
 * @example
 * ```ts
 * const vault = aesRecoveryVault(process.env.CHAIN_RECOVERY_KEY!);
 * const sealed = await vault.seal(words);
 * ```
 */
export function aesRecoveryVault(key: string | Uint8Array): RecoveryVault {
  const bytes = parseKey(key, "recoveryKey");
  return {
    seal: async (mnemonic) => sealHex(mnemonic, bytes),
    open: async (sealed) => openHex(sealed, bytes),
  };
}

/** @internal The vault of the configuration; a raw key must differ from the key-encryption key. */
export function recoveryVaultOf(value: string | Uint8Array | RecoveryVault, kek: Buffer): RecoveryVault {
  if (typeof value === "object" && !(value instanceof Uint8Array)) return value;
  const key = parseKey(value, "recoveryKey");
  if (timingSafeEqual(key, kek)) throw new ChainServiceError("invalid_request", "recoveryKey must differ from keyEncryptionKey");
  return aesRecoveryVault(key);
}
