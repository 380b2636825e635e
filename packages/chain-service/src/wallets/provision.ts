import { computeWalletAddresses } from "@slotgate/contracts";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { type OwnerKey, generateOwnerKey } from "../keys/mnemonic.js";
import { sealStoredMnemonic } from "../keys/stored-mnemonic.js";
import { wipe } from "../keys/wipe.js";
import { type WalletRecord, findWallet, insertWallet } from "../storage/wallets.js";

/** @internal A new owner EOA and the Wallet record of its two CREATE2 wallets (spec 2.6). */
export function newWalletRecord(
  ctx: ServiceContext,
  userUuid: number,
  pinSalt: string | null,
): { owner: OwnerKey; record: Omit<WalletRecord, "backupPinOnly"> } {
  const owner = generateOwnerKey();
  const { userWallet, slotWallet } = computeWalletAddresses(ctx.addresses.factory, owner.address);
  return {
    owner,
    record: {
      userUuid,
      accountIdx: 0,
      address: userWallet,
      contentAddress: slotWallet,
      ownerEoa: owner.address,
      initialOwner: owner.address,
      walletType: "AA",
      pinSalt,
    },
  };
}

/**
 * @internal The user's wallet, created on first need when the user has none: a `content_address` must
 * exist as soon as a blockchain client's token exchange answers it (spec 2.2), before the user ever
 * registers a PIN. The owner key is kept only as the mnemonic (`_MN`, sealed under the recovery
 * vault) until `registerPin` splits it. Concurrent calls agree on one wallet.
 */
export async function provisionWallet(ctx: ServiceContext, userUuid: number): Promise<WalletRecord> {
  const existing = await findWallet(ctx.db, userUuid);
  if (existing) return existing;
  const { owner, record } = newWalletRecord(ctx, userUuid, null);
  try {
    const mnemonic = await sealStoredMnemonic(ctx, owner.mnemonic, userUuid, owner.address);
    await ctx.db.transaction((tx) => insertWallet(tx, record, { serverShareEnc: null, mnemonic }));
  } finally {
    wipe(owner.privateKey);
  }
  const wallet = await findWallet(ctx.db, userUuid);
  if (!wallet) throw new ChainServiceError("internal_error", "wallet provisioning failed");
  return wallet;
}
