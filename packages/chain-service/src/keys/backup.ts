import { type SharePinOptions, deriveSharePin } from "./share-pin.js";
import { deriveBackupKey, openHex } from "./envelope.js";
import { wipe } from "./wipe.js";

/**
 * What a client does to read its backup words from the register / recover answer: derive
 * `share_pin` from `pin_hash` (PBKDF2-SHA256, the service's salt string, 100000 iterations), derive
 * the backup key with HKDF (see `deriveBackupKey`), and open hex(iv ‖ AES-256-CTR ciphertext).
 * The same steps run in a browser with WebCrypto (`deriveBits` PBKDF2, then HKDF, then AES-CTR with
 * a 128-bit counter block = the IV).
 *
 * @param sealedMnemonic - the answer's `data[0].mnemonic`
 * @param pinHashHex - the `pin_hash` the client sent
 * @param options - the service's PBKDF2 salt string and iterations, if not the defaults
 * @returns the 12 words
 *
 * @example
 * ```ts
 * const words = await readMnemonicBackup(answer.data[0].mnemonic, pinHash);
 * ```
 */
export async function readMnemonicBackup(
  sealedMnemonic: string,
  pinHashHex: string,
  options: SharePinOptions = {},
): Promise<string> {
  const sharePin = await deriveSharePin(pinHashHex, options);
  const backupKey = deriveBackupKey(sharePin);
  try {
    return openHex(sealedMnemonic, backupKey);
  } finally {
    wipe(sharePin, backupKey);
  }
}
