import { type Database, type MigrationSet, migrate } from "@slotgate/storage";

/**
 * The marketplace's own tables, applied with `@slotgate/storage`'s runner (`mk_schema_migrations`).
 *
 * - `mk_webhook_events`: every accepted webhook, once (`id` is the service's event id).
 * - `mk_seller_status`: per (user_id, client_id) the status of the newest event by its `timestamp`.
 * - `mk_listings`: one slot (cuid, meta_idx) offered by a seller; at most one live (listed or reserved) per slot.
 * - `mk_sales`: a buyer's commitment to a listing and the hand-over's outcome.
 *
 * Version 2 (issue 31): the PIN, the key share and the backup words live in the Slotgate wallet window, so
 * `mk_seller_credentials` (the PIN salt and the sealed key_share_user of version 1) is dropped, and a sale keeps the
 * id of its `slot_hand_over` confirmation (`confirmation_id`, was the `exchange_token_owner` state).
 */
export const MARKETPLACE_MIGRATIONS: MigrationSet = {
  table: "mk_schema_migrations",
  lockKey: 0x6d6b7431,
  migrations: [
    {
      version: 1,
      name: "webhook events, seller status, listings, sales, sealed credentials",
      sql: `
CREATE TABLE mk_webhook_events (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  client_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('logged_in', 'logged_out')),
  event_time TIMESTAMPTZ NOT NULL,
  received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  outcome TEXT NOT NULL CHECK (outcome IN ('applied', 'stale'))
);
CREATE TABLE mk_seller_status (
  user_id TEXT NOT NULL,
  client_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('logged_in', 'logged_out')),
  event_time TIMESTAMPTZ NOT NULL,
  event_id TEXT,
  PRIMARY KEY (user_id, client_id)
);
CREATE TABLE mk_listings (
  id BIGSERIAL PRIMARY KEY,
  cuid TEXT NOT NULL,
  meta_idx INTEGER NOT NULL CHECK (meta_idx >= 0),
  seller_user_id TEXT NOT NULL,
  price TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('listed', 'withdrawn', 'reserved', 'sold')),
  buyer_user_id TEXT,
  withdrawn_reason TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX mk_listings_live_slot ON mk_listings (cuid, meta_idx) WHERE state IN ('listed', 'reserved');
CREATE INDEX mk_listings_seller ON mk_listings (seller_user_id, state);
CREATE TABLE mk_sales (
  id BIGSERIAL PRIMARY KEY,
  listing_id BIGINT NOT NULL REFERENCES mk_listings (id),
  buyer_user_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('reserved', 'pending', 'sold', 'failed')),
  exchange_state TEXT,
  write_id TEXT,
  tx_hash TEXT,
  new_owner TEXT,
  tr_cnt INTEGER,
  message TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX mk_sales_open_listing ON mk_sales (listing_id) WHERE state IN ('reserved', 'pending');
CREATE TABLE mk_seller_credentials (
  user_id TEXT PRIMARY KEY,
  wallet_address TEXT NOT NULL,
  pin_salt TEXT NOT NULL,
  sealed_key_share TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);`,
    },
    {
      version: 2,
      name: "the wallet window holds the PIN and the key share: drop the sealed credentials; a sale keeps its confirmation id",
      sql: `
DROP TABLE mk_seller_credentials;
ALTER TABLE mk_sales RENAME COLUMN exchange_state TO confirmation_id;`,
    },
  ],
};

/**
 * Brings the marketplace's tables up to date (safe at every start).
 *
 * @example
 * ```ts
 * const db = await openDatabase({ dataDir });
 * await migrateMarketplace(db); // [1, 2] on a fresh database, [] afterwards
 * ```
 */
export function migrateMarketplace(db: Database): Promise<number[]> {
  return migrate(db, MARKETPLACE_MIGRATIONS);
}
