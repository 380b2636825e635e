import { randomBytes } from "node:crypto";
import { type SlotView, isPendingWrite } from "@slotgate/protocol";
import type { Database } from "@slotgate/storage";
import { MarketError } from "../errors.js";
import type { Sealer } from "../sealing.js";
import type { SlotgateApi } from "../slotgate-api.js";
import { loadCredentials } from "../storage/credentials.js";
import { type Listing, getListing } from "../storage/listings.js";
import { type Sale, noteAttempt, openSale, settleSale } from "../storage/sales.js";

/** What the hand-over needs. */
export interface HandOverDeps {
  db: Database;
  api: SlotgateApi;
  sealer: Sealer;
}

/** The outcome the page shows: the sale, and the slot as the chain reads it after a completed hand-over. */
export interface HandOverResult {
  sale: Sale;
  slot: SlotView | null;
}

/** Message of a hand-over the service refused with 409 `logout_required`. */
export const SELLER_PLAYING = "The seller is playing; the sale waits. It can be confirmed once the seller has logged out of the game.";

async function reservedListingOf(db: Database, listingId: string, seller: string): Promise<{ listing: Listing; sale: Sale }> {
  const listing = await getListing(db, listingId);
  if (!listing) throw new MarketError("listing_not_found", 404, "No such listing.");
  if (listing.seller_user_id !== seller) throw new MarketError("not_your_listing", 403, "Only the seller confirms the hand-over.");
  const sale = listing.state === "reserved" ? await openSale(db, listingId) : null;
  if (!sale) throw new MarketError("not_reserved", 409, `This listing is ${listing.state}: there is no buyer's commitment to confirm.`);
  return { listing, sale };
}

/** Settles the sale as sold with the chain's view of the slot (the new owner and tr_cnt). */
async function settleSold(
  deps: HandOverDeps,
  listing: Listing,
  sale: Sale,
  fallback: { txHash: string | null; newOwner: string | null; trCnt: number | null },
): Promise<HandOverResult> {
  const slot = await deps.api.slot(listing.cuid, listing.meta_idx).catch(() => null);
  const settled = await settleSale(deps.db, sale, {
    sold: true,
    txHash: fallback.txHash,
    newOwner: slot?.owner ?? fallback.newOwner,
    trCnt: slot?.tr_cnt ?? fallback.trCnt,
    message: null,
  });
  return { sale: settled ?? sale, slot };
}

/**
 * The seller confirms the hand-over of a reserved listing with the PIN (spec 4.9): the page sends
 * `pin_hash` (SHA-256 hex of PIN ‖ pin_salt); the marketplace opens the seller's sealed key_share_user
 * and calls `exchange_token_owner` with the seller's bearer token and a fresh `state`. On success the
 * sale is `sold` with the new owner and tr_cnt read back from the chain; a 202 leaves it `pending` (see
 * {@link refreshSale}); 409 `logout_required` leaves it reserved ({@link SELLER_PLAYING}); other
 * refusals (a wrong PIN, …) are passed on and the reservation stays.
 *
 * @example
 * ```ts
 * const { sale, slot } = await confirmHandOver(deps, { userId, accessToken }, "12", pinHash);
 * ```
 */
export async function confirmHandOver(
  deps: HandOverDeps,
  seller: { userId: string; accessToken: string },
  listingId: string,
  pinHash: string,
): Promise<HandOverResult> {
  const { listing, sale } = await reservedListingOf(deps.db, listingId, seller.userId);
  if (sale.state === "pending") return refreshSale(deps, seller, listingId);
  const credentials = await loadCredentials(deps.db, deps.sealer, seller.userId);
  if (!credentials) throw new MarketError("pin_not_registered", 409, "Register your PIN on this marketplace first (My slots).");
  const exchangeState = randomBytes(24).toString("hex");
  await noteAttempt(deps.db, sale.id, { exchangeState, writeId: null, message: null });
  let answer: Awaited<ReturnType<SlotgateApi["exchangeTokenOwner"]>>;
  try {
    answer = await deps.api.exchangeTokenOwner({
      accessToken: seller.accessToken,
      idempotencyKey: `marketplace-sale-${sale.id}-${exchangeState}`,
      request: {
        state: exchangeState,
        cu_id: listing.cuid,
        from_uuid: listing.seller_user_id,
        to_uuid: sale.buyer_user_id,
        meta_idx: listing.meta_idx,
        pin_hash: pinHash,
        pin_salt: credentials.pinSalt,
        key_share_user: credentials.keyShareUser,
      },
    });
  } catch (error) {
    if (error instanceof MarketError && error.serviceError === "logout_required") {
      await noteAttempt(deps.db, sale.id, { exchangeState, writeId: null, message: SELLER_PLAYING });
      throw new MarketError("seller_playing", 409, SELLER_PLAYING, "logout_required");
    }
    throw error;
  }
  if (isPendingWrite(answer)) {
    await noteAttempt(deps.db, sale.id, { exchangeState, writeId: answer.write_id, message: "The hand-over is being written to the chain." });
    return { sale: (await openSale(deps.db, listingId)) ?? sale, slot: null };
  }
  return settleSold(deps, listing, sale, { txHash: answer.tx_hash, newOwner: answer.new_owner, trCnt: answer.tr_cnt });
}

/**
 * Follows a `pending` hand-over (the seller's session: the chain write is theirs): settles it when the
 * write confirmed or failed, else answers it unchanged.
 *
 * @example
 * ```ts
 * const { sale } = await refreshSale(deps, { userId, accessToken }, "12");
 * ```
 */
export async function refreshSale(deps: HandOverDeps, seller: { userId: string; accessToken: string }, listingId: string): Promise<HandOverResult> {
  const { listing, sale } = await reservedListingOf(deps.db, listingId, seller.userId);
  if (sale.state !== "pending" || !sale.write_id) return { sale, slot: null };
  const write = await deps.api.chainWrite({ accessToken: seller.accessToken, writeId: sale.write_id });
  if (write.status === "confirmed") {
    const result = write.result ?? {};
    return settleSold(deps, listing, sale, {
      txHash: typeof result["tx_hash"] === "string" ? result["tx_hash"] : null,
      newOwner: typeof result["new_owner"] === "string" ? result["new_owner"] : null,
      trCnt: typeof result["tr_cnt"] === "number" ? result["tr_cnt"] : null,
    });
  }
  if (write.status === "failed") {
    const message = `The hand-over failed on chain (${write.error?.code ?? "failed"}): ${write.error?.message ?? "no detail"}; the slot is listed again.`;
    const settled = await settleSale(deps.db, sale, { sold: false, txHash: null, newOwner: null, trCnt: null, message });
    return { sale: settled ?? sale, slot: null };
  }
  return { sale, slot: null };
}
