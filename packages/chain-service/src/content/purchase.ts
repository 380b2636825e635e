import { getAddress, parseEther } from "ethers";
import type { UserBuyContentTokenRequest, UserBuyContentTokenResponse } from "@slotgate/protocol";
import { userBuyContentTokenSchema } from "@slotgate/protocol/schemas";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { findCuidOwner, rememberSlotCuid } from "../storage/providers.js";
import { parseInput } from "../validate.js";
import { operatorCall } from "./operator-call.js";
import { requireOwnCuid, slotWalletOf } from "./slots.js";

/** `"1.5"` is ether, `"1500"` is wei. */
function xotnWei(amount: string): bigint {
  return amount.includes(".") ? parseEther(amount) : BigInt(amount);
}

/**
 * @internal `user_buy_content_token`. The slot wallet pays: it approved the platform's purchase agent
 * (the operator) with a PIN-signed `approve_purchases` operation; the operator pulls the XOTN
 * (`transferFrom`) and calls `buy_content_token(slot, cuid, amount)`, which splits it 15% treasury /
 * 85% provider and credits the slot 1:1. If the purchase fails after the pull, the XOTN is sent back.
 */
export async function buyContentToken(
  ctx: ServiceContext,
  request: UserBuyContentTokenRequest,
): Promise<UserBuyContentTokenResponse> {
  const input = parseInput(userBuyContentTokenSchema, request);
  requireOwnCuid(input.client_id, input.cuid, await findCuidOwner(ctx.db, input.cuid));
  const wallet = await slotWalletOf(ctx, input.user_dbkey);
  const slot = getAddress(wallet.contentAddress);
  const amount = xotnWei(input.amount);
  if (amount <= 0n) throw new ChainServiceError("invalid_request", "amount must be greater than zero");
  const { xotn, exchange } = ctx.contracts;
  const [allowance, balance] = await Promise.all([xotn.allowance(slot, ctx.operator.address), xotn.balanceOf(slot)]);
  if (allowance < amount) throw new ChainServiceError("insufficient_allowance");
  if (balance < amount) throw new ChainServiceError("insufficient_balance", "The slot wallet holds less XOTN than the amount.");

  await operatorCall(ctx, ctx.addresses.xotn, xotn.interface.encodeFunctionData("transferFrom", [slot, ctx.operator.address, amount]));
  let receipt: Awaited<ReturnType<typeof operatorCall>>;
  try {
    receipt = await operatorCall(
      ctx,
      ctx.addresses.exchange,
      exchange.interface.encodeFunctionData("buy_content_token", [slot, input.cuid, amount]),
    );
  } catch (error) {
    await operatorCall(ctx, ctx.addresses.xotn, xotn.interface.encodeFunctionData("transfer", [slot, amount]));
    throw error;
  }
  let event: { tokenAmount: bigint; platformFee: bigint; providerReceived: bigint; xotnPaid: bigint } | undefined;
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== getAddress(ctx.addresses.exchange)) continue;
    const parsed = exchange.interface.parseLog(log);
    if (parsed?.name === "ContentTokenPurchased") {
      event = {
        tokenAmount: BigInt(parsed.args.tokenAmount),
        platformFee: BigInt(parsed.args.platformFee),
        providerReceived: BigInt(parsed.args.providerReceived),
        xotnPaid: BigInt(parsed.args.xotnPaid),
      };
    }
  }
  if (!event) throw new ChainServiceError("internal_error", "the purchase emitted no ContentTokenPurchased event");
  await rememberSlotCuid(ctx.db, slot, input.cuid);
  return {
    success: true,
    tx_hash: receipt.hash,
    token_amount: event.tokenAmount.toString(),
    xotn_paid: event.xotnPaid.toString(),
    platform_fee: event.platformFee.toString(),
    provider_received: event.providerReceived.toString(),
  };
}
