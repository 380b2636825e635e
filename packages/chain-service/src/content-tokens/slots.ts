import { ChainServiceError } from "../errors.js";
import type { ServiceContext } from "../context.js";
import { findWallet, type WalletRecord } from "../storage/wallets.js";

/** @internal The wallet of `user_dbkey` (the decimal user id of the slot's user), or `slot_not_found`. */
export async function slotWalletOf(ctx: ServiceContext, userDbkey: string): Promise<WalletRecord> {
  const id = /^[1-9][0-9]{0,15}$/.test(userDbkey) ? Number(userDbkey) : Number.NaN;
  const wallet = Number.isSafeInteger(id) ? await findWallet(ctx.db, id) : null;
  if (!wallet) throw new ChainServiceError("slot_not_found", "no slot wallet is known for this user_dbkey (the user must register a PIN)");
  return wallet;
}

/** @internal The cuid must be registered by `clientId`. */
export function requireOwnCuid(clientId: string, cuid: string, owner: string | null): void {
  if (owner !== clientId) {
    throw new ChainServiceError("provider_not_registered", `cuid ${cuid} is not registered by this client`);
  }
}
