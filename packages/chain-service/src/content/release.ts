import { getAddress } from "ethers";
import type { BalanceAdexResponse, ReleaseUsedBalanceRequest, ReleaseUsedBalanceResponse } from "@slotgate/protocol";
import { releaseUsedBalanceSchema } from "@slotgate/protocol/schemas";
import type { ServiceContext } from "../context.js";
import { ChainServiceError } from "../errors.js";
import { findCuidOwner, lastSlotCuid } from "../storage/providers.js";
import { parseInput } from "../validate.js";
import { operatorCall } from "./operator-call.js";
import { requireOwnCuid } from "./slots.js";

/**
 * @internal `release_used_balance`: the platform settles floor((used - settled) * release_per / 100)
 * XOTN from the treasury to the provider; refused with `release_disabled` until the cuid's flag is on.
 */
export async function release(ctx: ServiceContext, request: ReleaseUsedBalanceRequest): Promise<ReleaseUsedBalanceResponse> {
  const input = parseInput(releaseUsedBalanceSchema, request);
  requireOwnCuid(input.client_id, input.cuid, await findCuidOwner(ctx.db, input.cuid));
  const { exchange } = ctx.contracts;
  const receipt = await operatorCall(
    ctx,
    ctx.addresses.exchange,
    exchange.interface.encodeFunctionData("release_used_balance", [input.cuid, getAddress(input.slot)]),
  );
  let released = 0n;
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== getAddress(ctx.addresses.exchange)) continue;
    const parsed = exchange.interface.parseLog(log);
    if (parsed?.name === "UsedBalanceReleased") released = BigInt(parsed.args.releasedAmount);
  }
  return { success: true, released_amount: released.toString(), tx_hash: receipt.hash };
}

/** @internal Platform operator: sets `_cuid_releaseTokenEnabled[cuid]`. */
export async function enableRelease(ctx: ServiceContext, cuid: string, enabled: boolean): Promise<{ tx_hash: string }> {
  if (typeof cuid !== "string" || cuid.length === 0 || cuid.length > 64) throw new ChainServiceError("invalid_request", "cuid is invalid");
  const receipt = await operatorCall(
    ctx,
    ctx.addresses.exchange,
    ctx.contracts.exchange.interface.encodeFunctionData("set_release_enabled", [cuid, enabled]),
  );
  return { tx_hash: receipt.hash };
}

/**
 * @internal `balance_adex/{slot}`: (balance, used_balances) read from the chain. Without a cuid, the cuid
 * the slot last bought under; a slot never seen without a cuid is `slot_not_found`.
 */
export async function balanceOf(ctx: ServiceContext, slot: string, cuid?: string): Promise<BalanceAdexResponse> {
  if (typeof slot !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(slot)) throw new ChainServiceError("invalid_request", "slot must be an address");
  const address = getAddress(slot);
  const which = cuid ?? (await lastSlotCuid(ctx.db, address));
  if (which === null) throw new ChainServiceError("slot_not_found");
  if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/.test(which)) throw new ChainServiceError("invalid_request", "cuid is invalid");
  const [balance, used] = await ctx.contracts.exchange.balance_adex(address, which);
  return { success: true, slot: address, balance: balance.toString(), used_balances: used.toString(), cuid: which };
}
