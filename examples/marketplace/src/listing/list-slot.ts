import type { Database } from "@slotgate/storage";
import { MarketError } from "../errors.js";
import type { SlotgateApi } from "../slotgate-api.js";
import { type Listing, createListing } from "../storage/listings.js";
import { sellerStatus } from "../storage/seller-status.js";

/** What listing needs: the database, the service, the traded games (cuid → client_id). */
export interface ListingDeps {
  db: Database;
  api: SlotgateApi;
  games: ReadonlyMap<string, string>;
}

/** Message of a listing refused because the seller is logged in to the game (spec 3.1 rule 1). */
export const PLAYING_MESSAGE = "You are logged in to the game: log out of the game first. A slot can be listed only while you are logged out.";

/**
 * Lists one of the seller's slots (spec 1.3, 3.1 rule 1). Accepted only when all hold: the cuid is a
 * game traded here; the service lists the slot among the seller's slots of that cuid; this marketplace's
 * own view (the webhooks) says `logged_out` at the game's client; the service's live
 * `listing_allowed` says so too; the slot has no live listing. The own view is checked again, with the
 * seller's status row locked, in the transaction that inserts the listing, so a `logged_in` event that
 * arrives meanwhile either comes first (refused) or withdraws the new listing.
 *
 * @example
 * ```ts
 * const listing = await listSlot({ db, api, games }, { userId, accessToken }, { cuid, metaIdx: 0, price: "100" });
 * ```
 */
export async function listSlot(
  deps: ListingDeps,
  seller: { userId: string; accessToken: string },
  args: { cuid: string; metaIdx: number; price: string },
): Promise<Listing> {
  const clientId = deps.games.get(args.cuid);
  if (clientId === undefined) throw new MarketError("unknown_game", 404, `No game with cuid ${args.cuid} is traded on this marketplace.`);
  const slots = await deps.api.listSlots({ accessToken: seller.accessToken, cuid: args.cuid });
  if (!slots.some((s) => s.meta_idx === args.metaIdx))
    throw new MarketError("not_your_slot", 403, `Slot ${args.metaIdx} of ${args.cuid} is not one of your slots.`);
  if ((await sellerStatus(deps.db, seller.userId, clientId)) === "logged_in") throw new MarketError("seller_logged_in", 409, PLAYING_MESSAGE);
  const live = await deps.api.listingAllowed(seller.userId, clientId);
  if (!live.listing_allowed)
    throw new MarketError("listing_not_allowed", 409, `The Slotgate service says you are ${live.status} at the game: log out of the game first.`);
  const result = await createListing(deps.db, { cuid: args.cuid, metaIdx: args.metaIdx, seller: seller.userId, clientId, price: args.price });
  if ("listing" in result) return result.listing;
  if (result.refused === "seller_logged_in") throw new MarketError("seller_logged_in", 409, PLAYING_MESSAGE);
  throw new MarketError("already_listed", 409, `Slot ${args.metaIdx} of ${args.cuid} is already listed.`);
}
