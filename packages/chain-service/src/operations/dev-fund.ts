import { randomBytes } from "node:crypto";
import { MaxUint256 } from "ethers";
import { C_SALT, encodeExecute } from "@slotgate/contracts";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { openHex } from "../keys/envelope.js";
import { ownerKeyFromMnemonic } from "../keys/mnemonic.js";
import { registerPin } from "../pin/register.js";
import { findKeys, findWallet } from "../storage/wallets.js";
import { operatorCall } from "../content/operator-call.js";
import { erc20Approve } from "./wallet-calls.js";

/**
 * @internal Development and conformance only (in-process chain): makes `user_uuid`'s slot wallet ready
 * to buy. Registers a wallet with a random, discarded PIN when the user has none, sends `xotn` wei of
 * XOTN from the operator, and approves the purchase agent for an unlimited amount with an operation
 * signed by the stored owner key. Refused on a real chain: there only the user's PIN signs.
 */
export async function devFundSlot(ctx: ServiceContext, args: { user_uuid: number; xotn: string }): Promise<{ address: string }> {
  if (ctx.devChain === undefined) {
    throw new ChainServiceError("service_unavailable", "devFundSlot is only available on the in-process development chain");
  }
  if (typeof args?.xotn !== "string" || !/^[1-9][0-9]{0,77}$/.test(args.xotn)) {
    throw new ChainServiceError("invalid_request", "xotn must be a positive wei integer string");
  }
  let wallet = await findWallet(ctx.db, args.user_uuid);
  if (!wallet) {
    const discarded = randomBytes(32).toString("hex");
    await registerPin(ctx, { user_uuid: args.user_uuid, pin_hash: discarded, pin_salt: randomBytes(32).toString("hex") });
    wallet = await findWallet(ctx.db, args.user_uuid);
  }
  if (!wallet) throw new ChainServiceError("internal_error", "wallet registration failed");
  await operatorCall(
    ctx,
    ctx.addresses.xotn,
    ctx.contracts.xotn.interface.encodeFunctionData("transfer", [wallet.contentAddress, BigInt(args.xotn)]),
  );
  const allowance = await ctx.contracts.xotn.allowance(wallet.contentAddress, ctx.operator.address);
  if (allowance < MaxUint256 / 2n) {
    const keys = await findKeys(ctx.db, wallet.userUuid);
    if (!keys) throw new ChainServiceError("internal_error", "the wallet's key records are missing");
    const owner = ownerKeyFromMnemonic(openHex(keys.mnemonicEnc, ctx.kek));
    await ctx.sponsored.send({
      sender: wallet.contentAddress,
      deployment: { initialOwner: wallet.initialOwner, salt: C_SALT },
      callData: encodeExecute(erc20Approve(ctx.addresses.xotn, ctx.operator.address, MaxUint256)),
      ownerKey: owner.privateKey,
    });
  }
  return { address: wallet.contentAddress };
}
