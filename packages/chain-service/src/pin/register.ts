import type { PinRegisterRequest, PinRegisterResponse } from "@slotgate/protocol";
import { pinRegisterSchema } from "@slotgate/protocol/schemas";
import { computeWalletAddresses } from "@slotgate/contracts";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { deriveBackupKey, sealBytes, sealHex } from "../keys/envelope.js";
import { generateOwnerKey } from "../keys/mnemonic.js";
import { deriveSharePin } from "../keys/share-pin.js";
import { splitKey } from "../keys/split.js";
import { wipe } from "../keys/wipe.js";
import { findWallet, insertWallet } from "../storage/wallets.js";
import { parseInput } from "../validate.js";

/**
 * @internal `POST /v1/pin/register`: a new owner EOA from a fresh BIP-39 mnemonic, its two wallet
 * addresses (W_SALT, C_SALT), the key split, and one database transaction storing the Wallet record,
 * the server share and the sealed mnemonic. Nothing goes on chain: the wallet deploys with its first
 * UserOperation.
 */
export async function registerPin(ctx: ServiceContext, request: PinRegisterRequest): Promise<PinRegisterResponse> {
  const input = parseInput(pinRegisterSchema, request);
  if (await findWallet(ctx.db, input.user_uuid)) throw new ChainServiceError("wallet_exists");
  const owner = generateOwnerKey();
  const sharePin = await deriveSharePin(input.pin_hash, { salt: ctx.pin.salt, iterations: ctx.pin.iterations });
  const backupKey = deriveBackupKey(sharePin);
  const { shareServer, shareUser } = splitKey(owner.privateKey, sharePin);
  try {
    const { userWallet, slotWallet } = computeWalletAddresses(ctx.addresses.factory, owner.address);
    const inserted = await ctx.db.transaction((tx) =>
      insertWallet(
        tx,
        {
          userUuid: input.user_uuid,
          accountIdx: 0,
          address: userWallet,
          contentAddress: slotWallet,
          ownerEoa: owner.address,
          initialOwner: owner.address,
          walletType: "AA",
          pinSalt: input.pin_salt.toLowerCase(),
        },
        { serverShareEnc: sealBytes(shareServer, ctx.kek), mnemonicEnc: sealHex(owner.mnemonic, ctx.kek) },
      ),
    );
    if (!inserted) throw new ChainServiceError("wallet_exists");
    return {
      success: true,
      data: [{ address: userWallet, mnemonic: sealHex(owner.mnemonic, backupKey), key_share_user: shareUser.toString("hex") }],
    };
  } finally {
    wipe(owner.privateKey, sharePin, backupKey, shareServer, shareUser);
  }
}
