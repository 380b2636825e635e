import { MaxUint256 } from "ethers";
import { C_SALT, encodeExecute } from "@slotgate/contracts";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { openHex } from "../keys/envelope.js";
import { ownerKeyFromMnemonic } from "../keys/mnemonic.js";
import { findKeys } from "../storage/wallets.js";
import { provisionWallet } from "../wallets/provision.js";
import { operatorCall } from "../content/operator-call.js";
import { erc20Approve } from "./wallet-calls.js";

/**
 * @internal Development and conformance only (in-process chain): makes `user_uuid`'s slot wallet ready
 * to buy. Provisions the wallet when the user has none (a later PIN registration claims it), sends `xotn` wei of
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
  const wallet = await provisionWallet(ctx, args.user_uuid);
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
