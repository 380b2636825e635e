import { getAddress } from "ethers";
import type { ServiceContext } from "../service-context.js";
import { ChainServiceError } from "../errors.js";
import type { ContentSlot } from "../service.js";
import { findSlotByWallet } from "../storage/slots.js";
import { provisionWallet } from "../wallets/provision.js";
import { activeSlotRecord, slotView } from "./slots.js";

/** A wallet's owner epoch on the exchange: how many times the slot it backs changed owner (0 for none). */
async function transfersOf(ctx: ServiceContext, wallet: string): Promise<number> {
  // An exchange made before issue 28 has no per-wallet count; a wallet that backs no slot had no transfer.
  if (!ctx.walletLock.ownerEpochs) return 0;
  return Number(await ctx.contracts.exchange.owner_epoch(wallet));
}

/**
 * @internal {@link ChainService.contentSlot}: the wallet a blockchain client's answers name for the user,
 * never one the user no longer owns, with `tr_cnt` read from the chain.
 * - With a cuid: the user's active slot of it (opened when the user has none). A slot whose registry
 *   owner on chain is someone else (a sale landed and the records follow in a moment) is never named:
 *   `slot_transfer_in_progress`, retry shortly.
 * - Without: the user's C_SALT wallet while the records and the chain say it is theirs; once it was sold
 *   (it became the user's first slot of some cuid), the user's own W_SALT wallet, which no sale moves.
 */
export async function contentSlot(ctx: ServiceContext, userUuid: number, cuid?: string): Promise<ContentSlot> {
  const wallet = await provisionWallet(ctx, userUuid);
  const ownerWallet = getAddress(wallet.address);
  const owns = (view: { registered: boolean; owner: string }) => !view.registered || getAddress(view.owner) === ownerWallet;
  if (cuid !== undefined) {
    const view = await slotView(ctx, (await activeSlotRecord(ctx, userUuid, cuid, true)) as NonNullable<Awaited<ReturnType<typeof activeSlotRecord>>>);
    if (!owns(view)) {
      throw new ChainServiceError(
        "slot_transfer_in_progress",
        `the chain shows another owner for the user's active slot ${view.meta_idx} of ${cuid}: its sale is settling; retry shortly`,
      );
    }
    return { content_address: view.slot, tr_cnt: view.tr_cnt, cu_id: view.cuid, meta_idx: view.meta_idx };
  }
  const content = getAddress(wallet.contentAddress);
  const slot = await findSlotByWallet(ctx.db, content);
  if (slot === null) return { content_address: content, tr_cnt: await transfersOf(ctx, content) };
  if (slot.userUuid === userUuid) {
    const view = await slotView(ctx, slot);
    if (owns(view)) return { content_address: content, tr_cnt: view.tr_cnt };
  }
  return { content_address: ownerWallet, tr_cnt: await transfersOf(ctx, ownerWallet) };
}
