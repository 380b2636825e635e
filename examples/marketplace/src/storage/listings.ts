import type { Database, Queryable } from "@slotgate/storage";
import { lockSellerStatus } from "./seller-status.js";

/** States of a listing: offered, taken back (by the seller or by a `logged_in` event), committed to by a buyer, handed over. */
export type ListingState = "listed" | "withdrawn" | "reserved" | "sold";

/** One listing as the pages see it. */
export interface Listing {
  id: string;
  cuid: string;
  meta_idx: number;
  seller_user_id: string;
  /** Asking price, as the seller typed it (an integer string; settlement is outside this example). */
  price: string;
  state: ListingState;
  buyer_user_id: string | null;
  withdrawn_reason: string | null;
}

const COLUMNS = "id::text AS id, cuid, meta_idx, seller_user_id, price, state, buyer_user_id, withdrawn_reason";

/** Why {@link createListing} did not list. */
export type ListingRefusal = "seller_logged_in" | "already_listed";

/**
 * Lists a slot, in one transaction with the seller's status row locked: refused when this marketplace's
 * view of the seller at the game's client is `logged_in`, or when the slot already has a live listing.
 *
 * @example
 * ```ts
 * const result = await createListing(db, { cuid, metaIdx: 0, seller: "7", clientId: "sg_game", price: "100" });
 * if ("refused" in result) console.log(result.refused);
 * ```
 */
export function createListing(
  db: Database,
  args: { cuid: string; metaIdx: number; seller: string; clientId: string; price: string },
): Promise<{ listing: Listing } | { refused: ListingRefusal }> {
  return db.transaction(async (tx) => {
    if ((await lockSellerStatus(tx, args.seller, args.clientId)) === "logged_in") return { refused: "seller_logged_in" as const };
    const rows = await tx.query<Listing>(
      `INSERT INTO mk_listings (cuid, meta_idx, seller_user_id, price, state) VALUES ($1, $2, $3, $4, 'listed')
       ON CONFLICT (cuid, meta_idx) WHERE state IN ('listed', 'reserved') DO NOTHING RETURNING ${COLUMNS}`,
      [args.cuid, args.metaIdx, args.seller, args.price],
    );
    return rows[0] ? { listing: rows[0] } : { refused: "already_listed" as const };
  });
}

/**
 * One listing by id, or null.
 *
 * @example
 * ```ts
 * const listing = await getListing(db, "12");
 * ```
 */
export async function getListing(db: Queryable, id: string): Promise<Listing | null> {
  if (!/^[1-9]\d{0,17}$/.test(id)) return null;
  return (await db.query<Listing>(`SELECT ${COLUMNS} FROM mk_listings WHERE id = $1`, [id]))[0] ?? null;
}

/**
 * Listings in the given states, newest first (the listings page: `listed` and `reserved`).
 *
 * @example
 * ```ts
 * const open = await listingsIn(db, ["listed", "reserved"]);
 * ```
 */
export function listingsIn(db: Queryable, states: readonly ListingState[], seller?: string): Promise<Listing[]> {
  return seller === undefined
    ? db.query<Listing>(`SELECT ${COLUMNS} FROM mk_listings WHERE state = ANY($1::text[]) ORDER BY id DESC LIMIT 200`, [[...states]])
    : db.query<Listing>(`SELECT ${COLUMNS} FROM mk_listings WHERE state = ANY($1::text[]) AND seller_user_id = $2 ORDER BY id DESC LIMIT 200`, [
        [...states],
        seller,
      ]);
}

/**
 * The seller takes a `listed` listing back. Answers the listing, or null when it is not theirs or not listed.
 *
 * @example
 * ```ts
 * await withdrawListing(db, "12", "7");
 * ```
 */
export async function withdrawListing(db: Queryable, id: string, seller: string): Promise<Listing | null> {
  const rows = await db.query<Listing>(
    `UPDATE mk_listings SET state = 'withdrawn', withdrawn_reason = 'seller', updated_at = now()
     WHERE id = $1 AND seller_user_id = $2 AND state = 'listed' RETURNING ${COLUMNS}`,
    [id, seller],
  );
  return rows[0] ?? null;
}
