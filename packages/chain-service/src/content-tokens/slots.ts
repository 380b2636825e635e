import { getAddress } from "ethers";
import { ChainServiceError } from "../errors.js";
import type { ServiceContext } from "../context.js";
import { activeSlotRecord } from "../slots/slots.js";
import type { SlotRecord } from "../storage/slots.js";
import { findWallet } from "../storage/wallets.js";

/**
 * @internal The ACTIVE slot of `cuid` of `user_dbkey` (the decimal user id of the slot's user), where
 * purchases and spends land: `slot_not_found` for an unknown user; with `create`, a user without an
 * active slot of the cuid gets one opened (a purchase), else `slot_not_found` (a spend).
 */
export async function activeSlotOf(ctx: ServiceContext, userDbkey: string, cuid: string, create: boolean): Promise<SlotRecord & { wallet: string }> {
  const id = /^[1-9][0-9]{0,15}$/.test(userDbkey) ? Number(userDbkey) : Number.NaN;
  const wallet = Number.isSafeInteger(id) ? await findWallet(ctx.db, id) : null;
  if (!wallet) throw new ChainServiceError("slot_not_found", "no slot wallet is known for this user_dbkey (the user must register a PIN)");
  const slot = await activeSlotRecord(ctx, id, cuid, create);
  if (!slot) throw new ChainServiceError("slot_not_found", `this user has no active slot of cuid ${cuid}`);
  return { ...slot, wallet: getAddress(slot.wallet) };
}

/** @internal The cuid must be registered by `clientId`. */
export function requireOwnCuid(clientId: string, cuid: string, owner: string | null): void {
  if (owner !== clientId) {
    throw new ChainServiceError("provider_not_registered", `cuid ${cuid} is not registered by this client`);
  }
}
