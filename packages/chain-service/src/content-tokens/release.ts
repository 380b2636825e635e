import { getAddress } from "ethers";
import type { BalanceAdexResponse, ReleaseUsedBalanceRequest, ReleaseUsedBalanceResponse } from "@slotgate/protocol";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import { findCuidOwner, lastSlotCuid } from "../storage/providers.js";
import type { PendingWrite, WriteIdentity } from "../writes/engine.js";
import { platformIdentity, platformWrite } from "../writes/platform-write.js";
import { requireOwnCuid } from "./slots.js";

/**
 * @internal `release_used_balance`: the platform settles floor((used - settled) * release_per / 100)
 * XOTN from the treasury to the provider; refused with `release_disabled` until the cuid's flag is on.
 */
export async function release(
  ctx: ServiceContext,
  input: ReleaseUsedBalanceRequest,
  identity: WriteIdentity,
): Promise<ReleaseUsedBalanceResponse | PendingWrite> {
  requireOwnCuid(input.client_id, input.cuid, await findCuidOwner(ctx.db, input.cuid));
  return platformWrite<ReleaseUsedBalanceResponse & Record<string, unknown>>(ctx, identity, {
    to: ctx.addresses.exchange,
    data: ctx.contracts.exchange.interface.encodeFunctionData("release_used_balance", [input.cuid, getAddress(input.slot)]),
    answer: { kind: "release" },
  });
}

/** @internal Platform operator: sets `_cuid_releaseTokenEnabled[cuid]` (and the cuid's record, when it lands). */
export async function enableRelease(ctx: ServiceContext, cuid: string, enabled: boolean): Promise<{ tx_hash: string } | PendingWrite> {
  return platformWrite<{ tx_hash: string } & Record<string, unknown>>(ctx, platformIdentity("enableRelease", [cuid, enabled]), {
    to: ctx.addresses.exchange,
    data: ctx.contracts.exchange.interface.encodeFunctionData("set_release_enabled", [cuid, enabled]),
    answer: { kind: "transaction" },
    effects: { confirmed: [{ kind: "release_enabled", cuid, enabled }] },
  });
}

/**
 * @internal `balance_adex/{slot}`: (balance, used_balances) read from the chain. Without a cuid, the cuid
 * the slot last bought under; a slot never seen without a cuid is `slot_not_found`.
 */
export async function balanceOf(ctx: ServiceContext, slot: string, cuid?: string): Promise<BalanceAdexResponse> {
  const address = getAddress(slot);
  const which = cuid ?? (await lastSlotCuid(ctx.db, address));
  if (which === null) throw new ChainServiceError("slot_not_found");
  const [balance, used] = await ctx.contracts.exchange.balance_adex(address, which);
  return { success: true, slot: address, balance: balance.toString(), used_balances: used.toString(), cuid: which };
}
