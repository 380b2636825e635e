import { getAddress } from "ethers";
import type { PinRegisterRequest, PinRegisterResponse } from "@slotgate/protocol";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { deriveBackupKey, sealHex } from "../keys/envelope.js";
import { SEALED_RECORD } from "../keys/sealed-secrets.js";
import { type OwnerKey, ownerKeyFromMnemonic } from "../keys/mnemonic.js";
import { openStoredMnemonic, sealStoredMnemonic } from "../keys/stored-mnemonic.js";
import { deriveSharePin } from "../keys/share-pin.js";
import { type KeySplit, splitKey } from "../keys/split.js";
import { wipe } from "../keys/wipe.js";
import { attachServerShare, findKeys, findWallet, insertWallet } from "../storage/wallets.js";
import { newWalletRecord } from "../wallets/provision.js";

/**
 * @internal `POST /v1/pin/register`: the owner key is split under the PIN (spec 4.10 rules 1-5) and
 * the Wallet record, the server share and the sealed mnemonic are stored in one database transaction.
 * The answer's backup words are sealed under share_pin and the new share_user (`deriveBackupKey`).
 * A user without a wallet gets a new owner EOA from a fresh BIP-39 mnemonic and its two wallet
 * addresses (W_SALT, C_SALT); a wallet provisioned earlier (its `content_address` was already handed
 * out) is claimed: its stored owner key is split. Nothing goes on chain: the wallet deploys with its
 * first UserOperation.
 */
export async function registerPin(ctx: ServiceContext, input: PinRegisterRequest): Promise<PinRegisterResponse> {
  const existing = await findWallet(ctx.db, input.user_uuid);
  if (existing && existing.pinSalt !== null) throw new ChainServiceError("wallet_exists");
  const sharePin = await deriveSharePin(input.pin_hash, { salt: ctx.pin.salt, iterations: ctx.pin.iterations });
  let backupKey: Buffer | undefined;
  const pinSalt = input.pin_salt.toLowerCase();
  // Filled inside the transaction, wiped in `finally` whatever happens.
  const held: { owner?: OwnerKey; split?: KeySplit } = {};
  try {
    const address = await ctx.db.transaction(async (tx) => {
      const wallet = await findWallet(tx, input.user_uuid, true);
      if (wallet && wallet.pinSalt !== null) throw new ChainServiceError("wallet_exists");
      if (wallet) {
        const keys = await findKeys(tx, wallet.userUuid);
        if (!keys) throw new ChainServiceError("internal_error", "the wallet's key records are missing");
        const owner = ownerKeyFromMnemonic(await openStoredMnemonic(ctx, keys.mnemonic));
        held.owner = owner;
        if (getAddress(owner.address) !== getAddress(wallet.ownerEoa)) {
          throw new ChainServiceError("internal_error", "stored mnemonic does not derive its owner");
        }
        held.split = splitKey(owner.privateKey, sharePin);
        await attachServerShare(tx, wallet.userUuid, ctx.sealer.seal(held.split.shareServer, SEALED_RECORD.serverShare(wallet.userUuid)), pinSalt);
        return wallet.address;
      }
      const fresh = newWalletRecord(ctx, input.user_uuid, pinSalt);
      held.owner = fresh.owner;
      held.split = splitKey(fresh.owner.privateKey, sharePin);
      const inserted = await insertWallet(tx, fresh.record, {
        serverShareEnc: ctx.sealer.seal(held.split.shareServer, SEALED_RECORD.serverShare(input.user_uuid)),
        mnemonic: await sealStoredMnemonic(ctx, fresh.owner.mnemonic, input.user_uuid, fresh.owner.address),
      });
      if (!inserted) throw new ChainServiceError("wallet_exists");
      return fresh.record.address;
    });
    const { owner, split } = held;
    if (!owner || !split) throw new ChainServiceError("internal_error", "registration produced no key split");
    backupKey = deriveBackupKey(sharePin, split.shareUser);
    return {
      success: true,
      data: [{ address, mnemonic: sealHex(owner.mnemonic, backupKey), key_share_user: split.shareUser.toString("hex") }],
    };
  } finally {
    wipe(held.owner?.privateKey, sharePin, backupKey, held.split?.shareServer, held.split?.shareUser);
  }
}
