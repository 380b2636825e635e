import type { SlotView, WalletConfirmationResponse } from "@slotgate/protocol";
import type { Database } from "@slotgate/storage";
import { MarketError } from "../errors.js";
import type { SlotgateApi } from "../slotgate-api.js";
import { type Listing, getListing } from "../storage/listings.js";
import { type Sale, noteAttempt, openSale, settleSale } from "../storage/sales.js";

/** What the hand-over needs. */
export interface HandOverDeps {
  db: Database;
  api: SlotgateApi;
  /** The page's redirect URI, registered for this marketplace's client: where the wallet window posts its outcome. */
  walletRedirectUri: string;
}

/** The outcome the page shows: the sale, and the slot as the chain reads it after a completed hand-over. */
export interface HandOverResult {
  sale: Sale;
  slot: SlotView | null;
}

/** What the page opens the wallet window with (`SlotgateWallet.confirmSlotHandOver`). */
export interface HandOverWindow {
  id: string;
  kind: "slot_hand_over";
  window_url: string;
}

/** Message of a hand-over the service refused with `logout_required`. */
export const SELLER_PLAYING = "The seller is playing; the sale waits. It can be confirmed once the seller has logged out of the game.";
/** Message of a hand-over the seller declined in the window, or let expire. */
export const SELLER_DECLINED = "The seller did not confirm the hand-over in the Slotgate window; the sale waits.";
/** Message of a hand-over approved in the window whose chain write has not landed yet. */
export const WRITING = "The hand-over is being written to the chain.";

async function reservedListingOf(db: Database, listingId: string, seller: string): Promise<{ listing: Listing; sale: Sale }> {
  const listing = await getListing(db, listingId);
  if (!listing) throw new MarketError("listing_not_found", 404, "No such listing.");
  if (listing.seller_user_id !== seller) throw new MarketError("not_your_listing", 403, "Only the seller confirms the hand-over.");
  const sale = listing.state === "reserved" ? await openSale(db, listingId) : null;
  if (!sale) throw new MarketError("not_reserved", 409, `This listing is ${listing.state}: there is no buyer's commitment to confirm.`);
  return { listing, sale };
}

/** Settles the sale as sold with the chain's view of the slot (the new owner and tr_cnt). */
async function settleSold(deps: HandOverDeps, listing: Listing, sale: Sale, txHash: string | null): Promise<HandOverResult> {
  const slot = await deps.api.slot(listing.cuid, listing.meta_idx).catch(() => null);
  const settled = await settleSale(deps.db, sale, { sold: true, txHash, newOwner: slot?.owner ?? null, trCnt: slot?.tr_cnt ?? null, message: null });
  return { sale: settled ?? sale, slot };
}

/**
 * The seller starts the hand-over of a reserved listing (spec 4.9): the marketplace asks the service for a
 * `slot_hand_over` confirmation of the slot to the buyer (this marketplace's client credentials), keeps its id on the
 * sale and answers what the page opens the Slotgate wallet window with. The PIN, the key share and the signing are
 * the window's; nothing of them reaches the marketplace.
 *
 * @example
 * ```ts
 * const { id, window_url } = await startHandOver(deps, { userId }, "12");
 * ```
 */
export async function startHandOver(deps: HandOverDeps, seller: { userId: string }, listingId: string): Promise<HandOverWindow> {
  const { listing, sale } = await reservedListingOf(deps.db, listingId, seller.userId);
  if (sale.state === "pending") throw new MarketError("hand_over_pending", 409, WRITING);
  if (!/^\d{1,15}$/.test(seller.userId)) throw new MarketError("invalid_request", 400, "This account's user id is not a number; the service cannot ask it.");
  const confirmation = await deps.api.createHandOver({
    sellerUuid: Number(seller.userId),
    buyerUserId: sale.buyer_user_id,
    cuid: listing.cuid,
    metaIdx: listing.meta_idx,
    redirectUri: deps.walletRedirectUri,
  });
  await noteAttempt(deps.db, sale.id, { confirmationId: confirmation.id, writeId: null, message: null });
  return { id: confirmation.id, kind: "slot_hand_over", window_url: confirmation.window_url };
}

/**
 * Settles the hand-over from the service's own record of its confirmation (`getWalletConfirmation`), never from the
 * page's message: `approved` with the chain write landed → `sold` with the new owner and tr_cnt read back from the
 * chain; approved but still being written → `pending` (call again); `failed` with `logout_required` → reserved, 409
 * `seller_playing` ({@link SELLER_PLAYING}); another failure → reserved, 409 `hand_over_failed` with the service's
 * code; `denied`, `expired` → reserved ({@link SELLER_DECLINED}); `pending` (the window is still open) → unchanged.
 *
 * @example
 * ```ts
 * const { sale, slot } = await finishHandOver(deps, { userId }, "12");
 * ```
 */
export async function finishHandOver(deps: HandOverDeps, seller: { userId: string }, listingId: string): Promise<HandOverResult> {
  const { listing, sale } = await reservedListingOf(deps.db, listingId, seller.userId);
  if (!sale.confirmation_id) throw new MarketError("hand_over_not_started", 409, "Start the hand-over first: the Slotgate window asks for your PIN.");
  const confirmation = await deps.api.confirmation(sale.confirmation_id);
  const note = (writeId: string | null, message: string | null) => noteAttempt(deps.db, sale.id, { confirmationId: confirmation.id, writeId, message });
  switch (confirmation.status) {
    case "approved":
      return settleApproved(deps, listing, sale, confirmation, note);
    case "pending":
      return { sale, slot: null };
    case "denied":
    case "expired":
      await note(null, SELLER_DECLINED);
      return { sale: (await openSale(deps.db, listingId)) ?? sale, slot: null };
    case "failed": {
      const code = confirmation.error?.code ?? "failed";
      if (code === "logout_required") {
        await note(null, SELLER_PLAYING);
        throw new MarketError("seller_playing", 409, SELLER_PLAYING, "logout_required");
      }
      const message = `The service refused the hand-over (${code}): ${confirmation.error?.message ?? "no detail"}; the sale waits.`;
      await note(null, message);
      throw new MarketError("hand_over_failed", 409, message, code);
    }
  }
}

async function settleApproved(
  deps: HandOverDeps,
  listing: Listing,
  sale: Sale,
  confirmation: WalletConfirmationResponse,
  note: (writeId: string | null, message: string | null) => Promise<void>,
): Promise<HandOverResult> {
  const written = confirmation.write_status;
  if (confirmation.tx_hash !== null && (written === undefined || written === "confirmed")) return settleSold(deps, listing, sale, confirmation.tx_hash);
  if (written === "confirmed") return settleSold(deps, listing, sale, null);
  if (written === "failed") {
    const message = "The hand-over failed on chain; the slot is listed again.";
    const settled = await settleSale(deps.db, sale, { sold: false, txHash: null, newOwner: null, trCnt: null, message });
    return { sale: settled ?? sale, slot: null };
  }
  await note(confirmation.write_id, WRITING);
  return { sale: (await openSale(deps.db, listing.id)) ?? sale, slot: null };
}
