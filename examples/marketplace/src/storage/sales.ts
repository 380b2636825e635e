import type { Database, Queryable } from "@slotgate/storage";
import type { Listing } from "./listings.js";

/** A buyer's commitment and the hand-over's outcome. */
export interface Sale {
  id: string;
  listing_id: string;
  buyer_user_id: string;
  /** `reserved` (waiting for the seller's confirmation in the wallet window), `pending` (the chain write is on its way), `sold`, `failed`. */
  state: "reserved" | "pending" | "sold" | "failed";
  /** The id of the sale's latest `slot_hand_over` confirmation (the wallet window), or null before the first. */
  confirmation_id: string | null;
  write_id: string | null;
  tx_hash: string | null;
  new_owner: string | null;
  tr_cnt: number | null;
  message: string | null;
}

const COLUMNS = "id::text AS id, listing_id::text AS listing_id, buyer_user_id, state, confirmation_id, write_id, tx_hash, new_owner, tr_cnt, message";

/**
 * A buyer commits to a `listed` listing (not their own): the listing becomes `reserved` for them and
 * a sale row is opened, in one transaction. Null when the listing is not listed any more or is the buyer's own.
 *
 * @example
 * ```ts
 * const reserved = await reserveListing(db, "12", "8");
 * ```
 */
export function reserveListing(db: Database, listingId: string, buyer: string): Promise<{ listing: Listing; sale: Sale } | null> {
  return db.transaction(async (tx) => {
    const listings = await tx.query<Listing>(
      `UPDATE mk_listings SET state = 'reserved', buyer_user_id = $2, updated_at = now()
       WHERE id = $1 AND state = 'listed' AND seller_user_id <> $2
       RETURNING id::text AS id, cuid, meta_idx, seller_user_id, price, state, buyer_user_id, withdrawn_reason`,
      [listingId, buyer],
    );
    const listing = listings[0];
    if (!listing) return null;
    const sales = await tx.query<Sale>(`INSERT INTO mk_sales (listing_id, buyer_user_id, state) VALUES ($1, $2, 'reserved') RETURNING ${COLUMNS}`, [
      listingId,
      buyer,
    ]);
    return { listing, sale: sales[0]! };
  });
}

/**
 * The open (reserved or pending) sale of a listing, or null.
 *
 * @example
 * ```ts
 * const sale = await openSale(db, "12");
 * ```
 */
export async function openSale(db: Queryable, listingId: string): Promise<Sale | null> {
  return (await db.query<Sale>(`SELECT ${COLUMNS} FROM mk_sales WHERE listing_id = $1 AND state IN ('reserved', 'pending')`, [listingId]))[0] ?? null;
}

/**
 * Notes an attempt of the hand-over: the id of its `slot_hand_over` confirmation, and the write id when the
 * service approved it but the chain write has not landed yet (the sale is then `pending`).
 *
 * @example
 * ```ts
 * await noteAttempt(db, sale.id, { confirmationId, writeId: null, message: null });
 * ```
 */
export async function noteAttempt(
  db: Queryable,
  saleId: string,
  attempt: { confirmationId: string; writeId: string | null; message: string | null },
): Promise<void> {
  await db.query(
    `UPDATE mk_sales SET confirmation_id = $2, write_id = $3, message = $4, state = CASE WHEN $3::text IS NULL THEN 'reserved' ELSE 'pending' END, updated_at = now()
     WHERE id = $1 AND state IN ('reserved', 'pending')`,
    [saleId, attempt.confirmationId, attempt.writeId, attempt.message],
  );
}

/**
 * Settles a sale: `sold` (the listing too) with the chain's new owner and transfer count, or `failed`
 * (the listing is offered again). Idempotent: only an open sale changes.
 *
 * @example
 * ```ts
 * await settleSale(db, sale, { sold: true, txHash, newOwner, trCnt: 1, message: null });
 * ```
 */
export function settleSale(
  db: Database,
  sale: Pick<Sale, "id" | "listing_id">,
  outcome: { sold: boolean; txHash: string | null; newOwner: string | null; trCnt: number | null; message: string | null },
): Promise<Sale | null> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<Sale>(
      `UPDATE mk_sales SET state = $2, tx_hash = COALESCE($3, tx_hash), new_owner = $4, tr_cnt = $5, message = $6, updated_at = now()
       WHERE id = $1 AND state IN ('reserved', 'pending') RETURNING ${COLUMNS}`,
      [sale.id, outcome.sold ? "sold" : "failed", outcome.txHash, outcome.newOwner, outcome.trCnt, outcome.message],
    );
    if (rows.length === 0) return null;
    await tx.query(
      outcome.sold
        ? "UPDATE mk_listings SET state = 'sold', updated_at = now() WHERE id = $1"
        : "UPDATE mk_listings SET state = 'listed', buyer_user_id = NULL, updated_at = now() WHERE id = $1 AND state = 'reserved'",
      [sale.listing_id],
    );
    return rows[0]!;
  });
}

/**
 * The newest sale of a listing (any state), or null: what the page shows after a hand-over.
 *
 * @example
 * ```ts
 * const sale = await latestSale(db, "12");
 * ```
 */
export async function latestSale(db: Queryable, listingId: string): Promise<Sale | null> {
  return (await db.query<Sale>(`SELECT ${COLUMNS} FROM mk_sales WHERE listing_id = $1 ORDER BY id DESC LIMIT 1`, [listingId]))[0] ?? null;
}
