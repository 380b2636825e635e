import { timingSafeEqual } from "node:crypto";
import { getAddress } from "ethers";
import type { PinResetRequest } from "@slotgate/protocol";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { deriveBackupKey, sealHex } from "../keys/envelope.js";
import { SEALED_RECORD } from "../keys/sealed-secrets.js";
import { ownerKeyFromMnemonic } from "../keys/mnemonic.js";
import { deriveSharePin } from "../keys/share-pin.js";
import { splitKey } from "../keys/split.js";
import { openStoredMnemonic } from "../keys/stored-mnemonic.js";
import { wipe } from "../keys/wipe.js";
import { clearPinAttempts } from "../storage/pin-attempts.js";
import { findKeys, updateServerShare } from "../storage/wallets.js";
import { requireWallet } from "./credentials.js";

/**
 * Answer of {@link ChainService.resetPin}: the unchanged address, the new client share, and the backup
 * words sealed under the new PIN's share_pin and that share (`readMnemonicBackup`); an older backup
 * no longer opens.
 */
export interface PinResetResponse {
  success: true;
  data: { address: string; key_share_user: string; mnemonic: string }[];
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  try {
    return left.length === right.length && timingSafeEqual(left, right);
  } finally {
    wipe(left, right);
  }
}

/**
 * @internal `POST /v1/pin/reset` (spec 4.10 rule 7): the stored mnemonic is decrypted and compared
 * with the input, the key derived from it is re-split under the new PIN, the server share replaced.
 * Same owner EOA, same address, no chain transaction; the old share stops working. The answer carries
 * a fresh backup of the words under the new shares.
 */
export async function resetPin(ctx: ServiceContext, input: PinResetRequest): Promise<PinResetResponse> {
  const wallet = await requireWallet(ctx, input.user_uuid);
  const keys = await findKeys(ctx.db, wallet.userUuid);
  if (!keys?.serverShareEnc) throw new ChainServiceError("internal_error", "the wallet's key records are missing");
  const given = ownerKeyFromMnemonic(input.mnemonic);
  const sharePin = await deriveSharePin(input.new_pin_hash, { salt: ctx.pin.salt, iterations: ctx.pin.iterations });
  let split: { shareServer: Buffer; shareUser: Buffer } | undefined;
  let backupKey: Buffer | undefined;
  try {
    const stored = await openStoredMnemonic(ctx, keys.mnemonic);
    if (!sameText(stored, given.mnemonic) || getAddress(given.address) !== getAddress(wallet.ownerEoa)) {
      throw new ChainServiceError("mnemonic_mismatch");
    }
    split = splitKey(given.privateKey, sharePin);
    const serverShareEnc = ctx.sealer.seal(split.shareServer, SEALED_RECORD.serverShare(wallet.userUuid));
    await ctx.db.transaction(async (tx) => {
      await updateServerShare(tx, wallet.userUuid, serverShareEnc, input.new_pin_salt.toLowerCase());
      await clearPinAttempts(tx, wallet.userUuid);
    });
    backupKey = deriveBackupKey(sharePin, split.shareUser);
    return {
      success: true,
      data: [{ address: wallet.address, key_share_user: split.shareUser.toString("hex"), mnemonic: sealHex(given.mnemonic, backupKey) }],
    };
  } finally {
    wipe(given.privateKey, sharePin, backupKey, split?.shareServer, split?.shareUser);
  }
}
