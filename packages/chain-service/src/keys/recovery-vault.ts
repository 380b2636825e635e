import { timingSafeEqual } from "node:crypto";
import { Mnemonic } from "ethers";
import { deriveSealingKey, isSealedValue, sealValue } from "@slotgate/storage";
import { ChainServiceError } from "../errors.js";
import { openHex } from "./envelope.js";
import { openRecord } from "./sealed-secrets.js";

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
 * Every call names the record (`record`: the user and the owner EOA the words derive): bind the
 * sealed value to it (AES-GCM associated data, a KMS encryption context), so a value altered, or moved
 * to another user's record, does not open. A value that does not open should throw.
 *
 * @example
 * ```ts
 * const vault: RecoveryVault = {
 *   seal: async (mnemonic, record) =>
 *     (await kms.encrypt({ KeyId, Plaintext: Buffer.from(mnemonic), EncryptionContext: { record } })).CiphertextBlob.toString("base64"),
 *   open: async (sealed, record) =>
 *     Buffer.from((await kms.decrypt({ CiphertextBlob: Buffer.from(sealed, "base64"), EncryptionContext: { record } })).Plaintext).toString("utf8"),
 * };
 * const chain = await createChainService({ db, keyEncryptionKey, recoveryKey: vault, chain });
 * ```
 */
export interface RecoveryVault {
  /** Seals the 12 words of `record`; the answer is stored as it is (text). */
  seal(mnemonic: string, record: string): Promise<string>;
  /** Opens what {@link RecoveryVault.seal} returned for the same record; throws when it does not open. */
  open(sealed: string, record: string): Promise<string>;
  /**
   * Optional: seals again, in the vault's current format, a value an earlier version of the vault
   * sealed; answers null when `sealed` is current. The chain service calls it at start for every stored
   * mnemonic and stores what it answers (once, also with several instances).
   */
  reseal?(sealed: string, record: string): Promise<string | null>;
}

/** @internal A 32-byte key from 64 hex characters or bytes, or `invalid_request` naming `what`. */
export function parseKey(value: string | Uint8Array, what: string): Buffer {
  const key = typeof value === "string" ? Buffer.from(/^[0-9a-fA-F]{64}$/.test(value) ? value : "", "hex") : Buffer.from(value);
  if (key.length !== 32) throw new ChainServiceError("invalid_request", `${what} must be 32 bytes (64 hex characters)`);
  return key;
}

/**
 * The default {@link RecoveryVault}: AES-256-GCM (`@slotgate/storage`'s `sealValue`) under a key
 * derived from the 32-byte recovery key, bound to the record. It re-seals the values it wrote before
 * sealing was authenticated (hex AES-256-CTR under the recovery key itself), checking they open to a
 * BIP-39 phrase.
 *
 * @param key - the recovery key, 64 hex characters or 32 bytes
 * @returns the vault
 *
 * @example
 * ```ts
 * const vault = aesRecoveryVault(process.env.CHAIN_RECOVERY_KEY!);
 * const sealed = await vault.seal(words, record);
 * ```
 */
export function aesRecoveryVault(key: string | Uint8Array): RecoveryVault {
  const bytes = parseKey(key, "recoveryKey");
  const sealing = deriveSealingKey(bytes, "slotgate/chain-service/recovery-vault/v1");
  return {
    seal: async (mnemonic, record) => sealValue(sealing, mnemonic, record),
    open: async (sealed, record) => {
      const words = openRecord(sealing, sealed, record);
      try {
        return words.toString("utf8");
      } finally {
        words.fill(0);
      }
    },
    reseal: async (sealed, record) => {
      if (isSealedValue(sealed)) return null;
      const words = openHex(sealed, bytes);
      if (!Mnemonic.isValidMnemonic(words)) {
        throw new ChainServiceError("internal_error", "a stored mnemonic does not open under the configured recovery key");
      }
      return sealValue(sealing, words, record);
    },
  };
}

/** @internal The vault of the configuration; a raw key must differ from the key-encryption key. */
export function recoveryVaultOf(value: string | Uint8Array | RecoveryVault, kek: Buffer): RecoveryVault {
  if (typeof value === "object" && !(value instanceof Uint8Array)) return value;
  const key = parseKey(value, "recoveryKey");
  if (timingSafeEqual(key, kek)) throw new ChainServiceError("invalid_request", "recoveryKey must differ from keyEncryptionKey");
  return aesRecoveryVault(key);
}
