import { getAddress } from "ethers";
import { ChainServiceError } from "../errors.js";
import type { ServiceContext } from "../service-context.js";
import { activeSlotRecord } from "../slots/slots.js";
import { type SlotRecord, findSlotByWallet } from "../storage/slots.js";
import { type WalletRecord, findWallet } from "../storage/wallets.js";

/** The user id `user_dbkey` names (a decimal string) with its wallet record; `slot_not_found` when none. */
async function userOfDbkey(ctx: ServiceContext, userDbkey: string): Promise<{ id: number; wallet: WalletRecord }> {
  const id = /^[1-9][0-9]{0,15}$/.test(userDbkey) ? Number(userDbkey) : Number.NaN;
  const wallet = Number.isSafeInteger(id) ? await findWallet(ctx.db, id) : null;
  if (!wallet) throw new ChainServiceError("slot_not_found", "no slot wallet is known for this user_dbkey (the user must register a PIN)");
  return { id, wallet };
}

/**
 * @internal The ACTIVE slot of `cuid` of `user_dbkey` (the decimal user id of the slot's user), where
 * spends land: `slot_not_found` for an unknown user or one without an active slot of the cuid (a spend
 * never opens one).
 */
export async function activeSlotOf(ctx: ServiceContext, userDbkey: string, cuid: string): Promise<SlotRecord & { wallet: string }> {
  const { id } = await userOfDbkey(ctx, userDbkey);
  const slot = await activeSlotRecord(ctx, id, cuid, false);
  if (!slot) throw new ChainServiceError("slot_not_found", `this user has no active slot of cuid ${cuid}`);
  return { ...slot, wallet: getAddress(slot.wallet) };
}

/**
 * @internal The slot a provider's purchase for `user_dbkey` would land in, without opening one: the active
 * slot of the cuid, or — when the user has none — the wallet a first opening would use if it can hold a
 * consent at all (the user's C_SALT wallet while it backs no slot: the user may have consented from it
 * before any slot existed). `open` opens that slot once the purchase's checks passed, so a refused purchase
 * changes nothing. `null` wallet: no slot and no wallet that could have consented.
 */
export async function purchaseSlotOf(
  ctx: ServiceContext,
  userDbkey: string,
  cuid: string,
): Promise<{ wallet: string | null; open: (() => Promise<string>) | null }> {
  const { id, wallet: owner } = await userOfDbkey(ctx, userDbkey);
  const active = await activeSlotRecord(ctx, id, cuid, false);
  if (active) return { wallet: getAddress(active.wallet), open: null };
  if ((await findSlotByWallet(ctx.db, owner.contentAddress)) !== null) return { wallet: null, open: null };
  const candidate = getAddress(owner.contentAddress);
  return {
    wallet: candidate,
    open: async () => {
      const opened = await activeSlotRecord(ctx, id, cuid, true);
      // Another opening of this user's took the C_SALT wallet meanwhile: the new slot has no consent.
      if (!opened || getAddress(opened.wallet) !== candidate)
        throw new ChainServiceError("insufficient_allowance", "The user has not consented to purchases for this cuid from this slot.");
      return candidate;
    },
  };
}

/** @internal The cuid must be registered by `clientId`. */
export function requireOwnCuid(clientId: string, cuid: string, owner: string | null): void {
  if (owner !== clientId) {
    throw new ChainServiceError("provider_not_registered", `cuid ${cuid} is not registered by this client`);
  }
}
