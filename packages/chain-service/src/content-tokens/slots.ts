import { getAddress } from "ethers";
import { ChainServiceError } from "../errors.js";
import type { ServiceContext } from "../context.js";
import { activeSlotRecord } from "../slots/slots.js";
import type { SlotRecord } from "../storage/slots.js";
import { findWallet } from "../storage/wallets.js";

/**
 * @internal The ACTIVE slot of `cuid` of `user_dbkey` (the decimal user id of the slot's user), where
 * purchases and spends land; `slot_not_found` for an unknown user or one without an active slot of the
 * cuid. Neither opens a slot: a refused purchase must change nothing, and a purchase cannot succeed on a
 * slot nobody opened (its wallet has given no consent). Slots are opened by the user's login to the
 * game (the code exchange), `approve_purchases`, `POST /v1/slots` and the development faucet.
 */
export async function activeSlotOf(ctx: ServiceContext, userDbkey: string, cuid: string): Promise<SlotRecord & { wallet: string }> {
  const id = /^[1-9][0-9]{0,15}$/.test(userDbkey) ? Number(userDbkey) : Number.NaN;
  const wallet = Number.isSafeInteger(id) ? await findWallet(ctx.db, id) : null;
  if (!wallet) throw new ChainServiceError("slot_not_found", "no slot wallet is known for this user_dbkey (the user must register a PIN)");
  const slot = await activeSlotRecord(ctx, id, cuid, false);
  if (!slot) {
    throw new ChainServiceError("slot_not_found", `this user has no active slot of cuid ${cuid}: it is opened when the user logs in to the game, consents to purchases, or opens one (POST /v1/slots)`);
  }
  return { ...slot, wallet: getAddress(slot.wallet) };
}

/** @internal The cuid must be registered by `clientId`. */
export function requireOwnCuid(clientId: string, cuid: string, owner: string | null): void {
  if (owner !== clientId) {
    throw new ChainServiceError("provider_not_registered", `cuid ${cuid} is not registered by this client`);
  }
}
