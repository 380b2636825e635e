import { type SharePinOptions, deriveSharePin } from "./share-pin.js";
import { deriveBackupKey, openHex } from "./envelope.js";
import { wipe } from "./wipe.js";

/**
 * What a client does to read its backup words from a register / recover / reset answer (or a verify
 * answer that re-sealed a PIN-only backup): derive `share_pin` from `pin_hash` (PBKDF2-SHA256, the
 * service's salt string, 100000 iterations), derive the backup key with HKDF over share_pin and the
 * answer's `key_share_user` (see `deriveBackupKey`), and open hex(iv ‖ AES-256-CTR ciphertext). The
 * same steps run in a browser with WebCrypto (`deriveBits` PBKDF2, then HKDF, then AES-CTR with a
 * 128-bit counter block = the IV). The PIN alone does not open it.
 *
 * @param sealedMnemonic - the answer's `mnemonic`
 * @param pinHashHex - the `pin_hash` the client sent
 * @param keyShareUserHex - the `key_share_user` of the same answer (the client's current share)
 * @param options - the service's PBKDF2 salt string and iterations, if not the defaults
 * @returns the 12 words
 *
 * @example
 * ```ts
 * const { mnemonic, key_share_user } = answer.data[0];
 * const words = await readMnemonicBackup(mnemonic, pinHash, key_share_user);
 * ```
 */
export async function readMnemonicBackup(sealedMnemonic: string, pinHashHex: string, keyShareUserHex: string, options: SharePinOptions = {}): Promise<string> {
  const shareUser = Buffer.from(/^[0-9a-fA-F]{64}$/.test(keyShareUserHex) ? keyShareUserHex : "", "hex");
  const sharePin = await deriveSharePin(pinHashHex, options);
  try {
    const backupKey = deriveBackupKey(sharePin, shareUser);
    try {
      return openHex(sealedMnemonic, backupKey);
    } finally {
      wipe(backupKey);
    }
  } finally {
    wipe(sharePin, shareUser);
  }
}
